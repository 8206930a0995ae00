//! Threads searching one tree together: ABDADA (Weill's "alpha-bêta distribué avec droit d'aînesse"), in
//! Kerrigan's simplified form, as a cache wrapped around the table the threads share.
//!
//! Every thread runs the same search of the same root through its own [`Abdada`] handle. A node's first move
//! (the eldest brother) is searched by every thread that reaches the node; a later move whose child another
//! thread is searching at that moment is put off by the loop until the node's other moves are searched (by
//! then the other thread's result is likely in the table, and the child costs a probe). So the threads go
//! down the same best line but spread out over the siblings along it, each finding in the table what the
//! others proved. The marks of the children being searched live in a small table of their own ([`Team`]),
//! apart from the transposition table, whose entries they would otherwise push out; a mark lost to a
//! collision only costs a child searched twice. The threads work so only near the root, within the handle's
//! plies ([`crate::Cache::team_plies`]); deeper, each searches as if alone, in the loop's code for a search
//! alone.
//!
//! A driver that makes several passes over the tree ([`crate::Searcher::bisect`]) goes on from each pass with
//! the value of the first thread to finish it ([`crate::Cache::passed`]); from then on the others' searches
//! are moot ([`crate::Cache::moot`]): the loop returns at once from every node within the team's plies and
//! stores none of their values, so that the threads unwind quickly (below those plies, a subtree is finished,
//! with true values) and nothing computed after the pass was decided reaches the table. Values are exact
//! whatever the threads do: every thread's result of a pass is the pass's true answer, and the table only ever
//! holds true bounds.

use crate::cache::{Cache, Probe, Stored};
use khela_games::{Game, Player, Value};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A pass not yet decided (a NaN no search returns).
const UNDECIDED: u64 = u64::MAX;

/// The most passes a solve makes (bisection of a range of whole numbers below 2^64: 64 at most).
const PASSES: usize = 66;

/// What threads searching one tree together share besides the table: the children being searched, and the
/// value each pass was decided with.
#[derive(Debug)]
pub struct Team {
    /// Each slot holds a tag of a key being searched (0 for none).
    busy: Box<[AtomicU64]>,
    /// The slots' number less one (a power of two less one).
    mask: u64,
    /// Each pass's value (its bits), or [`UNDECIDED`].
    passes: Box<[AtomicU64]>,
}

impl Team {
    /// A team with `2^bits` marks of children being searched (a thread has at most one a ply: a few thousand
    /// are plenty).
    pub fn new(bits: u32) -> Team {
        let busy = (0..1u64 << bits).map(|_| AtomicU64::new(0)).collect();
        let passes = (0..PASSES).map(|_| AtomicU64::new(UNDECIDED)).collect();
        Team { busy, mask: (1 << bits) - 1, passes }
    }

    /// Forgets the passes decided: the start of a new solve (no thread may be searching).
    pub fn reset(&self) {
        for pass in self.passes.iter() {
            pass.store(UNDECIDED, Ordering::Relaxed);
        }
    }

    /// The slot of `key` and the tag it holds there (never 0).
    #[inline(always)]
    fn slot(&self, key: u64) -> (&AtomicU64, u64) {
        let mixed = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (&self.busy[(mixed >> 40 & self.mask) as usize], mixed | 1)
    }
}

/// One thread's handle on a shared cache `C` and its [`Team`] (see the module documentation): the children of
/// nodes at fewer than `plies` plies from the root are marked while searched, and put off while another
/// thread's mark is on them.
#[derive(Debug)]
pub struct Abdada<C> {
    inner: C,
    team: Arc<Team>,
    /// The pass this thread is in.
    pass: usize,
    plies: usize,
}

impl<C> Abdada<C> {
    /// A handle on `inner`, a cache the team's threads share, working as a team within `plies` of the root.
    pub fn new(inner: C, team: Arc<Team>, plies: usize) -> Abdada<C> {
        Abdada { inner, team, pass: 0, plies }
    }

    /// The cache wrapped.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// The cache wrapped, to change (for instance, to zero its counters).
    pub fn inner_mut(&mut self) -> &mut C {
        &mut self.inner
    }

    /// Back to the first pass, for a new solve (after [`Team::reset`]).
    pub fn restart(&mut self) {
        self.pass = 0;
    }
}

impl<G: Game, C: Cache<G>> Cache<G> for Abdada<C> {
    const SHARES: bool = true;
    const LOOKAHEAD: bool = C::LOOKAHEAD;

    // Inlined into the loop, always, as the wrapped table's probe and store are (see `Compact`).
    #[inline(always)]
    fn probe(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Player,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Probe<G::Move> {
        self.inner.probe(game, state, viewer, depth, alpha, beta)
    }

    const PREFETCHES: bool = C::PREFETCHES;

    #[inline(always)]
    fn prefetch(&self, game: &G, state: &G::State) {
        self.inner.prefetch(game, state);
    }

    #[inline(always)]
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>) {
        self.inner.store(game, state, at);
    }

    #[inline(always)]
    fn team_plies(&self) -> usize {
        self.plies
    }

    #[inline(always)]
    fn moot(&self) -> bool {
        self.team.passes[self.pass].load(Ordering::Relaxed) != UNDECIDED
    }

    #[inline]
    fn busy(&self, game: &G, state: &G::State) -> bool {
        let (slot, tag) = self.team.slot(game.key(state));
        slot.load(Ordering::Relaxed) == tag
    }

    #[inline]
    fn enter(&mut self, game: &G, state: &G::State) {
        let (slot, tag) = self.team.slot(game.key(state));
        slot.store(tag, Ordering::Relaxed);
    }

    #[inline]
    fn leave(&mut self, game: &G, state: &G::State) {
        // Plain loads and stores, no read-modify-write: a mark wrongly kept or lost costs time, not values.
        let (slot, tag) = self.team.slot(game.key(state));
        if slot.load(Ordering::Relaxed) == tag {
            slot.store(0, Ordering::Relaxed);
        }
    }

    fn passed(&mut self, value: Value) -> (Value, bool) {
        let slot = &self.team.passes[self.pass];
        debug_assert!(self.pass + 1 < PASSES, "more passes than a bisection makes");
        self.pass += 1;
        match slot.compare_exchange(UNDECIDED, value.to_bits(), Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => (value, true),
            Err(agreed) => (Value::from_bits(agreed), false),
        }
    }
}
