"""The facts of the machine and the checkout that the scripts' sidecars record: the processor's name and the git
revision (with `-dirty` when tracked files outside results/ have changed); and a table written with its sidecar."""

import csv
import json
import platform
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_name():
    """The processor's model name, as /proc/cpuinfo gives it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def revision():
    """The checkout's git revision, with `-dirty` when tracked files outside results/ have changed."""
    git = lambda *args: subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!results")
    return git("rev-parse", "HEAD") + ("-dirty" if dirty else "")


def write_table(out, header, rows, facts):
    """Writes `rows` under `header` as CSV to `out` (whole or not at all: a temporary file renamed) and its sidecar
    `NAME.meta.json`: the command that ran, `facts`, the processor, the date and the revision."""
    out = Path(out)
    tmp = out.with_suffix(".csv.tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    tmp.replace(out)
    script = Path(sys.argv[0]).resolve()
    command = str(script.relative_to(ROOT)) if script.is_relative_to(ROOT) else script.name
    meta = {
        "command": " ".join([command, *sys.argv[1:]]),
        **facts,
        "cpu": cpu_name(),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "git_revision": revision(),
    }
    out.with_name(out.stem + ".meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {out}")
