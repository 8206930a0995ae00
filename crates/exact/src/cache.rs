//! Caches of solved states, plugged into the search loop: none, the memo of memoized minimax, or a
//! transposition table from `khela-tt` (the compact table's handle is `crate::compact`'s).

use crate::horizon::UNLIMITED;
use ahash::AHashMap;
use khela_games::{Game, Player, Value};
pub use khela_tt::Bound;
use khela_tt::{ConcurrentTable, Table, TableEntry};

/// What a cache knows of a state before it is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe<M> {
    /// A value the search may return without expanding the state.
    pub value: Option<Value>,
    /// Whether that value comes from a complete search (one that met no horizon).
    pub complete: bool,
    /// A move to search first (the best move of an earlier search).
    pub best: Option<M>,
}

impl<M> Probe<M> {
    /// Nothing known.
    pub const MISS: Probe<M> = Probe { value: None, complete: true, best: None };
}

/// The depth table entries of complete searches record (less their ply, so that entries nearer the root, of
/// larger subtrees, rank higher for replacement). Entries of depth-limited searches that met their horizon
/// record their remaining depth, which must stay below [`COMPLETE`].
pub(crate) const EXACT_DEPTH: u32 = khela_tt::MAX_PACKED_DEPTH;

/// Entries at least this deep are complete: they answer a search of any depth. Horizons must stay below it.
pub(crate) const COMPLETE: u32 = EXACT_DEPTH / 2;

/// The depth an entry needs to answer a search with `depth` plies left ([`UNLIMITED`]: a complete entry).
fn needed(depth: u32) -> u32 {
    if depth == UNLIMITED { COMPLETE } else { depth.min(COMPLETE) }
}

/// A cache of solved states consulted by the search loop before it expands a node.
///
/// The loop hands values and windows over in the view it searches in, `viewer`'s: MAX's for minimax and
/// alpha-beta, the side to move's for the negamax algorithms. The transposition tables and [`Memo::new`]
/// convert to MAX's view before they store, so one of them may serve searches of either kind.
pub trait Cache<G: Game> {
    /// Whether the cache does anything: only `()` says no, which lets the search value leaves in place.
    const ACTIVE: bool = true;

    /// What is known of `state`, about to be searched with `depth` decision plies left ([`UNLIMITED`] for no
    /// horizon) and the window (`alpha`, `beta`) in `viewer`'s view. A value must be one the search itself could
    /// return: exact inside the window, a bound on the correct side outside it.
    fn probe(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Player,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Probe<G::Move>;

    /// Records the result of searching `state`.
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>);

    /// Asks the processor to bring `state`'s entry into its cache, without waiting for it, for a probe soon
    /// after: the loop asks for every child's before its lookahead probes any or, without a lookahead, before it
    /// searches the first, so that their misses overlap rather than follow each other. By default nothing.
    #[inline(always)]
    fn prefetch(&self, game: &G, state: &G::State) {
        let _ = (game, state);
    }

    /// Whether [`Cache::prefetch`] does anything: only then does the loop make the children it would prefetch.
    const PREFETCHES: bool = false;

    /// Whether the loop looks every child of a node up before it searches any (enhanced transposition
    /// cut-offs): a child whose entry already proves the cut-off ends the node, and the others' entries, looked
    /// up together (and prefetched first, [`Cache::prefetch`]), are in the processor's cache when their own
    /// searches probe them. For tables too large for that cache, whose every probe waits on memory.
    const LOOKAHEAD: bool = false;

    /// Whether the cache is shared by threads that search one tree together and spread out over it (see
    /// [`crate::Abdada`]): only then does the loop look at [`Cache::team_plies`], so that every other search pays
    /// nothing for the team's work.
    const SHARES: bool = false;

    /// The plies from the root within which the threads sharing the cache ([`Cache::SHARES`]) work as a team: at
    /// a node less deep, the loop returns at once if [`Cache::moot`] says so (and stores nothing), asks
    /// [`Cache::busy`] of each child and tells [`Cache::enter`] and [`Cache::leave`]. Deeper, it searches as if
    /// alone: the marks would cost more than a small subtree searched twice, and a moot search finishes such a
    /// subtree soon.
    #[inline(always)]
    fn team_plies(&self) -> usize {
        0
    }

    /// Whether another thread made this one's search moot (it decided the pass: [`Cache::passed`]): the search
    /// may then return any value from nodes within [`Cache::team_plies`], and their values are not stored.
    #[inline(always)]
    fn moot(&self) -> bool {
        false
    }

    /// Whether another thread is searching `state`, a child, now: the loop puts such a child off until it has
    /// searched its other moves (by then the other thread's result is likely in the table).
    #[inline(always)]
    fn busy(&self, game: &G, state: &G::State) -> bool {
        let _ = (game, state);
        false
    }

    /// The search of `state`, a child, starts.
    #[inline(always)]
    fn enter(&mut self, game: &G, state: &G::State) {
        let _ = (game, state);
    }

    /// The search of `state`, a child, is over.
    #[inline(always)]
    fn leave(&mut self, game: &G, state: &G::State) {
        let _ = (game, state);
    }

    /// A pass of a driver over the whole tree ([`crate::Searcher::bisect`]'s null-window searches) is over and
    /// returned `value`: the value the driver goes on with, and whether it is this search's own. Threads solving
    /// one root together agree on each pass's value, the first one's to finish; alone, it is `value`, its own.
    #[inline(always)]
    fn passed(&mut self, value: Value) -> (Value, bool) {
        (value, true)
    }
}

/// A search result as the loop hands it to [`Cache::store`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stored<M> {
    /// The view of `value` and `bound`.
    pub viewer: Player,
    /// How many moves below the root the state is.
    pub ply: usize,
    /// The decision plies that were left before the horizon ([`UNLIMITED`] for none).
    pub depth: u32,
    /// Whether the search of the state met no horizon, so that its result holds for any depth.
    pub complete: bool,
    /// The value the search returned.
    pub value: Value,
    /// What the value says of the true value (decided by the search loop from the window, in one place).
    pub bound: Bound,
    /// The best move found.
    pub best: Option<M>,
}

/// No cache: the plain search.
impl<G: Game> Cache<G> for () {
    const ACTIVE: bool = false;

    #[inline(always)]
    fn probe(&mut self, _: &G, _: &G::State, _: Player, _: u32, _: Value, _: Value) -> Probe<G::Move> {
        Probe::MISS
    }

    #[inline(always)]
    fn store(&mut self, _: &G, _: &G::State, _: Stored<G::Move>) {}
}

/// What a table entry answers for a search of `depth` plies and a window in `viewer`'s view: the entry is in
/// MAX's view, so for MIN the window is turned around on the way in and the value on the way out.
#[inline]
pub(crate) fn answer<M: Copy>(entry: TableEntry<M>, viewer: Player, depth: u32, alpha: Value, beta: Value) -> Probe<M> {
    let value = match viewer {
        Player::Max => entry.cutoff(needed(depth), alpha, beta),
        Player::Min => entry.cutoff(needed(depth), -beta, -alpha).map(|v| -v),
    };
    Probe { value, complete: entry.depth() >= COMPLETE, best: entry.best() }
}

/// A result's value and bound in MAX's view, as tables keep them (a MIN-view lower bound is a MAX-view upper
/// bound).
#[inline]
pub(crate) fn max_view<M>(at: &Stored<M>) -> (Value, Bound) {
    match at.viewer {
        Player::Max => (at.value, at.bound),
        Player::Min => (-at.value, at.bound.flip()),
    }
}

/// The table entry of a result: in MAX's view (a MIN-view lower bound is a MAX-view upper bound), with the
/// depth that says how far it may stand in for a search.
#[inline]
fn entry<M: Copy>(at: Stored<M>) -> TableEntry<M> {
    let (value, bound) = max_view(&at);
    let depth = if at.complete {
        EXACT_DEPTH.saturating_sub(at.ply.min(COMPLETE as usize) as u32)
    } else {
        debug_assert!(at.depth < COMPLETE, "horizon depth {} too large to tell from complete entries", at.depth);
        at.depth
    };
    TableEntry::new(value, bound, depth, at.best)
}

/// A transposition table keyed by [`Game::key`]. Its entries keep their bound, and a value comes back only
/// through [`TableEntry::cutoff`], so a cut-off node's bound is never taken for its exact value.
impl<G: Game> Cache<G> for Table<G::Move> {
    #[inline]
    fn probe(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Player,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Probe<G::Move> {
        Table::probe(self, game.key(state)).map_or(Probe::MISS, |e| answer(e, viewer, depth, alpha, beta))
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>) {
        Table::store(self, game.key(state), entry(at));
    }

    const PREFETCHES: bool = true;

    #[inline(always)]
    fn prefetch(&self, game: &G, state: &G::State) {
        Table::prefetch(self, game.key(state));
    }
}

/// A table shared by searches on several threads (see [`ConcurrentTable`]), used through a reference.
#[derive(Clone, Copy, Debug)]
pub struct Shared<'t, T>(pub &'t T);

impl<G: Game, T: ConcurrentTable<Move = G::Move>> Cache<G> for Shared<'_, T> {
    #[inline]
    fn probe(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Player,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Probe<G::Move> {
        self.0.probe(game.key(state)).map_or(Probe::MISS, |e| answer(e, viewer, depth, alpha, beta))
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>) {
        self.0.store(game.key(state), entry(at));
    }
}

/// The memo of memoized minimax: exact values by key, in an unbounded hash map.
///
/// It stores exact values only, so it is sound under pruning too: a cut-off node's bound is never taken for
/// its value.
pub struct Memo<G: Game> {
    values: AHashMap<u64, Value>,
    key: fn(&G, &G::State) -> u64,
    view: MemoView,
}

/// Whose view a [`Memo`] stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MemoView {
    /// MAX's: any search may use the memo.
    Max,
    /// The searcher's own (the side to move's under negamax).
    Searcher,
}

impl<G: Game> Memo<G> {
    /// A memo keyed by [`Game::key`], holding MAX's-view values: any search may use it.
    pub fn new() -> Memo<G> {
        Memo::with_key(|game, state| game.key(state))
    }

    /// A memo keyed by `key`, holding MAX's-view values. The key may merge states whose values are equal, such
    /// as [`khela_games::tictactoe::TicTacToe::symmetric_key`].
    pub fn with_key(key: fn(&G, &G::State) -> u64) -> Memo<G> {
        Memo { values: AHashMap::new(), key, view: MemoView::Max }
    }

    /// A memo for impartial games, holding values in the searcher's view, which under the negamax algorithms
    /// is the side to move's. So `key` may leave out whose turn it is, as
    /// [`khela_games::nim::Nim::impartial_key`] does; use it with negamax only.
    pub fn impartial(key: fn(&G, &G::State) -> u64) -> Memo<G> {
        Memo { values: AHashMap::new(), key, view: MemoView::Searcher }
    }

    /// The number of distinct states solved.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing has been solved yet.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The solved values by key, in the memo's view, taken out of it.
    pub(crate) fn into_values(self) -> AHashMap<u64, Value> {
        self.values
    }

    /// The sign that turns a value of `viewer`'s into the stored view and back.
    fn sign(&self, viewer: Player) -> Value {
        if self.view == MemoView::Max { viewer.view(1.0) } else { 1.0 }
    }
}

impl<G: Game> Default for Memo<G> {
    fn default() -> Self {
        Memo::new()
    }
}

impl<G: Game> Cache<G> for Memo<G> {
    #[inline]
    fn probe(&mut self, game: &G, state: &G::State, viewer: Player, _: u32, _: Value, _: Value) -> Probe<G::Move> {
        let value = self.values.get(&(self.key)(game, state)).map(|v| v * self.sign(viewer));
        Probe { value, complete: true, best: None }
    }

    /// Stores exact values of complete searches only.
    #[inline]
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>) {
        if at.bound == Bound::Exact && at.complete {
            let value = at.value * self.sign(at.viewer);
            self.values.insert((self.key)(game, state), value);
        }
    }
}
