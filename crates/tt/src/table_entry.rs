//! What a table stores about a searched node, and the one rule that says when a stored value may be used.

/// A node's value, in one view for the whole table: the table knows no players and never converts a value.
/// (khela-exact's searches convert to MAX's view before they store, so one table serves every algorithm.)
pub type Value = f64;

/// What a stored value says about the true value of a node (in the same view as the value). Named `exact`,
/// `lower` and `upper` ([`std::fmt::Display`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The search failed high (a cutoff): the true value is at least the value.
    Lower,
    /// The search failed low: the true value is at most the value.
    Upper,
}

impl Bound {
    /// The bound of a value `value` returned by a search with the window (`alpha`, `beta`): a value at or below
    /// `alpha` is only an upper bound, one at or above `beta` only a lower bound, one strictly inside is exact.
    ///
    /// # Examples
    ///
    /// ```
    /// use khela_tt::Bound;
    ///
    /// assert_eq!(Bound::of(-1.0, -1.0, 1.0), Bound::Upper);
    /// assert_eq!(Bound::of(0.0, -1.0, 1.0), Bound::Exact);
    /// assert_eq!(Bound::of(1.0, -1.0, 1.0), Bound::Lower);
    /// ```
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

    /// The same bound seen from the other player, whose values are the negations: a lower bound becomes an upper
    /// bound and the reverse; an exact value stays exact.
    #[inline]
    pub fn flip(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

/// What a table stores about one node: the value found, the kind of bound it is, the depth searched and the best
/// move found (if any).
///
/// The fields are private on purpose. The value comes out only through [`TableEntry::cutoff`], the one place that
/// decides when a stored value may stand in for a search, so a searcher cannot take a cut-off node's bound for
/// its exact value by mistake. The other fields have getters; the best move is meant for move ordering, which is
/// always sound.
///
/// # Examples
///
/// ```
/// use khela_tt::{Bound, TableEntry};
///
/// // A fail-high at depth 4: the true value is at least 3.
/// let entry = TableEntry::new(3.0, Bound::Lower, 4, Some(2u8));
/// assert_eq!(entry.cutoff(4, -10.0, 2.0), Some(3.0)); // 3 >= beta: a cutoff.
/// assert_eq!(entry.cutoff(4, -10.0, 5.0), None); // The bound says nothing about a window above it.
/// assert_eq!(entry.cutoff(5, -10.0, 2.0), None); // Not searched deep enough.
/// assert_eq!(entry.best(), Some(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableEntry<M> {
    value: Value,
    bound: Bound,
    depth: u32,
    best: Option<M>,
}

impl<M: Copy> TableEntry<M> {
    /// An entry for a node searched to `depth` plies (or any other depth measure the searcher uses, as long as
    /// more means better informed) whose search returned `value` with the meaning `bound`, and whose best move
    /// was `best`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `value` is NaN.
    #[inline]
    pub fn new(value: Value, bound: Bound, depth: u32, best: Option<M>) -> TableEntry<M> {
        debug_assert!(!value.is_nan(), "a stored value must not be NaN");
        TableEntry { value, bound, depth, best }
    }

    /// The stored value, if it may be returned for a node that must be searched to `depth_needed` with the window
    /// (`alpha`, `beta`), or `None` if the node must be searched.
    ///
    /// The entry answers only if it was searched at least `depth_needed` deep and its bound settles the window:
    /// an exact value always does, a lower bound only if it is at or above `beta` (the search would fail high),
    /// an upper bound only if it is at or below `alpha` (the search would fail low). The value returned then has
    /// the same meaning a search would give it: inside the window it is exact, outside it is a bound on the
    /// correct side (fail-soft).
    ///
    /// # Examples
    ///
    /// ```
    /// use khela_tt::{Bound, TableEntry};
    ///
    /// let upper = TableEntry::new(-2.0, Bound::Upper, 3, None::<u8>);
    /// assert_eq!(upper.cutoff(3, -2.0, 5.0), Some(-2.0)); // -2 <= alpha: fail low.
    /// assert_eq!(upper.cutoff(3, -3.0, 5.0), None);
    /// let exact = TableEntry::new(0.5, Bound::Exact, 9, None::<u8>);
    /// assert_eq!(exact.cutoff(1, -1.0, 1.0), Some(0.5));
    /// ```
    #[inline]
    pub fn cutoff(&self, depth_needed: u32, alpha: Value, beta: Value) -> Option<Value> {
        if self.depth < depth_needed {
            return None;
        }
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.value >= beta,
            Bound::Upper => self.value <= alpha,
        };
        settles.then_some(self.value)
    }

    /// The kind of bound the stored value is.
    #[inline]
    pub fn bound(&self) -> Bound {
        self.bound
    }

    /// The depth the node was searched to.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The best move found, for move ordering.
    #[inline]
    pub fn best(&self) -> Option<M> {
        self.best
    }

    /// The raw stored value, for the table implementations only (packing and tests).
    #[inline]
    pub(crate) fn raw_value(&self) -> Value {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INF: Value = Value::INFINITY;

    #[test]
    fn bound_of_a_value_in_a_window() {
        fn check(value: Value, alpha: Value, beta: Value, expected: Bound) {
            assert_eq!(Bound::of(value, alpha, beta), expected, "{value} in ({alpha}, {beta})");
        }
        check(-5.0, -1.0, 1.0, Bound::Upper);
        check(-1.0, -1.0, 1.0, Bound::Upper);
        check(-0.5, -1.0, 1.0, Bound::Exact);
        check(1.0, -1.0, 1.0, Bound::Lower);
        check(7.0, -1.0, 1.0, Bound::Lower);
        check(0.0, -INF, INF, Bound::Exact);
        check(INF, -INF, INF, Bound::Lower);
        // A null window: nothing is strictly inside it.
        check(2.0, 2.0, 2.0, Bound::Upper);
        check(3.0, 2.0, 3.0, Bound::Lower);
    }

    #[test]
    fn flip_swaps_lower_and_upper() {
        assert_eq!(Bound::Exact.flip(), Bound::Exact);
        assert_eq!(Bound::Lower.flip(), Bound::Upper);
        assert_eq!(Bound::Upper.flip(), Bound::Lower);
        for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
            assert_eq!(bound.flip().flip(), bound);
        }
    }

    /// One case: an entry (value, bound, depth) probed at a depth and a window, and what it must answer.
    fn check(value: Value, bound: Bound, depth: u32, needed: u32, alpha: Value, beta: Value, expected: Option<Value>) {
        let entry = TableEntry::new(value, bound, depth, None::<u8>);
        assert_eq!(entry.cutoff(needed, alpha, beta), expected, "{entry:?} at depth {needed} in ({alpha}, {beta})");
    }

    #[test]
    fn cutoff_rule_for_each_bound() {
        use Bound::{Exact, Lower, Upper};
        // An exact value answers any window, inside or outside.
        check(0.0, Exact, 3, 3, -1.0, 1.0, Some(0.0));
        check(5.0, Exact, 3, 3, -1.0, 1.0, Some(5.0));
        check(-5.0, Exact, 3, 3, -1.0, 1.0, Some(-5.0));
        // A lower bound answers only at or above beta.
        check(1.0, Lower, 3, 3, -1.0, 1.0, Some(1.0));
        check(4.0, Lower, 3, 3, -1.0, 1.0, Some(4.0));
        check(0.5, Lower, 3, 3, -1.0, 1.0, None);
        check(-4.0, Lower, 3, 3, -1.0, 1.0, None);
        // An upper bound answers only at or below alpha.
        check(-1.0, Upper, 3, 3, -1.0, 1.0, Some(-1.0));
        check(-4.0, Upper, 3, 3, -1.0, 1.0, Some(-4.0));
        check(-0.5, Upper, 3, 3, -1.0, 1.0, None);
        check(4.0, Upper, 3, 3, -1.0, 1.0, None);
        // The full window: only exact values answer (a bound would need to be infinite).
        check(0.0, Lower, 3, 3, -INF, INF, None);
        check(0.0, Upper, 3, 3, -INF, INF, None);
        check(INF, Lower, 3, 3, -INF, INF, Some(INF));
    }

    #[test]
    fn cutoff_needs_enough_depth() {
        use Bound::{Exact, Lower, Upper};
        for (bound, value) in [(Exact, 0.0), (Lower, 2.0), (Upper, -2.0)] {
            check(value, bound, 4, 5, -1.0, 1.0, None);
            check(value, bound, 4, 4, -1.0, 1.0, Some(value));
            check(value, bound, 4, 0, -1.0, 1.0, Some(value));
            check(value, bound, u32::MAX, u32::MAX, -1.0, 1.0, Some(value));
        }
    }
}
