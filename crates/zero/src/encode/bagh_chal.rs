//! Bagh-Chal and its family (any odd square board, stacks): 6 planes of size × size — the tigers, the goats
//! (a stack's plane value is its height), the goats to move, then three constant planes: the goats in hand and
//! the goats captured as shares of the game's goats, and the captures still needed to win as a share of the
//! captures that win. Actions: a placement per point, then a move per (from, to) pair of points, `points +
//! from × points + to` (most pairs are never legal: masked). The symmetries of the square that keep the
//! setup's stacks in place.
//!
//! The game is asymmetric, so the planes are not swapped by side: the tigers' plane is always the tigers'. The
//! network's value is still from the side to move's view, which the goats-to-move plane tells it.

use super::{Encode, Shape, plane};
use khela_games::bagh_chal::{BaghChal, Position};

/// The side of the game's square board.
fn side(game: &BaghChal) -> usize {
    (game.board().len() as f64).sqrt() as usize
}

impl Encode for BaghChal {
    fn shape(&self) -> Shape {
        let side = side(self);
        Shape { planes: 6, height: side, width: side }
    }

    /// Points are numbered in reading order from the top left ([`khela_games::alquerque::Board::grid`]), which is
    /// the planes' cell order.
    fn encode(&self, s: &Position, out: &mut [f32]) {
        let cells = self.board().len();
        let mut planes = out.chunks_exact_mut(cells);
        let mut next = || planes.next().expect("six planes");
        plane(next(), s.tigers, 1.0);
        let goats = next();
        for (p, x) in goats.iter_mut().enumerate() {
            *x = self.height(s, p as u8) as f32;
        }
        next().fill(f32::from(u8::from(s.goats_to_move)));
        let goats = f32::from(self.goats().max(1));
        next().fill(f32::from(s.in_hand) / goats);
        next().fill(f32::from(s.captured) / goats);
        let to_win = f32::from(self.captures_to_win().max(1));
        next().fill(f32::from(self.captures_to_win().saturating_sub(s.captured)) / to_win);
    }

    /// The tallest stack of goats at the start (Bagh-Bandi's five; stacks only shrink), or 1: every other plane
    /// holds marks and fractions.
    fn largest(&self) -> f32 {
        let start = self.start_position();
        let tallest = (0..self.board().len()).map(|p| self.height(&start, p as u8)).max().unwrap_or(1);
        tallest.max(1) as f32
    }

    fn symmetry_count(&self) -> usize {
        self.symmetries().len()
    }

    fn image(&self, s: &Position, k: usize) -> Position {
        self.transformed(s, &self.symmetries()[k])
    }

    fn image_action(&self, action: usize, k: usize) -> usize {
        let perm = &self.symmetries()[k];
        let points = self.board().len();
        if action < points {
            usize::from(perm[action])
        } else {
            let (from, to) = ((action - points) / points, (action - points) % points);
            points + usize::from(perm[from]) * points + usize::from(perm[to])
        }
    }
}
