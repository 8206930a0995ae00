//! The command line: every subcommand and its options, validated by clap.

use crate::commands::mcts::{self, MctsAlgorithm, MctsGame, MctsPrior, Parallelism};
use crate::commands::sweep::{AlgorithmName, List, ModelName, OrderingName, Shard};
use clap::{Args, Parser, Subcommand, ValueEnum};
use khela_exact::Algorithm;
use khela_games::Player;
use khela_games::random_tree::Rng;
use std::path::PathBuf;

/// khela's benchmark harness: the textbook's tables, exact solutions, tree counts and traces.
#[derive(Debug, Parser)]
#[command(name = "bench-suite", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Regenerate the textbook's move-ordering table (alpha-beta under each ordering, against minimax).
    ///
    /// With no arguments: the random-tree table (b=4, d=6, seed 42, python generator, leaves 0..=99) and the
    /// tic-tac-toe table, written to results/ordering.csv. With any of --b, --d, --seed, --rng, --lo, --hi:
    /// the random-tree rows for those parameters only.
    Ordering(OrderingArgs),
    /// Solve a position: the value of every move and the best ones, exactly, or with --depth to a depth with the
    /// game's evaluator at the horizon (tic-tac-toe: open lines; Connect-4: threats), with the move chosen and the
    /// principal variation.
    Solve(SolveArgs),
    /// The evaluator's estimate of a position and its terms (tic-tac-toe: open lines; Connect-4: threats).
    Eval(EvalArgs),
    /// Count the full game tree: games by outcome, nodes and distinct states.
    Count(CountArgs),
    /// Trace the backing-up of values in an explicit tree, with the leaves alpha-beta prunes.
    Trace(TraceArgs),
    /// The alpha-beta sweep: every algorithm and ordering over implicit random trees of every model, branching
    /// factor, depth and seed of a grid (and chance outcomes, for the chance model).
    ///
    /// Writes DIR/sweep.csv (one row per search, in grid order: model, b, k, d, seed, algorithm, ordering),
    /// DIR/sweep-summary.csv (statistics over the seeds), plots and DIR/sweep.meta.json, and prints a summary.
    /// With no arguments: a default grid of about half a minute on two cores (a minute on one). Lists take comma lists and inclusive
    /// ranges: --b 2..8, --seeds 0..99, --d 2,4,6. Every search of a tree must find the same value, or the
    /// sweep stops. Rows are written a tree at a time: an interrupted sweep continues with --resume.
    Sweep(SweepArgs),
    /// Join the directories of `sweep --shard K/N` runs into the files the unsharded sweep writes.
    Merge(MergeArgs),
    /// Monte Carlo tree search from a position: each move's visits and mean score, and the move chosen.
    Mcts(MctsArgs),
}

/// Options of `mcts`.
#[derive(Debug, Args)]
pub struct MctsArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: MctsGame,
    /// The position: a tic-tac-toe board (9 characters of '.', 'X', 'O') or a Connect-4 move string of 1-based
    /// columns (4453) [default: the empty board].
    #[arg(long)]
    pub position: Option<String>,
    /// The search.
    #[arg(long, value_enum, default_value_t = MctsAlgorithm::Uct)]
    pub algorithm: MctsAlgorithm,
    /// PUCT's priors (--algorithm puct only) [default: uniform].
    #[arg(long, value_enum)]
    pub prior: Option<MctsPrior>,
    /// Iterations; for flat Monte Carlo, playouts after each move.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=mcts::MAX_ITERATIONS))]
    pub iterations: u64,
    /// The seed of every random choice.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Threads (rayon).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: u64,
    /// How threads share the work.
    #[arg(long, value_enum, default_value_t = Parallelism::Root)]
    pub parallel: Parallelism,
    /// The random number generator.
    #[arg(long, value_enum, default_value_t = mcts::Rng::Pcg)]
    pub rng: mcts::Rng,
    /// MCTS-Solver: prove wins and losses and play a proven win at once.
    #[arg(long)]
    pub solver: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// Options of `sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Tree models: iid (leaves uniform in 0..=2^31-1, ties rare), iid100 (the textbook's 0..=99),
    /// incremental (edge values uniform in -100..=100, a node's value the sum along its path), chance (regular
    /// *-minimax trees: b moves, then k equiprobable outcomes, d times; leaves 0..=99) [default: all].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
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
    /// above 2^22 leaves [default: all].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    pub algorithms: Vec<AlgorithmName>,
    /// Move orderings. best and worst are oracles (exact values, not counted; not above 2^24 nodes); static
    /// sorts by the child's path sum and runs on the incremental model only [default: all].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    pub orderings: Vec<OrderingName>,
    /// Value generator: pcg hashes every value from (seed, node); python draws iid leaves with Python's
    /// random.Random(seed).randint, left to right (at most 2^24 leaves, iid models only) [default: pcg].
    #[arg(long, value_enum)]
    pub rng: Option<RngArg>,
    /// Threads (rayon) [default: all cores]. The files do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Option<u64>,
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

/// Where CSV goes.
#[derive(Debug, Args)]
pub struct OutArg {
    /// Write the CSV to this file as well as printing the table; `-` writes the CSV to stdout instead of the
    /// table. Files are written whole or not at all (a temporary file, then a rename).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}

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
    #[arg(long, value_enum)]
    pub rng: Option<RngArg>,
    /// Smallest leaf value [default: 0].
    #[arg(long, allow_hyphen_values = true)]
    pub lo: Option<i64>,
    /// Largest leaf value [default: 99].
    #[arg(long, allow_hyphen_values = true)]
    pub hi: Option<i64>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// Options of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: SolveGame,
    /// The position: tic-tac-toe, 9 characters of '.', 'X', 'O' row by row; Connect-4, the moves played as
    /// 1-based columns, like 4453 [default: the empty board].
    #[arg(long)]
    pub position: Option<String>,
    /// Depth-limited search: plies searched from the position, the move being valued included (2 = the move
    /// and the reply, then the evaluator). Required for Connect-4; without it tic-tac-toe and Nim are solved
    /// exactly.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: Option<u32>,
    /// With --depth: quiescence search, playing the evaluator's noisy moves (wins and blocks of an immediate
    /// win) past the horizon until the position is quiet.
    #[arg(long)]
    pub quiescence: bool,
    /// Nim: the heap sizes, comma-separated, like 3,4,5.
    #[arg(long)]
    pub heaps: Option<String>,
    /// Nim: check the search against Bouton's XOR rule on every position of --heaps-count heaps of 0..=--max.
    #[arg(long)]
    pub check_xor: bool,
    /// Nim, with --check-xor: the number of heaps.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub heaps_count: u32,
    /// Nim, with --check-xor: the largest heap size.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=63))]
    pub max: u32,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// Options of `count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: CountGame,
    /// The position to count from: a tic-tac-toe board (9 characters) or a Connect-4 move string of 1-based
    /// columns (4453) [default: the empty board].
    #[arg(long)]
    pub position: Option<String>,
    /// Connect-4: count plies 0..=DEPTH (required for Connect-4).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Threads (rayon); a comma list such as 1,2 runs the count once per entry, checks the counts agree and
    /// reports each timing [default: all cores].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Vec<u64>,
    /// Connect-4: count only move sequences or only distinct positions [default: both].
    #[arg(long, value_enum)]
    pub only: Option<Measure>,
    /// Connect-4 board width.
    #[arg(long, default_value_t = 7)]
    pub width: u32,
    /// Connect-4 board height.
    #[arg(long, default_value_t = 6)]
    pub height: u32,
    /// Run even when the estimate says the count will not finish in 15 minutes or fit in memory.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// What `count` measures in Connect-4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Measure {
    /// Move sequences per ply (perft), split across threads and bulk-counted at the last ply.
    Sequences,
    /// Distinct positions per ply, in sharded, sorted position sets.
    Positions,
}

/// Options of `trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The tree in nested-list notation, like `[[5,8,6],[3,9,7],[10,4,2]]`; chance nodes as `{0.5:8,0.5:-1}`.
    #[arg(long, allow_hyphen_values = true)]
    pub tree: String,
    /// The side to move at the root.
    #[arg(long, value_enum, default_value_t = RootArg::Max)]
    pub root: RootArg,
    /// The search to trace.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Alphabeta)]
    pub algorithm: AlgorithmArg,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// Games `solve` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolveGame {
    /// Tic-tac-toe (--position).
    Tictactoe,
    /// Nim (--heaps, or --check-xor).
    Nim,
    /// Connect-4 on the standard 7 × 6 board (--position, --depth).
    Connect4,
}

/// Options of `eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: EvalGame,
    /// The position: tic-tac-toe, 9 characters of '.', 'X', 'O' row by row; Connect-4, the moves played as
    /// 1-based columns, like 4453 [default: the empty board].
    #[arg(long)]
    pub position: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// Games with an evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EvalGame {
    /// Tic-tac-toe: open lines (X's minus O's).
    Tictactoe,
    /// Connect-4 on the standard 7 × 6 board: open windows and threats.
    Connect4,
}

/// Games `count` knows.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CountGame {
    /// Tic-tac-toe: the full tree, games by outcome, nodes and distinct states.
    Tictactoe,
    /// Connect-4: move sequences and distinct positions per ply, to --depth.
    Connect4,
}

/// Leaf generators.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RngArg {
    /// PCG: values on demand (ordering: a jump-ahead PCG-32 stream; sweep: a PCG-style hash of (seed, node)).
    Pcg,
    /// Python's random.Random(seed).
    Python,
}

impl From<RngArg> for Rng {
    fn from(arg: RngArg) -> Rng {
        match arg {
            RngArg::Pcg => Rng::Pcg,
            RngArg::Python => Rng::Python,
        }
    }
}

/// The side at the root.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RootArg {
    /// MAX moves at the root.
    Max,
    /// MIN moves at the root.
    Min,
}

impl From<RootArg> for Player {
    fn from(arg: RootArg) -> Player {
        match arg {
            RootArg::Max => Player::Max,
            RootArg::Min => Player::Min,
        }
    }
}

/// Search algorithms on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AlgorithmArg {
    /// Plain minimax (expectiminimax at chance nodes).
    Minimax,
    /// Alpha-beta.
    Alphabeta,
    /// Negamax.
    Negamax,
    /// Negamax with alpha-beta.
    NegamaxAlphabeta,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(arg: AlgorithmArg) -> Algorithm {
        match arg {
            AlgorithmArg::Minimax => Algorithm::Minimax,
            AlgorithmArg::Alphabeta => Algorithm::AlphaBeta,
            AlgorithmArg::Negamax => Algorithm::Negamax,
            AlgorithmArg::NegamaxAlphabeta => Algorithm::NegamaxAlphaBeta,
        }
    }
}

/// A clap error as one line: the message, with any indented details (such as the missing arguments) joined
/// onto it, without the usage block.
pub fn one_line(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    rendered.lines().take_while(|line| !line.trim().is_empty()).map(str::trim).collect::<Vec<_>>().join(" ")
}
