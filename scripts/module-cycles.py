#!/usr/bin/env python3
"""Finds circles of imports between the modules of each crate of the workspace.

Every `use` of a path inside the crate (`crate::…`, `super::…`, `self::…`, `child::…`) and every path written
out in code (`crate::a::b::item`, `child::item`) is an edge from the module that writes it to the module that
defines what it names. A name re-exported by a module (`pub use child::Item;`) counts as the defining module's,
so `use crate::Item` in a leaf is an edge to the leaf that defines `Item`, not to the crate root. Tests (the
`#[cfg(test)]` module at the end of a file) are left out, and a module naming itself is no edge.

Prints every circle (strongly connected set of two or more modules) and exits with status 1 if there is one.
Usage: python3 scripts/module-cycles.py [crate directories…] (default: every member with a src directory).
"""

import re
import sys
from pathlib import Path

USE = re.compile(r"\buse\s+([^;]+);", re.S)
PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
RELATIVE = re.compile(r"(?<![:\w])([a-z_][a-z0-9_]*)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
MOD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;", re.M)


def strip_comments(text):
    """The source without its tests (a `#[cfg(test)]` module ends every file that has one), comments and string
    literals, so that paths in them are not taken for imports."""
    text = re.split(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)[0]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def modules(src):
    """Maps each module path (a tuple of names; () is the crate root) to its file."""
    found = {}

    def walk(path, file):
        found[path] = file
        text = strip_comments(file.read_text())
        base = file.parent if file.name in ("lib.rs", "main.rs", "mod.rs") else file.parent / file.stem
        for name in MOD.findall(text):
            for child in (base / f"{name}.rs", base / name / "mod.rs"):
                if child.exists():
                    walk(path + (name,), child)

    root = src / "lib.rs" if (src / "lib.rs").exists() else src / "main.rs"
    walk((), root)
    return found


def expand(tree):
    """The paths of a use tree: `a::{b, c::{d, e}}` gives a::b, a::c::d, a::c::e (`as` renames dropped)."""
    tree = re.sub(r"\s+", "", tree)
    brace = tree.find("{")
    if brace < 0:
        return [tree.split("as")[0] if "as" in tree and not tree.endswith("as") else tree]
    prefix, inner = tree[:brace], tree[brace + 1 : tree.rfind("}")]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [prefix + p for part in parts if part for p in expand(part)]


def resolve(path, here, mods):
    """The module path a written path starts from and the names after it, or None if it leaves the crate."""
    names = path.split("::")
    if names[0] == "crate":
        base, rest = (), names[1:]
    elif names[0] in ("super", "self"):
        base = here
        while names and names[0] in ("super", "self"):
            if names[0] == "super":
                base = base[:-1]
            names = names[1:]
        rest = names
    else:
        return None
    return base, [n for n in rest if n and n != "*"]


def main():
    roots = [Path(a) for a in sys.argv[1:]] or sorted(p.parent for p in Path(".").glob("*/*/src") if p.is_dir() and p.parts[0] != "target")
    roots += [] if sys.argv[1:] else [p.parent for p in Path(".").glob("*/src") if (p / "main.rs").exists()]
    circles = 0
    for crate in roots:
        src = crate / "src" if (crate / "src").is_dir() else crate
        mods = modules(src)
        texts = {m: strip_comments(f.read_text()) for m, f in mods.items()}
        # Re-exports: (module, name) → the module the name comes from.
        exports = {}
        for m, text in texts.items():
            for tree in re.findall(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
                for path in expand(tree):
                    names = path.split("::")
                    target = resolve(path, m, mods)
                    if target is None:
                        start = (m + (names[0],)) if (m + (names[0],)) in mods else None
                        if start is None:
                            continue
                        target = (start, names[1:])
                    base, rest = target
                    while rest and base + (rest[0],) in mods:
                        base, rest = base + (rest[0],), rest[1:]
                    if rest:
                        exports[(m, rest[-1])] = base

        def owner(base, rest):
            """The module that defines what `rest` names below `base`, following re-exports."""
            while rest and base + (rest[0],) in mods:
                base, rest = base + (rest[0],), rest[1:]
            seen = set()
            while rest and (base, rest[0]) in exports and (base, rest[0]) not in seen:
                seen.add((base, rest[0]))
                base = exports[(base, rest[0])]
            return base

        edges = {m: set() for m in mods}
        for m, text in texts.items():
            paths = [p for tree in USE.findall(text) for p in expand(tree)]
            paths += [kind + rest for kind, rest in PATH.findall(text)]
            # Paths written from a child module's name (`child::Item`), as a parent may write them.
            paths += [first + rest for first, rest in RELATIVE.findall(text) if m + (first,) in mods]
            for path in paths:
                names = path.split("::")
                target = resolve(path, m, mods)
                if target is None and (m + (names[0],)) in mods:
                    target = (m + (names[0],), names[1:])
                if target is None:
                    continue
                to = owner(*target)
                if to != m:
                    edges[m].add(to)
        for component in strongly_connected(edges):
            if len(component) > 1:
                circles += 1
                names = sorted("::".join(("crate",) + c) for c in component)
                print(f"{crate}: a circle of imports between {', '.join(names)}")
    if circles == 0:
        print(f"no circle of imports between the modules of {len(roots)} crates")
    return 1 if circles else 0


def strongly_connected(edges):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            out.append(component)

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    sys.exit(main())
