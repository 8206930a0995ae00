//! `star`: *-minimax on a real game with dice — Star1 and Star2 against expectiminimax (and alpha-beta at the
//! decision nodes only) on positions from games played by the engine, at each depth and ordering, with the
//! game's evaluator at the horizon: the node counts, and a check that every value is bit-identical to
//! expectiminimax's. It is the real-game counterpart of the sweep's chance trees: there random leaves decide the
//! bounds, here the evaluator does.
//!
//! Positions: game `i` is dealt from the seed (a game whose start is dealt, EinStein's setups) and played to its
//! end by the engine at depth 2 on both sides with seeded dice; one of its decision positions, drawn from the
//! seed, is kept. Every search is a fresh searcher without a table (node counts of the algorithms alone).

use crate::args::{List, Threads};
use crate::games::{self, Capability, Entry, GameArgs, Visit};
use crate::machine::Sidecar;
use crate::output::{self, OutArg, Sink};
use crate::progress::Progress;
use anyhow::{Result, bail};
use clap::Args;
use indicatif::HumanCount;
use khela::players::{Contender, Seat, play_out};
use khela_exact::{Algorithm, MoveOrdering, OrderingKind, OrderingParts, SearchConfig};
use khela_games::line::Line;
use khela_games::rng::splitmix64;
use khela_games::{Evaluator, Game, Notation, Value};
use khela_heuristic::{Heuristic, SORTED_PLIES, child_estimate};
use khela_mcts::random::{Pcg, Random};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The algorithms compared, expectiminimax (plain minimax at decision nodes) first: the reference.
const ALGORITHMS: [Algorithm; 4] = [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Star1, Algorithm::Star2];

/// The orderings a position can be searched with (the oracle orderings need exact values, which the game has not).
static ORDERINGS: [OrderingKind; 6] = [
    OrderingKind::Natural,
    OrderingKind::Reversed,
    OrderingKind::Random,
    OrderingKind::Static,
    OrderingKind::Shallow,
    OrderingKind::History,
];

/// The deepest search the table runs: expectiminimax visits (6 rolls × 6 moves)^depth nodes at worst.
const MAX_DEPTH: u32 = 6;

/// The most positions the table samples.
const MAX_POSITIONS: u64 = 100_000;

/// Options of `star`.
#[derive(Debug, Args)]
pub struct StarArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// Positions, each from its own game.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=MAX_POSITIONS))]
    pub positions: u64,
    /// Depths in decision plies (the die's rolls do not count), like 1..4 or 2,4.
    #[arg(long, default_value = "1..4")]
    pub depths: List<u32>,
    /// Orderings: natural, reversed, random (seeded), static (children by the evaluator), shallow (the
    /// evaluator near the root, history below), history.
    #[arg(
        long,
        value_parser = crate::names::among(&ORDERINGS),
        value_delimiter = ',',
        default_value = "natural,reversed,random,static,shallow,history"
    )]
    pub orderings: Vec<OrderingKind>,
    /// The seed of the games, their dice and the random ordering.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: Threads,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// One row: an algorithm at a depth and ordering, over every position.
#[derive(Clone, Debug, Serialize)]
struct Row {
    depth: u32,
    ordering: String,
    algorithm: String,
    positions: u64,
    nodes: u64,
    mean_nodes: String,
    vs_expectiminimax: String,
    cutoffs: u64,
    identical: u64,
}

/// The counters of one algorithm at one depth and ordering: nodes, cutoffs, positions whose value was
/// bit-identical to expectiminimax's.
#[derive(Clone, Copy, Default)]
struct Tally {
    nodes: u64,
    cutoffs: u64,
    identical: u64,
}

/// Runs `star`.
pub fn run(args: &StarArgs) -> Result<()> {
    if let Some(&depth) = args.depths.0.iter().find(|&&d| d == 0 || d > MAX_DEPTH) {
        bail!("--depths: depth {depth} is out of range 1..={MAX_DEPTH}");
    }
    crate::args::once(&args.orderings, "--orderings")?;
    games::visit(&args.game, Star(args))?
}

struct Star<'a>(&'a StarArgs);

impl Visit for Star<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        let Some(scale) = entry.scale() else {
            return Err(games::refuse("star", &args.game.game, Capability::Evaluator));
        };
        let Some(bounds) = scale.evaluator.value_range() else {
            bail!("star: {}'s evaluator gives no bounds on its values, which star pruning needs", entry.title());
        };
        let sink = Sink::new(&args.out, None)?;
        let game = entry.game();
        let (_, start) = games::position(&entry, &args.game, Some("search"))?;
        let positions = sample(&entry, &scale.evaluator, &start, args)?;
        let heuristic = Heuristic::new(game, &scale.evaluator);
        let cells: Vec<(u32, OrderingKind)> =
            args.depths.0.iter().flat_map(|&d| args.orderings.iter().map(move |&o| (d, o))).collect();
        let total = positions.len() as u64;
        let started = Instant::now();
        let bar = Progress::new("star", total, 0);
        let done = AtomicU64::new(0);
        let search = |(i, state): (usize, &<E::Game as Game>::State)| -> Vec<[Tally; 4]> {
            let tallies = cells.iter().map(|&(depth, kind)| {
                let parts = OrderingParts {
                    seed: splitmix64(args.seed ^ i as u64),
                    estimate: Some(child_estimate::<E::Game, E::Evaluator>),
                    plies: SORTED_PLIES,
                    ..OrderingParts::default()
                };
                let mut reference = None;
                ALGORITHMS.map(|algorithm| {
                    let ordering = MoveOrdering::named(kind, &parts).expect("the orderings need no oracle");
                    let config = SearchConfig { algorithm, depth, bounds: Some(bounds), ..SearchConfig::default() };
                    let result = config
                        .searcher(&heuristic, ordering, heuristic.horizon())
                        .run_to_depth(algorithm, state, depth);
                    let value: Value = result.value;
                    let bits = (value + 0.0).to_bits(); // (A zero of either sign is one value.)
                    let same = *reference.get_or_insert(bits) == bits;
                    Tally { nodes: result.stats.nodes, cutoffs: result.stats.cutoffs, identical: u64::from(same) }
                })
            });
            let tallies = tallies.collect();
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            bar.update(n, total, || format!("{n}/{total} positions"));
            tallies
        };
        let per_position: Vec<Vec<[Tally; 4]>> =
            args.threads.pool()?.install(|| positions.par_iter().enumerate().map(search).collect());
        bar.finish();
        let seconds = started.elapsed().as_secs_f64();
        let mut rows = Vec::new();
        for (c, &(depth, kind)) in cells.iter().enumerate() {
            let mut sums = [Tally::default(); 4];
            for tallies in &per_position {
                for (sum, t) in sums.iter_mut().zip(&tallies[c]) {
                    (sum.nodes, sum.cutoffs, sum.identical) =
                        (sum.nodes + t.nodes, sum.cutoffs + t.cutoffs, sum.identical + t.identical);
                }
            }
            for (algorithm, sum) in ALGORITHMS.iter().zip(sums) {
                rows.push(Row {
                    depth,
                    ordering: kind.to_string(),
                    algorithm: name(*algorithm).to_string(),
                    positions: total,
                    nodes: sum.nodes,
                    mean_nodes: format!("{:.1}", sum.nodes as f64 / total as f64),
                    vs_expectiminimax: format!("{:.4}", sum.nodes as f64 / sums[0].nodes as f64),
                    cutoffs: sum.cutoffs,
                    identical: sum.identical,
                });
            }
        }
        let facts = Sidecar::now();
        let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
        let threads = args.threads.count();
        let speed = nodes as f64 / seconds;
        sink.emit(&rows, || {
            let mut table = output::table(&[
                "depth",
                "ordering",
                "algorithm",
                "mean nodes",
                "vs expectiminimax",
                "cutoffs",
                "values identical",
            ]);
            for r in &rows {
                table.add_row(vec![
                    r.depth.to_string(),
                    r.ordering.clone(),
                    r.algorithm.clone(),
                    r.mean_nodes.clone(),
                    r.vs_expectiminimax.clone(),
                    HumanCount(r.cutoffs).to_string(),
                    format!("{}/{}", r.identical, r.positions),
                ]);
            }
            format!(
                "{}: {total} positions from games of engine:2 against itself, seed {}; the evaluator ({}) at the \
                 horizon, values bounded by {:?}\n{table}\n{} nodes in {seconds:.2} s on {threads} thread{}: {} nodes \
                 a second\nmachine: {}",
                entry.title(),
                args.seed,
                scale.about,
                bounds,
                HumanCount(nodes),
                if threads == 1 { "" } else { "s" },
                HumanCount(speed as u64),
                facts.summary()
            )
        })?;
        if let Sink::TableAndFile(path) = &sink {
            let figures = serde_json::json!({
                "positions": total,
                "seed": args.seed,
                "threads": threads,
                "seconds": seconds,
                "nodes": nodes,
                "nodes_per_second": speed,
            });
            facts.write(path, &figures)?;
        }
        let differing = rows.iter().filter(|r| r.identical != r.positions).count();
        if differing > 0 {
            bail!("{differing} rows have values that differ from expectiminimax's: a bug in the pruning");
        }
        Ok(())
    }
}

/// The algorithm's name in the table: expectiminimax for minimax (it averages at chance nodes).
fn name(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Minimax => "expectiminimax",
        other => other.into(),
    }
}

/// `args.positions` decision positions from games of the engine at depth 2 against itself, each from its own
/// game (dealt from the seed where the game deals its start, else from `start`), the dice and the position kept
/// drawn from the seed.
fn sample<E: Entry>(
    entry: &E,
    evaluator: &E::Evaluator,
    start: &<E::Game as Game>::State,
    args: &StarArgs,
) -> Result<Vec<<E::Game as Game>::State>> {
    let game = entry.game();
    let mut positions = Vec::with_capacity(args.positions as usize);
    for i in 0..args.positions {
        let seed = splitmix64(args.seed ^ splitmix64(i));
        let first = match entry.deal(seed).filter(|_| args.game.position.is_none()) {
            Some(text) => game.parse_position(&text)?,
            None => start.clone(),
        };
        let mut line = Line::new(game, first);
        let mut dice = Pcg::from_seed(seed);
        let seat = |k: u64| Seat::new(game, Some(evaluator), &Contender::Engine(2), None, 1, seed ^ k);
        let mut seats = [seat(1)?, seat(2)?];
        let mut decisions = Vec::new();
        play_out(game, &mut line, &mut seats, &mut dice, |state| decisions.push(state.clone()))?;
        if decisions.is_empty() {
            bail!("the games from {} end before any decision: nothing to search", entry.title());
        }
        positions.push(decisions.swap_remove(dice.below(decisions.len())));
    }
    Ok(positions)
}
