//! Monte Carlo tree search: flat Monte Carlo, UCT, PUCT and MCTS-Solver, over chance nodes too, with tree
//! reuse, a node budget, and root and tree parallelism.
//!
//! There is one search loop ([`Search`]); the variants differ by the [`Policy`] plugged into it ([`Flat`],
//! [`Uct`], [`Puct`] with a [`prior::Prior`]) and by settings ([`MctsConfig`]: the solver, the node budget, the final
//! choice, Dirichlet noise). Every random number comes through the [`random::Random`] trait, from a seed.
//!
//! Front ends choose a search by name through [`plan`]: a [`MctsPlan`] names the policy ([`PolicyKind`]), PUCT's
//! prior ([`PriorKind`]), the generator ([`khela_games::rng::Rng`]) and the [`Parallelism`], and [`plan::run`]
//! builds and runs that search, so every front end uses one list of names and one dispatcher.
//!
//! # Scores
//!
//! Game payoffs are from MAX's view (see [`khela_games`]); a playout is scored by the payoff's sign, win 1,
//! draw ½, loss 0, and each node sums the scores of the player who moved into it, so a child's mean `w / n` is
//! its mover's expected score.
//!
//! # Examples
//!
//! Flat Monte Carlo is fooled by the trap `X...O...X` (O to move), UCT is not:
//!
//! ```
//! use khela_games::tictactoe::TicTacToe;
//! use khela_mcts::{FinalMove, Flat, MctsConfig, Search, Uct, random::Python};
//!
//! let board = TicTacToe::parse("X...O...X").unwrap();
//! let flat = MctsConfig { seed: 1, choice: FinalMove::BestMean, ..MctsConfig::default() };
//! let mut search: Search<_, _, Python> = Search::new(&TicTacToe, board, Flat { per_move: 1000 }, flat);
//! search.run(6 * 1000);
//! assert_eq!(search.best(), Some(2)); // a corner, which loses
//!
//! let uct = MctsConfig { seed: 1, ..MctsConfig::default() };
//! let mut search: Search<_, _, Python> = Search::new(&TicTacToe, board, Uct::default(), uct);
//! search.run(3000);
//! assert_eq!(search.best(), Some(1)); // an edge, which draws
//! ```

mod meter;
mod parallel;
pub mod plan;
pub mod policy;
pub mod prior;
pub mod random;
mod search;
mod stats;
mod tree;

pub use meter::Meter;
pub use parallel::root_parallel;
pub use plan::{MctsPlan, MctsResult, Parallelism, PlanError, PolicyKind, PriorKind};
pub use policy::{Child, Expansion, Flat, Policy, Puct, Uct, select, ucb1};
pub use prior::{EvaluatorPrior, Prior, Uniform};
pub use search::valued::{Begun, Pending};
pub use search::{DirichletNoise, MctsConfig, Search};
pub use stats::{FinalMove, MoveStats, Proof, RunSummary, choose};
