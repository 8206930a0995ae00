//! What the tests of PUCT's evaluator prior share: an evaluator of their own, as the crate has none.

use khela_games::tictactoe::{Board, LINES, TicTacToe};
use khela_games::{Evaluator, Value};

/// X's stones in lines free of O minus O's stones in lines free of X (the shape of the harness's open-lines
/// prior, counting stones rather than lines).
#[derive(Clone, Copy)]
pub struct OpenStones;

impl Evaluator<TicTacToe> for OpenStones {
    fn evaluate(&self, _: &TicTacToe, board: &Board) -> Value {
        let count = |mine: u16, theirs: u16| {
            LINES.iter().filter(|&&l| l & theirs == 0).map(|&l| (l & mine).count_ones()).sum::<u32>()
        };
        Value::from(count(board.x, board.o)) - Value::from(count(board.o, board.x))
    }

    fn bound(&self) -> Value {
        24.0
    }
}
