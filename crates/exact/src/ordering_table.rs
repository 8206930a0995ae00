//! The textbook's move-ordering table: plain minimax against alpha-beta under the natural, best-first and
//! worst-first orderings (and, for tic-tac-toe, the textbook's static preferences), each search's value, leaves
//! and nodes. The command line's `ordering` writes it and the web API sends it: one computation for both.

use crate::{Algorithm, MoveOrdering, Oracle, SearchResult, Searcher};
use khela_games::Game;
use khela_games::random_tree::{Params, RandomTree, TreeError};
use khela_games::tictactoe::{self, Board, TicTacToe};
use thiserror::Error;

/// The largest random tree the table searches: plain minimax visits every node and the oracle orderings
/// memoize every node.
pub const MAX_NODES: u64 = 1 << 24;

/// One search of the table: the algorithm, the ordering's name as the table writes it, and what it found.
#[derive(Clone, Debug)]
pub struct Compared<M> {
    /// The search.
    pub algorithm: Algorithm,
    /// The ordering: `natural`, `best`, `worst`, or a preference's name.
    pub ordering: &'static str,
    /// Its value and counters.
    pub result: SearchResult<M>,
}

/// Why a random tree's table was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TableError {
    /// More nodes than [`MAX_NODES`]; `nodes` is `None` beyond 2^62.
    #[error(
        "random tree b={b} d={d} has {} nodes; the ordering table runs plain minimax over every node and \
         memoizes every node for the oracle orderings, so it is limited to {MAX_NODES} nodes",
        nodes.map_or("more than 2^62".to_string(), |n| n.to_string())
    )]
    TooLarge {
        /// Branching factor.
        b: u32,
        /// Depth.
        d: u32,
        /// The tree's nodes, if they number in 64 bits.
        nodes: Option<u64>,
    },
    /// The tree itself was refused.
    #[error(transparent)]
    Tree(#[from] TreeError),
}

/// The table of a random tree: minimax, then alpha-beta in the natural order, best first and worst first (the
/// oracle orderings, from the tree's exact values).
///
/// # Errors
///
/// A tree of more than [`MAX_NODES`] nodes, or parameters [`RandomTree::new`] refuses.
///
/// # Examples
///
/// ```
/// use khela_exact::ordering_table::random_tree;
/// use khela_games::{random_tree::Params, rng::Rng};
///
/// // The textbook's tree: b=4, d=6, leaves 0..=99 from Python's random.Random(42).
/// let params = Params { b: 4, d: 6, lo: 0, hi: 99, seed: 42, rng: Rng::Python };
/// let leaves: Vec<u64> = random_tree(&params).unwrap().iter().map(|row| row.result.stats.leaves).collect();
/// assert_eq!(leaves, [4096, 687, 127, 3568]);
/// ```
pub fn random_tree(params: &Params) -> Result<Vec<Compared<u32>>, TableError> {
    if params.node_count().is_none_or(|n| n > MAX_NODES) {
        return Err(TableError::TooLarge { b: params.b, d: params.d, nodes: params.node_count() });
    }
    let tree = RandomTree::new(*params)?;
    let oracle = Oracle::new(&tree, &RandomTree::ROOT).shared();
    let runs = [
        (Algorithm::Minimax, MoveOrdering::Natural, "natural"),
        (Algorithm::AlphaBeta, MoveOrdering::Natural, "natural"),
        (Algorithm::AlphaBeta, MoveOrdering::best_first(&oracle), "best"),
        (Algorithm::AlphaBeta, MoveOrdering::worst_first(&oracle), "worst"),
    ];
    Ok(compare(&tree, &RandomTree::ROOT, &runs))
}

/// The table of tic-tac-toe from the empty board: minimax, then alpha-beta in the natural order, the textbook's
/// two static preferences, best first, worst first and reversed.
pub fn tictactoe() -> Vec<Compared<u8>> {
    let oracle = Oracle::new(&TicTacToe, &Board::EMPTY).shared();
    let runs = [
        (Algorithm::Minimax, MoveOrdering::Natural, "natural"),
        (Algorithm::AlphaBeta, MoveOrdering::Natural, "natural"),
        (Algorithm::AlphaBeta, MoveOrdering::preference(tictactoe::CENTER_CORNER_EDGE.to_vec()), "center-corner-edge"),
        (Algorithm::AlphaBeta, MoveOrdering::preference(tictactoe::EDGE_CORNER_CENTER.to_vec()), "edge-corner-center"),
        (Algorithm::AlphaBeta, MoveOrdering::best_first(&oracle), "best"),
        (Algorithm::AlphaBeta, MoveOrdering::worst_first(&oracle), "worst"),
        (Algorithm::AlphaBeta, MoveOrdering::Reversed, "reversed"),
    ];
    compare(&TicTacToe, &Board::EMPTY, &runs)
}

/// Runs each search of `runs` (an algorithm, an ordering, the ordering's name) from `root`, in turn.
pub fn compare<G: Game>(
    game: &G,
    root: &G::State,
    runs: &[(Algorithm, MoveOrdering<G>, &'static str)],
) -> Vec<Compared<G::Move>> {
    runs.iter()
        .map(|(algorithm, ordering, name)| Compared {
            algorithm: *algorithm,
            ordering: name,
            result: Searcher::new(game, ordering.clone()).run(*algorithm, root),
        })
        .collect()
}
