"""The facts of the machine and the checkout that the scripts' sidecars record: the processor's name and the git
revision (with `-dirty` when tracked files outside results/ have changed)."""

import platform
import subprocess
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
