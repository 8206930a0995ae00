//! `count`: game trees counted on every core — the full tic-tac-toe tree, and Connect-4's move sequences
//! ("perft") and distinct positions per ply.

use crate::cli::{CountArgs, CountGame, Measure};
use crate::machine::{self, Sidecar};
use crate::output::{self, Sink};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use khela_exact::count::{SHARD_ENTRIES, distinct_positions, perft};
use khela_exact::{tally, tally_by};
use khela_games::connect4::{Connect4, Position};
use khela_games::tictactoe::TicTacToe;
use serde::Serialize;
use std::time::Instant;

/// Counts that are refused unless `--force`: those estimated to take longer than this.
const MAX_SECONDS: f64 = 15.0 * 60.0;

/// A conservative rate for the estimate: sequences counted per second per thread (measured: above 1e9).
const SEQUENCES_PER_SECOND_PER_THREAD: f64 = 5e8;

/// Connect-4 move sequences from the empty 7×6 board, plies 0..=11 (perft; the published figures).
const C4_SEQUENCES: [u64; 12] = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572, 268031646, 1844590828];

/// Growth of the sequence count per ply beyond the table (the last ratio is 6.88 and falling).
const C4_SEQUENCE_GROWTH: f64 = 6.9;

/// Distinct 7×6 Connect-4 positions after n plies, n = 0..=26 (OEIS A212693).
const C4_POSITIONS: [u64; 27] = [
    1,
    7,
    49,
    238,
    1120,
    4263,
    16422,
    54859,
    184275,
    558186,
    1662623,
    4568683,
    12236101,
    30929111,
    75437595,
    176541259,
    394591391,
    858218743,
    1763883894,
    3568259802,
    6746155945,
    12673345045,
    22010823988,
    38263228189,
    60830813459,
    97266114959,
    140728569039,
];

#[derive(Serialize)]
struct TallyRow {
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    nodes: u64,
    states: u64,
}

#[derive(Serialize, Clone, PartialEq)]
struct PlyRow {
    ply: u32,
    sequences: Option<u64>,
    positions: Option<u64>,
}

/// One timed run, for the table and the sidecar.
#[derive(Serialize)]
struct Timing {
    threads: u64,
    measure: &'static str,
    count: u64,
    seconds: f64,
    per_second: f64,
}

pub fn run(args: &CountArgs) -> Result<()> {
    let threads: Vec<u64> = if args.threads.is_empty() { vec![machine::cores() as u64] } else { args.threads.clone() };
    match args.game {
        CountGame::Tictactoe => {
            if args.depth.is_some() || args.only.is_some() {
                bail!("--depth and --only are for --game connect4; tic-tac-toe counts the whole tree");
            }
            tictactoe(args, &threads)
        }
        CountGame::Connect4 => connect4(args, &threads),
    }
}

fn pool(threads: u64) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new().num_threads(threads as usize).build().context("cannot start the thread pool")
}

fn tictactoe(args: &CountArgs, threads: &[u64]) -> Result<()> {
    let text = args.position.as_deref().unwrap_or(".........");
    let board = TicTacToe::parse(text)?;
    let mut timings = Vec::new();
    let mut result = None;
    for &t in threads {
        let started = Instant::now();
        let tally = pool(t)?.install(|| tally(&TicTacToe, &board));
        let seconds = started.elapsed().as_secs_f64();
        timings.push(Timing {
            threads: t,
            measure: "nodes",
            count: tally.nodes,
            seconds,
            per_second: tally.nodes as f64 / seconds,
        });
        if result.is_some_and(|r| r != tally) {
            bail!("tic-tac-toe counts differ between thread counts: {result:?} and {tally:?}");
        }
        result = Some(tally);
    }
    let t = result.expect("at least one thread count");
    let symmetric = tally_by(&TicTacToe, &board, |_, b| TicTacToe::symmetric_key(b));
    let row = TallyRow {
        games: t.games,
        x_wins: t.max_wins,
        o_wins: t.min_wins,
        draws: t.draws,
        nodes: t.nodes,
        states: t.states,
    };
    emit(args, &[row], &timings, |rows| {
        let row = &rows[0];
        let mut table = output::table(&["games", "X wins", "O wins", "draws", "nodes", "distinct states"]);
        table.add_row([row.games, row.x_wins, row.o_wins, row.draws, row.nodes, row.states].map(output::thousands));
        format!(
            "Tic-tac-toe game tree from {text}\n{table}\nUp to the board's 8 symmetries: {} positions, {} of them terminal",
            symmetric.states, symmetric.terminal_states
        )
    })
}

fn connect4(args: &CountArgs, threads: &[u64]) -> Result<()> {
    let game = Connect4::new(args.width, args.height)?;
    let root = game.parse(args.position.as_deref().unwrap_or(""))?;
    let Some(depth) = args.depth else {
        bail!("--game connect4 needs --depth N (count plies 0..=N; 11 takes about a second)");
    };
    let standard_start = game == Connect4::standard() && root == Position::EMPTY;
    let left = game.cells() - root.moves_played();
    if depth > left {
        bail!("--depth {depth} is more plies than the {left} empty cells of the board");
    }
    let want_sequences = args.only != Some(Measure::Positions);
    let want_positions = args.only != Some(Measure::Sequences);
    if !args.force {
        let max_threads = *threads.iter().max().unwrap_or(&1) as f64;
        if want_sequences {
            let estimate = estimate_sequences(&game, standard_start, depth);
            let seconds = estimate / (SEQUENCES_PER_SECOND_PER_THREAD * max_threads);
            if seconds > MAX_SECONDS {
                bail!(
                    "counting Connect-4 sequences to ply {depth} means about {estimate:.2e} sequences, about {:.0} \
                     minutes at {SEQUENCES_PER_SECOND_PER_THREAD:.0e} per second per thread; use a smaller --depth, \
                     --only positions, or --force",
                    seconds / 60.0
                );
            }
        }
        if want_positions {
            let bytes = estimate_position_bytes(&game, standard_start, depth);
            let budget = machine::memory_bytes().map_or(16u64 << 30, |m| m / 4 * 3) as f64;
            if bytes > budget {
                bail!(
                    "counting distinct Connect-4 positions to ply {depth} needs about {:.1} GiB for two plies of \
                     positions, over the {:.1} GiB budget (3/4 of this machine's memory); use a smaller --depth, \
                     --only sequences, or --force",
                    bytes / (1u64 << 30) as f64,
                    budget / (1u64 << 30) as f64
                );
            }
        }
    }
    let mut timings = Vec::new();
    let mut result: Option<Vec<PlyRow>> = None;
    for &t in threads {
        let pool = pool(t)?;
        let mut rows: Vec<PlyRow> = (0..=depth).map(|ply| PlyRow { ply, sequences: None, positions: None }).collect();
        if want_sequences {
            let counts = timed(&pool, t, "sequences", &mut timings, |progress| perft(&game, &root, depth, progress));
            for (row, count) in rows.iter_mut().zip(counts) {
                row.sequences = Some(count);
            }
        }
        if want_positions {
            let counts = timed(&pool, t, "positions", &mut timings, |progress| {
                distinct_positions(&game, &root, depth, progress)
            });
            for (row, count) in rows.iter_mut().zip(counts) {
                row.positions = Some(count);
            }
        }
        if let Some(previous) = &result
            && *previous != rows
        {
            bail!("Connect-4 counts differ between thread counts {threads:?}: a bug, please report it");
        }
        result = Some(rows);
    }
    let rows = result.expect("at least one thread count");
    let position = args.position.as_deref().filter(|p| !p.is_empty()).unwrap_or("the empty board");
    emit(args, &rows, &timings, |rows| {
        let mut table = output::table(&["ply", "sequences", "positions"]);
        for r in rows {
            let cell = |c: Option<u64>| c.map_or(String::new(), output::thousands);
            table.add_row(vec![r.ply.to_string(), cell(r.sequences), cell(r.positions)]);
        }
        format!("Connect-4 {game} from {position}, plies 0..={depth}\n{table}")
    })
}

/// Runs a per-ply count on the pool with a progress bar, and records its timing: for sequences the count of the
/// last ply per second (perft's usual rate), for positions all the positions per second.
fn timed(
    pool: &rayon::ThreadPool,
    threads: u64,
    measure: &'static str,
    timings: &mut Vec<Timing>,
    count: impl FnOnce(&(dyn Fn(u64, u64) + Sync)) -> Vec<u64> + Send,
) -> Vec<u64> {
    let bar = Progress::new(1, &format!("{measure}, {threads} thread(s)"));
    let started = Instant::now();
    let counts = pool.install(|| count(&|done, total| bar.set(done, total)));
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    let figure = if measure == "sequences" { counts.last().copied().unwrap_or(0) } else { counts.iter().sum() };
    timings.push(Timing { threads, measure, count: figure, seconds, per_second: figure as f64 / seconds });
    counts
}

/// Prints or writes the rows, then the timings (with the speed-up over the first thread count); with a file,
/// also the sidecar of machine facts and timings.
fn emit<R: Serialize>(
    args: &CountArgs,
    rows: &[R],
    timings: &[Timing],
    table: impl FnOnce(&[R]) -> String,
) -> Result<()> {
    let sink = Sink::new(&args.out, None);
    let facts = Sidecar::now();
    sink.emit(rows, || {
        let mut lines = vec![table(rows)];
        for t in timings {
            let base = timings.iter().find(|b| b.measure == t.measure).map_or(t.seconds, |b| b.seconds);
            lines.push(format!(
                "{:>9}: {} thread(s), {} in {:.3} s, {:.3e} per second (speed-up {:.2}x)",
                t.measure,
                t.threads,
                output::thousands(t.count),
                t.seconds,
                t.per_second,
                base / t.seconds
            ));
        }
        lines.push(format!("machine: {}", facts.summary()));
        lines.join("\n")
    })?;
    // The sidecar follows the CSV it describes, so a failed CSV write leaves neither.
    if let Sink::TableAndFile(path) = &sink {
        facts.write(path, &timings)?;
    }
    Ok(())
}

fn estimate_sequences(game: &Connect4, standard_start: bool, depth: u32) -> f64 {
    if standard_start {
        match C4_SEQUENCES.get(depth as usize) {
            Some(&known) => known as f64,
            None => C4_SEQUENCES[11] as f64 * C4_SEQUENCE_GROWTH.powi(depth as i32 - 11),
        }
    } else {
        // An upper bound: every column open at every ply.
        f64::from(game.width()).powi(depth as i32)
    }
}

/// Peak memory of the position sets: the positions of two plies (16 bytes each) plus one shard of keyed
/// children (24 bytes each).
fn estimate_position_bytes(game: &Connect4, standard_start: bool, depth: u32) -> f64 {
    let positions = |ply: u32| -> f64 {
        if standard_start && (ply as usize) < C4_POSITIONS.len() {
            C4_POSITIONS[ply as usize] as f64
        } else {
            f64::from(game.width()).powi(ply as i32).min(3f64.powi(game.cells() as i32))
        }
    };
    let last = positions(depth);
    let before = if depth == 0 { 0.0 } else { positions(depth - 1) };
    let shard = (before * f64::from(game.width())).min(SHARD_ENTRIES as f64);
    16.0 * (before + last) + 24.0 * shard
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_use_the_published_counts() {
        let game = Connect4::standard();
        assert_eq!(estimate_sequences(&game, true, 11), 1_844_590_828.0);
        assert!(estimate_sequences(&game, true, 15) > 1e12);
        let ply14 = estimate_position_bytes(&game, true, 14);
        assert!(ply14 > 1.5e9 && ply14 < 4e9, "{ply14}");
        assert!(estimate_position_bytes(&game, true, 20) > 24.0 * (1u64 << 30) as f64);
    }
}
