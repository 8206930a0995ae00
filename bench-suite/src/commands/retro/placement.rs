//! `retro --phase placement`: Bagh-Chal's placement phase valued by layered backward induction
//! ([`khela_exact::layered::bagh_chal`]), from the last placements to the start, each layer written to its file
//! ([`khela::layers`]) as soon as it is valued, so that a run stopped resumes at the first layer not written;
//! then `placement-summary.csv` (a row per goats placed, goats captured and side to move), its sidecar, and the
//! start's value.

use crate::args;
use crate::games::{self, Capability, Entry, Scope, Spec};
use crate::interrupt;
use crate::machine::{self, Sidecar};
use crate::output::{self, OutputDir};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use indicatif::HumanCount;
use khela::layers::{self, Header, Placement};
use khela::tables;
use khela_exact::layered::bagh_chal::{Layer, SliceCount, Solver};
use khela_exact::layered::{Packed, Wdl};
use khela_games::Space;
use khela_games::bagh_chal::sliding::SlidingPhase;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The summary's file in `--out`.
pub const SUMMARY: &str = "placement-summary.csv";

/// A row of the summary: one slice of the placement phase, its positions by who wins with best play.
#[derive(Serialize)]
struct Row {
    placed: u8,
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
}

/// The fragile draws' file in `--out`.
pub const FRAGILE: &str = "placement-fragile.csv";

/// A row of the fragile draws: one slice of the placement phase with the goats to move, its draws and those of
/// them with a placement that loses — one goat mistake from a loss.
#[derive(Serialize)]
struct FragileRow {
    placed: u8,
    captured: u8,
    draws: u64,
    fragile_draws: u64,
    /// `fragile_draws / draws`, or 0 where there are no draws.
    fragile_share: f64,
    canonical_draws: u64,
    canonical_fragile_draws: u64,
}

/// One layer as this run valued it, for the sidecar.
#[derive(Serialize)]
struct LayerTime {
    layer: String,
    numbers: u64,
    seconds: f64,
}

/// The figures of the sidecar.
#[derive(Serialize)]
struct Figures {
    /// The start's value, for the goats (who move first).
    start: String,
    threads: usize,
    /// This run's time: the layers it valued (the others were on disk).
    seconds: f64,
    /// The goats placed before the first and before the last placement at which a drawn position has a
    /// placement that loses (the placement made is the next one: 0 is the first goat's).
    fragile_placed: Option<[u8; 2]>,
    peak_memory_bytes: Option<u64>,
    numbers: u64,
    table_bytes: u64,
    layers: Vec<LayerTime>,
}

/// What `retro --phase placement` is asked.
pub(super) struct Request<'a> {
    /// The game.
    pub game: &'a Spec,
    /// The threads.
    pub threads: usize,
    /// The directory of the tables, the sliding phase's and the layers'.
    pub out: &'a Path,
}

/// Runs `retro --phase placement` on the entry's game; `sliding` solves the sliding phase into the directory,
/// where its tables are missing.
pub(super) fn run<E: Entry>(entry: &E, args: &Request, sliding: impl FnOnce() -> Result<()>) -> Result<()> {
    let Some(placement) = entry.placement() else {
        return Err(games::refuse("retro --phase placement", args.game, Capability::Placement));
    };
    let Placement { game, space, rules } = placement?;
    let dir = args.out;
    let out = OutputDir::check(dir, "retro")?;
    let solver = Solver::new(&space);
    let name = args.game.name.to_string();
    let header = |layer: &Layer| Header::of(&name, &rules, layer);
    let numbers = |layer: &Layer| layer.numbers.end - layer.numbers.start;
    let all = solver.layers();
    // Two adjacent layers in memory, and the sliding phase's two bytes a number while the first is valued.
    let phase = SlidingPhase::new(&game, 0).map_err(|e| anyhow::anyhow!("{}: {e}", entry.title()))?;
    let largest = all.windows(2).map(|w| Packed::bytes_for(numbers(&w[0])) + Packed::bytes_for(numbers(&w[1])));
    let memory = largest.max().unwrap_or(0).max(phase.len() * 2 + Packed::bytes_for(numbers(&all[0])));
    let table_bytes: u64 = all.iter().map(|layer| Packed::bytes_for(numbers(layer))).sum();
    if let Some(available) = machine::memory_bytes().filter(|&available| memory > available / 10 * 8) {
        bail!(
            "retro --phase placement: two layers take about {:.1} GiB, more than 80 % of this machine's {:.1} GiB",
            gib(memory),
            gib(available)
        );
    }
    out.create()?;

    // The layers on disk already, in order, up to the first missing: their counts from their headers.
    let mut counts: Vec<Vec<(u8, SliceCount)>> = Vec::new();
    for layer in all {
        let path = layers::path(dir, layer);
        if !path.exists() {
            break;
        }
        counts.push(layers::counts(&path, &header(layer), numbers(layer))?);
    }
    let first = counts.len();
    let threads = args.threads;
    eprintln!(
        "retro: the placement phase of {}, {} layers of {} numbers ({:.1} GiB of tables, {:.1} GiB in memory), \
         {threads} thread(s){}",
        entry.title(),
        all.len(),
        HumanCount(space.len()),
        gib(table_bytes),
        gib(memory),
        if first > 0 { format!("; {first} layers on disk already, resuming at the next") } else { String::new() }
    );
    let mut previous = match first.checked_sub(1) {
        Some(k) => Some(layers::read(&layers::path(dir, &all[k]), &header(&all[k]), numbers(&all[k]))?.0),
        None => None,
    };
    let slid = if first == 0 { Some(sliding_tables(entry, dir, &name, sliding)?) } else { None };
    let outside = |captured: u8, board: u64| -> Option<Wdl> {
        let slid = slid.as_ref()?;
        slid.get(phase.number(captured, board, false)?).map(Wdl::of)
    };

    interrupt::on_ctrl_c(format!(
        "retro: interrupted; the layers written are kept in {}, and the same command resumes at the first missing",
        dir.display()
    ))?;
    let pool = args::pool(threads)?;
    let started = Instant::now();
    let before: u64 = all[..first].iter().map(numbers).sum();
    let progress = Progress::new("retro placement", space.len(), before);
    let done = AtomicU64::new(before);
    let mut times = Vec::new();
    for (k, layer) in all.iter().enumerate().skip(first) {
        interrupt::check()?;
        let began = Instant::now();
        let on_chunk = |n: u64| {
            let now = done.fetch_add(n, Ordering::Relaxed) + n;
            progress.update(now, space.len(), || format!("layer {}/{}, {}", k + 1, all.len(), header(layer).layer));
        };
        let values = pool.install(|| solver.layer(k, previous.as_ref(), &outside, &on_chunk))?;
        layers::write(&layers::path(dir, layer), &header(layer), &values)?;
        let seconds = began.elapsed().as_secs_f64();
        progress.finish();
        eprintln!(
            "  {}: {} numbers in {seconds:.1} s ({} a second)",
            header(layer).layer,
            HumanCount(numbers(layer)),
            HumanCount((numbers(layer) as f64 / seconds.max(1e-3)) as u64)
        );
        times.push(LayerTime { layer: header(layer).layer, numbers: numbers(layer), seconds });
        counts.push(values.slices.iter().map(|(slice, count)| (slice.captured, *count)).collect());
        previous = Some(values.table);
    }
    let seconds = started.elapsed().as_secs_f64();

    drop(previous);
    let start = space.index(&game.start_position()).context("the start is in the placement phase")?;
    let layer = all.iter().find(|layer| layer.numbers.contains(&start)).context("a layer holds the start")?;
    let (table, _) = layers::read(&layers::path(dir, layer), &header(layer), numbers(layer))?;
    let value = table.get(start - layer.numbers.start).context("the start has a value")?;
    let start_value = match value {
        Wdl::Win => "a goat win",
        Wdl::Draw => "a draw",
        Wdl::Loss => "a tiger win",
    };
    let rows = summary(all, &counts);
    let summary_csv = dir.join(SUMMARY);
    output::write_csv_atomically(&summary_csv, &rows)?;
    let fragile = fragile(all, &counts);
    let fragile_csv = dir.join(FRAGILE);
    output::write_csv_atomically(&fragile_csv, &fragile)?;
    let placed: Vec<u8> = fragile.iter().filter(|r| r.fragile_draws > 0).map(|r| r.placed).collect();
    let fragile_placed = placed.iter().min().zip(placed.iter().max()).map(|(&a, &b)| [a, b]);
    Sidecar::now().write(&fragile_csv, &serde_json::json!({ "fragile_placed": fragile_placed }))?;
    let figures = Figures {
        start: start_value.into(),
        threads,
        seconds,
        fragile_placed,
        peak_memory_bytes: machine::peak_memory_bytes(),
        numbers: space.len(),
        table_bytes,
        layers: times,
    };
    Sidecar::now().write(&summary_csv, &figures)?;
    let [positions, canonical] =
        [|r: &Row| r.positions, |r: &Row| r.canonical_positions].map(|f| HumanCount(rows.iter().map(f).sum()));
    output::say(format!(
        "{}: the placement phase valued, {positions} positions ({canonical} up to symmetry), this run {seconds:.1} s \
         on {threads} thread(s)",
        entry.title()
    ))?;
    output::say(format!("the start is {start_value} with best play"))?;
    if let Some([earliest, latest]) = fragile_placed {
        output::say(format!(
            "one goat mistake can lose a drawn position from the goats' placement {} to their placement {}",
            earliest + 1,
            latest + 1
        ))?;
    }
    output::say(format!("wrote {}, {} and the layer tables beside them", summary_csv.display(), fragile_csv.display()))
}

/// The sliding phase's tables in `dir`, solved first by `solve` where a file is missing.
fn sliding_tables<E: Entry>(
    entry: &E,
    dir: &Path,
    name: &str,
    solve: impl FnOnce() -> Result<()>,
) -> Result<khela_exact::retro::OutcomeTable> {
    let endgame = entry.endgame(&Scope::default()).context("Bagh-Chal has a sliding phase")??;
    let missing = endgame.parts.iter().any(|part| !tables::path(dir, &part.file).exists());
    if missing {
        eprintln!("retro: the sliding phase's tables first (they are not all in {})", dir.display());
        solve()?;
    }
    tables::load(dir, name, &endgame)
}

/// The summary's rows: a row per slice, goats placed from 0, goats captured from 0, the goats to move first.
fn summary(all: &[Layer], counts: &[Vec<(u8, SliceCount)>]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (layer, counts) in all.iter().zip(counts) {
        for (captured, count) in counts {
            // Wins, draws, losses for the side to move, as wins for the goats and the tigers.
            let [w, d, l] = count.canonical;
            let [fw, fd, fl] = count.full;
            let (goats, tigers, goats_full, tigers_full) =
                if layer.goats_to_move { (w, l, fw, fl) } else { (l, w, fl, fw) };
            rows.push(Row {
                placed: layer.placed,
                captured: *captured,
                to_move: if layer.goats_to_move { "goats" } else { "tigers" },
                positions: fw + fd + fl,
                tiger_wins: tigers_full,
                goat_wins: goats_full,
                draws: fd,
                canonical_positions: w + d + l,
                canonical_tiger_wins: tigers,
                canonical_goat_wins: goats,
                canonical_draws: d,
            });
        }
    }
    rows.sort_by_key(|r| (r.placed, r.captured, r.to_move != "goats"));
    rows
}

/// The fragile draws' rows: a row per slice with the goats to move, goats placed from 0, goats captured from 0.
fn fragile(all: &[Layer], counts: &[Vec<(u8, SliceCount)>]) -> Vec<FragileRow> {
    let mut rows = Vec::new();
    for (layer, counts) in all.iter().zip(counts).filter(|(layer, _)| layer.goats_to_move) {
        for (captured, count) in counts {
            let ([f, ff], draws) = (count.fragile, count.full[1]);
            rows.push(FragileRow {
                placed: layer.placed,
                captured: *captured,
                draws,
                fragile_draws: ff,
                fragile_share: if draws == 0 { 0.0 } else { ff as f64 / draws as f64 },
                canonical_draws: count.canonical[1],
                canonical_fragile_draws: f,
            });
        }
    }
    rows.sort_by_key(|r| (r.placed, r.captured));
    rows
}

/// Bytes in GiB.
fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}
