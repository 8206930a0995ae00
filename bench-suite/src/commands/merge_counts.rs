//! `merge-counts`: adds up the parts of a sharded count (`count --depth N --only sequences --shard K/N --out
//! FILE`, one file a part) into the whole count, after checking from their sidecars that they are the N parts of
//! one count, each once.

use crate::machine::Sidecar;
use crate::output::{self, OutArg, Sink};
use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::HumanCount;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Options of `merge-counts`.
#[derive(Debug, Args)]
pub struct MergeCountsArgs {
    /// The CSV files of the parts, all N of them, in any order (each with its sidecar beside it).
    #[arg(required = true, value_name = "PART_CSV")]
    pub parts: Vec<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// A row of a count's CSV.
#[derive(Debug, Deserialize, Serialize)]
struct PlyRow {
    ply: u32,
    sequences: Option<u64>,
    positions: Option<u64>,
}

/// What a part's sidecar says of it.
#[derive(Deserialize)]
struct Part {
    shard: String,
    count: String,
}

/// Runs `merge-counts`.
pub fn run(args: &MergeCountsArgs) -> Result<()> {
    let sink = Sink::new(&args.out, None)?;
    let mut seen: BTreeMap<u64, PathBuf> = BTreeMap::new();
    let (mut count, mut parts) = (None::<String>, None::<u64>);
    let mut sums: Vec<u64> = Vec::new();
    for path in &args.parts {
        let meta = Sidecar::path_for(path);
        let json = std::fs::read_to_string(&meta)
            .with_context(|| format!("cannot read {}, the sidecar of {}", meta.display(), path.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&json).with_context(|| format!("{} is not JSON", meta.display()))?;
        let Ok(part) = serde_json::from_value::<Part>(value.get("figures").cloned().unwrap_or_default()) else {
            bail!("{} is not a part of a sharded count (run count with --shard K/N)", path.display());
        };
        let (k, n) =
            part.shard.split_once('/').and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?))).unwrap_or((0, 0));
        if n == 0 || k >= n {
            bail!("{}: its sidecar names part {:?}, not K/N", path.display(), part.shard);
        }
        match (&count, parts) {
            (Some(c), Some(m)) if *c != part.count || m != n => {
                bail!(
                    "{} is a part of another count ({}, {n} parts), not of {c} in {m} parts",
                    path.display(),
                    part.count
                )
            }
            _ => (count, parts) = (Some(part.count.clone()), Some(n)),
        }
        if let Some(other) = seen.insert(k, path.clone()) {
            bail!("{} and {} are both part {k}/{n}", other.display(), path.display());
        }
        let rows: Vec<PlyRow> = csv::Reader::from_path(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .deserialize()
            .collect::<Result<_, _>>()
            .with_context(|| format!("{} is not a count's CSV (ply,sequences,positions)", path.display()))?;
        if rows.is_empty() {
            bail!("{} holds no rows", path.display());
        }
        if sums.is_empty() {
            sums = vec![0; rows.len()];
        }
        if rows.len() != sums.len() || rows.iter().enumerate().any(|(i, r)| r.ply as usize != i) {
            bail!("{} counts other plies than the first part", path.display());
        }
        for (sum, row) in sums.iter_mut().zip(&rows) {
            let Some(sequences) = row.sequences else { bail!("{} has a ply without sequences", path.display()) };
            *sum = sum.checked_add(sequences).with_context(|| format!("ply {}: the sum passes 2^64", row.ply))?;
        }
    }
    let n = parts.expect("at least one part");
    if seen.len() as u64 != n {
        let missing: Vec<String> = (0..n).filter(|k| !seen.contains_key(k)).map(|k| format!("{k}/{n}")).collect();
        bail!("the parts {} are missing", missing.join(", "));
    }
    let rows: Vec<PlyRow> = sums
        .iter()
        .enumerate()
        .map(|(ply, &s)| PlyRow { ply: ply as u32, sequences: Some(s), positions: None })
        .collect();
    let count = count.expect("a count");
    sink.emit(&rows, || {
        let mut table = output::table(&["ply", "sequences"]);
        for r in &rows {
            table.add_row(vec![r.ply.to_string(), HumanCount(r.sequences.unwrap_or(0)).to_string()]);
        }
        format!("{count}: {n} parts added up\n{table}")
    })?;
    if let Sink::TableAndFile(path) = &sink {
        Sidecar::now().write(path, &serde_json::json!({ "merged": count, "parts": n }))?;
    }
    Ok(())
}
