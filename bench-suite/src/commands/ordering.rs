//! `ordering`: the textbook's move-ordering table.

use crate::names::named;
use crate::output::{self, OutArg, Sink};
use anyhow::{Result, bail};
use clap::Args;
use indicatif::HumanCount;
use khela_exact::SearchResult;
use khela_exact::ordering_table::{self, Compared, TableError};
use khela_exact::theory::knuth_moore;
use khela_games::random_tree::Params;
use khela_games::rng::Rng;
use serde::Serialize;
use std::path::Path;

/// Options of `ordering`.
#[derive(Debug, Args)]
pub struct OrderingArgs {
    /// Branching factor of the random tree [default: 4].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub b: Option<u32>,
    /// Depth of the random tree [default: 6].
    #[arg(long)]
    pub d: Option<u32>,
    /// Seed of the random tree [default: 42].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Leaf generator: pcg computes leaves on demand (any size that fits the limits below); python matches
    /// Python's random.Random(seed).randint(lo, hi) leaf by leaf and holds every leaf in memory (at most 2^24
    /// leaves) [default: pcg; the no-argument textbook table uses python].
    #[arg(long, value_parser = named::<Rng>())]
    pub rng: Option<Rng>,
    /// Smallest leaf value [default: 0].
    #[arg(long)]
    pub lo: Option<i64>,
    /// Largest leaf value [default: 99].
    #[arg(long)]
    pub hi: Option<i64>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// The file the no-argument run writes.
const DEFAULT_OUT: &str = "results/ordering.csv";

/// One row of `results/ordering.csv`.
#[derive(Debug, Serialize)]
struct Row {
    game: &'static str,
    b: Option<u32>,
    d: Option<u32>,
    seed: Option<u64>,
    rng: Option<&'static str>,
    algorithm: &'static str,
    ordering: &'static str,
    value: String,
    leaves: u64,
    nodes: u64,
}

/// The textbook's random tree.
const TEXTBOOK_TREE: Params = Params { b: 4, d: 6, lo: 0, hi: 99, seed: 42, rng: Rng::Python };

/// Runs `ordering`.
pub fn run(args: &OrderingArgs) -> Result<()> {
    let custom = args.b.is_some()
        || args.d.is_some()
        || args.seed.is_some()
        || args.rng.is_some()
        || args.lo.is_some()
        || args.hi.is_some();
    let params = if custom {
        Params {
            b: args.b.unwrap_or(TEXTBOOK_TREE.b),
            d: args.d.unwrap_or(TEXTBOOK_TREE.d),
            lo: args.lo.unwrap_or(TEXTBOOK_TREE.lo),
            hi: args.hi.unwrap_or(TEXTBOOK_TREE.hi),
            seed: args.seed.unwrap_or(TEXTBOOK_TREE.seed),
            rng: args.rng.unwrap_or(Rng::Pcg),
        }
    } else {
        TEXTBOOK_TREE
    };
    let (tree_rows, tree_table) = random_tree_rows(&params)?;
    let mut rows = tree_rows;
    let mut tables = vec![tree_table];
    if !custom {
        let (ttt_rows, ttt_table) = tictactoe_rows();
        rows.extend(ttt_rows);
        tables.push(ttt_table);
    }
    let default = (!custom).then(|| Path::new(DEFAULT_OUT));
    Sink::new(&args.out, default)?.emit(&rows, || tables.join("\n\n"))
}

fn random_tree_rows(params: &Params) -> Result<(Vec<Row>, String)> {
    let results = match ordering_table::random_tree(params) {
        Ok(results) => results,
        Err(TableError::TooLarge { b, d, nodes }) => bail!(
            "random tree b={b} d={d} has {} nodes; the ordering table runs plain minimax over every node and \
             memoizes every node for the oracle orderings, so it is limited to {} nodes",
            nodes.map_or("more than 2^62".to_string(), |n| HumanCount(n).to_string()),
            HumanCount(ordering_table::MAX_NODES)
        ),
        Err(err) => return Err(err.into()),
    };
    let nodes = params.node_count().unwrap_or(0);
    let rows = to_rows("random-tree", Some(params), &results);
    let knuth_moore = knuth_moore(params.b, params.d);
    let title = format!(
        "Random tree b={} d={} seed={} rng={} leaves {}..={} ({} nodes, {} leaves)\n\
         Knuth–Moore minimum for alpha-beta: b^⌈d/2⌉ + b^⌊d/2⌋ − 1 = {} leaves",
        params.b,
        params.d,
        params.seed,
        params.rng,
        params.lo,
        params.hi,
        HumanCount(nodes),
        HumanCount(params.leaves().unwrap_or(0)),
        knuth_moore.map_or("(too large)".to_string(), |n| HumanCount(n).to_string()),
    );
    Ok((rows, format!("{title}\n{}", table(&results, |r| r.stats.leaves, "leaves vs minimax"))))
}

fn tictactoe_rows() -> (Vec<Row>, String) {
    let results = ordering_table::tictactoe();
    let rows = to_rows("tictactoe", None, &results);
    let title = "Tic-tac-toe from the empty board";
    (rows, format!("{title}\n{}", table(&results, |r| r.stats.nodes, "nodes vs minimax")))
}

/// The CSV rows of the searches of one game; `params` fills the random-tree columns.
fn to_rows<M>(game: &'static str, params: Option<&Params>, results: &[Compared<M>]) -> Vec<Row> {
    results
        .iter()
        .map(|c| Row {
            game,
            b: params.map(|p| p.b),
            d: params.map(|p| p.d),
            seed: params.map(|p| p.seed),
            rng: params.map(|p| p.rng.into()),
            algorithm: c.algorithm.name(),
            ordering: c.ordering,
            value: output::value(c.result.value),
            leaves: c.result.stats.leaves,
            nodes: c.result.stats.nodes,
        })
        .collect()
}

/// The printed table; `measure` picks the count compared with minimax's in the last column.
fn table<M>(results: &[Compared<M>], measure: impl Fn(&SearchResult<M>) -> u64, ratio_name: &str) -> String {
    let baseline = results.first().map_or(1, |c| measure(&c.result)).max(1) as f64;
    let mut table = output::table(&["algorithm", "ordering", "value", "leaves", "nodes", ratio_name]);
    for Compared { algorithm, ordering, result: r } in results {
        table.add_row(vec![
            algorithm.name().to_string(),
            ordering.to_string(),
            output::value(r.value),
            HumanCount(r.stats.leaves).to_string(),
            HumanCount(r.stats.nodes).to_string(),
            format!("{:.1}%", 100.0 * measure(r) as f64 / baseline),
        ]);
    }
    table.to_string()
}
