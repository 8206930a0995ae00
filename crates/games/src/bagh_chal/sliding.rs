//! The sliding phase of Bagh-Chal (and of the games of its family without stacks) as a [`Space`] for
//! retrograde analysis: every position with all goats placed, from a least number of goats captured up to one
//! short of the tigers' win, either side to move, numbered up to the board's symmetries.
//!
//! # The numbering
//!
//! Positions are grouped by goats captured (a *slice*, in increasing order). Within a slice, a position is
//! numbered by three things: the class of its tiger set up to the board's symmetries (the smallest set of the
//! class, as a bit mask, stands for it; classes in the order of that set), the empty points among the points
//! the tigers leave (in the combinatorial number system: only a few points are empty in the sliding phase),
//! and the side to move, in that order of significance. A position is first moved by the symmetry that makes
//! (tigers, goats) smallest, so that its tiger set is its class's own; where several symmetries keep that tiger
//! set, some numbers stand for a goat arrangement that another symmetry makes smaller, and so for no position.
//! On the standard board that wastes about 5 % of the numbers (92,946,140 numbers for the 88,260,972 classes
//! of positions with 0 to 4 goats captured).

use super::{BaghChal, ParseError, Position};
use crate::alquerque::{Permutation, Points, points};
use crate::{Player, Space, Unmoves};

/// A slice: the positions with one number of goats captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slice {
    captured: u8,
    /// Empty points on the board.
    empties: u32,
    /// The arrangements of those empty points among the points the tigers leave.
    arrangements: u64,
    /// The slice's first number.
    offset: u64,
}

/// Bagh-Chal's sliding phase from `captured` goats captured on (see the module documentation).
#[derive(Clone, Debug)]
pub struct SlidingPhase {
    game: BaghChal,
    symmetries: Vec<Permutation>,
    /// Each class of tiger sets, by its smallest set.
    classes: Vec<Points>,
    /// The symmetries that keep each class's set in place, as a bit mask over [`SlidingPhase::symmetries`].
    keepers: Vec<u8>,
    /// The class of each tiger set that is its class's smallest, by the set's combinatorial rank.
    class_of: Vec<u32>,
    slices: Vec<Slice>,
    /// The number of points the tigers leave.
    free: u32,
    /// `binomial[n][k]`.
    binomial: Vec<Vec<u64>>,
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
        let n = game.board.len();
        let binomial: Vec<Vec<u64>> = (0..=n as u64)
            .map(|m| {
                (0..=n as u64).map(|k| if k > m { 0 } else { (0..k).fold(1, |c, i| c * (m - i) / (i + 1)) }).collect()
            })
            .collect();
        let symmetries: Vec<Permutation> = game.symmetries().iter().map(|perm| Permutation::new(perm)).collect();
        let tigers = game.start.tigers.count_ones();
        let sets = binomial[n][tigers as usize];
        let (mut classes, mut keepers, mut class_of) = (Vec::new(), Vec::new(), vec![u32::MAX; sets as usize]);
        for rank in 0..sets {
            let set = unrank(&binomial, rank, tigers);
            if symmetries.iter().all(|g| g.apply(set) >= set) {
                class_of[rank as usize] = classes.len() as u32;
                classes.push(set);
                keepers.push(
                    symmetries.iter().enumerate().filter(|(_, g)| g.apply(set) == set).fold(0, |m, (k, _)| m | 1 << k),
                );
            }
        }
        let free = n as u32 - tigers;
        let mut slices = Vec::new();
        let mut offset = 0;
        for c in captured..game.captures_to_win {
            let goats = u32::from(game.goats - c);
            if goats > free {
                return refuse(format!("{goats} goats and {tigers} tigers do not fit on {n} points"));
            }
            let empties = free - goats;
            let arrangements = binomial[free as usize][empties as usize];
            slices.push(Slice { captured: c, empties, arrangements, offset });
            offset += classes.len() as u64 * arrangements * 2;
        }
        Ok(SlidingPhase { game: game.clone(), symmetries, classes, keepers, class_of, slices, free, binomial })
    }

    /// The goats captured in the space's positions, fewest first, with each count's first number and how many
    /// numbers it takes.
    pub fn slices(&self) -> Vec<(u8, std::ops::Range<u64>)> {
        let end = |k: usize| self.slices.get(k + 1).map_or(self.len(), |s| s.offset);
        self.slices.iter().enumerate().map(|(k, s)| (s.captured, s.offset..end(k))).collect()
    }

    /// The image of (tigers, goats) that is smallest under the symmetries.
    #[inline]
    /// The tiger sets' images first, and the goats' only under the symmetries that give the smallest of them
    /// (usually one): half the table lookups of moving both by every symmetry.
    fn canonical(&self, tigers: Points, goats: Points) -> (Points, Points) {
        let mut images = [0; 8];
        for (image, g) in images.iter_mut().zip(&self.symmetries) {
            *image = g.apply(tigers);
        }
        let images = &images[..self.symmetries.len()];
        let least = *images.iter().min().expect("the identity");
        let goats = images
            .iter()
            .zip(&self.symmetries)
            .filter(|&(&image, _)| image == least)
            .map(|(_, g)| g.apply(goats))
            .min()
            .expect("a symmetry gives the least");
        (least, goats)
    }

    /// Whether no symmetry that keeps the class's tiger set makes `goats` smaller.
    #[inline]
    fn smallest(&self, class: usize, goats: Points) -> bool {
        points(u64::from(self.keepers[class])).all(|k| self.symmetries[k as usize].apply(goats) >= goats)
    }
}

impl Space for SlidingPhase {
    type Game = BaghChal;

    fn game(&self) -> &BaghChal {
        &self.game
    }

    fn len(&self) -> u64 {
        self.slices.last().map_or(0, |s| s.offset + self.classes.len() as u64 * s.arrangements * 2)
    }

    fn position(&self, index: u64) -> Option<Position> {
        let slice = *self.slices.iter().rev().find(|s| s.offset <= index)?;
        let within = index - slice.offset;
        let (class, rest) = ((within / 2 / slice.arrangements) as usize, within / 2 % slice.arrangements);
        let tigers = *self.classes.get(class)?;
        let empty = expand(unrank(&self.binomial, rest, slice.empties), tigers);
        let goats = self.game.board.all() & !tigers & !empty;
        self.smallest(class, goats).then_some(Position {
            tigers,
            goats,
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
            || s.tigers.count_ones() + goats + slice.empties != self.game.board.len() as u32
        {
            return None;
        }
        let (tigers, goats) = self.canonical(s.tigers, s.goats);
        let class = u64::from(self.class_of[rank(&self.binomial, tigers) as usize]);
        let empty = compress(self.game.board.all() & !tigers & !goats, tigers);
        let rest = rank(&self.binomial, empty);
        debug_assert!(rest < slice.arrangements && empty.count_ones() == slice.empties && (empty >> self.free) == 0);
        Some(slice.offset + (class * slice.arrangements + rest) * 2 + u64::from(s.goats_to_move))
    }

    fn to_move(&self, s: &Position) -> Player {
        if s.goats_to_move { Player::Max } else { Player::Min }
    }

    /// The number of symmetries of the board over the number that leave the position as it is.
    fn multiplicity(&self, s: &Position) -> u64 {
        let keep =
            self.symmetries.iter().filter(|g| g.apply(s.tigers) == s.tigers && g.apply(s.goats) == s.goats).count();
        (self.symmetries.len() / keep) as u64
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

/// The rank of a set among the sets of as many points, in the combinatorial number system: the sum of
/// `C(p, i)` over its points `p`, the `i`-th from 1.
#[inline]
fn rank(binomial: &[Vec<u64>], set: Points) -> u64 {
    points(set).enumerate().map(|(i, p)| binomial[p as usize][i + 1]).sum()
}

/// The set of `k` points of rank `r` (the inverse of [`rank`]).
#[inline]
fn unrank(binomial: &[Vec<u64>], mut r: u64, k: u32) -> Points {
    let mut set = 0;
    for i in (1..=k as usize).rev() {
        let mut p = i - 1;
        while p + 1 < binomial.len() && binomial[p + 1][i] <= r {
            p += 1;
        }
        r -= binomial[p][i];
        set |= 1 << p;
    }
    set
}

/// `set` with the points of `gaps` taken out and the points above each gap moved down to close it.
#[inline]
fn compress(set: Points, gaps: Points) -> Points {
    let mut set = set;
    for p in points(gaps).collect::<Vec<_>>().into_iter().rev() {
        set = set & ((1 << p) - 1) | (set >> (p + 1)) << p;
    }
    set
}

/// The inverse of [`compress`]: a gap opened at each point of `gaps`, lowest first.
#[inline]
fn expand(set: Points, gaps: Points) -> Points {
    points(gaps).fold(set, |set, p| set & ((1 << p) - 1) | (set >> p) << (p + 1))
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
    fn numbers_and_sets_convert_both_ways() {
        let space = SlidingPhase::new(&BaghChal::standard(), 0).unwrap();
        for k in 0..=5 {
            for r in (0..space.binomial[25][k]).step_by(97) {
                let set = unrank(&space.binomial, r, k as u32);
                assert_eq!((set.count_ones(), rank(&space.binomial, set)), (k as u32, r));
            }
        }
        let tigers = 0b1000_0000_0100_0000_0010_0001;
        assert_eq!(
            expand(compress(0b0101_0110_1011_1010_1101_1110, tigers), tigers),
            0b0101_0110_1011_1010_1101_1110 & !tigers
        );
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
            for (class, &keepers) in space.keepers.iter().enumerate() {
                let first = slice.offset + class as u64 * slice.arrangements * 2;
                if keepers == 1 {
                    classes += slice.arrangements * 2;
                    positions += slice.arrangements * 2 * 8;
                    continue;
                }
                for s in (first..first + slice.arrangements * 2).filter_map(|i| space.position(i)) {
                    classes += 1;
                    positions += space.multiplicity(&s);
                }
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
