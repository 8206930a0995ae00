//! The game API and the games khela searches.
//!
//! A game is described by a [`Game`] value (which holds any parameters, such as the shape of a random tree) and
//! its states. Every node of a game is one of three kinds ([`Node`]): a decision node of a [`Player`], a chance
//! node with (outcome, probability) pairs, or a terminal node with a payoff. A game's [`Notation`] writes and
//! reads its positions and moves, the same for every front end.
//!
//! The crate also defines the [`Evaluator`] contract, what every static estimate of a position promises, so
//! that every search that asks for estimates depends on this crate alone. It holds no evaluator (they live in
//! `khela-heuristic`) and no search.
//!
//! # The value convention
//!
//! Every [`Value`] in khela is a payoff **from the first player's (MAX's) point of view**: positive is good for
//! MAX, negative good for MIN, and the game is zero-sum. The one conversion to the side-to-move ("negamax") view
//! is [`Player::view`].
//!
//! # Examples
//!
//! ```
//! use khela_games::{Game, Node, tictactoe::TicTacToe};
//!
//! let game = TicTacToe;
//! let state = TicTacToe::parse("XXX.OO...").unwrap();
//! assert_eq!(game.node(&state), Node::Terminal(1.0)); // X has the top row: +1 from X's (MAX's) view.
//! ```

mod actions;
pub mod alquerque;
pub mod bagh_chal;
pub mod chance_tree;
pub mod conformance;
pub mod connect4;
pub mod dots_and_boxes;
pub mod einstein;
pub mod evaluator;
mod game;
pub mod implicit;
pub mod line;
pub mod nim;
pub mod notation;
pub mod numbering;
pub mod pig;
pub mod random_tree;
pub mod rng;
pub mod settled;
pub mod sixteen_soldiers;
mod space;
pub mod tictactoe;
pub mod tree;

pub use actions::Actions;
pub use evaluator::{Evaluator, NoEvaluator};
pub use game::{Cycles, Game, MAX_EXACT_PAYOFF, Node, Player, Value};
pub use notation::Notation;
pub use space::{Space, Unmoves};
