//! `bench-suite` as a library: the harness's command line, run by the `bench-suite` binary ([`main`]) and by
//! other front ends (the Python package, [`run`]), so that both take the same options, refuse the same input
//! with the same messages and write the same files.

// Built without the games' commands, some helpers shared with them (prompts, metric rows, memory figures, a few
// drawing parts) have no caller; the default build, which clippy and the tests check, uses every one.
#![cfg_attr(not(feature = "games"), allow(dead_code))]

mod args;
#[cfg(feature = "games")]
mod checkpoint;
mod cli;
mod commands;
#[cfg(feature = "games")]
mod games;
pub mod interrupt;
mod machine;
mod names;
#[cfg(feature = "games")]
mod net;
mod output;
mod plot;
mod progress;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// Why a command run through [`run`] did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Bad arguments: the command line's one-line message (the binary's exit status 2).
    #[error("{0}")]
    Usage(String),
    /// The command refused its input or failed: its one-line message (exit status 2).
    #[error("{0}")]
    Failed(String),
    /// The results were checked against known truth and disagree with it (exit status 1).
    #[error("{0}")]
    Disagreed(String),
    /// A stop was asked for with [`interrupt::request`] and the command stopped, writing no file.
    #[error("interrupted")]
    Interrupted,
}

/// The `bench-suite` binary: parses the process's arguments, runs the command and reports. Every error is one
/// line on stderr, `error: …`, with exit status 2 — or 1 when results checked against known truth disagree with
/// it; a command that saves its work on Ctrl-C (`prove`) says where, with status 130.
pub fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version: print as clap does, successfully.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            complain(&cli::one_line(&err));
            return ExitCode::from(2);
        }
    };
    #[cfg(feature = "games")]
    if cli.command.uses_network() {
        net::with_thread_count();
    }
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever read stdout has gone (`| head`): there is nobody left to tell, so end quietly.
        Err(err) if output::is_closed_pipe(&err) => ExitCode::SUCCESS,
        // Stopped by Ctrl-C after saving what it had (`prove`): its message says where, and how to go on.
        Err(err) if err.downcast_ref::<interrupt::Interrupted>().is_some() => {
            complain(&err.to_string());
            ExitCode::from(130)
        }
        Err(err) => match failure(err) {
            failure @ Failure::Disagreed(_) => {
                complain(&format!("error: {failure}"));
                ExitCode::from(1)
            }
            failure => {
                complain(&format!("error: {failure}"));
                ExitCode::from(2)
            }
        },
    }
}

/// Runs the command `args` gives (the subcommand first, as after `bench-suite` on the command line) for a front
/// end: nothing is printed on stdout (the front end reads the CSV the command writes with `--out`), progress
/// still goes to stderr, and Ctrl-C is the front end's to catch: it stops the command through
/// [`interrupt::request`].
///
/// # Errors
///
/// As the binary's messages, without their `error: ` prefix: see [`Failure`]. `--help` gives the help text
/// as a [`Failure::Usage`].
pub fn run<I, T>(args: I) -> Result<(), Failure>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    output::be_quiet();
    interrupt::leave_ctrl_c_to_the_caller();
    parse(args)?.command.run().map_err(failure)
}

/// Parses a command line (the arguments after the program's name) as [`run`] would, without running it: the
/// documentation's tests check every command the book shows with it, and a front end may check its arguments
/// before it starts anything.
pub fn check<I, T>(args: I) -> Result<(), Failure>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    parse(args).map(drop)
}

/// Whether `command` (a command line's first word) names a command this build leaves out: built without the
/// feature `games`, a word that is not an option, `help` or one of the commands it has (sweep, merge, ordering,
/// trace). A front end so built refuses it in its own words, naming its own full build (the Python package's
/// default wheel).
pub fn left_out(command: &str) -> bool {
    use clap::CommandFactory;
    cfg!(not(feature = "games"))
        && !command.starts_with('-')
        && command != "help"
        && cli::Cli::command().find_subcommand(command).is_none()
}

/// The command line `args` (after the program's name) stands for, or why it is refused.
fn parse<I, T>(args: I) -> Result<cli::Cli, Failure>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let argv = std::iter::once(OsString::from("bench-suite")).chain(args.into_iter().map(Into::into));
    cli::parse(argv).map_err(|err| {
        let text = if err.use_stderr() { cli::one_line(&err) } else { err.render().to_string() };
        Failure::Usage(text.strip_prefix("error: ").unwrap_or(&text).to_string())
    })
}

/// What a command's error is.
fn failure(err: anyhow::Error) -> Failure {
    if err.downcast_ref::<interrupt::Interrupted>().is_some() {
        Failure::Interrupted
    } else if err.downcast_ref::<output::Disagreed>().is_some() {
        Failure::Disagreed(err.to_string())
    } else {
        Failure::Failed(format!("{err:#}").replace('\n', " "))
    }
}

/// Writes the one line of an error on stderr; if stderr cannot take it either, the exit status still says it.
fn complain(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}
