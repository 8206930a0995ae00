//! Bagh-Chal's evaluator: what the goats have kept, and how much room the tigers have left.
//!
//! From the goats' (MAX's) view, in whole points, so that searches compare estimates exactly:
//!
//! | term        | weight | what it counts                                                      |
//! |-------------|--------|---------------------------------------------------------------------|
//! | `captured`  | −20    | goats captured (the fifth ends the game)                            |
//! | `trapped`   | +8     | tigers with no step and no capture (all of them ends the game)      |
//! | `mobility`  | −1     | the tigers' moves, steps and captures                               |
//! | `exposed`   | −6     | goats a tiger could capture now (the tigers' next move, or a threat) |
//!
//! Captures dominate: a goat lost costs more than any shuffle of the others can win back (the goats lose by
//! attrition and win by crowding the tigers). Trapping a tiger is worth less than a goat,
//! since a trapped tiger can be freed. Each term is bounded by the setup (captures below the number that wins,
//! every tiger trapped — with the goats to move that is not yet over —, 8 moves per tiger, every goat on the
//! board), and so is the estimate:
//! [`Evaluator::bound`] is their sum. A win is worth ±(1 + bound): every win alike, so proofs are final.
//!
//! The noisy moves are the tigers' captures, when the tigers are to move: a position where a goat hangs is not
//! quiet until the capture has been played or declined.

use khela_games::alquerque::points;
use khela_games::bagh_chal::{BaghChal, Move, Position, ends};
use khela_games::{Evaluator, Game, Value};

/// The evaluator (see the module documentation), for one setup of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crowding {
    bound: Value,
}

impl Crowding {
    /// The evaluator for `game`'s setup: its bound from the captures that win, the tigers and the goats.
    pub fn new(game: &BaghChal) -> Crowding {
        let tigers = Value::from(game.start_position().tigers.count_ones());
        let bound = Value::from(game.captures_to_win() - 1) * CAPTURED
            + tigers * TRAPPED
            + 8.0 * tigers * MOBILITY
            + Value::from(game.goats()) * EXPOSED;
        Crowding { bound }
    }
}

/// The weights of the terms.
pub const CAPTURED: Value = 20.0;
/// A trapped tiger.
pub const TRAPPED: Value = 8.0;
/// A tiger move.
pub const MOBILITY: Value = 1.0;
/// A goat that can be captured now.
pub const EXPOSED: Value = 6.0;

/// The tigers' moves, the tigers with none, and the goats they can capture.
fn tiger_room(game: &BaghChal, s: &Position) -> (u32, u32, u32) {
    let board = game.board();
    let empty = board.all() & !(s.tigers | s.goats);
    let (mut moves, mut trapped, mut exposed) = (0, 0, 0u64);
    for t in points(s.tigers) {
        let steps = (board.adjacent(t) & empty).count_ones();
        let mut jumps = 0;
        for &(_, over, to) in board.jumps(t) {
            if s.goats & 1 << over != 0 && empty & 1 << to != 0 {
                jumps += 1;
                exposed |= 1 << over;
            }
        }
        moves += steps + jumps;
        trapped += u32::from(steps + jumps == 0);
    }
    (moves, trapped, exposed.count_ones())
}

impl Evaluator<BaghChal> for Crowding {
    /// The sum of [`Crowding::terms`], in their order, without building the list.
    fn evaluate(&self, game: &BaghChal, s: &Position) -> Value {
        let (moves, trapped, exposed) = tiger_room(game, s);
        -CAPTURED * Value::from(s.captured) + TRAPPED * Value::from(trapped)
            - MOBILITY * Value::from(moves)
            - EXPOSED * Value::from(exposed)
    }

    /// The captures short of a win, every tiger trapped, 8 moves a tiger (in each direction a step or a capture,
    /// not both), every goat exposed: 264 for the standard game.
    fn bound(&self) -> Value {
        self.bound
    }

    /// Wins are all alike: `±(1 + bound)`.
    fn terminal(&self, payoff: Value) -> Value {
        if payoff == 0.0 { 0.0 } else { payoff.signum() * (1.0 + self.bound()) }
    }

    fn proofs_are_final(&self) -> bool {
        true
    }

    /// The tigers' captures, when they are to move.
    fn noisy(&self, game: &BaghChal, s: &Position, moves: &mut Vec<Move>) {
        moves.clear();
        if !s.goats_to_move {
            game.moves(s, moves);
            moves.retain(|&mv| {
                let (from, to) = ends(mv);
                from.is_some_and(|from| game.board().adjacent(from) & 1 << to == 0)
            });
        }
    }

    fn terms(&self, game: &BaghChal, s: &Position) -> Vec<(&'static str, Value)> {
        let (moves, trapped, exposed) = tiger_room(game, s);
        vec![
            ("captured", -CAPTURED * Value::from(s.captured)),
            ("trapped", TRAPPED * Value::from(trapped)),
            ("mobility", -MOBILITY * Value::from(moves)),
            ("exposed", -EXPOSED * Value::from(exposed)),
        ]
    }
}
