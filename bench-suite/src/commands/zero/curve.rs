//! `zero curve`: a run's learning curve — each network that `zero train --keep-every` kept, measured as
//! `zero eval` measures one, against the run's training time and games so far — as CSV and an SVG plot.

use super::eval::{Measure, metrics};
use super::train::{CHECKPOINTS, TRAIN_CSV, read_rows};
use crate::games::GameArgs;
use crate::output::{self, OutArg, Sink};
use crate::plot::curve::{CurveLine, curve_svg};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The measurements drawn: shares in [0, 1], in the legend's order.
const DRAWN: [&str; 6] = [
    "winrate_vs_uct",
    "winrate_vs_engine",
    "value_sign_accuracy",
    "policy_top1_optimal",
    "search_value_sign_accuracy",
    "search_top1_optimal",
];

/// Options of `zero curve`.
#[derive(Debug, Args)]
pub struct CurveArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The run's directory (`zero train --out DIR`): every network in DIR/checkpoints is measured.
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub measure: Measure,
    /// Draw the shares measured (accuracies, the win rate) against minutes of training into this SVG file.
    #[arg(long, value_name = "PATH")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// A row of the curve: one measurement of the network kept after an iteration.
#[derive(Debug, Serialize)]
struct Point {
    iteration: u64,
    games: u64,
    positions: u64,
    seconds: String,
    metric: String,
    value: String,
}

/// Runs `zero curve`.
pub fn run(args: &CurveArgs) -> Result<()> {
    let plot = args.plot.as_deref().map(output::writable).transpose()?;
    let sink = Sink::new(&args.out, None)?;
    let kept = kept(&args.run)?;
    let rows = read_rows(&args.run.join(TRAIN_CSV))?;
    // Every kept network's row is found before any is measured.
    let kept = kept
        .into_iter()
        .map(|(iteration, path)| match rows.iter().find(|r| r.iteration == iteration) {
            Some(row) => Ok((row, path)),
            None => bail!(
                "{} has no row of iteration {iteration}, whose network is kept",
                args.run.join(TRAIN_CSV).display()
            ),
        })
        .collect::<Result<Vec<_>>>()?;
    let mut points = Vec::new();
    for (row, path) in kept {
        for metric in metrics(&args.game, &path, &args.measure)? {
            points.push(Point {
                iteration: row.iteration,
                games: row.games,
                positions: row.positions,
                seconds: format!("{:.1}", row.seconds),
                metric: metric.name().to_string(),
                value: metric.value().to_string(),
            });
        }
    }
    if let Some(path) = &plot {
        // The run's own name, not where it lies: the same run gives the same file wherever it is.
        let run = args.run.canonicalize().ok().and_then(|p| Some(p.file_name()?.to_string_lossy().into_owned()));
        let title = format!("{}: the networks kept by the run {}", args.game.game, run.as_deref().unwrap_or("-"));
        output::write_atomically(path, curve_svg(&title, &lines(&points))?.as_bytes())?;
    }
    sink.emit(&points, || {
        let mut table = output::table(&["iteration", "games", "minutes", "metric", "value"]);
        for p in &points {
            let minutes = p.seconds.parse::<f64>().unwrap_or(0.0) / 60.0;
            let row = [p.iteration.to_string(), p.games.to_string(), format!("{minutes:.1}"), p.metric.clone()];
            table.add_row(row.into_iter().chain([p.value.clone()]).collect::<Vec<_>>());
        }
        let drawn = plot.as_ref().map_or(String::new(), |p| format!("\nwrote the curve to {}", p.display()));
        format!("{table}{drawn}")
    })
}

/// The networks `run` keeps, with the iterations they were kept after, in order.
fn kept(run: &Path) -> Result<Vec<(u64, PathBuf)>> {
    let dir = run.join(CHECKPOINTS);
    let entries = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot read {}: is it a run of zero train with --keep-every?", dir.display()))?;
    let mut kept = Vec::new();
    for entry in entries {
        let path = entry.with_context(|| format!("cannot read {}", dir.display()))?.path();
        let name = path.file_name().and_then(|n| n.to_str());
        let iteration = name.and_then(|n| n.strip_prefix("iter-")?.strip_suffix(".safetensors")?.parse::<u64>().ok());
        kept.extend(iteration.map(|i| (i, path)));
    }
    if kept.is_empty() {
        bail!("{} holds no network (iter-N.safetensors)", dir.display());
    }
    kept.sort_unstable();
    Ok(kept)
}

/// The lines to draw: each share of [`DRAWN`] measured, against minutes.
fn lines(points: &[Point]) -> Vec<CurveLine> {
    let mut by_metric: BTreeMap<usize, Vec<(f64, f64)>> = BTreeMap::new();
    for p in points {
        if let (Some(i), Ok(value), Ok(seconds)) =
            (DRAWN.iter().position(|&m| m == p.metric), p.value.parse::<f64>(), p.seconds.parse::<f64>())
        {
            by_metric.entry(i).or_default().push((seconds / 60.0, value));
        }
    }
    by_metric.into_iter().map(|(i, line)| (DRAWN[i].to_string(), line)).collect()
}
