//! The options of `zero eval`, and those of its measurements that `zero curve` shares.

use crate::games::GameArgs;
use crate::output::OutArg;
use anyhow::{Result, bail};
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
    /// Games as each side: against perfect play (tic-tac-toe), against UCT with ten times the simulations and
    /// with --depth against the engine (Connect-4, Bagh-Chal: each pair of games from the same seeded opening; 0
    /// measures the heads only, on --set or --tables).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub games: u64,
    /// The seed of the opponents' choices, of the openings and of the positions drawn from --tables.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Connect-4: a benchmark file of `moves score` lines (like ../shared/connect4/Test_L2_R1, Middle-Easy) whose
    /// positions the network is judged on, with and without search, against the exact solver's values.
    #[arg(long, value_name = "FILE")]
    pub set: Option<PathBuf>,
    /// Connect-4: the first N positions of --set only. Bagh-Chal: N positions in play drawn from each table of
    /// --tables, or all of a table's where it has fewer [default: 200].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Connect-4 and Bagh-Chal: games against the engine to this depth too (with the game's evaluator: Connect-4's threats,
    /// Bagh-Chal's crowding), as many as against UCT.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=khela::players::MAX_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Bagh-Chal: the sliding phase's tables (`retro --game bagh-chal --out DIR`): the heads and the search
    /// judged on --limit positions drawn uniformly from each table (each number of goats captured), every
    /// goat placed, against their exact values.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

impl Measure {
    /// Refuses `--limit` and `--games 0` when the positions they are about are not given (`given`: whether
    /// `--set` or `--tables` is; `positions`: what it gives, as the messages name it).
    pub(super) fn need_positions(&self, given: bool, positions: &str) -> Result<()> {
        if self.limit.is_some() && !given {
            bail!("--limit counts {positions}, which is not given");
        }
        if self.games == 0 && !given {
            bail!("--games 0 plays no game: it measures the heads on {positions}, which is not given");
        }
        Ok(())
    }
}
