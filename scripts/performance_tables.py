"""The reading and formatting side of the performance page (scripts/performance.py): where the results are, how
a CSV and its sidecar are read, how numbers, commands, machines and sources are written in the page's tables.
Python 3.9 or later, standard library only."""

import csv
import json
import math
import os
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
PAGE = ROOT / "docs" / "src" / "performance.md"
NO_SIDECAR = "(no sidecar: machine and date not recorded)"

ROUNDING = [
    "- a CSV's cells as the CSV holds them;",
    "- figures from a sidecar: seconds to 3 significant digits; rates (per second) to 3 significant digits with a",
    "  power of ten (`6.90e7` is 69,000,000); memory in whole MiB (2^20 bytes); counts whole, with thousands",
    "  separators; a speed-up (the time on one thread over the time on more, in the same run) to 2 decimals;",
    "- git revisions to their first 7 characters, `-dirty` kept (the build's checkout had uncommitted changes);",
    "  dates as the sidecar records them (UTC).",
]

# ---------------------------------------------------------------------------------------------------------------
# Reading


def rel(path):
    """`path` relative to the workspace root, with forward slashes."""
    return Path(os.path.abspath(path)).relative_to(ROOT).as_posix()


def read_csv(path):
    """The rows of a CSV file as dictionaries, and its header."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        return rows, list(reader.fieldnames or [])


def sidecar_path(csv_path):
    """The sidecar of a CSV file: `x.csv` → `x.meta.json`; `x-summary.csv` → `x-summary.meta.json`, or else the
    sidecar of the run that wrote it, `x.meta.json`. None if there is none."""
    csv_path = Path(csv_path)
    own = csv_path.with_name(csv_path.name[: -len(".csv")] + ".meta.json")
    if own.exists():
        return own
    stem = csv_path.name[: -len(".csv")]
    if stem.endswith("-summary"):
        run = csv_path.with_name(stem[: -len("-summary")] + ".meta.json")
        if run.exists():
            return run
    return None


def load_json(path):
    with open(path) as f:
        return json.load(f)


def need(path):
    """A results file that the page needs: its path, or an error naming it."""
    path = RESULTS / path
    if not path.exists():
        raise SystemExit(f"performance.py: {rel(path)} is missing (the page renders it)")
    return path


# ---------------------------------------------------------------------------------------------------------------
# Formatting


def sig(x, digits=3):
    """`x` to `digits` significant digits, in fixed notation (57.404 → 57.4, 440.96 → 441, 0.0001168 →
    0.000117)."""
    x = float(x)
    if x == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(x)))
    rounded = round(x, places)
    if rounded != 0:
        places = digits - 1 - math.floor(math.log10(abs(rounded)))
        rounded = round(x, places)
    if places > 0:
        return f"{rounded:.{places}f}"
    return str(int(round(rounded)))


def rate(x):
    """A rate to 3 significant digits with a power of ten: 69003173.99 → 6.90e7."""
    mantissa, exponent = f"{float(x):.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def mib(nbytes):
    """Bytes as whole MiB."""
    return f"{round(nbytes / 2**20):,} MiB"


def whole(n):
    """A count with thousands separators."""
    return f"{int(n):,}"


def speedup(one, many):
    """One thread's time over more threads', to 2 decimals."""
    return f"{one / many:.2f}×"


def revision(rev):
    """A git revision's first 7 characters, a `-dirty` suffix kept."""
    rev = str(rev)
    dirty = rev.endswith("-dirty")
    base = rev[: -len("-dirty")] if dirty else rev
    return base[:7] + ("-dirty" if dirty else "")


def code(text):
    """Inline code; backticks inside are doubled around."""
    text = str(text)
    if "`" in text:
        return f"`` {text} ``"
    return f"`{text}`"


def cell(text):
    """A table cell: pipes escaped."""
    return str(text).replace("|", "\\|")


def table(header, rows):
    """A Markdown table."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        lines.append("| " + " | ".join(cell(c) for c in row) + " |")
    return lines


def command(meta):
    """What made a sidecar's figures: the script that kept it, where it records one, or else its arguments, quoted
    as a shell would need, or the command it records."""
    if "made_by" in meta:
        return code(meta["made_by"])
    if "arguments" in meta:
        return code(shlex.join(meta["arguments"]))
    if "command" in meta:
        return code(meta["command"])
    return "(not recorded)"


def machine(meta):
    """The machine as the sidecar records it: processor, cores, memory, caches."""
    parts = []
    if meta.get("cpu"):
        parts.append(str(meta["cpu"]))
    if meta.get("cores") is not None:
        parts.append(f"{meta['cores']} cores")
    if meta.get("memory_gib") is not None:
        parts.append(f"{meta['memory_gib']} GiB")
    for key, name in (("l2_cache", "L2"), ("l3_cache", "L3")):
        if meta.get(key):
            parts.append(f"{name} {meta[key]}")
    return ", ".join(parts) if parts else "(not recorded)"


def source_row(name, meta_path):
    """A sources table's row: the file, its sidecar, what made it, the machine, the revision, the date."""
    if meta_path is None:
        return [code(name), NO_SIDECAR, "", "", "", ""]
    meta = load_json(meta_path)
    return [
        code(name) if name else "",
        code(rel(meta_path)),
        command(meta),
        machine(meta),
        code(revision(meta["git_revision"])) if meta.get("git_revision") else "(not recorded)",
        meta.get("date", "(not recorded)"),
    ]


SOURCES = ["file", "sidecar", "made by", "machine", "revision", "date"]


def sources(files):
    """Where a section's figures come from, for (file, sidecar or None) pairs: a table of file, sidecar, command,
    machine, revision, date, under "Source:" or "Sources:"."""
    return sources_table([source_row(name, meta_path) for name, meta_path in files])


def sources_table(rows):
    """The sources table, with its label."""
    return ["", "Source:" if len(rows) == 1 else "Sources:", ""] + table(SOURCES, rows)


def csv_of(meta_path):
    """The CSV a sidecar describes (`x.meta.json` → `x.csv`), by name, or "" if there is none."""
    path = Path(meta_path)
    csv_path = path.with_name(path.name[: -len(".meta.json")] + ".csv")
    return rel(csv_path) if csv_path.exists() else ""


def with_sidecar(name):
    """A results file (by name) and its sidecar path or None."""
    path = need(name)
    return rel(path), sidecar_path(path)


def arg(arguments, flag, default=""):
    """The value of `--flag` in a command line, or `default`."""
    for i, word in enumerate(arguments):
        if word == flag and i + 1 < len(arguments):
            return arguments[i + 1]
        if word.startswith(flag + "="):
            return word[len(flag) + 1 :]
    return default


def units(meta):
    """The sidecar's own note on its units, if it has one."""
    if meta and meta.get("units"):
        return ["", f"The sidecar's units: {meta['units']}."]
    return []
