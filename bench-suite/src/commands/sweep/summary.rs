//! `sweep-summary.csv` and the printed tables: statistics over the seeds of each (model, b, k, d, algorithm,
//! ordering), with the references they are measured against (Knuth and Moore's minimum, minimax's b^d,
//! Pearl's asymptotic branching factor, and the nodes of minimax and alpha-beta).

use super::args::ORDERINGS;
use super::model::ModelName;
use super::rows::Row;
use crate::output;
use crate::plot::SummaryPoint;
use indicatif::HumanCount;
use khela_exact::theory::pearl;
use khela_exact::{Algorithm, OrderingKind};
use serde::{Deserialize, Serialize};
use serde_with::{DisplayFromStr, serde_as};
use std::collections::HashMap;

/// The statistics of one (model, b, k, d, algorithm, ordering) over its seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Aggregate {
    /// Tree model.
    pub model: ModelName,
    /// Branching factor.
    pub b: u32,
    /// Chance outcomes (the chance model only).
    pub k: Option<u32>,
    /// Depth (decision plies).
    pub d: u32,
    /// Algorithm.
    pub algorithm: Algorithm,
    /// Ordering.
    pub ordering: OrderingKind,
    /// Leaves visited, one per seed, in row order.
    pub leaves: Vec<u64>,
    /// Nodes visited, summed over the seeds.
    pub nodes: u64,
    /// b^⌈d/2⌉ + b^⌊d/2⌋ − 1 (not for the chance model).
    pub knuth_moore: Option<u64>,
    /// b^d, or (b·k)^d.
    pub minimax_leaves: u64,
}

/// The spread of a list of counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
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
pub fn spread(values: &[u64]) -> Spread {
    assert!(!values.is_empty(), "statistics of no values");
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let median =
        if n % 2 == 1 { sorted[n / 2] as f64 } else { (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0 };
    let mean = sorted.iter().map(|&v| v as f64).sum::<f64>() / n as f64;
    Spread { mean, median, min: sorted[0], max: sorted[n - 1] }
}

impl Aggregate {
    /// Mean, median, min and max leaves.
    pub fn spread(&self) -> Spread {
        spread(&self.leaves)
    }

    /// Mean nodes over the seeds.
    pub fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.leaves.len() as f64
    }

    /// The effective branching factor: (mean leaves)^(1/d), d in decision plies (for the chance model, per
    /// decision ply and the chance ply after it: b·k for expectiminimax).
    pub fn ebf(&self) -> f64 {
        self.spread().mean.powf(1.0 / f64::from(self.d))
    }

    /// Pearl's R_b, for the iid models (the reference for alpha-beta under natural ordering).
    pub fn pearl(&self) -> Option<f64> {
        self.model.is_iid().then(|| pearl(self.b))
    }

    fn key(&self) -> Key {
        (self.model, self.b, self.k, self.d, self.algorithm, self.ordering)
    }

    /// The point the plots draw.
    pub fn point(&self) -> SummaryPoint {
        SummaryPoint {
            model: self.model.to_string(),
            b: self.b,
            d: self.d,
            algorithm: self.algorithm,
            ordering: self.ordering,
            mean_leaves: self.spread().mean,
            ebf: self.ebf(),
            knuth_moore: self.knuth_moore.map_or(f64::NAN, |km| km as f64),
            minimax_leaves: self.minimax_leaves as f64,
        }
    }
}

/// One row of `sweep-summary.csv`; the file's header is its fields' names, in this order. The figures are
/// written as the file shows them (two or six decimals, ratios empty where their baseline is absent).
#[serde_as]
#[derive(Serialize, Deserialize)]
struct SummaryRow {
    #[serde_as(as = "DisplayFromStr")]
    model: ModelName,
    b: u32,
    k: Option<u32>,
    d: u32,
    #[serde_as(as = "DisplayFromStr")]
    algorithm: Algorithm,
    #[serde_as(as = "DisplayFromStr")]
    ordering: OrderingKind,
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

/// What an aggregate is of: model, b, k, d, algorithm, ordering.
type Key = (ModelName, u32, Option<u32>, u32, Algorithm, OrderingKind);

/// The summaries of `rows`, in the order their first rows appear (grid order).
pub fn summarize(rows: &[Row]) -> Vec<Aggregate> {
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut summaries: Vec<Aggregate> = Vec::new();
    for row in rows {
        let key = (row.model, row.b, row.k, row.d, row.algorithm, row.ordering);
        let i = *index.entry(key).or_insert_with(|| {
            summaries.push(Aggregate {
                model: row.model,
                b: row.b,
                k: row.k,
                d: row.d,
                algorithm: row.algorithm,
                ordering: row.ordering,
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
fn relative(summaries: &[Aggregate], baseline: Algorithm, measure: fn(&Aggregate) -> f64) -> Vec<Option<f64>> {
    let ordering = |s: &Aggregate| if baseline == Algorithm::Minimax { OrderingKind::Natural } else { s.ordering };
    let base: HashMap<(ModelName, u32, Option<u32>, u32, OrderingKind), f64> = summaries
        .iter()
        .filter(|s| s.algorithm == baseline)
        .map(|s| ((s.model, s.b, s.k, s.d, ordering(s)), measure(s)))
        .collect();
    summaries.iter().map(|s| base.get(&(s.model, s.b, s.k, s.d, ordering(s))).map(|&b| measure(s) / b)).collect()
}

/// `sweep-summary.csv`.
pub fn to_csv(summaries: &[Aggregate]) -> Vec<u8> {
    let ratio = |r: Option<f64>| r.map(|r| format!("{r:.6}"));
    let leaves_vs_alphabeta = relative(summaries, Algorithm::AlphaBeta, |s| s.spread().mean);
    let nodes_vs_minimax = relative(summaries, Algorithm::Minimax, Aggregate::mean_nodes);
    let nodes_vs_alphabeta = relative(summaries, Algorithm::AlphaBeta, Aggregate::mean_nodes);
    let header = serde_aux::serde_introspection::serde_introspect::<SummaryRow>().join(",");
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(format!("{header}\n").into_bytes());
    for (i, s) in summaries.iter().enumerate() {
        let spread = s.spread();
        writer
            .serialize(SummaryRow {
                model: s.model,
                b: s.b,
                k: s.k,
                d: s.d,
                algorithm: s.algorithm,
                ordering: s.ordering,
                seeds: s.leaves.len(),
                mean_leaves: format!("{:.2}", spread.mean),
                median_leaves: output::value(spread.median),
                min_leaves: spread.min,
                max_leaves: spread.max,
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
pub fn tables(summaries: &[Aggregate]) -> String {
    const AB: Algorithm = Algorithm::AlphaBeta;
    let mut out = Vec::new();
    let mut orderings = distinct(summaries.iter().map(|s| s.ordering));
    orderings.sort_by_key(|o| ORDERINGS.iter().position(|n| n == o));
    let models = distinct(summaries.iter().map(|s| s.model));
    let find = |model, b, k, d, algorithm, ordering| {
        summaries.iter().find(|s| s.key() == (model, b, k, d, algorithm, ordering))
    };
    let count = |n: u64| HumanCount(n).to_string();

    // The deterministic models' alpha-beta against its references (which the chance model does not have).
    if summaries.iter().any(|s| s.algorithm == AB && s.k.is_none()) {
        let ab_orderings: Vec<OrderingKind> = orderings
            .iter()
            .copied()
            .filter(|&o| summaries.iter().any(|s| s.algorithm == AB && s.ordering == o))
            .collect();
        let mut header = vec!["model", "b", "d", "seeds", "b^d", "Knuth–Moore", "Pearl R_b"];
        header.extend(ab_orderings.iter().map(|&o| -> &str { o.into() }));
        let mut table = output::table(&header);
        let shapes = distinct(summaries.iter().filter(|s| s.k.is_none()).map(|s| (s.model, s.b, s.d)));
        for (model, b, d) in shapes {
            let Some(first) = summaries.iter().find(|s| (s.model, s.b, s.d) == (model, b, d)) else {
                continue;
            };
            let mut cells = vec![
                model.to_string(),
                b.to_string(),
                d.to_string(),
                first.leaves.len().to_string(),
                count(first.minimax_leaves),
                first.knuth_moore.map_or(String::new(), count),
                first.pearl().map_or(String::new(), |r| format!("{r:.4}")),
            ];
            for &ordering in &ab_orderings {
                cells.push(
                    find(model, b, None, d, AB, ordering).map_or(String::new(), |s| {
                        format!("{} ({:.3})", count(s.spread().mean.round() as u64), s.ebf())
                    }),
                );
            }
            table.add_row(cells);
        }
        out.push(format!(
            "Alpha-beta: mean leaves over the seeds (effective branching factor, mean^(1/d)) by ordering\n{table}"
        ));
    }

    // Per model: geometric means over (b, d) of the ratio of mean leaves to a baseline.
    let ratio_table = |title: &str, baseline_ordering: Option<OrderingKind>| -> Option<String> {
        let mut header = vec!["model", "algorithm"];
        header.extend(orderings.iter().map(|&o| -> &str { o.into() }));
        let mut table = output::table(&header);
        let mut any = false;
        for &model in &models {
            for algorithm in distinct(summaries.iter().filter(|s| s.model == model).map(|s| s.algorithm)) {
                if baseline_ordering.is_none() && algorithm == AB {
                    continue;
                }
                let mut cells = vec![model.to_string(), algorithm.to_string()];
                let mut row_any = false;
                for &ordering in &orderings {
                    let ratios: Vec<f64> = summaries
                        .iter()
                        .filter(|s| s.model == model && s.algorithm == algorithm && s.ordering == ordering)
                        .filter_map(|s| {
                            let base = find(model, s.b, s.k, s.d, AB, baseline_ordering.unwrap_or(ordering))?;
                            Some(s.spread().mean / base.spread().mean)
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
        Some(OrderingKind::Natural),
    ));

    // The chance model: nodes relative to expectiminimax, per b and k.
    let chance: Vec<&Aggregate> = summaries.iter().filter(|s| s.k.is_some()).collect();
    let chance_orderings: Vec<OrderingKind> = orderings
        .iter()
        .copied()
        .filter(|&o| chance.iter().any(|s| s.ordering == o && s.algorithm != Algorithm::Minimax))
        .collect();
    if !chance_orderings.is_empty() {
        let mut header = vec!["b", "k", "algorithm"];
        header.extend(chance_orderings.iter().map(|&o| -> &str { o.into() }));
        let mut table = output::table(&header);
        for (b, k) in distinct(chance.iter().map(|s| (s.b, s.k))) {
            let algorithms = distinct(chance.iter().filter(|s| (s.b, s.k) == (b, k)).map(|s| s.algorithm));
            for algorithm in algorithms.into_iter().filter(|&a| a != Algorithm::Minimax) {
                let mut cells = vec![b.to_string(), k.map_or(String::new(), |k| k.to_string()), algorithm.to_string()];
                for &ordering in &chance_orderings {
                    let ratios: Vec<f64> = chance
                        .iter()
                        .filter(|s| (s.b, s.k, s.algorithm, s.ordering) == (b, k, algorithm, ordering))
                        .filter_map(|s| {
                            let minimax = find(s.model, b, k, s.d, Algorithm::Minimax, OrderingKind::Natural)?;
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
    use crate::commands::sweep::grid::{RunSpec, TreeShape, TreeSpec};
    use khela_games::rng::Rng;

    #[test]
    fn statistics() {
        let check = |values: &[u64], mean: f64, median: f64, min: u64, max: u64| {
            assert_eq!(spread(values), Spread { mean, median, min, max }, "{values:?}");
        };
        check(&[5], 5.0, 5.0, 5, 5);
        check(&[3, 1, 2], 2.0, 2.0, 1, 3);
        check(&[4, 1, 3, 2], 2.5, 2.5, 1, 4);
        check(&[10, 1], 5.5, 5.5, 1, 10);
        check(&[7, 7, 1, 100], 28.75, 7.0, 1, 100);
    }

    fn row(shape: TreeShape, seed: u64, algorithm: Algorithm, leaves: u64) -> Row {
        let run = RunSpec { algorithm, ordering: OrderingKind::Natural };
        Row { leaves, nodes: leaves * 2, ..Row::new(TreeSpec { shape, seed }, Rng::Pcg, run) }
    }

    #[test]
    fn summary_rows() {
        let iid = TreeShape { model: ModelName::Iid, b: 2, k: None, d: 2 };
        let incremental = TreeShape { model: ModelName::Incremental, b: 3, k: None, d: 1 };
        let chance = TreeShape { model: ModelName::Chance, b: 2, k: Some(2), d: 1 };
        let rows = [
            row(iid, 0, Algorithm::AlphaBeta, 4),
            row(iid, 0, Algorithm::NegaScout, 3),
            row(iid, 1, Algorithm::AlphaBeta, 3),
            row(iid, 1, Algorithm::NegaScout, 3),
            row(incremental, 0, Algorithm::AlphaBeta, 3),
            row(chance, 0, Algorithm::Minimax, 4),
            row(chance, 0, Algorithm::AlphaBeta, 4),
            row(chance, 0, Algorithm::Star1, 3),
        ];
        let summaries = summarize(&rows);
        assert_eq!(summaries.len(), 6);
        assert_eq!(summaries[0].leaves, [4, 3]);
        let csv = String::from_utf8(to_csv(&summaries)).unwrap();
        assert_eq!(
            csv,
            "model,b,k,d,algorithm,ordering,seeds,mean_leaves,median_leaves,min_leaves,max_leaves,ebf,knuth_moore,\
             minimax_leaves,pearl,vs_alphabeta,mean_nodes,nodes_vs_minimax,nodes_vs_alphabeta\n\
             iid,2,,2,alphabeta,natural,2,3.50,3.5,3,4,1.870829,3,4,1.618034,1.000000,7.00,,1.000000\n\
             iid,2,,2,negascout,natural,2,3.00,3,3,3,1.732051,3,4,1.618034,0.857143,6.00,,0.857143\n\
             incremental,3,,1,alphabeta,natural,1,3.00,3,3,3,3.000000,3,3,,1.000000,6.00,,1.000000\n\
             chance,2,2,1,minimax,natural,1,4.00,4,4,4,4.000000,,4,,1.000000,8.00,1.000000,1.000000\n\
             chance,2,2,1,alphabeta,natural,1,4.00,4,4,4,4.000000,,4,,1.000000,8.00,1.000000,1.000000\n\
             chance,2,2,1,star1,natural,1,3.00,3,3,3,3.000000,,4,,0.750000,6.00,0.750000,0.750000\n"
        );
        let printed = tables(&summaries);
        assert!(printed.contains("| iid    | negascout | 0.857   |"), "{printed}");
        assert!(printed.contains("Chance trees: nodes relative to expectiminimax"), "{printed}");
        assert!(printed.contains("| 2 | 2 | star1     | 0.750   |"), "{printed}");
    }
}
