//! Pig, the jeopardy dice game, and Piglet, its coin-tossing miniature (as Todd Neller and Clifton Presser
//! study them in "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1), 2004).
//!
//! # The rules
//!
//! Two players race to a goal (100 in Pig). A turn is a series of rolls of a die: a roll of 1 ends the turn and
//! loses the turn's total; any other face adds to the turn total, and the player then chooses to roll again or
//! to *hold* — add the turn total to her score and pass the die. Piglet tosses a coin instead: tails loses the
//! turn total, heads adds 1. The first player is MAX; the winner scores +1, the loser −1.
//!
//! As a tree: a decision (roll or hold), and after a roll a chance node (each face, or side, equally likely).
//! A turn total that brings the score to the goal ends the game at once, won — as if the player held: Neller
//! and Presser's equations do the same (a win when score + turn total reaches the goal), and it keeps the game
//! finite. Holding with a turn total of 0 (passing) is a legal move, as in their equations. Positions repeat
//! (both may pass, and every 1 rolled undoes a turn), so only value iteration values it exactly
//! ([`PigSpace`] numbers its positions for that).
//!
//! # Notation
//!
//! A position is the first player's score, the second's, the turn total and the side to move (`first` or
//! `second`), then `rolled` when the die is in the air (a chance node): `0 0 0 first` is the start, `87 95 6
//! second rolled` the second player awaiting the die. Moves are `roll` and `hold`; a die's faces `1`–`6`, a
//! coin's `tails` and `heads`. The players are `first` and `second`.

use crate::{Actions, Game, Node, Notation, Player, Space};
use thiserror::Error;

/// A move: [`ROLL`] or [`HOLD`] at a decision; at a chance node, the points the roll adds, 0 for the face that
/// loses the turn total.
pub type Move = u8;

/// Roll the die (or toss the coin).
pub const ROLL: Move = 254;

/// Bank the turn total and pass.
pub const HOLD: Move = 255;

/// A position: the scores, the turn total, who is to move and whether the die is in the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// The first player's score and the second's.
    pub scores: [u16; 2],
    /// Points rolled this turn, not yet banked.
    pub turn: u16,
    /// Whether the second player is to move.
    pub second_to_move: bool,
    /// Whether the die is in the air (a chance node).
    pub rolled: bool,
}

impl State {
    /// The side to move.
    pub fn mover(&self) -> Player {
        if self.second_to_move { Player::Min } else { Player::Max }
    }

    fn me(&self) -> usize {
        usize::from(self.second_to_move)
    }
}

/// Why a Pig position or goal was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// A goal out of range.
    #[error("goal={0}: a goal is from 1 to {MAX_GOAL}")]
    Goal(u32),
    /// Not the notation (the game's name, Pig or Piglet, and the text).
    #[error("{0} position {1:?}: expected FIRST SECOND TURN first|second [rolled], like \"0 0 0 first\"")]
    Form(&'static str, String),
    /// A score or turn total past the goal (the game's name, the text and the goal).
    #[error("{0} position {1:?}: scores must be below the goal {2}, and a score with the turn total too")]
    Range(&'static str, String, u16),
}

/// The largest goal: scores are 16-bit, and a game is valued over goal² × goal positions.
pub const MAX_GOAL: u32 = 1000;

/// Pig or Piglet to a goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pig {
    goal: u16,
    /// The points each winning face adds: 2–6 for a die, 1 for a coin's heads.
    gains: &'static [u8],
    /// The faces: the losing one and the winning ones.
    faces: u8,
}

impl Pig {
    /// Pig with a six-sided die, to `goal`.
    pub fn with_die(goal: u32) -> Result<Pig, ParseError> {
        Pig::new(goal, &[2, 3, 4, 5, 6])
    }

    /// Piglet with a coin, to `goal`.
    pub fn piglet(goal: u32) -> Result<Pig, ParseError> {
        Pig::new(goal, &[1])
    }

    fn new(goal: u32, gains: &'static [u8]) -> Result<Pig, ParseError> {
        match u16::try_from(goal) {
            Ok(g) if (1..=MAX_GOAL).contains(&goal) => Ok(Pig { goal: g, gains, faces: gains.len() as u8 + 1 }),
            _ => Err(ParseError::Goal(goal)),
        }
    }

    /// The goal.
    pub fn goal(&self) -> u16 {
        self.goal
    }

    /// The points of the winning faces (a die's 2–6, a coin's head 1).
    pub fn gains(&self) -> &'static [u8] {
        self.gains
    }

    /// The game's name: Pig, or Piglet.
    pub fn name(&self) -> &'static str {
        if self.is_piglet() { "Piglet" } else { "Pig" }
    }

    /// Whether this is Piglet (a coin).
    pub fn is_piglet(&self) -> bool {
        self.faces == 2
    }

    /// Reads a position (see the module documentation).
    pub fn parse(&self, text: &str) -> Result<State, ParseError> {
        let form = || ParseError::Form(self.name(), text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |w: &str| w.parse::<u16>().map_err(|_| form());
        let [a, b, t, side, rest @ ..] = words.as_slice() else { return Err(form()) };
        let rolled = match rest {
            [] => false,
            ["rolled"] => true,
            _ => return Err(form()),
        };
        let second_to_move = match *side {
            "first" => false,
            "second" => true,
            _ => return Err(form()),
        };
        let state = State { scores: [number(a)?, number(b)?], turn: number(t)?, second_to_move, rolled };
        let me = state.scores[state.me()];
        if state.scores.iter().any(|&s| s >= self.goal) || me + state.turn >= self.goal {
            return Err(ParseError::Range(self.name(), text.to_string(), self.goal));
        }
        Ok(state)
    }

    /// Writes a position (see the module documentation).
    pub fn write(&self, s: &State) -> String {
        let side = if s.second_to_move { "second" } else { "first" };
        let rolled = if s.rolled { " rolled" } else { "" };
        format!("{} {} {} {side}{rolled}", s.scores[0], s.scores[1], s.turn)
    }
}

/// [`ROLL`]'s action is 0 and [`HOLD`]'s 1; a chance outcome's is its face less one (0 for the face that loses
/// the turn total, then the winning faces in order: a die's 2–6 are 1–5, a coin's head 1).
impl Actions for Pig {
    fn actions(&self) -> usize {
        usize::from(self.faces).max(2)
    }

    fn action(&self, mv: Move) -> usize {
        match mv {
            ROLL => 0,
            HOLD => 1,
            0 => 0,
            points => 1 + self.gains.iter().position(|&g| g == points).expect("an outcome is a face's points"),
        }
    }
}

impl Game for Pig {
    type State = State;
    type Move = Move;

    fn node(&self, s: &State) -> Node {
        match s.scores.iter().position(|&score| score >= self.goal) {
            Some(0) => Node::Terminal(1.0),
            Some(_) => Node::Terminal(-1.0),
            None if s.rolled => Node::Chance,
            None => Node::Decision(s.mover()),
        }
    }

    /// Natural order: roll, then hold.
    fn moves(&self, s: &State, buf: &mut Vec<Move>) {
        buf.clear();
        if !s.rolled && matches!(self.node(s), Node::Decision(_)) {
            buf.extend([ROLL, HOLD]);
        }
    }

    /// The losing face (0) first, then the others by the points they add.
    fn outcomes(&self, s: &State, buf: &mut Vec<(Move, f64)>) {
        buf.clear();
        if s.rolled && matches!(self.node(s), Node::Chance) {
            let p = 1.0 / f64::from(self.faces);
            buf.push((0, p));
            buf.extend(self.gains.iter().map(|&g| (g, p)));
        }
    }

    fn play(&self, s: &mut State, mv: Move) {
        let me = s.me();
        match mv {
            ROLL => s.rolled = true,
            HOLD => {
                s.scores[me] += s.turn;
                s.turn = 0;
                s.second_to_move = !s.second_to_move;
            }
            0 => {
                s.rolled = false;
                s.turn = 0;
                s.second_to_move = !s.second_to_move;
            }
            gain => {
                s.rolled = false;
                s.turn += u16::from(gain);
                if s.scores[me] + s.turn >= self.goal {
                    // The goal reached: the game ends, won, as if she held.
                    s.scores[me] += s.turn;
                    s.turn = 0;
                }
            }
        }
    }

    fn key(&self, s: &State) -> u64 {
        u64::from(s.scores[0]) << 32
            | u64::from(s.scores[1]) << 16
            | u64::from(s.turn) << 2
            | u64::from(s.second_to_move) << 1
            | u64::from(s.rolled)
    }
}

impl Notation for Pig {
    type Error = ParseError;

    fn parse_position(&self, text: &str) -> Result<State, ParseError> {
        self.parse(text)
    }

    fn start(&self) -> Option<&str> {
        Some("0 0 0 first")
    }

    fn write_move(&self, mv: Move) -> String {
        match (mv, self.is_piglet()) {
            (ROLL, _) => "roll".into(),
            (HOLD, _) => "hold".into(),
            (0, true) => "tails".into(),
            (_, true) => "heads".into(),
            (0, false) => "1".into(),
            (gain, false) => gain.to_string(),
        }
    }

    fn picture(&self, s: &State) -> String {
        let side = if s.second_to_move { "second" } else { "first" };
        let air = if s.rolled { ", the die in the air" } else { "" };
        format!(
            "first {}, second {} (goal {}); {side} to move, turn total {}{air}",
            s.scores[0], s.scores[1], self.goal, s.turn
        )
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "first",
            Player::Min => "second",
        }
    }
}

/// Pig's positions numbered for value iteration, from the side to move's view: the mover's score `i`, the
/// other's `j`, the turn total `k` (with `i + k` below the goal) and whether the die is in the air; the two
/// players' positions with the same (i, j, k) are one class (the first player's stands for both).
///
/// The numbers come in stages ([`Space::stages`]), one per pair of scores {i, j}: the positions with scores
/// (i, j) and (j, i), every turn total. A roll or a bust stays in the stage; a hold banks points (or passes,
/// within the stage), so every move leads into the stage or to one with a larger total score. The stages run
/// from the largest total score down, a layer per total, and value iteration solves each layer's stages at
/// once, on values already final.
#[derive(Clone, Debug)]
pub struct PigSpace {
    game: Pig,
    /// Each stage's first number and its scores (a ≥ b), in order.
    stages: Vec<(u64, u16, u16)>,
    /// The stage of the scores (a, b), a ≥ b, at `a · goal + b`.
    stage_of: Vec<u32>,
    len: u64,
}

impl PigSpace {
    /// The positions of `game`.
    pub fn new(game: Pig) -> PigSpace {
        let g = game.goal;
        let mut pairs: Vec<(u16, u16)> = (0..g).flat_map(|a| (0..=a).map(move |b| (a, b))).collect();
        pairs.sort_by_key(|&(a, b)| std::cmp::Reverse((a + b, a)));
        let mut stage_of = vec![u32::MAX; usize::from(g) * usize::from(g)];
        let mut stages = Vec::with_capacity(pairs.len());
        let mut offset = 0;
        for (n, &(a, b)) in pairs.iter().enumerate() {
            stage_of[usize::from(a) * usize::from(g) + usize::from(b)] = n as u32;
            stages.push((offset, a, b));
            offset += PigSpace::side(g, a) + if a == b { 0 } else { PigSpace::side(g, b) };
        }
        PigSpace { game, stages, stage_of, len: offset }
    }

    /// The numbers of the positions whose mover has `score`: every turn total, the die down or in the air.
    fn side(goal: u16, score: u16) -> u64 {
        u64::from(goal - score) * 2
    }
}

impl Space for PigSpace {
    type Game = Pig;

    fn game(&self) -> &Pig {
        &self.game
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn position(&self, index: u64) -> Option<State> {
        let g = self.game.goal;
        let n = self.stages.partition_point(|&(offset, _, _)| offset <= index).checked_sub(1)?;
        let (offset, a, b) = self.stages[n];
        let mut within = index - offset;
        let (i, j) = if within < PigSpace::side(g, a) {
            (a, b)
        } else {
            within -= PigSpace::side(g, a);
            (b, a)
        };
        let k = (g - 1 - i).checked_sub((within / 2) as u16)?;
        (index < self.len).then_some(State { scores: [i, j], turn: k, second_to_move: false, rolled: within % 2 == 1 })
    }

    fn index(&self, s: &State) -> Option<u64> {
        let g = self.game.goal;
        let (i, j, k) = (s.scores[s.me()], s.scores[1 - s.me()], s.turn);
        if i >= g || j >= g || i + k >= g {
            return None;
        }
        let (a, b) = (i.max(j), i.min(j));
        let (offset, _, _) = self.stages[self.stage_of[usize::from(a) * usize::from(g) + usize::from(b)] as usize];
        let side = if i == a { 0 } else { PigSpace::side(g, a) };
        Some(offset + side + u64::from(g - 1 - i - k) * 2 + u64::from(s.rolled))
    }

    fn to_move(&self, s: &State) -> Player {
        s.mover()
    }

    fn multiplicity(&self, _: &State) -> u64 {
        2
    }

    /// A layer per total score, the largest first; a stage per pair of scores.
    fn stages(&self) -> Vec<Vec<std::ops::Range<u64>>> {
        let end = |n: usize| self.stages.get(n + 1).map_or(self.len, |s| s.0);
        let mut layers: Vec<Vec<std::ops::Range<u64>>> = Vec::new();
        for (n, &(offset, a, b)) in self.stages.iter().enumerate() {
            if n == 0 || a + b != self.stages[n - 1].1 + self.stages[n - 1].2 {
                layers.push(Vec::new());
            }
            layers.last_mut().expect("a layer").push(offset..end(n));
        }
        layers
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check, check_actions, check_notation, check_space};

    #[test]
    fn pig_and_piglet_keep_their_promises() {
        for game in [Pig::with_die(100).unwrap(), Pig::piglet(10).unwrap(), Pig::with_die(7).unwrap()] {
            let start = game.parse("0 0 0 first").unwrap();
            check(&game, &[start], 50, 1);
            check_notation(&game, &[start], 50, 2);
            check_actions(&game, &[start], 50, 2);
            check_space(&PigSpace::new(game));
        }
    }

    #[test]
    fn a_turn_plays_as_the_rules_say() {
        let game = Pig::with_die(100).unwrap();
        let mut s = game.parse("90 20 5 first").unwrap();
        game.play(&mut s, ROLL);
        assert_eq!(game.node(&s), Node::Chance);
        game.play(&mut s, 3);
        assert_eq!(game.write(&s), "90 20 8 first");
        game.play(&mut s, HOLD);
        assert_eq!(game.write(&s), "98 20 0 second");
        let mut bust = game.parse("98 20 30 second rolled").unwrap();
        game.play(&mut bust, 0);
        assert_eq!(game.write(&bust), "98 20 0 first");
        let mut win = game.parse("98 20 1 first rolled").unwrap();
        game.play(&mut win, 2);
        assert_eq!(game.node(&win), Node::Terminal(1.0));
        assert!(game.parse("100 0 0 first").is_err() && game.parse("50 0 50 first").is_err());
        assert!(Pig::with_die(0).is_err() && Pig::with_die(1001).is_err());
    }
}
