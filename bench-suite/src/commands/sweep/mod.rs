//! `sweep`: alpha-beta and its relatives over a grid of implicit random trees (model × b × d × seed), under
//! every ordering — `results/sweep.csv` (one row per search), `results/sweep-summary.csv` (statistics over the
//! seeds), plots, and a sidecar of how they were made; and `merge`, which joins the shards of a sweep run
//! with `--shard K/N` into exactly the files the unsharded sweep writes.
//!
//! A pipeline, one module per stage: the command line ([`args`]) → the grid ([`grid`]) → the plan of trees and
//! their searches, worked out once ([`plan`]) → the trees ([`trees`]) → the searches, on every thread ([`run`])
//! → the rows, a tree at a time ([`rows`]) → the summary ([`summary`]) and the files and sidecar ([`files`]).
//!
//! Design:
//!
//! - **Row order** is grid order (see [`grid`]): model, b, d, seed, then the algorithms and orderings as
//!   listed. Threads take trees in that order from a shared counter; finished trees are buffered until those
//!   before them are written, so the file is always a prefix of the full result and the same arguments give
//!   the same bytes on any number of threads.
//! - **Interruption**: each tree's rows are appended in one write as soon as the trees before it are written,
//!   then their checksum. A kill leaves whole trees and at most a partial last line; `--resume` drops that
//!   line and any tree left with only some of its rows or without its checksum, checks the rest against the
//!   plan and the checksums (refusing rows changed since), and continues. The summary and the plots are always
//!   rebuilt from the whole CSV at the end, and removed when a run starts, so that an interrupted run leaves
//!   none that do not match its CSV. The Ctrl-C (and SIGTERM) handler only prints the command that resumes:
//!   the rows already written are in the operating system's hands when the process dies.
//! - **No silent replacement**: a directory holding an unfinished sweep, or a finished one of another grid, is
//!   refused unless `--resume` or `--force`.
//! - **Shards**: tree number `i` belongs to shard `i mod N`. A shard writes its trees' rows, its own summary and
//!   a sidecar that records the grid and the shard; `merge` checks that the shards cover the grid exactly, once
//!   each and complete, and interleaves their rows back into grid order.

pub mod args;
mod files;
mod grid;
pub mod merge;
mod model;
mod plan;
mod rows;
mod run;
mod summary;
mod trees;

use crate::interrupt;
use crate::machine::Sidecar;
use crate::output::{self, OutputDir};
use crate::progress::Progress;
use anyhow::{Context, Result};
use args::SweepArgs;
use files::{Figures, Performance, SWEEP_CSV};
use grid::Grid;
use indicatif::HumanCount;
use khela_exact::Algorithm;
use plan::Plan;
use rows::SweepFile;

/// Runs `sweep`.
pub fn run(args: &SweepArgs) -> Result<()> {
    let out_dir = OutputDir::check(&args.out, "sweep")?;
    let grid = Grid::from_args(args)?;
    let plan = Plan::new(&grid, None, args.force)?;
    refuse_unused(args, &grid, &plan)?;
    let Plan { jobs, estimate } = match args.shard {
        Some(shard) => Plan::new(&grid, Some(shard), args.force)?,
        None => plan,
    };
    let threads = args.threads.count();
    let csv_path = args.out.join(SWEEP_CSV);

    if !args.resume && !args.force {
        files::refuse_to_replace(&args.out, &grid, args.shard)?;
    }
    // A resumed sweep's rows are checked before anything is said; a new sweep's file is created only after the
    // run has said what it will do (a stdout that cannot take it stops the run with nothing written).
    let reopened = if args.resume {
        out_dir.create()?;
        Some(SweepFile::resume(&csv_path, &jobs, grid.rng)?)
    } else {
        None
    };
    let resumed = reopened.as_ref().map_or(0, |&(_, done)| done);
    let notes = grid.notes();
    for note in &notes {
        output::say(format!("note: {note}"))?;
    }
    let shard_text =
        args.shard.map_or(String::new(), |s| format!(", shard {s} of the grid's {} trees", estimate.trees));
    let resume_text =
        if args.resume { format!(", {} already done", HumanCount(resumed as u64)) } else { String::new() };
    output::say(format!(
        "sweep: {} trees{shard_text}{resume_text}, on {threads} thread(s); grid {} (all of it: at most about \
         {:.1e} nodes)",
        HumanCount(jobs.len() as u64),
        grid.describe(),
        estimate.nodes
    ))?;
    let mut file = match reopened {
        Some((file, _)) => file,
        None => {
            out_dir.create()?;
            SweepFile::create(&csv_path)?
        }
    };
    // The summary, the plots and the sidecar describe a finished sweep.csv: once sweep.csv is open, drop those
    // of an earlier run (they are rebuilt at the end), so that an interrupted run leaves none that do not match
    // it, and `merge` takes only finished shards.
    for stale in files::finished_files(&args.out) {
        match std::fs::remove_file(&stale) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                return Err(err).with_context(|| format!("cannot remove {}", stale.display()));
            }
            _ => {}
        }
    }
    // Interrupted (Ctrl-C, a scheduler's SIGTERM), the sweep says how to go on; the rows of the trees it
    // finished are written already, and a tree in flight is dropped by --resume.
    let resume = resume_command();
    interrupt::on_ctrl_c(format!("interrupted: continue the sweep with\n  {resume}"))?;

    // The bar advances, and the time left is estimated, by each tree's estimated cost, not by the count of
    // trees: trees differ in cost by orders of magnitude.
    let total = Plan::cost(&jobs);
    let mut done = Plan::cost(&jobs[..resumed]);
    let bar = Progress::new("sweep", total, done);
    let (mut next, mut nodes, started) = (resumed, 0u64, std::time::Instant::now());
    let cost = run::search_all(&jobs[resumed..], grid.rng, threads, |tree| {
        interrupt::check()?;
        file.append(&tree.rows)?;
        (done, nodes, next) = (done.saturating_add(jobs[next].cost), nodes + tree.nodes, next + 1);
        let rate = nodes as f64 / started.elapsed().as_secs_f64().max(1e-9);
        bar.update(done, total, || {
            format!("{}/{} trees, {rate:.2e} nodes/s", HumanCount(next as u64), HumanCount(jobs.len() as u64))
        });
        Ok(())
    });
    bar.finish();
    let cost = cost?;
    file.finish()?;

    let seconds = |d: std::time::Duration| d.as_secs_f64().max(1e-9);
    let performance = Performance {
        threads,
        trees_searched: cost.trees,
        trees_resumed: resumed,
        nodes: cost.nodes,
        wall_seconds: cost.wall.as_secs_f64(),
        busy_seconds: cost.busy.as_secs_f64(),
        nodes_per_second: cost.nodes as f64 / seconds(cost.wall),
        nodes_per_second_per_core: cost.nodes as f64 / seconds(cost.busy),
    };
    let text = std::fs::read_to_string(&csv_path).with_context(|| format!("cannot read {}", csv_path.display()))?;
    let all = rows::parse(&text, &csv_path)?;
    let figures = Figures {
        grid,
        shard: args.shard,
        trees: jobs.len(),
        rows: all.len(),
        notes,
        performance: Some(performance.clone()),
        shards: Vec::new(),
    };
    let facts = Sidecar::now();
    let report = files::finish(&args.out, &all, &figures, &facts)?;
    output::say(&report)?;
    output::say(format!(
        "searched {} trees in {:.1} s on {threads} thread(s): {} nodes, {:.3e} nodes/s with {threads} thread(s), \
         {:.3e} nodes/s per core (busy time: the searches and the oracle's exact values)",
        HumanCount(cost.trees as u64),
        performance.wall_seconds,
        HumanCount(cost.nodes),
        performance.nodes_per_second,
        performance.nodes_per_second_per_core
    ))?;
    output::say(format!("machine: {}", facts.summary()))?;
    Ok(())
}

/// The command line of this run with `--resume`, quoted for a POSIX shell where it needs to be.
fn resume_command() -> String {
    let quote = |arg: String| {
        if !arg.is_empty() && arg.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,".contains(c)) {
            arg
        } else {
            format!("'{}'", arg.replace('\'', "'\\''"))
        }
    };
    let mut args: Vec<String> = std::env::args().map(quote).collect();
    if !args.iter().any(|a| a == "--resume") {
        args.push("--resume".to_string());
    }
    args.join(" ")
}

/// Refuses an algorithm or ordering asked for by name that runs on no tree of the grid (static ordering on iid
/// trees only, the oracles on trees too large for them): a grid whose every search of it is skipped measures
/// nothing of what was asked. (The defaults are not refused: they take what applies.)
fn refuse_unused(args: &SweepArgs, grid: &Grid, plan: &Plan) -> Result<()> {
    let runs = || plan.jobs.iter().flat_map(|job| job.runs.iter());
    // Why: the grid's notes that name it (all of them if none does).
    let notes = |name: String| {
        let all = grid.notes();
        let naming: Vec<&String> = all.iter().filter(|note| note.contains(&name)).collect();
        if naming.is_empty() { all.join("; ") } else { naming.into_iter().cloned().collect::<Vec<_>>().join("; ") }
    };
    if let Some(algorithm) = args.algorithms.iter().find(|&&a| !runs().any(|run| run.algorithm == a)) {
        anyhow::bail!("--algorithms {algorithm}: it runs on no tree of this grid ({})", notes(algorithm.to_string()));
    }
    let searched = |ordering| runs().any(|run| run.algorithm != Algorithm::Minimax && run.ordering == ordering);
    if let Some(ordering) = args.orderings.iter().find(|&&o| !searched(o)) {
        anyhow::bail!("--orderings {ordering}: no search of this grid uses it ({})", notes(ordering.to_string()));
    }
    Ok(())
}
