//! `sweep`: alpha-beta and its relatives over a grid of implicit random trees (model × b × d × seed), under
//! every ordering — `results/sweep.csv` (one row per search), `results/sweep-summary.csv` (statistics over the
//! seeds), plots, and a sidecar of how they were made; and `merge`, which joins the shards of a sweep run
//! with `--shard K/N` into exactly the files the unsharded sweep writes.
//!
//! Design:
//!
//! - **Row order** is grid order (see [`grid`]): model, b, d, seed, then the algorithms and orderings as
//!   listed. Threads take trees in that order from a shared counter; finished trees are buffered until those
//!   before them are written, so the file is always a prefix of the full result and the same arguments give
//!   the same bytes on any number of threads.
//! - **Interruption**: each tree's rows are appended in one write as soon as the trees before it are written.
//!   A kill leaves whole trees and at most a partial last line; `--resume` drops that line and any tree left
//!   with only some of its rows, checks the rest against the grid, and continues. The summary and the plots
//!   are always rebuilt from the whole CSV at the end. (No signal handler is needed: the rows already written
//!   are in the operating system's hands when the process dies.)
//! - **Shards**: tree number `i` belongs to shard `i mod N`. A shard writes its trees' rows, its own summary and
//!   a sidecar that records the grid and the shard; `merge` checks that the shards cover the grid exactly, once
//!   each and complete, and interleaves their rows back into grid order.

mod grid;
mod progress;
mod rows;
mod run;
mod summary;

pub use grid::{AlgorithmName, List, ModelName, OrderingName, Shard};

use crate::cli::{MergeArgs, SweepArgs};
use crate::machine::{self, Sidecar};
use crate::output::{self, thousands};
use anyhow::{Context, Result, bail};
use grid::{Grid, GridSpec};
use khela_games::random_tree::Rng;
use progress::SweepProgress;
use rows::{Row, SweepFile};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The rows, one per search.
const SWEEP_CSV: &str = "sweep.csv";
/// The statistics over the seeds.
const SUMMARY_CSV: &str = "sweep-summary.csv";

/// What the sidecar `sweep.meta.json` records besides the machine: enough for `merge` to rebuild the grid.
#[derive(Debug, Serialize, Deserialize)]
struct Figures {
    /// The whole grid, in canonical form.
    grid: GridSpec,
    /// The shard these files hold, if not the whole grid.
    shard: Option<Shard>,
    /// Trees in `sweep.csv`.
    trees: usize,
    /// Rows in `sweep.csv`.
    rows: usize,
    /// What the grid left out.
    notes: Vec<String>,
    /// The cost of this run (for `merge`: of no search; see `shards`).
    performance: Option<Performance>,
    /// For `merge`: the shards joined, with their costs.
    shards: Vec<ShardRecord>,
}

/// What a run cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Performance {
    /// Threads searching.
    threads: usize,
    /// Trees searched by this run.
    trees_searched: usize,
    /// Trees found done in `sweep.csv` by `--resume`.
    trees_resumed: usize,
    /// Nodes visited by this run's searches.
    nodes: u64,
    /// Time from the first search to the last.
    wall_seconds: f64,
    /// Time spent in searches, summed over threads (with the oracle orderings' exact values, not counted as
    /// nodes).
    busy_seconds: f64,
    /// Nodes per second with all threads: nodes / wall time.
    nodes_per_second: f64,
    /// Nodes per second per core: nodes / busy time.
    nodes_per_second_per_core: f64,
}

/// A shard joined by `merge`.
#[derive(Debug, Serialize, Deserialize)]
struct ShardRecord {
    dir: PathBuf,
    shard: Shard,
    performance: Option<Performance>,
}

/// Runs `sweep`.
pub fn run(args: &SweepArgs) -> Result<()> {
    if args.out == Path::new("-") {
        bail!("sweep --out takes a directory (it writes {SWEEP_CSV}, {SUMMARY_CSV}, plots and a sidecar there)");
    }
    let rng = args.rng.map_or(Rng::Pcg, Rng::from);
    let grid = Grid::new(
        &args.models,
        args.b.clone(),
        args.d.clone(),
        args.k.clone(),
        args.seeds.clone(),
        &args.algorithms,
        &args.orderings,
        rng,
    )?;
    let estimate = grid.check(args.force)?;
    let trees = rows::shard_trees(&grid, args.shard);
    let threads = args.threads.map_or_else(machine::cores, |t| t as usize);
    let csv_path = args.out.join(SWEEP_CSV);

    let (mut file, resumed) =
        if args.resume { SweepFile::resume(&csv_path, &grid, &trees)? } else { (SweepFile::create(&csv_path)?, 0) };
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
    let resume_text = if args.resume { format!(", {} already done", thousands(resumed as u64)) } else { String::new() };
    println!(
        "sweep: {} trees{shard_text}{resume_text}, on {threads} thread(s); grid {} (all of it: at most about \
         {:.1e} nodes)",
        thousands(trees.len() as u64),
        describe(&grid.spec()),
        estimate.nodes
    );

    let costs: Vec<u64> = trees.iter().map(|t| grid.tree_cost(t.shape())).collect();
    let cost_of = |trees: &[u64]| trees.iter().fold(0u64, |sum, &c| sum.saturating_add(c));
    let mut bar =
        SweepProgress::new((resumed as u64, trees.len() as u64), (cost_of(&costs[..resumed]), cost_of(&costs)));
    let mut next = resumed;
    let cost = run::search_all(&grid, &trees[resumed..], threads, |tree| {
        file.append(&tree.rows)?;
        bar.tree_done(costs[next], tree.nodes);
        next += 1;
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
        grid: grid.spec(),
        shard: args.shard,
        trees: trees.len(),
        rows: all.len(),
        notes,
        performance: Some(performance.clone()),
        shards: Vec::new(),
    };
    let facts = Sidecar::now();
    let report = finish(&args.out, &all, &figures, &facts)?;
    println!("{report}");
    println!(
        "searched {} trees in {:.1} s on {threads} thread(s): {} nodes, {:.3e} nodes/s with {threads} thread(s), \
         {:.3e} nodes/s per core (busy time: the searches and the oracle's exact values)",
        thousands(cost.trees as u64),
        performance.wall_seconds,
        thousands(cost.nodes),
        performance.nodes_per_second,
        performance.nodes_per_second_per_core
    );
    println!("machine: {}", facts.summary());
    Ok(())
}

/// Runs `merge`.
pub fn merge(args: &MergeArgs) -> Result<()> {
    let out = std::fs::canonicalize(&args.out).unwrap_or_else(|_| args.out.clone());
    let mut shards = Vec::new();
    for dir in &args.shards {
        if std::fs::canonicalize(dir).is_ok_and(|d| d == out) {
            bail!("--out {} is one of the shard directories; merge into another directory", args.out.display());
        }
        let meta = Sidecar::path_for(&dir.join(SWEEP_CSV));
        let json = std::fs::read_to_string(&meta).with_context(|| {
            format!("cannot read {}: is {} the --out of a finished sweep --shard run?", meta.display(), dir.display())
        })?;
        let value: serde_json::Value =
            serde_json::from_str(&json).with_context(|| format!("{} is not JSON", meta.display()))?;
        let figures: Figures = serde_json::from_value(value.get("figures").cloned().unwrap_or_default())
            .with_context(|| format!("{} is not the sidecar of a sweep", meta.display()))?;
        let Some(shard) = figures.shard else {
            bail!("{} holds a whole sweep, not a shard (it was not run with --shard K/N)", dir.display());
        };
        shards.push((dir.clone(), shard, figures));
    }
    let (first_dir, first_shard, first) = &shards[0];
    for (dir, shard, figures) in &shards[1..] {
        if figures.grid != first.grid {
            bail!(
                "{} and {} are shards of different grids ({} and {})",
                first_dir.display(),
                dir.display(),
                describe(&first.grid),
                describe(&figures.grid)
            );
        }
        if shard.n != first_shard.n {
            bail!(
                "{} is shard {shard} but {} is shard {first_shard}: not the same split",
                dir.display(),
                first_dir.display()
            );
        }
    }
    let n = first_shard.n;
    for k in 0..n {
        let holders: Vec<&PathBuf> = shards.iter().filter(|(_, s, _)| s.k == k).map(|(d, _, _)| d).collect();
        match holders.as_slice() {
            [] => bail!("shard {k}/{n} is missing: merge needs all {n} shards"),
            [_] => {}
            [a, b, ..] => bail!("shard {k}/{n} is given twice: {} and {}", a.display(), b.display()),
        }
    }
    let grid = Grid::from_spec(&first.grid).context("the shards' sidecar records a grid this version cannot read")?;

    // Each shard's rows, checked complete, then interleaved back into grid order.
    let mut shard_rows: Vec<std::vec::IntoIter<Row>> = Vec::new();
    for k in 0..n {
        let (dir, shard, _) = shards.iter().find(|(_, s, _)| s.k == k).expect("every shard checked present");
        let path = dir.join(SWEEP_CSV);
        let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let rows = rows::parse(&text[..whole], &path)?;
        let trees = rows::shard_trees(&grid, Some(*shard));
        let (done, _) = rows::match_trees(&rows, &grid, &trees, &path)?;
        if done < trees.len() {
            bail!(
                "shard {shard} in {} is incomplete: {done} of its {} trees are done; finish it with sweep --resume",
                dir.display(),
                trees.len()
            );
        }
        shard_rows.push(rows.into_iter());
    }
    let mut all = Vec::new();
    for (i, tree) in grid.trees().enumerate() {
        let count = grid.runs(tree.shape()).len();
        all.extend(shard_rows[i % n as usize].by_ref().take(count));
    }
    let csv_path = args.out.join(SWEEP_CSV);
    output::write_atomically(&csv_path, &rows::to_csv_file(&all))?;

    let figures = Figures {
        grid: first.grid.clone(),
        shard: None,
        trees: grid.trees().count(),
        rows: all.len(),
        notes: grid.notes(),
        performance: None,
        shards: shards
            .iter()
            .map(|(dir, shard, figures)| ShardRecord {
                dir: dir.clone(),
                shard: *shard,
                performance: figures.performance.clone(),
            })
            .collect(),
    };
    let facts = Sidecar::now();
    let report = finish(&args.out, &all, &figures, &facts)?;
    for note in &figures.notes {
        println!("note: {note}");
    }
    println!("merged {n} shards of the grid {}: {} trees, {} rows", describe(&first.grid), figures.trees, all.len());
    println!("{report}");
    let nodes: u64 = figures.shards.iter().filter_map(|s| s.performance.as_ref()).map(|p| p.nodes).sum();
    let busy: f64 = figures.shards.iter().filter_map(|s| s.performance.as_ref()).map(|p| p.busy_seconds).sum();
    println!(
        "the shards searched {} nodes in {busy:.1} s of search time: {:.3e} nodes/s per core",
        thousands(nodes),
        nodes as f64 / busy.max(1e-9)
    );
    Ok(())
}

/// Writes the summary, the plots (not for a shard: `merge` draws them) and the sidecar beside `sweep.csv`, and
/// returns the printed tables and the list of files.
fn finish(dir: &Path, all: &[Row], figures: &Figures, facts: &Sidecar) -> Result<String> {
    let summaries = summary::summarize(all);
    let summary_path = dir.join(SUMMARY_CSV);
    output::write_atomically(&summary_path, &summary::to_csv(&summaries))?;
    let mut written = vec![dir.join(SWEEP_CSV), summary_path];
    if figures.shard.is_none() {
        // The plots compare alpha-beta's orderings with the deterministic references (b^d, Knuth–Moore, R_b).
        let points: Vec<_> = summaries.iter().filter(|s| s.k.is_none()).map(summary::Summary::point).collect();
        written.extend(crate::plot::write_plots(&points, dir)?);
    }
    let csv_path = dir.join(SWEEP_CSV);
    facts.write(&csv_path, figures)?;
    written.push(Sidecar::path_for(&csv_path));
    let mut report = summary::tables(&summaries);
    for path in written {
        report.push_str(&format!("\nwrote {}", path.display()));
    }
    Ok(report)
}

/// The grid in one line, as its flags (the chance model's lists after it, when it is in the grid).
fn describe(spec: &GridSpec) -> String {
    let mut text = format!("--models {}", spec.models);
    if spec.models.split(',').any(|m| m != ModelName::Chance.name()) {
        text.push_str(&format!(" --b {} --d {}", spec.b, spec.d));
    }
    if let (Some(b), Some(k), Some(d)) = (&spec.chance_b, &spec.k, &spec.chance_d) {
        text.push_str(&format!(" (chance: --b {b} --k {k} --d {d})"));
    }
    text.push_str(&format!(
        " --seeds {} --algorithms {} --orderings {} --rng {}",
        spec.seeds, spec.algorithms, spec.orderings, spec.rng
    ));
    text
}
