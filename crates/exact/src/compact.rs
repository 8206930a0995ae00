//! The compact table as a cache: [`Compact`], a handle on a [`CompactTable`] with its own counters, which may
//! grow through regions of the table, store a position and its image under one key, and keep the positions near
//! the end of the game apart.

use crate::cache::{Cache, EXACT_DEPTH, Probe, Stored, answer, max_view};
use khela_games::{Game, Player, Value};
use khela_tt::{CompactEntry, CompactTable, Region, TableEntry, TableStats};
use std::hint::select_unpredictable;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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
///
/// And once it has climbed past a small region, it may keep the entries of positions near the end of the game
/// in that region, apart from the rest ([`Compact::with_near_end`]): their subtrees are small and soon done
/// with, they are most of a large search's nodes, and in a region that the processor's cache holds their probes
/// do not wait on memory.
#[derive(Debug)]
pub struct Compact<S = (), N = ()> {
    table: Arc<CompactTable>,
    /// The regions it probes and stores in, smallest first, the whole table last.
    ladder: Vec<Region>,
    /// The region in use: `ladder[step]`.
    step: usize,
    /// `ladder[step]`, kept here so that a probe or a store reads it without going through the ladder (with
    /// `climb_after`, it saves the solver instructions and memory accesses).
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
    /// The region of the positions near the end, if any, and the rule that tells them.
    near_end: Option<Region>,
    rule: N,
    /// `near_end` while the handle keeps those positions there: in a region larger than it, or one that does not
    /// reach it (a copy of its own: [`CompactTable::beside`]).
    near_now: Option<Region>,
    /// Whether the region in use or `near_now` is larger than [`PREFETCHED_ABOVE`]: if not, a prefetch returns
    /// at once, before it makes the child, its key or asks the near-end rule. A team's handle keeps positions near
    /// the end apart from the start, and without this flag each of its prefetches would make the child to ask the
    /// rule, for nothing.
    prefetched: bool,
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

/// Which positions a [`Compact`] handle keeps in its region of positions near the end of the game
/// ([`Compact::with_near_end`]).
pub trait NearEnd<G: Game> {
    /// Whether `state` is near the end: its entry goes into the near-end region.
    fn near_end(&self, game: &G, state: &G::State) -> bool;
}

/// No position is near the end: every entry in the handle's region.
impl<G: Game> NearEnd<G> for () {
    #[inline(always)]
    fn near_end(&self, _: &G, _: &G::State) -> bool {
        false
    }
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
    /// entries as the region has slots. The entries go with it ([`CompactTable::promote`]), so that the search
    /// keeps what it has learnt. (Both measured on Connect-4: see docs/src/measured-choices.md, 'The compact
    /// table's handle'.)
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
            near_end: None,
            rule: (),
            near_now: None,
            prefetched: false,
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
/// in the processor's last-level cache, where prefetching costs its instructions and gains no time; in a larger
/// one, a prefetch saves time (measured: see docs/src/measured-choices.md, 'The compact table's handle').
const PREFETCHED_ABOVE: u64 = 1 << 21;

impl<S, N> Compact<S, N> {
    /// The same handle, storing a position and its image under `symmetry` under one key.
    pub fn with_symmetry<T>(self, symmetry: T) -> Compact<T, N> {
        self.with_parts(|_, rule| (symmetry, rule))
    }

    /// The same handle, keeping the entries of the positions that `rule` says are near the end of the game in
    /// `region` (a region of the table; none for no such region) whenever the region in use is larger, or does
    /// not reach it: a copy beside the first region ([`CompactTable::beside`]) is the handle's own from the
    /// start, while the threads of a team share the first region (see [`crate::connect4`] for what copies of
    /// their own gained two threads solving Connect-4).
    ///
    /// # Panics
    ///
    /// If a region of the handle's ladder has `region`'s tag.
    pub fn with_near_end<R>(self, region: Option<Region>, rule: R) -> Compact<S, R> {
        let tag = region.map(|near| near.tag());
        assert!(self.ladder.iter().all(|rung| Some(rung.tag()) != tag), "the near-end region has a tag of its own");
        let mut handle = self.with_parts(|symmetry, _| (symmetry, rule));
        handle.near_end = region;
        handle.use_near_end();
        handle
    }

    /// The same handle with its symmetry and near-end rule replaced by what `parts` makes of them.
    fn with_parts<T, R>(self, parts: impl FnOnce(S, N) -> (T, R)) -> Compact<T, R> {
        let Compact {
            table,
            ladder,
            step,
            region,
            stored,
            climb_after,
            team,
            reach,
            stats,
            symmetry,
            near_end,
            rule,
            near_now,
            prefetched,
        } = self;
        let (symmetry, rule) = parts(symmetry, rule);
        Compact {
            table,
            ladder,
            step,
            region,
            stored,
            climb_after,
            team,
            reach,
            stats,
            symmetry,
            near_end,
            rule,
            near_now,
            prefetched,
        }
    }

    /// The same handle, one of `handles` (threads searching one tree together) that go up the ladder together,
    /// each sharing `step` (a new one for a team, zero, given to each of its handles): the first handle to have
    /// stored its share of the entries that move a lone handle on moves every handle on, with the entries, and
    /// the others follow within 1,024 of their stores. A handle still in the smaller region meanwhile stores a
    /// few entries there that the team no longer finds; none is ever taken for another key's.
    pub fn in_team(self, step: Arc<AtomicUsize>, handles: u64) -> Compact<S, N> {
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
        self.reach = self.reach.max(self.region.end());
    }

    /// Goes to region `step` of the ladder, none of its entries stored yet by this handle.
    fn take_step(&mut self, step: usize) {
        let share = self.team.as_ref().map_or(1, |team| team.handles);
        (self.step, self.region, self.stored) = (step, self.ladder[step], 0);
        self.climb_after = if step + 1 < self.ladder.len() { 2 * self.region.size() / share } else { u64::MAX };
        self.use_near_end();
    }

    /// Keeps positions near the end in the near-end region if the handle has one larger than the region it is in,
    /// or one that does not reach it; and tells whether a prefetch may be made.
    fn use_near_end(&mut self) {
        self.near_now =
            self.near_end.filter(|near| self.region.size() > near.size() || near.first() >= self.region.end());
        self.prefetched =
            self.region.size() > PREFETCHED_ABOVE || self.near_now.is_some_and(|near| near.size() > PREFETCHED_ABOVE);
    }

    /// Takes the team's step, if another handle has moved it on.
    #[cold]
    #[inline(never)]
    fn follow(&mut self) {
        if let Some(team) = &self.team {
            let step = team.step.load(Ordering::Relaxed).min(self.ladder.len() - 1);
            if step > self.step {
                self.take_step(step);
                self.reach = self.reach.max(self.region.end());
            }
        }
    }
}

impl<S, N> Compact<S, N> {
    /// The region `state`'s entry is in: the near-end region if it is in use and the rule says so, else the
    /// region in use.
    #[inline(always)]
    fn region_of<G: Game>(&self, game: &G, state: &G::State) -> Region
    where
        N: NearEnd<G>,
    {
        match self.near_now {
            Some(near) if self.rule.near_end(game, state) => near,
            _ => self.region,
        }
    }
}

impl<G: Game<Move = u8>, S: KeySymmetry<G>, N: NearEnd<G>> Cache<G> for Compact<S, N> {
    const LOOKAHEAD: bool = true;

    // Inlined into the loop, always (as the solver's knowledge is: see `connect4::Knowledge`): it is called from
    // the loop's probe and its lookahead, and a call from two places is not inlined by itself.
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
        let Some(found) = self.table.probe_in(key, self.region_of(game, state)) else { return Probe::MISS };
        self.stats.hits += 1;
        let best = found.best.map(|mv| select_unpredictable(image, self.symmetry.image(game, mv), mv));
        // Through an `TableEntry`, whose cutoff rule is the only way out of a table; complete, as stores are.
        let entry = TableEntry::new(Value::from(found.value), found.bound, EXACT_DEPTH, best);
        answer(entry, viewer, depth, alpha, beta)
    }

    const PREFETCHES: bool = true;

    #[inline(always)]
    fn prefetch(&self, game: &G, state: &G::State) {
        if !self.prefetched {
            return;
        }
        let region = self.region_of(game, state);
        if region.size() > PREFETCHED_ABOVE {
            let (key, _) = self.symmetry.key(game, state);
            self.table.prefetch_in(key, region);
        }
    }

    #[inline(always)]
    fn store(&mut self, game: &G, state: &G::State, at: Stored<G::Move>) {
        let (value, bound) = max_view(&at);
        if !at.complete || value.fract() != 0.0 || !(-128.0..=127.0).contains(&value) {
            return;
        }
        self.stats.stores += 1;
        let region = self.region_of(game, state);
        let (key, image) = self.symmetry.key(game, state);
        let best = at.best.map(|mv| select_unpredictable(image, self.symmetry.image(game, mv), mv));
        self.table.store_in(key, region, CompactEntry { value: value as i8, bound, best });
        self.reach = self.reach.max(region.end());
        self.stored += 1;
        if self.stored > self.climb_after {
            self.climb();
        } else if self.team.is_some() && self.stored.is_multiple_of(FOLLOW_EVERY) {
            self.follow();
        }
    }
}
