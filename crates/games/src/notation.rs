//! How a game writes its positions and moves: one notation per game, so that every front end (the command
//! line, later the Python bindings) parses and shows them the same way, and a new game brings its notation in
//! its own file.
//!
//! Each game documents its notation where it is defined ([`crate::tictactoe`], [`crate::connect4`],
//! [`crate::nim`]); [`crate::conformance::check_notation`] tests the promises below.

use crate::{Game, Player};

/// A game's notation for positions, moves and players.
///
/// Implementations promise that [`Notation::start`], when there is one, parses; that the picture of every
/// position is non-empty; and that the legal moves of a node are written non-empty and pairwise distinct, so
/// that a front end may read a move back by matching its written form against the legal moves.
///
/// # Examples
///
/// ```
/// use khela_games::Notation;
/// use khela_games::tictactoe::TicTacToe;
///
/// let board = TicTacToe.parse_position("X...O...X").unwrap();
/// assert_eq!(TicTacToe.picture(&board), " X . .\n . O .\n . . X");
/// assert_eq!(TicTacToe.write_move(4), "4");
/// assert_eq!(TicTacToe.start(), Some("........."));
/// assert!(TicTacToe.parse_position("X..").is_err());
/// ```
pub trait Notation: Game {
    /// Why a text is not a position of this game.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The position `text` describes, in the game's notation.
    fn parse_position(&self, text: &str) -> Result<Self::State, Self::Error>;

    /// The standard starting position in the notation (`.........` for tic-tac-toe, the empty string for
    /// Connect-4), or `None` for a game with no standard start (Nim: the heaps must be given).
    fn start(&self) -> Option<&str>;

    /// A move as the notation writes it.
    fn write_move(&self, mv: Self::Move) -> String;

    /// A picture of the position for people, rows separated by newlines (none after the last).
    fn picture(&self, state: &Self::State) -> String;

    /// How the notation names a player.
    fn player_name(&self, player: Player) -> &'static str;
}

/// A count of plies in words, for messages: `1 ply`, `7 plies`.
///
/// ```
/// assert_eq!(khela_games::notation::plies(1), "1 ply");
/// assert_eq!(khela_games::notation::plies(7), "7 plies");
/// ```
pub fn plies(n: u64) -> String {
    if n == 1 { "1 ply".to_string() } else { format!("{n} plies") }
}
