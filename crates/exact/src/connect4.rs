//! Connect-4 solved exactly: the one search loop with Connect-4's knowledge plugged in as its ordering
//! ([`Knowledge`]), a compact transposition table ([`CompactTable`]: 8 bytes an entry, so that more of them stay
//! in the processor's cache), and the null-window bisection driver ([`Searcher::bisect`]).
//!
//! Scores are those of Pons' benchmark sets: for the side to move, 0 a draw, positive
//! a win — `(cells + 2 − stones)/2`, `stones` counting the winning one, so a faster win scores more — and
//! negative a loss. What the ordering knows, at a node with `m` stones on the board (Pons, "Solving Connect 4"):
//!
//! - a win on the move is the node's value, `(cells + 1 − m)/2`; no move is searched;
//! - a move below a cell where the opponent would complete four, or one that leaves such a cell open, loses at
//!   once: it is never searched unless every move does, and then the node's value is the loss on the next
//!   stone, `−(cells − m)/2`; two open cells of the opponent's are that loss too;
//! - otherwise the value lies in `−(cells − 2 − m)/2 ..= (cells − 1 − m)/2` (neither side wins on its next
//!   stone), which narrows the window, and with two cells or fewer left it is a draw;
//! - the moves are tried by the number of cells where they would leave the mover one stone short of four
//!   (threats), most first; among equals, near the root the one that leaves the mover the better windows of
//!   four, then the centre first.
//!
//! On several threads ([`Solver::on`] a pool) the threads solve each position together by ABDADA
//! ([`crate::Abdada`]): one table, every thread on the same null-window pass, spread out over the siblings of
//! the nodes they share; positions with few empty cells, solved sooner than a thread starts, stay on one. Solves
//! made from one of the solver's own threads ([`Solver::in_pool`]) neither wait for a thread to wake nor are woken.
//!
//! What a team costs (an Intel Xeon, Begin-Medium's first 40; instructions under callgrind on its first 8): two threads
//! search 11–14% more nodes than one, and each ran about 13% slower than one alone. A team of one thread (the team's
//! code on one thread, a scratch build) ran as much slower than the solver alone, 13.0–13.3 against 14.3–15.3 million
//! nodes a second, in 946 instructions a node against 825 (the marks and the moves put off 42 of them, a near-end
//! region of its own and the team's ladder 57, in 4% fewer nodes, the wrapper's checks 22): the threads' slowdown was
//! the team's own work, not their contention. Since only a tenth of the nodes are within the 16 plies where the threads
//! worked together, the loop has an instance of its own for those, and the others run the code of a search alone: 907
//! instructions a node; 863 once a prefetch no longer made each child to ask the near-end rule for nothing (see
//! [`Compact`]). Threads testing different scores at once instead (the bisection's range split three ways, a
//! thread joining a test under way only where no score was left to test) searched 10% more nodes than ABDADA within
//! each test, in 1.77–1.88 s against 1.53–1.64; splitting only ranges of three scores or fewer was within the noise of
//! never splitting.
//!
//! Where a team's extra nodes are (two threads, Begin-Medium's first 40, each pass's nodes over both threads against
//! one thread's): four fifths in the passes that fail low, 1.20 times as many in those of more than 100,000 nodes (most
//! of the nodes), against 1.03 in the passes as large that fail high. What did not lower them (nodes a position, about
//! 915,000 with the team within 16 plies): a thread joining a busy second child rather than putting it off, 950,000 (at
//! odd or even plies only, 940,000 and 980,000); the eldest put off too at the team's last ply or last three, as many;
//! the threads' own regions holding positions of up to 16, 18 or 20 empty cells, 952,000, 986,000 and 1,048,000, each
//! thread faster by as much; one near-end region shared by both, 2.5% fewer nodes in a fifth more time. The team within
//! 10 plies rather than 16 did lower them, by 2.5%, and took a tenth less time (see `TEAM_PLIES`). By ply
//! (Begin-Medium's first 200, 15% more nodes on two threads): 6–20% more at plies 6 to 10, 15–30% more at the deepest
//! plies, so that about half of the extra nodes arise below the team's plies, where each thread searches alone:
//! the price of two subtrees searched at once, each without the other's results. Neither fewer positions in the
//! threads' own regions (up to 11, 12 or 13 empty cells: 2% fewer nodes, as much time) nor more room for the team (a
//! first region of 4, 8 or 16 MiB: as many nodes, as much time) lowered them, nor both threads at the root's moves
//! together (10% more nodes).
//!
//! Each solve starts in a small region of the table ([`Compact::growing`]), which stays in the processor's
//! cache, and moves to larger ones, its entries with it, as it stores more: most benchmark positions never leave
//! the first, whose probes would otherwise wait on memory. A team's threads climb together
//! ([`Compact::in_team`]): on Begin-Medium's first 20, 2 threads took 1.13–1.42 times less time than one, in
//! three interleaved rounds, against 0.95–1.12 when they searched the whole table from the start.
//!
//! Once a solve has climbed past 2 MiB, the positions near the end of the game (at most 14 empty cells) keep
//! their entries in a 2 MiB region of their own ([`Compact::with_near_end`]), which the processor's cache holds:
//! their subtrees are small and soon done with, and they are most of the nodes, whose probes in the whole table
//! waited on memory. Begin-Hard, one thread: 0.68–0.82 of the time, in 0.4% fewer nodes to 5% more. Each thread
//! of a team keeps them in a copy of that region of its own ([`CompactTable::beside`]), from the start: in one
//! region that both wrote, each thread's probes waited on the entries the other's processor had just written
//! (on an Intel Xeon, two threads ran at 11 million nodes a second each where one alone ran at 14, and at 13.5
//! each with copies of their own). Begin-Hard's first 10 on two threads took 0.87 of the time with copies,
//! Begin-Medium's first 40 0.91, in as many nodes (three interleaved rounds each); the empty board 0.77 weakly
//! and 0.78 strongly.
//!
//! A position that is its own mirror image (the empty board among them) is solved with the positions of its
//! tree and their images sharing entries ([`Compact::with_symmetry`]): its tree holds each position's image as
//! often as the position.

use crate::abdada::{Abdada, Team};
use crate::compact::{Compact, KeySymmetry, NearEnd};
use crate::horizon::UNLIMITED;
use crate::orderer::{Foreknown, Orderer};
use crate::search::{SearchResult, Searcher};
use crossbeam_utils::CachePadded;
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Node, Player, Value};
use khela_tt::{CompactTable, TableStats, TooSmall};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

/// Connect-4's knowledge, as an ordering of the search loop (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Knowledge;

/// The score of a win completed by stone `stones` on a board of `cells` (0 past the board's end), as a value.
fn score(cells: u32, stones: u32) -> Value {
    Value::from((cells + 2).saturating_sub(stones) / 2)
}

impl Orderer<Connect4> for Knowledge {
    #[inline(always)]
    fn prunes(&self) -> bool {
        true
    }

    #[inline(always)]
    fn lists_moves(&self) -> bool {
        true
    }

    /// No move kept wins (the node's own win is its value) or fills the board (two cells left are a draw).
    #[inline(always)]
    fn bounded_moves_go_on(&self) -> bool {
        true
    }

    // Inlined into the loop, always: with the loop instantiated twice (one thread, and a team's), a function
    // called from two places no longer gets inlined by itself, and the solver took 5% more instructions.
    #[inline(always)]
    /// Below the root no win on the move is looked for: the parent kept only moves after which the opponent has
    /// none (a stone of one side never makes a cell winning for the other). Only for searches to the end of the
    /// game: the scores below are exact ones.
    fn prune(
        &mut self,
        game: &Connect4,
        p: &Position,
        player: Player,
        ply: usize,
        depth: u32,
        moves: &mut Vec<u8>,
    ) -> Foreknown {
        if depth != UNLIMITED {
            if moves.is_empty() {
                game.decision_moves(p, moves);
            }
            return Foreknown::Nothing;
        }
        let (cells, m) = (game.cells(), p.moves_played());
        if ply == 0 && game.winning_cells(p.current()) & game.legal_mask(p) != 0 {
            return Foreknown::Value(player.view(score(cells, m + 1)));
        }
        // The opponent's win on the reply: its cell taken if there is one, never the cell below one.
        let safe = game.safe_cells(p);
        if safe == 0 {
            return Foreknown::Value(player.view(-score(cells, m + 2)));
        }
        if m + 2 >= cells {
            return Foreknown::Value(0.0);
        }
        // Listed from the mask, or a list given filtered (see `Orderer::lists_moves`).
        if moves.is_empty() {
            game.columns(safe, moves);
        } else {
            keep_safe(game, safe, moves);
        }
        let (lo, hi) = (-score(cells, m + 4), score(cells, m + 3));
        if player == Player::Max { Foreknown::Bounds(lo, hi) } else { Foreknown::Bounds(-hi, -lo) }
    }

    /// Threats made, most first; among equals, at a position of at most 13 stones the windows
    /// left open ([`Connect4::order_by_threats_then_windows`]), then the centre ([`Connect4::order_by_threats`]).
    #[inline(always)]
    fn order(&mut self, game: &Connect4, p: &Position, _: Player, _: usize, moves: &mut [u8]) {
        if p.moves_played() <= WINDOWS_UP_TO {
            game.order_by_threats_then_windows(p, moves);
        } else {
            game.order_by_threats(p, moves);
        }
    }
}

/// The moves of `moves` whose cells are in `safe`, in their order: for a list an ordering that wraps
/// [`Knowledge`] hands on, out of the loop's way (the loop hands it none).
#[cold]
#[inline(never)]
fn keep_safe(game: &Connect4, safe: u64, moves: &mut Vec<u8>) {
    moves.retain(|&col| safe & game.column_cells(col) != 0);
}

/// A position's solution: its score for the side to move (strong: the exact score; weak: its sign) and what
/// the search counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// The score, the benchmark's convention (see the module documentation).
    pub score: i32,
    /// Nodes searched, over every pass.
    pub nodes: u64,
}

/// The most stones of a position whose moves, among those that make as many threats, are ordered by the windows
/// of four they leave open rather than from the centre out ([`Connect4::order_by_threats_then_windows`]). Near
/// the root of a hard position the threats rarely tell the moves apart and the centre is a poor guess; deeper,
/// the windows cost more than they save. Nodes a position, one thread, against the centre alone (13 against 0):
/// Begin-Hard's first 6 13.2 M against 20.1 M (weakly, its first 4 4.7 M against 11.6 M), its positions 7–26
/// 45.0 M against 68.5 M, Begin-Medium's positions 21–100 0.88 M against 0.98 M, Begin-Easy's first 300 2,775
/// against 3,252. Up to 10, 12 and 16 stones: Begin-Hard's first 6 13.9 M, 13.5 M and 13.8 M; every position
/// (42), 22.5 M. The windows alone, threats left out, did as well on Begin-Hard and worse on the other sets. The
/// empty board, weakly, on 2 threads: 421 M nodes against 434 M.
const WINDOWS_UP_TO: u32 = 13;

/// The fewest empty cells of a position solved on several threads: below, a solve takes less time than handing
/// it to the other threads and taking their answers back.
const SHARED_FROM_EMPTY: u32 = 16;

/// The plies from the root within which the threads of a team work together (marking the children they search, putting
/// off those another thread is searching), beyond which each searches as if alone ([`Abdada`]): near the leaves a child
/// searched twice costs less than the marks, and beyond them the loop runs its code for a search alone. Two threads (an
/// Intel Xeon, interleaved rounds, the medians of the mean time a position): on Begin-Medium's first 40, 36.6 ms within
/// 10 plies, 37.0 within 8 and 40.8 within 16 (fourteen rounds; 10 the faster of 10 and 16 in eleven of them), 899,600
/// nodes a position against 915,000 and 922,600; on Middle-Medium's first 300, 2.06 ms within 10 against 2.46 within 16
/// (six rounds), and in six more 2.00 within 10, 2.03 within 8 and 2.11 within 12; Begin-Hard's first 6, 0.59 s against
/// 0.58 within 16 (four rounds, 2% more nodes). Within 2, 4 or 6 plies, Begin-Medium took 1.23 M, 1.04 M and 0.99 M
/// nodes a position; within 24 or every ply, 0.96 M and 0.97 M.
const TEAM_PLIES: usize = 10;

/// The regions a solve on one thread starts in and grows through, about this many entries each (8 bytes an
/// entry: 2 and 16 MiB), before the whole table. One thread, interleaved, against the whole 32 MiB table:
/// End-Easy 4.0 µs a position (6.0), Middle-Easy 31 µs (42), Middle-Medium's first 300 3.2 ms (4.1), Begin-Easy's
/// first 400 248 µs (363), Begin-Medium's first 40 105 ms (125), Begin-Hard's first 4 3.86 s (3.74; weak 1.94 s
/// against 1.90, 10% more nodes, when a search that outgrew a region lost its entries; probing the smaller
/// regions on a miss in the larger kept them but took 1.3 times as long; they now move up with the search). A
/// first region of 1.1 MiB did as well as 2; one region of 2 MiB alone, within the noise of two.
const REGION_ENTRIES: [u64; 2] = [1 << 18, 1 << 21];

/// The most stones of a position that shares its entry with its mirror image (when the mirror is on). Deeper
/// positions' subtrees are small, and the image's key is on the path of every probe to memory: weakly, `4444`
/// (base 497 M nodes, 69 s) took 38 s with 16, 39 s with 20, 41 s with 24 and 46 s with every position (281 M
/// nodes); `444444` (98 M nodes, 13.6 s) 11.9 s with 18, 11.5 s with 24 and 13.3 s with every position.
const MIRRORED_STONES: u32 = 20;

/// The board's mirror (its columns in reverse order) as the table's symmetry: on, a position of at most
/// [`MIRRORED_STONES`] stones and its mirror image share an entry. It is on for the solves of positions that
/// are their own image (the empty board among them), whose trees meet each position's image as often as the
/// position itself, and for the moves of such a position, whose images are each other. Elsewhere a position's
/// image is rarely in its tree, and the mirror would cost each probe its work for nothing: on for every
/// position of Begin-Hard's first 3, it saved 1% of the nodes and took 1.15–1.2 times as long.
#[derive(Clone, Copy, Debug, Default)]
struct Mirror {
    on: bool,
}

impl KeySymmetry<Connect4> for Mirror {
    #[inline(always)]
    fn key(&self, game: &Connect4, p: &Position) -> (u64, bool) {
        let key = game.key(p);
        if !self.on || p.moves_played() > MIRRORED_STONES {
            return (key, false);
        }
        // Which of the two is smaller is as unpredictable as a coin: a select, not a branch.
        let image = game.mirror(key);
        (std::hint::select_unpredictable(image < key, image, key), image < key)
    }

    #[inline(always)]
    fn image(&self, game: &Connect4, col: u8) -> u8 {
        game.width() as u8 - 1 - col
    }
}

/// The positions whose entries a solve keeps in a region of their own, [`NEAR_END_ENTRIES`], once it has
/// climbed past that size: those of at most this many empty cells (28 stones or more on the standard board).
/// Their subtrees are small and soon done with, they are most of a large search's nodes, and in the whole table
/// each of their probes waited on memory. Begin-Hard's first 3, one thread, 32 MiB, five interleaved rounds, the
/// time against the whole table for every position: 0.66 with 16 empty cells, 0.68 with 14, 0.75 with 12, in
/// 13.3, 13.1 and 13.2 million nodes a position against 13.2. The empty board weakly (1 GiB, two threads, a 2 MiB
/// region) searched 12% more nodes with 14, 19% with 16, in the same time or less.
const NEAR_END_EMPTY: u32 = 14;

/// The entries of the near-end region (8 bytes an entry: 2 MiB, which the processor's cache holds). Begin-Hard's
/// first 3, positions of 28 stones or more in 4 MiB: 0.73 of the time, 14.2 million nodes; in 8 MiB 0.90, 13.2
/// million. The empty board weakly (1 GiB, two threads): 0.89 of the time with 8 MiB, 470 against 400 million
/// nodes; 0.98 with 16 MiB.
const NEAR_END_ENTRIES: u64 = 1 << 18;

/// Positions of at most [`NEAR_END_EMPTY`] empty cells are near the end.
#[derive(Clone, Copy, Debug, Default)]
struct Endgame;

impl NearEnd<Connect4> for Endgame {
    #[inline(always)]
    fn near_end(&self, game: &Connect4, p: &Position) -> bool {
        p.moves_played() + NEAR_END_EMPTY >= game.cells()
    }
}

/// The compact table's handle a solve searches through.
type Handle = Compact<Mirror, Endgame>;

/// A handle on `table` that grows through the regions of [`REGION_ENTRIES`] (those smaller than the table and
/// large enough for the board's keys), with the mirror (off until a solve turns it on), and keeps positions
/// near the end in a region of their own (if the table is larger than it and its keys fit): copy `copy` of that
/// region ([`CompactTable::beside`]; the first, where the table has no room for that one).
fn growing(table: &Arc<CompactTable>, copy: u64) -> Handle {
    let regions: Vec<_> = (1..)
        .zip(REGION_ENTRIES)
        .filter(|&(_, entries)| entries < table.capacity())
        .filter_map(|(tag, entries)| table.region(tag, entries).ok())
        .collect();
    let handle = Compact::growing(Arc::clone(table), regions).with_symmetry(Mirror::default());
    // The tag after the ladder's: no region of the ladder has it. A board whose keys are too long for so small
    // a region has none.
    let near = table.region(REGION_ENTRIES.len() as u8 + 1, NEAR_END_ENTRIES).ok();
    handle.with_near_end(near.map(|near| table.beside(near, copy).unwrap_or(near)), Endgame)
}

/// One thread's search of a team solving a position together.
type TeamSearcher<'g> = Searcher<'g, Connect4, Knowledge, Abdada<Handle>>;

/// The threads of a solver on several threads: what they share besides the table, each one's search, and the
/// threads that run them, started once and kept from solve to solve (a thread started for each solve and ended
/// after it cost Begin-Medium's first 40 a tenth of their time on two threads: 1.48-1.50 s against 1.36-1.39 s,
/// three interleaved rounds on an Intel Xeon, each thread 12.3 million nodes a second against 13.5). Each search
/// has cache lines of its own: its counters, written at every node, would otherwise share a line with the other
/// search's, and each thread's writes would take it from the other's processor.
struct Crew<'g> {
    team: Arc<Team>,
    searchers: Vec<CachePadded<TeamSearcher<'g>>>,
    pool: Arc<rayon::ThreadPool>,
}

/// Solves Connect-4 positions, keeping its transposition table from one to the next (as Pons' solver does
/// within a position's analysis; [`Solver::reset`] empties it) and its searches' buffers.
pub struct Solver<'g> {
    game: &'g Connect4,
    table: Arc<CompactTable>,
    main: Searcher<'g, Connect4, Knowledge, Handle>,
    /// On several threads: their searches and the threads that run them.
    crew: Option<Crew<'g>>,
    /// The fewest empty cells of a position solved on several threads.
    shared_from: u32,
}

impl<'g> Solver<'g> {
    /// A solver for `game` with a table of `mib` MiB.
    ///
    /// # Errors
    ///
    /// If the table is too small to tell the board's keys apart (a 7 × 6 board's need 2 MiB or more), or the
    /// board's keys are longer than a compact table takes ([`CompactTable::MAX_KEY_BITS`]: 8 × 7 boards' are).
    pub fn new(game: &'g Connect4, mib: usize) -> Result<Solver<'g>, TooSmall> {
        let table = Arc::new(CompactTable::with_mib(mib, game.width() * (game.height() + 1))?);
        // Every solve starts in the first region: its memory is mapped now (the system zeroes a page when it is
        // first written), not in the first solve's time. Pons' solver clears its whole table before each position.
        table.clear_first(REGION_ENTRIES[0]);
        let main = Searcher::new(game, Knowledge).with_cache(growing(&table, 0));
        Ok(Solver { game, table, main, crew: None, shared_from: SHARED_FROM_EMPTY })
    }

    /// The same solver on the threads of `pool`, one searcher a thread (ABDADA: see the module documentation); a
    /// pool of one thread leaves it on the calling thread. The caller builds the pool, as it builds any other:
    /// the library starts no thread of its own.
    pub fn on(self, pool: Arc<rayon::ThreadPool>) -> Solver<'g> {
        let threads = pool.current_num_threads();
        if threads <= 1 {
            return Solver { crew: None, ..self };
        }
        let (team, step) = (Arc::new(Team::new(12)), Arc::new(AtomicUsize::new(0)));
        // Each thread keeps the positions near the end in a copy of the near-end region of its own, beside the
        // first region (copy 0, the same slots), which the team shares.
        let searchers = (1..=threads as u64)
            .map(|copy| {
                let compact = growing(&self.table, copy).in_team(Arc::clone(&step), threads as u64);
                let handle = Abdada::new(compact, Arc::clone(&team), TEAM_PLIES);
                CachePadded::new(Searcher::new(self.game, Knowledge).with_cache(handle))
            })
            .collect();
        Solver { crew: Some(Crew { team, searchers, pool }), ..self }
    }

    /// The same solver, on several threads only for positions with at least `empty` empty cells (by default
    /// 16; 0 for every position, as tests of the threads want).
    pub fn shared_from(self, empty: u32) -> Solver<'g> {
        Solver { shared_from: empty, ..self }
    }

    /// Runs `work` with this solver on one of its own threads (on several threads; on the calling thread on one).
    /// Many solves in a row are best made in one call. A solve called from outside its threads wakes one of them
    /// at its start and is woken itself at its end, and the caller empties the table between solves on whichever
    /// processor it is given; from within, the solve's first search runs on the thread at hand, and a search that
    /// no other thread has taken up by the time the first is done (every pass decided) runs there too, at once. On
    /// an Intel Xeon, two threads: Middle-Easy's first 300 took 42-72 µs a position against 71-106 from outside
    /// (18-20 on one thread), and Begin-Medium's first 200 30.6-32.0 ms in each of ten runs, where from outside the
    /// runs fell in two groups a tenth apart (31.3-32.3 and 35.6-36.6 ms, six runs of ten slow).
    pub fn in_pool<R: Send>(&mut self, work: impl FnOnce(&mut Solver<'g>) -> R + Send) -> R {
        match self.crew.as_ref().map(|crew| Arc::clone(&crew.pool)) {
            Some(pool) => pool.install(|| work(self)),
            None => work(self),
        }
    }

    /// Empties the table (and zeroes its counters), so that the next solve starts afresh.
    pub fn reset(&mut self) {
        // Only as far as the regions of every handle reached.
        let team = self.crew.iter().flat_map(|crew| &crew.searchers);
        let reach = team.map(|searcher| searcher.cache().inner().reach()).fold(self.main.cache().reach(), u64::max);
        self.table.clear_first(reach);
        self.main.cache_mut().reset_stats();
        for searcher in self.crew.iter_mut().flat_map(|crew| &mut crew.searchers) {
            searcher.cache_mut().inner_mut().reset_stats();
        }
    }

    /// The table's counters since the solver was made or reset, over every thread: probes and hits give the
    /// hit rate.
    pub fn table_stats(&self) -> TableStats {
        let mut stats = self.main.cache().stats();
        for searcher in self.crew.iter().flat_map(|crew| &crew.searchers) {
            let more = searcher.cache().inner().stats();
            (stats.probes, stats.hits, stats.stores) =
                (stats.probes + more.probes, stats.hits + more.hits, stats.stores + more.stores);
        }
        stats
    }

    /// The score of `p` for the side to move, or `None` if the game is over. Weak: −1, 0 or 1. The nodes are
    /// every thread's: on several threads they vary from run to run, the score never.
    pub fn solve(&mut self, p: &Position, weak: bool) -> Option<Solution> {
        self.solve_mirrored(p, weak, self.game.mirrored(p) == *p)
    }

    /// [`Solver::solve`], a position and its mirror image sharing entries if `mirror`.
    fn solve_mirrored(&mut self, p: &Position, weak: bool, mirror: bool) -> Option<Solution> {
        let Node::Decision(player) = self.game.node(p) else { return None };
        self.main.cache_mut().symmetry_mut().on = mirror;
        for searcher in self.crew.iter_mut().flat_map(|crew| &mut crew.searchers) {
            searcher.cache_mut().inner_mut().symmetry_mut().on = mirror;
        }
        let (cells, m) = (self.game.cells(), p.moves_played());
        let (lo, hi) = if weak { (-1.0, 1.0) } else { (-score(cells, m + 2), score(cells, m + 1)) };
        let (lo, hi) = if player == Player::Max { (lo, hi) } else { (-hi, -lo) };
        let (value, nodes) = match &mut self.crew {
            Some(Crew { team, searchers, pool }) if cells - m >= self.shared_from => {
                // Every handle back to the first pass and the smallest region before any thread starts.
                team.reset();
                for searcher in searchers.iter_mut() {
                    searcher.cache_mut().restart();
                    searcher.cache_mut().inner_mut().start_small();
                }
                let (first, others) = searchers.split_first_mut().expect("a team has threads");
                // The first search on one of the pool's threads, each other one on another (the pool has as many
                // threads as the team has searches).
                let mut helped: Vec<Option<SearchResult<u8>>> = others.iter().map(|_| None).collect();
                let SearchResult { value, stats, .. } = pool.scope(|scope| {
                    for (searcher, result) in others.iter_mut().zip(helped.iter_mut()) {
                        scope.spawn(move |_| *result = Some(searcher.bisect(p, lo, hi)));
                    }
                    first.bisect(p, lo, hi)
                });
                let mut nodes = stats.nodes;
                for helper in helped.into_iter().flatten() {
                    debug_assert_eq!(helper.value, value, "threads agree on every pass");
                    nodes += helper.stats.nodes;
                }
                (value, nodes)
            }
            _ => {
                self.main.cache_mut().start_small();
                let SearchResult { value, stats, .. } = self.main.bisect(p, lo, hi);
                (value, stats.nodes)
            }
        };
        Some(Solution { score: player.view(value) as i32, nodes })
    }

    /// Every legal move of `p` (columns, 0-based, left to right) with its score for the side to move, or `None`
    /// if the game is over.
    pub fn analyse(&mut self, p: &Position, weak: bool) -> Option<Vec<(u8, Solution)>> {
        let Node::Decision(_) = self.game.node(p) else { return None };
        let (cells, m) = (self.game.cells(), p.moves_played());
        let mut moves = Vec::new();
        self.game.moves(p, &mut moves);
        // The moves of a position that is its own mirror image are each other's images.
        let mirror = self.game.mirrored(p) == *p;
        let solved = moves.into_iter().map(|col| {
            if self.game.is_winning_move(p, col) {
                let won = score(cells, m + 1) as i32;
                return (col, Solution { score: if weak { 1 } else { won }, nodes: 1 });
            }
            // A move that does not win ends the game only by filling the board: a draw.
            let child = self.game.child(p, col);
            let solution = self.solve_mirrored(&child, weak, mirror).unwrap_or(Solution { score: 0, nodes: 1 });
            (col, Solution { score: -solution.score, ..solution })
        });
        Some(solved.collect())
    }
}
