//! `retro`: retrograde analysis of a game's endgame — Bagh-Chal's sliding phase, every position with all goats
//! placed — solved exactly on every core; the tables written to a directory ([`crate::tables`]) with a
//! summary per goats captured and side to move.

use crate::games::{self, Capability, Entry, GameArgs, Visit};
use crate::machine::{self, Sidecar};
use crate::output::{self, OutputDir};
use crate::tables::{self, Header};
use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::HumanCount;
use khela_exact::retro::{self, Census, Level};
use khela_games::Player;
use serde::Serialize;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Instant;

/// Bytes a number takes while solving (a two-byte outcome and a one-byte count) and, at the end, while the
/// table is handed over (two more).
const BYTES_PER_NUMBER: u64 = 5;

/// Options of `retro`.
#[derive(Debug, Args)]
pub struct RetroArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The goats captured whose positions to solve and summarise: a number or a range, like 3 or 0..4 (the
    /// positions with more captured are solved too, and their tables written: a capture leads there)
    /// [default: 0..4, the whole sliding phase].
    #[arg(long, value_parser = parse_captured, default_value = "0..4")]
    pub captured: RangeInclusive<u8>,
    /// Threads [default: all cores]. The tables are the same for any number.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Option<u64>,
    /// The directory for the tables (one file per number of goats captured) and summary.csv.
    #[arg(long)]
    pub out: PathBuf,
}

/// A row of `summary.csv`: what the table says of the positions with `captured` goats captured and one side to
/// move.
#[derive(Serialize, Clone, Debug, PartialEq)]
struct Row {
    captured: u8,
    to_move: &'static str,
    positions: u64,
    tiger_wins: u64,
    goat_wins: u64,
    draws: u64,
    canonical_positions: u64,
    canonical_tiger_wins: u64,
    canonical_goat_wins: u64,
    canonical_draws: u64,
    longest_win: u32,
}

/// The figures of the sidecar.
#[derive(Serialize)]
struct Figures {
    threads: usize,
    seconds: f64,
    peak_memory_bytes: Option<u64>,
    numbers: u64,
    levels: Vec<(u32, u64, u64)>,
    longest_wins: Vec<String>,
}

/// Runs `retro`.
pub fn run(args: &RetroArgs) -> Result<()> {
    games::visit(&args.game, Retro(args))?
}

struct Retro<'a>(&'a RetroArgs);

impl Visit for Retro<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        if args.game.position.is_some() {
            bail!("retro solves every position of the endgame; it takes no --position");
        }
        let Some(endgame) = entry.endgame(*args.captured.start()) else {
            return Err(games::refuse("retro", args.game.game, Capability::Retro));
        };
        let endgame = endgame?;
        let space = &*endgame.space;
        let out = OutputDir::check(&args.out, "retro")?;
        let bytes = space.len() * BYTES_PER_NUMBER;
        if let Some(memory) = machine::memory_bytes().filter(|&memory| bytes > memory / 10 * 8) {
            bail!(
                "retro: {} numbers take about {:.1} GiB while solving, more than 80 % of this machine's {:.1} GiB",
                HumanCount(space.len()),
                bytes as f64 / (1u64 << 30) as f64,
                memory as f64 / (1u64 << 30) as f64
            );
        }
        let threads = args.threads.map_or_else(machine::cores, |t| t as usize);
        let pool =
            rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the thread pool")?;
        let started = Instant::now();
        let mut levels = Vec::new();
        eprintln!(
            "retro: {} numbers ({:.2} GiB while solving), {threads} thread(s)",
            HumanCount(space.len()),
            bytes as f64 / (1u64 << 30) as f64
        );
        let table = pool.install(|| {
            retro::solve(space, |level: &Level| {
                levels.push((level.plies, level.wins, level.losses));
                eprintln!(
                    "  {:>3} plies: {:>11} won, {:>11} lost  ({:.1} s)",
                    level.plies,
                    HumanCount(level.wins).to_string(),
                    HumanCount(level.losses).to_string(),
                    started.elapsed().as_secs_f64()
                );
            })
        })?;
        let seconds = started.elapsed().as_secs_f64();
        let mut rows = Vec::new();
        let mut longest_wins = Vec::new();
        out.create()?;
        for (captured, numbers) in endgame.parts.iter().cloned() {
            let by_side = |s: &_| usize::from(space.to_move(s) == Player::Max);
            let census = pool.install(|| retro::census(space, &table, numbers.clone(), 2, by_side));
            for (side, census) in census.iter().enumerate().filter(|_| args.captured.contains(&captured)) {
                rows.push(row(captured, side == 1, census));
                if let Some((plies, i)) = census.longest_win {
                    let position = space.position(i).expect("a number with an outcome");
                    longest_wins.push(format!("captured {captured}: {plies} plies, {}", (endgame.write)(&position)));
                }
            }
            let header =
                Header { game: args.game.game.to_string(), rules: endgame.rules.clone(), part: tables::part(captured) };
            let codes = &table.codes()[numbers.start as usize..numbers.end as usize];
            tables::write(&tables::path(&args.out, captured), &header, codes)?;
        }
        let summary = args.out.join("summary.csv");
        output::write_csv_atomically(&summary, &rows)?;
        let figures = Figures {
            threads,
            seconds,
            peak_memory_bytes: machine::peak_memory_bytes(),
            numbers: space.len(),
            levels,
            longest_wins: longest_wins.clone(),
        };
        Sidecar::now().write(&summary, &figures)?;
        output::say(summary_table(&entry.title(), &rows, seconds, threads))?;
        for line in longest_wins {
            output::say(format!("longest win, {line}"))?;
        }
        output::say(format!("wrote {} and the tables beside it", summary.display()))
    }
}

/// `--captured`: `C` or `A..B` (inclusive).
fn parse_captured(text: &str) -> Result<RangeInclusive<u8>, String> {
    let number =
        |t: &str| t.trim().parse::<u8>().map_err(|_| format!("{text:?}: a number of goats, or a range like 0..4"));
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
        None => (number(text)?, number(text)?),
    };
    if a > b {
        return Err(format!("{text:?}: the range runs from the smaller number to the larger"));
    }
    Ok(a..=b)
}

/// The summary row of one side to move.
fn row(captured: u8, goats_to_move: bool, census: &Census) -> Row {
    let [won, lost, drawn] = census.positions;
    let [c_won, c_lost, c_drawn] = census.classes;
    let (tiger_wins, goat_wins, c_tiger, c_goat) =
        if goats_to_move { (lost, won, c_lost, c_won) } else { (won, lost, c_won, c_lost) };
    Row {
        captured,
        to_move: if goats_to_move { "goats" } else { "tigers" },
        positions: won + lost + drawn,
        tiger_wins,
        goat_wins,
        draws: drawn,
        canonical_positions: c_won + c_lost + c_drawn,
        canonical_tiger_wins: c_tiger,
        canonical_goat_wins: c_goat,
        canonical_draws: c_drawn,
        longest_win: census.longest_win.map_or(0, |(plies, _)| plies),
    }
}

/// The summary for people: the rows, then the totals.
fn summary_table(title: &str, rows: &[Row], seconds: f64, threads: usize) -> String {
    let mut table = output::table(&[
        "captured",
        "to move",
        "positions",
        "tiger wins",
        "goat wins",
        "draws",
        "classes",
        "longest win",
    ]);
    for r in rows {
        table.add_row(vec![
            r.captured.to_string(),
            r.to_move.to_string(),
            HumanCount(r.positions).to_string(),
            HumanCount(r.tiger_wins).to_string(),
            HumanCount(r.goat_wins).to_string(),
            HumanCount(r.draws).to_string(),
            HumanCount(r.canonical_positions).to_string(),
            r.longest_win.to_string(),
        ]);
    }
    let total = |f: fn(&Row) -> u64| HumanCount(rows.iter().map(f).sum::<u64>()).to_string();
    format!(
        "{title}, the sliding phase solved in {seconds:.1} s on {threads} thread(s): {} positions, {} up to symmetry\n{table}",
        total(|r| r.positions),
        total(|r| r.canonical_positions)
    )
}
