//! `retro`: retrograde analysis of a game's endgame — Bagh-Chal's sliding phase, every position with all goats
//! placed; Sixteen Soldiers' positions with few pieces — solved exactly on every core; the tables written to a
//! directory ([`khela::tables`]) with a summary per part (goats captured and side to move; pieces of each side).
//! With `--phase placement`, Bagh-Chal's placement phase after it, layer by layer ([`placement`]); with `--check N`
//! as well, its tables checked by the proof search ([`check`]).

mod check;
mod placement;

use crate::args::{self, Threads};
use crate::games::{self, Capability, Entry, GameArgs, Scope, Visit};
use crate::machine::{self, Sidecar};
use crate::output::{self, OutputDir};
use anyhow::{Result, bail};
use clap::Args;
use indicatif::HumanCount;
use khela::tables::{self, Header};
use khela_exact::retro::{self, Census, Level};
use khela_games::notation::plies as in_words;
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
    /// Bagh-Chal: the goats captured whose positions to solve and summarise, a number or a range, like 3 or
    /// 0..4 (the positions with more captured are solved too, and their tables written: a capture leads there)
    /// [default: 0..4, the whole sliding phase].
    #[arg(long, value_parser = parse_captured)]
    pub captured: Option<RangeInclusive<u8>>,
    /// Sixteen Soldiers: the most pieces on the board, both sides together [default: 6]. Each count of pieces
    /// has its table file.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=8))]
    pub pieces: Option<u8>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: Threads,
    /// The directory for the tables (one file per number of goats captured) and summary.csv.
    #[arg(long)]
    pub out: PathBuf,
    /// Which phase to solve: the endgame (Bagh-Chal: the sliding phase, every goat placed) or, for Bagh-Chal,
    /// the placement phase before it, by layered backward induction from the sliding phase's tables in --out
    /// (solved first where absent): a table file per layer, placement-summary.csv, the start's value. A run
    /// stopped is resumed by the same command, from the first layer not written.
    #[arg(long, value_enum, default_value_t = Phase::Sliding)]
    pub phase: Phase,
    /// With --phase placement: check the placement tables in --out instead of making them — N positions drawn
    /// from the layers, each valued again by the proof search to the sliding phase's tables (as `prove` does)
    /// where it decides within its budget of nodes — into placement-check.csv; exit status 1 where they
    /// disagree.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub check: Option<u64>,
    /// The seed of --check's draw.
    #[arg(long, default_value_t = 0, requires = "check")]
    pub seed: u64,
}

/// The phases `retro` solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Phase {
    /// The endgame, by retrograde analysis.
    Sliding,
    /// Bagh-Chal's placement phase, by layered backward induction.
    Placement,
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
        if args.check.is_some() && args.phase != Phase::Placement {
            bail!("--check checks the placement phase's tables: retro --phase placement --check N");
        }
        match args.phase {
            Phase::Sliding => endgame(&entry, args, args.captured.clone()),
            Phase::Placement => {
                if args.captured.is_some() || args.pieces.is_some() {
                    bail!(
                        "retro --phase placement values every layer of the placement phase; it takes no --captured \
                         or --pieces"
                    );
                }
                if let Some(positions) = args.check {
                    let Some(placement) = entry.placement() else {
                        return Err(games::refuse("retro --check", &args.game.game, Capability::Placement));
                    };
                    let placement = placement?;
                    let (name, rules) = (args.game.game.name.to_string(), placement.rules.clone());
                    let (dir, seed, threads) = (args.out.as_path(), args.seed, args.threads.count());
                    let check = check::Check { name: &name, rules: &rules, dir, positions, seed, threads };
                    return check::run(&entry, &placement, &check);
                }
                let request =
                    placement::Request { game: &args.game.game, threads: args.threads.count(), out: &args.out };
                placement::run(&entry, &request, || endgame(&entry, args, None))
            }
        }
    }
}

/// Solves the entry's endgame (Bagh-Chal: the sliding phase from the fewest of `captured`) into `--out`.
fn endgame<E: Entry>(entry: &E, args: &RetroArgs, captured: Option<RangeInclusive<u8>>) -> Result<()> {
    let scope = Scope { captured, pieces: args.pieces, within: None };
    let Some(endgame) = entry.endgame(&scope) else {
        return Err(games::refuse("retro", &args.game.game, Capability::Retro));
    };
    let endgame = endgame?;
    let space = &*endgame.space;
    let out = OutputDir::check(&args.out, "retro")?;
    // Another game's or variant's tables in the directory are not replaced without a word.
    let game = args.game.game.name.to_string();
    for part in &endgame.parts {
        let path = tables::path(&args.out, &part.file);
        if let Some((held_game, held_rules)) =
            tables::held_by(&path).filter(|held| *held != (game.clone(), endgame.rules.clone()))
        {
            bail!(
                "retro: {} holds the tables of {held_game} with rules {held_rules:?}, not {:?}: give another --out, or \
                 remove them",
                args.out.display(),
                endgame.rules
            );
        }
    }
    let bytes = space.len() * BYTES_PER_NUMBER;
    if let Some(memory) = machine::memory_bytes().filter(|&memory| bytes > memory / 10 * 8) {
        bail!(
            "retro: {} numbers take about {:.1} GiB while solving, more than 80 % of this machine's {:.1} GiB",
            HumanCount(space.len()),
            bytes as f64 / (1u64 << 30) as f64,
            memory as f64 / (1u64 << 30) as f64
        );
    }
    let threads = args.threads.count();
    let pool = args::pool(threads)?;
    let started = Instant::now();
    let mut levels = Vec::new();
    eprintln!(
        "retro: {}, {} numbers ({:.2} GiB while solving), {threads} thread(s)",
        endgame.about,
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
    let summary = &endgame.summary;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let (mut totals, mut longest_wins) = (Census::default(), Vec::new());
    out.create()?;
    for part in &endgame.parts {
        let census = pool.install(|| retro::census(space, &table, part.numbers.clone(), summary.groups, summary.group));
        for (group, census) in census.iter().enumerate().filter(|_| part.summarised) {
            rows.push(part.labels.iter().cloned().chain((summary.row)(group, census)).collect());
            totals = totals + *census;
            if let Some((plies, i)) = census.longest_win {
                let position = space.position(i).expect("a number with an outcome");
                longest_wins.push(format!(
                    "{}: {}, {}",
                    part.name,
                    in_words(u64::from(plies)),
                    (endgame.write)(&position)
                ));
            }
        }
        let header =
            Header { game: args.game.game.name.to_string(), rules: endgame.rules.clone(), part: part.name.clone() };
        let codes = &table.codes()[part.numbers.start as usize..part.numbers.end as usize];
        tables::write(&tables::path(&args.out, &part.file), &header, codes)?;
    }
    let summary_csv = args.out.join("summary.csv");
    let header: Vec<String> = summary.columns.iter().map(|c| c.to_string()).collect();
    output::write_csv_atomically(&summary_csv, &[vec![header], rows.clone()].concat())?;
    let figures = Figures {
        threads,
        seconds,
        peak_memory_bytes: machine::peak_memory_bytes(),
        numbers: space.len(),
        levels,
        longest_wins: longest_wins.clone(),
    };
    Sidecar::now().write(&summary_csv, &figures)?;
    let [positions, classes] = [totals.positions, totals.classes].map(|n| HumanCount(n.iter().sum()));
    output::say(format!(
        "{}, {} solved in {seconds:.1} s on {threads} thread(s): {positions} positions, {classes} up to symmetry",
        entry.title(),
        endgame.about
    ))?;
    output::say(summary_table(summary.columns, &rows))?;
    for line in longest_wins {
        output::say(format!("longest win, {line}"))?;
    }
    output::say(format!("wrote {} and the tables beside it", summary_csv.display()))
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

/// The summary for people: the CSV's columns, counts grouped in thousands.
fn summary_table(columns: &[&str], rows: &[Vec<String>]) -> String {
    let header: Vec<String> = columns.iter().map(|c| c.replace('_', " ")).collect();
    let mut table = output::table(&header.iter().map(String::as_str).collect::<Vec<_>>());
    for row in rows {
        table.add_row(row.iter().map(|cell| cell.parse::<u64>().map_or(cell.clone(), |n| HumanCount(n).to_string())));
    }
    table.to_string()
}
