//! EinStein würfelt nicht!'s race evaluator.
//!
//! The game is a race decided by the die: a player wins when one of her cubes reaches the far corner first (or
//! she removes every cube of the opponent). Each cube on the board is a runner with a distance and a speed:
//!
//! - its **distance** `d` is the number of moves it still needs, the larger of its row and column distances to
//!   the goal (it moves straight or diagonally);
//! - its **chance to move** `q` is the share of the die's six faces that let it move: its own number, and the
//!   number of every removed cube for which it is the nearest present below or above.
//!
//! A cube alone needs about `d / q` turns, so it covers `q / d` of its way a turn; a player's **rate** is the sum
//! of her cubes' rates (her fastest cube wins the race for her, and several fast cubes give more chances). The
//! estimate is the first player's share of the two rates, rescaled: `99 · (r₁ − r₂) / (r₁ + r₂)`, within ±99,
//! roughly a difference of winning chances in percentage points; a win is worth ±100 ([`WIN`]). Captures need
//! no term of their own: a removed cube lowers its owner's rate and hands its faces to the cubes beside it.
//!
//! ```
//! use khela_games::einstein::Einstein;
//! use khela_games::Evaluator;
//! use khela_heuristic::einstein::Race;
//! // Symmetric positions are even; a cube one move from the goal that moves on every roll outruns the rest.
//! let even = Einstein::parse("1..../...../...../...../....a first").unwrap();
//! let near = Einstein::parse("...../...../...../....1/....a first").unwrap();
//! let game = Einstein::new(khela_games::einstein::Setup::random(0));
//! assert_eq!(Race.evaluate(&game, &even), 0.0);
//! assert_eq!(Race.evaluate(&game, &near), 99.0 * (1.0 - 0.25) / (1.0 + 0.25));
//! ```

use khela_games::einstein::{Einstein, GONE, SIDE, State};
use khela_games::{Evaluator, Value};

/// What a win is worth on [`Race`]'s scale, per unit of payoff.
pub const WIN: Value = 100.0;

/// The largest magnitude of an estimate.
const BOUND: Value = 99.0;

/// The race evaluator (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Race;

impl Race {
    /// The rates of the first and second players: the sum over each one's cubes of chance to move over distance.
    pub fn rates(state: &State) -> [Value; 2] {
        let mut rates = [0.0; 2];
        for (p, cubes) in state.cubes.iter().enumerate() {
            // faces[c]: the faces that move cube c.
            let mut faces = [0u8; 6];
            for face in 0..6 {
                if cubes[face] != GONE {
                    faces[face] += 1;
                    continue;
                }
                let below = (0..face).rev().find(|&c| cubes[c] != GONE);
                let above = (face + 1..6).find(|&c| cubes[c] != GONE);
                for c in below.into_iter().chain(above) {
                    faces[c] += 1;
                }
            }
            for (c, &square) in cubes.iter().enumerate().filter(|&(_, &sq)| sq != GONE) {
                let (row, col) = (square / SIDE, square % SIDE);
                let distance = if p == 0 { (SIDE - 1 - row).max(SIDE - 1 - col) } else { row.max(col) };
                rates[p] += Value::from(faces[c]) / 6.0 / Value::from(distance.max(1));
            }
        }
        rates
    }
}

impl Evaluator<Einstein> for Race {
    fn evaluate(&self, _: &Einstein, state: &State) -> Value {
        let [first, second] = Race::rates(state);
        if first + second == 0.0 { 0.0 } else { BOUND * (first - second) / (first + second) }
    }

    fn bound(&self) -> Value {
        BOUND
    }

    /// `100 · payoff`: ±100 for a win.
    fn terminal(&self, payoff: Value) -> Value {
        WIN * payoff
    }

    /// A win's ±100: the payoffs are ±1.
    fn value_range(&self) -> Option<(Value, Value)> {
        Some((-WIN, WIN))
    }

    /// Every win counts alike: a proven result is final.
    fn proofs_are_final(&self) -> bool {
        true
    }
}
