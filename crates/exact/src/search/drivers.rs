//! The drivers: how a search starts at the root, and the algorithms that run the loop more than once — MTD(f)
//! and iterative deepening.

use super::searcher::Searcher;
use crate::cache::{COMPLETE, Cache};
use crate::order::Orderer;
use crate::trace::Observer;
use khela_games::{Game, Node, Player, Value};

impl<G: Game, O: Orderer<G>, C: Cache<G>, V: Observer<G>> Searcher<'_, G, O, C, V> {
    /// Searches the root with a window given, like the result, in MAX's view.
    pub(super) fn root<const PRUNE: bool, const NEGAMAX: bool, const SCOUT: bool>(
        &mut self,
        state: &G::State,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Value {
        // The negamax value is from the view of the side to move at the root (MAX at a chance root).
        let viewer = match self.game.node(state) {
            Node::Decision(player) if NEGAMAX => player,
            _ => Player::Max,
        };
        let (a, b) = if viewer == Player::Max { (alpha, beta) } else { (-beta, -alpha) };
        let kind = self.game.node(state);
        viewer.view(self.search::<PRUNE, NEGAMAX, SCOUT>(self.game, state, kind, 0, depth, viewer, a, b))
    }

    /// MTD(f): null-window searches around the current guess `g`, each one a fail-soft bound that tightens
    /// `lower` or `upper`, until they meet.
    pub(super) fn mtdf(&mut self, state: &G::State, depth: u32) -> Value {
        let mut g = match self.game.node(state) {
            Node::Terminal(_) => {
                return self.root::<true, false, false>(state, depth, Value::NEG_INFINITY, Value::INFINITY);
            }
            _ => self.horizon.evaluate.map_or(0.0, |evaluate| evaluate(self.game, state)),
        };
        let (mut lower, mut upper) = (Value::NEG_INFINITY, Value::INFINITY);
        // A root move is proven good by a pass that fails the mover's way: high for MAX (the move reaches at
        // least g, and the lower bound only rises from here), low for MIN.
        let max_to_move = self.game.node(state) == Node::Decision(Player::Max);
        let mut best = None;
        while lower < upper {
            let beta = if g == lower { g.next_up() } else { g };
            g = self.root::<true, false, false>(state, depth, beta.next_down(), beta);
            let failed_high = g >= beta;
            if failed_high {
                lower = g;
            } else {
                upper = g;
            }
            if failed_high == max_to_move {
                best = self.track.root_best;
            }
        }
        self.track.root_best = best.or(self.track.root_best);
        g
    }

    /// Iterative deepening alpha-beta: depth 1, 2, … up to `limit`, stopping early when an iteration meets no
    /// horizon, which makes it exact, proves a final win or loss ([`Searcher::with_final_proofs`]), or when the
    /// observer says so ([`Observer::deepened`]). Without
    /// an evaluator there is nothing to stop at, so it is plain alpha-beta to `limit`.
    pub(super) fn iterative_deepening(&mut self, state: &G::State, limit: u32) -> Value {
        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
        if self.horizon.evaluate.is_none() {
            return self.root::<true, false, false>(state, limit, lo, hi);
        }
        // Horizons stay below the depth that marks complete table entries; past them, search without one.
        for depth in 1..COMPLETE.min(limit) {
            let hits = self.track.horizon_hits;
            let value = self.root::<true, false, false>(state, depth, lo, hi);
            let stop = self.observer.deepened(depth, value, &self.track.stats).is_break();
            // A win proven through quiescence may be slower than one just past the horizon: not final.
            let proven =
                value.abs() > self.horizon.proof_bound && !self.track.met_chance && self.horizon.noisy.is_none();
            if self.track.horizon_hits == hits || proven || stop {
                return value;
            }
        }
        let value = self.root::<true, false, false>(state, limit, lo, hi);
        // The depth asked for is reached: nothing is left to stop.
        let _ = self.observer.deepened(limit, value, &self.track.stats);
        value
    }
}
