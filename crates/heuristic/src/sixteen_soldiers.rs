//! Sixteen Soldiers' evaluator: material first, then room to move and pieces left hanging.
//!
//! From X's (MAX's) view, in whole points:
//!
//! | term       | weight | what it counts                                                        |
//! |------------|--------|-----------------------------------------------------------------------|
//! | `material` | 16     | X's pieces minus O's                                                  |
//! | `mobility` | 1      | X's steps minus O's (empty points next to each side's pieces, counted per piece) |
//! | `hanging`  | −4 / +4 | X's pieces O could jump now, minus O's pieces X could jump now        |
//!
//! A piece is worth more than any difference in mobility or threats can make up on one ply, as in the
//! draughts family the game belongs to. The bound is the sum of the terms' largest values (16 pieces a side,
//! 8 steps a piece, 16 hanging pieces); a win is worth ±(1 + bound), all wins alike, so proofs are final.
//!
//! The noisy moves are the captures of the side to move: with compulsory capture, the only moves when there
//! are any. The game played jump by jump ([`JumpByJump`]) is valued alike, on its position (in the middle of a
//! chain, the pieces taken so far are off the board); its noisy decisions are its jumps.

use khela_games::alquerque::points;
use khela_games::sixteen_soldiers::jumps::{self, Decision, JumpByJump};
use khela_games::sixteen_soldiers::{Move, Position, SixteenSoldiers};
use khela_games::{Evaluator, Game, Value};

/// The evaluator (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Soldiers;

/// A piece.
pub const MATERIAL: Value = 16.0;
/// A step.
pub const MOBILITY: Value = 1.0;
/// A piece that can be jumped now.
pub const HANGING: Value = 4.0;

/// The largest estimate: 15 pieces' lead (a side with none has lost), 16 × 8 steps, 16 hanging pieces.
const BOUND: Value = 15.0 * MATERIAL + 128.0 * MOBILITY + 16.0 * HANGING;

/// The steps of `own`'s pieces, and the pieces of `enemy` they can jump now.
fn room(game: &SixteenSoldiers, own: u64, enemy: u64) -> (u32, u32) {
    let board = game.board();
    let empty = board.all() & !(own | enemy);
    let mut steps = 0;
    let mut hanging = 0u64;
    for p in points(own) {
        steps += (board.adjacent(p) & empty).count_ones();
        for &(_, over, to) in board.jumps(p) {
            if enemy & 1 << over != 0 && empty & 1 << to != 0 {
                hanging |= 1 << over;
            }
        }
    }
    (steps, hanging.count_ones())
}

impl Evaluator<SixteenSoldiers> for Soldiers {
    fn evaluate(&self, game: &SixteenSoldiers, s: &Position) -> Value {
        self.terms(game, s).iter().map(|&(_, v)| v).sum()
    }

    /// 15 pieces' lead (a side with none has lost), 16 × 8 steps, 16 hanging pieces.
    fn bound(&self) -> Value {
        BOUND
    }

    /// Wins are all alike: `±(1 + bound)`.
    fn terminal(&self, payoff: Value) -> Value {
        if payoff == 0.0 { 0.0 } else { payoff.signum() * (1.0 + BOUND) }
    }

    fn proofs_are_final(&self) -> bool {
        true
    }

    /// The captures of the side to move.
    fn noisy(&self, game: &SixteenSoldiers, s: &Position, moves: &mut Vec<Move>) {
        game.moves(s, moves);
        moves.retain(|&mv| SixteenSoldiers::jumps(mv) > 0);
    }

    fn terms(&self, game: &SixteenSoldiers, s: &Position) -> Vec<(&'static str, Value)> {
        let (x_steps, o_hanging) = room(game, s.x, s.o);
        let (o_steps, x_hanging) = room(game, s.o, s.x);
        let material = f64::from(s.x.count_ones()) - f64::from(s.o.count_ones());
        vec![
            ("material", MATERIAL * material),
            ("mobility", MOBILITY * (f64::from(x_steps) - f64::from(o_steps))),
            ("hanging", HANGING * (f64::from(o_hanging) - f64::from(x_hanging))),
        ]
    }
}

/// The same terms on the position of the game played jump by jump.
impl Evaluator<JumpByJump> for Soldiers {
    fn evaluate(&self, game: &JumpByJump, s: &jumps::State) -> Value {
        self.evaluate(game.rules(), &s.position)
    }

    fn bound(&self) -> Value {
        BOUND
    }

    fn terminal(&self, payoff: Value) -> Value {
        Evaluator::<SixteenSoldiers>::terminal(self, payoff)
    }

    fn proofs_are_final(&self) -> bool {
        true
    }

    /// The jumps (a chain's first, or its next) of the side to move.
    fn noisy(&self, game: &JumpByJump, s: &jumps::State, moves: &mut Vec<Decision>) {
        game.moves(s, moves);
        moves.retain(|&decision| JumpByJump::is_jump(decision));
    }

    fn terms(&self, game: &JumpByJump, s: &jumps::State) -> Vec<(&'static str, Value)> {
        self.terms(game.rules(), &s.position)
    }
}
