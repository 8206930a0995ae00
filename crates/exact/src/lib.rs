//! Exact game-tree search over the [`khela_games::Game`] API.
//!
//! One generic search loop ([`Searcher`]) serves every algorithm ([`Algorithm`]): minimax, alpha-beta, negamax
//! and negamax alpha-beta, each of which is expectiminimax at chance nodes, NegaScout, MTD(f), iterative
//! deepening, and alpha-beta with Star1/Star2 pruning at chance nodes; run to the end of the game, or to a depth
//! with an evaluator at the horizon and optionally quiescence ([`Searcher::run_to_depth`]). What differs between uses is a type
//! or value plugged into it: the move ordering ([`Ordering`]), a cache of solved states ([`Cache`], e.g. the
//! memo of memoized minimax, [`Memo`], or a transposition table of `khela-tt`) and an observer of the search ([`Observer`], e.g. the textbook trace,
//! [`Trace`]).
//!
//! Every search returns its value (from MAX's view, as everywhere in khela) and plain counters ([`Stats`]).
//!
//! # Examples
//!
//! ```
//! use khela_exact::{Algorithm, Ordering, Searcher};
//! use khela_games::{Player, tree::Tree};
//!
//! let tree = Tree::parse("[[5,8,6],[3,9,7],[10,4,2]]", Player::Max).unwrap();
//! let result = Searcher::new(&tree, Ordering::Natural).run(Algorithm::AlphaBeta, &0);
//! assert_eq!((result.value, result.best, result.stats.nodes), (5.0, Some(0), 10));
//! ```

mod cache;
pub mod count;
mod ordering;
mod search;
mod tally;
mod trace;

pub use cache::{Bound, Cache, Memo, Probe, Shared, Stored};
pub use ordering::Ordering;
pub use search::{
    Algorithm, Config, Evaluator, Noisy, SearchResult, Searcher, Stats, UNLIMITED, knuth_moore, move_values, search,
};
pub use tally::{Tally, tally, tally_by};
pub use trace::{Observer, Trace, TraceEvent};
