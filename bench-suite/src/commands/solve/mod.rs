//! `solve`: every move of a position valued — exactly (alpha-beta, or the game's own solver: Nim's,
//! Connect-4's, `--weak` for win, draw or loss only), or with `--depth` to a depth with the game's evaluator at
//! the horizon, with the move chosen and the principal variation — `--set`, the game's own solver on benchmark
//! files of positions with known scores, and `--check-xor`, the search against a game's closed-form theory
//! (Nim: Bouton's rule).

mod moves;
mod pace;
mod tables;

use crate::games::{self, Capability, Entry, Exact, Family, GameArgs, Own, OwnSolve, SetRun, Visit};
use crate::interrupt;
use crate::machine;
use crate::output::{self, OutArg, Sink};
use crate::progress::Progress;
use anyhow::{Result, anyhow, bail};
use clap::Args;
use indicatif::HumanCount;
use khela::known::Known;
use khela_exact::theory::knuth_moore;
use khela_exact::{Algorithm, Memo, Natural, SearchConfig, Searcher, move_values};
use khela_games::settled::{Settle, Settled, Through};
use khela_games::{Game, Node, Notation, Player, Value};
use khela_heuristic::{Engine, MoveValue};
use moves::MoveRow;
use pace::Pace;
use std::cell::Cell;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The depth-limited searches `solve` refuses: a perfectly ordered alpha-beta search to depth d of a tree with b
/// moves a node visits b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves (Knuth and Moore; b the position's own moves, d no more than
/// the plies left in the game); above 10^10 of them it would run for hours.
const MAX_LEAVES: u64 = 10_000_000_000;

/// Options of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// Depth-limited search: plies searched from the position, the move being valued included (2 = the move
    /// and the reply, then the evaluator). Without it, games small enough are solved exactly.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: Option<u32>,
    /// With --depth: quiescence search, playing the evaluator's noisy moves (wins and blocks of an immediate
    /// win) past the horizon until the position is quiet.
    #[arg(long)]
    pub quiescence: bool,
    /// With --depth: the plies iterative deepening adds from one iteration to the next, the last one on --depth
    /// [default: the evaluator's: 2 for tic-tac-toe and Connect-4, 1 for the others]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub deepening_step: Option<u32>,
    /// Check the exact search against the game's closed-form theory (Nim: Bouton's XOR rule) on every position
    /// of --heaps-count heaps of 0..=--max.
    #[arg(long)]
    pub check_xor: bool,
    /// With --check-xor: the number of heaps (3 by default).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub heaps_count: Option<u32>,
    /// Exact solving, win, draw or loss only (Connect-4: the sign of the score, for less work).
    #[arg(long)]
    pub weak: bool,
    /// Solve every position of a benchmark file (`moves score` a line, ` score` for the empty board; Connect-4:
    /// Pons' sets, like ../shared/connect4/Test_L3_R1) and check each score; given again, several files. A score
    /// that disagrees is reported by its line, and the command ends with exit status 1 after the whole file.
    #[arg(long, value_name = "FILE")]
    pub set: Vec<PathBuf>,
    /// Threads for exact solving by a game's own solver (Connect-4's: ABDADA, one shared table; the scores
    /// are the same on any number, the nodes vary). One by default: a second thread pays off only on positions
    /// that take tens of milliseconds or more (Begin-Medium, Begin-Hard), and slows the easy ones down.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// The transposition table's size for exact solving by a game's own solver, MiB (Connect-4's: 32 a thread
    /// by default, the threads sharing one table; 8-byte entries; 2 at least). A larger table means fewer nodes on the hardest positions, and
    /// slower probes on the easy ones.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(2..=1 << 30))]
    pub table_mib: Option<u64>,
    /// With --set: the first N positions of each file only.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// With --set: write one summary row a file (mean time and nodes per position, positions per second) to
    /// this CSV, with a sidecar of machine facts beside it.
    #[arg(long, value_name = "PATH")]
    pub summary: Option<PathBuf>,
    /// Draw what the game's own solver can draw, as SVG (Pig, Piglet: the optimal policy's hold boundary).
    #[arg(long, value_name = "PATH")]
    pub plot: Option<PathBuf>,
    /// Exact values from the tables `retro --out DIR` wrote (Bagh-Chal's sliding phase, Sixteen Soldiers'
    /// few pieces: games whose positions repeat): every move's outcome with its distance to the end in plies,
    /// and the line of best play.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// The longest a depth-limited search (by the pace of its iterations, then of the valuation of its moves) or
    /// an exact search to the tables (--tables: stopped at the limit, or refused at once where its estimate is
    /// past a thousand times the limit) may take: e.g. 90s, 15m, 2h.
    #[arg(long, value_name = "DURATION", default_value = "15m", value_parser = duration)]
    pub time_limit: Duration,
    /// Run to the end whatever the time limit, and however many positions or leaves the estimates say.
    #[arg(long)]
    pub force: bool,
    /// With --check-xor: the largest heap size (5 by default).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=63))]
    pub max: Option<u32>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> Result<()> {
    if args.quiescence && args.depth.is_none() {
        bail!("--quiescence needs --depth (an exact search has no horizon)");
    }
    if args.deepening_step.is_some() && args.depth.is_none() {
        bail!("--deepening-step needs --depth (an exact search does not deepen)");
    }
    games::visit(&args.game, Solve(args))?
}

/// `solve` on the game of the arguments.
struct Solve<'a>(&'a SolveArgs);

impl Visit for Solve<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        if args.check_xor {
            if args.game.position.is_some() || args.depth.is_some() {
                bail!("give either --check-xor or a position to solve, not both");
            }
            crate::args::unused_in(
                "--check-xor",
                &[
                    ("--set", !args.set.is_empty()),
                    ("--weak", args.weak),
                    ("--threads", args.threads.is_some()),
                    ("--table-mib", args.table_mib.is_some()),
                    ("--limit", args.limit.is_some()),
                    ("--summary", args.summary.is_some()),
                    ("--plot", args.plot.is_some()),
                    ("--tables", args.tables.is_some()),
                    ("--force", args.force),
                ],
            )?;
            if entry.theory().is_none() {
                return Err(games::refuse("solve --check-xor", &args.game.game, Capability::Theory));
            }
            let family = Family { heaps: args.heaps_count.unwrap_or(3), max: args.max.unwrap_or(5) };
            return games::check_theory(&entry, family, &args.out);
        }
        crate::args::unused_in(
            "a solve without --check-xor",
            &[("--heaps-count", args.heaps_count.is_some()), ("--max", args.max.is_some())],
        )?;
        if !args.set.is_empty() {
            if args.game.position.is_some() || args.depth.is_some() {
                bail!("give either --set or a position to solve, not both (--set solves exactly)");
            }
            crate::args::unused_in(
                "--set",
                &[("--plot", args.plot.is_some()), ("--tables", args.tables.is_some()), ("--force", args.force)],
            )?;
            let limit = args.limit.map(|n| n as usize);
            let (weak, out, summary) = (args.weak, &args.out, args.summary.as_deref());
            let (threads, table_mib) = (threads(args), table_mib(args)?);
            return games::solve_sets(
                &entry,
                &SetRun { files: &args.set, weak, threads, table_mib, limit, out, summary },
            );
        }
        if args.limit.is_some() || args.summary.is_some() {
            bail!("--limit and --summary go with --set");
        }
        if let Some(path) = &args.plot {
            let Exact::Own(own) = entry.exact() else {
                bail!("--plot: solve draws only Pig's and Piglet's hold boundary, exactly (not {})", entry.title())
            };
            if games::plot_of(own).is_none() || args.depth.is_some() {
                bail!("--plot: solve draws only Pig's and Piglet's hold boundary, exactly (not {})", entry.title());
            }
            output::writable(path)?;
        }
        let known = match &args.tables {
            Some(dir) => {
                if args.weak {
                    bail!("--tables gives exact values from the tables; it takes no --weak");
                }
                Some(Known::load(&entry, args.game.game.name.into(), dir, "solve")?)
            }
            None => None,
        };
        if let Some(known) = &known {
            let (text, state) = games::position(&entry, &args.game, Some("solve"))?;
            // Where the tables know every move, the position's value is exact, depth or not; elsewhere, a
            // depth-limited search stops at every position the tables hold.
            if known.choice(&state)?.is_some() || args.depth.is_none() {
                let dir = args.tables.as_deref().expect("tables");
                return tables::solve(&entry, known, dir, (&text, &state), (&args.out, limit(args)));
            }
        }
        if args.weak && (args.depth.is_some() || !matches!(entry.exact(), Exact::Own(_))) {
            bail!("--weak is for exact solving by a game's own solver (Connect-4's, whose scores count stones)");
        }
        if (args.threads.is_some() || args.table_mib.is_some())
            && (args.depth.is_some() || !matches!(entry.exact(), Exact::Own(Own::Connect4(_))))
        {
            let flag = if args.threads.is_some() { "--threads" } else { "--table-mib" };
            bail!("{flag} is for exact solving by a game's own solver (Connect-4's)");
        }
        if args.depth.is_some() && entry.scale().is_none() {
            return Err(games::refuse("solve --depth", &args.game.game, Capability::Evaluator));
        }
        if args.game.position.is_none() && entry.start().is_none() && entry.theory().is_some() {
            bail!("--game {} needs {} ({}) or --check-xor", args.game.game, entry.position_flag(), entry.notation());
        }
        let (text, state) = games::position(&entry, &args.game, Some("solve"))?;
        match (args.depth, entry.exact()) {
            (Some(depth), _) => depth_limited(&entry, &state, depth, args, known.as_ref()),
            (None, Exact::MoveValues) => {
                let bound = entry.positions_bound(&state);
                if bound > khela::analysis::MAX_EXACT_BOUND && !args.force {
                    bail!(
                        "{} position {text:?}: up to {bound:.1e} lines of play below it to search exactly, over the \
                         limit of {:.0e} (--force runs it all the same); a later position, or --depth",
                        entry.title(),
                        khela::analysis::MAX_EXACT_BOUND
                    );
                }
                exact(&entry, &state, None, &args.out)
            }
            (None, Exact::Memoized(limit)) => {
                let bound = entry.positions_bound(&state);
                if bound > limit as f64 && !args.force {
                    bail!(
                        "{} position {text:?}: up to {} positions below it to value exactly, over the limit of {} \
                         (--force runs it all the same); fewer cubes, or --depth",
                        entry.title(),
                        HumanCount(bound.min(1e19) as u64),
                        HumanCount(limit)
                    );
                }
                exact(&entry, &state, Some(Memo::new()), &args.out)
            }
            (None, Exact::Own(own)) => games::solve_own(
                &entry,
                own,
                &text,
                &OwnSolve {
                    weak: args.weak,
                    threads: threads(args),
                    table_mib: table_mib(args)?,
                    out: &args.out,
                    plot: args.plot.as_deref(),
                },
            ),
            (None, Exact::Refused(why)) => bail!("--game {} needs --depth: {why}", args.game.game),
        }
    }
}

/// The threads `--threads` asks for, one by default.
fn threads(args: &SolveArgs) -> usize {
    args.threads.map_or(1, |t| t as usize)
}

/// The table `--table-mib` asks for, if any: refused when larger than the machine's memory.
fn table_mib(args: &SolveArgs) -> Result<Option<usize>> {
    let Some(mib) = args.table_mib else { return Ok(None) };
    if let Some(memory) = machine::memory_bytes().filter(|&bytes| mib.saturating_mul(1 << 20) > bytes) {
        bail!("--table-mib {mib}: more than this machine's memory ({} MiB)", memory >> 20);
    }
    Ok(Some(mib as usize))
}

/// `solve` without `--depth`: every move's exact value (from the first player's view), the best ones marked:
/// by alpha-beta, or by memoized expectiminimax sharing `memo` (every position below valued once).
fn exact<E: Entry>(
    entry: &E,
    state: &<E::Game as Game>::State,
    memo: Option<Memo<E::Game>>,
    out: &OutArg,
) -> Result<()> {
    let game = entry.game();
    let first = output::view_of(game.player_name(Player::Max));
    let Some(mut searcher) = memo.map(|memo| Searcher::new(game, Natural).with_cache(memo)) else {
        let Node::Decision(mover) = game.node(state) else {
            bail!("the position is a chance node; solve values moves")
        };
        let values = move_values(game, state, Algorithm::AlphaBeta);
        let (rows, best) = moves::rows(game, mover, &values);
        return Sink::new(out, None)?.emit(&rows, || {
            let side = game.player_name(mover);
            let safe: Vec<&str> = rows.iter().filter(|r| r.best).map(|r| r.mv.as_str()).collect();
            format!(
                "{}\n{side} to move; value {} from {first}; best moves for {side}: {}\n{}",
                game.picture(state),
                output::value(mover.view(best)),
                safe.join(", "),
                moves::table(game, &rows)
            )
        });
    };
    // Memoized expectiminimax (payoffs ±1, no draws: a value v is the first player's winning chance (1 + v) / 2).
    // At a chance node, the rows are the outcomes, none of them chosen.
    let value = searcher.run(Algorithm::Minimax, state).value;
    let (rows, heading) = match game.node(state) {
        Node::Decision(mover) => {
            let mut moves = Vec::new();
            game.moves(state, &mut moves);
            let values: Vec<_> = moves
                .into_iter()
                .map(|mv| (mv, searcher.run(Algorithm::Minimax, &game.child(state, mv)).value))
                .collect();
            let (rows, _) = moves::rows(game, mover, &values);
            let safe: Vec<&str> = rows.iter().filter(|r| r.best).map(|r| r.mv.as_str()).collect();
            let side = game.player_name(mover);
            let heading = format!("{side} to move; best moves for {side}: {}", safe.join(", "));
            (rows, heading)
        }
        _ => {
            let mut outcomes = Vec::new();
            game.outcomes(state, &mut outcomes);
            let values: Vec<_> = outcomes
                .into_iter()
                .map(|(o, _)| (o, searcher.run(Algorithm::Minimax, &game.child(state, o)).value))
                .collect();
            let rows = moves::rows(game, Player::Max, &values).0;
            let rows = rows.into_iter().map(|r| moves::MoveRow { best: false, ..r }).collect();
            (rows, "before the roll: the rows are the faces, with the value once each is rolled".to_string())
        }
    };
    Sink::new(out, None)?.emit(&rows, || {
        format!(
            "{}\n{heading}\nvalue {} from {first}: {} wins with probability {:.12} (memoized expectiminimax)\n{}",
            game.picture(state),
            output::value(value),
            game.player_name(Player::Max),
            (1.0 + value) / 2.0,
            moves::table(game, &rows)
        )
    })
}

/// `solve --depth`: every move's depth-limited value (searched to `depth − 1` after it), the move the engine
/// chooses and its principal variation.
fn depth_limited<E: Entry>(
    entry: &E,
    state: &<E::Game as Game>::State,
    depth: u32,
    args: &SolveArgs,
    known: Option<&Known<E::Game>>,
) -> Result<()> {
    let Some(scale) = entry.scale() else {
        return Err(games::refuse("solve --depth", &args.game.game, Capability::Evaluator));
    };
    let game = entry.game();
    let Node::Decision(mover) = game.node(state) else { bail!("the position is a chance node; solve values moves") };
    if depth == 0 {
        bail!("--depth 0 values no move (the depth counts the move itself); give 1 or more");
    }
    let (left, _) = entry.plies_left(state);
    let mut moves = Vec::new();
    let branching = game.move_count(state, &mut moves) as u32;
    let minimal = knuth_moore(branching, depth.min(left)).filter(|&leaves| leaves <= MAX_LEAVES);
    if minimal.is_none() && !args.force {
        bail!(
            "--depth {depth} on {}: even a perfectly ordered search of a tree with this position's {branching} moves \
             at every node visits {} leaves; the limit is {} (--force runs it all the same)",
            entry.title(),
            knuth_moore(branching, depth.min(left)).map_or("more than 2^64".into(), |l| HumanCount(l).to_string()),
            HumanCount(MAX_LEAVES)
        );
    }
    let (view, shown): (String, Box<dyn Fn(Value) -> Value>) = match entry.view() {
        games::View::First => (output::view_of(game.player_name(Player::Max)), Box::new(|value| value)),
        games::View::Mover => (
            format!("{}, the side to move", output::view_of(game.player_name(mover))),
            Box::new(move |value| mover.view(value)),
        ),
    };
    let config = SearchConfig {
        quiescence: args.quiescence,
        deepening_step: args.deepening_step.and_then(NonZeroU32::new),
        ..SearchConfig::depth_limited(depth)
    };
    // The searches stop at every position the tables hold, with its exact value.
    let settled = Settled::new(game, known.map(|k| k as &dyn Settle<E::Game>));
    let evaluator = Through(&scale.evaluator);
    let sink = Sink::new(&args.out, None)?;
    // Two engines, so that each search's node count is its own (not helped by the other's table), each with its
    // progress on stderr: the search by the depth its iterations reach, the valuation of the moves one by one.
    // The search's iterations also measure its pace: once they say the whole will take too long, it stops there.
    let bar = Progress::stages("search", u64::from(depth));
    let stopped = Cell::new(None);
    let started = Instant::now();
    let mut engine = Engine::new(&settled, &evaluator, config);
    let step = engine.config().deepening_step.map_or(1, NonZeroU32::get);
    let pace = Pace::new(&bar, (depth, step, branching as usize), limit(args), &stopped);
    let analysis = engine.search_observed(state, pace);
    bar.finish();
    interrupt::check()?;
    if let Some(stop) = stopped.get() {
        return Err(pace::stopped(&entry.title(), depth, stop, args.time_limit));
    }
    // A fresh engine for the moves, so that their node counts are their own.
    let mut engine = Engine::new(&settled, &evaluator, config);
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    let bar = Progress::new("moves", moves.len() as u64, 0);
    let moves_started = Instant::now();
    let values: Vec<MoveValue<_>> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            interrupt::check()?;
            let value = engine.value_move(state, mv);
            bar.update(i as u64 + 1, moves.len() as u64, || format!("{}/{} moves valued", i + 1, moves.len()));
            pace::check_moves((started, moves_started), (i + 1, moves.len()), limit(args))
                .map_err(|error| anyhow!("--depth {depth} on {}: {error}", entry.title()))?;
            Ok(value)
        })
        .collect::<Result<_>>()?;
    bar.finish();
    let best = values.iter().map(|m| mover.view(m.value)).fold(Value::NEG_INFINITY, Value::max);
    let rows: Vec<MoveRow> = values
        .iter()
        .map(|m| MoveRow {
            mv: game.write_move(m.mv),
            value: output::value(shown(m.value)),
            best: mover.view(m.value) == best,
        })
        .collect();
    sink.emit(&rows, || {
        let mut table = output::table(&["move", "value", "best", "nodes"]);
        for (row, m) in rows.iter().zip(&values) {
            let mark = if row.best { "best" } else { "" };
            table.add_row(vec![row.mv.clone(), row.value.clone(), mark.into(), HumanCount(m.stats.nodes).to_string()]);
        }
        let pv: Vec<String> = analysis.pv.iter().map(|&mv| game.write_move(mv)).collect();
        let analysed: u64 = values.iter().map(|m| m.stats.nodes).sum();
        format!(
            "depth {depth}{}, values from {view}: value {}; chosen move {}; principal variation {}\nnodes: {} \
             (iterative deepening, step {step}), {} (the moves one by one)\n{table}",
            if args.quiescence { " with quiescence" } else { "" },
            output::value(shown(analysis.value)),
            analysis.best.map_or("-".into(), |mv| game.write_move(mv)),
            pv.join(" "),
            HumanCount(analysis.stats.nodes),
            HumanCount(analysed),
        )
    })
}

/// The time limit of the arguments: none with `--force`.
fn limit(args: &SolveArgs) -> Option<Duration> {
    (!args.force).then_some(args.time_limit)
}

/// `--time-limit`: a duration as humantime writes them (`90s`, `15m`, `1h 30m`), refused in words otherwise.
fn duration(text: &str) -> Result<std::time::Duration, String> {
    humantime::parse_duration(text).map_err(|_| {
        let why = if text.trim_start().starts_with('-') { "a time is not negative" } else { "not a duration" };
        format!("{why}: write it like 90s, 15m or 1h 30m")
    })
}
