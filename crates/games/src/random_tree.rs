//! Uniform random trees: every internal node has `b` children, every leaf is at depth `d`, MAX moves at the
//! root and the players alternate. Leaves are numbered 0, 1, … left to right and carry integers drawn uniformly
//! from `lo..=hi`.
//!
//! Two generators ([`Rng`]):
//! - [`Rng::Pcg`], the default: leaf `i` is computed on demand from output words `2i` and `2i + 1` of a PCG-32
//!   stream seeded by the seed (PCG jumps ahead in O(log i)), so the tree takes no memory and any size that
//!   numbers in 64 bits is allowed. The two words make a 64-bit number `x`, mapped to `lo + ⌊x·span / 2⁶⁴⌋`:
//!   the bias is below `span / 2⁶⁴`.
//! - [`Rng::Python`]: bit-compatible with Python's `random.Random(seed)` calling `randint(lo, hi)` once per
//!   leaf, left to right, so that tables made by a Python reference come out identical. Its draws are
//!   sequential, so the leaves are generated up front and held in memory: at most [`PYTHON_MAX_LEAVES`].

use crate::rng::PyRandom;
use crate::{Game, MAX_EXACT_PAYOFF, Node, Player, Value};
use rand_core::Rng as _;
use rand_pcg::Pcg32;
use thiserror::Error;

use crate::rng::Rng;

/// The most leaves the `python` generator holds (8 bytes each: 128 MiB).
pub const PYTHON_MAX_LEAVES: u64 = 1 << 24;

/// The largest number of nodes a random tree may have, so that node keys fit in 64 bits.
pub const MAX_NODES: u64 = 1 << 62;

/// The deepest random tree: searches recurse once per ply, and no study needs more (a binary tree of depth 62
/// already has 2^62 nodes).
pub const MAX_DEPTH: u32 = 64;

/// The PCG-32 stream (increment) the `pcg` generator uses: PCG's default.
const PCG_STREAM: u64 = 0x0a02_bdbf_7bb3_c0a7;

/// The shape and leaf distribution of a random tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// Branching factor: children per internal node (at least 1).
    pub b: u32,
    /// Depth: every leaf is `d` moves from the root.
    pub d: u32,
    /// The smallest leaf value.
    pub lo: i64,
    /// The largest leaf value.
    pub hi: i64,
    /// The seed of the generator.
    pub seed: u64,
    /// The generator.
    pub rng: Rng,
}

/// Why a random tree was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TreeError {
    /// b = 0.
    #[error("branching factor b=0: a random tree needs b ≥ 1")]
    ZeroBranching,
    /// lo > hi.
    #[error("leaf range {0}..={1} is empty (lo > hi)")]
    EmptyRange(i64, i64),
    /// Too many nodes to number in 64 bits.
    #[error("random tree b={0} d={1} has more than 2^62 nodes, too many to number")]
    TooManyNodes(u32, u32),
    /// Leaves beyond what a value holds exactly.
    #[error("leaf range {0}..={1} reaches beyond ±2^53, the largest integers a value holds exactly")]
    RangeTooWide(i64, i64),
    /// Deeper than the search's recursion allows.
    #[error("random tree depth d={0} is beyond {MAX_DEPTH}: the searches recurse once per ply")]
    TooDeep(u32),
    /// Too many leaves for the python generator.
    #[error(
        "random tree b={b} d={d} has {leaves} leaves ({mib} MiB); the python generator holds every leaf in \
         memory and is limited to {PYTHON_MAX_LEAVES} leaves: use the pcg generator, which computes leaves on demand"
    )]
    TooLargeForPython {
        /// Branching factor.
        b: u32,
        /// Depth.
        d: u32,
        /// b^d.
        leaves: u64,
        /// The memory the leaves would take, in MiB.
        mib: u64,
    },
}

impl Params {
    /// The number of leaves, b^d, or `None` if the tree has more than [`MAX_NODES`] nodes.
    pub fn leaves(&self) -> Option<u64> {
        self.node_count().map(|_| u64::from(self.b).pow(self.d))
    }

    /// The number of nodes, 1 + b + … + b^d, or `None` if over [`MAX_NODES`].
    pub fn node_count(&self) -> Option<u64> {
        let (mut level, mut total) = (1u64, 1u64);
        for _ in 0..self.d {
            level = level.checked_mul(u64::from(self.b))?;
            total = total.checked_add(level)?;
        }
        (total <= MAX_NODES).then_some(total)
    }
}

/// A uniform random tree (see the module documentation).
#[derive(Clone, Debug)]
pub struct RandomTree {
    params: Params,
    /// `level_offset[k]` = the number of nodes above depth `k`: keys are `level_offset[depth] + index`.
    level_offset: Vec<u64>,
    leaves: Leaves,
}

#[derive(Clone, Debug)]
enum Leaves {
    Stored(Vec<i64>),
    Pcg(Pcg32),
}

/// A node of a random tree: its depth and its index, left to right, among the nodes of that depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Moves from the root.
    pub depth: u32,
    /// Index among the nodes of this depth, left to right.
    pub index: u64,
}

impl RandomTree {
    /// The root position.
    pub const ROOT: Position = Position { depth: 0, index: 0 };

    /// Builds the tree, drawing the leaves up front for the python generator.
    ///
    /// ```
    /// use khela_games::random_tree::{Params, RandomTree};
    /// use khela_games::rng::Rng;
    /// let params = Params { b: 2, d: 2, lo: 0, hi: 99, seed: 42, rng: Rng::Python };
    /// let tree = RandomTree::new(params).unwrap();
    /// // python3 -c "import random; r = random.Random(42); print([r.randint(0, 99) for _ in range(4)])"
    /// assert_eq!(tree.leaf(3), 94);
    /// ```
    pub fn new(params: Params) -> Result<RandomTree, TreeError> {
        if params.b == 0 {
            return Err(TreeError::ZeroBranching);
        }
        if params.lo > params.hi {
            return Err(TreeError::EmptyRange(params.lo, params.hi));
        }
        if params.lo < -MAX_EXACT_PAYOFF || params.hi > MAX_EXACT_PAYOFF {
            return Err(TreeError::RangeTooWide(params.lo, params.hi));
        }
        if params.d > MAX_DEPTH {
            return Err(TreeError::TooDeep(params.d));
        }
        let leaf_count = params.leaves().ok_or(TreeError::TooManyNodes(params.b, params.d))?;
        let mut level_offset = vec![0u64];
        let mut level = 1u64;
        for _ in 0..params.d {
            level_offset.push(level_offset.last().copied().unwrap_or(0) + level);
            level *= u64::from(params.b);
        }
        let leaves = match params.rng {
            Rng::Pcg => Leaves::Pcg(Pcg32::new(params.seed, PCG_STREAM)),
            Rng::Python => {
                if leaf_count > PYTHON_MAX_LEAVES {
                    return Err(TreeError::TooLargeForPython {
                        b: params.b,
                        d: params.d,
                        leaves: leaf_count,
                        mib: leaf_count.saturating_mul(8) >> 20,
                    });
                }
                let mut rng = PyRandom::new(params.seed);
                Leaves::Stored((0..leaf_count).map(|_| rng.randint(params.lo, params.hi)).collect())
            }
        };
        Ok(RandomTree { params, level_offset, leaves })
    }

    /// The parameters the tree was built from.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The value of leaf `i` (0-based, left to right).
    pub fn leaf(&self, i: u64) -> i64 {
        match &self.leaves {
            Leaves::Stored(values) => values[i as usize],
            Leaves::Pcg(start) => {
                let mut rng = start.clone();
                rng.advance(2 * i);
                let x = u64::from(rng.next_u32()) | u64::from(rng.next_u32()) << 32;
                let span = (self.params.hi as i128 - self.params.lo as i128 + 1) as u128;
                (self.params.lo as i128 + ((u128::from(x) * span) >> 64) as i128) as i64
            }
        }
    }
}

impl Game for RandomTree {
    type State = Position;
    type Move = u32;

    #[inline]
    fn node(&self, p: &Position) -> Node {
        if p.depth == self.params.d {
            Node::Terminal(self.leaf(p.index) as Value)
        } else if p.depth.is_multiple_of(2) {
            Node::Decision(Player::Max)
        } else {
            Node::Decision(Player::Min)
        }
    }

    #[inline]
    fn moves(&self, p: &Position, buf: &mut Vec<u32>) {
        buf.clear();
        if p.depth < self.params.d {
            buf.extend(0..self.params.b);
        }
    }

    #[inline]
    fn play(&self, p: &mut Position, mv: u32) {
        debug_assert!(p.depth < self.params.d && mv < self.params.b);
        p.depth += 1;
        p.index = p.index * u64::from(self.params.b) + u64::from(mv);
    }

    /// The node's number in breadth-first order: unique.
    #[inline]
    fn key(&self, p: &Position) -> u64 {
        self.level_offset[p.depth as usize] + p.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance;

    fn params(b: u32, d: u32, rng: Rng) -> Params {
        Params { b, d, lo: 0, hi: 99, seed: 42, rng }
    }

    #[test]
    fn python_leaves_match_cpython() {
        // python3 -c "import random; r = random.Random(42); print([r.randint(0, 99) for _ in range(8)])"
        let tree = RandomTree::new(params(2, 3, Rng::Python)).unwrap();
        let leaves: Vec<i64> = (0..8).map(|i| tree.leaf(i)).collect();
        assert_eq!(leaves, [81, 14, 3, 94, 35, 31, 28, 17]);
    }

    #[test]
    fn pcg_leaves_are_random_access_and_in_range() {
        let p = Params { b: 3, d: 4, lo: -5, hi: 5, seed: 7, rng: Rng::Pcg };
        let tree = RandomTree::new(p).unwrap();
        let first: Vec<i64> = (0..81).map(|i| tree.leaf(i)).collect();
        let again: Vec<i64> = (0..81).rev().map(|i| tree.leaf(i)).collect::<Vec<_>>().into_iter().rev().collect();
        assert_eq!(first, again);
        assert!(first.iter().all(|v| (-5..=5).contains(v)));
        assert!(first.iter().any(|&v| v != first[0]), "leaves should vary");
        let other = RandomTree::new(Params { seed: 8, ..p }).unwrap();
        assert_ne!(first, (0..81).map(|i| other.leaf(i)).collect::<Vec<_>>());
    }

    #[test]
    fn keys_number_nodes_breadth_first() {
        let tree = RandomTree::new(params(3, 2, Rng::Pcg)).unwrap();
        let mut p = RandomTree::ROOT;
        assert_eq!(tree.key(&p), 0);
        tree.play(&mut p, 2);
        assert_eq!(tree.key(&p), 3);
        tree.play(&mut p, 1);
        assert_eq!((p.index, tree.key(&p)), (7, 11));
    }

    #[test]
    fn refuses_bad_parameters() {
        assert_eq!(RandomTree::new(params(0, 3, Rng::Pcg)).unwrap_err(), TreeError::ZeroBranching);
        let empty = Params { lo: 5, hi: 4, ..params(2, 2, Rng::Pcg) };
        assert_eq!(RandomTree::new(empty).unwrap_err(), TreeError::EmptyRange(5, 4));
        assert_eq!(RandomTree::new(params(10, 40, Rng::Pcg)).unwrap_err(), TreeError::TooManyNodes(10, 40));
        let err = RandomTree::new(params(10, 9, Rng::Python)).unwrap_err().to_string();
        assert!(err.contains("1000000000 leaves (7629 MiB)"), "{err}");
        assert!(RandomTree::new(params(10, 9, Rng::Pcg)).is_ok(), "pcg computes leaves on demand");
    }

    #[test]
    fn conforms() {
        for rng in [Rng::Pcg, Rng::Python] {
            let tree = RandomTree::new(params(3, 5, rng)).unwrap();
            conformance::check(&tree, &[RandomTree::ROOT], 200, 4);
        }
    }
}
