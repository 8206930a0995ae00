//! The oracle: the exact value of every state below a root, computed once, for the oracle orderings.
//!
//! Best-first and worst-first ordering need what no real program has, each child's exact value. The oracle
//! computes them all up front with one plain (expecti)minimax search of the library's loop, keeping every
//! node's value in its cache, and hands them to [`crate::ByValue`] as a [`crate::Valuation`]; no search runs
//! inside an ordering, and its cost is never counted in a search's statistics.

use crate::algorithm::Algorithm;
use crate::cache::{Bound, Cache, Memo, Probe, Stored};
use crate::orderer::{Natural, Valuation};
use crate::search::Searcher;
use ahash::AHashMap;
use khela_games::{Game, Player, Value};
use std::sync::Arc;

/// The exact (expecti)minimax value, from MAX's view, of every state reachable from a root.
///
/// An oracle knows states by their keys only: it belongs to the game and root it was computed from. Given
/// another game whose keys coincide (two implicit trees of the same shape number their nodes alike), it would
/// order by the wrong values without noticing; a state it has no value for makes the ordering panic.
///
/// ```
/// use khela_exact::{Algorithm, MoveOrdering, Oracle, Searcher};
/// use khela_games::tictactoe::{Board, TicTacToe};
/// let oracle = Oracle::new(&TicTacToe, &Board::EMPTY).shared();
/// assert_eq!(oracle.len(), 5_478); // Every distinct state, by key.
/// let best_first = MoveOrdering::best_first(&oracle);
/// let result = Searcher::new(&TicTacToe, best_first).run(Algorithm::AlphaBeta, &Board::EMPTY);
/// assert_eq!((result.value, result.stats.nodes), (0.0, 2_312)); // The textbook's ordering table.
/// ```
#[derive(Clone, Debug)]
pub struct Oracle {
    values: Values,
}

/// How the oracle holds its values.
#[derive(Clone, Debug)]
enum Values {
    /// By [`Game::key`] in a hash map, for any game.
    Keyed(AHashMap<u64, Value>),
    /// Indexed by key in a flat array, for games whose keys number their states from 0 (NaN: no value).
    Dense(Vec<Value>),
}

impl Oracle {
    /// The values of every state reachable from `root`, keyed by [`Game::key`] (so the game's keys must not
    /// collide), solved by memoized (expecti)minimax: each distinct state is searched once.
    pub fn new<G: Game>(game: &G, root: &G::State) -> Oracle {
        let mut searcher = Searcher::new(game, Natural).with_cache(Memo::new());
        searcher.run(Algorithm::Minimax, root);
        Oracle { values: Values::Keyed(searcher.into_cache().into_values()) }
    }

    /// The same for a game whose keys number its states `0..states` (the implicit trees of the sweep), held in a
    /// flat array of 8 bytes per state.
    ///
    /// # Panics
    ///
    /// If a state reachable from `root` has a key of `states` or more.
    pub fn dense<G: Game>(game: &G, root: &G::State, states: usize) -> Oracle {
        let mut searcher = Searcher::new(game, Natural).with_cache(Dense(vec![Value::NAN; states]));
        searcher.run(Algorithm::Minimax, root);
        Oracle { values: Values::Dense(searcher.into_cache().0) }
    }

    /// The oracle behind an [`Arc`], as the oracle orderings share it (between the searches of one tree, on
    /// several threads).
    pub fn shared(self) -> Arc<Oracle> {
        Arc::new(self)
    }

    /// The exact value, MAX's view, of the state with this key, if it is reachable from the root.
    pub fn value(&self, key: u64) -> Option<Value> {
        match &self.values {
            Values::Keyed(map) => map.get(&key).copied(),
            Values::Dense(array) => array.get(key as usize).copied().filter(|v| !v.is_nan()),
        }
    }

    /// The number of states with a value.
    pub fn len(&self) -> usize {
        match &self.values {
            Values::Keyed(map) => map.len(),
            Values::Dense(array) => array.iter().filter(|v| !v.is_nan()).count(),
        }
    }

    /// Whether no state has a value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The oracle's exact values, as an ordering's valuation.
///
/// # Panics
///
/// If the ordering meets a state the oracle does not hold (one not reachable from the oracle's root).
impl<G: Game> Valuation<G> for Arc<Oracle> {
    #[inline]
    fn value(&self, game: &G, state: &G::State) -> Value {
        let key = game.key(state);
        Oracle::value(self, key).unwrap_or_else(|| panic!("the oracle holds no value for {state:?} (key {key})"))
    }
}

/// The cache that fills a dense oracle: exact values by key in a flat array, MAX's view.
struct Dense(Vec<Value>);

impl<G: Game> Cache<G> for Dense {
    #[inline]
    fn probe(&mut self, game: &G, state: &G::State, viewer: Player, _: u32, _: Value, _: Value) -> Probe<G::Move> {
        let value = self.0[game.key(state) as usize];
        if value.is_nan() { Probe::MISS } else { Probe { value: Some(viewer.view(value)), complete: true, best: None } }
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>) {
        if at.bound == Bound::Exact && at.complete {
            self.0[game.key(state) as usize] = at.viewer.view(at.value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use khela_games::implicit::{ImplicitTree, TreeModel};

    #[test]
    fn dense_and_keyed_oracles_agree() {
        let tree = ImplicitTree::hashed(3, 5, 11, TreeModel::Incremental { spread: 100 }).unwrap();
        let keyed = Oracle::new(&tree, &ImplicitTree::ROOT);
        let dense = Oracle::dense(&tree, &ImplicitTree::ROOT, tree.nodes() as usize);
        assert_eq!(keyed.len() as u64, tree.nodes());
        assert_eq!(dense.len() as u64, tree.nodes());
        for key in 0..tree.nodes() {
            assert_eq!(keyed.value(key), dense.value(key), "node {key}");
        }
        let root = Searcher::new(&tree, Natural).run(Algorithm::Minimax, &ImplicitTree::ROOT).value;
        assert_eq!(dense.value(0), Some(root));
        assert_eq!(dense.value(tree.nodes()), None);
    }
}
