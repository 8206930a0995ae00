//! The command line: the subcommands, each with the options its own module declares, and what runs them.

use crate::commands::count::{self, CountArgs};
use crate::commands::eval::{self, EvalArgs};
use crate::commands::games::{self, GamesArgs};
use crate::commands::matches::{self, MatchArgs};
use crate::commands::mcts::{self, MctsArgs};
use crate::commands::merge_counts::{self, MergeCountsArgs};
use crate::commands::ordering::{self, OrderingArgs};
use crate::commands::play::{self, PlayArgs};
use crate::commands::prove::{self, ProveArgs};
use crate::commands::retro::{self, RetroArgs};
use crate::commands::solve::{self, SolveArgs};
use crate::commands::star::{self, StarArgs};
use crate::commands::sweep::{self, args::MergeArgs, args::SweepArgs, merge};
use crate::commands::trace::{self, TraceArgs};
use crate::commands::zero::{self, ZeroArgs};
use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use khela::players::Contender;

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
    /// game's evaluator at the horizon, with the move chosen and the principal variation.
    Solve(SolveArgs),
    /// The evaluator's estimate of a position and its terms.
    Eval(EvalArgs),
    /// Count a game tree: a small game's full tree (games by outcome, nodes, distinct states), or any game's move
    /// sequences and distinct positions per ply.
    Count(CountArgs),
    /// Trace the backing-up of values in an explicit tree, with the leaves alpha-beta prunes.
    Trace(TraceArgs),
    /// The alpha-beta sweep: every algorithm and ordering over implicit random trees of every model, branching
    /// factor, depth and seed of a grid (and chance outcomes, for the chance model).
    ///
    /// Writes DIR/sweep.csv (one row per search, in grid order: model, b, k, d, seed, algorithm, ordering),
    /// DIR/sweep-summary.csv (statistics over the seeds), plots and DIR/sweep.meta.json, and prints a summary.
    /// With no arguments: a default grid of about half a minute on two cores (a minute on one). Lists take comma
    /// lists and inclusive ranges: --b 2..8, --seeds 0..99, --d 2,4,6. Every search of a tree must find the same
    /// value, or the sweep stops. Rows are written a tree at a time: an interrupted sweep continues with --resume.
    Sweep(SweepArgs),
    /// Join the directories of `sweep --shard K/N` runs into the files the unsharded sweep writes.
    Merge(MergeArgs),
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
    /// AlphaZero's recipe: train a policy-value network by self-play (`zero train`), measure it against exact
    /// truth (`zero eval`).
    Zero(ZeroArgs),
}

impl Command {
    /// Whether the command runs a trained network (`zero`, a `net:PATH` player or prior), whose process should
    /// set the thread count first ([`crate::net::with_thread_count`]).
    pub fn uses_network(&self) -> bool {
        let net = |player: &Contender| matches!(player, Contender::Net(..));
        match self {
            Command::Zero(_) => true,
            Command::Mcts(args) => matches!(args.prior, Some(mcts::Prior::Net(_))),
            Command::Play(args) => net(&args.engine),
            Command::Match(args) => args.players.iter().any(net),
            _ => false,
        }
    }

    /// Runs the subcommand.
    pub fn run(self) -> Result<()> {
        match self {
            Command::Ordering(args) => ordering::run(&args),
            Command::Solve(args) => solve::run(&args),
            Command::Eval(args) => eval::run(&args),
            Command::Count(args) => count::run(&args),
            Command::Trace(args) => trace::run(&args),
            Command::Sweep(args) => sweep::run(&args),
            Command::Merge(args) => merge::run(&args),
            Command::Mcts(args) => mcts::run(&args),
            Command::Games(args) => games::run(&args),
            Command::Play(args) => play::run(&args),
            Command::Match(args) => matches::run(&args),
            Command::Retro(args) => retro::run(&args),
            Command::Prove(args) => prove::run(&args),
            Command::Star(args) => star::run(&args),
            Command::MergeCounts(args) => merge_counts::run(&args),
            Command::Zero(args) => zero::run(&args),
        }
    }
}

/// Parses the command line `args` (the program's name first). Any option's value may be a negative number (`--seeds -1`, `--lo -5`, `--tree -3`):
/// it goes to the option's own parser, which accepts it or refuses it naming the option, instead of clap taking
/// it for an unknown flag.
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let command = Cli::command().mut_subcommands(|sub| {
        sub.mut_args(|arg| {
            let takes_values = arg.get_action().takes_values();
            arg.allow_negative_numbers(takes_values)
        })
    });
    Cli::from_arg_matches(&command.try_get_matches_from(args)?)
}

/// A clap error as one line: the message, with any indented details (such as the missing arguments) joined
/// onto it, without the usage block.
pub fn one_line(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    rendered.lines().take_while(|line| !line.trim().is_empty()).map(str::trim).collect::<Vec<_>>().join(" ")
}
