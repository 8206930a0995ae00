//! The cluster scripts end to end: `scripts/sweep-parallel.sh` (GNU parallel) and `scripts/sweep-slurm-submit.sh`
//! with `scripts/sweep-slurm.sh` (Slurm, played by a stand-in `sbatch` that runs an array's tasks one after
//! another) write, into an output directory whose path has spaces, the files the unsharded sweep writes, byte
//! for byte; and a second run with fewer shards into the same directory merges its own shards, not the leftovers
//! of the first.
//!
//! `scripts/connect4-threads.sh` (the Connect-4 solver on two threads against one, in interleaved rounds) writes a
//! row a round and a row a set whose ratios are its times', and refuses a bad request with status 2 before it
//! writes anything.
//!
//! This file runs its own harness, so that where GNU parallel or the benchmark sets (`../shared/connect4/`, beside
//! the checkout) are absent the tests that need them are reported as ignored, with a note saying why, rather than
//! passing without checking anything.

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
    let sets = root().join("../shared/connect4/Test_L3_R1").is_file();
    if !sets {
        eprintln!("note: ../shared/connect4 is absent: the run of scripts/connect4-threads.sh is ignored");
    }
    let trials = vec![
        Trial::test("sweep_parallel_merges_its_own_shards_into_a_path_with_spaces", sweep_parallel)
            .with_ignored_flag(!parallel),
        Trial::test("sweep_slurm_merges_its_own_shards_into_a_path_with_spaces", sweep_slurm),
        Trial::test("connect4_threads_writes_a_row_a_round_and_a_set", connect4_threads).with_ignored_flag(!sets),
        Trial::test("connect4_threads_refuses_a_bad_request_before_writing", connect4_threads_refuses),
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

/// `scripts/connect4-threads.sh` with `rounds`, the environment `env` and its output in `dir`: its status and its
/// stderr.
fn threads_script(dir: &Path, rounds: &str, env: &[(&str, &str)]) -> Result<(Option<i32>, String), Failed> {
    let mut command = Command::new("bash");
    command
        .arg("scripts/connect4-threads.sh")
        .arg(rounds)
        .current_dir(root())
        .env("BENCH_SUITE", env!("CARGO_BIN_EXE_bench-suite"))
        .env("OUT", dir.join("threads.csv"))
        .env("WORK", dir.join("work"))
        .envs(env.iter().copied());
    let out = command.output().map_err(|err| format!("{command:?}: {err}"))?;
    Ok((out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()))
}

/// Two rounds of End-Easy's first 4 positions and Middle-Easy's first 2: four rows of rounds, whose ratios are
/// their times', two of sets, whose ratios are the median and range of their rounds', and the sidecar.
fn connect4_threads() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let (status, stderr) = threads_script(dir.path(), "2", &[("CASES", "Test_L3_R1:4 Test_L2_R1:2")])?;
    if status != Some(0) {
        return Err(format!("the script failed ({status:?}): {stderr}").into());
    }
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name));
    let number = |field: &str| field.parse::<f64>().map_err(|err| format!("{field}: {err}"));
    let rounds = read("threads.csv")?;
    let rows: Vec<Vec<&str>> = rounds.lines().skip(1).map(|line| line.split(',').collect()).collect();
    let sets: Vec<_> = rows.iter().map(|row| (row[0], row[1], row[2], row[3])).collect();
    let want = [("Test_L3_R1", "4", "1", "2"), ("Test_L3_R1", "4", "2", "2")];
    let want: Vec<_> = want.into_iter().chain([("Test_L2_R1", "2", "1", "2"), ("Test_L2_R1", "2", "2", "2")]).collect();
    if sets != want {
        return Err(format!("rounds {sets:?}, expected {want:?}").into());
    }
    let mut ratios = Vec::new();
    for row in &rows {
        let (one, many, ratio) = (number(row[4])?, number(row[6])?, number(row[8])?);
        // Printed to four decimals.
        if (one / many - ratio).abs() > 5.1e-5 {
            return Err(format!("a round's ratio {ratio} is not its times' {one} / {many}").into());
        }
        ratios.push(ratio);
    }
    let summary = read("threads-summary.csv")?;
    for (row, ratios) in summary.lines().skip(1).zip(ratios.chunks(2)) {
        let fields: Vec<&str> = row.split(',').collect();
        let (median, least, most) = (number(fields[6])?, number(fields[7])?, number(fields[8])?);
        let (low, high) = (ratios[0].min(ratios[1]), ratios[0].max(ratios[1]));
        let close = |a: f64, b: f64| (a - b).abs() < 1e-3 * b + 5e-4;
        if !close(least, low) || !close(most, high) || !close(median, (low + high) / 2.0) {
            return Err(format!("{row}: not the median and range of the rounds' ratios {ratios:?}").into());
        }
    }
    if summary.lines().count() != 3 || !read("threads.meta.json")?.contains("\"threads\": 2") {
        return Err(format!("a row a set and a sidecar expected: {summary}").into());
    }
    Ok(())
}

/// A request of the script: its rounds, its environment and what its error must name.
type Request<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

/// Bad rounds, threads, cases and sets: status 2, a one-line error naming the value, and nothing written.
fn connect4_threads_refuses() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let short = dir.path().join("short");
    std::fs::write(&short, "4 1\n")?;
    let sets = dir.path().to_str().ok_or("a temporary path in UTF-8")?;
    let bad: [Request; 6] = [
        ("0", &[], "rounds 0"),
        ("x", &[], "rounds x"),
        ("1", &[("THREADS", "1")], "THREADS=1"),
        ("1", &[("CASES", "short")], "case short"),
        ("1", &[("CASES", "nowhere:3"), ("SETS", sets)], "nowhere is missing"),
        ("1", &[("CASES", "short:5"), ("SETS", sets)], "fewer than 5 positions"),
    ];
    for (rounds, env, names) in bad {
        let (status, stderr) = threads_script(dir.path(), rounds, env)?;
        if status != Some(2) || stderr.lines().count() != 1 || !stderr.starts_with("error: ") || !stderr.contains(names)
        {
            return Err(format!("rounds {rounds}, {env:?}: status {status:?}, stderr {stderr:?}").into());
        }
        if dir.path().join("threads.csv").exists() || dir.path().join("work").exists() {
            return Err(format!("rounds {rounds}, {env:?}: wrote its output").into());
        }
    }
    Ok(())
}
