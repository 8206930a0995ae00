//! The textbook's trace of a search over an explicit tree: every value backed up and every cutoff, its nodes named
//! as the textbook names them (A, B, C… then by path, `B.2`), with the leaves each cutoff prunes. The command
//! line's `trace` prints it and the web API sends it: one account of a search for both.

use crate::{Algorithm, Bound, Natural, Searcher, Trace, TraceEvent};
use khela_games::Value;
use khela_games::tree::Tree;

/// One step of a traced search.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeStep {
    /// A node's value was backed up.
    Backed {
        /// The node's name.
        node: String,
        /// Its value, MAX's view.
        value: Value,
        /// Whether the value is exact or, after a cutoff, a bound.
        bound: Bound,
    },
    /// A node cut off: its remaining children were pruned.
    Pruned {
        /// The pruned children's names.
        nodes: Vec<String>,
        /// The leaves under them, left to right.
        leaves: Vec<i64>,
    },
}

/// A search over an explicit tree, step by step, and its result.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeTrace {
    /// The steps, children before parents, in the order the search took them.
    pub steps: Vec<TreeStep>,
    /// The root's value, MAX's view.
    pub value: Value,
    /// The best move's child, by name; `None` at a leaf root.
    pub best: Option<String>,
    /// The nodes the search visited.
    pub nodes: u64,
    /// The leaves it visited.
    pub leaves: u64,
    /// Every leaf pruned, in the order pruned.
    pub pruned_leaves: Vec<i64>,
}

/// Traces `algorithm` (one that visits the tree node by node: minimax, alpha-beta and their negamax forms) over
/// `tree`, in its natural order.
///
/// # Examples
///
/// ```
/// use khela_exact::{Algorithm, tree_trace::trace};
/// use khela_games::{Player, tree::Tree};
///
/// let tree = Tree::parse("[[5,8,6],[3,9,7],[10,4,2]]", Player::Max).unwrap();
/// let traced = trace(&tree, Algorithm::AlphaBeta);
/// assert_eq!((traced.value, traced.best.as_deref(), traced.nodes), (5.0, Some("A"), 10));
/// assert_eq!(traced.pruned_leaves, [9, 7, 2]);
/// ```
pub fn trace(tree: &Tree, algorithm: Algorithm) -> TreeTrace {
    let mut searcher = Searcher::new(tree, Natural).with_observer(Trace::default());
    let result = searcher.run(algorithm, &0);
    let mut pruned_leaves = Vec::new();
    let steps = searcher
        .observer()
        .events
        .iter()
        .map(|event| match event {
            &TraceEvent::Backed { state, value, bound } => TreeStep::Backed { node: tree.name(state), value, bound },
            TraceEvent::Pruned { state, moves } => {
                let children: Vec<_> = moves.iter().map(|&m| tree.child_of(*state, m)).collect();
                let leaves: Vec<i64> = children.iter().flat_map(|&child| tree.leaves_under(child)).collect();
                pruned_leaves.extend(&leaves);
                TreeStep::Pruned { nodes: children.iter().map(|&child| tree.name(child)).collect(), leaves }
            }
        })
        .collect();
    TreeTrace {
        steps,
        value: result.value,
        best: result.best.map(|m| tree.name(tree.child_of(0, m))),
        nodes: result.stats.nodes,
        leaves: result.stats.leaves,
        pruned_leaves,
    }
}
