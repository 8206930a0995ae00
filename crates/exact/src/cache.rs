//! Caches of solved states, plugged into the search loop.

use ahash::AHashMap;
use khela_games::{Game, Value};

/// What a returned value says about the true value of a node (in the same view as the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The search failed high (a cutoff): the true value is at least the value.
    Lower,
    /// The search failed low: the true value is at most the value.
    Upper,
}

impl Bound {
    /// The bound of a decision node's value `value` searched with the window (`alpha`, `beta`): a value at or
    /// below `alpha` is only an upper bound, one at or above `beta` only a lower bound.
    #[inline]
    pub fn of(value: Value, alpha: Value, beta: Value) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// The same bound seen from the other player (a lower bound becomes an upper bound).
    #[inline]
    pub fn flip(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

/// A cache of solved states consulted by the search loop before it expands a node.
///
/// Values and windows are in the view the search works in: MAX's for minimax and alpha-beta, the side to move's
/// for the negamax algorithms. So a cache belongs to one searcher, and the key it uses must determine the value
/// in that view.
pub trait Cache<G: Game> {
    /// A value the search may return for `state` searched with the window (`alpha`, `beta`) without expanding
    /// it, or `None`.
    fn probe(&mut self, game: &G, state: &G::State, alpha: Value, beta: Value) -> Option<Value>;

    /// Records the result of searching `state`.
    fn store(&mut self, game: &G, state: &G::State, value: Value, bound: Bound, best: Option<G::Move>);
}

/// No cache: the plain search.
impl<G: Game> Cache<G> for () {
    #[inline(always)]
    fn probe(&mut self, _: &G, _: &G::State, _: Value, _: Value) -> Option<Value> {
        None
    }

    #[inline(always)]
    fn store(&mut self, _: &G, _: &G::State, _: Value, _: Bound, _: Option<G::Move>) {}
}

/// The memo of memoized minimax: exact values by key, in an unbounded hash map.
///
/// It stores exact values only, so it is sound under pruning too: a cut-off node's bound is never taken for
/// its value.
pub struct Memo<G: Game> {
    values: AHashMap<u64, Value>,
    key: fn(&G, &G::State) -> u64,
}

impl<G: Game> Memo<G> {
    /// A memo keyed by [`Game::key`].
    pub fn new() -> Memo<G> {
        Memo::with_key(|game, state| game.key(state))
    }

    /// A memo keyed by `key`, which may merge states whose values (in the searcher's view) are equal, such as
    /// [`khela_games::nim::Nim::impartial_key`] under negamax.
    pub fn with_key(key: fn(&G, &G::State) -> u64) -> Memo<G> {
        Memo { values: AHashMap::new(), key }
    }

    /// The number of distinct states solved.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing has been solved yet.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl<G: Game> Default for Memo<G> {
    fn default() -> Self {
        Memo::new()
    }
}

impl<G: Game> Cache<G> for Memo<G> {
    #[inline]
    fn probe(&mut self, game: &G, state: &G::State, _: Value, _: Value) -> Option<Value> {
        self.values.get(&(self.key)(game, state)).copied()
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, value: Value, bound: Bound, _: Option<G::Move>) {
        if bound == Bound::Exact {
            self.values.insert((self.key)(game, state), value);
        }
    }
}
