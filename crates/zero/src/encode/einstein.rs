//! EinStein würfelt nicht!: 19 planes of 5 × 5 (the mover's cubes 1–6 a plane each, the opponent's, the die's
//! face 1–6 a plane each, filled when it shows that face, and the first player to move), the board as written
//! (row 0 the top), the actions `3 × square + direction`, no symmetry.

use super::{Encode, Shape, plane};
use khela_games::einstein::{Einstein, GONE, SIDE, State};

impl Encode for Einstein {
    fn shape(&self) -> Shape {
        Shape { planes: 19, height: usize::from(SIDE), width: usize::from(SIDE) }
    }

    fn encode(&self, s: &State, out: &mut [f32]) {
        let cells = usize::from(SIDE * SIDE);
        let me = usize::from(s.second_to_move);
        let mut planes = out.chunks_exact_mut(cells);
        for side in [me, 1 - me] {
            for &square in &s.cubes[side] {
                let cells = if square == GONE { 0 } else { 1u64 << square };
                plane(planes.next().expect("a plane a cube"), cells, 1.0);
            }
        }
        for face in 1..=6 {
            planes.next().expect("a plane a face").fill(f32::from(u8::from(s.die == face)));
        }
        planes.next().expect("the mover's plane").fill(f32::from(u8::from(!s.second_to_move)));
    }

    fn symmetry_count(&self) -> usize {
        1
    }

    fn image(&self, s: &State, _: usize) -> State {
        *s
    }

    fn image_action(&self, action: usize, _: usize) -> usize {
        action
    }
}
