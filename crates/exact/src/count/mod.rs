//! Counting game trees on every core: move sequences per ply ("perft") and distinct positions per ply.
//!
//! Both counts are sums of integers over a fixed set of subtrees, so they are the same for any number of
//! threads. A ply is a decision's move: a chance node's outcomes are not plies of their own, so in a dice game a
//! ply is a turn, the roll and the move after it (as [`khela_games::conformance::perft`] counts).

use khela_games::{Game, Node};
use rayon::prelude::*;
use std::ops::ControlFlow;

pub mod exchange;

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
            let mut moves = vec![Vec::new(); depth as usize - split as usize];
            count_sequences(game, state, split as usize, depth as usize, &mut local, &mut moves, &mut scratch);
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

/// Buffers of a chance node's outcomes and of the last ply's moves.
struct Scratch<M> {
    outcomes: Vec<(M, f64)>,
    bulk: Vec<M>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch { outcomes: Vec::new(), bulk: Vec::new() }
    }
}

/// Adds to `counts[k]` the sequences of `k` moves through `state`, which is at `ply`, for `k` in `ply+1..=depth`.
/// `moves[0]` is this ply's move buffer, `moves[1..]` those of the plies below.
fn count_sequences<G: Game>(
    game: &G,
    state: &G::State,
    ply: usize,
    depth: usize,
    counts: &mut [u64],
    moves: &mut [Vec<G::Move>],
    scratch: &mut Scratch<G::Move>,
) {
    match game.node(state) {
        Node::Terminal(_) => {}
        Node::Chance => {
            // Not a ply: each outcome's decision is this ply's.
            let mut outcomes = std::mem::take(&mut scratch.outcomes);
            game.outcomes(state, &mut outcomes);
            for &(outcome, _) in &outcomes {
                count_sequences(game, &game.child(state, outcome), ply, depth, counts, moves, scratch);
            }
            scratch.outcomes = outcomes;
        }
        Node::Decision(_) => {
            let (mine, below) = moves.split_first_mut().expect("a move buffer for each ply");
            if ply + 1 == depth {
                // Bulk counting: the last ply's sequences are the moves of this node, counted, not made.
                counts[depth] += game.move_count(state, mine) as u64;
            } else if ply + 2 == depth {
                // The children's own moves are the last ply: bulk-count them here, without a call per child.
                game.decision_moves(state, mine);
                counts[ply + 1] += mine.len() as u64;
                for &mv in mine.iter() {
                    counts[depth] += turn_moves(game, &game.child(state, mv), scratch);
                }
            } else {
                game.decision_moves(state, mine);
                counts[ply + 1] += mine.len() as u64;
                for &mv in mine.iter() {
                    count_sequences(game, &game.child(state, mv), ply + 1, depth, counts, below, scratch);
                }
            }
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
pub const SHARD_ENTRIES: u64 = 1 << 24;

/// Children a bucket holds, about: a bucket is deduplicated on its own, its set of keys in a core's cache.
const BUCKET_ENTRIES: u64 = 1 << 12;

/// Parents expanded by one task at least, whose children are grouped by bucket before the buckets are merged.
const CHUNK_PARENTS: usize = 1 << 12;

/// Chunks of parents a ply is split into at most (each keeps where its buckets start: a word a bucket).
const MAX_CHUNKS: usize = 256;

/// `positions[k]`, for `k` in `0..=depth`: the number of distinct positions (by [`Game::key`], which must be
/// unique for the count to be exact) reached by exactly `k` moves from `root`, terminal positions not extended
/// (in a dice game, the positions after a turn's move, before the next roll).
///
/// It goes ply by ply, holding the positions of two plies at once. A ply's children are generated in parallel,
/// a chunk of parents at a time, each chunk's children grouped by a hash of their key into small buckets; then
/// every bucket, gathered from all the chunks, is deduplicated on its own through a set of its keys, in
/// parallel (small sets, in a core's cache, rather than one sort or one set of the whole ply, or a sort of each bucket,
/// which take longer: measured, see docs/src/measured-choices.md, 'Counting and value iteration'). When a ply would
/// have more than [`SHARD_ENTRIES`] children, it is split into several shards by the same hash, generated one after
/// another, so the peak memory is about `positions[k-1] + positions[k] + SHARD_ENTRIES` states. The next ply's
/// positions come out in the same order whatever the number of threads. `progress(ply, depth)` is called as plies
/// finish.
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
    distinct_positions_in(game, root, depth, SHARD_ENTRIES, u64::MAX, progress)
}

/// [`distinct_positions`] of the plies whose children number at most `max_children`: the counts of plies
/// `0..=k`, where ply `k + 1` (if `k < depth`) would have generated more. A count's first plies, counted for
/// real in bounded time and memory, to measure how a game's positions grow before a larger count is begun.
pub fn distinct_positions_within<G>(game: &G, root: &G::State, depth: u32, max_children: u64) -> Vec<u64>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
{
    distinct_positions_in(game, root, depth, SHARD_ENTRIES, max_children, &quiet)
}

/// [`distinct_positions`] with at most about `shard_entries` children generated at once, stopped before a ply of
/// more than `max_children` children.
fn distinct_positions_in<G>(
    game: &G,
    root: &G::State,
    depth: u32,
    shard_entries: u64,
    max_children: u64,
    progress: Progress<'_>,
) -> Vec<u64>
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
        if estimate > max_children {
            break;
        }
        let shards = estimate.div_ceil(shard_entries).max(1);
        let buckets = (estimate / shards).div_ceil(BUCKET_ENTRIES).max(1);
        let mut next: Vec<G::State> = Vec::new();
        for shard in 0..shards {
            let parts = distinct_children(game, &level, Cells { shard, shards, buckets });
            next.reserve(parts.iter().map(Vec::len).sum());
            for part in parts {
                next.extend(part);
            }
        }
        counts.push(next.len() as u64);
        level = next;
        if progress(ply, u64::from(depth)).is_break() {
            break;
        }
    }
    counts
}

/// How [`distinct_positions`] splits a ply's children: into `shards` generated one after another, each into
/// `buckets` merged in parallel, by [`owner`] among `shards × buckets`.
#[derive(Clone, Copy)]
struct Cells {
    shard: u64,
    shards: u64,
    buckets: u64,
}

/// The distinct children of `level` in shard `cells.shard`, bucket by bucket, each the first time it is met
/// (chunk by chunk, in `level`'s order).
fn distinct_children<G>(game: &G, level: &[G::State], cells: Cells) -> Vec<Vec<G::State>>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
{
    let Cells { shard, shards, buckets } = cells;
    // Each chunk's children of this shard, grouped by bucket (a counting sort), with where each bucket starts.
    // (A bucket's children come out in `level`'s order however it is chunked.)
    let chunk = level.len().div_ceil(MAX_CHUNKS).max(CHUNK_PARENTS);
    let grouped: Vec<(Vec<G::State>, Vec<usize>)> = level
        .par_chunks(chunk)
        .map_init(
            || (Vec::new(), Vec::new()),
            |(buf, outcomes), parents| {
                let mut children = Vec::new();
                let mut bucket_of = Vec::new();
                for state in parents {
                    for child in turn_children(game, state, buf, outcomes) {
                        let cell = owner(game.key(&child), shards * buckets);
                        if cell / buckets == shard {
                            bucket_of.push((cell % buckets) as u32);
                            children.push(child);
                        }
                    }
                }
                let mut starts = vec![0usize; buckets as usize + 1];
                for &b in &bucket_of {
                    starts[b as usize + 1] += 1;
                }
                for b in 0..buckets as usize {
                    starts[b + 1] += starts[b];
                }
                let mut order = vec![0usize; children.len()];
                let mut fill = starts.clone();
                for (i, &b) in bucket_of.iter().enumerate() {
                    order[fill[b as usize]] = i;
                    fill[b as usize] += 1;
                }
                (order.into_iter().map(|i| children[i].clone()).collect(), starts)
            },
        )
        .collect();
    (0..buckets as usize)
        .into_par_iter()
        .map_init(ahash::AHashSet::new, |seen, b| {
            // Each child once, the first met in chunk order (the same whatever the number of threads).
            seen.clear();
            let mut part = Vec::new();
            for (children, starts) in &grouped {
                for child in &children[starts[b]..starts[b + 1]] {
                    if seen.insert(game.key(child)) {
                        part.push(child.clone());
                    }
                }
            }
            part
        })
        .collect()
}

/// The shard, in `0..shards`, that owns a position with key `key`: the high bits of a multiplicative hash, so
/// that keys with similar low bits spread out. [`distinct_positions`] splits a ply's children by it, and the
/// parts of a sharded count of distinct positions ([`exchange::expand`]) own the positions by it.
///
/// ```
/// use khela_exact::count::owner;
/// assert_eq!(owner(12345, 1), 0);
/// assert!((0..1000).all(|key| owner(key, 3) < 3));
/// ```
pub fn owner(key: u64, shards: u64) -> u64 {
    ((u128::from(key.wrapping_mul(0x9E37_79B9_7F4A_7C15)) * u128::from(shards)) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use khela_games::connect4::{Connect4, Position};
    use khela_games::pig::Pig;

    /// Counted within a bound on a ply's children: the plies up to the last that stays within it, as counted
    /// whole (ply 6 of Connect-4 has 4,263 × 7 = 29,841 children at most, fewer as columns fill).
    #[test]
    fn the_first_plies_are_counted_within_a_bound() {
        let game = Connect4::standard();
        let whole = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
        assert_eq!(distinct_positions_within(&game, &Position::EMPTY, 8, u64::MAX), whole);
        assert_eq!(distinct_positions_within(&game, &Position::EMPTY, 8, 29_841), whole[..7]);
        assert_eq!(distinct_positions_within(&game, &Position::EMPTY, 8, 29_840), whole[..6]);
        assert_eq!(distinct_positions_within(&game, &Position::EMPTY, 8, 0), [1]);
    }

    /// However a ply's children are split (one shard, or shards of a few hundred children each, one bucket or
    /// many), the count is the same: Connect-4 (OEIS A212693) and a dice game, whose plies hold chance nodes.
    #[test]
    fn shards_and_buckets_do_not_change_the_count() {
        let game = Connect4::standard();
        let whole = distinct_positions_in(&game, &Position::EMPTY, 8, SHARD_ENTRIES, u64::MAX, &quiet);
        assert_eq!(whole, [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]);
        for entries in [300, 5000] {
            assert_eq!(
                distinct_positions_in(&game, &Position::EMPTY, 8, entries, u64::MAX, &quiet),
                whole,
                "{entries}"
            );
        }
        let pig = Pig::with_die(20).unwrap();
        let start = pig.parse("0 0 0 first").unwrap();
        let whole = distinct_positions_in(&pig, &start, 6, SHARD_ENTRIES, u64::MAX, &quiet);
        assert_eq!(distinct_positions_in(&pig, &start, 6, 7, u64::MAX, &quiet), whole);
        assert!(whole.iter().all(|&n| n > 0), "{whole:?}");
    }
}
