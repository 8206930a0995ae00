//! Tic-tac-toe's "open lines" evaluator, the textbook's first example of a static evaluation.
//!
//! A line (of the board's eight) is *open* for a player while the other has no stone on it: it is a line the
//! player can still complete. The estimate is X's open lines minus O's, so it lies within ±8; a win is worth
//! ±100, far beyond every estimate.
//!
//! # Examples
//!
//! ```
//! use khela_games::tictactoe::TicTacToe;
//! use khela_games::Evaluator;
//! use khela_heuristic::tictactoe::OpenLines;
//!
//! // After X takes the center, X has all 8 lines open and O the 4 that miss the center.
//! let center = TicTacToe::parse("....X....").unwrap();
//! assert_eq!(OpenLines.evaluate(&TicTacToe, &center), 4.0);
//! assert_eq!(OpenLines.terms(&TicTacToe, &center), [("x_open", 8.0), ("o_open", -4.0)]);
//! ```

use khela_games::tictactoe::{Board, LINES, TicTacToe, has_line};
use khela_games::{Evaluator, Player, Value};
use std::num::NonZeroU32;

/// The open-lines evaluator: lines still open for X minus lines still open for O; wins ±100.
///
/// Its noisy moves are those that complete a line for the side to move or take the cell where the opponent
/// would complete one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenLines;

/// What a win is worth on [`OpenLines`]' scale, per unit of payoff.
pub const WIN: Value = 100.0;

/// The number of lines free of `stones`.
fn open(stones: u16) -> u32 {
    LINES.iter().filter(|&&line| line & stones == 0).count() as u32
}

impl Evaluator<TicTacToe> for OpenLines {
    /// Every win counts alike (tic-tac-toe) or a faster win more (Connect-4's scores): a proven result is final.
    fn proofs_are_final(&self) -> bool {
        true
    }

    fn evaluate(&self, _: &TicTacToe, board: &Board) -> Value {
        Value::from(open(board.o)) - Value::from(open(board.x))
    }

    /// Two: a stone closes the opponent's lines before the reply can close any of the mover's, so the estimates
    /// favour the side that moved last (the odd–even effect). The engine from the empty board searched 1,049
    /// nodes to depth 6 deepening by one, 651 by two; to depth 9, 2,080 and 1,254.
    fn deepening_step(&self) -> NonZeroU32 {
        NonZeroU32::new(2).expect("two is not zero")
    }

    /// Eight: every line open for X and none for O.
    fn bound(&self) -> Value {
        LINES.len() as Value
    }

    /// `100 · payoff`: ±100 for a win, 0 for a draw.
    fn terminal(&self, payoff: Value) -> Value {
        WIN * payoff
    }

    /// The empty cells that complete a line of the side to move or of its opponent, by cell number.
    fn noisy(&self, _: &TicTacToe, board: &Board, moves: &mut Vec<u8>) {
        moves.clear();
        let (mine, theirs) = match board.to_move() {
            Player::Max => (board.x, board.o),
            Player::Min => (board.o, board.x),
        };
        let mut empty = board.empty();
        while empty != 0 {
            let cell = empty & empty.wrapping_neg();
            if has_line(mine | cell) || has_line(theirs | cell) {
                moves.push(cell.trailing_zeros() as u8);
            }
            empty &= empty - 1;
        }
    }

    /// `x_open`, X's open lines, and `o_open`, minus O's.
    fn terms(&self, _: &TicTacToe, board: &Board) -> Vec<(&'static str, Value)> {
        vec![("x_open", Value::from(open(board.o))), ("o_open", -Value::from(open(board.x)))]
    }
}
