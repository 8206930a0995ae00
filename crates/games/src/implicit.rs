//! Implicit uniform trees for sweeps: every value is derived from (seed, node), so a tree of 10⁹ leaves takes no
//! memory and any node can be evaluated on its own.
//!
//! The tree is uniform (branching `b`, every leaf at depth `d`, MAX at the root, players alternating). Nodes are
//! numbered breadth-first (the root is 0, its children 1..=b, and so on); node `n`'s random word is
//! [`node_word`]`(seed, n)`. Two models ([`TreeModel`]):
//!
//! - [`TreeModel::Iid`]: leaves drawn independently and uniformly from `lo..=hi` (Pearl's model; the textbook's
//!   tables use it). Interior nodes carry no information.
//! - [`TreeModel::Incremental`]: every edge carries a value drawn independently and uniformly from
//!   `-spread..=spread`, and a node's value is the sum of the edge values on its path from the root, leaves
//!   included. A leaf's value is therefore a sum of `d` independent uniform integers (mean 0, variance
//!   `d·spread·(spread+1)/3`), and an interior node's path sum is an unbiased predictor of the leaves below it:
//!   the standard model in which a shallow search predicts the deep value, for studying move ordering and
//!   iterative deepening.
//!
//! [`Leaves::Python`] holds iid leaves drawn by Python's `random.Random(seed).randint(lo, hi)`, left to right,
//! for bit-for-bit agreement with the textbook's tables (and with [`crate::random_tree`]'s python generator).

use crate::rng::PyRandom;
use crate::rng::splitmix64;
use crate::{Game, MAX_EXACT_PAYOFF, Node, Player, Value};
use thiserror::Error;

/// The leaf or edge distribution of an implicit tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreeModel {
    /// Leaves uniform in `lo..=hi`, independent.
    Iid {
        /// The smallest leaf value.
        lo: i64,
        /// The largest leaf value.
        hi: i64,
    },
    /// Edge values uniform in `-spread..=spread`; a node's value is the sum along its path.
    Incremental {
        /// The largest absolute edge value.
        spread: i64,
    },
}

/// Where the random words come from.
#[derive(Clone, Debug)]
pub enum Leaves {
    /// [`node_word`]: a hash of (seed, node number).
    Hashed,
    /// Iid leaves from Python's generator, held in memory, left to right.
    Python(Vec<i64>),
}

/// An implicit uniform tree.
#[derive(Clone, Debug)]
pub struct ImplicitTree {
    b: u32,
    d: u32,
    seed: u64,
    model: TreeModel,
    leaves: Leaves,
    /// `level_offset[k]`: the number of nodes above depth `k`, so node numbers are `level_offset[depth] + index`.
    level_offset: Vec<u64>,
    /// The number of the first leaf, `level_offset[d]`.
    leaf_offset: u64,
    /// Where a leaf's value (and an edge's) comes from, decided once when the tree is built, for the hot path.
    source: LeafSource,
}

/// How [`Game::node`] values a leaf and [`Game::play`] an edge: one precomputed case instead of matching the
/// model and the leaves, with the seed already spread.
#[derive(Clone, Copy, Debug)]
enum LeafSource {
    /// Hashed iid leaves.
    Hashed(HashedLeaves),
    /// Python's leaves, held in [`Leaves::Python`].
    Python,
    /// The incremental model: a leaf's value is its path sum; the edge into node number `n` is worth value `n`
    /// of these (node numbers, not leaf indices: their first is node 0).
    Incremental(HashedLeaves),
}

/// A node: its depth, its index among the nodes of that depth (left to right), and its path value (the sum of
/// edge values from the root; always 0 in the iid model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Moves from the root.
    pub depth: u32,
    /// Index among the nodes of this depth, left to right.
    pub index: u64,
    /// The sum of the edge values from the root (incremental model), from MAX's view.
    pub path: i64,
}

/// Why an implicit tree was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TreeError {
    /// b = 0.
    #[error("branching factor b=0: a tree needs b ≥ 1")]
    ZeroBranching,
    /// An empty range.
    #[error("leaf range {0}..={1} is empty (lo > hi)")]
    EmptyRange(i64, i64),
    /// A negative spread.
    #[error("edge spread {0} is negative")]
    NegativeSpread(i64),
    /// More nodes than 64-bit numbers.
    #[error("tree b={0} d={1} has more than 2^62 nodes, too many to number")]
    TooManyNodes(u32, u32),
    /// The python generator for a tree too large to hold.
    #[error(
        "tree b={b} d={d} has {leaves} leaves; the python generator holds every leaf in memory and is limited to \
         {max} leaves: use the pcg generator, which derives values on demand"
    )]
    TooLargeForPython {
        /// Branching factor.
        b: u32,
        /// Depth.
        d: u32,
        /// b^d.
        leaves: u64,
        /// The limit.
        max: u64,
    },
    /// Values beyond what a [`Value`] holds exactly.
    #[error("tree values reach beyond ±2^53, the largest integers a value holds exactly ({0})")]
    TooWide(String),
    /// Deeper than the search's recursion allows.
    #[error("tree depth d={0} is beyond {MAX_DEPTH}: the searches recurse once per ply")]
    TooDeep(u32),
    /// More children per node than a move list should hold.
    #[error("branching factor b={0} is beyond {MAX_BRANCHING}: every node lists its b moves")]
    TooWideBranching(u32),
    /// The python generator in the incremental model.
    #[error("the python generator draws iid leaves only; the incremental model uses the pcg generator")]
    PythonIncremental,
    /// A chance tree with k = 0.
    #[error("chance outcomes k=0: a chance node needs k ≥ 1 outcomes")]
    ZeroOutcomes,
    /// More outcomes per chance node than a list should hold.
    #[error("chance outcomes k={0} are beyond {MAX_BRANCHING}: every chance node lists its k outcomes")]
    TooManyOutcomes(u32),
    /// A chance tree deeper than the search's recursion allows.
    #[error(
        "chance tree depth d={0} is beyond {max} decision plies: a chance ply follows each, and the searches \
         recurse once per ply, at most {MAX_DEPTH} deep",
        max = MAX_DEPTH / 2
    )]
    ChanceTooDeep(u32),
    /// A chance tree with more nodes than 64-bit numbers.
    #[error("chance tree b={b} k={k} d={d} has more than 2^62 nodes, too many to number")]
    ChanceTooManyNodes {
        /// Decision branching.
        b: u32,
        /// Chance outcomes.
        k: u32,
        /// Decision plies.
        d: u32,
    },
}

/// The most leaves the python generator holds.
pub const PYTHON_MAX_LEAVES: u64 = crate::random_tree::PYTHON_MAX_LEAVES;

/// The deepest tree (see [`crate::random_tree::MAX_DEPTH`]).
pub const MAX_DEPTH: u32 = crate::random_tree::MAX_DEPTH;

/// The widest branching: every node lists its moves, so a move list takes 4·b bytes per ply.
pub const MAX_BRANCHING: u32 = 1 << 16;

/// The random word of node `n` in the tree seeded `seed`: a PCG-style hash — one step of PCG's 64-bit LCG from
/// a state made of the seed and the node number, then PCG's RXS-M-XS output permutation (a bijection). A
/// SplitMix64 finalizer first spreads the seed, so that nearby seeds give unrelated trees.
#[inline]
pub fn node_word(seed: u64, n: u64) -> u64 {
    permute(splitmix64(seed).wrapping_add(n.wrapping_mul(NODE_STEP)))
}

/// The node number's multiplier in [`node_word`]'s state.
const NODE_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// [`node_word`] after the seed and node number are combined: the LCG step and the output permutation.
#[inline]
fn permute(state: u64) -> u64 {
    let state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    let word = ((state >> ((state >> 59) + 5)) ^ state).wrapping_mul(12_605_985_483_714_917_081);
    (word >> 43) ^ word
}

/// Values hashed from (seed, node number), for the hot path: iid leaves, and the incremental model's edges. Value
/// `i`'s is `uniform(node_word(seed, first + i), lo, hi)`, `first` the node number of value 0 (leaf 0's, or 0 for
/// edges indexed by node number), computed as `lo + ⌊permute(base + i·K)·span / 2⁶⁴⌋` with `base` the
/// [`node_word`] state of value 0 (the seed already spread) and `span = hi − lo + 1`. The trees refuse values
/// beyond ±2⁵³ ([`MAX_EXACT_PAYOFF`]), so the span fits in a u64 and the product in one 64×64-bit multiplication.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HashedLeaves {
    base: u64,
    lo: i64,
    span: u64,
}

impl HashedLeaves {
    /// The leaves of the tree seeded `seed` whose leaf 0 is node number `first`, uniform in `lo..=hi`
    /// (`lo ≤ hi`, both within ±[`MAX_EXACT_PAYOFF`]).
    pub(crate) fn new(seed: u64, first: u64, lo: i64, hi: i64) -> HashedLeaves {
        debug_assert!(lo <= hi && lo >= -MAX_EXACT_PAYOFF && hi <= MAX_EXACT_PAYOFF);
        // node_word(seed, first + i) = permute(splitmix64(seed) + (first + i)·K), in wrapping arithmetic: the part
        // that does not depend on i is computed once.
        HashedLeaves {
            base: splitmix64(seed).wrapping_add(first.wrapping_mul(NODE_STEP)),
            lo,
            span: (hi - lo + 1) as u64,
        }
    }

    /// The value of leaf `i` (0-based, left to right).
    #[inline(always)]
    pub(crate) fn value(self, i: u64) -> i64 {
        // The offset above lo is below span, so the sum is at most hi.
        let word = permute(self.base.wrapping_add(i.wrapping_mul(NODE_STEP)));
        self.lo + ((u128::from(word) * u128::from(self.span)) >> 64) as i64
    }
}

/// The breadth-first numbering of a tree whose nodes at depth `i` all have `widths[i]` children: the number of
/// nodes above each depth (`offsets[0] = 0`, one entry per depth down to the leaves) and the number of nodes,
/// or `None` if the tree has more than 2⁶² nodes.
pub(crate) fn level_offsets(widths: impl IntoIterator<Item = u32>) -> Option<(Vec<u64>, u64)> {
    let mut offsets = vec![0u64];
    let (mut level, mut total) = (1u64, 1u64);
    for width in widths {
        level = level.checked_mul(u64::from(width))?;
        offsets.push(total);
        total = total.checked_add(level).filter(|&t| t <= 1 << 62)?;
    }
    Some((offsets, total))
}

/// A uniform integer in `lo..=hi` from a random word (multiply-shift: bias below `(hi − lo + 1) / 2⁶⁴`).
#[inline]
fn uniform(word: u64, lo: i64, hi: i64) -> i64 {
    let span = (hi as i128 - lo as i128 + 1) as u128;
    (lo as i128 + ((u128::from(word) * span) >> 64) as i128) as i64
}

impl ImplicitTree {
    /// The root.
    pub const ROOT: Position = Position { depth: 0, index: 0, path: 0 };

    /// A tree whose values are hashed from (seed, node).
    ///
    /// ```
    /// use khela_games::implicit::{ImplicitTree, TreeModel};
    /// let tree = ImplicitTree::hashed(3, 4, 7, TreeModel::Iid { lo: 0, hi: 99 }).unwrap();
    /// assert_eq!(tree.leaves(), 81);
    /// ```
    pub fn hashed(b: u32, d: u32, seed: u64, model: TreeModel) -> Result<ImplicitTree, TreeError> {
        ImplicitTree::build(b, d, seed, model, Leaves::Hashed)
    }

    /// An iid tree whose leaves are Python's `random.Random(seed).randint(lo, hi)`, left to right.
    ///
    /// ```
    /// use khela_games::implicit::{ImplicitTree, TreeModel};
    /// // python3 -c "import random; r = random.Random(42); print([r.randint(0, 99) for _ in range(4)])"
    /// let tree = ImplicitTree::python(2, 2, 42, 0, 99).unwrap();
    /// assert_eq!(tree.leaf(3), 94);
    /// ```
    pub fn python(b: u32, d: u32, seed: u64, lo: i64, hi: i64) -> Result<ImplicitTree, TreeError> {
        let mut tree = ImplicitTree::build(b, d, seed, TreeModel::Iid { lo, hi }, Leaves::Hashed)?;
        let leaves = tree.leaves();
        if leaves > PYTHON_MAX_LEAVES {
            return Err(TreeError::TooLargeForPython { b, d, leaves, max: PYTHON_MAX_LEAVES });
        }
        let mut rng = PyRandom::new(seed);
        tree.leaves = Leaves::Python((0..leaves).map(|_| rng.randint(lo, hi)).collect());
        tree.source = tree.leaf_source();
        Ok(tree)
    }

    fn build(b: u32, d: u32, seed: u64, model: TreeModel, leaves: Leaves) -> Result<ImplicitTree, TreeError> {
        if b == 0 {
            return Err(TreeError::ZeroBranching);
        }
        if d > MAX_DEPTH {
            return Err(TreeError::TooDeep(d));
        }
        if b > MAX_BRANCHING {
            return Err(TreeError::TooWideBranching(b));
        }
        match model {
            TreeModel::Iid { lo, hi } if lo > hi => return Err(TreeError::EmptyRange(lo, hi)),
            TreeModel::Incremental { spread } if spread < 0 => return Err(TreeError::NegativeSpread(spread)),
            TreeModel::Iid { lo, hi } if lo < -MAX_EXACT_PAYOFF || hi > MAX_EXACT_PAYOFF => {
                return Err(TreeError::TooWide(format!("leaves {lo}..={hi}")));
            }
            // (A tree of depth 0 has no edges, but its edges' hash is built all the same: the spread alone is
            // bounded too.)
            TreeModel::Incremental { spread } if spread.saturating_mul(i64::from(d.max(1))) > MAX_EXACT_PAYOFF => {
                return Err(TreeError::TooWide(format!("path sums of {d} edges of up to {spread}")));
            }
            _ => {}
        }
        let (level_offset, _) =
            level_offsets(std::iter::repeat_n(b, d as usize)).ok_or(TreeError::TooManyNodes(b, d))?;
        let leaf_offset = level_offset[d as usize];
        let mut tree =
            ImplicitTree { b, d, seed, model, leaves, level_offset, leaf_offset, source: LeafSource::Python };
        tree.source = tree.leaf_source();
        Ok(tree)
    }

    /// The leaf source of the tree's model and leaves (called again when the leaves change).
    fn leaf_source(&self) -> LeafSource {
        match (&self.leaves, self.model) {
            (Leaves::Hashed, TreeModel::Iid { lo, hi }) => {
                LeafSource::Hashed(HashedLeaves::new(self.seed, self.leaf_offset, lo, hi))
            }
            (Leaves::Python(_), _) => LeafSource::Python,
            (Leaves::Hashed, TreeModel::Incremental { spread }) => {
                LeafSource::Incremental(HashedLeaves::new(self.seed, 0, -spread, spread))
            }
        }
    }

    /// The branching factor.
    pub fn b(&self) -> u32 {
        self.b
    }

    /// The depth.
    pub fn d(&self) -> u32 {
        self.d
    }

    /// The model.
    pub fn model(&self) -> TreeModel {
        self.model
    }

    /// The number of leaves, b^d.
    pub fn leaves(&self) -> u64 {
        u64::from(self.b).pow(self.d)
    }

    /// The number of nodes, 1 + b + … + b^d.
    pub fn nodes(&self) -> u64 {
        self.leaf_offset + self.leaves()
    }

    /// The value of leaf `i` (0-based, left to right) in the iid model.
    ///
    /// # Panics
    ///
    /// In the incremental model, whose leaves depend on their paths.
    #[inline]
    pub fn leaf(&self, i: u64) -> i64 {
        match (&self.leaves, self.model) {
            (Leaves::Hashed, TreeModel::Iid { lo, hi }) => uniform(node_word(self.seed, self.leaf_offset + i), lo, hi),
            (Leaves::Python(values), _) => values[i as usize],
            (Leaves::Hashed, TreeModel::Incremental { .. }) => panic!("incremental leaves depend on their paths"),
        }
    }

    /// Python's leaf `i`, out of line: the textbook's trees are small, and the hot path of the others is shorter
    /// without the python leaves' vector in it.
    #[inline(never)]
    fn python_leaf(&self, i: u64) -> i64 {
        match &self.leaves {
            Leaves::Python(values) => values[i as usize],
            Leaves::Hashed => unreachable!("a python leaf source holds python leaves"),
        }
    }

    /// The static value of a node from MAX's view: its path sum in the incremental model (what a shallow search
    /// sees); in the iid model, which has nothing to see, the middle of the leaf range for every node (a first
    /// guess that orders nothing).
    #[inline]
    pub fn static_value(&self, p: &Position) -> Value {
        match self.model {
            TreeModel::Iid { lo, hi } => (lo as Value + hi as Value) / 2.0,
            TreeModel::Incremental { .. } => p.path as Value,
        }
    }
}

impl Game for ImplicitTree {
    type State = Position;
    type Move = u32;

    #[inline(always)]
    fn node(&self, p: &Position) -> Node {
        if p.depth == self.d {
            let value = match self.source {
                LeafSource::Hashed(leaves) => leaves.value(p.index),
                LeafSource::Python => self.python_leaf(p.index),
                LeafSource::Incremental(_) => p.path,
            };
            Node::Terminal(value as Value)
        } else if p.depth.is_multiple_of(2) {
            Node::Decision(Player::Max)
        } else {
            Node::Decision(Player::Min)
        }
    }

    const NUMBERED_MOVES: Option<fn(usize) -> u32> = Some(|i| i as u32);

    #[inline(always)]
    fn moves(&self, p: &Position, buf: &mut Vec<u32>) {
        buf.clear();
        if p.depth < self.d {
            buf.extend(0..self.b);
        }
    }

    #[inline]
    fn move_count(&self, _: &Position, _: &mut Vec<u32>) -> usize {
        self.b as usize
    }

    #[inline(always)]
    fn play(&self, p: &mut Position, mv: u32) {
        debug_assert!(p.depth < self.d && mv < self.b);
        p.depth += 1;
        p.index = p.index * u64::from(self.b) + u64::from(mv);
        if let LeafSource::Incremental(edges) = self.source {
            p.path += edges.value(self.level_offset[p.depth as usize] + p.index);
        }
    }

    /// The child built field by field (the same state as the default's copy-and-play, without copying the
    /// padding of the copy).
    #[inline(always)]
    fn child(&self, p: &Position, mv: u32) -> Position {
        let mut next = Position { depth: p.depth, index: p.index, path: p.path };
        self.play(&mut next, mv);
        next
    }

    /// The node's breadth-first number: unique.
    #[inline]
    fn key(&self, p: &Position) -> u64 {
        self.level_offset[p.depth as usize] + p.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance;

    #[test]
    fn python_leaves_match_cpython_and_the_random_tree() {
        use crate::random_tree::{Params, RandomTree};
        use crate::rng::Rng;
        let tree = ImplicitTree::python(4, 3, 42, 0, 99).unwrap();
        let reference = RandomTree::new(Params { b: 4, d: 3, lo: 0, hi: 99, seed: 42, rng: Rng::Python }).unwrap();
        for i in 0..64 {
            assert_eq!(tree.leaf(i), reference.leaf(i));
        }
        assert_eq!((tree.leaf(0), tree.leaf(1), tree.leaf(2)), (81, 14, 3));
    }

    #[test]
    fn hashed_values_are_deterministic_in_range_and_seed_dependent() {
        let m = TreeModel::Iid { lo: -3, hi: 3 };
        let a = ImplicitTree::hashed(3, 5, 1, m).unwrap();
        let b = ImplicitTree::hashed(3, 5, 2, m).unwrap();
        let leaves_a: Vec<i64> = (0..243).map(|i| a.leaf(i)).collect();
        assert!(leaves_a.iter().all(|v| (-3..=3).contains(v)));
        assert_eq!(leaves_a, (0..243).map(|i| a.leaf(i)).collect::<Vec<_>>());
        assert_ne!(leaves_a, (0..243).map(|i| b.leaf(i)).collect::<Vec<_>>());
        // Every value of the range turns up, about equally often.
        let wide = ImplicitTree::hashed(10, 5, 3, m).unwrap();
        let mut histogram = [0u32; 7];
        for i in 0..100_000 {
            histogram[(wide.leaf(i) + 3) as usize] += 1;
        }
        assert!(histogram.iter().all(|&h| (13_500..15_100).contains(&h)), "{histogram:?}");
    }

    #[test]
    fn hashed_leaf_nodes_are_valued_as_leaf_says() {
        // node() values hashed leaves from precomputed parts: the same values as leaf(), over every range.
        let m = MAX_EXACT_PAYOFF;
        for (lo, hi) in [(0, (1 << 31) - 1), (-3, 3), (5, 5), (-m, m), (-m, 0), (-1, m)] {
            for seed in [0, 1, u64::MAX] {
                let tree = ImplicitTree::hashed(3, 4, seed, TreeModel::Iid { lo, hi }).unwrap();
                for index in 0..81 {
                    let p = Position { depth: 4, index, path: 0 };
                    let expected = uniform(node_word(seed, tree.leaf_offset + index), lo, hi);
                    assert_eq!(tree.leaf(index), expected);
                    assert_eq!(tree.node(&p), Node::Terminal(expected as Value));
                }
            }
        }
    }

    #[test]
    fn incremental_leaves_are_path_sums() {
        let tree = ImplicitTree::hashed(3, 4, 9, TreeModel::Incremental { spread: 10 }).unwrap();
        let mut p = ImplicitTree::ROOT;
        let mut sum = 0;
        for mv in [2, 0, 1, 2] {
            let before = p.path;
            tree.play(&mut p, mv);
            let edge = p.path - before;
            assert!((-10..=10).contains(&edge));
            sum += edge;
        }
        assert_eq!(tree.node(&p), Node::Terminal(sum as Value));
        assert_eq!(tree.static_value(&p), sum as Value);
    }

    #[test]
    fn refuses_bad_trees() {
        let iid = TreeModel::Iid { lo: 0, hi: 9 };
        assert_eq!(ImplicitTree::hashed(0, 3, 1, iid).unwrap_err(), TreeError::ZeroBranching);
        assert_eq!(
            ImplicitTree::hashed(2, 3, 1, TreeModel::Iid { lo: 2, hi: 1 }).unwrap_err(),
            TreeError::EmptyRange(2, 1)
        );
        assert_eq!(
            ImplicitTree::hashed(2, 3, 1, TreeModel::Incremental { spread: -1 }).unwrap_err(),
            TreeError::NegativeSpread(-1)
        );
        assert_eq!(ImplicitTree::hashed(10, 40, 1, iid).unwrap_err(), TreeError::TooManyNodes(10, 40));
        assert!(ImplicitTree::python(10, 9, 1, 0, 99).unwrap_err().to_string().contains("1000000000 leaves"));
        assert!(ImplicitTree::hashed(10, 9, 1, iid).is_ok(), "hashed trees take no memory");
        assert_eq!(ImplicitTree::hashed(1, 65, 1, iid).unwrap_err(), TreeError::TooDeep(65));
        assert_eq!(ImplicitTree::hashed(1 << 17, 1, 1, iid).unwrap_err(), TreeError::TooWideBranching(1 << 17));
        let wide = ImplicitTree::python(2, 2, 1, i64::MIN, i64::MAX).unwrap_err().to_string();
        assert!(wide.contains("beyond ±2^53"), "{wide}");
        let flat = TreeModel::Incremental { spread: i64::MAX };
        assert!(matches!(ImplicitTree::hashed(2, 0, 1, flat), Err(TreeError::TooWide(_))), "no edges, spread too wide");
    }

    /// Every edge of the incremental model is `uniform(node_word(seed, n), -spread, spread)` of the node `n` it
    /// leads to (breadth-first numbers), bit for bit, at the widest spread the depth allows.
    #[test]
    fn incremental_edges_are_the_node_words_of_their_nodes() {
        let (b, d, seed) = (3u32, 4u32, 9u64);
        let spread = MAX_EXACT_PAYOFF / i64::from(d);
        let tree = ImplicitTree::hashed(b, d, seed, TreeModel::Incremental { spread }).unwrap();
        for path in 0..50u64 {
            let (mut p, mut index, mut first) = (ImplicitTree::ROOT, 0u64, 1u64);
            for depth in 1..=u64::from(d) {
                let mv = (splitmix64(path * 16 + depth) % u64::from(b)) as u32;
                let before = p.path;
                tree.play(&mut p, mv);
                index = index * u64::from(b) + u64::from(mv);
                let n = first + index;
                assert_eq!(p.path - before, uniform(node_word(seed, n), -spread, spread), "edge into node {n}");
                first += u64::from(b).pow(depth as u32);
            }
        }
    }

    #[test]
    fn conforms() {
        for model in [TreeModel::Iid { lo: 0, hi: 99 }, TreeModel::Incremental { spread: 5 }] {
            let tree = ImplicitTree::hashed(3, 5, 4, model).unwrap();
            conformance::check(&tree, &[ImplicitTree::ROOT], 200, 5);
            assert_eq!(tree.nodes(), 364);
        }
    }
}
