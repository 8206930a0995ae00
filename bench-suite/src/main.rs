//! `bench-suite`: khela's harness. It reproduces the textbook's tables, solves positions, counts game trees,
//! traces searches, and writes CSV.
//!
//! `main` stays small: parse the arguments, run the command, report. Every error is one line on stderr,
//! `error: …`, with exit status 2 — or 1 when results checked against known truth disagree with it.

mod checkpoint;
mod cli;
mod commands;
mod games;
mod known;
mod machine;
mod names;
mod output;
mod players;
mod plot;
mod progress;
mod tables;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cli::parse() {
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
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever read stdout has gone (`| head`): there is nobody left to tell, so end quietly.
        Err(err) if output::is_closed_pipe(&err) => ExitCode::SUCCESS,
        // Results checked and found wrong: the arguments were good.
        Err(err) if err.downcast_ref::<output::Disagreed>().is_some() => {
            complain(&format!("error: {err}"));
            ExitCode::from(1)
        }
        Err(err) => {
            complain(&format!("error: {}", format!("{err:#}").replace('\n', " ")));
            ExitCode::from(2)
        }
    }
}

/// Writes the one line of an error on stderr; if stderr cannot take it either, the exit status still says it.
fn complain(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}
