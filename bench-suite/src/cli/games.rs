//! The games' commands (the feature `games`, in the default build): everything that takes `--game`, and the
//! commands over their results.

use crate::commands::count::{self, CountArgs};
use crate::commands::eval::{self, EvalArgs};
use crate::commands::games::{self, GamesArgs};
use crate::commands::matches::{self, MatchArgs};
use crate::commands::mcts::{self, MctsArgs};
use crate::commands::merge_counts::{self, MergeCountsArgs};
use crate::commands::play::{self, PlayArgs};
use crate::commands::prove::{self, ProveArgs};
use crate::commands::retro::{self, RetroArgs};
use crate::commands::serve::{self, ServeArgs};
use crate::commands::solve::{self, SolveArgs};
use crate::commands::star::{self, StarArgs};
use crate::commands::zero::{self, ZeroArgs};
use anyhow::Result;
use clap::Subcommand;
use khela::players::Contender;

/// The games' commands.
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Solve a position: the value of every move and the best ones, exactly, or with --depth to a depth with the
    /// game's evaluator at the horizon, with the move chosen and the principal variation.
    Solve(SolveArgs),
    /// The evaluator's estimate of a position and its terms.
    Eval(EvalArgs),
    /// Count a game tree: a small game's full tree (games by outcome, nodes, distinct states), or any game's move
    /// sequences and distinct positions per ply.
    Count(CountArgs),
    /// Monte Carlo tree search from a position: each move's visits and mean score, and the move chosen.
    Mcts(MctsArgs),
    /// The games --game takes: how their positions are written, their evaluators, the commands they serve.
    Games(GamesArgs),
    /// Plays a game in the terminal against the engine, Monte Carlo or random moves; moves are read from
    /// standard input, so a script can pipe them in.
    Play(PlayArgs),
    /// Players against each other: every pairing of engines, Monte Carlo budgets and random play, colours
    /// alternating over seeded openings, with wins, draws and losses by side and the mean game length.
    #[command(name = "match")]
    Match(MatchArgs),
    /// Retrograde analysis: every position of a game's endgame solved exactly (Bagh-Chal: the sliding phase, all
    /// goats placed, 0 to 4 captured; Sixteen Soldiers: up to 6 pieces), each a win, loss or draw with its
    /// distance to the end; the tables written to DIR with DIR/summary.csv (per goats captured and side to move;
    /// per pieces of each side) and DIR/summary.meta.json.
    Retro(RetroArgs),
    /// Proves or refutes a claim about a position (`--claim goats:draw`) by an AND/OR search to the endgame
    /// tables, optionally with a heuristic player for the claimant (`--moves K`), and reports the proof's size;
    /// `--checkpoint FILE` saves the work every minute and resumes it.
    Prove(ProveArgs),
    /// Star1 and Star2 against expectiminimax (and alpha-beta at decision nodes) on positions from real games of
    /// a dice game (EinStein), at each depth and ordering, the evaluator at the horizon: node counts, and every
    /// value checked bit-identical to expectiminimax's.
    Star(StarArgs),
    /// Adds up the parts of a sharded count (`count --depth N --only sequences --shard K/N --out FILE`, a file a
    /// part, as a cluster's job array writes them) into the whole, after checking they are the N parts of one
    /// count.
    #[command(name = "merge-counts")]
    MergeCounts(MergeCountsArgs),
    /// Serves every game on a local web server: a JSON API for positions, moves, the value of every move and a
    /// player's move (see the book's chapter "In a browser"); by default on 127.0.0.1 only.
    Serve(ServeArgs),
    /// AlphaZero's recipe: train a policy-value network by self-play (`zero train`), measure it against exact
    /// truth and other players (`zero eval`), and every kept network of a run in turn (`zero curve`).
    Zero(ZeroArgs),
}

impl GameCommand {
    /// Whether the command runs a trained network (`zero`, a `net:PATH` player or prior).
    pub fn uses_network(&self) -> bool {
        let net = |player: &Contender| matches!(player, Contender::Net(..));
        match self {
            GameCommand::Zero(_) => true,
            GameCommand::Mcts(args) => matches!(args.prior, Some(mcts::PriorArg::Net(_))),
            GameCommand::Play(args) => net(&args.engine),
            GameCommand::Match(args) => args.players.iter().any(net),
            _ => false,
        }
    }

    /// Runs the subcommand.
    pub fn run(self) -> Result<()> {
        match self {
            GameCommand::Solve(args) => solve::run(&args),
            GameCommand::Eval(args) => eval::run(&args),
            GameCommand::Count(args) => count::run(&args),
            GameCommand::Mcts(args) => mcts::run(&args),
            GameCommand::Games(args) => games::run(&args),
            GameCommand::Play(args) => play::run(&args),
            GameCommand::Match(args) => matches::run(&args),
            GameCommand::Retro(args) => retro::run(&args),
            GameCommand::Prove(args) => prove::run(&args),
            GameCommand::Star(args) => star::run(&args),
            GameCommand::MergeCounts(args) => merge_counts::run(&args),
            GameCommand::Zero(args) => zero::run(&args),
            GameCommand::Serve(args) => serve::run(&args),
        }
    }
}
