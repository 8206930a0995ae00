//! The textbook's endpoints, behind the page at `/textbook`: a search traced step by step over an explicit tree,
//! and the move-ordering table of a random tree, both computed by the code the command line's `trace` and
//! `ordering` print from (`khela_exact::tree_trace`, `khela_exact::ordering_table`).

use crate::api::{App, read, searching};
use crate::error::ApiError;
use axum::Json;
use axum::extract::State as Shared;
use axum::extract::rejection::JsonRejection;
use khela_exact::Algorithm;
use khela_exact::ordering_table::{self, TableError};
use khela_exact::theory::knuth_moore;
use khela_exact::tree_trace::{self, TreeStep};
use khela_games::Player;
use khela_games::random_tree::Params;
use khela_games::rng::Rng;
use khela_games::tree::Tree;
use serde::{Deserialize, Serialize};

/// `POST /api/trace`: an explicit tree and the search to follow through it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceRequest {
    /// The tree in nested-list notation, like `[[5,8,6],[3,9,7],[10,4,2]]`; chance nodes as `{0.5:8,0.5:-1}`.
    pub tree: String,
    /// The side to move at the root: `max` (the default) or `min`.
    #[serde(default)]
    pub root: Option<String>,
    /// The search: `minimax`, `alphabeta` (the default), `negamax` or `negamax-alphabeta`.
    #[serde(default)]
    pub algorithm: Option<String>,
}

/// One step of a traced search.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum StepView {
    /// A node's value backed up.
    Backed {
        /// The node, named as the textbook names it (A, B, … then by path, `B.2`).
        node: String,
        /// Its value, MAX's view.
        value: f64,
        /// `exact`, `lower` or `upper` (a bound, after a cutoff).
        bound: String,
    },
    /// Children pruned by a cutoff.
    Pruned {
        /// The pruned children.
        nodes: Vec<String>,
        /// The leaves under them.
        leaves: Vec<i64>,
    },
}

/// A search over an explicit tree, step by step.
#[derive(Debug, Serialize, Deserialize)]
pub struct TraceView {
    /// The steps, children before parents.
    pub steps: Vec<StepView>,
    /// The root's value, MAX's view.
    pub value: f64,
    /// The best move's child, by name.
    pub best: Option<String>,
    /// The nodes visited, and the tree's nodes.
    pub nodes: u64,
    /// The tree's nodes.
    pub tree_nodes: usize,
    /// The leaves visited.
    pub leaves: u64,
    /// Every leaf pruned.
    pub pruned_leaves: Vec<i64>,
}

/// `POST /api/ordering`: the random tree whose move-ordering table to compute. Its leaves are drawn from
/// `0..=99`, as the textbook's are.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderingRequest {
    /// The branching factor, at least 1.
    pub branching: u32,
    /// The depth.
    pub depth: u32,
    /// The seed of the leaves.
    pub seed: u64,
    /// The leaves' generator: `python` (the default, the textbook's: Python's `random.Random(seed)`) or `pcg`.
    #[serde(default)]
    pub generator: Option<String>,
}

/// One search of the move-ordering table.
#[derive(Debug, Serialize, Deserialize)]
pub struct OrderingRowView {
    /// The search: `minimax` or `alphabeta`.
    pub algorithm: String,
    /// The move ordering: `natural`, `best` (best first, from the tree's exact values) or `worst`.
    pub ordering: String,
    /// The root's value, MAX's view.
    pub value: f64,
    /// The leaves visited.
    pub leaves: u64,
    /// The nodes visited.
    pub nodes: u64,
}

/// The move-ordering table of a random tree.
#[derive(Debug, Serialize, Deserialize)]
pub struct OrderingView {
    /// The tree's nodes.
    pub tree_nodes: u64,
    /// The tree's leaves, b^d.
    pub tree_leaves: u64,
    /// Knuth and Moore's minimum: the fewest leaves alpha-beta can visit, b^⌈d/2⌉ + b^⌊d/2⌋ − 1.
    pub knuth_moore: Option<u64>,
    /// The searches: minimax, then alpha-beta in the natural order, best first and worst first.
    pub rows: Vec<OrderingRowView>,
}

/// The searches a trace follows: those that visit a tree node by node, as the textbook does.
const TRACED: [Algorithm; 4] =
    [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Negamax, Algorithm::NegamaxAlphaBeta];

/// The leaves' range of the table's random trees: the textbook's.
const LEAVES: (i64, i64) = (0, 99);

/// `POST /api/trace`: the textbook's trace of a search over an explicit tree.
pub async fn trace(body: Result<Json<TraceRequest>, JsonRejection>) -> Result<Json<TraceView>, ApiError> {
    let request = read(body)?;
    let root = match request.root.as_deref().unwrap_or("max") {
        "max" => Player::Max,
        "min" => Player::Min,
        other => return Err(ApiError::bad_request(format!("root {other:?}: max or min"))),
    };
    let name = request.algorithm.as_deref().unwrap_or("alphabeta");
    let algorithm = name.parse::<Algorithm>().ok().filter(|a| TRACED.contains(a)).ok_or_else(|| {
        ApiError::bad_request(format!(
            "algorithm {name:?}: a trace follows minimax, alphabeta, negamax or negamax-alphabeta"
        ))
    })?;
    let tree = Tree::parse(&request.tree, root).map_err(|err| ApiError::bad_request(format!("tree: {err}")))?;
    let traced = tree_trace::trace(&tree, algorithm);
    Ok(Json(TraceView {
        steps: traced
            .steps
            .into_iter()
            .map(|step| match step {
                TreeStep::Backed { node, value, bound } => StepView::Backed { node, value, bound: bound.to_string() },
                TreeStep::Pruned { nodes, leaves } => StepView::Pruned { nodes, leaves },
            })
            .collect(),
        value: traced.value,
        best: traced.best,
        nodes: traced.nodes,
        tree_nodes: tree.len(),
        leaves: traced.leaves,
        pruned_leaves: traced.pruned_leaves,
    }))
}

/// `POST /api/ordering`: the textbook's move-ordering table of a random tree, as the command line's `ordering`
/// computes it; a tree over the command's limit ([`ordering_table::MAX_NODES`] nodes) is refused.
pub async fn ordering(
    Shared(app): Shared<App>,
    body: Result<Json<OrderingRequest>, JsonRejection>,
) -> Result<Json<OrderingView>, ApiError> {
    let request = read(body)?;
    let name = request.generator.as_deref().unwrap_or("python");
    let rng = name.parse::<Rng>().map_err(|_| ApiError::bad_request(format!("generator {name:?}: python or pcg")))?;
    let params = Params { b: request.branching, d: request.depth, lo: LEAVES.0, hi: LEAVES.1, seed: request.seed, rng };
    // Refused before a slot is taken: the check costs nothing, and the table's error names the tree and the limit.
    if params.node_count().is_none_or(|n| n > ordering_table::MAX_NODES) {
        let nodes = params.node_count();
        return Err(ApiError::bad_request(TableError::TooLarge { b: params.b, d: params.d, nodes }.to_string()));
    }
    let results = searching(&app, move || Ok(ordering_table::random_tree(&params))).await?;
    let results = results.map_err(|err| ApiError::bad_request(err.to_string()))?;
    Ok(Json(OrderingView {
        tree_nodes: params.node_count().unwrap_or(0),
        tree_leaves: params.leaves().unwrap_or(0),
        knuth_moore: knuth_moore(params.b, params.d),
        rows: results
            .into_iter()
            .map(|c| OrderingRowView {
                algorithm: c.algorithm.name().to_string(),
                ordering: c.ordering.to_string(),
                value: c.result.value,
                leaves: c.result.stats.leaves,
                nodes: c.result.stats.nodes,
            })
            .collect(),
    }))
}
