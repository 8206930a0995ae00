//! AlphaZero's recipe on a CPU: a policy-value network f(s) = (p, v) trained only by self-play, guiding PUCT.
//!
//! - [`Encode`] is how a game's positions enter the network (input planes, from the side to move's view) and
//!   its moves leave it (a fixed action space, illegal actions masked), with the board's symmetries for
//!   augmenting the training samples. Tic-tac-toe, Connect-4 and the Bagh-Chal family implement it.
//! - [`Model`] is what the search asks of a network: logits and values for a batch of positions. [`Net`] is
//!   the residual network (candle, on the CPU), [`Blank`] the model that knows nothing.
//! - The network guides the Monte Carlo crate's one search loop through its begin/complete iterations
//!   ([`khela_mcts::Search::begin`]): the network's priors open each leaf, its value is backed up, and many
//!   leaves (of many games, or of one search kept apart by virtual loss) go through one forward pass.
//!   [`selfplay`] plays games of the network against itself, [`player`] chooses a move, [`train`] runs the
//!   iterations of self-play and training, [`eval`] judges the network against exact values.
//!
//! The network itself ([`Net`], its [`Trainer`] and [`train`]) is the feature `net`, on by default: it is
//! candle, most of this crate's build. Without it the encodings, the searches guided by any [`Model`] and a
//! network's [`Architecture`] remain, for a front end that reads positions as planes and must build quickly
//! (the Python package's default wheel).
//!
//! ```
//! # #[cfg(feature = "net")] {
//! use khela_games::tictactoe::{Board, TicTacToe};
//! use khela_zero::player::{Guided, best};
//! use khela_zero::{Architecture, Net};
//!
//! // An untrained network of one block of 8 channels still finds the win in one: the search sees it.
//! let net = Net::new(Architecture::for_game(&TicTacToe, 1, 8), 0).unwrap();
//! let board = TicTacToe::parse("XX.OO....").unwrap();
//! let guided = Guided { simulations: 200, ..Guided::default() };
//! assert_eq!(best(&TicTacToe, &net, &board, &[], &guided, 0), 2);
//! # }
//! ```

mod architecture;
mod encode;
pub mod eval;
mod model;
#[cfg(feature = "net")]
mod net;
pub mod player;
pub mod selfplay;
#[cfg(feature = "net")]
pub mod train;

pub use architecture::{Architecture, VALUE_HIDDEN};
pub use encode::{Encode, Shape};
pub use model::{Blank, Model, legal_priors, max_score};
#[cfg(feature = "net")]
pub use net::{Losses, Net, NetError, Trainer};
