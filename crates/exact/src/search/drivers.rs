//! The drivers: how a search starts at the root, and the algorithms that run the loop more than once — MTD(f)
//! and iterative deepening.

use super::searcher::{Ply, SearchResult, Searcher};
use crate::cache::{COMPLETE, Cache};
use crate::horizon::UNLIMITED;
use crate::orderer::Orderer;
use crate::stats::Stats;
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
        // The plies are lent to the loop for the search, as one slice, and taken back.
        let mut plies = std::mem::take(&mut self.plies);
        if plies.len() < self.track.plies_wanted {
            plies.resize_with(self.track.plies_wanted, Ply::default);
        }
        let value = if C::SHARES {
            self.search::<PRUNE, NEGAMAX, SCOUT, true>(self.game, &mut plies, state, kind, 0, depth, viewer, a, b)
        } else {
            self.search::<PRUNE, NEGAMAX, SCOUT, false>(self.game, &mut plies, state, kind, 0, depth, viewer, a, b)
        };
        self.plies = plies;
        viewer.view(value)
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

    /// Null-window bisection of a value range: the value of `state`, known to lie in `lo..=hi` (whole numbers,
    /// MAX's view), by null-window negamax alpha-beta searches to the end of the game, each of which halves the
    /// range — the first ones probing nearer 0, where most values lie (Pons' Connect-4 solver). The cache, if
    /// any, carries what each pass learned to the next. A value outside the range comes back as the range's
    /// nearer end, so that `(-1, 1)` solves weakly: the sign of the value, for less work. The counters add up
    /// over the passes; the best move is one a pass proved to reach the value. Threads solving `state` together
    /// through a shared cache (see [`crate::Abdada`]) each run this, and go on from each pass with the value the
    /// cache says they agreed on; the best move is then one that this thread's own passes proved, if any.
    pub fn bisect(&mut self, state: &G::State, lo: Value, hi: Value) -> SearchResult<G::Move> {
        assert!(lo <= hi && lo.fract() == 0.0 && hi.fract() == 0.0, "bisection needs whole bounds lo ≤ hi: {lo}, {hi}");
        self.track.stats = Stats::default();
        self.track.star = None;
        // In the side to move's view, as negamax searches.
        let mover = match self.game.node(state) {
            Node::Decision(player) => player,
            _ => Player::Max,
        };
        let (mut lo, mut hi) = if mover == Player::Max { (lo, hi) } else { (-hi, -lo) };
        let mut best = None;
        while lo < hi {
            let mut med = lo + ((hi - lo) / 2.0).floor();
            if med <= 0.0 && (lo / 2.0).trunc() < med {
                med = (lo / 2.0).trunc();
            } else if med >= 0.0 && (hi / 2.0).trunc() > med {
                med = (hi / 2.0).trunc();
            }
            self.track.root_best = None;
            let (a, b) = if mover == Player::Max { (med, med + 1.0) } else { (-med - 1.0, -med) };
            let r = self.root::<true, true, false>(state, UNLIMITED, a, b);
            let (r, own) = self.cache.passed(r);
            let r = mover.view(r);
            if r <= med {
                hi = r.max(lo);
            } else {
                lo = r.min(hi);
                best = if own { self.track.root_best } else { None };
            }
        }
        SearchResult { value: mover.view(lo), best, stats: self.track.stats }
    }

    /// Iterative deepening alpha-beta: depth 1, 2, … up to `limit` (by the searcher's deepening step, ending on
    /// `limit`: by two to 6, depths 2, 4, 6), stopping early when an iteration meets no horizon, which makes it
    /// exact, proves a final win or loss ([`Searcher::with_final_proofs`]), or when the observer says so
    /// ([`Observer::deepened`]). Without an evaluator there is nothing to stop at, so it is plain alpha-beta to
    /// `limit`.
    pub(super) fn iterative_deepening(&mut self, state: &G::State, limit: u32) -> Value {
        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
        if self.horizon.evaluate.is_none() {
            return self.root::<true, false, false>(state, limit, lo, hi);
        }
        // The first depth has `limit`'s remainder by the step (the step itself where there is none), so that the
        // last iteration falls on `limit`. Horizons stay below the depth that marks complete table entries; past
        // them, search without one.
        let step = self.deepening_step.get();
        let first = match limit % step {
            0 => step,
            remainder => remainder,
        };
        for depth in (first..COMPLETE.min(limit)).step_by(step as usize) {
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
