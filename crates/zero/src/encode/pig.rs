//! Pig and Piglet: 5 planes of one cell (the mover's score, the opponent's, the turn total, each divided by the
//! goal, so that a winning score, which may overshoot the goal, is a little over 1; the die in the air; the
//! first player to move), the actions roll, hold and the outcomes, no symmetry.

use super::{Encode, Shape};
use khela_games::pig::{Pig, State};

impl Encode for Pig {
    fn shape(&self) -> Shape {
        Shape { planes: 5, height: 1, width: 1 }
    }

    fn encode(&self, s: &State, out: &mut [f32]) {
        let goal = f32::from(self.goal());
        let me = usize::from(s.second_to_move);
        out[0] = f32::from(s.scores[me]) / goal;
        out[1] = f32::from(s.scores[1 - me]) / goal;
        out[2] = f32::from(s.turn) / goal;
        out[3] = f32::from(u8::from(s.rolled));
        out[4] = f32::from(u8::from(!s.second_to_move));
    }

    /// A score that reaches the goal is below it by one at most before the last gain.
    fn largest(&self) -> f32 {
        let gain = self.gains().iter().copied().max().unwrap_or(1);
        (f32::from(self.goal()) - 1.0 + f32::from(gain)) / f32::from(self.goal())
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
