//! `bench-suite`: khela's harness. It reproduces the textbook's tables, solves positions, counts game trees,
//! traces searches, and writes CSV.
//!
//! `main` stays small: parse the arguments, run the command, report. Every error is one line on stderr,
//! `error: …`, with exit status 2.

mod cli;
mod commands;
mod games;
mod machine;
mod names;
mod output;
mod plot;
mod progress;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version: print as clap does, successfully.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("{}", cli::one_line(&err));
            return ExitCode::from(2);
        }
    };
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", format!("{err:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
