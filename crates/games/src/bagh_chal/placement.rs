//! The placement phase of Bagh-Chal (and of the games of its family without stacks) as a [`Space`] for
//! layered backward induction: every position with goats still in hand and fewer goats captured than the
//! tigers' win, either side to move, numbered up to the board's symmetries.
//!
//! # Layers
//!
//! The phase has no cycle: a goat's placement raises the goats placed, and a tiger's move is followed by a
//! placement. A position is in the *slice* of its goats placed `p` (on the board and captured), goats captured
//! `c` and side to move; a goats' slice `(p, c)` leads to the tigers' slice `(p + 1, c)` — or, at the last
//! placement, into the sliding phase ([`super::sliding`]), outside this space — and a tigers' slice `(p, c)` to
//! the goats' slices `(p, c)` and `(p, c + 1)`, or to the end. The slices are numbered from the last
//! placements to the first, the goats' slices of one count placed before the tigers', so that
//! [`Space::stages`] gives one layer of the goats' slices then one of the tigers' for each `p`, every move
//! leading to an earlier layer or out of the space.
//!
//! # The numbering
//!
//! Within a slice a position is numbered by its board ([`Classes`]: the class of its tiger set up to the
//! board's symmetries, then its empty points among the points the tigers leave), as in the sliding phase. Counted
//! in full, the slice `(p, c)` holds C(n, t)·C(n − t, p − c) positions for n points and t tigers.

use super::{BaghChal, ParseError, Position};
use crate::alquerque::Permutation;
use crate::numbering::Classes;
use crate::{Player, Space};

/// A slice: the positions with one count of goats placed and captured and one side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    /// Goats placed, on the board or captured.
    pub placed: u8,
    /// Goats captured.
    pub captured: u8,
    /// Whether the goats are to move.
    pub goats_to_move: bool,
    /// Empty points on the board.
    pub empties: u32,
    /// The slice's first number.
    offset: u64,
}

/// Bagh-Chal's placement phase (see the module documentation).
#[derive(Clone, Debug)]
pub struct PlacementPhase {
    game: BaghChal,
    /// The boards, tigers first, empty points second.
    classes: Classes,
    /// The slices in the order of their numbers.
    slices: Vec<Slice>,
    /// The place in `slices` of each (placed, captured, side to move), if the phase has it.
    slot: Vec<Option<usize>>,
}

impl PlacementPhase {
    /// The placement phase of `game`: every position with goats in hand.
    ///
    /// Refused for a game with stacks (a stack's goats are on the board from the start, not in hand).
    pub fn new(game: &BaghChal) -> Result<PlacementPhase, ParseError> {
        if game.stack_points != 0 {
            return Err(ParseError::Setup(
                "the placement phase of a game with stacks is not layered by goats in hand".into(),
            ));
        }
        let n = game.board.len() as u32;
        let symmetries: Vec<Permutation> = game.symmetries().iter().map(|perm| Permutation::new(perm)).collect();
        let tigers = game.start.tigers.count_ones();
        let classes = Classes::new(game.board.all(), tigers, &symmetries);
        let (goats, wins) = (game.goats, game.captures_to_win);
        let mut slices = Vec::new();
        let mut offset = 0;
        for placed in (0..goats).rev() {
            for goats_to_move in [true, false] {
                for captured in 0..wins.min(placed + 1) {
                    let on_board = u32::from(placed - captured);
                    if on_board + tigers >= n {
                        continue; // no point left to place a goat on
                    }
                    let empties = n - tigers - on_board;
                    slices.push(Slice { placed, captured, goats_to_move, empties, offset });
                    offset += classes.numbers(empties);
                }
            }
        }
        let mut slot = vec![None; Self::slot_count(game)];
        for (k, s) in slices.iter().enumerate() {
            slot[Self::slot_of(game, s.placed, s.captured, s.goats_to_move)] = Some(k);
        }
        Ok(PlacementPhase { game: game.clone(), classes, slices, slot })
    }

    /// The slices, in the order of their numbers, with each one's numbers.
    pub fn slices(&self) -> Vec<(Slice, std::ops::Range<u64>)> {
        let end = |k: usize| self.slices.get(k + 1).map_or(self.len(), |s| s.offset);
        self.slices.iter().enumerate().map(|(k, s)| (*s, s.offset..end(k))).collect()
    }

    /// The numbering of the boards: tiger sets in classes, empty points second.
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    fn slot_count(game: &BaghChal) -> usize {
        usize::from(game.goats) * usize::from(game.captures_to_win) * 2
    }

    fn slot_of(game: &BaghChal, placed: u8, captured: u8, goats_to_move: bool) -> usize {
        (usize::from(placed) * usize::from(game.captures_to_win) + usize::from(captured)) * 2
            + usize::from(goats_to_move)
    }
}

impl Space for PlacementPhase {
    type Game = BaghChal;

    fn game(&self) -> &BaghChal {
        &self.game
    }

    fn len(&self) -> u64 {
        self.slices.last().map_or(0, |s| s.offset + self.classes.numbers(s.empties))
    }

    fn position(&self, index: u64) -> Option<Position> {
        let slice = *self.slices.iter().rev().find(|s| s.offset <= index)?;
        let (tigers, empty) = self.classes.board(index - slice.offset, slice.empties)?;
        Some(Position {
            tigers,
            goats: self.game.board.all() & !tigers & !empty,
            in_hand: self.game.goats - slice.placed,
            captured: slice.captured,
            goats_to_move: slice.goats_to_move,
            under: 0,
        })
    }

    fn index(&self, s: &Position) -> Option<u64> {
        let placed = self.game.goats.checked_sub(s.in_hand)?;
        if s.in_hand == 0 || s.under != 0 || s.captured >= self.game.captures_to_win {
            return None;
        }
        let k = (*self.slot.get(Self::slot_of(&self.game, placed, s.captured, s.goats_to_move))?)?;
        let slice = self.slices[k];
        let on_board = u32::from(placed - s.captured);
        if s.goats.count_ones() != on_board || s.tigers.count_ones() != self.classes.size() || s.tigers & s.goats != 0 {
            return None;
        }
        let empty = self.game.board.all() & !s.tigers & !s.goats;
        Some(slice.offset + self.classes.number(s.tigers, empty))
    }

    fn to_move(&self, s: &Position) -> Player {
        if s.goats_to_move { Player::Max } else { Player::Min }
    }

    /// The number of symmetries of the board over the number that leave the position as it is.
    fn multiplicity(&self, s: &Position) -> u64 {
        self.classes.images(s.tigers, s.goats)
    }

    /// For each count placed, from the most: a layer of the goats' slices, then one of the tigers'.
    fn stages(&self) -> Vec<Vec<std::ops::Range<u64>>> {
        let mut layers: Vec<Vec<std::ops::Range<u64>>> = Vec::new();
        let mut last = None;
        for (slice, range) in self.slices() {
            let key = (slice.placed, slice.goats_to_move);
            match layers.last_mut() {
                Some(layer) if last == Some(key) => layer.push(range),
                _ => layers.push(vec![range]),
            }
            last = Some(key);
        }
        layers
    }
}

#[cfg(test)]
mod tests {
    use super::super::Setup;
    use super::*;
    use crate::conformance::check_space_beside;
    use crate::numbering::Binomial;

    fn variant(size: u8, tigers: &[&str], goats: u8, captures_to_win: u8) -> BaghChal {
        let tigers = tigers.iter().map(|t| t.to_string()).collect();
        BaghChal::new(&Setup { size, tigers, goats, captures_to_win, ..Setup::bagh_chal() }).unwrap()
    }

    /// Every number's position has that number, its moves lead to earlier layers, the end or the sliding phase,
    /// and each slice holds, counted in full, C(n, t)·C(n − t, p − c) positions.
    #[test]
    fn small_variants_keep_their_promises_and_have_the_binomial_counts() {
        for game in [variant(3, &["a1"], 4, 2), variant(3, &["a1", "c3"], 4, 2), variant(5, &["a1"], 3, 2)] {
            let space = PlacementPhase::new(&game).unwrap();
            check_space_beside(&space, |s| s.in_hand == 0);
            let (n, t) = (game.board.len(), game.start.tigers.count_ones() as usize);
            let binomial = Binomial::new(n);
            for (slice, numbers) in space.slices() {
                let full: u64 = numbers.filter_map(|i| space.position(i)).map(|s| space.multiplicity(&s)).sum();
                let on_board = usize::from(slice.placed - slice.captured);
                assert_eq!(full, binomial.get(n, t) * binomial.get(n - t, on_board), "{slice:?}");
            }
        }
    }

    /// The boards of `tigers` tigers and `goats` goats up to the game's symmetries, by Burnside's lemma: the
    /// average over the symmetries of the boards each leaves as they are — those whose tigers and goats are
    /// unions of the symmetry's cycles, counted over the cycles, tigers and goats at once.
    fn burnside(game: &BaghChal, tigers: usize, goats: usize) -> u64 {
        let n = game.board.len();
        let fixed = |perm: &[u8]| {
            let mut seen = vec![false; n];
            // ways[a][b]: the ways to make a tiger points and b goat points of the cycles so far.
            let mut ways = vec![vec![0u64; goats + 1]; tigers + 1];
            ways[0][0] = 1;
            for start in 0..n {
                if seen[start] {
                    continue;
                }
                let mut len = 0;
                let mut p = start;
                while !seen[p] {
                    seen[p] = true;
                    p = usize::from(perm[p]);
                    len += 1;
                }
                let before = ways.clone();
                for a in 0..=tigers {
                    for b in 0..=goats {
                        let tiger = if a >= len { before[a - len][b] } else { 0 };
                        let goat = if b >= len { before[a][b - len] } else { 0 };
                        ways[a][b] = before[a][b] + tiger + goat;
                    }
                }
            }
            ways[tigers][goats]
        };
        let symmetries = game.symmetries();
        symmetries.iter().map(|perm| fixed(perm)).sum::<u64>() / symmetries.len() as u64
    }

    /// Up to symmetry, each slice holds as many positions as Burnside's lemma counts boards: on small variants
    /// every slice, on the standard board the slices of up to two goats placed.
    #[test]
    fn the_slices_hold_burnside_s_count_up_to_symmetry() {
        let games = [variant(3, &["a1"], 4, 2), variant(5, &["a1", "c3"], 3, 2), BaghChal::standard()];
        for game in games {
            let space = PlacementPhase::new(&game).unwrap();
            let t = game.start.tigers.count_ones() as usize;
            for (slice, numbers) in space.slices().into_iter().filter(|(s, _)| s.placed <= 2 || game.goats() < 20) {
                let classes = numbers.filter(|&i| space.position(i).is_some()).count() as u64;
                let on_board = usize::from(slice.placed - slice.captured);
                assert_eq!(classes, burnside(&game, t, on_board), "{slice:?}");
            }
        }
    }

    /// The standard game's placement phase: its slices' sizes where they are small enough to count one by one,
    /// and the largest slice's numbers (the tigers' classes times the empty points' choices).
    #[test]
    fn the_standard_placement_phase_has_its_counts() {
        let game = BaghChal::standard();
        let space = PlacementPhase::new(&game).unwrap();
        let binomial = Binomial::new(25);
        for (slice, numbers) in space.slices().into_iter().filter(|(s, _)| s.placed <= 2) {
            let full: u64 = numbers.filter_map(|i| space.position(i)).map(|s| space.multiplicity(&s)).sum();
            let on_board = usize::from(slice.placed - slice.captured);
            assert_eq!(full, binomial.get(25, 4) * binomial.get(21, on_board), "{slice:?}");
        }
        let start = game.start_position();
        assert_eq!(space.index(&start).and_then(|i| space.position(i)), Some(start));
        assert_eq!(space.stages().len(), 40, "a goats' and a tigers' layer for each of 0 to 19 goats placed");
        assert!(PlacementPhase::new(&BaghChal::new(&Setup::bagh_bandi()).unwrap()).is_err());
    }
}
