//! Star pruning: Ballard's Star1 and Star2 at chance nodes, the chance arm of the search loop under
//! [`crate::Algorithm::Star1`] and [`crate::Algorithm::Star2`], recursing into the loop.

use super::searcher::{Ply, Searcher};
use crate::cache::{Bound, Cache};
use crate::horizon::UNLIMITED;
use crate::orderer::Orderer;
use crate::trace::Observer;
use khela_games::{Game, Node, Player, Value};

impl<G: Game, O: Orderer<G>, C: Cache<G>, V: Observer<G>> Searcher<'_, G, O, C, V> {
    /// Star2's probe of a chance node's `outcome` whose range is `(lower, upper)`: if the outcome leads to a
    /// decision node, its first move (in search order) is searched, which bounds the node from its mover's
    /// side: from below if the mover maximises `viewer`'s value, from above if not. `window` is the outcome's
    /// (a, b): values at most `a` or at least `b` would settle the chance node. `below` are the plies below the
    /// chance node's. Returns the tightened range.
    #[allow(clippy::too_many_arguments)]
    fn star_probe<const NEGAMAX: bool, const SCOUT: bool>(
        &mut self,
        game: &G,
        below: &mut [Ply<G>],
        state: &G::State,
        outcome: G::Move,
        ply: usize,
        depth: u32,
        viewer: Player,
        (a, b): (Value, Value),
        (lower, upper): (Value, Value),
    ) -> (Value, Value) {
        let child = game.child(state, outcome);
        let Node::Decision(player) = game.node(&child) else { return (lower, upper) };
        // A probe bounds the node from one side only, and is worth its cost only if that bound could settle the
        // chance node: a value at most `a` for a node that minimises (the viewer's opponent's), at least `b` for
        // one that maximises.
        let maximises = player == viewer;
        let Some((next, deeper)) = below.split_first_mut() else {
            let (window, range) = ((a, b), (lower, upper));
            return self.with_spare_plies(ply + 1, |this, plies| {
                this.star_probe::<NEGAMAX, SCOUT>(game, plies, state, outcome, ply, depth, viewer, window, range)
            });
        };
        if (maximises && b >= upper) || (!maximises && a <= lower) {
            return (lower, upper);
        }
        let moves = &mut next.moves;
        game.moves(&child, moves);
        if self.order.reorders() {
            self.order.order(game, &child, player, ply + 1, moves);
        }
        let first = moves[0];
        self.track.stats.nodes += 1; // The decision node, whose moves were listed.
        let grandchild = game.child(&child, first);
        let kind = game.node(&grandchild);
        let depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let mut search = |this: &mut Self, lo, hi| {
            this.search::<true, NEGAMAX, SCOUT, false>(game, deeper, &grandchild, kind, ply + 2, depth, viewer, lo, hi)
        };
        // In `viewer`'s view the node maximises if its mover is the viewer (MAX, unless negamax).
        if maximises {
            let hi = b.min(upper);
            if lower < hi {
                let g = search(self, lower, hi);
                // Not a fail-low: the first move is worth at least g, so the node too.
                if g > lower {
                    return (g.min(upper), upper);
                }
            }
        } else {
            let lo = a.max(lower);
            if lo < upper {
                let g = search(self, lo, upper);
                if g < upper {
                    return (lower, g.max(lower));
                }
            }
        }
        (lower, upper)
    }

    /// A chance node under star pruning (Ballard's Star1, and Star2's probing phase first), with the window
    /// (`alpha`, `beta`) in `viewer`'s view; the fail-soft contract of [`Searcher::search`] holds. The node is
    /// `state` with its `outcomes`; `range` is its ply's buffer for the outcomes' bounds, `below` the plies below.
    ///
    /// Every outcome's value lies in [lower, upper], at first the searcher's bounds. After the outcomes before
    /// `i` are searched, the node's value lies in [Σ p·lower, Σ p·upper]; it is cut when that range is all below
    /// α or all above β. Outcome `i` is searched with the window that decides this: values at most `a` make the
    /// node fail low, at least `b` fail high. A search that fails without the node cutting (rounding can do
    /// that at the window's edge) is repeated with the outcome's full range, so the value is always right; and
    /// a node that is not cut sums p·value in the same order as expectiminimax, so the values are identical.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn star_chance<const NEGAMAX: bool, const SCOUT: bool>(
        &mut self,
        game: &G,
        below: &mut [Ply<G>],
        state: &G::State,
        outcomes: &[(G::Move, f64)],
        range: &mut Vec<(Value, Value)>,
        ply: usize,
        depth: u32,
        viewer: Player,
        alpha: Value,
        beta: Value,
    ) -> (Value, Bound) {
        let star = self.track.star.expect("star pruning is on");
        let (lo, hi) = star.bounds;
        let (lo, hi) = if viewer == Player::Max { (lo, hi) } else { (-hi, -lo) };
        range.clear();
        range.resize(outcomes.len(), (lo, hi));
        let search = |this: &mut Self, below: &mut [Ply<G>], outcome: G::Move, lo: Value, hi: Value| {
            let child = game.child(state, outcome);
            let kind = game.node(&child);
            this.search::<true, NEGAMAX, SCOUT, false>(game, below, &child, kind, ply + 1, depth, viewer, lo, hi)
        };
        // The range of the node from the outcomes from `i` on: Σ p·lower and Σ p·upper.
        let rest = |range: &[(Value, Value)], i: usize| {
            outcomes[i..].iter().zip(&range[i..]).fold((0.0, 0.0), |(l, u), (&(_, p), &(a, b))| (l + p * a, u + p * b))
        };
        let result = 'node: {
            if star.probe && depth > 0 {
                for (i, &(outcome, p)) in outcomes.iter().enumerate() {
                    if p <= 0.0 {
                        continue;
                    }
                    // The window that decides the node, the other outcomes at their current bounds.
                    let (l, u) = rest(range, 0);
                    let (lower, upper) = range[i];
                    let window = ((alpha - (u - p * upper)) / p, (beta - (l - p * lower)) / p);
                    range[i] = self.star_probe::<NEGAMAX, SCOUT>(
                        game, below, state, outcome, ply, depth, viewer, window, range[i],
                    );
                    let (l, u) = rest(range, 0);
                    if u <= alpha {
                        break 'node (u, Bound::Upper, true);
                    }
                    if l >= beta {
                        break 'node (l, Bound::Lower, true);
                    }
                }
            }
            let (mut sum_lo, mut sum_hi) = (0.0, 0.0);
            for (i, &(outcome, p)) in outcomes.iter().enumerate() {
                let (lower, upper) = range[i];
                let (rest_lo, rest_hi) = rest(range, i + 1);
                if sum_hi + p * upper + rest_hi <= alpha {
                    break 'node (sum_hi + p * upper + rest_hi, Bound::Upper, true);
                }
                if sum_lo + p * lower + rest_lo >= beta {
                    break 'node (sum_lo + p * lower + rest_lo, Bound::Lower, true);
                }
                // The window that decides the node, within what the outcome can be.
                let (a, b) = if p > 0.0 {
                    ((alpha - sum_hi - rest_hi) / p, (beta - sum_lo - rest_lo) / p)
                } else {
                    (Value::NEG_INFINITY, Value::INFINITY)
                };
                // Rounding may put a computed edge an ulp on the wrong side; widen it until the node's test below
                // is certain to settle the node for any value beyond it (the test is monotone in the value).
                let (mut a, mut b) = (a, b);
                for _ in 0..64 {
                    let low_settles = sum_hi + p * a + rest_hi <= alpha;
                    let high_settles = sum_lo + p * b + rest_lo >= beta;
                    if low_settles && high_settles {
                        break;
                    }
                    a = if low_settles { a } else { a.next_down() };
                    b = if high_settles { b } else { b.next_up() };
                }
                let (wa, wb) = (a.max(lower), b.min(upper));
                let v = if wa < wb {
                    search(self, below, outcome, wa, wb)
                } else {
                    search(self, below, outcome, lower, upper)
                };
                // A fail-soft result beyond an edge of the window is a bound, unless that edge is the outcome's own
                // bound: nothing lies beyond it, so the result is the value (a mean may round an ulp past it).
                let (mut l, mut u) = if v <= wa && wa > lower {
                    (lower, v.min(upper))
                } else if v >= wb && wb < upper {
                    (v.max(lower), upper)
                } else {
                    (v, v)
                };
                if l != u {
                    if sum_hi + p * u + rest_hi <= alpha {
                        break 'node (sum_hi + p * u + rest_hi, Bound::Upper, i + 1 < outcomes.len());
                    }
                    if sum_lo + p * l + rest_lo >= beta {
                        break 'node (sum_lo + p * l + rest_lo, Bound::Lower, i + 1 < outcomes.len());
                    }
                    let exact = search(self, below, outcome, Value::NEG_INFINITY, Value::INFINITY);
                    (l, u) = (exact, exact);
                }
                sum_lo += p * l;
                sum_hi += p * u;
            }
            (sum_lo, Bound::Exact, false)
        };
        let (value, bound, pruned) = result;
        self.track.stats.cutoffs += u64::from(pruned);
        (value, bound)
    }
}
