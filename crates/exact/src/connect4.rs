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
//! A team's own work (marking the children its threads search, putting off those another thread is searching,
//! its regions of the table and its climb through them) costs instructions at every node, and most nodes lie
//! below the plies where the threads work together (`TEAM_PLIES`): so the loop has an instance of its own for
//! those plies, and below them runs the code of a search alone. The threads share each null-window test rather
//! than test different scores at once, which searches more nodes.
//!
//! A team searches more nodes than one thread: mostly in the passes that fail low, and about half of the extra
//! nodes below the team's plies, where each thread searches alone — the price of two subtrees searched at once,
//! each without the other's results. (The costs, and the variants that did not lower them: see
//! docs/src/measured-choices.md, 'Connect-4 solver'.)
//!
//! Each solve starts in a small region of the table ([`Compact::growing`]), which stays in the processor's
//! cache, and moves to larger ones, its entries with it, as it stores more: most benchmark positions never leave
//! the first, whose probes would otherwise wait on memory. A team's threads climb together
//! ([`Compact::in_team`]), rather than search the whole table from the start (measured: see
//! docs/src/measured-choices.md, 'Connect-4 solver').
//!
//! Once a solve has climbed past 2 MiB, the positions near the end of the game (at most 14 empty cells) keep
//! their entries in a 2 MiB region of their own ([`Compact::with_near_end`]), which the processor's cache holds:
//! their subtrees are small and soon done with, and they are most of the nodes, whose probes in the whole table
//! would wait on memory. Each thread of a team keeps them in a copy of that region of its own
//! ([`CompactTable::beside`]), from the start: in one region that both write, each thread's probes would wait on
//! the entries the other's processor has just written. (Measured: see docs/src/measured-choices.md, 'Connect-4
//! solver'.)
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

    // Inlined into the loop, always: the loop is instantiated twice (one thread, and a team's), and a function
    // called from two places is not inlined by itself; the calls would cost the solver instructions.
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
/// the windows cost more than they save. The threats stay the first key: the windows alone order worse. (13 and
/// the alternatives measured: see docs/src/measured-choices.md, 'Connect-4 solver'.)
const WINDOWS_UP_TO: u32 = 13;

/// The fewest empty cells of a position solved on several threads: below, a solve takes less time than handing
/// it to the other threads and taking their answers back.
const SHARED_FROM_EMPTY: u32 = 16;

/// The plies from the root within which the threads of a team work together (marking the children they search, putting
/// off those another thread is searching), beyond which each searches as if alone ([`Abdada`]): near the leaves a child
/// searched twice costs less than the marks, and beyond them the loop runs its code for a search alone. (10 and the
/// alternatives measured: see docs/src/measured-choices.md, 'Connect-4 solver'.)
const TEAM_PLIES: usize = 10;

/// The regions a solve on one thread starts in and grows through, about this many entries each (8 bytes an
/// entry: 2 and 16 MiB), before the whole table: a small region stays in the processor's cache, and a search
/// takes its entries with it to the next ([`Compact::growing`]). (Measured against the whole table from the
/// start: see docs/src/measured-choices.md, 'Connect-4 solver'.)
const REGION_ENTRIES: [u64; 2] = [1 << 18, 1 << 21];

/// The most stones of a position that shares its entry with its mirror image (when the mirror is on). Deeper
/// positions' subtrees are small, and the image's key is on the path of every probe to memory, so that sharing
/// their entries costs more time than it saves. (Measured: see docs/src/measured-choices.md, 'Connect-4 solver'.)
const MIRRORED_STONES: u32 = 20;

/// The board's mirror (its columns in reverse order) as the table's symmetry: on, a position of at most
/// [`MIRRORED_STONES`] stones and its mirror image share an entry. It is on for the solves of positions that
/// are their own image (the empty board among them), whose trees meet each position's image as often as the
/// position itself, and for the moves of such a position, whose images are each other. Elsewhere a position's
/// image is rarely in its tree, and the mirror would cost each probe its work for nothing (measured: see
/// docs/src/measured-choices.md, 'Connect-4 solver').
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
/// each of their probes would wait on memory. More empty cells crowd the region on large searches; fewer leave
/// more probes to memory. (Measured: see docs/src/measured-choices.md, 'Connect-4 solver'.)
const NEAR_END_EMPTY: u32 = 14;

/// The entries of the near-end region (8 bytes an entry: 2 MiB, which the processor's cache holds; larger regions
/// are slower, measured: see docs/src/measured-choices.md, 'Connect-4 solver').
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
/// threads that run them, started once and kept from solve to solve: a thread started for each solve and ended
/// after it would cost each solve its time (measured: see docs/src/measured-choices.md, 'Connect-4 solver'). Each
/// search has cache lines of its own: its counters, written at every node, would otherwise share a line with the
/// other search's, and each thread's writes would take it from the other's processor.
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
    /// The bits of `game`'s keys: a column's cells and its sentinel bit, for every column.
    fn key_bits(game: &Connect4) -> u32 {
        game.width() * (game.height() + 1)
    }

    /// The smallest table, in MiB, that tells `game`'s keys apart ([`CompactTable::min_mib`]): 2 MiB for 7 × 6,
    /// 129 for 8 × 6.
    pub fn min_table_mib(game: &Connect4) -> usize {
        CompactTable::min_mib(Self::key_bits(game))
    }

    /// A solver for `game` with a table of `mib` MiB.
    ///
    /// # Errors
    ///
    /// If the table is too small to tell the board's keys apart (a 7 × 6 board's need 2 MiB or more), or the
    /// board's keys are longer than a compact table takes ([`CompactTable::MAX_KEY_BITS`]: 8 × 7 boards' are).
    pub fn new(game: &'g Connect4, mib: usize) -> Result<Solver<'g>, TooSmall> {
        let table = Arc::new(CompactTable::with_mib(mib, Self::key_bits(game))?);
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
    /// no other thread has taken up by the time the first is done (every pass decided) runs there too, at once:
    /// solves take less time, and their times vary less, than from outside (measured: see
    /// docs/src/measured-choices.md, 'Connect-4 solver').
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
