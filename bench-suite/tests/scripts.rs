//! The cluster scripts end to end: `scripts/sweep-parallel.sh` (GNU parallel) and `scripts/sweep-slurm-submit.sh`
//! with `scripts/sweep-slurm.sh` (Slurm, played by a stand-in `sbatch` that runs an array's tasks one after
//! another) write, into an output directory whose path has spaces, the files the unsharded sweep writes, byte
//! for byte; and a second run with fewer shards into the same directory merges its own shards, not the leftovers
//! of the first.
//!
//! This file runs its own harness, so that where GNU parallel is not installed its test is reported as ignored,
//! with a note saying why, rather than passing without checking anything.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A small grid: a few trees, every algorithm.
const GRID: &[&str] = &["--models", "iid,chance", "--b", "2,3", "--d", "2..3", "--k", "2", "--seeds", "0..2"];

/// The files a sweep writes that the shards' merge must reproduce.
const FILES: &[&str] = &["sweep.csv", "sweep-summary.csv", "sweep.checksums"];

/// A stand-in for Slurm's `sbatch`: `--array=0-M` runs tasks 0..=M of the script one after another with
/// Slurm's array variables, `--wrap=CMD` runs CMD; either prints a job id, as `--parsable` does. The tasks'
/// output goes to stderr, so that the job id is all the caller reads.
const SBATCH: &str = r#"#!/usr/bin/env bash
set -euo pipefail
array= wrap=
while [ $# -gt 0 ]; do
    case "$1" in
        --array=*) array=${1#--array=} ;;
        --wrap=*) wrap=${1#--wrap=} ;;
        --*) ;;
        *) break ;;
    esac
    shift
done
if [ -n "$wrap" ]; then
    bash -c "$wrap" >&2
    echo 2
    exit
fi
script=$1
shift
n=$((${array#0-} + 1))
for ((k = 0; k < n; k++)); do
    SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=$n SLURM_ARRAY_TASK_MIN=0 bash "$script" "$@" >&2
done
echo 1
"#;

fn main() {
    let parallel = Command::new("parallel").arg("--version").output().is_ok_and(|out| out.status.success());
    if !parallel {
        eprintln!("note: GNU parallel is not installed: the test of scripts/sweep-parallel.sh is ignored");
    }
    let trials = vec![
        Trial::test("sweep_parallel_merges_its_own_shards_into_a_path_with_spaces", sweep_parallel)
            .with_ignored_flag(!parallel),
        Trial::test("sweep_slurm_merges_its_own_shards_into_a_path_with_spaces", sweep_slurm),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

/// The workspace's root, where the scripts run.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench-suite sits in the workspace").to_path_buf()
}

/// Runs `command`, failing with its stderr unless it succeeds.
fn succeed(command: &mut Command) -> Result<(), Failed> {
    let out = command.output().map_err(|err| format!("{command:?}: {err}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed: {}", String::from_utf8_lossy(&out.stderr)).into())
    }
}

/// The unsharded sweep of [`GRID`] into `dir`.
fn unsharded(dir: &Path) -> Result<(), Failed> {
    succeed(Command::new(env!("CARGO_BIN_EXE_bench-suite")).arg("sweep").args(GRID).arg("--out").arg(dir))
}

/// Runs `script` with `SHARDS` = 4 and then 3 into one output directory with spaces in its path, checking after
/// each that the merged files are the unsharded sweep's; `setup` adds what the script needs to its command.
fn twice(script: &str, setup: impl Fn(&mut Command)) -> Result<(), Failed> {
    let scratch = tempfile::tempdir()?;
    let expected = scratch.path().join("unsharded");
    unsharded(&expected)?;
    let out = scratch.path().join("out dir with spaces");
    for shards in ["4", "3"] {
        let mut command = Command::new("bash");
        command
            .arg(script)
            .args(GRID)
            .current_dir(root())
            .env("SHARDS", shards)
            .env("OUT", &out)
            .env("BENCH_SUITE", env!("CARGO_BIN_EXE_bench-suite"));
        setup(&mut command);
        succeed(&mut command)?;
        for file in FILES {
            let (got, want) = (std::fs::read(out.join(file))?, std::fs::read(expected.join(file))?);
            if got != want {
                return Err(format!("{script} with {shards} shards: {file} differs from the unsharded sweep's").into());
            }
        }
        let shard = out.join(format!("shards/shard-0-of-{shards}/sweep.csv"));
        if !shard.is_file() {
            return Err(format!("{} is missing", shard.display()).into());
        }
    }
    Ok(())
}

fn sweep_parallel() -> Result<(), Failed> {
    twice("scripts/sweep-parallel.sh", |_| {})
}

fn sweep_slurm() -> Result<(), Failed> {
    let bin = tempfile::tempdir()?;
    let sbatch = bin.path().join("sbatch");
    std::fs::write(&sbatch, SBATCH)?;
    succeed(Command::new("chmod").arg("+x").arg(&sbatch))?;
    let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
    twice("scripts/sweep-slurm-submit.sh", |command| {
        command.env("PATH", &path);
    })
}
