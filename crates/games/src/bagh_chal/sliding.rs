//! The sliding phase of Bagh-Chal (and of the games of its family without stacks) as a [`Space`] for
//! retrograde analysis: every position with all goats placed, from a least number of goats captured up to one
//! short of the tigers' win, either side to move, numbered up to the board's symmetries.
//!
//! # The numbering
//!
//! Positions are grouped by goats captured (a *slice*, in increasing order). Within a slice, a position is
//! numbered by its board ([`Classes`]: the class of its tiger set up to the board's symmetries, then the
//! empty points among the points the tigers leave — only a few points are empty in the sliding phase), then
//! the side to move. On the standard board about 5 % of the numbers stand for no position (92,946,140 numbers
//! for the 88,260,972 classes of positions with 0 to 4 goats captured).

use super::{BaghChal, ParseError, Position};
use crate::alquerque::{Permutation, points};
use crate::numbering::Classes;
use crate::{Player, Space, Unmoves};

/// A slice: the positions with one number of goats captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slice {
    captured: u8,
    /// Empty points on the board.
    empties: u32,
    /// The slice's first number.
    offset: u64,
}

/// Bagh-Chal's sliding phase from `captured` goats captured on (see the module documentation).
#[derive(Clone, Debug)]
pub struct SlidingPhase {
    game: BaghChal,
    /// The boards, tigers first, empty points second.
    classes: Classes,
    slices: Vec<Slice>,
}

impl SlidingPhase {
    /// The sliding phase of `game` from `captured` goats captured to one short of the tigers' win.
    ///
    /// Refused for a game with stacks (the goats of a stack are not all placed until it is gone) and for a
    /// number of captured goats at or beyond the win.
    pub fn new(game: &BaghChal, captured: u8) -> Result<SlidingPhase, ParseError> {
        let refuse = |why: String| Err(ParseError::Setup(why));
        if game.stack_points != 0 {
            return refuse("the sliding phase of a game with stacks has no fixed number of goats".into());
        }
        if captured >= game.captures_to_win {
            return refuse(format!("{captured} goats captured: the tigers have won at {}", game.captures_to_win));
        }
        let n = game.board.len() as u32;
        let symmetries: Vec<Permutation> = game.symmetries().iter().map(|perm| Permutation::new(perm)).collect();
        let tigers = game.start.tigers.count_ones();
        let classes = Classes::new(game.board.all(), tigers, &symmetries);
        let mut slices = Vec::new();
        let mut offset = 0;
        for c in captured..game.captures_to_win {
            let goats = u32::from(game.goats - c);
            if goats + tigers > n {
                return refuse(format!("{goats} goats and {tigers} tigers do not fit on {n} points"));
            }
            let empties = n - tigers - goats;
            slices.push(Slice { captured: c, empties, offset });
            offset += classes.numbers(empties) * 2;
        }
        Ok(SlidingPhase { game: game.clone(), classes, slices })
    }

    /// The number of the position with `captured` goats captured, the board numbered `board` by the space's
    /// [`Classes`] (tigers first, empty points second) and that side to move; `None` for a count of captures
    /// the space does not hold.
    pub fn number(&self, captured: u8, board: u64, goats_to_move: bool) -> Option<u64> {
        let slice = self.slices.iter().find(|slice| slice.captured == captured)?;
        Some(slice.offset + board * 2 + u64::from(goats_to_move))
    }

    /// The goats captured in the space's positions, fewest first, with each count's first number and how many
    /// numbers it takes.
    pub fn slices(&self) -> Vec<(u8, std::ops::Range<u64>)> {
        let end = |k: usize| self.slices.get(k + 1).map_or(self.len(), |s| s.offset);
        self.slices.iter().enumerate().map(|(k, s)| (s.captured, s.offset..end(k))).collect()
    }
}

impl Space for SlidingPhase {
    type Game = BaghChal;

    fn game(&self) -> &BaghChal {
        &self.game
    }

    fn len(&self) -> u64 {
        self.slices.last().map_or(0, |s| s.offset + self.classes.numbers(s.empties) * 2)
    }

    fn position(&self, index: u64) -> Option<Position> {
        let slice = *self.slices.iter().rev().find(|s| s.offset <= index)?;
        let within = index - slice.offset;
        let (tigers, empty) = self.classes.board(within / 2, slice.empties)?;
        Some(Position {
            tigers,
            goats: self.game.board.all() & !tigers & !empty,
            captured: slice.captured,
            goats_to_move: within % 2 == 1,
            ..Position::default()
        })
    }

    fn index(&self, s: &Position) -> Option<u64> {
        let slice = self.slices.iter().find(|slice| slice.captured == s.captured)?;
        let goats = u32::from(self.game.goats - s.captured);
        if s.in_hand != 0
            || s.under != 0
            || s.goats.count_ones() != goats
            || s.tigers.count_ones() != self.classes.size()
            || s.tigers.count_ones() + goats + slice.empties != self.game.board.len() as u32
        {
            return None;
        }
        let empty = self.game.board.all() & !s.tigers & !s.goats;
        Some(slice.offset + self.classes.number(s.tigers, empty) * 2 + u64::from(s.goats_to_move))
    }

    fn to_move(&self, s: &Position) -> Player {
        if s.goats_to_move { Player::Max } else { Player::Min }
    }

    /// The number of symmetries of the board over the number that leave the position as it is.
    fn multiplicity(&self, s: &Position) -> u64 {
        self.classes.images(s.tigers, s.goats)
    }
}

impl Unmoves for SlidingPhase {
    /// The side that moved last takes its move back: a goat steps back to an empty point beside it; a tiger
    /// steps back, or undoes a capture — it jumps back over an empty point to the empty point beyond, and a goat
    /// returns to the point jumped over (a position with one goat fewer captured, when the space holds it).
    fn unmoves(&self, s: &Position, buf: &mut Vec<Position>) {
        buf.clear();
        let board = &self.game.board;
        let empty = board.all() & !(s.tigers | s.goats);
        let before = Position { goats_to_move: !s.goats_to_move, ..*s };
        if !s.goats_to_move {
            for p in points(s.goats) {
                for q in points(board.adjacent(p) & empty) {
                    buf.push(Position { goats: s.goats & !(1 << p) | 1 << q, ..before });
                }
            }
            return;
        }
        let uncapture = s.captured > self.slices[0].captured;
        for p in points(s.tigers) {
            let tigers = s.tigers & !(1 << p);
            for q in points(board.adjacent(p) & empty) {
                buf.push(Position { tigers: tigers | 1 << q, ..before });
            }
            for &(_, over, to) in board.jumps(p).iter().filter(|_| uncapture) {
                if empty & (1 << over | 1 << to) == 1 << over | 1 << to {
                    buf.push(Position {
                        tigers: tigers | 1 << to,
                        goats: s.goats | 1 << over,
                        captured: s.captured - 1,
                        ..before
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_space, check_unmoves};

    fn variant(size: u8, tigers: &[&str], goats: u8, captures_to_win: u8) -> BaghChal {
        let setup = super::super::Setup {
            size,
            tigers: tigers.iter().map(|t| t.to_string()).collect(),
            goats,
            stacks: Vec::new(),
            goats_first: true,
            captures_to_win,
        };
        BaghChal::new(&setup).unwrap()
    }

    #[test]
    fn the_standard_sliding_phase_has_its_numbers() {
        let space = SlidingPhase::new(&BaghChal::standard(), 0).unwrap();
        assert_eq!(space.len(), 92_946_140);
        let slices: Vec<u8> = space.slices().iter().map(|s| s.0).collect();
        assert_eq!(slices, [0, 1, 2, 3, 4]);
        check_space(&space);
        check_unmoves(&space);
        assert!(SlidingPhase::new(&BaghChal::standard(), 5).is_err());
        assert!(SlidingPhase::new(&BaghChal::new(&super::super::Setup::bagh_bandi()).unwrap(), 0).is_err());
    }

    /// The published size of the sliding phase (Lim and Nievergelt): 88,260,972 positions up to symmetry, with
    /// 0 to 4 goats captured and either side to move; 705,743,500 without. A class's numbers all stand for a
    /// position unless a symmetry keeps its tiger set, so only those few classes are listed one by one.
    #[test]
    fn the_sliding_phase_has_the_published_number_of_positions() {
        let space = SlidingPhase::new(&BaghChal::standard(), 0).unwrap();
        let (mut classes, mut positions) = (0, 0);
        for slice in &space.slices {
            let symmetric: Vec<_> = space.classes.symmetric(slice.empties).collect();
            let plain = space.classes.numbers(slice.empties) - symmetric.iter().map(|r| r.end - r.start).sum::<u64>();
            (classes, positions) = (classes + plain * 2, positions + plain * 2 * 8);
            for (tigers, empty) in symmetric.into_iter().flatten().filter_map(|i| space.classes.board(i, slice.empties))
            {
                classes += 2;
                positions += 2 * space.classes.images(tigers, empty);
            }
        }
        assert_eq!((classes, positions), (88_260_972, 705_743_500));
    }

    #[test]
    fn small_variants_keep_their_promises() {
        for game in [variant(3, &["b2"], 4, 2), variant(3, &["a1", "c3"], 4, 2), variant(5, &["a1"], 3, 2)] {
            for captured in 0..game.captures_to_win {
                let space = SlidingPhase::new(&game, captured).unwrap();
                check_space(&space);
                check_unmoves(&space);
            }
        }
    }
}
