//! Connect-4 solved exactly on the command line, by the solver of `khela-exact`: a position's every move (`solve --position`), and Pons'
//! benchmark files (`solve --set`), each score checked, with the table of mean times his blog prints; and a
//! file's positions labelled by the solver, for judging a network on them (`zero eval --set`).

use super::runs::{OwnSolve, SetRun};
use crate::args;
use crate::checkpoint::{Checkpoint, Row};
use crate::machine::Sidecar;
use crate::output::{self, Disagreed, Sink};
use crate::progress::Progress;
use anyhow::{Context, Result, anyhow, bail};
use indicatif::HumanCount;
use khela_exact::connect4::Solver;
use khela_games::Actions;
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Node, Notation};
use khela_tt::TableStats;
use khela_zero::eval::Truth;
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The transposition table's size by default, MiB a thread (threads share one table of this times their
/// number): 4M entries of 8 bytes. A smaller table searches more nodes on the hardest positions; a larger one
/// misses the processor's cache more often, which slows the easier positions down; two threads fill a table
/// faster, hence the size a thread. (Measured: see docs/src/measured-choices.md, 'The harness'.)
const TABLE_MIB: usize = 32;

/// The table of the solver that labels a benchmark file's positions for `zero eval --set`, MiB.
const LABEL_MIB: usize = 64;

/// The table's size for `threads` threads on `game`, MiB: `asked` (`--table-mib`), or by default [`TABLE_MIB`] a
/// thread up to 1 GiB, and never less than the board's keys need (an 8 × 6 board's 129 MiB).
fn table_mib(game: &Connect4, asked: Option<usize>, threads: usize) -> usize {
    asked.unwrap_or_else(|| (TABLE_MIB * threads.max(1)).min(1024).max(Solver::min_table_mib(game)))
}

/// The solver of `game` with the table [`table_mib`] gives.
fn solver(game: &Connect4, asked: Option<usize>, threads: usize) -> Result<Solver<'_>> {
    let mib = table_mib(game, asked, threads);
    Solver::new(game, mib).map_err(|e| anyhow!("--table-mib {mib}: {e}"))
}

/// One move's exact score.
#[derive(Serialize)]
struct MoveRow {
    #[serde(rename = "move")]
    mv: String,
    value: i32,
    best: bool,
}

/// The counters of a search, for people: nodes, time, nodes per second, the table's hit rate.
fn counters(nodes: u64, elapsed: Duration, table: TableStats) -> String {
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let hit_rate = table.hits as f64 / table.probes.max(1) as f64;
    format!(
        "{} nodes in {:.3} s, {:.2e} nodes/s; table hit rate {:.1}% of {} probes",
        HumanCount(nodes),
        seconds,
        nodes as f64 / seconds,
        100.0 * hit_rate,
        HumanCount(table.probes)
    )
}

/// `solve --game connect4 --position P`: every legal move's exact score for the side to move (the benchmark's
/// convention), or with `weak` its sign, the best ones marked.
pub fn position(game: &Connect4, text: &str, p: &Position, own: &OwnSolve) -> Result<()> {
    let (weak, out) = (own.weak, own.out);
    if !matches!(game.node(p), Node::Decision(_)) {
        bail!("Connect-4 position {text:?} is over: there is no move to solve");
    }
    let sink = Sink::new(out, None)?;
    let mut solver = solver(game, own.table_mib, own.threads)?.on(Arc::new(args::pool(own.threads)?));
    let started = Instant::now();
    let moves = solver.in_pool(|solver| solver.analyse(p, weak)).expect("the game goes on");
    let elapsed = started.elapsed();
    let best = moves.iter().map(|(_, s)| s.score).max().expect("a position that goes on has moves");
    let rows: Vec<MoveRow> = moves
        .iter()
        .map(|&(col, s)| MoveRow { mv: game.write_move(col), value: s.score, best: s.score == best })
        .collect();
    let nodes = moves.iter().map(|(_, s)| s.nodes).sum();
    sink.emit(&rows, || {
        let mut table = output::table(&["move", "score", "best"]);
        for row in &rows {
            table.add_row(vec![row.mv.clone(), row.value.to_string(), if row.best { "best" } else { "" }.into()]);
        }
        let kind = if weak { "weak: 1 a win, 0 a draw, -1 a loss" } else { "exact scores" };
        format!(
            "{}\n{kind}, for the side to move ({}); best: {}\n{table}\n{}",
            game.picture(p),
            game.player_name(p.to_move()),
            rows.iter().filter(|r| r.best).map(|r| r.mv.as_str()).collect::<Vec<_>>().join(", "),
            counters(nodes, elapsed, solver.table_stats())
        )
    })
}

/// One position of a set, solved.
#[derive(Serialize)]
struct PositionRow {
    position: String,
    expected: i32,
    score: i32,
    nodes: u64,
    micros: f64,
}

/// One set's summary: the table of Pons' blog, and the mismatches.
#[derive(Serialize)]
struct SummaryRow {
    set: String,
    solver: &'static str,
    positions: usize,
    mismatches: usize,
    mean_micros: f64,
    mean_nodes: f64,
    positions_per_second: f64,
    nodes_per_second: f64,
    threads: usize,
}

/// A position of a set solved, as the checkpoint keeps it: `set,line,score,nodes,micros` (the set by its place
/// among the files, the line by its number in the file).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Solved {
    set: usize,
    line: usize,
    score: i32,
    nodes: u64,
    micros: f64,
}

impl Row for Solved {
    type Key = (usize, usize);

    fn key(&self) -> (usize, usize) {
        (self.set, self.line)
    }

    fn line(&self) -> String {
        format!("{},{},{},{},{}", self.set, self.line, self.score, self.nodes, self.micros)
    }

    fn parse(line: &str) -> Option<Solved> {
        let fields: Vec<&str> = line.split(',').collect();
        let [set, line, score, nodes, micros] = fields[..] else { return None };
        let (set, line, score, nodes) =
            (set.parse().ok()?, line.parse().ok()?, score.parse().ok()?, nodes.parse().ok()?);
        Some(Solved { set, line, score, nodes, micros: micros.parse().ok()? })
    }
}

/// Everything a run's rows depend on, in one line: what its checkpoint must agree with to be resumed.
fn describe(game: &Connect4, run: &SetRun) -> String {
    let files: Vec<String> = run.files.iter().map(|f| f.display().to_string()).collect();
    let limit = run.limit.map_or("-".to_string(), |n| n.to_string());
    format!(
        "game=connect4 board={game} weak={} limit={limit} sets={} table={} threads={}",
        run.weak,
        files.join("+"),
        table_mib(game, run.table_mib, run.threads),
        run.threads
    )
}

/// A line of a set: the moves, the score and the line's number.
struct Line {
    number: usize,
    moves: String,
    position: Position,
    score: i32,
}

/// Reads a set's file, refusing (before any work) a line that is not `moves score` (` score` for the empty
/// board) of a position that goes on.
fn read(game: &Connect4, path: &Path, limit: Option<usize>) -> Result<Vec<Line>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("--set {}: cannot read it", path.display()))?;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let bad = |why: String| anyhow::anyhow!("--set {} line {}: {why}", path.display(), i + 1);
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (moves, score) = match fields[..] {
            [moves, score] => (moves, score),
            // The empty board's line: no moves before the space.
            [score] if line.starts_with(' ') => ("", score),
            _ => return Err(bad(format!("{} is not `moves score`", output::quoted(line)))),
        };
        let score = score.parse().map_err(|_| bad(format!("score {} is not a whole number", output::quoted(score))))?;
        if moves.len() > game.cells() as usize {
            let (moves, cells) = (output::quoted(moves), game.cells());
            return Err(bad(format!("moves {moves}: more than the board's {cells} cells take")));
        }
        let position = game.parse(moves).map_err(|e| bad(e.to_string()))?;
        if !matches!(game.node(&position), Node::Decision(_)) {
            return Err(bad(format!("{moves} is over: there is nothing to solve")));
        }
        lines.push(Line { number: i + 1, moves: moves.to_string(), position, score });
        if limit.is_some_and(|n| lines.len() >= n) {
            break;
        }
    }
    if lines.is_empty() {
        bail!("--set {}: no position in it", path.display());
    }
    Ok(lines)
}

/// `solve --game connect4 --set FILE…`: every position solved (its table emptied first, its time measured
/// without that) and checked against its score.
pub fn sets(game: &Connect4, run: &SetRun) -> Result<()> {
    let sets: Vec<(String, Vec<Line>)> = run
        .files
        .iter()
        .map(|path| {
            Ok((
                path.file_name().map_or(path.display().to_string(), |n| n.to_string_lossy().into()),
                read(game, path, run.limit)?,
            ))
        })
        .collect::<Result<_>>()?;
    let sink = Sink::new(run.out, None)?;
    if let Some(summary) = run.summary {
        output::writable(summary)?;
    }
    // With a CSV file, each position solved is kept as it is, and the same command run again resumes.
    let checkpoint = match sink.kept_beside() {
        Some(path) => Some(Checkpoint::<Solved>::open(path, "solved", "solve --set", &describe(game, run))?),
        None => None,
    };
    let mut solver = solver(game, run.table_mib, run.threads)?.on(Arc::new(args::pool(run.threads)?));
    let total: usize = sets.iter().map(|(_, lines)| lines.len()).sum();
    let before = checkpoint.as_ref().map_or(0, |c| c.done.len());
    if let Some(checkpoint) = checkpoint.as_ref().filter(|_| before > 0) {
        eprintln!("resuming: {before} of {total} positions from {}", checkpoint.path().display());
    }
    let bar = Progress::new("positions", total as u64, before as u64);
    // On the solver's own threads, so that no solve waits for one of them to wake (see `Solver::in_pool`).
    let (rows, summaries, mismatches) =
        solver.in_pool(|solver| solve_sets(solver, &sets, run, checkpoint.as_ref(), &bar, total))?;
    bar.finish();
    if let Some(path) = run.summary {
        output::write_csv_atomically(path, &summaries)?;
        Sidecar::now().write(
            path,
            &serde_json::json!({ "table_mib": table_mib(game, run.table_mib, run.threads), "threads": run.threads }),
        )?;
    }
    sink.emit(&rows, || {
        let mut table = output::table(&[
            "set",
            "solver",
            "positions",
            "mismatches",
            "mean time",
            "mean nodes",
            "positions/s",
            "nodes/s",
        ]);
        for s in &summaries {
            table.add_row(vec![
                s.set.clone(),
                s.solver.to_string(),
                s.positions.to_string(),
                s.mismatches.to_string(),
                format!("{} µs", s.mean_micros),
                s.mean_nodes.to_string(),
                s.positions_per_second.to_string(),
                format!("{:.3e}", s.nodes_per_second),
            ]);
        }
        table.to_string()
    })?;
    // The CSV is whole: the checkpoint has served.
    checkpoint.map_or(Ok(()), Checkpoint::remove)?;
    if !mismatches.is_empty() {
        return Err(Disagreed(format!(
            "{} of {} positions disagree with their files' scores; the first: {}",
            mismatches.len(),
            rows.len(),
            mismatches[0]
        ))
        .into());
    }
    Ok(())
}

/// Solves every position of `sets` (or takes it from `checkpoint`), checking each score: the rows of the positions,
/// of the sets and of the mismatches.
fn solve_sets(
    solver: &mut Solver,
    sets: &[(String, Vec<Line>)],
    run: &SetRun,
    checkpoint: Option<&Checkpoint<Solved>>,
    bar: &Progress,
    total: usize,
) -> Result<(Vec<PositionRow>, Vec<SummaryRow>, Vec<String>)> {
    let (mut rows, mut summaries, mut mismatches) = (Vec::new(), Vec::new(), Vec::new());
    for (set, (name, lines)) in sets.iter().enumerate() {
        let (mut seconds, mut nodes, mut wrong) = (0.0, 0, 0);
        for line in lines {
            let solved = match checkpoint.and_then(|c| c.done.get(&(set, line.number))) {
                Some(&kept) => kept,
                None => {
                    solver.reset();
                    let started = Instant::now();
                    let solution = solver.solve(&line.position, run.weak).expect("positions that go on, as read");
                    let micros = started.elapsed().as_secs_f64() * 1e6;
                    let solved =
                        Solved { set, line: line.number, score: solution.score, nodes: solution.nodes, micros };
                    if let Some(checkpoint) = checkpoint {
                        checkpoint.keep(&solved)?;
                    }
                    solved
                }
            };
            let (solution, elapsed) = (solved, solved.micros / 1e6);
            let expected = if run.weak { line.score.signum() } else { line.score };
            if solution.score != expected {
                wrong += 1;
                mismatches.push(format!(
                    "{name} line {} ({}): expected {expected}, solved {}",
                    line.number, line.moves, solution.score
                ));
                eprintln!("mismatch: {}", mismatches.last().expect("just pushed"));
            }
            seconds += elapsed;
            nodes += solution.nodes;
            rows.push(PositionRow {
                position: line.moves.clone(),
                expected,
                score: solution.score,
                nodes: solution.nodes,
                micros: (elapsed * 1e7).round() / 10.0,
            });
            bar.update(rows.len() as u64, total as u64, || format!("{name}: {} positions solved", rows.len()));
            crate::interrupt::check()?;
        }
        let n = lines.len() as f64;
        summaries.push(SummaryRow {
            set: name.clone(),
            solver: if run.weak { "weak" } else { "strong" },
            positions: lines.len(),
            mismatches: wrong,
            mean_micros: (seconds / n * 1e7).round() / 10.0,
            mean_nodes: (nodes as f64 / n * 10.0).round() / 10.0,
            positions_per_second: (n / seconds.max(1e-9)).round(),
            nodes_per_second: (nodes as f64 / seconds.max(1e-9)).round(),
            threads: run.threads,
        });
    }
    Ok((rows, summaries, mismatches))
}

/// The positions of the benchmark file at `path` (the first `limit`), each with its exact truth from the solver
/// (its value's sign for the side to move, the actions of the moves that keep it), checked against the file's
/// score: what `zero eval --set` judges a network on.
pub fn truths(game: &Connect4, path: &Path, limit: Option<usize>) -> Result<Vec<(Position, Truth)>> {
    let lines = read(game, path, limit)?;
    let mut solver = Solver::new(game, LABEL_MIB.max(Solver::min_table_mib(game)))?;
    let total = lines.len() as u64;
    let bar = Progress::new("zero eval", total, 0);
    let mut positions = Vec::with_capacity(lines.len());
    for (i, line) in lines.into_iter().enumerate() {
        let Some(moves) = solver.analyse(&line.position, true) else { unreachable!("read keeps positions in play") };
        let sign = moves.iter().map(|(_, s)| s.score.signum()).max().expect("a position in play has moves");
        if sign != line.score.signum() {
            bail!(
                "--set {} line {}: the solver's value has sign {sign}, the file's score is {}",
                path.display(),
                line.number,
                line.score
            );
        }
        let optimal =
            moves.iter().filter(|(_, s)| s.score.signum() == sign).map(|&(col, _)| game.action(col)).collect();
        positions.push((line.position, Truth { sign: sign as i8, optimal }));
        bar.update(i as u64 + 1, total, || format!("{}/{total} positions solved", i + 1));
    }
    bar.finish();
    Ok(positions)
}
