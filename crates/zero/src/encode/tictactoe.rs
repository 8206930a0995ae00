//! Tic-tac-toe: 3 planes of 3 × 3 (the mover's marks, the opponent's, X to move), 9 actions (the cells), the
//! square's 8 symmetries.

use super::{Encode, Shape, plane};
use khela_games::Player;
use khela_games::tictactoe::{Board, SYMMETRIES, TicTacToe};

impl Encode for TicTacToe {
    fn shape(&self) -> Shape {
        Shape { planes: 3, height: 3, width: 3 }
    }

    fn encode(&self, board: &Board, out: &mut [f32]) {
        let x_to_move = board.to_move() == Player::Max;
        let (own, other) = if x_to_move { (board.x, board.o) } else { (board.o, board.x) };
        let (first, rest) = out.split_at_mut(9);
        let (second, third) = rest.split_at_mut(9);
        plane(first, u64::from(own), 1.0);
        plane(second, u64::from(other), 1.0);
        third.fill(f32::from(u8::from(x_to_move)));
    }

    fn symmetry_count(&self) -> usize {
        SYMMETRIES.len()
    }

    fn image(&self, board: &Board, k: usize) -> Board {
        board.transformed(&SYMMETRIES[k])
    }

    fn image_action(&self, action: usize, k: usize) -> usize {
        usize::from(SYMMETRIES[k][action])
    }
}
