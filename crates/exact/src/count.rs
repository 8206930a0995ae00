//! Counting game trees on every core: move sequences per ply ("perft") and distinct positions per ply.
//!
//! Both counts are sums of integers over a fixed set of subtrees, so they are the same for any number of
//! threads. A ply is a decision's move: a chance node's outcomes are not plies of their own, so in a dice game a
//! ply is a turn, the roll and the move after it (as [`khela_games::conformance::perft`] counts).

use khela_games::{Game, Node};
use rayon::prelude::*;
use std::ops::ControlFlow;

/// Plies above this one are expanded sequentially; the subtrees below are counted in parallel.
pub const SPLIT_PLY: u32 = 4;

/// How a count reports its progress: `progress(done, total)` as units finish (subtrees, plies, parents);
/// `ControlFlow::Break` stops the count, which then returns counts that are partial — the caller that broke it
/// knows to throw them away.
pub type Progress<'a> = &'a (dyn Fn(u64, u64) -> ControlFlow<()> + Sync);

/// A [`Progress`] that reports nothing and never stops the count.
pub fn quiet(_: u64, _: u64) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// `sequences[k]`, for `k` in `0..=depth`: the number of move sequences of exactly `k` moves from `root`, where
/// terminal positions are not extended (a sequence holds the chance outcomes drawn before its moves, which are
/// not moves of their own). This is "perft".
///
/// The tree is split at [`SPLIT_PLY`] (or earlier, for shallow counts), the subtrees are counted in parallel on
/// the current rayon pool, and the last ply is counted in bulk with [`Game::move_count`], without making the
/// moves. `progress(done, total)` is called as subtrees finish.
///
/// # Examples
///
/// ```
/// use khela_exact::count::{perft, quiet};
/// use khela_games::connect4::{Connect4, Position};
/// let counts = perft(&Connect4::standard(), &Position::EMPTY, 7, &quiet);
/// assert_eq!(counts, [1, 7, 49, 343, 2401, 16807, 117649, 823536]);
/// ```
pub fn perft<G>(game: &G, root: &G::State, depth: u32, progress: Progress<'_>) -> Vec<u64>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    perft_shard(game, root, depth, Shard::WHOLE, progress)
}

/// One of `n` disjoint parts of a count, numbered `k` in `0..n` (a task of a cluster's job array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This part.
    pub k: u64,
    /// The number of parts.
    pub n: u64,
}

impl Shard {
    /// The whole count, in one part.
    pub const WHOLE: Shard = Shard { k: 0, n: 1 };
}

/// Frontier subtrees a shard gets at least, on average: the frontier is grown until it has this many a shard.
const SUBTREES_PER_SHARD: u64 = 64;

/// Shard `shard.k` of [`perft`] split in `shard.n` parts whose counts add up to the whole: the tree is grown to a
/// frontier ply (deeper for more shards, the same for every shard of a count) and the shard counts the frontier
/// subtrees whose index is `k` mod `n`; the plies above the frontier are counted by shard 0 alone.
///
/// ```
/// use khela_exact::count::{Shard, perft, perft_shard, quiet};
/// use khela_games::connect4::{Connect4, Position};
/// let game = Connect4::standard();
/// let parts: Vec<Vec<u64>> = (0..3).map(|k| perft_shard(&game, &Position::EMPTY, 6, Shard { k, n: 3 }, &quiet)).collect();
/// let sum: Vec<u64> = (0..=6).map(|ply| parts.iter().map(|p| p[ply]).sum()).collect();
/// assert_eq!(sum, perft(&game, &Position::EMPTY, 6, &quiet));
/// ```
pub fn perft_shard<G>(game: &G, root: &G::State, depth: u32, shard: Shard, progress: Progress<'_>) -> Vec<u64>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    assert!(shard.k < shard.n, "shard {} of {}", shard.k, shard.n);
    let mut counts = vec![0u64; depth as usize + 1];
    counts[0] = 1;
    // The frontier: every position reached by a sequence of `split` moves, one per sequence. It is grown to
    // SPLIT_PLY, and further while it has fewer than SUBTREES_PER_SHARD subtrees a shard, never to the last ply.
    let mut frontier = vec![root.clone()];
    let mut split = 0;
    let mut buf = Vec::new();
    let mut outcomes = Vec::new();
    let wanted = if shard.n == 1 { 0 } else { shard.n.saturating_mul(SUBTREES_PER_SHARD) };
    while split + 1 < depth && (split < SPLIT_PLY || (frontier.len() as u64) < wanted) {
        frontier = frontier.iter().flat_map(|state| turn_children(game, state, &mut buf, &mut outcomes)).collect();
        split += 1;
        counts[split as usize] = frontier.len() as u64;
    }
    if shard.k != 0 {
        counts[..=split as usize].fill(0);
    }
    if depth == 0 {
        return counts;
    }
    let frontier: Vec<G::State> =
        frontier.into_iter().enumerate().filter(|(i, _)| *i as u64 % shard.n == shard.k).map(|(_, s)| s).collect();
    let total = frontier.len() as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let below = frontier
        .par_iter()
        .map(|state| {
            let mut local = vec![0u64; depth as usize + 1];
            if stopped.load(std::sync::atomic::Ordering::Relaxed) {
                return local;
            }
            let mut scratch = Scratch::default();
            count_sequences(game, state, split as usize, depth as usize, &mut local, &mut scratch);
            if progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, total).is_break() {
                stopped.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            local
        })
        .reduce(|| vec![0u64; depth as usize + 1], add_counts);
    for (count, extra) in counts.iter_mut().zip(below).skip(split as usize + 1) {
        *count += extra;
    }
    counts
}

fn add_counts(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// Move buffers, one per ply.
struct Scratch<M> {
    moves: Vec<Vec<M>>,
    outcomes: Vec<(M, f64)>,
    bulk: Vec<M>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch { moves: Vec::new(), outcomes: Vec::new(), bulk: Vec::new() }
    }
}

/// Adds to `counts[k]` the sequences of `k` moves through `state`, which is at `ply`, for `k` in `ply+1..=depth`.
fn count_sequences<G: Game>(
    game: &G,
    state: &G::State,
    ply: usize,
    depth: usize,
    counts: &mut [u64],
    scratch: &mut Scratch<G::Move>,
) {
    match game.node(state) {
        Node::Terminal(_) => {}
        Node::Chance => {
            // Not a ply: each outcome's decision is this ply's.
            let mut outcomes = std::mem::take(&mut scratch.outcomes);
            game.outcomes(state, &mut outcomes);
            for &(outcome, _) in &outcomes {
                count_sequences(game, &game.child(state, outcome), ply, depth, counts, scratch);
            }
            scratch.outcomes = outcomes;
        }
        Node::Decision(_) => {
            if scratch.moves.len() <= ply {
                scratch.moves.resize_with(ply + 1, Vec::new);
            }
            let mut moves = std::mem::take(&mut scratch.moves[ply]);
            if ply + 1 == depth {
                // Bulk counting: the last ply's sequences are the moves of this node, counted, not made.
                counts[depth] += game.move_count(state, &mut moves) as u64;
            } else if ply + 2 == depth {
                // The children's own moves are the last ply: bulk-count them here, without a call per child.
                game.moves(state, &mut moves);
                counts[ply + 1] += moves.len() as u64;
                for &mv in &moves {
                    counts[depth] += turn_moves(game, &game.child(state, mv), scratch);
                }
            } else {
                game.moves(state, &mut moves);
                counts[ply + 1] += moves.len() as u64;
                for &mv in &moves {
                    count_sequences(game, &game.child(state, mv), ply + 1, depth, counts, scratch);
                }
            }
            scratch.moves[ply] = moves;
        }
    }
}

/// The moves of `state`'s turn: a decision node's moves, a chance node's outcomes' moves summed, none at the end.
fn turn_moves<G: Game>(game: &G, state: &G::State, scratch: &mut Scratch<G::Move>) -> u64 {
    match game.node(state) {
        Node::Terminal(_) => 0,
        Node::Decision(_) => game.move_count(state, &mut scratch.bulk) as u64,
        Node::Chance => {
            let mut outcomes = std::mem::take(&mut scratch.outcomes);
            game.outcomes(state, &mut outcomes);
            let moves = outcomes.iter().map(|&(o, _)| turn_moves(game, &game.child(state, o), scratch)).sum();
            scratch.outcomes = outcomes;
            moves
        }
    }
}

/// The states one ply (a decision's move) after `state`, in natural order: a chance node's are those after each
/// outcome's moves.
fn turn_children<G: Game>(
    game: &G,
    state: &G::State,
    buf: &mut Vec<G::Move>,
    outcomes: &mut Vec<(G::Move, f64)>,
) -> Vec<G::State> {
    match game.node(state) {
        Node::Chance => {
            game.outcomes(state, outcomes);
            let drawn: Vec<G::State> = outcomes.iter().map(|&(o, _)| game.child(state, o)).collect();
            drawn.iter().flat_map(|s| turn_children(game, s, buf, outcomes)).collect()
        }
        _ => children(game, state, buf, outcomes),
    }
}

/// The children of a non-terminal state (decision moves or chance outcomes), in natural order.
pub(crate) fn children<G: Game>(
    game: &G,
    state: &G::State,
    buf: &mut Vec<G::Move>,
    outcomes: &mut Vec<(G::Move, f64)>,
) -> Vec<G::State> {
    match game.node(state) {
        Node::Terminal(_) => Vec::new(),
        Node::Decision(_) => {
            game.moves(state, buf);
            buf.iter().map(|&mv| game.child(state, mv)).collect()
        }
        Node::Chance => {
            game.outcomes(state, outcomes);
            outcomes.iter().map(|&(o, _)| game.child(state, o)).collect()
        }
    }
}

/// How many children a shard of the next ply may hold before the ply is split into more shards.
pub const SHARD_ENTRIES: u64 = 1 << 26;

/// `positions[k]`, for `k` in `0..=depth`: the number of distinct positions (by [`Game::key`], which must be
/// unique for the count to be exact) reached by exactly `k` moves from `root`, terminal positions not extended
/// (in a dice game, the positions after a turn's move, before the next roll).
///
/// It goes ply by ply, holding the positions of two plies at once. The children of a ply are generated in
/// parallel into shards by a hash of their key, each shard sorted by key and deduplicated in parallel; when a
/// ply would have more than [`SHARD_ENTRIES`] children, it is split into several shards generated one after
/// another, so the peak memory is about `(positions[k-1] + positions[k] + SHARD_ENTRIES)` states.
/// `progress(ply, depth)` is called as plies finish.
///
/// # Examples
///
/// ```
/// use khela_exact::count::{distinct_positions, quiet};
/// use khela_games::connect4::{Connect4, Position};
/// // OEIS A212693.
/// assert_eq!(distinct_positions(&Connect4::standard(), &Position::EMPTY, 5, &quiet), [1, 7, 49, 238, 1120, 4263]);
/// ```
pub fn distinct_positions<G>(game: &G, root: &G::State, depth: u32, progress: Progress<'_>) -> Vec<u64>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
{
    let mut counts = vec![1u64];
    let mut level = vec![root.clone()];
    for ply in 1..=u64::from(depth) {
        let estimate: u64 =
            level.par_iter().map_init(Scratch::default, |scratch, state| turn_moves(game, state, scratch)).sum();
        let shards = estimate.div_ceil(SHARD_ENTRIES).max(1);
        let mut next: Vec<G::State> = Vec::new();
        for shard in 0..shards {
            let mut part: Vec<(u64, G::State)> = level
                .par_iter()
                .fold(
                    || (Vec::new(), Vec::new(), Vec::new()),
                    |(mut acc, mut buf, mut outcomes), state| {
                        for child in turn_children(game, state, &mut buf, &mut outcomes) {
                            let key = game.key(&child);
                            if owner(key, shards) == shard {
                                acc.push((key, child));
                            }
                        }
                        (acc, buf, outcomes)
                    },
                )
                .map(|(acc, _, _)| acc)
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                });
            part.par_sort_unstable_by_key(|&(key, _)| key);
            part.dedup_by_key(|&mut (key, _)| key);
            next.extend(part.into_iter().map(|(_, state)| state));
        }
        counts.push(next.len() as u64);
        level = next;
        if progress(ply, u64::from(depth)).is_break() {
            break;
        }
    }
    counts
}

/// The shard, in `0..shards`, that owns a position with key `key`: the high bits of a multiplicative hash, so
/// that keys with similar low bits spread out. [`distinct_positions`] splits a ply's children by it, and the
/// parts of a sharded count of distinct positions ([`expand`]) own the positions by it.
///
/// ```
/// use khela_exact::count::owner;
/// assert_eq!(owner(12345, 1), 0);
/// assert!((0..1000).all(|key| owner(key, 3) < 3));
/// ```
pub fn owner(key: u64, shards: u64) -> u64 {
    ((u128::from(key.wrapping_mul(0x9E37_79B9_7F4A_7C15)) * u128::from(shards)) >> 64) as u64
}

/// The most children a position may have in one ply for [`expand`]: a line of play holds a byte a ply.
pub const MAX_TURN_CHILDREN: usize = 256;

/// Parents expanded at once by [`expand`], between which the children found so far may be deduplicated.
const EXPAND_BATCH: usize = 1 << 16;

/// Positions of one ply, each written as its line of play from the root: for every ply, the index of the
/// position among its parent's children one ply on ([`turn_child`]), one byte a ply. A line rebuilds its
/// position with [`replay`], so it travels between the tasks of a sharded count as bytes, whatever the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    ply: usize,
    len: usize,
    bytes: Vec<u8>,
}

impl Lines {
    /// No positions yet, of ply `ply` (lines of `ply` bytes).
    pub fn new(ply: usize) -> Lines {
        Lines { ply, len: 0, bytes: Vec::new() }
    }

    /// Adds the position reached by `line`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `line` is not `ply` bytes long.
    pub fn push(&mut self, line: &[u8]) {
        debug_assert_eq!(line.len(), self.ply, "a line of ply {}", self.ply);
        self.bytes.extend_from_slice(line);
        self.len += 1;
    }

    /// The ply of the positions, the length of every line.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The line of position `i`.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[i * self.ply..(i + 1) * self.ply]
    }
}

/// A position one ply after one of the [`Lines`] given to [`expand`]: its key, and the line that reaches it,
/// its parent's line followed by `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// The position's key ([`Game::key`]).
    pub key: u64,
    /// The parent's index in the lines expanded.
    pub parent: u32,
    /// The position's index among the parent's children one ply on.
    pub index: u8,
}

/// Why [`expand`] could not expand lines of play.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExpandError {
    /// A position has more children in one ply than a line's byte can number.
    #[error("a position has {0} children in one ply, more than the {MAX_TURN_CHILDREN} a line of play can number")]
    TooManyChildren(usize),
    /// A line names a child its position does not have: it is not a line of this game from this root.
    #[error("a line of play names child {index} at ply {ply}, which its position does not have")]
    NoSuchChild {
        /// The ply of the missing child.
        ply: usize,
        /// The child's index.
        index: u8,
    },
    /// More lines than a [`Child`] can name a parent of.
    #[error("{0} positions are more than one part of a count may expand (2^32)")]
    TooManyParents(usize),
}

/// The child `index` of `state` one ply (a decision's move) on, in the order [`turn_children`] lists them: a
/// decision node's moves in natural order; a chance node's outcomes in order, each followed by the moves after
/// it. `None` when there are not that many.
///
/// ```
/// use khela_exact::count::turn_child;
/// use khela_games::{Game, connect4::{Connect4, Position}};
/// let game = Connect4::standard();
/// assert_eq!(turn_child(&game, &Position::EMPTY, 3), Some(game.child(&Position::EMPTY, 3)));
/// assert_eq!(turn_child(&game, &Position::EMPTY, 7), None);
/// ```
pub fn turn_child<G: Game>(game: &G, state: &G::State, index: usize) -> Option<G::State> {
    nth_turn_child(game, state, index, &mut Vec::new(), &mut Vec::new()).ok()
}

/// The child `index` of `state` one ply on, or how far past its last child `index` is.
fn nth_turn_child<G: Game>(
    game: &G,
    state: &G::State,
    index: usize,
    buf: &mut Vec<G::Move>,
    outcomes: &mut Vec<(G::Move, f64)>,
) -> Result<G::State, usize> {
    match game.node(state) {
        Node::Terminal(_) => Err(index),
        Node::Decision(_) => {
            game.moves(state, buf);
            buf.get(index).map(|&mv| game.child(state, mv)).ok_or_else(|| index - buf.len())
        }
        Node::Chance => {
            game.outcomes(state, outcomes);
            let drawn: Vec<G::State> = outcomes.iter().map(|&(o, _)| game.child(state, o)).collect();
            drawn
                .iter()
                .try_fold(index, |rest, s| match nth_turn_child(game, s, rest, buf, outcomes) {
                    Ok(child) => Err(Ok(child)),
                    Err(rest) => Ok(rest),
                })
                .map_or_else(|found| found, Err)
        }
    }
}

/// The position `line` reaches from `root` ([`Lines`]), or why it reaches none.
///
/// ```
/// use khela_exact::count::replay;
/// use khela_games::connect4::{Connect4, Position};
/// let game = Connect4::standard();
/// assert_eq!(replay(&game, &Position::EMPTY, &[3, 3]), Ok(game.parse("44").unwrap()));
/// ```
pub fn replay<G: Game>(game: &G, root: &G::State, line: &[u8]) -> Result<G::State, ExpandError> {
    let (mut buf, mut outcomes) = (Vec::new(), Vec::new());
    let mut state = root.clone();
    for (ply, &index) in line.iter().enumerate() {
        state = nth_turn_child(game, &state, usize::from(index), &mut buf, &mut outcomes)
            .map_err(|_| ExpandError::NoSuchChild { ply: ply + 1, index })?;
    }
    Ok(state)
}

/// The children one ply after the positions `lines` reach from `root`, split among `shards` owners by
/// [`owner`] of their key: `parts[k]` holds owner `k`'s, sorted by key and deduplicated, each position once,
/// reached from the first of its parents in the order of `lines` (by the first of its indices there). The
/// parts depend only on `lines`, not on the threads.
///
/// This is one step of a count of distinct positions split among tasks that exchange each ply's positions:
/// every task expands the positions it owns and sends each owner its part; an owner merges what it receives
/// from every task, keeps each key once, and counts them. Its peak memory is the lines (`ply` bytes each) and
/// 16 bytes for every distinct child (and those of the last [`EXPAND_BATCH`] parents before they are
/// deduplicated). `progress(done, total)` is called as parents are expanded.
///
/// ```
/// use khela_exact::count::{Lines, distinct_positions, expand, quiet};
/// use khela_games::connect4::{Connect4, Position};
/// let game = Connect4::standard();
/// let mut root = Lines::new(0);
/// root.push(&[]);
/// let parts = expand(&game, &Position::EMPTY, &root, 2, &quiet).unwrap();
/// assert_eq!(parts[0].len() + parts[1].len(), 7);
/// ```
pub fn expand<G>(
    game: &G,
    root: &G::State,
    lines: &Lines,
    shards: u64,
    progress: Progress<'_>,
) -> Result<Vec<Vec<Child>>, ExpandError>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
{
    assert!(shards > 0, "no shards");
    if lines.len() > u32::MAX as usize + 1 {
        return Err(ExpandError::TooManyParents(lines.len()));
    }
    let mut parts: Vec<Vec<Child>> = (0..shards).map(|_| Vec::new()).collect();
    let mut deduplicated = vec![0usize; shards as usize];
    for start in (0..lines.len()).step_by(EXPAND_BATCH) {
        let end = (start + EXPAND_BATCH).min(lines.len());
        let found: Vec<Child> = (start..end)
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(buf, outcomes), parent| -> Result<Vec<Child>, ExpandError> {
                    let state = replay(game, root, lines.get(parent))?;
                    let children = turn_children(game, &state, buf, outcomes);
                    if children.len() > MAX_TURN_CHILDREN {
                        return Err(ExpandError::TooManyChildren(children.len()));
                    }
                    Ok(children
                        .iter()
                        .enumerate()
                        .map(|(i, child)| Child { key: game.key(child), parent: parent as u32, index: i as u8 })
                        .collect())
                },
            )
            .collect::<Result<Vec<Vec<Child>>, ExpandError>>()?
            .into_iter()
            .flatten()
            .collect();
        for child in found {
            parts[owner(child.key, shards) as usize].push(child);
        }
        // A part is deduplicated whenever it has doubled since it last was, which bounds its memory by about
        // twice its distinct children.
        for (part, done) in parts.iter_mut().zip(&mut deduplicated) {
            if part.len() >= 2 * *done + EXPAND_BATCH {
                sort_children(part);
                *done = part.len();
            }
        }
        if progress(end as u64, lines.len() as u64).is_break() {
            break;
        }
    }
    for part in &mut parts {
        sort_children(part);
    }
    Ok(parts)
}

/// Sorts children by key, then parent and index, and keeps the first of each key.
fn sort_children(children: &mut Vec<Child>) {
    children.par_sort_unstable_by_key(|c| (c.key, c.parent, c.index));
    children.dedup_by_key(|c| c.key);
}

#[cfg(test)]
mod tests {
    use super::*;
    use khela_games::connect4::{Connect4, Position};
    use khela_games::einstein::{Einstein, Setup};
    use khela_games::tictactoe::{Board, TicTacToe};

    /// Distinct positions per ply counted in `shards` parts that exchange their positions ply by ply, as the
    /// tasks of a cluster do through files: each ply's counts, per part.
    fn exchanged<G>(game: &G, root: &G::State, depth: usize, shards: u64) -> Vec<Vec<u64>>
    where
        G: Game + Sync,
        G::State: Send + Sync,
        G::Move: Send,
    {
        let mut counts = Vec::new();
        // What each part receives: (key, line) from every part.
        let mut inboxes: Vec<Vec<(u64, Vec<u8>)>> = vec![Vec::new(); shards as usize];
        inboxes[owner(game.key(root), shards) as usize].push((game.key(root), Vec::new()));
        for ply in 0..=depth {
            let mut row = vec![0u64; shards as usize];
            let mut next: Vec<Vec<(u64, Vec<u8>)>> = vec![Vec::new(); shards as usize];
            for (k, inbox) in inboxes.iter_mut().enumerate() {
                // Stable: the first sender's line of a key is kept, as the tasks keep it.
                inbox.sort_by_key(|(key, _)| *key);
                inbox.dedup_by_key(|(key, _)| *key);
                row[k] = inbox.len() as u64;
                let mut lines = Lines::new(ply);
                for (_, line) in inbox.iter() {
                    lines.push(line);
                }
                for (owner, part) in expand(game, root, &lines, shards, &quiet).unwrap().into_iter().enumerate() {
                    assert!(part.windows(2).all(|w| w[0].key < w[1].key));
                    for c in part {
                        assert_eq!(owner as u64, super::owner(c.key, shards));
                        let mut line = lines.get(c.parent as usize).to_vec();
                        line.push(c.index);
                        assert_eq!(game.key(&replay(game, root, &line).unwrap()), c.key);
                        next[owner].push((c.key, line));
                    }
                }
            }
            inboxes = next;
            counts.push(row);
        }
        counts
    }

    fn check<G>(game: &G, root: &G::State, depth: u32)
    where
        G: Game + Sync,
        G::State: Send + Sync,
        G::Move: Send,
    {
        let whole = distinct_positions(game, root, depth, &quiet);
        for shards in 1..=4 {
            let parts = exchanged(game, root, depth as usize, shards);
            let sum: Vec<u64> = parts.iter().map(|row| row.iter().sum()).collect();
            assert_eq!(sum, whole, "{shards} shards");
        }
    }

    #[test]
    fn parts_that_exchange_positions_count_them_all() {
        check(&Connect4::standard(), &Position::EMPTY, 6);
        check(&TicTacToe, &Board::EMPTY, 9);
        let setup = Setup::random(0);
        check(&Einstein::new(setup), &setup.state(), 3);
    }

    #[test]
    fn a_line_of_a_missing_child_is_refused() {
        let game = Connect4::standard();
        assert_eq!(replay(&game, &Position::EMPTY, &[1, 9]), Err(ExpandError::NoSuchChild { ply: 2, index: 9 }));
    }
}
