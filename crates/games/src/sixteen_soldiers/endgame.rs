//! Sixteen Soldiers' endgames as a [`Space`] for retrograde analysis: every position with at most a given
//! number of pieces on the board (each side at least one), under one capture rule, numbered up to the game's
//! symmetries.
//!
//! # The symmetries
//!
//! The rules know no direction: a piece steps and jumps along any line, and the two sides differ only in who
//! moves. So a position keeps its value for the side to move under the board's four symmetries (the identity,
//! the mirror left–right, the mirror top–bottom, the half turn), and under the exchange of the colours with the
//! side to move. Positions are numbered from the side to move's view — its pieces first, the other side's
//! second — which merges each position with its colours exchanged, and the board up to the four symmetries
//! ([`Classes`]): about an eighth of the positions. A number's position ([`Space::position`]) has X to move.
//!
//! # The numbering
//!
//! A *slice* holds the positions with `m` pieces for the side to move and `k` for the other, by the total
//! `m + k` (2 up to the most), then by `m`; within a slice, a position is numbered by its board: the class of the
//! mover's pieces, then the other side's pieces among the points they leave.
//!
//! # The moves backwards
//!
//! The side that moved last takes its move back: a step (under compulsory capture, only where no capture was
//! there to make), or a chain of jumps, each jump taken back putting an enemy piece on the point it passed over.
//! Under compulsory capture and under the rule that a chain continues, a chain ends only where its piece cannot
//! jump on; under optional capture, any jump may end one.

use super::{Capture, Position, SixteenSoldiers};
use crate::alquerque::{Permutation, Points, points};
use crate::numbering::Classes;
use crate::{Player, Space, Unmoves};
use thiserror::Error;

/// A slice: the positions with `mover` pieces for the side to move and `waiting` for the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slice {
    mover: u32,
    waiting: u32,
    /// The slice's first number.
    offset: u64,
}

/// Why an endgame space is refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EndgameError {
    /// Fewer than 2 pieces (a side without pieces has lost), or more than the board can number here.
    #[error("{0} pieces: endgames hold 2 to {MOST} pieces on the board")]
    Pieces(u32),
    /// The quiet limit makes a position's value depend on its count of quiet plies, which the tables leave out.
    #[error("endgame tables are for the game without the quiet limit (a position's value would depend on its count)")]
    QuietLimit,
}

/// A map of the board's (file, rank) coordinates.
type Isometry = fn(u8, u8) -> (u8, u8);

/// The most pieces an endgame space takes (7 pieces take 388 million numbers, 8 about 2.95 billion).
pub const MOST: u32 = 8;

/// Every position of Sixteen Soldiers with 2 to `most` pieces on the board (see the module documentation).
#[derive(Clone, Debug)]
pub struct FewPieces {
    game: SixteenSoldiers,
    most: u32,
    /// The boards with `m` pieces for the side to move: `classes[m - 1]`.
    classes: Vec<Classes>,
    slices: Vec<Slice>,
}

impl FewPieces {
    /// The positions of `game` with 2 to `most` pieces; refused with the quiet limit, or for `most` below 2 or
    /// above [`MOST`].
    pub fn new(game: &SixteenSoldiers, most: u32) -> Result<FewPieces, EndgameError> {
        if !(2..=MOST).contains(&most) {
            return Err(EndgameError::Pieces(most));
        }
        if game.quiet_limit.is_some() {
            return Err(EndgameError::QuietLimit);
        }
        let board = game.board();
        let maps: [Isometry; 4] = [|f, r| (f, r), |f, r| (4 - f, r), |f, r| (f, 8 - r), |f, r| (4 - f, 8 - r)];
        let symmetries: Vec<Permutation> =
            maps.iter().map(|map| Permutation::new(&board.symmetry(map).expect("a symmetry of the board"))).collect();
        let classes: Vec<Classes> = (1..most).map(|m| Classes::new(board.all(), m, &symmetries)).collect();
        let mut slices = Vec::new();
        let mut offset = 0;
        for total in 2..=most {
            for mover in 1..total {
                let waiting = total - mover;
                slices.push(Slice { mover, waiting, offset });
                offset += classes[mover as usize - 1].numbers(waiting);
            }
        }
        Ok(FewPieces { game: game.clone(), most, classes, slices })
    }

    /// The slices, in the order of their numbers: the pieces of the side to move, the other side's, and the
    /// slice's numbers.
    pub fn slices(&self) -> Vec<(u32, u32, std::ops::Range<u64>)> {
        let end = |k: usize| self.slices.get(k + 1).map_or(self.len(), |s| s.offset);
        self.slices.iter().enumerate().map(|(k, s)| (s.mover, s.waiting, s.offset..end(k))).collect()
    }

    /// The position before a move of the side waiting in `s`: its pieces `moved`, the other side's `against`,
    /// the waiting side to move.
    fn before(s: &Position, moved: Points, against: Points) -> Position {
        let (x, o) = if s.x_to_move { (against, moved) } else { (moved, against) };
        Position { x, o, x_to_move: !s.x_to_move, quiet: 0 }
    }

    /// Takes back the chains of jumps of the waiting side's piece that ended on `to` in `s`, from `at` back, the
    /// jumped pieces `restored` so far (the piece lifted from the board): each chain taken back is an unmove.
    fn chains_back(&self, s: &Position, to: u8, at: u8, restored: Points, buf: &mut Vec<Position>) {
        let (mover, waiting) = SixteenSoldiers::sides(s);
        // The jumped pieces may include one on `to`, which the piece left before it landed there.
        if mover.count_ones() + restored.count_ones() + waiting.count_ones() >= self.most {
            return;
        }
        let board = self.game.board();
        let empty = board.all() & !(mover | restored | waiting & !(1 << to));
        for &(_, over, from) in board.jumps(at) {
            if empty & 1 << over != 0 && empty & 1 << from != 0 {
                let restored = restored | 1 << over;
                buf.push(Self::before(s, waiting & !(1 << to) | 1 << from, mover | restored));
                self.chains_back(s, to, from, restored, buf);
            }
        }
    }
}

impl Space for FewPieces {
    type Game = SixteenSoldiers;

    fn game(&self) -> &SixteenSoldiers {
        &self.game
    }

    fn len(&self) -> u64 {
        self.slices.last().map_or(0, |s| s.offset + self.classes[s.mover as usize - 1].numbers(s.waiting))
    }

    fn position(&self, index: u64) -> Option<Position> {
        let slice = *self.slices.iter().rev().find(|s| s.offset <= index)?;
        let (mover, waiting) = self.classes[slice.mover as usize - 1].board(index - slice.offset, slice.waiting)?;
        Some(Position { x: mover, o: waiting, x_to_move: true, quiet: 0 })
    }

    fn index(&self, s: &Position) -> Option<u64> {
        let (mover, waiting) = SixteenSoldiers::sides(s);
        let (m, k) = (mover.count_ones(), waiting.count_ones());
        let slice = self.slices.iter().find(|slice| (slice.mover, slice.waiting) == (m, k))?;
        (s.quiet == 0).then(|| slice.offset + self.classes[m as usize - 1].number(mover, waiting))
    }

    fn to_move(&self, s: &Position) -> Player {
        if s.x_to_move { Player::Max } else { Player::Min }
    }

    /// Twice (the colours exchanged) the board's images under its four symmetries.
    fn multiplicity(&self, s: &Position) -> u64 {
        let (mover, waiting) = SixteenSoldiers::sides(s);
        2 * self.classes[mover.count_ones() as usize - 1].images(mover, waiting)
    }
}

impl Unmoves for FewPieces {
    /// See the module documentation.
    fn unmoves(&self, s: &Position, buf: &mut Vec<Position>) {
        buf.clear();
        let game = &self.game;
        let board = game.board();
        // The side to move in `s` is the one that was moved against; the waiting side moved.
        let (mover, waiting) = SixteenSoldiers::sides(s);
        let empty = board.all() & !(mover | waiting);
        for to in points(waiting) {
            let others = waiting & !(1 << to);
            for from in points(board.adjacent(to) & empty) {
                let moved = others | 1 << from;
                let could_capture = || points(moved).any(|p| game.can_jump(p, moved & !(1 << p), mover));
                if game.capture != Capture::Compulsory || !could_capture() {
                    buf.push(Self::before(s, moved, mover));
                }
            }
            if game.capture == Capture::Optional || !game.can_jump(to, others, mover) {
                self.chains_back(s, to, to, 0, buf);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_space, check_unmoves};
    use crate::numbering::Binomial;
    use crate::{Game, Notation};

    #[test]
    fn every_rule_keeps_the_promises() {
        for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
            for most in [4, 6] {
                let space = FewPieces::new(&SixteenSoldiers::new(capture), most).unwrap();
                check_space(&space);
                check_unmoves(&space);
            }
        }
    }

    /// Every position with 2 to 4 pieces, counted by its class: each slice holds the `C(37, m) · C(37 − m, k)`
    /// boards of its counts, each twice (either colour to move).
    #[test]
    fn the_classes_hold_every_position_once() {
        let space = FewPieces::new(&SixteenSoldiers::new(Capture::Compulsory), 4).unwrap();
        let binomial = Binomial::new(37);
        for (mover, waiting, numbers) in space.slices() {
            let positions: u64 =
                numbers.filter_map(|i| space.position(i)).map(|s| space.multiplicity(&s)).sum::<u64>() / 2;
            let boards = binomial.get(37, mover as usize) * binomial.get(37 - mover as usize, waiting as usize);
            assert_eq!(positions, boards, "{mover} against {waiting}");
        }
    }

    /// A chain of three jumps that lands on the point of its first capture (a9xe9xc7xc9, over c9, d8 and c8,
    /// through the top triangle), and a step, taken back under each rule: the unmoves list the positions before
    /// them exactly when the rule allows the move.
    #[test]
    fn chains_and_steps_are_taken_back_as_each_rule_allows() {
        for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
            let game = SixteenSoldiers::new(capture);
            let space = FewPieces::new(&game, 6).unwrap();
            let before = game.parse("XO./.OO/...../...../...../...../...../.../O.X x").unwrap();
            let mut moves = Vec::new();
            game.moves(&before, &mut moves);
            let chain = *moves.iter().find(|&&m| game.write_move(m) == "a9xe9xc7xc9").expect("the chain");
            let after = game.child(&before, chain);
            assert_eq!(game.write(&after), ".X./.../...../...../...../...../...../.../O.X o");
            let mut unmoves = Vec::new();
            space.unmoves(&after, &mut unmoves);
            assert!(unmoves.iter().any(|q| space.index(q) == space.index(&before)), "{capture}: {unmoves:?}");
            // Its first jump alone is a move only under optional capture.
            let first = game.parse("..X/.OO/...../...../...../...../...../.../O.X o").unwrap();
            space.unmoves(&first, &mut unmoves);
            let listed = unmoves.iter().any(|q| space.index(q) == space.index(&before));
            assert_eq!(listed, capture == Capture::Optional, "{capture}");
            // X's step e1-c1, with the chain there to make: a move only when captures are optional.
            let stepped = game.parse("XO./.OO/...../...../...../...../...../.../OX. o").unwrap();
            let step_is_move = moves.iter().any(|&m| game.child(&before, m) == stepped);
            space.unmoves(&stepped, &mut unmoves);
            let step_listed = unmoves.iter().any(|q| space.index(q) == space.index(&before));
            assert_eq!(step_listed, step_is_move, "{capture}");
            assert_eq!(step_is_move, capture != Capture::Compulsory, "{capture}");
        }
    }

    #[test]
    fn positions_are_numbered_from_the_side_to_move() {
        let game = SixteenSoldiers::new(Capture::Compulsory);
        let space = FewPieces::new(&game, 6).unwrap();
        let s = game.parse("..O/.../...../..O../...../OOO../..X../.../... x").unwrap();
        let mirrored = game.mirrored(&s);
        let swapped = Position { x: s.o, o: s.x, x_to_move: false, quiet: 0 };
        let i = space.index(&s).unwrap();
        assert_eq!(space.index(&mirrored), Some(i));
        assert_eq!(space.index(&swapped), Some(i));
        assert_eq!(space.index(&game.start_position()), None);
        let representative = space.position(i).unwrap();
        assert!(representative.x_to_move);
        assert_eq!(space.to_move(&swapped), Player::Min);
        assert_eq!(game.node(&representative), crate::Node::Decision(Player::Max));
        assert_eq!(FewPieces::new(&game, 1).unwrap_err(), EndgameError::Pieces(1));
        let quiet = SixteenSoldiers::new(Capture::Compulsory).with_quiet_limit(Some(50));
        assert_eq!(FewPieces::new(&quiet, 6).unwrap_err(), EndgameError::QuietLimit);
    }
}
