//! The command line: the subcommands, each with the options its own module declares, and what runs them.

#[cfg(feature = "games")]
mod games;

use crate::commands::ordering::{self, OrderingArgs};
use crate::commands::sweep::{self, args::MergeArgs, args::SweepArgs, merge};
use crate::commands::trace::{self, TraceArgs};
use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
#[cfg(feature = "games")]
pub use games::GameCommand;
#[cfg(not(feature = "games"))]
use std::ffi::OsString;

/// khela's benchmark harness: the textbook's tables, exact solutions, tree counts and traces.
#[derive(Debug, Parser)]
#[command(name = "bench-suite", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands: the textbook's harness (the sweep and the tables) in every build, and the games' commands in
/// the default one (the feature `games`).
#[derive(Debug, Subcommand)]
pub enum Command {
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
    /// Regenerate the textbook's move-ordering table (alpha-beta under each ordering, against minimax).
    ///
    /// With no arguments: the random-tree table (b=4, d=6, seed 42, python generator, leaves 0..=99) and the
    /// tic-tac-toe table, written to results/ordering.csv. With any of --b, --d, --seed, --rng, --lo, --hi:
    /// the random-tree rows for those parameters only.
    Ordering(OrderingArgs),
    /// Trace the backing-up of values in an explicit tree, with the leaves alpha-beta prunes.
    Trace(TraceArgs),
    #[cfg(feature = "games")]
    #[command(flatten)]
    #[allow(missing_docs)]
    Games(GameCommand),
    /// A command this build leaves out (built with `--no-default-features`).
    #[cfg(not(feature = "games"))]
    #[command(external_subcommand)]
    LeftOut(Vec<OsString>),
}

impl Command {
    /// Whether the command runs a trained network (`zero`, a `net:PATH` player or prior), whose process should
    /// set the thread count first ([`crate::net::with_thread_count`]).
    #[cfg(feature = "games")]
    pub fn uses_network(&self) -> bool {
        matches!(self, Command::Games(command) if command.uses_network())
    }

    /// Runs the subcommand.
    pub fn run(self) -> Result<()> {
        match self {
            Command::Sweep(args) => sweep::run(&args),
            Command::Merge(args) => merge::run(&args),
            Command::Ordering(args) => ordering::run(&args),
            Command::Trace(args) => trace::run(&args),
            #[cfg(feature = "games")]
            Command::Games(command) => command.run(),
            #[cfg(not(feature = "games"))]
            Command::LeftOut(args) => anyhow::bail!(
                "this bench-suite was built without the games' commands (cargo's --no-default-features: the sweep, \
                 merge, ordering and trace alone); {:?} is not among them: build the default, `cargo run --release \
                 -p bench-suite -- {}`",
                args.first().map(|a| a.to_string_lossy().into_owned()).unwrap_or_default(),
                args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ")
            ),
        }
    }
}

/// Parses the command line `args` (the program's name first). An option's value may begin with a minus and a
/// digit (`--seeds -1`, `--lo -5`, `--shard -1/2`): it goes to the option's own parser, which accepts it or
/// refuses it naming the option, instead of clap taking it for an unknown flag.
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    Cli::from_arg_matches(&Cli::command().try_get_matches_from(glued(args))?)
}

/// `args` with each long option followed by a word that begins with a minus and a digit or a point joined to it
/// (`--shard -1/2` as `--shard=-1/2`), up to a `--` that ends the options.
fn glued<I, T>(args: I) -> Vec<std::ffi::OsString>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString>,
{
    let numeric = |word: &str| {
        word.strip_prefix('-').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
    };
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    let mut options = true;
    for arg in args.into_iter().map(Into::into) {
        let word = arg.to_str();
        let option = |last: &&mut std::ffi::OsString| {
            last.to_str().is_some_and(|l| l.len() > 2 && l.starts_with("--") && !l.contains('='))
        };
        if options
            && word.is_some_and(numeric)
            && let Some(last) = out.last_mut().filter(option)
        {
            last.push("=");
            last.push(&arg);
            continue;
        }
        options &= word != Some("--");
        out.push(arg);
    }
    out
}

/// A clap error as one line: the message, with any indented details (such as the missing arguments) joined
/// onto it, without the usage block.
pub fn one_line(err: &clap::Error) -> String {
    if let Some(text) = whole_number_refused(err) {
        return text;
    }
    let rendered = err.render().to_string();
    rendered.lines().take_while(|line| !line.trim().is_empty()).map(str::trim).collect::<Vec<_>>().join(" ")
}

/// An option's value refused by the standard library's integer parser, said in words a user reads
/// (`--games -1`: "expected a whole number, not a negative one", not "invalid digit found in string"); the
/// option's own range, where it has one, is checked once the value is read.
fn whole_number_refused(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    use std::num::IntErrorKind;
    let kind = *std::error::Error::source(err)?.downcast_ref::<std::num::ParseIntError>()?.kind();
    let context = |kind| match err.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let (option, value) = (context(ContextKind::InvalidArg)?, context(ContextKind::InvalidValue)?);
    let why = match kind {
        IntErrorKind::PosOverflow => "too large",
        IntErrorKind::NegOverflow => "too small",
        // Only an unsigned parser refuses a minus sign before digits.
        _ if value.strip_prefix('-').is_some_and(|digits| digits.parse::<u128>().is_ok()) => {
            "expected a whole number, not a negative one"
        }
        _ => "expected a whole number",
    };
    Some(format!("error: invalid value '{value}' for '{option}': {why}"))
}
