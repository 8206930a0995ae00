//! Implicit stochastic trees, the regular trees of Ballard's *-minimax: a decision ply, then a chance ply, for
//! `d` decision plies, then the leaves.
//!
//! MAX decides among `b` moves; a chance node then draws one of `k` equiprobable outcomes (probability 1/k
//! each); MIN decides among `b` moves; another chance node; and so on: `d` decision plies, MAX and MIN
//! alternating, each followed by a chance ply, so `2d` plies in all and `(b·k)^d` leaves. Leaves are iid
//! integers uniform in `lo..=hi` (0..=99 in the sweep, the textbook's range, so that ties occur and the leaf
//! bounds that star pruning needs are tight), hashed from (seed, node number) as in [`crate::implicit`], so a
//! tree of any size takes no memory. Nodes are numbered breadth-first over all plies; the number is the key.
//!
//! The probabilities are `1.0 / k` as an `f64`: exact for powers of two; otherwise rounded, and the `k` of them
//! sum to 1 within the conformance suite's tolerance. Every search that takes the same products in the same
//! order finds the same value, bit for bit.
//!
//! # Examples
//!
//! ```
//! use khela_games::chance_tree::{ChanceTree, Params};
//! use khela_games::{Game, Node, Player};
//!
//! let tree = ChanceTree::new(Params { b: 2, k: 3, d: 1, seed: 7, lo: 0, hi: 99 }).unwrap();
//! assert_eq!(tree.leaves(), 6);
//! assert_eq!(tree.node(&ChanceTree::ROOT), Node::Decision(Player::Max));
//! // MAX's second move leads to a chance node; its third outcome to leaf 1·3 + 2 = 5.
//! let chance = tree.child(&ChanceTree::ROOT, 1);
//! assert_eq!(tree.node(&chance), Node::Chance);
//! let leaf = tree.child(&chance, 2);
//! assert_eq!(tree.node(&leaf), Node::Terminal(tree.leaf(5) as f64));
//! // The leaves, left to right; MAX's first move meets 110 / 3 on average, its second 193 / 3, so the
//! // expectiminimax value is 64 1/3.
//! let leaves: Vec<i64> = (0..6).map(|i| tree.leaf(i)).collect();
//! assert_eq!(leaves, [37, 1, 72, 86, 74, 33]);
//! ```

use crate::implicit::{HashedLeaves, MAX_BRANCHING, MAX_DEPTH, Position, TreeError, level_offsets};
use crate::{Game, MAX_EXACT_PAYOFF, Node, Player, Value};

/// The shape, seed and leaf range of a chance tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// Moves at every decision node.
    pub b: u32,
    /// Outcomes at every chance node, each with probability 1/k.
    pub k: u32,
    /// Decision plies (each followed by a chance ply).
    pub d: u32,
    /// The seed the leaves are hashed from.
    pub seed: u64,
    /// The smallest leaf value.
    pub lo: i64,
    /// The largest leaf value.
    pub hi: i64,
}

/// An implicit regular *-minimax tree (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct ChanceTree {
    params: Params,
    /// `level_offset[ply]`: the number of nodes above that ply, so a node's number is `level_offset[depth] + index`.
    level_offset: Vec<u64>,
    nodes: u64,
    hashed: HashedLeaves,
    probability: f64,
}

impl ChanceTree {
    /// The root, where MAX decides.
    pub const ROOT: Position = Position { depth: 0, index: 0, path: 0 };

    /// The tree, or why it cannot be built: b or k zero or beyond [`MAX_BRANCHING`], more than half of
    /// [`MAX_DEPTH`] decision plies, an empty leaf range or one beyond ±2⁵³, or more than 2⁶² nodes.
    pub fn new(params: Params) -> Result<ChanceTree, TreeError> {
        let Params { b, k, d, seed, lo, hi } = params;
        match () {
            () if b == 0 => return Err(TreeError::ZeroBranching),
            () if b > MAX_BRANCHING => return Err(TreeError::TooWideBranching(b)),
            () if k == 0 => return Err(TreeError::ZeroOutcomes),
            () if k > MAX_BRANCHING => return Err(TreeError::TooManyOutcomes(k)),
            () if d > MAX_DEPTH / 2 => return Err(TreeError::ChanceTooDeep(d)),
            () if lo > hi => return Err(TreeError::EmptyRange(lo, hi)),
            () if lo < -MAX_EXACT_PAYOFF || hi > MAX_EXACT_PAYOFF => {
                return Err(TreeError::TooWide(format!("leaves {lo}..={hi}")));
            }
            () => {}
        }
        let widths = (0..2 * d).map(|ply| if ply % 2 == 0 { b } else { k });
        let (level_offset, nodes) = level_offsets(widths).ok_or(TreeError::ChanceTooManyNodes { b, k, d })?;
        let hashed = HashedLeaves::new(seed, level_offset[2 * d as usize], lo, hi);
        Ok(ChanceTree { params, level_offset, nodes, hashed, probability: 1.0 / f64::from(k) })
    }

    /// The parameters the tree was built from.
    pub fn params(&self) -> Params {
        self.params
    }

    /// The number of leaves, (b·k)^d.
    pub fn leaves(&self) -> u64 {
        self.nodes - self.level_offset[2 * self.params.d as usize]
    }

    /// The number of nodes over all `2d + 1` levels (decision, chance and leaves).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The bounds on every leaf value, `(lo, hi)`: what star pruning needs.
    pub fn bounds(&self) -> (Value, Value) {
        (self.params.lo as Value, self.params.hi as Value)
    }

    /// The value of leaf `i` (0-based, left to right).
    #[inline]
    pub fn leaf(&self, i: u64) -> i64 {
        self.hashed.value(i)
    }

    /// The children of a node at `depth` plies: b at decision plies (even), k at chance plies (odd).
    #[inline(always)]
    fn width(&self, depth: u32) -> u32 {
        if depth.is_multiple_of(2) { self.params.b } else { self.params.k }
    }
}

impl Game for ChanceTree {
    type State = Position;
    type Move = u32;

    #[inline]
    fn node(&self, p: &Position) -> Node {
        if p.depth == 2 * self.params.d {
            Node::Terminal(self.hashed.value(p.index) as Value)
        } else if !p.depth.is_multiple_of(2) {
            Node::Chance
        } else if p.depth.is_multiple_of(4) {
            Node::Decision(Player::Max)
        } else {
            Node::Decision(Player::Min)
        }
    }

    #[inline]
    fn moves(&self, p: &Position, buf: &mut Vec<u32>) {
        buf.clear();
        if p.depth < 2 * self.params.d && p.depth.is_multiple_of(2) {
            buf.extend(0..self.params.b);
        }
    }

    #[inline]
    fn outcomes(&self, p: &Position, buf: &mut Vec<(u32, f64)>) {
        buf.clear();
        if !p.depth.is_multiple_of(2) {
            buf.extend((0..self.params.k).map(|outcome| (outcome, self.probability)));
        }
    }

    /// `b`, without listing the moves (callers only ask it of decision nodes).
    #[inline]
    fn move_count(&self, _: &Position, _: &mut Vec<u32>) -> usize {
        self.params.b as usize
    }

    #[inline]
    fn play(&self, p: &mut Position, mv: u32) {
        debug_assert!(p.depth < 2 * self.params.d && mv < self.width(p.depth));
        p.index = p.index * u64::from(self.width(p.depth)) + u64::from(mv);
        p.depth += 1;
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
    use crate::implicit::{ImplicitTree, TreeModel};

    fn tree(b: u32, k: u32, d: u32, seed: u64) -> ChanceTree {
        ChanceTree::new(Params { b, k, d, seed, lo: 0, hi: 99 }).unwrap()
    }

    #[test]
    fn conforms() {
        for (b, k, d) in [(3, 2, 3), (2, 3, 2), (1, 1, 4), (4, 5, 1)] {
            conformance::check(&tree(b, k, d, 11), &[ChanceTree::ROOT], 200, 3);
        }
    }

    #[test]
    fn shape_players_and_probabilities() {
        let t = tree(2, 3, 2, 0);
        assert_eq!((t.leaves(), t.nodes()), (36, 1 + 2 + 6 + 12 + 36));
        let mut p = ChanceTree::ROOT;
        let mut kinds = Vec::new();
        for mv in [1, 2, 0, 1] {
            kinds.push(t.node(&p));
            t.play(&mut p, mv);
        }
        assert_eq!(kinds, [Node::Decision(Player::Max), Node::Chance, Node::Decision(Player::Min), Node::Chance]);
        // Leaf index: ((1·3 + 2)·2 + 0)·3 + 1 = 31.
        assert_eq!(p, Position { depth: 4, index: 31, path: 0 });
        assert_eq!(t.node(&p), Node::Terminal(t.leaf(31) as Value));
        let mut outcomes = Vec::new();
        t.outcomes(&t.child(&ChanceTree::ROOT, 0), &mut outcomes);
        assert_eq!(outcomes, [(0, 1.0 / 3.0), (1, 1.0 / 3.0), (2, 1.0 / 3.0)]);
        // Keys number the nodes 0..nodes breadth-first: every node once.
        let mut keys = Vec::new();
        let mut level = vec![ChanceTree::ROOT];
        while !level.is_empty() {
            keys.extend(level.iter().map(|p| t.key(p)));
            level = level
                .iter()
                .filter(|p| p.depth < 4)
                .flat_map(|p| (0..t.width(p.depth)).map(|mv| t.child(p, mv)))
                .collect();
        }
        assert_eq!(keys, (0..t.nodes()).collect::<Vec<_>>());
    }

    #[test]
    fn leaves_are_hashed_like_the_implicit_trees() {
        // Leaf i is uniform(node_word(seed, number of leaf i), lo, hi), the implicit trees' hash: a chance tree
        // with k = 1 numbers its leaves as an implicit tree of branching b and depth 2d whose odd plies have one
        // child, so a tree of b = 1 (one node per level) has its leaf at node 2d in both.
        let chance = tree(1, 1, 3, 5);
        let implicit = ImplicitTree::hashed(1, 6, 5, TreeModel::Iid { lo: 0, hi: 99 }).unwrap();
        assert_eq!(chance.leaf(0), implicit.leaf(0));
        // Values cover the range, evenly, and depend on the seed.
        let wide = tree(10, 10, 3, 1);
        let mut histogram = [0u32; 100];
        for i in 0..wide.leaves() {
            histogram[wide.leaf(i) as usize] += 1;
        }
        assert!(histogram.iter().all(|&h| (8_500..11_500).contains(&h)), "{histogram:?}");
        let other = tree(10, 10, 3, 2);
        assert_ne!(
            (0..100).map(|i| wide.leaf(i)).collect::<Vec<_>>(),
            (0..100).map(|i| other.leaf(i)).collect::<Vec<_>>()
        );
        assert_eq!(tree(2, 2, 2, 9).bounds(), (0.0, 99.0));
    }

    #[test]
    fn refuses_bad_trees() {
        let check = |b, k, d, lo, hi, expected: TreeError| {
            assert_eq!(ChanceTree::new(Params { b, k, d, seed: 0, lo, hi }).unwrap_err(), expected);
        };
        check(0, 2, 2, 0, 9, TreeError::ZeroBranching);
        check(2, 0, 2, 0, 9, TreeError::ZeroOutcomes);
        check(1 << 17, 2, 1, 0, 9, TreeError::TooWideBranching(1 << 17));
        check(2, 1 << 17, 1, 0, 9, TreeError::TooManyOutcomes(1 << 17));
        check(1, 1, 33, 0, 9, TreeError::ChanceTooDeep(33));
        check(2, 2, 2, 5, 4, TreeError::EmptyRange(5, 4));
        check(2, 2, 2, 0, i64::MAX, TreeError::TooWide(format!("leaves 0..={}", i64::MAX)));
        check(10, 10, 10, 0, 9, TreeError::ChanceTooManyNodes { b: 10, k: 10, d: 10 });
        let message = ChanceTree::new(Params { b: 10, k: 10, d: 10, seed: 0, lo: 0, hi: 9 }).unwrap_err().to_string();
        assert_eq!(message, "chance tree b=10 k=10 d=10 has more than 2^62 nodes, too many to number");
        assert!(ChanceTree::new(Params { b: 10, k: 10, d: 9, seed: 0, lo: 0, hi: 9 }).is_ok(), "no memory per node");
        assert!(ChanceTree::new(Params { b: 1, k: 1, d: 32, seed: 0, lo: 0, hi: 9 }).is_ok());
    }
}
