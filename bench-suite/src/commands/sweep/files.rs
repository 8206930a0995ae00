//! The sweep's files: their names, the sidecar's figures, and what every run and merge writes at the end.

use super::args::Shard;
use super::grid::Grid;
use super::rows::{self, Row};
use super::summary::{self, Aggregate};
use crate::machine::Sidecar;
use crate::output;
use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The rows, one per search.
pub const SWEEP_CSV: &str = "sweep.csv";
/// The statistics over the seeds.
pub const SUMMARY_CSV: &str = "sweep-summary.csv";

/// What the sidecar `sweep.meta.json` records besides the machine: enough for `merge` to rebuild the grid.
#[derive(Debug, Serialize, Deserialize)]
pub struct Figures {
    /// The whole grid, in canonical form.
    pub grid: Grid,
    /// The shard these files hold, if not the whole grid.
    pub shard: Option<Shard>,
    /// Trees in `sweep.csv`.
    pub trees: usize,
    /// Rows in `sweep.csv`.
    pub rows: usize,
    /// What the grid left out.
    pub notes: Vec<String>,
    /// The cost of this run (for `merge`: of no search; see `shards`).
    pub performance: Option<Performance>,
    /// For `merge`: the shards joined, with their costs.
    pub shards: Vec<ShardRecord>,
}

/// What a run cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Performance {
    /// Threads searching.
    pub threads: usize,
    /// Trees searched by this run.
    pub trees_searched: usize,
    /// Trees found done in `sweep.csv` by `--resume`.
    pub trees_resumed: usize,
    /// Nodes visited by this run's searches.
    pub nodes: u64,
    /// Time from the first search to the last.
    pub wall_seconds: f64,
    /// Time spent in searches, summed over threads (with the oracle orderings' exact values, not counted as
    /// nodes).
    pub busy_seconds: f64,
    /// Nodes per second with all threads: nodes / wall time.
    pub nodes_per_second: f64,
    /// Nodes per second per core: nodes / busy time.
    pub nodes_per_second_per_core: f64,
}

/// A shard joined by `merge`.
#[derive(Debug, Serialize, Deserialize)]
pub struct ShardRecord {
    pub dir: PathBuf,
    pub shard: Shard,
    pub performance: Option<Performance>,
}

/// The files a finished sweep writes beside `sweep.csv` and its checksums, which an interrupted one must not
/// leave from an earlier run: the summary, the plots and the sidecar.
pub fn finished_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![dir.join(SUMMARY_CSV), Sidecar::path_for(&dir.join(SWEEP_CSV))];
    files.extend(crate::plot::FILES.iter().map(|name| dir.join(name)));
    files
}

/// What `dir` holds of an earlier sweep, for a sweep of `grid` (shard `shard`) about to start there without
/// `--resume`: nothing, or a finished sweep of the same grid (which the new one rewrites byte for byte), is
/// fine; an unfinished sweep, or a finished one of another grid, is refused, so that no work is lost by
/// mistake.
pub fn refuse_to_replace(dir: &Path, grid: &Grid, shard: Option<Shard>) -> Result<()> {
    let csv = dir.join(SWEEP_CSV);
    if !csv.exists() {
        return Ok(());
    }
    let figures = std::fs::read_to_string(Sidecar::path_for(&csv)).ok().and_then(|json| {
        let value: serde_json::Value = serde_json::from_str(&json).ok()?;
        serde_json::from_value::<Figures>(value.get("figures")?.clone()).ok()
    });
    match figures {
        Some(figures) if figures.grid == *grid && figures.shard == shard => Ok(()),
        Some(figures) => bail!(
            "{} holds a finished sweep of another grid ({}{}): give another --out, or --force to replace it",
            dir.display(),
            figures.grid.describe(),
            figures.shard.map_or(String::new(), |s| format!(", shard {s}"))
        ),
        None => bail!(
            "{} holds an unfinished sweep ({} has no sidecar yet): continue it with --resume, or start over with \
             --force",
            dir.display(),
            csv.display()
        ),
    }
}

/// Writes the summary, the plots (not for a shard: `merge` draws them) and the sidecar beside `sweep.csv`, and
/// returns the printed tables and the list of files.
pub fn finish(dir: &Path, all: &[Row], figures: &Figures, facts: &Sidecar) -> Result<String> {
    let summaries = summary::summarize(all);
    let summary_path = dir.join(SUMMARY_CSV);
    output::write_atomically(&summary_path, &summary::to_csv(&summaries))?;
    let mut written = vec![dir.join(SWEEP_CSV), dir.join(rows::CHECKSUMS), summary_path];
    if figures.shard.is_none() {
        // The plots compare alpha-beta's orderings with the deterministic references (b^d, Knuth–Moore, R_b).
        let points: Vec<_> = summaries.iter().filter(|s| s.k.is_none()).map(Aggregate::point).collect();
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
