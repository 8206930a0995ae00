//! Connect-4's notation: move strings of 1-based columns read into positions (refusals named by
//! [`ParseError`]), the board drawn for people, and the [`Notation`] the front ends use.

use super::{Connect4, Position};
use crate::{Notation, Player};
use thiserror::Error;

/// Why a move string was refused.
///
/// Indices count characters from 0, so the move at index `i` is the `(i + 1)`-th move of the game.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// A character that is not a column of the board.
    #[error(
        "Connect-4 moves {moves:?}: bad character {found:?} at index {index}; expected a column digit from 1 to {last}"
    )]
    Character {
        /// The whole move string given.
        moves: String,
        /// The offending character.
        found: char,
        /// Its 0-based index in the string.
        index: usize,
        /// The last column that has a digit: the width, or 9 on wider boards.
        last: u32,
    },
    /// A move into a column that is already full.
    #[error("Connect-4 moves {moves:?}: the move at index {index} plays column {column}, which is already full")]
    FullColumn {
        /// The whole move string given.
        moves: String,
        /// The 0-based index of the move.
        index: usize,
        /// The full column, 1-based as written.
        column: u32,
    },
    /// A move after one player already has four in a row.
    #[error(
        "Connect-4 moves {moves:?}: the move at index {index} (column {column}) comes after the game was won by the \
         move at index {won_at}"
    )]
    AfterWin {
        /// The whole move string given.
        moves: String,
        /// The 0-based index of the move.
        index: usize,
        /// Its column, 1-based as written.
        column: u32,
        /// The 0-based index of the winning move.
        won_at: usize,
    },
}

impl Connect4 {
    /// Plays a standard move string of 1-based column digits (`"4453"`) from the empty board.
    ///
    /// The empty string is the empty board. Columns beyond 9 of boards wider than 9 have no digit.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// assert_eq!(game.parse("4453").unwrap().moves_played(), 4);
    /// let err = game.parse("448").unwrap_err();
    /// assert!(err.to_string().contains("bad character '8' at index 2"));
    /// ```
    ///
    /// # Errors
    ///
    /// A character that is not a column of this board, a move into a full column, and a move after a win are
    /// each refused, naming the character or move and its index.
    pub fn parse(&self, moves: &str) -> Result<Position, ParseError> {
        let mut p = Position::EMPTY;
        let mut won_at = None;
        let last = self.width.min(9);
        for (index, found) in moves.chars().enumerate() {
            let column = match found.to_digit(10) {
                Some(d) if (1..=last).contains(&d) => d,
                _ => {
                    return Err(ParseError::Character { moves: moves.to_string(), found, index, last });
                }
            };
            if let Some(won_at) = won_at {
                return Err(ParseError::AfterWin { moves: moves.to_string(), index, column, won_at });
            }
            let col = (column - 1) as u8;
            if !self.can_play(&p, col) {
                return Err(ParseError::FullColumn { moves: moves.to_string(), index, column });
            }
            if self.is_winning_move(&p, col) {
                won_at = Some(index);
            }
            self.play_col(&mut p, col);
        }
        Ok(p)
    }

    /// The board for humans: rows from top to bottom, each `width` characters of `.` (empty), `X` (the first
    /// player) or `O` (the second) and a newline.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::new(4, 3).unwrap();
    /// let state = game.parse("2234").unwrap();
    /// assert_eq!(game.board_string(&state), "\
    /// ....
    /// .O..
    /// .XXO
    /// ");
    /// ```
    pub fn board_string(&self, p: &Position) -> String {
        let first = if p.moves_played().is_multiple_of(2) { p.current } else { p.opponent() };
        let mut out = String::with_capacity(((self.width + 1) * self.height) as usize);
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                let cell = 1u64 << (col * (self.height + 1) + row);
                out.push(if p.mask & cell == 0 {
                    '.'
                } else if first & cell != 0 {
                    'X'
                } else {
                    'O'
                });
            }
            out.push('\n');
        }
        out
    }
}

/// The notation of the module documentation: move strings, 1-based columns, players `X` and `O`.
impl Notation for Connect4 {
    type Error = ParseError;

    /// [`Connect4::parse`].
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        self.parse(text)
    }

    /// The empty string: the empty board.
    fn start(&self) -> Option<&str> {
        Some("")
    }

    /// The 1-based column: `1` for column 0.
    fn write_move(&self, col: u8) -> String {
        (u32::from(col) + 1).to_string()
    }

    /// The board as [`Connect4::board_string`] draws it, with the columns' numbers under it, the moves that
    /// play them (their last digit on a board wider than 9: `1234567890`).
    fn picture(&self, p: &Position) -> String {
        let mut board = self.board_string(p);
        board.extend((1..=self.width).map(|col| char::from_digit(col % 10, 10).expect("a digit")));
        board
    }

    /// `X` for the first player (MAX), `O` for the second.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "X",
            Player::Min => "O",
        }
    }
}
