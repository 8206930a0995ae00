//! `merge-counts`: adds up the parts of a sharded count (`count --depth N --only sequences --shard K/N --out
//! FILE`, one file a part; or the last ply's steps of `count --depth N --only positions --shard K/N --ply N
//! --exchange DIR --out FILE`) into the whole count, after checking from their sidecars that they are the N
//! parts of one count, each once and each finished. The columns the parts count (sequences, positions) are
//! added up; the merged file is the one the count in one piece writes, byte for byte.

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
    /// The count's last ply (absent from the sidecars of parts written before it was recorded).
    #[serde(default)]
    depth: Option<u32>,
    /// The CRC-32 of the part's CSV as `count` wrote it, in hex (absent from the sidecars of parts written
    /// before it was recorded).
    #[serde(default)]
    crc32: Option<String>,
}

/// Runs `merge-counts`.
pub fn run(args: &MergeCountsArgs) -> Result<()> {
    let sink = Sink::new(&args.out, None)?;
    let mut seen: BTreeMap<u64, PathBuf> = BTreeMap::new();
    let (mut count, mut parts) = (None::<String>, None::<u64>);
    // The sums of each column, `None` for a column the parts do not count.
    let mut sums: Vec<(Option<u64>, Option<u64>)> = Vec::new();
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
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let crc = format!("{:08x}", crc32fast::hash(&bytes));
        if let Some(recorded) = part.crc32.as_ref().filter(|&recorded| *recorded != crc) {
            bail!(
                "{} has CRC-32 {crc}, not the {recorded} its sidecar records: the part was changed or damaged since \
                 count wrote it; count it again",
                path.display()
            );
        }
        let rows: Vec<PlyRow> = csv::Reader::from_reader(bytes.as_slice())
            .deserialize()
            .collect::<Result<_, _>>()
            .with_context(|| format!("{} is not a count's CSV (ply,sequences,positions)", path.display()))?;
        if rows.is_empty() {
            bail!("{} holds no rows", path.display());
        }
        if let Some(depth) = part.depth
            && rows.len() != depth as usize + 1
        {
            bail!(
                "{} counts plies 0..={} of a count to ply {depth}: the part is not finished (run its steps to --ply \
                 {depth})",
                path.display(),
                rows.len() - 1
            );
        }
        if sums.is_empty() {
            let first = &rows[0];
            sums = vec![(first.sequences.map(|_| 0), first.positions.map(|_| 0)); rows.len()];
        }
        if rows.len() != sums.len() || rows.iter().enumerate().any(|(i, r)| r.ply as usize != i) {
            bail!("{} counts other plies than the first part", path.display());
        }
        for ((sequences, positions), row) in sums.iter_mut().zip(&rows) {
            let add = |sum: &mut Option<u64>, count: Option<u64>, what: &str| -> Result<()> {
                match (sum.as_mut(), count) {
                    (Some(sum), Some(count)) => {
                        *sum =
                            sum.checked_add(count).with_context(|| format!("ply {}: the sum passes 2^64", row.ply))?
                    }
                    (None, None) => {}
                    _ => bail!(
                        "{}: ply {} counts {what} where the first part does not, or not where it does",
                        path.display(),
                        row.ply
                    ),
                }
                Ok(())
            };
            add(sequences, row.sequences, "sequences")?;
            add(positions, row.positions, "positions")?;
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
        .map(|(ply, &(sequences, positions))| PlyRow { ply: ply as u32, sequences, positions })
        .collect();
    let count = count.expect("a count");
    sink.emit(&rows, || {
        let mut table = output::table(&["ply", "sequences", "positions"]);
        for r in &rows {
            let cell = |c: Option<u64>| c.map_or(String::new(), |c| HumanCount(c).to_string());
            table.add_row(vec![r.ply.to_string(), cell(r.sequences), cell(r.positions)]);
        }
        format!("{count}: {n} parts added up\n{table}")
    })?;
    if let Sink::TableAndFile(path) = &sink {
        Sidecar::now().write(path, &serde_json::json!({ "merged": count, "parts": n }))?;
    }
    Ok(())
}
