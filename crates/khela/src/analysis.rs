//! The analysis of a position: every legal move's value, and where the values come from — exact search (the
//! game's own solver, alpha-beta or memoized expectiminimax), a depth-limited search with the game's evaluator,
//! Monte Carlo visits, or a trained network's search. One function for every game ([`analyse`]); the dynamic
//! face ([`crate::State::analyse`]) and the front ends call it.
//!
//! Values are from the first player's view (MAX's, khela's convention), on the scale of their source: the game's
//! payoffs for exact values, the evaluator's scale for a depth-limited search, and `2 × mean − 1` of the mover's
//! mean score (win 1, draw ½, loss 0) for Monte Carlo and a network's search, so that +1 is a certain win for
//! the first player under every source.
//!
//! An analysis may be given a deadline ([`Limit::until`]): a depth-limited search then deepens from the
//! shallowest depth, each depth's values kept, and answers with the deepest it completed before the deadline (it
//! starts no depth it does not expect to finish, but always the first); Monte Carlo and a network's search
//! answer with the iterations they ran by then, at least their first run's. [`Analysis::complete`] says whether the search did all it was asked. An exact search has no
//! value to give before it ends: one whose game foresees a time past the deadline ([`Entry::own_seconds`]:
//! Connect-4's first stones) is refused up front, and the limits on its size keep the others short.

use crate::net;
use crate::registry::{Entry, Exact, MoveValues};
use anyhow::{Result, bail};
use khela_exact::{Algorithm, Memo, Natural, SearchConfig, Searcher, move_values};
use khela_games::line::Line;
use khela_games::{Game, Node, Notation, Player, Value};
use khela_heuristic::Engine;
use khela_mcts::random::Pcg;
use khela_mcts::{MctsConfig, MoveStats, Search, Uct};
use khela_zero::player::Guided;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The largest bound on the positions below a position that an exact search by plain alpha-beta takes on
/// ([`crate::registry::Entry::positions_bound`]): tic-tac-toe's start is 3⁹ = 19,683, Dots and Boxes' 2 × 2
/// start 12! = 479,001,600 lines of play.
pub const MAX_EXACT_BOUND: f64 = 1e9;

/// The deepest depth-limited analysis.
pub const MAX_DEPTH: u32 = 12;

/// The most Monte Carlo iterations (or a network's simulations) of an analysis.
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// When an analysis stops short of what it was asked ([`analyse`]): at a deadline, when a flag is raised (a front
/// end's Ctrl-C), both, or never (the default).
#[derive(Clone, Debug, Default)]
pub struct Limit {
    /// The deadline: see the module's documentation.
    pub until: Option<Instant>,
    /// Raised from elsewhere to stop the search at its next look at the clock: Monte Carlo and a network's search
    /// then answer with the iterations done (their first run's at least); an exact search and a search to one
    /// depth run to their end.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limit {
    /// No deadline and no flag.
    pub const NONE: Limit = Limit { until: None, stop: None };

    /// Whether the search must stop now.
    pub fn reached(&self) -> bool {
        self.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed))
            || self.until.is_some_and(|until| Instant::now() >= until)
    }
}

/// How to value the moves of a position.
#[derive(Clone, Debug, PartialEq)]
pub enum Analyser {
    /// Exactly: the game's own solver, alpha-beta, or memoized expectiminimax, as the game's entry says.
    Exact,
    /// A depth-limited search to this depth (the move itself the first ply), the game's evaluator at the horizon.
    Depth(u32),
    /// Monte Carlo tree search (UCT) with this many iterations, seeded.
    Mcts {
        /// The iterations.
        iterations: u64,
        /// The seed of its random playouts.
        seed: u64,
    },
    /// A trained network's search (PUCT with the network's priors and values) with this many simulations.
    Net {
        /// The network's weights (`zero train`'s `net.safetensors`), its description beside them.
        path: PathBuf,
        /// The simulations.
        simulations: u32,
    },
}

/// Where a move's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// An exact search: the game's payoffs.
    Exact,
    /// A depth-limited search to this depth: the evaluator's scale.
    Depth(u32),
    /// Monte Carlo tree search: the mean score of the iterations through the move.
    MonteCarlo,
    /// A trained network's search: the mean value of the simulations through the move.
    Network,
}

/// One legal move's value.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// Its number: its place among the position's legal moves, in the game's order.
    pub index: usize,
    /// The move in the game's notation.
    pub text: String,
    /// Its value, the first player's view (see the module's documentation for the scale); `None` for a move a
    /// Monte Carlo search never tried.
    pub value: Option<Value>,
    /// The iterations (or simulations) through the move, for Monte Carlo and a network's search.
    pub visits: Option<u64>,
    /// For an exact value that is a win or a loss, the plies to the end under best play, the move itself the
    /// first, where the source knows them (Connect-4's scores, endgame tables).
    pub plies: Option<u32>,
}

/// Every legal move of a position valued.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Where the values come from.
    pub source: Source,
    /// The side to move.
    pub mover: Player,
    /// The moves, in the game's order.
    pub moves: Vec<MoveValue>,
    /// Whether the search did all it was asked: false when the deadline cut it short (a shallower depth, fewer
    /// iterations), as [`Analysis::source`] and the visits say.
    pub complete: bool,
}

impl Analysis {
    /// The numbers of the best moves for the side to move: the highest value from its view (for Monte Carlo and
    /// a network, the most visited); of exact wins, the quickest, and of exact losses, the slowest, a win or a
    /// loss whose plies to the end are not known counted as longer than any known.
    pub fn best(&self) -> Vec<usize> {
        let key = |m: &MoveValue| match self.source {
            Source::MonteCarlo | Source::Network => m.visits.map(|v| (v as f64, 0.0)),
            Source::Exact | Source::Depth(_) => m.value.map(|v| {
                let view = self.mover.view(v);
                let plies = m.plies.map_or(f64::MAX, f64::from);
                (view, if view > 0.0 { -plies } else { plies })
            }),
        };
        let top = self.moves.iter().filter_map(key).fold(None, |top: Option<(f64, f64)>, k| match top {
            Some(top) if top >= k => Some(top),
            _ => Some(k),
        });
        self.moves.iter().filter(|m| key(m).is_some() && key(m) == top).map(|m| m.index).collect()
    }
}

/// Every legal move of the position at the end of `line` valued as `analyser` says, with the best found when
/// `limit` is reached if it comes first (see the module's documentation and [`Limit`]); `name` is the game's name,
/// as a network's description gives it.
///
/// # Errors
///
/// A position that is not a decision node; an analyser the game cannot serve (no evaluator, no exact solver, no
/// network) or a request too large (a depth or budget beyond the limits, an exact search of too many positions).
pub fn analyse<E: Entry>(
    entry: &E,
    name: &str,
    line: &Line<E::Game>,
    analyser: &Analyser,
    limit: &Limit,
) -> Result<Analysis> {
    let game = entry.game();
    let state = line.state();
    if line.end(game).is_some() {
        bail!("the game is over: there is no move to analyse");
    }
    let Node::Decision(mover) = game.node(state) else {
        bail!("the position is a chance node: nature moves, and there is no move to analyse");
    };
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    let (source, values, complete): (Source, Vec<Valued>, bool) = match analyser {
        Analyser::Exact => {
            let values = exact(entry, line, limit.until)?;
            let value = |mv| values.iter().find(|&&(m, _)| m == mv).map(|&(_, v)| v);
            (Source::Exact, moves.iter().map(|&mv| (value(mv), None)).collect(), true)
        }
        &Analyser::Depth(depth) => {
            if !(1..=MAX_DEPTH).contains(&depth) {
                bail!("an analysis to depth {depth}: the depth is from 1 to {MAX_DEPTH}");
            }
            let Some(scale) = entry.scale() else {
                bail!("{} has no evaluator: analyse it exactly or by Monte Carlo", entry.title());
            };
            let (reached, values) = deepened(depth, limit.until, |depth| {
                let mut engine = Engine::new(game, &scale.evaluator, SearchConfig::depth_limited(depth));
                engine.set_history(line.history().to_vec());
                engine.analyse(state).into_iter().map(|m| m.value).collect()
            });
            let values = values.into_iter().map(|value| (Some(value), None)).collect();
            (Source::Depth(reached), values, reached == depth)
        }
        &Analyser::Mcts { iterations, seed } => {
            check_budget(iterations)?;
            let config = MctsConfig { seed, ..MctsConfig::default() };
            let mut search: Search<'_, E::Game, Uct, Pcg> =
                Search::new(game, state.clone(), Uct::default(), config).with_history(line.history().to_vec());
            let complete = run_within(&mut search, iterations, limit);
            (Source::MonteCarlo, visited(&moves, &search.stats(), mover), complete)
        }
        Analyser::Net { path, simulations } => {
            check_budget(u64::from(*simulations))?;
            let guide = net::guide(entry, name, path, "an analysis by a network")?;
            let guided =
                Guided { simulations: *simulations, until: limit.until, stop: limit.stop.clone(), ..Guided::default() };
            let outcome = guide.search(state, line.history(), &guided, 0);
            let complete = outcome.summary.iterations == u64::from(*simulations) || !limit.reached();
            (Source::Network, visited(&moves, &outcome.stats, mover), complete)
        }
    };
    let moves = moves
        .iter()
        .zip(values)
        .enumerate()
        .map(|(index, (&mv, (value, visits)))| {
            let plies = match (source, value) {
                (Source::Exact, Some(value)) => entry.exact_plies(state, value),
                _ => None,
            };
            MoveValue { index, text: game.write_move(mv), value, visits, plies }
        })
        .collect();
    Ok(Analysis { source, mover, moves, complete })
}

/// The plies from one depth to the next of an analysis with a deadline: two, so that every depth ends on the
/// same side's move as the depth asked for (a search that ends on the mover's ply judges differently from one
/// that ends on the reply's).
const DEEPENING_STEP: u32 = 2;

/// Monte Carlo iterations run between two looks at the clock: a few milliseconds' work.
pub(crate) const ITERATIONS_BETWEEN_CLOCKS: u64 = 1_024;

/// Runs `iterations` of `search` within `limit`: in runs between two looks at the clock, the first whatever the
/// clock says (as the deepening's first depth is), so that a deadline passed before the search began still
/// answers; a run short of its count found the root's value proven. Whether it ran them all (or proved the root).
pub(crate) fn run_within<G: Game, P: khela_mcts::Policy<G>>(
    search: &mut Search<'_, G, P, Pcg>,
    iterations: u64,
    limit: &Limit,
) -> bool {
    let mut left = iterations;
    while left > 0 {
        let run = left.min(ITERATIONS_BETWEEN_CLOCKS);
        let ran = search.run(run).iterations;
        left = if ran < run { 0 } else { left - run };
        if left > 0 && limit.reached() {
            return false;
        }
    }
    true
}

/// The values `search` gives to `depth`, or with a deadline, those of the deepest depth (by the evaluator's
/// deepening step, ending on `depth`) searched before `until`: a depth is begun only if the time the last one
/// took, times the growth from the one before it (at least 2), leaves it time to end. Each depth is a search of
/// its own, so that its values are those of an analysis to that depth. The depth reached and its values.
fn deepened(depth: u32, until: Option<Instant>, mut search: impl FnMut(u32) -> Vec<Value>) -> (u32, Vec<Value>) {
    let Some(until) = until else { return (depth, search(depth)) };
    let mut depths: Vec<u32> = (0..).map_while(|k| depth.checked_sub(k * DEEPENING_STEP)).filter(|&d| d >= 1).collect();
    depths.reverse();
    let (mut reached, mut kept, mut last, mut growth) = (0, Vec::new(), None, 2.0_f64);
    for d in depths {
        let started = Instant::now();
        if let Some(took) = last
            && started + Duration::from_secs_f64(f64::min(took * growth, 1e6)) > until
        {
            break;
        }
        kept = search(d);
        reached = d;
        let took = started.elapsed().as_secs_f64();
        if let Some(before) = last.filter(|&before: &f64| before > 0.0) {
            growth = f64::max(2.0, took / before);
        }
        last = Some(took);
    }
    (reached, kept)
}

/// `seconds` rounded for a person: `0.4 s`, `12 s`, `11 min`.
fn about_seconds(seconds: f64) -> String {
    match seconds {
        s if s < 10.0 => format!("{s:.1} s"),
        s if s < 120.0 => format!("{s:.0} s"),
        s => format!("{:.0} min", s / 60.0),
    }
}

/// A move's value, if it has one, and its visits, for the searches that count them.
type Valued = (Option<Value>, Option<u64>);

/// Refuses a Monte Carlo budget of none or beyond [`MAX_ITERATIONS`].
fn check_budget(iterations: u64) -> Result<()> {
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        bail!("an analysis of {iterations} iterations: give from 1 to {MAX_ITERATIONS}");
    }
    Ok(())
}

/// Each of `moves`' value (`2 × mean − 1` of the mover's mean score, the first player's view) and visits.
fn visited<M: PartialEq>(moves: &[M], stats: &[MoveStats<M>], mover: Player) -> Vec<Valued> {
    moves
        .iter()
        .map(|mv| {
            let s = stats.iter().find(|s| s.mv == *mv);
            let visits = s.map_or(0, |s| s.visits);
            let value = s.filter(|s| s.visits > 0).map(|s| mover.view(2.0 * s.wins / s.visits as f64 - 1.0));
            (value, Some(visits))
        })
        .collect()
}

/// Every move's exact value at the end of `line`, the first player's view; refused up front if the game's
/// solver foresees a time past `until`.
fn exact<E: Entry>(entry: &E, line: &Line<E::Game>, until: Option<Instant>) -> Result<MoveValues<E::Game>> {
    let (game, state) = (entry.game(), line.state());
    Ok(match entry.exact() {
        Exact::Refused(why) => bail!("{} is not analysed exactly: {why}", entry.title()),
        Exact::Own(_) => {
            if let (Some(until), Some(seconds)) = (until, entry.own_seconds(state))
                && Instant::now() + Duration::from_secs_f64(seconds.min(1e9)) > until
            {
                let left = until.saturating_duration_since(Instant::now()).as_secs_f64();
                bail!(
                    "{}: an exact analysis of this position takes about {} on one core, more than the {left:.1} s \
                     it has; analyse it to a depth or by Monte Carlo, or play on",
                    entry.title(),
                    about_seconds(seconds)
                )
            }
            match entry.own_values(state) {
                Some(values) => values?,
                None => bail!("{}'s exact values come from its own solver, not an analysis: solve it", entry.title()),
            }
        }
        Exact::MoveValues => {
            let bound = entry.positions_bound(state);
            if bound > MAX_EXACT_BOUND {
                bail!(
                    "{}: up to {bound:.1e} positions below this one to search exactly, over the limit of \
                     {MAX_EXACT_BOUND:.0e}; analyse it to a depth or by Monte Carlo",
                    entry.title()
                );
            }
            move_values(game, state, Algorithm::AlphaBeta)
        }
        Exact::Memoized(limit) => {
            let bound = entry.positions_bound(state);
            if bound > limit as f64 {
                bail!(
                    "{}: up to {bound:.1e} positions below this one to value exactly, over the limit of {limit}; \
                     analyse it to a depth or by Monte Carlo",
                    entry.title()
                );
            }
            let mut searcher = Searcher::new(game, Natural).with_cache(Memo::new());
            let mut moves = Vec::new();
            game.moves(state, &mut moves);
            moves.into_iter().map(|mv| (mv, searcher.run(Algorithm::Minimax, &game.child(state, mv)).value)).collect()
        }
    })
}
