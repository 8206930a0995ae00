//! `zero eval`: a network measured against exact truth, as CSV `metric,value`. Tic-tac-toe: games against
//! perfect play and the raw heads on every position still in play ([`tictactoe`]); Connect-4: games against
//! UCT with ten times the simulations and, on a benchmark set's positions, the raw heads and the search against
//! the exact solver ([`connect4`]).

mod args;
mod connect4;
mod tictactoe;

pub use args::EvalArgs;

use crate::games::GameName;
use crate::output::{Sink, metric_table};
use anyhow::{Result, bail};

/// Runs `zero eval`.
pub fn run(args: &EvalArgs) -> Result<()> {
    let sink = Sink::new(&args.out, None)?;
    let rows = match args.game.game {
        GameName::Tictactoe => tictactoe::rows(args)?,
        GameName::Connect4 => connect4::rows(args)?,
        other => {
            bail!("zero eval measures tic-tac-toe and Connect-4 networks (--game tictactoe or connect4), not {other}")
        }
    };
    sink.emit(&rows, || metric_table(&rows).to_string())
}
