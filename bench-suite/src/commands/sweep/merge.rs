//! `merge`: joins the directories of `sweep --shard K/N` runs into exactly the files the unsharded sweep writes,
//! after checking that the shards cover the grid, once each and complete.

use super::args::MergeArgs;
use super::files::{self, Figures, SWEEP_CSV, ShardRecord};
use super::plan::{Plan, TreeJob};
use super::rows::{self, Row};
use crate::machine::Sidecar;
use crate::output::{self, OutputDir};
use anyhow::{Context, Result, bail};
use indicatif::HumanCount;
use std::path::PathBuf;

/// Runs `merge`.
pub fn run(args: &MergeArgs) -> Result<()> {
    let out_dir = OutputDir::check(&args.out, "merge")?;
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
                first.grid.describe(),
                figures.grid.describe()
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
    let grid = &first.grid;
    let all_jobs =
        Plan::new(grid, None, true).context("the shards' sidecar records a grid this version cannot run")?.jobs;

    // Each shard's rows, checked complete, then interleaved back into grid order.
    let mut shard_rows: Vec<std::vec::IntoIter<Row>> = Vec::new();
    for k in 0..n {
        let (dir, shard, _) = shards.iter().find(|(_, s, _)| s.k == k).expect("every shard checked present");
        let path = dir.join(SWEEP_CSV);
        let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let sums_path = dir.join(rows::CHECKSUMS);
        let sums =
            std::fs::read_to_string(&sums_path).with_context(|| format!("cannot read {}", sums_path.display()))?;
        let jobs: Vec<TreeJob> = all_jobs.iter().skip(shard.k as usize).step_by(n as usize).cloned().collect();
        let (done, _) = rows::verify(&text[..whole], &sums, &jobs, grid.rng, &path)?;
        let rows = rows::parse(&text[..whole], &path)?;
        if done < jobs.len() {
            bail!(
                "shard {shard} in {} is incomplete: {done} of its {} trees are done; finish it with sweep --resume",
                dir.display(),
                jobs.len()
            );
        }
        shard_rows.push(rows.into_iter());
    }
    let mut all = Vec::new();
    for (i, job) in all_jobs.iter().enumerate() {
        all.extend(shard_rows[i % n as usize].by_ref().take(job.runs.len()));
    }
    out_dir.create()?;
    let csv_path = args.out.join(SWEEP_CSV);
    output::write_atomically(&csv_path, &rows::to_csv(&all, true))?;
    output::write_atomically(&args.out.join(rows::CHECKSUMS), &rows::checksums(&all, &all_jobs))?;

    let figures = Figures {
        grid: grid.clone(),
        shard: None,
        trees: all_jobs.len(),
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
    let report = files::finish(&args.out, &all, &figures, &facts)?;
    for note in &figures.notes {
        output::say(format!("note: {note}"))?;
    }
    output::say(format!(
        "merged {n} shards of the grid {}: {} trees, {} rows",
        first.grid.describe(),
        figures.trees,
        all.len()
    ))?;
    output::say(&report)?;
    let nodes: u64 = figures.shards.iter().filter_map(|s| s.performance.as_ref()).map(|p| p.nodes).sum();
    let busy: f64 = figures.shards.iter().filter_map(|s| s.performance.as_ref()).map(|p| p.busy_seconds).sum();
    output::say(format!(
        "the shards searched {} nodes in {busy:.1} s of search time: {:.3e} nodes/s per core",
        HumanCount(nodes),
        nodes as f64 / busy.max(1e-9)
    ))?;
    Ok(())
}
