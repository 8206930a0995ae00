//! Caches of solved states, plugged into the search loop: none, the memo of memoized minimax, or a
//! transposition table from `khela-tt`.

use crate::horizon::UNLIMITED;
use ahash::AHashMap;
use khela_games::{Game, Player, Value};
pub use khela_tt::Bound;
use khela_tt::{CompactEntry, CompactTable, ConcurrentTable, Entry, Region, Table, TableStats};
use std::hint::select_unpredictable;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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
const EXACT_DEPTH: u32 = khela_tt::MAX_PACKED_DEPTH;

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

    /// [`Cache::probe`] of a child by the loop's lookahead ([`Cache::LOOKAHEAD`]), whose answer the loop takes
    /// only as a cut-off of the node: by default the same probe. A cache whose node probes make a check that one
    /// node's probe need not repeat for each child skips it here ([`crate::Abdada`]: whether another thread
    /// decided the pass, which the node's own probe asked).
    #[inline(always)]
    fn probe_ahead(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Player,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Probe<G::Move> {
        self.probe(game, state, viewer, depth, alpha, beta)
    }

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
    /// [`crate::Abdada`]): only then does the loop ask [`Cache::busy`] and tell [`Cache::enter`] and
    /// [`Cache::leave`], so that every other search pays nothing for them.
    const SHARES: bool = false;

    /// Whether another thread is searching `state`, a child at `ply`, now: the loop puts such a child off until
    /// it has searched its other moves (by then the other thread's result is likely in the table).
    #[inline(always)]
    fn busy(&self, game: &G, state: &G::State, ply: usize) -> bool {
        let _ = (game, state, ply);
        false
    }

    /// The search of `state`, a child at `ply`, starts.
    #[inline(always)]
    fn enter(&mut self, game: &G, state: &G::State, ply: usize) {
        let _ = (game, state, ply);
    }

    /// The search of `state`, a child at `ply`, is over.
    #[inline(always)]
    fn leave(&mut self, game: &G, state: &G::State, ply: usize) {
        let _ = (game, state, ply);
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
fn answer<M: Copy>(entry: Entry<M>, viewer: Player, depth: u32, alpha: Value, beta: Value) -> Probe<M> {
    let value = match viewer {
        Player::Max => entry.cutoff(needed(depth), alpha, beta),
        Player::Min => entry.cutoff(needed(depth), -beta, -alpha).map(|v| -v),
    };
    Probe { value, complete: entry.depth() >= COMPLETE, best: entry.best() }
}

/// A result's value and bound in MAX's view, as tables keep them (a MIN-view lower bound is a MAX-view upper
/// bound).
#[inline]
fn max_view<M>(at: &Stored<M>) -> (Value, Bound) {
    match at.viewer {
        Player::Max => (at.value, at.bound),
        Player::Min => (-at.value, at.bound.flip()),
    }
}

/// The table entry of a result: in MAX's view (a MIN-view lower bound is a MAX-view upper bound), with the
/// depth that says how far it may stand in for a search.
#[inline]
fn entry<M: Copy>(at: Stored<M>) -> Entry<M> {
    let (value, bound) = max_view(&at);
    let depth = if at.complete {
        EXACT_DEPTH.saturating_sub(at.ply.min(COMPLETE as usize) as u32)
    } else {
        debug_assert!(at.depth < COMPLETE, "horizon depth {} too large to tell from complete entries", at.depth);
        at.depth
    };
    Entry::new(value, bound, depth, at.best)
}

/// A transposition table keyed by [`Game::key`]. Its entries keep their bound, and a value comes back only
/// through [`Entry::cutoff`], so a cut-off node's bound is never taken for its exact value.
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

/// A [`CompactTable`] as a cache, counting the probes and stores of the searches that use it through this
/// handle (searches sharing the table each take their own): for games whose moves are bytes and whose values
/// are whole numbers within `i8` (Connect-4's scores). Only the results of complete searches are stored (an
/// estimate from a horizon has no place in an entry without a depth), and a value that is not a whole number in
/// range is not stored at all; every entry answers a search of any depth.
///
/// A handle may start a search in a small region of the table ([`Compact::growing`]), which the processor's
/// cache holds, and move to larger ones as the search stores more entries: a small search never waits on
/// memory, a large one soon has the whole table.
///
/// A handle may also store a position and its image under a symmetry of the game under one key
/// ([`Compact::with_symmetry`]): the smaller of their keys, the best move mapped into that key's frame.
#[derive(Debug)]
pub struct Compact<S = ()> {
    table: Arc<CompactTable>,
    /// The regions it probes and stores in, smallest first, the whole table last.
    ladder: Vec<Region>,
    /// The region in use: `ladder[step]`.
    step: usize,
    /// `ladder[step]`, kept here so that a probe or a store reads it without going through the ladder. With
    /// `climb_after`, the Connect-4 solver took 5% fewer instructions and 4% fewer loads and stores, in the same
    /// nodes (Middle-Medium's first 30 and Begin-Medium's first 3).
    region: Region,
    /// Entries stored in it since it was entered.
    stored: u64,
    /// The stores after which the handle moves on, computed when it enters the region, so that a store
    /// compares rather than divides: twice the region's slots (a team's handle, its share of them), or never at
    /// the ladder's top.
    climb_after: u64,
    /// For handles of threads that search together: the region they are all in, a step of the ladder, which
    /// the first to have stored its share moves on; `None` for a handle alone.
    team: Option<TeamStep>,
    /// The most slots of the table its entries may be in, since its counters were zeroed.
    reach: u64,
    stats: TableStats,
    symmetry: S,
}

/// A symmetry of a game whose positions a [`Compact`] table may store under one key: a position and its image
/// have the same value, and the image of the one's best move is the other's best move.
pub trait KeySymmetry<G: Game> {
    /// The key `state` is stored under, and whether it is the key of its image (whose moves are then the images
    /// of `state`'s).
    fn key(&self, game: &G, state: &G::State) -> (u64, bool);

    /// The image of `mv` (an involution: the image of the image is `mv`).
    fn image(&self, game: &G, mv: G::Move) -> G::Move;
}

/// No symmetry: every position under its own key.
impl<G: Game> KeySymmetry<G> for () {
    #[inline(always)]
    fn key(&self, game: &G, state: &G::State) -> (u64, bool) {
        (game.key(state), false)
    }

    #[inline(always)]
    fn image(&self, _: &G, mv: G::Move) -> G::Move {
        mv
    }
}

impl Compact {
    /// A handle on the whole of `table`, its counters at zero.
    pub fn new(table: Arc<CompactTable>) -> Compact {
        Compact::growing(table, Vec::new())
    }

    /// A handle on `table` that starts each search ([`Compact::start_small`]) in the first of `regions`
    /// (smallest first) and moves to the next, then to the whole table, whenever it has stored twice as many
    /// entries as the region has slots (on Connect-4's Middle-Medium, moving on after half as many took 1.18
    /// times as long; on Begin-Hard, after twice, within 3% of the whole table's time). The entries go with it
    /// ([`CompactTable::promote`]): Connect-4's Begin-Medium took 9% fewer nodes and 7–10% less time than when
    /// the search left them behind (after once as many: 2% fewer nodes still, and slower; after four times, 3%
    /// more).
    pub fn growing(table: Arc<CompactTable>, mut regions: Vec<Region>) -> Compact {
        regions.push(table.whole());
        let (region, stats) = (regions[0], TableStats::default());
        let mut handle = Compact {
            table,
            ladder: regions,
            step: 0,
            region,
            stored: 0,
            climb_after: 0,
            team: None,
            reach: 0,
            stats,
            symmetry: (),
        };
        handle.take_step(0);
        handle
    }
}

/// The step of the ladder that the handles of threads searching together are on (see [`Compact::in_team`]).
#[derive(Clone, Debug)]
struct TeamStep {
    step: Arc<AtomicUsize>,
    /// The handles sharing it: each moves the team on after its share of the stores.
    handles: u64,
}

/// How often (in stores, a power of two) a handle of a team looks whether another has moved the team on.
const FOLLOW_EVERY: u64 = 1 << 10;

/// The largest region (in entries: 16 MiB) whose entries [`Compact`] does not prefetch: a smaller one stays mostly
/// in the processor's last-level cache, where prefetching costs its instructions (5% more on Begin-Medium) and
/// gains no time. In the whole 32 MiB table, Begin-Hard's first 3 took 0.95 of the time with the prefetch that
/// they took without (5 interleaved rounds, one thread).
const PREFETCHED_ABOVE: u64 = 1 << 21;

impl<S> Compact<S> {
    /// The same handle, storing a position and its image under `symmetry` under one key.
    pub fn with_symmetry<T>(self, symmetry: T) -> Compact<T> {
        let Compact { table, ladder, step, region, stored, climb_after, team, reach, stats, .. } = self;
        Compact { table, ladder, step, region, stored, climb_after, team, reach, stats, symmetry }
    }

    /// The same handle, one of `handles` (threads searching one tree together) that go up the ladder together,
    /// each sharing `step` (a new one for a team, zero, given to each of its handles): the first handle to have
    /// stored its share of the entries that move a lone handle on moves every handle on, with the entries, and
    /// the others follow within 1,024 of their stores. A handle still in the smaller region meanwhile stores a
    /// few entries there that the team no longer finds; none is ever taken for another key's.
    pub fn in_team(self, step: Arc<AtomicUsize>, handles: u64) -> Compact<S> {
        let mut handle = Compact { team: Some(TeamStep { step, handles: handles.max(1) }), ..self };
        handle.take_step(handle.step);
        handle
    }

    /// The symmetry, to change (as [`crate::connect4`] turns its mirror on and off between solves).
    pub fn symmetry_mut(&mut self) -> &mut S {
        &mut self.symmetry
    }

    /// Starts the next search in the smallest region (entries stored there before, by any search, are found
    /// again).
    pub fn start_small(&mut self) {
        self.take_step(0);
        if let Some(team) = &self.team {
            team.step.store(0, Ordering::Relaxed);
        }
    }

    /// The most slots of the table the entries stored through this handle may be in, since its counters were
    /// zeroed: emptying that many empties them all.
    pub fn reach(&self) -> u64 {
        self.reach
    }

    /// The probes, hits and stores made through this handle (the other counters stay 0).
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// Zeroes the counters (and the reach).
    pub fn reset_stats(&mut self) {
        (self.stats, self.reach) = (TableStats::default(), 0);
    }

    /// Moves on to the next region, what was stored so far with it ([`CompactTable::promote`]); in a team, only
    /// the first handle to get there moves the entries, and the team.
    #[cold]
    #[inline(never)]
    fn climb(&mut self) {
        let (region, next) = (self.ladder[self.step], self.ladder[self.step + 1]);
        let moves = self.team.as_ref().is_none_or(|team| {
            team.step.compare_exchange(self.step, self.step + 1, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        });
        if moves {
            self.table.promote(region, next);
        }
        self.take_step(self.step + 1);
        self.follow();
        self.reach = self.reach.max(self.region.size());
    }

    /// Goes to region `step` of the ladder, none of its entries stored yet by this handle.
    fn take_step(&mut self, step: usize) {
        let share = self.team.as_ref().map_or(1, |team| team.handles);
        (self.step, self.region, self.stored) = (step, self.ladder[step], 0);
        self.climb_after = if step + 1 < self.ladder.len() { 2 * self.region.size() / share } else { u64::MAX };
    }

    /// Takes the team's step, if another handle has moved it on.
    #[cold]
    #[inline(never)]
    fn follow(&mut self) {
        if let Some(team) = &self.team {
            let step = team.step.load(Ordering::Relaxed).min(self.ladder.len() - 1);
            if step > self.step {
                self.take_step(step);
                self.reach = self.reach.max(self.region.size());
            }
        }
    }
}

impl<G: Game<Move = u8>, S: KeySymmetry<G>> Cache<G> for Compact<S> {
    const LOOKAHEAD: bool = true;

    // Inlined into the loop, always (as the solver's knowledge is: see `connect4::Knowledge`): called from the
    // loop's probe and its lookahead, the Connect-4 solver took 7% more instructions through calls.
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
        self.stats.probes += 1;
        let (key, image) = self.symmetry.key(game, state);
        let Some(found) = self.table.probe_in(key, self.region) else { return Probe::MISS };
        self.stats.hits += 1;
        let best = found.best.map(|mv| select_unpredictable(image, self.symmetry.image(game, mv), mv));
        // Through an `Entry`, whose cutoff rule is the only way out of a table; complete, as stores are.
        let entry = Entry::new(Value::from(found.value), found.bound, EXACT_DEPTH, best);
        answer(entry, viewer, depth, alpha, beta)
    }

    const PREFETCHES: bool = true;

    #[inline(always)]
    fn prefetch(&self, game: &G, state: &G::State) {
        if self.region.size() > PREFETCHED_ABOVE {
            let (key, _) = self.symmetry.key(game, state);
            self.table.prefetch_in(key, self.region);
        }
    }

    #[inline(always)]
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>) {
        let (value, bound) = max_view(&at);
        if !at.complete || value.fract() != 0.0 || !(-128.0..=127.0).contains(&value) {
            return;
        }
        self.stats.stores += 1;
        let region = self.region;
        let (key, image) = self.symmetry.key(game, state);
        let best = at.best.map(|mv| select_unpredictable(image, self.symmetry.image(game, mv), mv));
        self.table.store_in(key, region, CompactEntry { value: value as i8, bound, best });
        self.reach = self.reach.max(region.size());
        self.stored += 1;
        if self.stored > self.climb_after {
            self.climb();
        } else if self.team.is_some() && self.stored.is_multiple_of(FOLLOW_EVERY) {
            self.follow();
        }
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
