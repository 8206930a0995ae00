//! Sixteen Soldiers played jump by jump ([`JumpByJump`]): the same game, with a chain of jumps made one jump a
//! decision, so that every decision is one of a fixed list of actions ([`Actions`]) — what an environment's
//! action mask and a network's policy head need.
//!
//! In [`SixteenSoldiers`] a move is a whole chain, and a chain may take any path: two chains from one point to
//! another can capture different pieces, so no list of (from, to) pairs names every move. Here a decision is a
//! point and a direction — a step, or a single jump, of the piece on that point (a step and a jump in one
//! direction are never both legal: the first point along the line is empty for the one and an enemy's for the
//! other) — or, in the middle of a chain that may stop there ([`Capture::Optional`]), the end of the chain. After
//! a jump, the same player decides again while the chain goes on, and only the chain's piece moves. That is the
//! way of OpenSpiel's checkers and of draughts programs; it costs a policy head 37 × 8 + 1 = 297 outputs, where
//! (from, to) pairs would cost 37 × 37 = 1,369 and still miss chains.
//!
//! Every line of play of one game is a line of play of the other: the chains a position allows are exactly the
//! sequences of decisions from it until the other side is to move ([`JumpByJump::decisions`]; checked on random
//! positions of every rules variant in the tests). Positions repeat as in [`SixteenSoldiers`] (a position in the
//! middle of a chain never does: a piece has just been taken). The length cap is [`SixteenSoldiers`]' number,
//! but it counts decisions here — a chain of `n` jumps is `n` of them, `n + 1` where it ends with `stop` — so a
//! game that reaches it is drawn sooner than a game of chains would be; short of the cap, both forms have the
//! same wins, losses and draws.
//!
//! # Notation
//!
//! A position is [`SixteenSoldiers`]' notation, followed in the middle of a chain by `jumping` and the point of
//! the chain's piece: `… x jumping c5` (X's piece on c5 has jumped and may, or must, jump again). A decision is
//! written `c4-c5` (a step), `c4xc6` (a jump) or `stop` (the chain ends there).

use super::{Capture, DIRS_SHIFT, JUMPS_SHIFT, Move, ParseError, Position, SixteenSoldiers, step_move};
use crate::alquerque::DIRECTIONS;
use crate::rng::splitmix64;
use crate::{Actions, Cycles, Game, Node, Notation, Player};

/// The action that ends a chain where it may stop: after the 37 × 8 (point, direction) actions.
pub const STOP: u16 = 37 * DIRECTIONS as u16;

/// The bit of a decision that marks a jump (a step without it); the action is the bits below.
const JUMP: u16 = 1 << 9;

/// A decision: a step or a jump (a point and a direction), or [`STOP`].
pub type Decision = u16;

/// A state of the jump-by-jump game: the position and, in the middle of a chain, the point of its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// The board, the side to move and the quiet plies, as in [`SixteenSoldiers`].
    pub position: Position,
    /// The point of the piece that has jumped and may jump again, in the middle of a chain.
    pub jumping: Option<u8>,
}

/// Sixteen Soldiers with a chain of jumps played one jump a decision (the module documentation).
#[derive(Clone, Debug)]
pub struct JumpByJump {
    game: SixteenSoldiers,
}

impl JumpByJump {
    /// `game`'s rules, jump by jump.
    pub fn new(game: SixteenSoldiers) -> JumpByJump {
        JumpByJump { game }
    }

    /// The rules, whose chains are played here jump by jump.
    pub fn rules(&self) -> &SixteenSoldiers {
        &self.game
    }

    /// The state at the start of a turn in `position`.
    pub fn at(position: Position) -> State {
        State { position, jumping: None }
    }

    /// The decisions that make the move `mv` of [`SixteenSoldiers`] (a step or a whole chain) in `position`, from
    /// the start of the turn, in order: its steps or jumps, then [`STOP`] where the chain ends with a jump still
    /// open to it (which only [`Capture::Optional`] allows).
    pub fn decisions(&self, position: &Position, mv: Move) -> Vec<Decision> {
        let jumps = SixteenSoldiers::jumps(mv);
        let direction = |i: u32| (mv >> (DIRS_SHIFT + 3 * i) & 7) as u16;
        if jumps == 0 {
            return vec![Self::first(mv)];
        }
        let path = self.game.path(mv);
        let mut decisions: Vec<Decision> =
            (0..jumps).map(|i| JUMP | u16::from(path[i as usize]) << 3 | direction(i)).collect();
        let mut after = *position;
        self.game.play(&mut after, mv);
        after.x_to_move = position.x_to_move;
        if self.can_jump_on(&after, path[jumps as usize]) {
            decisions.push(STOP);
        }
        decisions
    }

    /// Whether `decision` is a jump (a chain's first or next).
    pub fn is_jump(decision: Decision) -> bool {
        decision & JUMP != 0
    }

    /// `s` mirrored left–right (the mirror keeps the start in place, and every value).
    pub fn mirrored(&self, s: &State) -> State {
        State { position: self.game.mirrored(&s.position), jumping: s.jumping.map(|at| self.game.mirror_point(at)) }
    }

    /// The action of the mirror image of the decision whose action is `action`: its point mirrored, its
    /// direction too (north and south stay, east and west change places).
    pub fn mirrored_action(&self, action: usize) -> usize {
        if action == usize::from(STOP) {
            return action;
        }
        let (point, d) = (action / DIRECTIONS, action % DIRECTIONS);
        usize::from(self.game.mirror_point(point as u8)) * DIRECTIONS + (DIRECTIONS - d) % DIRECTIONS
    }

    /// The first decision of the move `mv` of [`SixteenSoldiers`], read from its bits: its step, or its first jump.
    fn first(mv: Move) -> Decision {
        let jump = if SixteenSoldiers::jumps(mv) > 0 { JUMP } else { 0 };
        jump | ((mv & 0x3f) as u16) << 3 | (mv >> DIRS_SHIFT & 7) as u16
    }

    /// What a chain under way adds to a position's keys: 0 at the start of a turn.
    fn chain_key(s: &State) -> u64 {
        s.jumping.map_or(0, |at| splitmix64(u64::from(at) + 1))
    }

    /// Whether the piece on `at` can jump in `position`, as the side to move's.
    fn can_jump_on(&self, position: &Position, at: u8) -> bool {
        let (own, enemy) = SixteenSoldiers::sides(position);
        self.game.can_jump(at, own & !(1 << at), enemy)
    }

    /// The point a decision moves from, the point where it ends, and the point of the piece it takes (a jump's);
    /// `None` for [`STOP`].
    pub fn points(&self, decision: Decision) -> Option<(u8, u8, Option<u8>)> {
        if decision == STOP {
            return None;
        }
        let (from, d) = ((decision >> 3 & 0x3f) as u8, usize::from(decision & 7));
        let next = self.game.board.step(from, d).expect("a decision along a line");
        Some(match decision & JUMP {
            0 => (from, next, None),
            _ => (from, self.game.board.step(next, d).expect("a jump along a line"), Some(next)),
        })
    }

    /// The point where `decision` (not [`STOP`]) ends: a step's next point, a jump's landing.
    fn target(&self, decision: Decision) -> u8 {
        self.points(decision).expect("a step or a jump").1
    }
}

impl Game for JumpByJump {
    type State = State;
    type Move = Decision;

    fn node(&self, s: &State) -> Node {
        match s.jumping {
            Some(_) => Node::Decision(SixteenSoldiers::mover(&s.position)),
            None => self.game.node(&s.position),
        }
    }

    /// At the start of a turn, the first decision of every move of [`SixteenSoldiers`] (its natural order, each
    /// once); in a chain, the piece's jumps by direction, then [`STOP`] where the chain may stop.
    fn moves(&self, s: &State, buf: &mut Vec<Decision>) {
        buf.clear();
        match s.jumping {
            Some(at) => {
                let (own, enemy) = SixteenSoldiers::sides(&s.position);
                let jumps = self.game.jumps_from(at, own & !(1 << at), enemy);
                buf.extend(jumps.map(|(d, _, _)| JUMP | u16::from(at) << 3 | d as u16));
                if self.game.capture() == Capture::Optional {
                    buf.push(STOP);
                }
            }
            None => {
                let mut chains = Vec::new();
                self.game.moves(&s.position, &mut chains);
                // A piece's chains that begin alike are listed together; a set of the actions seen keeps each once.
                let mut seen = [0u64; 5];
                for first in chains.into_iter().map(Self::first) {
                    let action = usize::from(first & !JUMP);
                    if seen[action / 64] >> (action % 64) & 1 == 0 {
                        seen[action / 64] |= 1 << (action % 64);
                        buf.push(first);
                    }
                }
            }
        }
    }

    /// A step passes the turn; a jump passes it unless the piece can jump on; [`STOP`] passes it.
    fn play(&self, s: &mut State, decision: Decision) {
        let mover = s.position.x_to_move;
        s.jumping = None;
        if decision == STOP {
            s.position.x_to_move = !mover;
            return;
        }
        let (from, d) = (u64::from(decision >> 3 & 0x3f), u64::from(decision & 7));
        if decision & JUMP == 0 {
            self.game.play(&mut s.position, step_move(from as u8, d as usize));
            return;
        }
        self.game.play(&mut s.position, from | 1 << JUMPS_SHIFT | d << DIRS_SHIFT);
        let landing = self.target(decision);
        s.position.x_to_move = mover;
        if self.can_jump_on(&s.position, landing) {
            s.jumping = Some(landing);
        } else {
            s.position.x_to_move = !mover;
        }
    }

    /// The position's key with the chain's point mixed in: unique where [`SixteenSoldiers`]' is at the start of
    /// a turn; in the middle of a chain, keys may collide (about 2⁻⁶⁴ a pair).
    fn key(&self, s: &State) -> u64 {
        self.game.key(&s.position) ^ Self::chain_key(s)
    }

    fn cycles(&self) -> Option<Cycles> {
        self.game.cycles()
    }

    fn repetition_key(&self, s: &State) -> u64 {
        self.game.repetition_key(&s.position) ^ Self::chain_key(s)
    }
}

impl Actions for JumpByJump {
    /// 37 points × 8 directions, and [`STOP`].
    fn actions(&self) -> usize {
        usize::from(STOP) + 1
    }

    /// A step or jump: its point × 8 + its direction (north first, clockwise); [`STOP`] last.
    fn action(&self, decision: Decision) -> usize {
        usize::from(decision & !JUMP)
    }
}

impl Notation for JumpByJump {
    type Error = ParseError;

    fn parse_position(&self, text: &str) -> Result<State, ParseError> {
        let Some((board, point)) = text.rsplit_once(" jumping ") else {
            return self.game.parse(text).map(JumpByJump::at);
        };
        let position = self.game.parse(board)?;
        let jumping = |why: &str| Err(ParseError::Counts(text.into(), format!("jumping {}: {why}", point.trim())));
        let Some(at) = self.game.board.point(point.trim()) else {
            return jumping("no such point");
        };
        let (own, _) = SixteenSoldiers::sides(&position);
        if own & 1 << at == 0 {
            return jumping("not a piece of the side to move");
        }
        if !self.can_jump_on(&position, at) {
            return jumping("the piece there has no jump, so no chain goes on from it");
        }
        if position.quiet != 0 {
            return jumping("a chain has just taken a piece, so no plies are quiet; give 0");
        }
        Ok(State { position, jumping: Some(at) })
    }

    fn start(&self) -> Option<&str> {
        self.game.start()
    }

    /// `c4-c5`, `c4xc6`, or `stop`.
    fn write_move(&self, decision: Decision) -> String {
        let Some((from, to, taken)) = self.points(decision) else {
            return "stop".to_string();
        };
        let sign = if taken.is_some() { 'x' } else { '-' };
        format!("{}{sign}{}", self.game.board.name(from), self.game.board.name(to))
    }

    /// The board and the side to move, and in a chain the point its piece jumps on from.
    fn picture(&self, s: &State) -> String {
        let picture = self.game.picture(&s.position);
        match s.jumping {
            Some(at) => format!("{picture}, jumping on from {}", self.game.board.name(at)),
            None => picture,
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        self.game.player_name(player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance;

    fn legal(game: &JumpByJump, s: &State) -> Vec<Decision> {
        let mut decisions = Vec::new();
        game.moves(s, &mut decisions);
        decisions
    }

    fn games() -> Vec<JumpByJump> {
        let mut games = Vec::new();
        for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
            for quiet in [None, Some(30)] {
                games.push(JumpByJump::new(SixteenSoldiers::new(capture).with_quiet_limit(quiet)));
            }
        }
        games
    }

    /// Every sequence of decisions from the start of a turn until the turn passes, with the position it leads
    /// to and the points its piece lands on.
    fn turns(game: &JumpByJump, s: &State, landed: &mut Vec<u8>, out: &mut Vec<(Vec<u8>, Position)>) {
        let mut decisions = Vec::new();
        game.moves(s, &mut decisions);
        for decision in decisions {
            let mut next = *s;
            game.play(&mut next, decision);
            let depth = landed.len();
            if decision != STOP {
                landed.push(game.target(decision));
            }
            match next.jumping {
                Some(_) => {
                    assert_eq!(next.position.x_to_move, s.position.x_to_move, "a chain keeps the turn");
                    turns(game, &next, landed, out);
                }
                None => out.push((landed.clone(), next.position)),
            }
            landed.truncate(depth);
        }
    }

    #[test]
    fn the_chains_of_a_position_are_its_sequences_of_decisions() {
        let mut chains = Vec::new();
        let mut multiple = 0;
        for game in games() {
            let rules = game.rules();
            let start = rules.start_position();
            for (_, position) in conformance::random_lines(rules, &start, 300, 0..60, 7) {
                if !matches!(rules.node(&position), Node::Decision(_)) {
                    continue;
                }
                rules.moves(&position, &mut chains);
                let mut expected: Vec<(Vec<u8>, Position)> =
                    chains.iter().map(|&mv| (rules.path(mv)[1..].to_vec(), rules.child(&position, mv))).collect();
                let mut found = Vec::new();
                turns(&game, &JumpByJump::at(position), &mut Vec::new(), &mut found);
                expected.sort_by_key(|(path, _)| path.clone());
                found.sort_by_key(|(path, _)| path.clone());
                assert_eq!(found, expected, "{}", rules.write(&position));
                // Each chain's decisions, played one by one, are legal and make the chain.
                for &mv in &chains {
                    let decisions = game.decisions(&position, mv);
                    multiple += usize::from(decisions.len() > 1);
                    let mut s = JumpByJump::at(position);
                    for (i, &decision) in decisions.iter().enumerate() {
                        assert!(legal(&game, &s).contains(&decision), "{}: {}", rules.write_move(mv), i);
                        game.play(&mut s, decision);
                        assert_eq!(s.jumping.is_some(), i + 1 < decisions.len());
                    }
                    assert_eq!(s.position, rules.child(&position, mv), "{}", rules.write_move(mv));
                }
            }
        }
        assert!(multiple > 100, "the positions hold chains of several jumps: {multiple}");
    }

    #[test]
    fn a_chain_goes_on_jump_by_jump_and_stops_where_the_rules_let_it() {
        // X's piece on c3 can take d4's and then d6's: c3xe5xc7.
        let position = ".../.../...../...O./...../...O./..X../.../... x";
        let written = |game: &JumpByJump, s: &State| -> Vec<String> {
            legal(game, s).iter().map(|&d| game.write_move(d)).collect()
        };
        let steps_and_jump = vec!["c3-c4", "c3-d3", "c3-d2", "c3-c2", "c3-b2", "c3-b3", "c3-b4", "c3xe5"];
        for (capture, first, then) in [
            (Capture::Compulsory, vec!["c3xe5"], vec!["e5xc7"]),
            (Capture::Optional, steps_and_jump.clone(), vec!["e5xc7", "stop"]),
            (Capture::Continue, steps_and_jump, vec!["e5xc7"]),
        ] {
            let game = JumpByJump::new(SixteenSoldiers::new(capture));
            let mut s = game.parse_position(position).unwrap();
            assert_eq!(written(&game, &s), first, "{capture}");
            let jump = legal(&game, &s).into_iter().find(|&d| game.write_move(d) == "c3xe5").unwrap();
            game.play(&mut s, jump);
            assert_eq!(s.jumping, game.rules().board.point("e5"), "{capture}: the chain goes on from e5");
            assert!(s.position.x_to_move && game.picture(&s).ends_with("X to move, jumping on from e5"));
            assert_eq!(written(&game, &s), then, "{capture}");
            assert_eq!(
                game.parse_position(&format!("{position} jumping c3")).unwrap().jumping,
                game.rules().board.point("c3")
            );
        }
        let game = JumpByJump::new(SixteenSoldiers::new(Capture::Optional));
        for (point, why) in
            [("d4", "not a piece of the side to move"), ("z9", "no such point"), ("c3 x", "no such point")]
        {
            let err = game.parse_position(&format!("{position} jumping {point}")).unwrap_err().to_string();
            assert!(err.contains(&format!("jumping {point}: {why}")), "{err}");
        }
        let lone = ".../.../...../...../...../...../..X.O/.../... x jumping c3";
        assert!(game.parse_position(lone).unwrap_err().to_string().contains("has no jump"));
        let quiet = JumpByJump::new(SixteenSoldiers::new(Capture::Optional).with_quiet_limit(Some(30)));
        let err = quiet.parse_position(&format!("{position} 3 jumping c3")).unwrap_err().to_string();
        assert!(err.contains("jumping c3: a chain has just taken a piece, so no plies are quiet; give 0"), "{err}");
        assert!(quiet.parse_position(&format!("{position} 0 jumping c3")).is_ok());
        assert_eq!((game.write_move(STOP), game.action(STOP), game.actions()), ("stop".to_string(), 296, 297));
    }

    #[test]
    fn conforms() {
        for game in games() {
            let start = game.parse_position(game.start().unwrap()).unwrap();
            conformance::check(&game, &[start], 20, 3);
            conformance::check_notation(&game, &[start], 5, 3);
            conformance::check_actions(&game, &[start], 20, 3);
            conformance::check_cycles(&game, &[start], 20, 3);
        }
    }
}
