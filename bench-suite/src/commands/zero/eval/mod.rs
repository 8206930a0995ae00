//! `zero eval`: a network measured against exact truth, as CSV `metric,value`. Tic-tac-toe: games against
//! perfect play and the raw heads on every position still in play ([`tictactoe`]); Connect-4: games against
//! UCT with ten times the simulations and, on a benchmark set's positions, the raw heads and the search against
//! the exact solver ([`connect4`]); Bagh-Chal: games against UCT (and the engine) as each side and, on positions
//! drawn from the sliding phase's tables, the heads and the search against them ([`bagh_chal`]).

mod args;
mod bagh_chal;
mod connect4;
mod games;
mod heads;
mod tictactoe;

pub use args::{EvalArgs, Measure};

use crate::games::{GameArgs, GameName};
use crate::output::{Metric, Sink, metric_table};
use anyhow::{Result, bail};
use std::path::Path;

/// Runs `zero eval`.
pub fn run(args: &EvalArgs) -> Result<()> {
    let sink = Sink::new(&args.out, None)?;
    let rows = metrics(&args.game, &args.net, &args.measure)?;
    sink.emit(&rows, || metric_table(&rows).to_string())
}

/// The measurements of the network at `net` for the game of `game`.
pub fn metrics(game: &GameArgs, net: &Path, measure: &Measure) -> Result<Vec<Metric>> {
    match game.game.name {
        GameName::Tictactoe => tictactoe::rows(game, net, measure),
        GameName::Connect4 => connect4::rows(game, net, measure),
        GameName::BaghChal => bagh_chal::rows(game, net, measure),
        other => bail!(
            "zero eval measures tic-tac-toe, Connect-4 and Bagh-Chal networks (--game tictactoe, connect4 or \
             bagh-chal), not {other}"
        ),
    }
}
