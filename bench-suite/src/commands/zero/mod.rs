//! `zero`: AlphaZero's recipe — `zero train` trains a network by self-play, `zero eval` measures one against
//! exact truth, `zero curve` measures each network a run kept. A network is saved as `NAME.safetensors` (its
//! weights) with `NAME.json` beside it (the game and the architecture), so that `--net NAME.safetensors` is all
//! a command needs.

pub mod curve;
pub mod eval;
pub mod train;

use anyhow::Result;
use clap::{Args, Subcommand};

/// Options of `zero`.
#[derive(Debug, Args)]
pub struct ZeroArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ZeroCommand,
}

/// The subcommands of `zero`.
#[derive(Debug, Subcommand)]
pub enum ZeroCommand {
    /// Train a network by self-play, an iteration (games, then training steps) at a time, into --out DIR:
    /// DIR/net.safetensors and DIR/net.json (the network), DIR/train.csv (a row per iteration, its games by outcome among them), DIR/replay.txt
    /// (the games of the replay window) and DIR/state.json. A run killed at any point resumes from its last
    /// finished iteration when started again with the same DIR and options.
    Train(train::TrainArgs),
    /// Measure a network against exact truth, as CSV `metric,value`: tic-tac-toe, games against perfect play
    /// and the heads on its 4,520 positions still in play; Connect-4, games against UCT and the heads and the
    /// search on a benchmark file's positions (--set); Bagh-Chal, games against UCT (and the engine) as each
    /// side and the heads and the search on positions of the sliding phase's tables (--tables).
    Eval(eval::EvalArgs),
    /// Measure every network a run kept (`zero train --keep-every`) as `zero eval` does, against the run's
    /// minutes and games of training: CSV `iteration,games,positions,seconds,metric,value`, and with --plot an
    /// SVG of the shares.
    Curve(curve::CurveArgs),
}

/// Runs `zero`.
pub fn run(args: &ZeroArgs) -> Result<()> {
    match &args.command {
        ZeroCommand::Train(args) => train::run(args),
        ZeroCommand::Eval(args) => eval::run(args),
        ZeroCommand::Curve(args) => curve::run(args),
    }
}
