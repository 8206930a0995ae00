//! The analysis of a position: every legal move's value, and where the values come from — exact search (the
//! game's own solver, alpha-beta or memoized expectiminimax), a depth-limited search with the game's evaluator,
//! Monte Carlo visits, or a trained network's search. One function for every game ([`analyse`]); the dynamic
//! face ([`crate::State::analyse`]) and the front ends call it.
//!
//! Values are from the first player's view (MAX's, khela's convention), on the scale of their source: the game's
//! payoffs for exact values, the evaluator's scale for a depth-limited search, and `2 × mean − 1` of the mover's
//! mean score (win 1, draw ½, loss 0) for Monte Carlo and a network's search, so that +1 is a certain win for
//! the first player under every source.

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

/// The largest bound on the positions below a position that an exact search by plain alpha-beta takes on
/// ([`crate::registry::Entry::positions_bound`]): tic-tac-toe's start is 3⁹ = 19,683, Dots and Boxes' 2 × 2
/// start 12! = 479,001,600 lines of play.
pub const MAX_EXACT_BOUND: f64 = 1e9;

/// The deepest depth-limited analysis.
pub const MAX_DEPTH: u32 = 12;

/// The most Monte Carlo iterations (or a network's simulations) of an analysis.
pub const MAX_ITERATIONS: u64 = 10_000_000;

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
}

impl Analysis {
    /// The numbers of the best moves for the side to move: the highest value from its view (for Monte Carlo and
    /// a network, the most visited).
    pub fn best(&self) -> Vec<usize> {
        let key = |m: &MoveValue| match self.source {
            Source::MonteCarlo | Source::Network => m.visits.map(|v| v as f64),
            Source::Exact | Source::Depth(_) => m.value.map(|v| self.mover.view(v)),
        };
        let top = self.moves.iter().filter_map(key).fold(f64::NEG_INFINITY, f64::max);
        self.moves.iter().filter(|m| key(m) == Some(top)).map(|m| m.index).collect()
    }
}

/// Every legal move of the position at the end of `line` valued as `analyser` says; `name` is the game's name,
/// as a network's description gives it.
///
/// # Errors
///
/// A position that is not a decision node; an analyser the game cannot serve (no evaluator, no exact solver, no
/// network) or a request too large (a depth or budget beyond the limits, an exact search of too many positions).
pub fn analyse<E: Entry>(entry: &E, name: &str, line: &Line<E::Game>, analyser: &Analyser) -> Result<Analysis> {
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
    let (source, values): (Source, Vec<Valued>) = match analyser {
        Analyser::Exact => {
            let values = exact(entry, line)?;
            let value = |mv| values.iter().find(|&&(m, _)| m == mv).map(|&(_, v)| v);
            (Source::Exact, moves.iter().map(|&mv| (value(mv), None)).collect())
        }
        &Analyser::Depth(depth) => {
            if !(1..=MAX_DEPTH).contains(&depth) {
                bail!("an analysis to depth {depth}: the depth is from 1 to {MAX_DEPTH}");
            }
            let Some(scale) = entry.scale() else {
                bail!("{} has no evaluator: analyse it exactly or by Monte Carlo", entry.title());
            };
            let mut engine = Engine::new(game, &scale.evaluator, SearchConfig::depth_limited(depth));
            engine.set_history(line.history().to_vec());
            (Source::Depth(depth), engine.analyse(state).into_iter().map(|m| (Some(m.value), None)).collect())
        }
        &Analyser::Mcts { iterations, seed } => {
            check_budget(iterations)?;
            let config = MctsConfig { seed, ..MctsConfig::default() };
            let mut search: Search<'_, E::Game, Uct, Pcg> =
                Search::new(game, state.clone(), Uct::default(), config).with_history(line.history().to_vec());
            search.run(iterations);
            (Source::MonteCarlo, visited(&moves, &search.stats(), mover))
        }
        Analyser::Net { path, simulations } => {
            check_budget(u64::from(*simulations))?;
            let guide = net::guide(entry, name, path, "an analysis by a network")?;
            let guided = Guided { simulations: *simulations, ..Guided::default() };
            let outcome = guide.search(state, line.history(), &guided, 0);
            (Source::Network, visited(&moves, &outcome.stats, mover))
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
    Ok(Analysis { source, mover, moves })
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

/// Every move's exact value at the end of `line`, the first player's view.
fn exact<E: Entry>(entry: &E, line: &Line<E::Game>) -> Result<MoveValues<E::Game>> {
    let (game, state) = (entry.game(), line.state());
    Ok(match entry.exact() {
        Exact::Refused(why) => bail!("{} is not analysed exactly: {why}", entry.title()),
        Exact::Own(_) => match entry.own_values(state) {
            Some(values) => values?,
            None => bail!("{}'s exact values come from its own solver, not an analysis: solve it", entry.title()),
        },
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
