//! The sweep's command line: `sweep` and `merge` (their lists and shards are the shared ones, [`crate::args`]).

use super::model::ModelName;
pub use crate::args::{List, Shard, Threads};
use crate::names::{among, named};
use clap::Args;
use khela_exact::{Algorithm, OrderingKind};
use khela_games::rng::Rng;
use std::path::PathBuf;

/// The algorithms the sweep runs, in its default order: the textbook's and their relatives. (Negamax and
/// negamax alpha-beta search every node exactly as minimax and alpha-beta do, so the sweep leaves them out.)
pub const ALGORITHMS: &[Algorithm] = &[
    Algorithm::Minimax,
    Algorithm::AlphaBeta,
    Algorithm::NegaScout,
    Algorithm::MtdF,
    Algorithm::IterativeDeepening,
    Algorithm::Star1,
    Algorithm::Star2,
];

/// The orderings the sweep runs, in its default order. (A preference list and the engines' shallow ordering
/// need a game's moves and evaluator; the sweep's trees have neither.)
pub const ORDERINGS: &[OrderingKind] = &[
    OrderingKind::Natural,
    OrderingKind::Random,
    OrderingKind::BestFirst,
    OrderingKind::WorstFirst,
    OrderingKind::Static,
    OrderingKind::History,
];

/// Options of `sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Tree models [default: all].
    #[arg(long, value_parser = named::<ModelName>(), value_delimiter = ',', value_name = "LIST")]
    pub models: Vec<ModelName>,
    /// Branching factors, like 2..8 or 2,4,8, for every model [default: 2..8; the chance model 2..4].
    #[arg(long, value_name = "LIST")]
    pub b: Option<List<u32>>,
    /// Depths in decision plies, like 2..8, for every model [default: 2..7; the chance model 1..4].
    #[arg(long, value_name = "LIST")]
    pub d: Option<List<u32>>,
    /// Outcomes per chance node, for the chance model, like 2..4 [default: 2..4].
    #[arg(long, value_name = "LIST")]
    pub k: Option<List<u32>>,
    /// Tree seeds, like 0..99 [default: 0..29].
    #[arg(long, value_name = "LIST")]
    pub seeds: Option<List<u64>>,
    /// Algorithms. Minimax runs once per tree (ordering natural: it visits every node in any order) and not
    /// above 2^22 leaves; star1 and star2 run on the chance model only, negascout, mtdf and id on the others
    /// [default: all].
    #[arg(long, value_parser = among(ALGORITHMS), value_delimiter = ',', value_name = "LIST")]
    pub algorithms: Vec<Algorithm>,
    /// Move orderings. best and worst are oracles (exact values, not counted; not above 2^24 nodes); static
    /// sorts by the child's path sum and runs on the incremental model only [default: all].
    #[arg(long, value_parser = among(ORDERINGS), value_delimiter = ',', value_name = "LIST")]
    pub orderings: Vec<OrderingKind>,
    /// Value generator: pcg hashes every value from (seed, node); python draws iid leaves with Python's
    /// random.Random(seed).randint, left to right (at most 2^24 leaves, iid models only) [default: pcg].
    #[arg(long, value_parser = named::<Rng>())]
    pub rng: Option<Rng>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: Threads,
    /// The directory to write into.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
    /// Run shard K of N (K = 0..N-1, like Slurm's array task ids): trees number i with i mod N = K, into
    /// their own --out; `merge` joins the shards.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Continue an interrupted sweep: keep the whole trees in DIR/sweep.csv and search the rest.
    #[arg(long)]
    pub resume: bool,
    /// Run grids over the size limits (10^12 nodes, 10^6 trees).
    #[arg(long)]
    pub force: bool,
}

/// Options of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The directory to write the merged files into.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
    /// The --out directories of the shards, all N of them, in any order.
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
}
