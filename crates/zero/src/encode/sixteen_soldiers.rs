//! Sixteen Soldiers, played jump by jump ([`JumpByJump`], whose decisions are a fixed list of actions): the 37
//! points on a grid of 9 ranks × 5 files, the triangles' points on the files they stand on (a base's on a, c and
//! e; a middle row's on b, c and d), the grid's 8 other cells always 0. Planes: the side to move's pieces, the
//! other side's, the piece jumping on in the middle of a chain, the board's points (1 on each), a plane of ones
//! when X (the first player) is to move, and with the quiet limit the plies without a capture as a share of it.
//! The top rank is the planes' first row. Actions: a point × 8 directions, then the end of a chain. Symmetries:
//! the identity and the mirror left–right, which keeps the start in place.

use super::{Encode, Shape, plane};
use khela_games::sixteen_soldiers::jumps::{JumpByJump, State};

/// The grid's ranks and files.
const RANKS: usize = 9;
const FILES: usize = 5;

impl Encode for JumpByJump {
    fn shape(&self) -> Shape {
        let planes = 5 + usize::from(self.rules().quiet_limit().is_some());
        Shape { planes, height: RANKS, width: FILES }
    }

    fn encode(&self, s: &State, out: &mut [f32]) {
        let board = self.rules().board();
        // A set of points as a set of the grid's cells, row by row from the top rank.
        let cells = |points: u64| -> u64 {
            khela_games::alquerque::points(points).fold(0, |cells, p| {
                let (file, rank) = board.coords(p);
                cells | 1 << ((RANKS - 1 - usize::from(rank)) * FILES + usize::from(file))
            })
        };
        let p = &s.position;
        let (own, other) = if p.x_to_move { (p.x, p.o) } else { (p.o, p.x) };
        let mut planes = out.chunks_exact_mut(RANKS * FILES);
        let mut next = || planes.next().expect("the shape's planes");
        plane(next(), cells(own), 1.0);
        plane(next(), cells(other), 1.0);
        plane(next(), cells(s.jumping.map_or(0, |at| 1 << at)), 1.0);
        plane(next(), cells(board.all()), 1.0);
        next().fill(f32::from(u8::from(p.x_to_move)));
        if let Some(limit) = self.rules().quiet_limit() {
            next().fill(f32::from(p.quiet) / f32::from(limit.max(1)));
        }
    }

    fn symmetry_count(&self) -> usize {
        2
    }

    fn image(&self, s: &State, k: usize) -> State {
        if k == 0 { *s } else { self.mirrored(s) }
    }

    fn image_action(&self, action: usize, k: usize) -> usize {
        if k == 0 { action } else { self.mirrored_action(action) }
    }
}
