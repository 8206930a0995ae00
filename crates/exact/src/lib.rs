//! Exact game-tree search over the [`khela_games::Game`] API.
//!
//! One generic search loop ([`Searcher`]) serves every algorithm ([`Algorithm`]): minimax, alpha-beta, negamax
//! and negamax alpha-beta, each of which is expectiminimax at chance nodes, NegaScout, MTD(f), iterative
//! deepening, and alpha-beta with Star1/Star2 pruning at chance nodes; run to the end of the game, or to a depth
//! with an evaluator at the [`Horizon`] and optionally quiescence ([`Searcher::run_to_depth`]). What differs
//! between uses is a type plugged into it: the move ordering ([`Orderer`]: [`Natural`], [`ByValue`],
//! [`History`], … or [`MoveOrdering`] to choose one by name), a cache of solved states ([`Cache`]: the memo of
//! memoized minimax, [`Memo`], or a transposition table of `khela-tt`) and an observer of the search
//! ([`Observer`], e.g. the textbook trace, [`Trace`]). [`SearchConfig`] is the one configuration a search is
//! built from.
//!
//! Every search returns its value (from MAX's view, as everywhere in khela) and plain counters ([`Stats`]).
//! Beside the searches: the [`Oracle`] of exact values behind the oracle orderings, what [`theory`] predicts
//! alpha-beta costs, the textbook's move-ordering table ([`ordering_table`]), full-tree tallies ([`tally`]) and
//! tree counting on every core ([`count`]).
//!
//! # Examples
//!
//! ```
//! use khela_exact::{Algorithm, Natural, Searcher};
//! use khela_games::{Player, tree::Tree};
//!
//! let tree = Tree::parse("[[5,8,6],[3,9,7],[10,4,2]]", Player::Max).unwrap();
//! let result = Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, &0);
//! assert_eq!((result.value, result.best, result.stats.nodes), (5.0, Some(0), 10));
//! ```

mod abdada;
mod algorithm;
mod cache;
mod compact;
pub mod connect4;
pub mod count;
mod horizon;
pub mod iterate;
pub mod layered;
mod move_ordering;
mod oracle;
mod orderer;
pub mod ordering_table;
pub mod prove;
pub mod retro;
mod search;
mod stats;
mod tally;
pub mod theory;
mod trace;
pub mod tree_trace;

pub use abdada::{Abdada, Team};
pub use algorithm::Algorithm;
pub use cache::{Bound, Cache, Memo, Probe, Shared, Stored};
pub use compact::{Compact, KeySymmetry, NearEnd};
pub use horizon::{EvalFn, Horizon, Noisy, UNLIMITED};
pub use move_ordering::{MoveOrdering, OrderingError, OrderingKind, OrderingParts};
pub use oracle::Oracle;
pub use orderer::{
    ByValue, Estimate, Foreknown, History, Natural, Orderer, Preference, Reversed, Shallow, Shuffled, Tactical,
    Valuation,
};
pub use search::{SearchConfig, SearchResult, Searcher, move_values, search};
pub use stats::Stats;
pub use tally::{Tally, tally, tally_by};
pub use trace::{Observer, Trace, TraceEvent};
