#!/usr/bin/env python3
"""Checks the architecture invariants that a script can check (ARCHITECTURE.md states them):

1. the crates depend on each other exactly as ARCHITECTURE.md's diagram draws them (read from every member's
   Cargo.toml: dependencies, optional ones, dev-dependencies), and in one direction: the technique crates never
   depend on `khela`, `khela-files`, `bench-suite`, the Python package or the test kit; `khela-games`, `khela-tt`,
   `khela-files` and `khela-testkit` on no crate of the workspace; `khela` on no front end; `khela-testkit` is
   only ever a dev-dependency;
2. every member takes the workspace's lints (`[lints] workspace = true`: `unsafe_code` forbidden, `missing_docs`)
   and every dependency from the workspace's table (versions pinned once); only `bench-suite` depends on clap, and
   no technique crate on anyhow;
3. no command of `bench-suite` imports another command, and no layer below the commands imports one;
4. no command matches on a game's name (the registry's entries answer for their games), but for the exceptions
   named below with their reason;
5. the technique crates never print, read or write files, or exit, outside their tests; `khela` does file I/O only
   in the modules named below, and never prints or exits;
6. files are written through `khela-files` (whole or not at all), but for the append-only files named below;
7. each crate's one search loop names none of the types plugged into it (orderings, caches, observers; policies,
   priors, generators): it calls their traits;
8. every game of `khela-games` runs the conformance suite in its tests.

Prints every breach, one a line, and exits 1 if there is any; prints one line and exits 0 otherwise.
"""

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Exceptions, each with its reason; a file named here that no longer breaks the rule is reported too, so that
# the list stays true.
MATCHES_ON_A_NAME = {
}
PRINTS_OR_READS = {
}
KHELA_FILES = {"crates/khela/src/tables.rs", "crates/khela/src/layers.rs", "crates/khela/src/net.rs"}
WRITES_FILES = {
    # The one place files are written whole: a temporary file beside the target, renamed over it.
    "crates/files/src/lib.rs",
    # A checkpoint is appended a row per unit of work finished; a last row cut short by a kill is ignored.
    "bench-suite/src/checkpoint.rs",
    # The sweep's rows are appended a tree at a time, each tree's CRC-32 in `sweep.checksums`, for `--resume`.
    "bench-suite/src/commands/sweep/rows.rs",
    # The records a task sends another stream through a temporary file, renamed into place when complete.
    "bench-suite/src/commands/count/exchange.rs",
}
# Implementations of `Game` in khela-games that are adapters over another game, which runs the suite.
NOT_GAMES = {"crates/games/src/settled.rs"}  # `Settled`: another game with some positions made terminal.
TECHNIQUE_CRATES = ["khela-games", "khela-tt", "khela-exact", "khela-heuristic", "khela-mcts", "khela-zero"]
FOUNDATIONS = ["khela-games", "khela-tt", "khela-files", "khela-testkit"]
FRONT_ENDS = ["bench-suite", "khela-python", "khela-web"]
# Each crate's one search loop, and the traits of what is plugged into it.
LOOPS = {
    "khela-exact": (["search"], ["search/config.rs"], ["Orderer", "Cache", "Observer"]),
    "khela-mcts": (["search.rs", "search"], [], ["Policy", "Prior", "Random"]),
}

IO = re.compile(r"\b(println!|eprintln!|print!|eprint!|process::exit|fs::|File::(open|create)|std(in|out|err)\(\))")
PRINTS = re.compile(r"\b(println!|eprintln!|print!|eprint!|std::process::exit)")
WRITES = re.compile(r"\bfs::(write|copy)\b|\bFile::create\b|\bOpenOptions\b|\bNamedTempFile\b|\.persist\(")
NAME_MATCH = re.compile(r"GameName::[A-Z]\w*\s*(=>|\|)|==\s*GameName::[A-Z]|match\s+[\w.]*\.name\b")
CRATE = re.compile(r"\b(?:khela(?:-[a-z]+)?|bench-suite)\b")


def code(path):
    """The lines of `path` before its test module, numbered from 1, comments left out."""
    lines = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip() == "#[cfg(test)]":
            break
        if not line.strip().startswith("//"):
            lines.append((number, line))
    return lines


def relative(path):
    return str(path.relative_to(ROOT))


def members():
    """Each member's package name → (its directory, its parsed Cargo.toml)."""
    workspace = tomllib.loads((ROOT / "Cargo.toml").read_text())
    found = {}
    for member in workspace["workspace"]["members"]:
        manifest = tomllib.loads((ROOT / member / "Cargo.toml").read_text())
        found[manifest["package"]["name"]] = (ROOT / member, manifest)
    return found


def cargo_edges(crates):
    """The edges between members: (from, to, kind), kind "dep", "optional" or "dev"."""
    edges = set()
    for name, (_, manifest) in crates.items():
        for table, kind in (("dependencies", "dep"), ("dev-dependencies", "dev")):
            for dep, spec in manifest.get(table, {}).items():
                if dep in crates:
                    optional = isinstance(spec, dict) and spec.get("optional", False)
                    edges.add((name, dep, "optional" if optional else kind))
    return edges


def drawn_edges():
    """The edges the diagram of ARCHITECTURE.md draws, the crates it names, and those it says depend on none.

    In the code block that holds the diagram, `A, B ──► C, D` draws dependencies, `A ╌╌► C` dev-dependencies; a
    line whose left side names no crate continues the line above with optional dependencies (a feature's); a line
    that names crates without an arrow says they depend on no crate of the workspace.
    """
    text = (ROOT / "ARCHITECTURE.md").read_text()
    blocks = [b for b in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S) if "──►" in b]
    if not blocks:
        return None, set(), set()
    edges, named, leaves, sources = set(), set(), set(), []
    for line in blocks[0].splitlines():
        arrow = re.search(r"[─╌]+\s*►|►", line)
        if not arrow:
            leaves |= set(CRATE.findall(line))
            continue
        left, right = CRATE.findall(line[: arrow.start()]), CRATE.findall(line[arrow.end() :])
        kind = "dev" if "╌" in arrow.group() else "dep"
        if left:
            sources = left
        elif kind == "dep":
            kind = "optional"
        named |= set(left) | set(right)
        edges |= {(a, b, kind) for a in sources for b in right}
    return edges, named | leaves, leaves


def check_crate_graph(crates, breaches):
    edges = cargo_edges(crates)
    drawn, named, leaves = drawn_edges()
    if drawn is None:
        breaches.append("ARCHITECTURE.md: no diagram of the crates (a code block with `──►` arrows)")
    else:
        words = {"dep": "──►", "optional": "──► (optional)", "dev": "╌╌►"}
        for a, b, kind in sorted(edges - drawn):
            breaches.append(f"ARCHITECTURE.md: the diagram lacks {a} {words[kind]} {b}, which Cargo.toml has")
        for a, b, kind in sorted(drawn - edges):
            breaches.append(f"ARCHITECTURE.md: the diagram draws {a} {words[kind]} {b}, which Cargo.toml lacks")
        for name in sorted(set(crates) - named):
            breaches.append(f"ARCHITECTURE.md: the diagram does not name the crate {name}")
        for name in sorted(named - set(crates)):
            breaches.append(f"ARCHITECTURE.md: the diagram names {name}, which is no member of the workspace")
        depending = {a for a, _, kind in edges if kind != "dev"}
        for name in sorted(set(crates) - leaves - depending):
            breaches.append(f"ARCHITECTURE.md: the diagram does not say that {name} depends on no workspace crate")
        for name in sorted(leaves & depending):
            breaches.append(f"ARCHITECTURE.md: the diagram says that {name} depends on no workspace crate, but it does")

    def forbid(sources, targets, why):
        for a, b, kind in sorted(edges):
            if a in sources and b in targets and kind != "dev":
                breaches.append(f"{relative(crates[a][0])}/Cargo.toml: {a} depends on {b}: {why}")

    forbid(TECHNIQUE_CRATES, ["khela", "khela-files"] + FRONT_ENDS,
           "a technique crate knows no front end, registry or file")
    forbid(FOUNDATIONS, list(crates), "it depends on no crate of the workspace")
    forbid(["khela"], FRONT_ENDS, "the library knows no front end")
    forbid(list(crates), ["khela-testkit"], "the test kit is for tests and benchmarks only (a dev-dependency)")
    forbid(list(crates), ["khela-python"], "nothing builds on the Python package")


def check_manifests(crates, breaches):
    for name, (directory, manifest) in sorted(crates.items()):
        where = f"{relative(directory)}/Cargo.toml"
        if manifest.get("lints", {}).get("workspace") is not True:
            breaches.append(f"{where}: no `[lints] workspace = true` (the workspace's lints: no unsafe code, docs)")
        for table in ("dependencies", "dev-dependencies", "build-dependencies"):
            for dep, spec in manifest.get(table, {}).items():
                if not (isinstance(spec, dict) and spec.get("workspace") is True):
                    breaches.append(f"{where}: [{table}] {dep} is not taken from the workspace's table")
        deps = manifest.get("dependencies", {})
        if "clap" in deps and name != "bench-suite":
            breaches.append(f"{where}: {name} depends on clap: only bench-suite parses arguments")
        if "anyhow" in deps and name in TECHNIQUE_CRATES:
            breaches.append(f"{where}: {name} depends on anyhow: a technique crate's errors are typed (thiserror)")


def check_loops(crates, breaches):
    for name, (parts, spared, traits) in LOOPS.items():
        src = crates[name][0] / "src"
        plugged = set()
        for path in src.rglob("*.rs"):
            for _, line in code(path):
                for match in re.finditer(rf"\bimpl\b.*\b(?:{'|'.join(traits)})\b(?:<.*>)?\s+for\s+([A-Z]\w*)", line):
                    plugged.add(match.group(1))
        files = [p for part in parts for p in ([src / part] if part.endswith(".rs") else (src / part).rglob("*.rs"))]
        for path in sorted(files):
            if str(path.relative_to(src)) in spared:
                continue
            for number, line in code(path):
                for kind in sorted(plugged):
                    if re.search(rf"\b{kind}\b", line):
                        breaches.append(f"{relative(path)}:{number}: the search loop names {kind}, a type plugged "
                                        f"into it: call the trait")


def check_conformance(crates, breaches):
    src = crates["khela-games"][0] / "src"
    for path in sorted(src.rglob("*.rs")):
        if relative(path) in NOT_GAMES or path.name == "conformance.rs":
            continue
        for number, line in code(path):
            game = re.search(r"\bimpl\b.*\bGame for ([A-Z]\w*)", line)
            if not game:
                continue
            stem = path.with_suffix("")
            places = [path, *stem.rglob("*.rs"), crates["khela-games"][0] / "tests" / path.name]
            if not any(p.exists() and "conformance::" in p.read_text() for p in places):
                breaches.append(f"{relative(path)}:{number}: the game {game.group(1)} is never run through "
                                f"khela_games::conformance")


def main():
    breaches = []
    used = set()
    crates = members()
    check_crate_graph(crates, breaches)
    check_manifests(crates, breaches)

    commands = ROOT / "bench-suite/src/commands"
    for path in sorted(commands.rglob("*.rs")):
        own = path.relative_to(commands).parts[0].removesuffix(".rs")
        for number, line in code(path):
            for other in re.findall(r"crate::commands::(\w+)", line):
                if other != own:
                    breaches.append(f"{relative(path)}:{number}: the command {own} imports the command {other}")
            if NAME_MATCH.search(line):
                if relative(path) in MATCHES_ON_A_NAME:
                    used.add(relative(path))
                else:
                    breaches.append(f"{relative(path)}:{number}: a command matches on a game's name: {line.strip()}")
    for path in sorted((ROOT / "bench-suite/src").rglob("*.rs")):
        # The command line (`cli/`) is the layer above the commands, which assembles them.
        if commands in path.parents or (ROOT / "bench-suite/src/cli") in path.parents:
            continue
        for number, line in code(path):
            if "crate::commands" in line:
                breaches.append(f"{relative(path)}:{number}: a layer below the commands imports a command")

    for crate in TECHNIQUE_CRATES:
        for path in sorted((crates[crate][0] / "src").rglob("*.rs")):
            for number, line in code(path):
                if IO.search(line):
                    if relative(path) in PRINTS_OR_READS:
                        used.add(relative(path))
                    else:
                        breaches.append(f"{relative(path)}:{number}: a technique crate prints, reads or exits")
    for path in sorted((ROOT / "crates/khela/src").rglob("*.rs")):
        for number, line in code(path):
            if PRINTS.search(line) or (IO.search(line) and relative(path) not in KHELA_FILES):
                breaches.append(f"{relative(path)}:{number}: khela prints, exits or does I/O outside its file modules")

    for directory, _ in crates.values():
        for path in sorted((directory / "src").rglob("*.rs")):
            for number, line in code(path):
                if WRITES.search(line):
                    if relative(path) in WRITES_FILES:
                        used.add(relative(path))
                    else:
                        breaches.append(f"{relative(path)}:{number}: a file written other than through khela-files "
                                        f"(whole or not at all): {line.strip()}")

    check_loops(crates, breaches)
    check_conformance(crates, breaches)

    for stale in sorted((set(MATCHES_ON_A_NAME) | set(PRINTS_OR_READS) | WRITES_FILES) - used):
        breaches.append(f"{stale}: named as an exception, but keeps the rule now: take it off the list")

    for breach in breaches:
        print(breach)
    if breaches:
        return 1
    print("The architecture invariants hold: the crates depend on each other as the diagram draws them, in one "
          "direction; no command imports another or matches on a game's name; the library crates neither print nor "
          "exit, and read or write files only where named; the search loops call their traits; every game runs "
          "the conformance suite")
    return 0


if __name__ == "__main__":
    sys.exit(main())
