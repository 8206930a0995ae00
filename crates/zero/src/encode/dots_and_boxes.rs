//! Dots and Boxes: 4 planes of (2 × rows + 1) × (2 × cols + 1) cells, the dots at even rows and columns, an edge
//! between two dots, a box between four (the edges drawn; the boxes the mover took; the boxes the opponent took;
//! the first player to move), the actions the edges, no symmetry.

use super::{Encode, Shape};
use khela_games::Player;
use khela_games::dots_and_boxes::{DotsAndBoxes, Position};

/// The grid cell (row, column) of edge `e` on a board of `cols` boxes a row: a row of `cols` horizontal edges,
/// then the `cols + 1` vertical edges below it, and so on.
fn edge_cell(e: usize, cols: usize) -> (usize, usize) {
    let (block, k) = (e / (2 * cols + 1), e % (2 * cols + 1));
    if k < cols { (2 * block, 2 * k + 1) } else { (2 * block + 1, 2 * (k - cols)) }
}

impl Encode for DotsAndBoxes {
    fn shape(&self) -> Shape {
        Shape { planes: 4, height: 2 * self.rows() as usize + 1, width: 2 * self.cols() as usize + 1 }
    }

    fn encode(&self, p: &Position, out: &mut [f32]) {
        let shape = self.shape();
        let (cells, width, cols) = (shape.cells(), shape.width, self.cols() as usize);
        out.fill(0.0);
        for e in (0..self.edges() as usize).filter(|&e| p.drawn() >> e & 1 != 0) {
            let (row, col) = edge_cell(e, cols);
            out[row * width + col] = 1.0;
        }
        let first_to_move = p.mover() == Player::Max;
        let (first, second) = p.owners();
        let (mine, theirs) = if first_to_move { (first, second) } else { (second, first) };
        for b in 0..(self.rows() as usize * cols) {
            let cell = (2 * (b / cols) + 1) * width + 2 * (b % cols) + 1;
            out[cells + cell] = f32::from(u8::from(mine >> b & 1 != 0));
            out[2 * cells + cell] = f32::from(u8::from(theirs >> b & 1 != 0));
        }
        out[3 * cells..4 * cells].fill(f32::from(u8::from(first_to_move)));
    }

    fn symmetry_count(&self) -> usize {
        1
    }

    fn image(&self, p: &Position, _: usize) -> Position {
        *p
    }

    fn image_action(&self, action: usize, _: usize) -> usize {
        action
    }
}
