//! `sweep-summary.csv` and the printed tables: statistics over the seeds of each (model, b, k, d, algorithm,
//! ordering), with the references they are measured against (Knuth and Moore's minimum, minimax's b^d,
//! Pearl's asymptotic branching factor, and the nodes of minimax and alpha-beta).

use super::grid::{ModelName, OrderingName};
use super::rows::Row;
use crate::output;
use crate::plot::SummaryPoint;
use clap::ValueEnum;
use serde::Serialize;
use std::collections::HashMap;

/// The header of `sweep-summary.csv`, exactly.
pub const HEADER: &str = "model,b,k,d,algorithm,ordering,seeds,mean_leaves,median_leaves,min_leaves,max_leaves,\
                          ebf,knuth_moore,minimax_leaves,pearl,vs_alphabeta,mean_nodes,nodes_vs_minimax,\
                          nodes_vs_alphabeta";

/// The statistics of one (model, b, k, d, algorithm, ordering) over its seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Tree model.
    pub model: String,
    /// Branching factor.
    pub b: u32,
    /// Chance outcomes (the chance model only).
    pub k: Option<u32>,
    /// Depth (decision plies).
    pub d: u32,
    /// Algorithm.
    pub algorithm: String,
    /// Ordering.
    pub ordering: String,
    /// Leaves visited, one per seed, in row order.
    pub leaves: Vec<u64>,
    /// Nodes visited, summed over the seeds.
    pub nodes: u64,
    /// b^⌈d/2⌉ + b^⌊d/2⌋ − 1 (not for the chance model).
    pub knuth_moore: Option<u64>,
    /// b^d, or (b·k)^d.
    pub minimax_leaves: u64,
}

/// Statistics of a list of counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// The mean.
    pub mean: f64,
    /// The median (the mean of the middle two of an even count).
    pub median: f64,
    /// The smallest.
    pub min: u64,
    /// The largest.
    pub max: u64,
}

/// Mean, median, min and max of `values` (not empty).
pub fn stats(values: &[u64]) -> Stats {
    assert!(!values.is_empty(), "statistics of no values");
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let median =
        if n % 2 == 1 { sorted[n / 2] as f64 } else { (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0 };
    let mean = sorted.iter().map(|&v| v as f64).sum::<f64>() / n as f64;
    Stats { mean, median, min: sorted[0], max: sorted[n - 1] }
}

/// Pearl's asymptotic branching factor of alpha-beta on iid trees with continuous leaves (Pearl, "The solution
/// for the branching factor of the alpha-beta pruning algorithm and its optimality", CACM 25(8), 1982):
/// R_b = ξ/(1−ξ), ξ the positive root of x^b + x − 1 = 0.
pub fn pearl(b: u32) -> f64 {
    // x^b + x − 1 rises from −1 at 0 to 1 at 1: bisect until the interval stops shrinking.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    loop {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if mid.powi(b as i32) + mid - 1.0 < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let xi = (lo + hi) / 2.0;
    xi / (1.0 - xi)
}

impl Summary {
    /// Mean, median, min and max leaves.
    pub fn stats(&self) -> Stats {
        stats(&self.leaves)
    }

    /// Mean nodes over the seeds.
    pub fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.leaves.len() as f64
    }

    /// The effective branching factor: (mean leaves)^(1/d), d in decision plies (for the chance model, per
    /// decision ply and the chance ply after it: b·k for expectiminimax).
    pub fn ebf(&self) -> f64 {
        self.stats().mean.powf(1.0 / f64::from(self.d))
    }

    /// Pearl's R_b, for the iid models (the reference for alpha-beta under natural ordering).
    pub fn pearl(&self) -> Option<f64> {
        ModelName::from_str(&self.model, false).is_ok_and(ModelName::is_iid).then(|| pearl(self.b))
    }

    fn key(&self) -> (&str, u32, Option<u32>, u32, &str, &str) {
        (&self.model, self.b, self.k, self.d, &self.algorithm, &self.ordering)
    }

    /// The point the plots draw.
    pub fn point(&self) -> SummaryPoint {
        SummaryPoint {
            model: self.model.clone(),
            b: self.b,
            d: self.d,
            algorithm: self.algorithm.clone(),
            ordering: self.ordering.clone(),
            mean_leaves: self.stats().mean,
            ebf: self.ebf(),
            knuth_moore: self.knuth_moore.map_or(f64::NAN, |km| km as f64),
            minimax_leaves: self.minimax_leaves as f64,
            pearl: self.pearl(),
        }
    }
}

/// One row of `sweep-summary.csv`.
#[derive(Serialize)]
struct SummaryRow<'a> {
    model: &'a str,
    b: u32,
    k: Option<u32>,
    d: u32,
    algorithm: &'a str,
    ordering: &'a str,
    seeds: usize,
    mean_leaves: String,
    median_leaves: String,
    min_leaves: u64,
    max_leaves: u64,
    ebf: String,
    knuth_moore: Option<u64>,
    minimax_leaves: u64,
    pearl: Option<String>,
    vs_alphabeta: Option<String>,
    mean_nodes: String,
    nodes_vs_minimax: Option<String>,
    nodes_vs_alphabeta: Option<String>,
}

/// What a summary is of: model, b, k, d, algorithm, ordering.
type Key = (String, u32, Option<u32>, u32, String, String);

/// The summaries of `rows`, in the order their first rows appear (grid order).
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut summaries: Vec<Summary> = Vec::new();
    for row in rows {
        let key = (row.model.clone(), row.b, row.k, row.d, row.algorithm.clone(), row.ordering.clone());
        let i = *index.entry(key).or_insert_with(|| {
            summaries.push(Summary {
                model: row.model.clone(),
                b: row.b,
                k: row.k,
                d: row.d,
                algorithm: row.algorithm.clone(),
                ordering: row.ordering.clone(),
                leaves: Vec::new(),
                nodes: 0,
                knuth_moore: row.knuth_moore,
                minimax_leaves: row.minimax_leaves,
            });
            summaries.len() - 1
        });
        summaries[i].leaves.push(row.leaves);
        summaries[i].nodes += row.nodes;
    }
    summaries
}

/// `measure` of each summary relative to that of `baseline` with the same model, b, k and d: under the same
/// ordering, or under natural ordering (minimax's one row) if `baseline` is minimax.
fn relative(summaries: &[Summary], baseline: &str, measure: fn(&Summary) -> f64) -> Vec<Option<f64>> {
    let ordering = |s: &Summary| if baseline == "minimax" { "natural".to_string() } else { s.ordering.clone() };
    let base: HashMap<(&str, u32, Option<u32>, u32, String), f64> = summaries
        .iter()
        .filter(|s| s.algorithm == baseline)
        .map(|s| ((s.model.as_str(), s.b, s.k, s.d, ordering(s)), measure(s)))
        .collect();
    summaries
        .iter()
        .map(|s| base.get(&(s.model.as_str(), s.b, s.k, s.d, ordering(s))).map(|&b| measure(s) / b))
        .collect()
}

/// `sweep-summary.csv`.
pub fn to_csv(summaries: &[Summary]) -> Vec<u8> {
    let ratio = |r: Option<f64>| r.map(|r| format!("{r:.6}"));
    let leaves_vs_alphabeta = relative(summaries, "alphabeta", |s| s.stats().mean);
    let nodes_vs_minimax = relative(summaries, "minimax", Summary::mean_nodes);
    let nodes_vs_alphabeta = relative(summaries, "alphabeta", Summary::mean_nodes);
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(format!("{HEADER}\n").into_bytes());
    for (i, s) in summaries.iter().enumerate() {
        let st = s.stats();
        writer
            .serialize(SummaryRow {
                model: &s.model,
                b: s.b,
                k: s.k,
                d: s.d,
                algorithm: &s.algorithm,
                ordering: &s.ordering,
                seeds: s.leaves.len(),
                mean_leaves: format!("{:.2}", st.mean),
                median_leaves: output::value(st.median),
                min_leaves: st.min,
                max_leaves: st.max,
                ebf: format!("{:.6}", s.ebf()),
                knuth_moore: s.knuth_moore,
                minimax_leaves: s.minimax_leaves,
                pearl: s.pearl().map(|r| format!("{r:.6}")),
                vs_alphabeta: ratio(leaves_vs_alphabeta[i]),
                mean_nodes: format!("{:.2}", s.mean_nodes()),
                nodes_vs_minimax: ratio(nodes_vs_minimax[i]),
                nodes_vs_alphabeta: ratio(nodes_vs_alphabeta[i]),
            })
            .expect("summary rows serialize to memory");
    }
    writer.into_inner().expect("summary rows serialize to memory")
}

/// The printed tables: alpha-beta's mean leaves and EBF for every shape and ordering, with the references; then,
/// per model, every algorithm and ordering relative to alpha-beta with the same ordering, and relative to
/// alpha-beta with natural ordering.
pub fn tables(summaries: &[Summary]) -> String {
    let mut out = Vec::new();
    let mut orderings = distinct(summaries.iter().map(|s| s.ordering.as_str()));
    orderings.sort_by_key(|o| OrderingName::ALL.iter().position(|n| n.name() == *o));
    let models = distinct(summaries.iter().map(|s| s.model.as_str()));
    let find = |model: &str, b: u32, k: Option<u32>, d: u32, algorithm: &str, ordering: &str| {
        summaries.iter().find(|s| s.key() == (model, b, k, d, algorithm, ordering))
    };

    // The deterministic models' alpha-beta against its references (which the chance model does not have).
    if summaries.iter().any(|s| s.algorithm == "alphabeta" && s.k.is_none()) {
        let mut header = vec!["model", "b", "d", "seeds", "b^d", "Knuth–Moore", "Pearl R_b"];
        let ab_orderings: Vec<&str> = orderings
            .iter()
            .copied()
            .filter(|o| summaries.iter().any(|s| s.algorithm == "alphabeta" && s.ordering == *o))
            .collect();
        header.extend(ab_orderings.iter().copied());
        let mut table = output::table(&header);
        let shapes = distinct(summaries.iter().filter(|s| s.k.is_none()).map(|s| (s.model.as_str(), s.b, s.d)));
        for (model, b, d) in shapes {
            let Some(first) = summaries.iter().find(|s| (s.model.as_str(), s.b, s.d) == (model, b, d)) else {
                continue;
            };
            let mut cells = vec![
                model.to_string(),
                b.to_string(),
                d.to_string(),
                first.leaves.len().to_string(),
                output::thousands(first.minimax_leaves),
                first.knuth_moore.map_or(String::new(), output::thousands),
                first.pearl().map_or(String::new(), |r| format!("{r:.4}")),
            ];
            for ordering in &ab_orderings {
                cells.push(find(model, b, None, d, "alphabeta", ordering).map_or(String::new(), |s| {
                    format!("{} ({:.3})", output::thousands(s.stats().mean.round() as u64), s.ebf())
                }));
            }
            table.add_row(cells);
        }
        out.push(format!(
            "Alpha-beta: mean leaves over the seeds (effective branching factor, mean^(1/d)) by ordering\n{table}"
        ));
    }

    // Per model: geometric means over (b, d) of the ratio of mean leaves to a baseline.
    let ratio_table = |title: &str, baseline_ordering: Option<&str>| -> Option<String> {
        let mut header = vec!["model", "algorithm"];
        header.extend(orderings.iter().copied());
        let mut table = output::table(&header);
        let mut any = false;
        for &model in &models {
            for algorithm in distinct(summaries.iter().filter(|s| s.model == model).map(|s| s.algorithm.as_str())) {
                if baseline_ordering.is_none() && algorithm == "alphabeta" {
                    continue;
                }
                let mut cells = vec![model.to_string(), algorithm.to_string()];
                let mut row_any = false;
                for &ordering in &orderings {
                    let ratios: Vec<f64> = summaries
                        .iter()
                        .filter(|s| s.model == model && s.algorithm == algorithm && s.ordering == ordering)
                        .filter_map(|s| {
                            let base = find(model, s.b, s.k, s.d, "alphabeta", baseline_ordering.unwrap_or(ordering))?;
                            Some(s.stats().mean / base.stats().mean)
                        })
                        .collect();
                    cells.push(if ratios.is_empty() {
                        String::new()
                    } else {
                        row_any = true;
                        format!("{:.3}", geometric_mean(&ratios))
                    });
                }
                if row_any {
                    any = true;
                    table.add_row(cells);
                }
            }
        }
        any.then(|| format!("{title}\n{table}"))
    };
    out.extend(ratio_table(
        "Leaves relative to alpha-beta with the same ordering (geometric mean over b and d; below 1 is fewer)",
        None,
    ));
    out.extend(ratio_table(
        "Leaves relative to alpha-beta with natural ordering (geometric mean over b and d; below 1 is fewer)",
        Some("natural"),
    ));

    // The chance model: nodes relative to expectiminimax, per b and k.
    let chance: Vec<&Summary> = summaries.iter().filter(|s| s.k.is_some()).collect();
    let chance_orderings: Vec<&str> = orderings
        .iter()
        .copied()
        .filter(|&o| chance.iter().any(|s| s.ordering == o && s.algorithm != "minimax"))
        .collect();
    if !chance_orderings.is_empty() {
        let mut header = vec!["b", "k", "algorithm"];
        header.extend(chance_orderings.iter().copied());
        let mut table = output::table(&header);
        for (b, k) in distinct(chance.iter().map(|s| (s.b, s.k))) {
            let algorithms = distinct(chance.iter().filter(|s| (s.b, s.k) == (b, k)).map(|s| s.algorithm.as_str()));
            for algorithm in algorithms.into_iter().filter(|&a| a != "minimax") {
                let mut cells = vec![b.to_string(), k.map_or(String::new(), |k| k.to_string()), algorithm.to_string()];
                for &ordering in &chance_orderings {
                    let ratios: Vec<f64> = chance
                        .iter()
                        .filter(|s| {
                            (s.b, s.k, s.algorithm.as_str(), s.ordering.as_str()) == (b, k, algorithm, ordering)
                        })
                        .filter_map(|s| {
                            let minimax = find(&s.model, b, k, s.d, "minimax", "natural")?;
                            Some(s.mean_nodes() / minimax.mean_nodes())
                        })
                        .collect();
                    cells.push(if ratios.is_empty() {
                        String::new()
                    } else {
                        format!("{:.3}", geometric_mean(&ratios))
                    });
                }
                table.add_row(cells);
            }
        }
        out.push(format!(
            "Chance trees: nodes relative to expectiminimax (geometric mean over d; below 1 is fewer)\n{table}"
        ));
    }
    out.join("\n\n")
}

fn geometric_mean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// The distinct items in order of first appearance.
fn distinct<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pearl_matches_the_published_values() {
        // Pearl (1982), Table 1; also Knuth and Moore's asymptotic analysis: R_2 is the golden ratio.
        for (b, expected) in [(2, "1.618034"), (3, "2.147899"), (4, "2.629658"), (5, "3.079596"), (10, "5.063511")] {
            assert_eq!(format!("{:.6}", pearl(b)), expected, "R_{b}");
        }
        assert!((pearl(2) - (1.0 + 5f64.sqrt()) / 2.0).abs() < 1e-12);
        assert_eq!(pearl(1), 1.0);
    }

    #[test]
    fn statistics() {
        let check = |values: &[u64], mean: f64, median: f64, min: u64, max: u64| {
            assert_eq!(stats(values), Stats { mean, median, min, max }, "{values:?}");
        };
        check(&[5], 5.0, 5.0, 5, 5);
        check(&[3, 1, 2], 2.0, 2.0, 1, 3);
        check(&[4, 1, 3, 2], 2.5, 2.5, 1, 4);
        check(&[10, 1], 5.5, 5.5, 1, 10);
        check(&[7, 7, 1, 100], 28.75, 7.0, 1, 100);
    }

    fn row(model: &str, b: u32, d: u32, seed: u64, algorithm: &str, ordering: &str, leaves: u64) -> Row {
        Row {
            model: model.into(),
            b,
            k: None,
            d,
            seed,
            rng: "pcg".into(),
            algorithm: algorithm.into(),
            ordering: ordering.into(),
            value: "0".into(),
            leaves,
            nodes: leaves * 2,
            cutoffs: 0,
            knuth_moore: Some(super::super::grid::knuth_moore(b, d)),
            minimax_leaves: u64::from(b).pow(d),
        }
    }

    #[test]
    fn summary_rows() {
        let rows = [
            row("iid", 2, 2, 0, "alphabeta", "natural", 4),
            row("iid", 2, 2, 0, "negascout", "natural", 3),
            row("iid", 2, 2, 1, "alphabeta", "natural", 3),
            row("iid", 2, 2, 1, "negascout", "natural", 3),
            row("incremental", 3, 1, 0, "alphabeta", "natural", 3),
        ];
        let chance = |algorithm, leaves| Row {
            k: Some(2),
            knuth_moore: None,
            minimax_leaves: 4,
            ..row("chance", 2, 1, 0, algorithm, "natural", leaves)
        };
        let rows = [&rows[..], &[chance("minimax", 4), chance("alphabeta", 4), chance("star1", 3)]].concat();
        let summaries = summarize(&rows);
        assert_eq!(summaries.len(), 6);
        assert_eq!(summaries[0].leaves, [4, 3]);
        let csv = String::from_utf8(to_csv(&summaries)).unwrap();
        assert_eq!(
            csv,
            format!(
                "{HEADER}\n\
                 iid,2,,2,alphabeta,natural,2,3.50,3.5,3,4,1.870829,3,4,1.618034,1.000000,7.00,,1.000000\n\
                 iid,2,,2,negascout,natural,2,3.00,3,3,3,1.732051,3,4,1.618034,0.857143,6.00,,0.857143\n\
                 incremental,3,,1,alphabeta,natural,1,3.00,3,3,3,3.000000,3,3,,1.000000,6.00,,1.000000\n\
                 chance,2,2,1,minimax,natural,1,4.00,4,4,4,4.000000,,4,,1.000000,8.00,1.000000,1.000000\n\
                 chance,2,2,1,alphabeta,natural,1,4.00,4,4,4,4.000000,,4,,1.000000,8.00,1.000000,1.000000\n\
                 chance,2,2,1,star1,natural,1,3.00,3,3,3,3.000000,,4,,0.750000,6.00,0.750000,0.750000\n"
            )
        );
        // The header is the fields of the rows.
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer
            .serialize(SummaryRow {
                model: "iid",
                b: 2,
                k: None,
                d: 2,
                algorithm: "alphabeta",
                ordering: "natural",
                seeds: 1,
                mean_leaves: String::new(),
                median_leaves: String::new(),
                min_leaves: 0,
                max_leaves: 0,
                ebf: String::new(),
                knuth_moore: None,
                minimax_leaves: 0,
                pearl: None,
                vs_alphabeta: None,
                mean_nodes: String::new(),
                nodes_vs_minimax: None,
                nodes_vs_alphabeta: None,
            })
            .unwrap();
        let fields = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        assert_eq!(fields.lines().next(), Some(HEADER));
        let printed = tables(&summaries);
        assert!(printed.contains("| iid    | negascout | 0.857   |"), "{printed}");
        assert!(printed.contains("Chance trees: nodes relative to expectiminimax"), "{printed}");
        assert!(printed.contains("| 2 | 2 | star1     | 0.750   |"), "{printed}");
    }
}
