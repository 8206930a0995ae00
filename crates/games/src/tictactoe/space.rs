//! Tic-tac-toe as a [`Space`] for retrograde analysis: the 5,478 legal positions numbered by their board in
//! base 3 (3⁹ = 19,683 numbers), or the 765 classes of positions up to the board's 8 symmetries.

use super::{Board, SYMMETRIES, TicTacToe, has_line};
use crate::{Game, Player, Space, Unmoves};

/// The powers of 3 for the nine cells.
const POW3: [u64; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// Tic-tac-toe's legal positions, numbered by their board in base 3 (a cell's digit 0 empty, 1 X, 2 O) — of
/// the board itself, or of its canonical form ([`Board::canonical`]) when the space is symmetric.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeSpace {
    symmetric: bool,
}

impl TicTacToeSpace {
    /// Every legal position apart.
    pub fn plain() -> TicTacToeSpace {
        TicTacToeSpace { symmetric: false }
    }

    /// The positions up to the board's 8 symmetries.
    pub fn symmetric() -> TicTacToeSpace {
        TicTacToeSpace { symmetric: true }
    }

    /// The board's number in base 3.
    fn number(board: &Board) -> u64 {
        (0..9).map(|c| POW3[c] * (u64::from(board.x >> c & 1) + 2 * u64::from(board.o >> c & 1))).sum()
    }

    /// The representative of a board's class: itself, or its canonical form.
    fn representative(&self, board: &Board) -> Board {
        if self.symmetric { board.canonical() } else { *board }
    }
}

impl Space for TicTacToeSpace {
    type Game = TicTacToe;

    fn game(&self) -> &TicTacToe {
        &TicTacToe
    }

    fn len(&self) -> u64 {
        3u64.pow(9)
    }

    /// A number stands for a board that a game reaches (as [`TicTacToe::parse`] checks it), and in a symmetric
    /// space only for a canonical one.
    fn position(&self, index: u64) -> Option<Board> {
        let mut board = Board::EMPTY;
        for (c, pow) in POW3.iter().enumerate() {
            match index / pow % 3 {
                1 => board.x |= 1 << c,
                2 => board.o |= 1 << c,
                _ => {}
            }
        }
        (index < self.len() && TicTacToe::parse(&board.to_string()).is_ok() && self.representative(&board) == board)
            .then_some(board)
    }

    fn index(&self, board: &Board) -> Option<u64> {
        TicTacToe::parse(&board.to_string()).ok().map(|b| Self::number(&self.representative(&b)))
    }

    fn to_move(&self, board: &Board) -> Player {
        board.to_move()
    }

    fn multiplicity(&self, board: &Board) -> u64 {
        if !self.symmetric {
            return 1;
        }
        let mut images: Vec<u64> = SYMMETRIES.iter().map(|s| TicTacToe.key(&board.transformed(s))).collect();
        images.sort_unstable();
        images.dedup();
        images.len() as u64
    }
}

impl Unmoves for TicTacToeSpace {
    /// The positions before the last stone: each stone of the player who moved last taken back, where the
    /// game was still on without it (neither side had a line).
    fn unmoves(&self, board: &Board, buf: &mut Vec<Board>) {
        buf.clear();
        let last = match board.to_move() {
            Player::Max => board.o,
            Player::Min => board.x,
        };
        for c in (0..9).filter(|c| last >> c & 1 == 1) {
            let before = Board { x: board.x & !(1 << c), o: board.o & !(1 << c) };
            if !has_line(before.x) && !has_line(before.o) {
                buf.push(before);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_space, check_unmoves};

    #[test]
    fn both_spaces_keep_their_promises() {
        for space in [TicTacToeSpace::plain(), TicTacToeSpace::symmetric()] {
            check_space(&space);
            check_unmoves(&space);
        }
    }

    #[test]
    fn the_legal_positions_are_5478_and_765_up_to_symmetry() {
        for (space, classes) in [(TicTacToeSpace::plain(), 5_478), (TicTacToeSpace::symmetric(), 765)] {
            let found: Vec<Board> = (0..space.len()).filter_map(|i| space.position(i)).collect();
            assert_eq!(found.len(), classes);
            assert_eq!(found.iter().map(|b| space.multiplicity(b)).sum::<u64>(), 5_478);
        }
    }
}
