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
//! - **Interruption**: each tree's rows are appended in one write as soon as the trees before it are written.
//!   A kill leaves whole trees and at most a partial last line; `--resume` drops that line and any tree left
//!   with only some of its rows, checks the rest against the plan, and continues. The summary and the plots
//!   are always rebuilt from the whole CSV at the end. (No signal handler is needed: the rows already written
//!   are in the operating system's hands when the process dies.)
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

use crate::machine::{self, Sidecar};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use args::SweepArgs;
use files::{Figures, Performance, SUMMARY_CSV, SWEEP_CSV};
use grid::Grid;
use indicatif::HumanCount;
use plan::Plan;
use rows::SweepFile;
use std::path::Path;

/// Runs `sweep`.
pub fn run(args: &SweepArgs) -> Result<()> {
    if args.out == Path::new("-") {
        bail!("sweep --out takes a directory (it writes {SWEEP_CSV}, {SUMMARY_CSV}, plots and a sidecar there)");
    }
    let grid = Grid::from_args(args)?;
    let Plan { jobs, estimate } = Plan::new(&grid, args.shard, args.force)?;
    let threads = args.threads.map_or_else(machine::cores, |t| t as usize);
    let csv_path = args.out.join(SWEEP_CSV);

    let (mut file, resumed) =
        if args.resume { SweepFile::resume(&csv_path, &jobs, grid.rng)? } else { (SweepFile::create(&csv_path)?, 0) };
    // The summary and the sidecar describe a finished sweep.csv: once sweep.csv is open, drop those of an
    // earlier run (they are rebuilt at the end), so that an interrupted run leaves none that do not match it,
    // and `merge` takes only finished shards.
    for stale in [args.out.join(SUMMARY_CSV), Sidecar::path_for(&csv_path)] {
        match std::fs::remove_file(&stale) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                return Err(err).with_context(|| format!("cannot remove {}", stale.display()));
            }
            _ => {}
        }
    }
    let notes = grid.notes();
    for note in &notes {
        println!("note: {note}");
    }
    let shard_text =
        args.shard.map_or(String::new(), |s| format!(", shard {s} of the grid's {} trees", estimate.trees));
    let resume_text =
        if args.resume { format!(", {} already done", HumanCount(resumed as u64)) } else { String::new() };
    println!(
        "sweep: {} trees{shard_text}{resume_text}, on {threads} thread(s); grid {} (all of it: at most about \
         {:.1e} nodes)",
        HumanCount(jobs.len() as u64),
        grid.describe(),
        estimate.nodes
    );

    // The bar advances, and the time left is estimated, by each tree's estimated cost, not by the count of
    // trees: trees differ in cost by orders of magnitude.
    let total = Plan::cost(&jobs);
    let mut done = Plan::cost(&jobs[..resumed]);
    let bar = Progress::new("sweep", total, done);
    let (mut next, mut nodes, started) = (resumed, 0u64, std::time::Instant::now());
    let cost = run::search_all(&jobs[resumed..], grid.rng, threads, |tree| {
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
    println!("{report}");
    println!(
        "searched {} trees in {:.1} s on {threads} thread(s): {} nodes, {:.3e} nodes/s with {threads} thread(s), \
         {:.3e} nodes/s per core (busy time: the searches and the oracle's exact values)",
        HumanCount(cost.trees as u64),
        performance.wall_seconds,
        HumanCount(cost.nodes),
        performance.nodes_per_second,
        performance.nodes_per_second_per_core
    );
    println!("machine: {}", facts.summary());
    Ok(())
}
