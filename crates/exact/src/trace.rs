//! Observers of the search loop, and the textbook trace.

use crate::cache::Bound;
use crate::stats::Stats;
use khela_games::{Game, Value};
use std::ops::ControlFlow;

/// Watches a search. The default methods do nothing, and `()` watches nothing at no cost.
pub trait Observer<G: Game> {
    /// Whether the observer watches nodes ([`Observer::backed_up`], [`Observer::pruned`]): `()` and observers of
    /// iterations only say no, which lets the search value leaves in place and skip what only a node's watcher
    /// needs.
    const ACTIVE: bool = true;

    /// An iteration of iterative deepening to `depth` decision plies is done, with `value` (MAX's view) and the
    /// counters of the search so far: what a progress report shows. [`ControlFlow::Break`] stops the deepening
    /// there, and the search returns this iteration's value (a time control); the last iteration, to the depth
    /// asked for, is reported too, and goes on regardless.
    fn deepened(&mut self, depth: u32, value: Value, stats: &Stats) -> ControlFlow<()> {
        let _ = (depth, value, stats);
        ControlFlow::Continue(())
    }

    /// A node's value has been backed up (children are reported before their parent). `value` is from MAX's
    /// view; `bound` says whether it is exact or, after a cutoff, a bound on the true value.
    fn backed_up(&mut self, game: &G, state: &G::State, value: Value, bound: Bound) {
        let _ = (game, state, value, bound);
    }

    /// The search of `state` cut off: the children reached by `moves` are pruned.
    fn pruned(&mut self, game: &G, state: &G::State, moves: &[G::Move]) {
        let _ = (game, state, moves);
    }
}

impl<G: Game> Observer<G> for () {
    const ACTIVE: bool = false;
}

/// One event of a [`Trace`].
#[derive(Clone, Debug, PartialEq)]
pub enum TraceEvent<S, M> {
    /// A node's value was backed up.
    Backed {
        /// The node.
        state: S,
        /// Its value, from MAX's view.
        value: Value,
        /// Whether the value is exact or a bound.
        bound: Bound,
    },
    /// Children were pruned.
    Pruned {
        /// The node that cut off.
        state: S,
        /// The moves to the pruned children.
        moves: Vec<M>,
    },
}

/// Records every event, in order: the textbook's trace of backing up, with the prunings.
pub struct Trace<G: Game> {
    /// The events, children before parents.
    pub events: Vec<TraceEvent<G::State, G::Move>>,
}

impl<G: Game> Default for Trace<G> {
    fn default() -> Self {
        Trace { events: Vec::new() }
    }
}

impl<G: Game> Observer<G> for Trace<G> {
    fn backed_up(&mut self, _: &G, state: &G::State, value: Value, bound: Bound) {
        self.events.push(TraceEvent::Backed { state: state.clone(), value, bound });
    }

    fn pruned(&mut self, _: &G, state: &G::State, moves: &[G::Move]) {
        self.events.push(TraceEvent::Pruned { state: state.clone(), moves: moves.to_vec() });
    }
}
