#!/usr/bin/env python3
"""Checks the architecture invariants that a script can check (ARCHITECTURE.md states them):

1. no command of `bench-suite` imports another command, and no layer below the commands imports one;
2. no command matches on a game's name (the registry's entries answer for their games), but for the exceptions
   named below with their reason;
3. the technique crates never print, read or write files, or exit, outside their tests; `khela` does file I/O only
   in the modules named below, and never prints or exits.

Prints every breach, one a line, and exits 1 if there is any; prints one line and exits 0 otherwise.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Exceptions, each with its reason; a file named here that no longer breaks the rule is reported too, so that
# the list stays true.
MATCHES_ON_A_NAME = {
}
PRINTS_OR_READS = {
}
KHELA_FILES = {"crates/khela/src/tables.rs", "crates/khela/src/net.rs"}
TECHNIQUE_CRATES = ["games", "tt", "exact", "heuristic", "mcts", "zero"]

IO = re.compile(r"\b(println!|eprintln!|print!|eprint!|std::process::exit|std::fs::|File::(open|create))")
PRINTS = re.compile(r"\b(println!|eprintln!|print!|eprint!|std::process::exit)")
NAME_MATCH = re.compile(r"GameName::[A-Z]\w*\s*(=>|\|)|==\s*GameName::[A-Z]|match\s+[\w.]*\.name\b")


def code(path):
    """The lines of `path` before its test module, numbered from 1."""
    lines = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip() == "#[cfg(test)]":
            break
        if not line.strip().startswith("//"):
            lines.append((number, line))
    return lines


def relative(path):
    return str(path.relative_to(ROOT))


def main():
    breaches = []
    used = set()

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
        for path in sorted((ROOT / "crates" / crate / "src").rglob("*.rs")):
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

    for stale in sorted((set(MATCHES_ON_A_NAME) | set(PRINTS_OR_READS)) - used):
        breaches.append(f"{stale}: named as an exception, but keeps the rule now: take it off the list")

    for breach in breaches:
        print(breach)
    if breaches:
        return 1
    print("The architecture invariants hold: no command imports another or matches on a game's name; "
          "the library crates neither print nor exit, and read files only where named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
