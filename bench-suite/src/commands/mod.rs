//! One module per subcommand; each turns validated arguments into rows, a table and CSV.

mod count;
mod eval;
pub mod mcts;
mod ordering;
mod solve;
pub mod sweep;
mod trace;

use crate::cli::Command;
use anyhow::Result;

/// Runs a subcommand.
pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Ordering(args) => ordering::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Count(args) => count::run(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Merge(args) => sweep::merge(&args),
        Command::Mcts(args) => mcts::run(&args),
    }
}
