//! `count`: game trees counted on every core — a small game's full tree (games by outcome, nodes, distinct
//! states), or any game's move sequences ("perft") and distinct positions per ply, to `--depth`; either per ply
//! in parts, for a cluster's job arrays: move sequences by subtree (`--shard K/N`), distinct positions by key, ply
//! by ply, in steps that exchange positions through files ([`exchange`]).

mod estimate;
pub mod exchange;

use crate::args::{Shard, pool};
use crate::games::{self, Capability, Entry, GameArgs, Published, Visit};
use crate::interrupt;
use crate::machine::{self, Sidecar};
use crate::output::{self, OutArg, Sink};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use estimate::{COUNTED_CHILDREN, Estimate};
use indicatif::HumanCount;
use khela_exact::count::{Shard as Part, distinct_positions, perft_shard};
use khela_exact::{tally, tally_by};
use khela_games::{Game, Notation};
use serde::Serialize;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

/// Counts that are refused unless `--force`: those estimated to take longer than this.
const MAX_SECONDS: f64 = 15.0 * 60.0;

/// The most parts a count is split into: every part grows the frontier to 64 subtrees a part, 6.4 million
/// positions at this limit.
const MAX_PARTS: u64 = 100_000;

/// Options of `count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// Count plies 0..=DEPTH: move sequences and distinct positions per ply. Without it, the full tree of a game
    /// small enough (tic-tac-toe).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Threads (rayon); a comma list such as 1,2 runs the count once per entry, checks the counts agree and
    /// reports each timing [default: all cores].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub threads: Vec<u64>,
    /// With --depth: count only move sequences or only distinct positions [default: both].
    #[arg(long, value_enum)]
    pub only: Option<Measure>,
    /// Run even when the estimate says the count will not finish in 15 minutes or fit in memory.
    #[arg(long)]
    pub force: bool,
    /// With --depth and --only sequences: count part K of N (K = 0..N-1, like Slurm's array task ids), disjoint
    /// subtrees whose counts `merge-counts` adds up to the whole; the sidecar says which part. With --only
    /// positions (and --ply, --exchange): task K of N, owning the positions whose key hashes to K.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// With --only positions --shard K/N: the ply this step counts (0..=DEPTH); the steps of ply L need those
    /// of ply L-1 of every task finished. The last ply's step writes the part merge-counts adds up.
    #[arg(long, value_name = "L", requires = "exchange")]
    pub ply: Option<u32>,
    /// With --only positions --shard K/N --ply L: the directory through which the tasks exchange each ply's
    /// positions (created if missing, not its parents).
    #[arg(long, value_name = "DIR", requires = "ply")]
    pub exchange: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// What `count --depth` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Measure {
    /// Move sequences per ply (perft), split across threads and bulk-counted at the last ply.
    Sequences,
    /// Distinct positions per ply, in sharded, sorted position sets.
    Positions,
}

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

/// Runs `count`.
pub fn run(args: &CountArgs) -> Result<()> {
    if args.only.is_some() && args.depth.is_none() {
        bail!("--only is for counts per ply, with --depth");
    }
    if let Some(shard) = args.shard.filter(|s| s.n > MAX_PARTS) {
        bail!("--shard {shard}: at most {MAX_PARTS} parts (each part's frontier holds 64 positions a part)");
    }
    let positions_step = args.only == Some(Measure::Positions);
    if args.shard.is_some() && (args.depth.is_none() || args.only.is_none()) {
        bail!(
            "--shard splits one count per ply: --depth N --only sequences, or --depth N --only positions --ply L \
             --exchange DIR (one step of a count of distinct positions)"
        );
    }
    if args.shard.is_some() && positions_step && args.ply.is_none() {
        bail!("--only positions --shard K/N runs one ply's step: give --ply L (0..=DEPTH) and --exchange DIR");
    }
    if args.exchange.as_deref() == Some(std::path::Path::new("-")) {
        bail!("--exchange -: the exchange is a directory the tasks share, not standard output; give its path");
    }
    if args.ply.is_some() && !(positions_step && args.shard.is_some()) {
        bail!("--ply and --exchange are for the steps of a sharded count of positions (--only positions --shard K/N)");
    }
    if let Some(shard) = args.shard.filter(|s| positions_step && s.n > exchange::MAX_TASKS) {
        bail!(
            "--shard {shard}: a count of positions is split into at most {} tasks (each step writes a file for every \
             task)",
            exchange::MAX_TASKS
        );
    }
    if let (Some(ply), Some(depth)) = (args.ply, args.depth)
        && ply > depth
    {
        bail!("--ply {ply} is past --depth {depth}");
    }
    if args.ply.is_some() && args.threads.len() > 1 {
        bail!("a step of a sharded count runs once: give --threads one number");
    }
    games::visit(&args.game, Count(args))?
}

/// `count` on the game of the arguments.
struct Count<'a>(&'a CountArgs);

impl Visit for Count<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        let threads: Vec<u64> =
            if args.threads.is_empty() { vec![machine::cores() as u64] } else { args.threads.clone() };
        let capability = if args.depth.is_some() { Capability::PerPly } else { Capability::Tally };
        if !games::with(capability).contains(&args.game.game.name.into()) {
            return Err(match capability {
                Capability::Tally if games::with(Capability::PerPly).contains(&args.game.game.name.into()) => {
                    let why = if entry.game().cycles().is_some() {
                        "its positions repeat, so its full tree is infinite"
                    } else {
                        "its full tree is too large to tally"
                    };
                    anyhow::anyhow!("--game {} needs --depth N (count plies 0..=N): {why}", args.game.game)
                }
                _ => games::refuse(
                    if args.depth.is_some() { "count --depth" } else { "count" },
                    &args.game.game,
                    capability,
                ),
            });
        }
        let (text, state) = games::position(&entry, &args.game, None)?;
        // The file is checked before the count, which may be long.
        let sink = Sink::new(&args.out, None)?;
        match args.depth {
            Some(depth) => per_ply(&entry, &text, &state, depth, args, &threads, &sink),
            None => full_tree(&entry, &text, &state, &threads, &sink),
        }
    }
}

/// The full tree: games by outcome, nodes and distinct states, once per thread count, and distinct states up
/// to the game's symmetries.
fn full_tree<E: Entry>(
    entry: &E,
    text: &str,
    state: &<E::Game as Game>::State,
    threads: &[u64],
    sink: &Sink,
) -> Result<()> {
    let Some(plan) = entry.full_tree() else { bail!("{} has no full tree small enough to tally", entry.title()) };
    let game = entry.game();
    let mut timings = Vec::new();
    let mut result = None;
    for &t in threads {
        let started = Instant::now();
        let tally = pool(t as usize)?.install(|| tally(game, state));
        let seconds = started.elapsed().as_secs_f64();
        timings.push(Timing {
            threads: t,
            measure: "nodes",
            count: tally.nodes,
            seconds,
            per_second: tally.nodes as f64 / seconds,
        });
        if result.is_some_and(|r| r != tally) {
            bail!("{} counts differ between thread counts: {result:?} and {tally:?}", entry.title());
        }
        result = Some(tally);
    }
    let t = result.expect("at least one thread count");
    let symmetric = plan.symmetry.map(|(key, about)| (tally_by(game, state, key), about));
    let row = TallyRow {
        games: t.games,
        x_wins: t.max_wins,
        o_wins: t.min_wins,
        draws: t.draws,
        nodes: t.nodes,
        states: t.states,
    };
    let (first, second) = (game.player_name(khela_games::Player::Max), game.player_name(khela_games::Player::Min));
    emit(sink, &[row], &timings, None, |rows| {
        let row = &rows[0];
        let (first_wins, second_wins) = (format!("{first} wins"), format!("{second} wins"));
        let mut table = output::table(&["games", &first_wins, &second_wins, "draws", "nodes", "distinct states"]);
        table.add_row([row.games, row.x_wins, row.o_wins, row.draws, row.nodes, row.states].map(count));
        let mut text = format!("{} game tree from {text}\n{table}", entry.title());
        if let Some((symmetric, about)) = symmetric {
            text.push_str(&format!(
                "\n{about}: {} positions, {} of them terminal",
                symmetric.states, symmetric.terminal_states
            ));
        }
        text
    })
}

/// Move sequences and distinct positions per ply, to `depth`, once per thread count, after the estimates of
/// their time and memory.
fn per_ply<E: Entry>(
    entry: &E,
    text: &str,
    root: &<E::Game as Game>::State,
    depth: u32,
    args: &CountArgs,
    threads: &[u64],
    sink: &Sink,
) -> Result<()> {
    let Some(published) = entry.per_ply(root) else {
        return Err(games::refuse("count --depth", &args.game.game, Capability::PerPly));
    };
    if args.game.quiet_limit.is_some() {
        bail!(
            "count --depth counts move generation (perft), without the quiet limit as without the cycle rules; drop --quiet-limit"
        );
    }
    let game = entry.game();
    let (left, plies) = entry.plies_left(root);
    if depth > left {
        bail!("--depth {depth} is more plies than the {left} {plies}");
    }
    if let (Some(shard), Some(ply), Some(dir)) = (args.shard, args.ply, &args.exchange) {
        let step = exchange::Step { dir, k: shard.k, n: shard.n, ply, depth };
        return positions_step(entry, args, text, root, published, &step, threads[0], sink);
    }
    let want_sequences = args.only != Some(Measure::Positions);
    let want_positions = args.only != Some(Measure::Sequences);
    if !args.force {
        let max_threads = *threads.iter().max().unwrap_or(&1) as f64;
        let branching = f64::from(entry.max_moves());
        let measured = Estimate::of(
            game,
            root,
            (published, entry.positions_bound(root)),
            depth,
            (want_positions, COUNTED_CHILDREN),
        );
        // The rate is the game's own, measured on its first plies (Connect-4 counts about 35 times as many
        // sequences a second as Sixteen Soldiers).
        let rate = want_sequences.then(|| estimate::sequences_per_second(game, root, &measured.sequences, depth));
        if let Some(Some(rate)) = rate {
            let estimate = measured.sequences[depth as usize];
            let parts = args.shard.map_or(1.0, |s| s.n as f64);
            let seconds = estimate / parts / (rate * max_threads);
            if seconds > MAX_SECONDS {
                bail!(
                    "counting {} sequences to ply {depth} means about {estimate:.2e} sequences, about {:.0} minutes at \
                     the {rate:.1e} a second per thread measured on its first plies; use a smaller --depth, --only \
                     positions, or --force",
                    entry.title(),
                    seconds / 60.0
                );
            }
        }
        if want_positions {
            let bytes = measured.position_bytes::<E::Game>(branching);
            let budget = machine::memory_bytes().map_or(16u64 << 30, |m| m / 4 * 3) as f64;
            if bytes > budget {
                bail!(
                    "counting distinct {} positions to ply {depth} needs about {:.1} GiB for two plies of positions, \
                     over the {:.1} GiB budget (3/4 of this machine's memory); use a smaller --depth, --only \
                     sequences, or --force",
                    entry.title(),
                    bytes / (1u64 << 30) as f64,
                    budget / (1u64 << 30) as f64
                );
            }
        }
    }
    let mut timings = Vec::new();
    let mut result: Option<Vec<PlyRow>> = None;
    for &t in threads {
        let pool = pool(t as usize)?;
        let mut rows: Vec<PlyRow> = (0..=depth).map(|ply| PlyRow { ply, sequences: None, positions: None }).collect();
        if want_sequences {
            let part = args.shard.map_or(Part::WHOLE, |s| Part { k: s.k, n: s.n });
            let counts =
                timed(&pool, t, "sequences", &mut timings, |progress| perft_shard(game, root, depth, part, progress))?;
            for (row, count) in rows.iter_mut().zip(counts) {
                row.sequences = Some(count);
            }
        }
        if want_positions {
            let counts =
                timed(&pool, t, "positions", &mut timings, |progress| distinct_positions(game, root, depth, progress))?;
            for (row, count) in rows.iter_mut().zip(counts) {
                row.positions = Some(count);
            }
        }
        if let Some(previous) = &result
            && *previous != rows
        {
            bail!("{} counts differ between thread counts {threads:?}: a bug, please report it", entry.title());
        }
        result = Some(rows);
    }
    let rows = result.expect("at least one thread count");
    let from = entry.name_position(text);
    let shard = args.shard.map(|s| Sharded {
        shard: s.to_string(),
        count: format!("{} depth={depth}", describe_game(args, text)),
        depth,
        timings: &timings,
        crc32: None,
    });
    let part = args.shard.map_or(String::new(), |s| format!(", part {s} (merge-counts adds the parts up)"));
    emit(sink, &rows, &timings, shard, |rows| {
        let mut table = output::table(&["ply", "sequences", "positions"]);
        for r in rows {
            let cell = |c: Option<u64>| c.map_or(String::new(), count);
            table.add_row(vec![r.ply.to_string(), cell(r.sequences), cell(r.positions)]);
        }
        format!("{} from {from}, plies 0..={depth}{part}\n{table}", entry.title())
    })
}

/// One step of a sharded count of distinct positions ([`exchange`]), after the estimate of its memory, writes
/// and time; writes (or prints) the task's counts of plies 0..=L.
#[allow(clippy::too_many_arguments)]
fn positions_step<E: Entry>(
    entry: &E,
    args: &CountArgs,
    text: &str,
    root: &<E::Game as Game>::State,
    published: Option<Published>,
    step: &exchange::Step,
    threads: u64,
    sink: &Sink,
) -> Result<()> {
    if !args.force {
        let branching = f64::from(entry.max_moves());
        let measured = Estimate::of(
            entry.game(),
            root,
            (published, entry.positions_bound(root)),
            step.ply + 1,
            (true, COUNTED_CHILDREN),
        );
        let (memory, disk) = exchange::cost(|ply| measured.positions[ply as usize], branching, step);
        let budget = machine::memory_bytes().map_or(16u64 << 30, |m| m / 4 * 3) as f64;
        let mine = measured.positions[step.ply as usize] / step.n as f64;
        let seconds = mine / (exchange::POSITIONS_PER_SECOND_PER_THREAD * threads as f64);
        let gib = |b: f64| b / (1u64 << 30) as f64;
        if memory > budget || seconds > MAX_SECONDS {
            bail!(
                "the step of ply {} of part {}/{} of distinct {} positions takes about {mine:.2e} positions, {:.1} GiB \
                 of memory (the budget: {:.1} GiB, 3/4 of this machine's) and about {:.0} minutes, and writes about \
                 {:.1} GiB; use more parts, a smaller --depth, or --force",
                step.ply,
                step.k,
                step.n,
                entry.title(),
                gib(memory),
                gib(budget),
                seconds / 60.0,
                gib(disk)
            );
        }
    }
    let exchanged = format!("{} parts={}", describe_game(args, text), step.n);
    let done = exchange::run(entry.game(), root, step, &exchanged, &pool(threads as usize)?)?;
    let last = *done.counts.last().expect("the step's own ply");
    let timings = [Timing {
        threads,
        measure: "positions",
        count: last,
        seconds: done.seconds,
        per_second: last as f64 / done.seconds,
    }];
    let rows: Vec<PlyRow> = done
        .counts
        .iter()
        .enumerate()
        .map(|(ply, &c)| PlyRow { ply: ply as u32, sequences: None, positions: Some(c) })
        .collect();
    let shard = Shard { k: step.k, n: step.n }.to_string();
    let sharded = Sharded {
        shard: shard.clone(),
        count: format!("{} depth={} only=positions", describe_game(args, text), step.depth),
        depth: step.depth,
        timings: &timings,
        crc32: None,
    };
    let from = entry.name_position(text);
    let (ply, depth) = (step.ply, step.depth);
    let peak = machine::peak_memory_bytes()
        .map_or(String::new(), |b| format!(", peak memory {:.1} MiB", b as f64 / 1048576.0));
    emit(sink, &rows, &timings, Some(sharded), |rows| {
        let mut table = output::table(&["ply", "positions"]);
        for r in rows {
            table.add_row(vec![r.ply.to_string(), count(r.positions.unwrap_or(0))]);
        }
        let next = if ply < depth {
            format!("sent {} positions on for ply {}{peak}", count(done.sent), ply + 1)
        } else {
            format!("the last ply{peak}")
        };
        format!(
            "Distinct {} positions from {from}, part {shard}, plies 0..={ply} of 0..={depth} (merge-counts adds up \
             the parts of the last ply's steps); {next}\n{table}",
            entry.title()
        )
    })
}

/// The sidecar's figures of one part of a sharded count: which part, of which count, and its timings.
#[derive(Serialize)]
struct Sharded<'a> {
    /// `K/N`.
    shard: String,
    /// What every part of the count shares: the game, its options, the position and the depth.
    count: String,
    /// The count's last ply: a part's rows must reach it.
    depth: u32,
    /// The part's timings.
    timings: &'a [Timing],
    /// The CRC-32 of the part's CSV as written, in hex, which `merge-counts` checks: a part edited or damaged
    /// since is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    crc32: Option<String>,
}

/// What every part of a sharded count must agree on, in one line, but its depth: the game, its options and the
/// position.
fn describe_game(args: &CountArgs, text: &str) -> String {
    let g = &args.game;
    let or_none = |o: Option<String>| o.unwrap_or_else(|| "-".into());
    format!(
        "game={} rules={} width={} height={} goal={} position={text:?}",
        g.game,
        or_none(g.rules.clone()),
        or_none(g.width.map(|w| w.to_string())),
        or_none(g.height.map(|h| h.to_string())),
        or_none(g.goal.map(|x| x.to_string()))
    )
}

/// A count with thousands separators.
fn count(n: u64) -> String {
    HumanCount(n).to_string()
}

/// Runs a per-ply count on the pool with a progress bar, and records its timing: for sequences the count of the
/// last ply per second (perft's usual rate), for positions all the positions per second.
fn timed(
    pool: &rayon::ThreadPool,
    threads: u64,
    measure: &'static str,
    timings: &mut Vec<Timing>,
    count: impl FnOnce(khela_exact::count::Progress<'_>) -> Vec<u64> + Send,
) -> Result<Vec<u64>> {
    let bar = Progress::new(&format!("{measure}, {threads} thread(s)"), 1, 0);
    let started = Instant::now();
    let counts = pool.install(|| {
        count(&|done, total| {
            bar.update(done, total, || format!("{done}/{total} subtrees"));
            if interrupt::requested() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
    });
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    // Stopped part way, the counts are partial: none of them is reported.
    interrupt::check()?;
    let figure = if measure == "sequences" { counts.last().copied().unwrap_or(0) } else { counts.iter().sum() };
    timings.push(Timing { threads, measure, count: figure, seconds, per_second: figure as f64 / seconds });
    Ok(counts)
}

/// Prints or writes the rows, then the timings (with the speed-up over the first thread count); with a file,
/// also the sidecar of machine facts and timings.
fn emit<R: Serialize>(
    sink: &Sink,
    rows: &[R],
    timings: &[Timing],
    shard: Option<Sharded>,
    table: impl FnOnce(&[R]) -> String,
) -> Result<()> {
    let facts = Sidecar::now();
    sink.emit(rows, || {
        let mut lines = vec![table(rows)];
        for t in timings {
            let base = timings.iter().find(|b| b.measure == t.measure).map_or(t.seconds, |b| b.seconds);
            lines.push(format!(
                "{:>9}: {} thread(s), {} in {:.3} s, {:.3e} per second (speed-up {:.2}x)",
                t.measure,
                t.threads,
                count(t.count),
                t.seconds,
                t.per_second,
                base / t.seconds
            ));
        }
        lines.push(format!("machine: {}", facts.summary()));
        lines.join("\n")
    })?;
    // The sidecar follows the CSV it describes, so a failed CSV write leaves neither; a stream (a pipe, a FIFO,
    // /dev/stdout) has none, and cannot be read back for its checksum.
    if let Sink::TableAndFile(path) = sink
        && !khela_files::is_stream(path)
    {
        match shard {
            Some(shard) => {
                let bytes = std::fs::read(path).with_context(|| format!("cannot read back {}", path.display()))?;
                let crc32 = Some(format!("{:08x}", crc32fast::hash(&bytes)));
                facts.write(path, &Sharded { crc32, ..shard })?
            }
            None => facts.write(path, &timings)?,
        }
    }
    Ok(())
}
