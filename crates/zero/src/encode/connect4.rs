//! Connect-4 (any board size): 3 planes of height × width (the mover's stones, the opponent's, the first
//! player to move), one action per column, and the left–right mirror.

use super::{Encode, Shape};
use khela_games::Player;
use khela_games::connect4::{Connect4, Position};

impl Encode for Connect4 {
    fn shape(&self) -> Shape {
        Shape { planes: 3, height: self.height() as usize, width: self.width() as usize }
    }

    fn encode(&self, p: &Position, out: &mut [f32]) {
        let (height, width) = (self.height() as usize, self.width() as usize);
        let cells = height * width;
        let first_to_move = p.to_move() == Player::Max;
        let (own, other) = (p.current(), p.opponent());
        for row in 0..height {
            for col in 0..width {
                // Row 0 of a plane is the top of the board; bit `col * (height + 1) + r` is row r from the bottom.
                let bit = 1u64 << (col * (height + 1) + height - 1 - row);
                let cell = row * width + col;
                out[cell] = f32::from(u8::from(own & bit != 0));
                out[cells + cell] = f32::from(u8::from(other & bit != 0));
            }
        }
        out[2 * cells..3 * cells].fill(f32::from(u8::from(first_to_move)));
    }

    fn symmetry_count(&self) -> usize {
        2
    }

    fn image(&self, p: &Position, k: usize) -> Position {
        if k == 0 { *p } else { self.mirrored(p) }
    }

    fn image_action(&self, action: usize, k: usize) -> usize {
        if k == 0 { action } else { self.width() as usize - 1 - action }
    }
}
