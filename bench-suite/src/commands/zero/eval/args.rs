//! The options of `zero eval`, and those of its measurements that `zero curve` shares.

use crate::games::GameArgs;
use crate::output::OutArg;
use clap::Args;
use std::path::PathBuf;

/// Options of `zero eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The network (`zero train`'s DIR/net.safetensors, with its .json beside it).
    #[arg(long, value_name = "PATH")]
    pub net: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub measure: Measure,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// How a network is measured.
#[derive(Clone, Debug, Args)]
pub struct Measure {
    /// Simulations per move of the network's search.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub simulations: u32,
    /// Games as each side: against perfect play (tic-tac-toe), against UCT with ten times the simulations
    /// (Connect-4, each pair of games from the same seeded opening; 0 measures the heads on --set only).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub games: u64,
    /// The seed of the opponents' choices and of the openings.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Connect-4: a benchmark file of `moves score` lines (like ../shared/connect4/Test_L2_R1, Middle-Easy) whose
    /// positions the network is judged on, with and without search, against the exact solver's values.
    #[arg(long, value_name = "FILE")]
    pub set: Option<PathBuf>,
    /// Connect-4: the first N positions of --set only.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
}
