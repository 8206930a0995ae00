//! What `solve` hands a game's own solver: a position to solve, or benchmark sets to run.

use crate::output::OutArg;
use std::path::{Path, PathBuf};

/// How `solve` asks a game's own solver to solve a position.
#[derive(Debug)]
pub struct OwnSolve<'a> {
    /// Win, draw or loss only.
    pub weak: bool,
    /// The threads to solve on (a solver that runs on one ignores it).
    pub threads: usize,
    /// The transposition table's size, MiB, if asked for (the solver's default otherwise).
    pub table_mib: Option<usize>,
    /// Where the rows go.
    pub out: &'a OutArg,
    /// Where the solver's plot goes, for a solver that draws one ([`super::plot_of`]).
    pub plot: Option<&'a Path>,
}

/// What `solve --set` asks of a game's own solver: files of positions with their scores, solved and checked.
#[derive(Debug)]
pub struct SetRun<'a> {
    /// The files, one position and its score a line.
    pub files: &'a [PathBuf],
    /// Win, draw or loss only (the scores compared by sign).
    pub weak: bool,
    /// The threads to solve each position on.
    pub threads: usize,
    /// The transposition table's size, MiB, if asked for (the solver's default otherwise).
    pub table_mib: Option<usize>,
    /// The first positions of each file only.
    pub limit: Option<usize>,
    /// Where the CSV of every position goes.
    pub out: &'a OutArg,
    /// Where the CSV of one summary a file goes (with its sidecar of machine facts), if anywhere.
    pub summary: Option<&'a Path>,
}
