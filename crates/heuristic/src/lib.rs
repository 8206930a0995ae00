//! Heuristic evaluation: what a program does when it cannot see to the end of the game.
//!
//! An evaluator ([`khela_games::Evaluator`]: the contract is the games crate's, this crate holds the evaluators)
//! gives a static estimate of a non-terminal state, on a scale of its own where every real win or loss outranks
//! every estimate. [`Heuristic`] is the game seen on that scale: the same states and moves, terminal payoffs
//! mapped by the evaluator. Depth-limited search ([`Engine`]) runs the exact crate's one search loop over it,
//! with the evaluator at the horizon.

pub mod bagh_chal;
pub mod connect4;
pub mod einstein;
mod engine;
mod heuristic;
pub mod random;
pub mod sixteen_soldiers;
pub mod tictactoe;

pub use engine::{Analysis, Engine, MoveValue, SORTED_PLIES, SORTED_PLIES_WITH_GAME_ORDER};
pub use heuristic::{Heuristic, child_estimate};
