//! Nim, normal play: players alternately take one or more objects from one heap, and whoever takes the last
//! object wins (the player left without a move loses).
//!
//! MAX moves first. A win for MAX is worth +1, a loss −1. The natural move order is by heap (0 first), then by
//! the number taken, one first.
//!
//! # Notation
//!
//! A position is the heap sizes separated by commas, `3,4,5`, with MAX to move; there is no standard start,
//! the heaps must be given. A move is written `H:T`, heap `H` (0-based) reduced to `T` objects: `0:1` takes all
//! but one object from the first heap. The players are `first` (MAX) and `second` (MIN). The picture is the
//! heap sizes as the notation writes them, `3,4,5`.

use crate::rng::splitmix64;
use crate::{Game, Node, Notation, Player};
use thiserror::Error;

/// A Nim position: the heaps and the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Heaps {
    /// The heap sizes, in the order given.
    pub heaps: Vec<u32>,
    /// The player to move.
    pub to_move: Player,
}

/// A move: heap `heap` (0-based) goes from `from` objects to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Take {
    /// The 0-based index of the heap, in the order given.
    pub heap: usize,
    /// The heap's size before the move.
    pub from: u32,
    /// The heap's size after the move (`to < from`).
    pub to: u32,
}

/// Why a heap list was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// No heaps at all.
    #[error("heap list is empty; expected sizes separated by commas, like 3,4,5")]
    Empty,
    /// A heap that is not a non-negative integer.
    #[error("heap list {0:?}: {1:?} is not a heap size (a whole number from 0 to 4294967295)")]
    Heap(String, String),
    /// More objects than a position's moves may number.
    #[error("heap list {0:?} holds {1} objects; a position has a move per object, and Nim is played here with at most {max} objects in all heaps", max = Nim::MAX_OBJECTS)]
    TooLarge(String, u64),
}

/// The game of Nim. Holds nothing: positions carry their heaps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl Nim {
    /// The most objects a position holds in all its heaps: a position has a move per object, and every search
    /// keeps its moves (a move list of 8 MB at the most).
    pub const MAX_OBJECTS: u64 = 1_000_000;

    /// Parses `3,4,5` into heaps with MAX to move; refused beyond [`Nim::MAX_OBJECTS`] objects.
    ///
    /// ```
    /// use khela_games::nim::Nim;
    /// assert_eq!(Nim::parse("3,4,5").unwrap().heaps, [3, 4, 5]);
    /// assert!(Nim::parse("3,-1").is_err());
    /// assert!(Nim::parse("4294967295").is_err()); // four billion moves from one position
    /// ```
    pub fn parse(text: &str) -> Result<Heaps, ParseError> {
        if text.trim().is_empty() {
            return Err(ParseError::Empty);
        }
        let heaps = text
            .split(',')
            .map(|part| part.trim().parse::<u32>().map_err(|_| ParseError::Heap(text.to_string(), part.to_string())))
            .collect::<Result<Vec<u32>, _>>()?;
        let objects: u64 = heaps.iter().map(|&h| u64::from(h)).sum();
        if objects > Nim::MAX_OBJECTS {
            return Err(ParseError::TooLarge(text.to_string(), objects));
        }
        Ok(Heaps { heaps, to_move: Player::Max })
    }

    /// Bouton's nim-sum: the XOR of the heap sizes. The side to move loses exactly when it is 0.
    pub fn nim_sum(state: &Heaps) -> u32 {
        state.heaps.iter().fold(0, |acc, &h| acc ^ h)
    }

    /// A key of the heap multiset alone, sorted and without the player to move.
    ///
    /// Nim is impartial: the value *for the side to move* depends only on the multiset of heap sizes. So this
    /// key may memoize side-to-move (negamax) values, never MAX's-view values.
    pub fn impartial_key(state: &Heaps) -> u64 {
        let mut sorted = state.heaps.clone();
        sorted.sort_unstable();
        hash_heaps(&sorted, 0)
    }
}

/// A 64-bit hash of a heap list and a salt: the salt and the length mixed first, then each heap, itself mixed
/// before it joins (a splitmix64 finalizer each time), so that distinct lists collide with probability about
/// 2⁻⁶⁴ per pair. (Heaps joined unmixed to a lightly mixed start collided by construction: heap `k` with the first
/// player to move had the key of heap `k ^ 3` with the second.)
fn hash_heaps(heaps: &[u32], salt: u64) -> u64 {
    let start = splitmix64(splitmix64(salt) ^ heaps.len() as u64);
    heaps.iter().fold(start, |acc, &h| splitmix64(acc ^ splitmix64(u64::from(h))))
}

/// The notation of the module documentation: heap sizes, moves `H:T`, players `first` and `second`.
impl Notation for Nim {
    type Error = ParseError;

    /// [`Nim::parse`].
    fn parse_position(&self, text: &str) -> Result<Heaps, ParseError> {
        Nim::parse(text)
    }

    /// None: the heaps must be given.
    fn start(&self) -> Option<&str> {
        None
    }

    /// `H:T`, the heap's 0-based index and its size after the move.
    fn write_move(&self, mv: Take) -> String {
        format!("{}:{}", mv.heap, mv.to)
    }

    /// The heap sizes separated by commas, `3,4,5`.
    fn picture(&self, state: &Heaps) -> String {
        state.heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
    }

    /// `first` for MAX, `second` for MIN.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "first",
            Player::Min => "second",
        }
    }
}

impl Game for Nim {
    type State = Heaps;
    type Move = Take;

    fn node(&self, s: &Heaps) -> Node {
        if s.heaps.iter().all(|&h| h == 0) {
            // The player to move cannot move, and loses.
            Node::Terminal(s.to_move.view(-1.0))
        } else {
            Node::Decision(s.to_move)
        }
    }

    fn moves(&self, s: &Heaps, buf: &mut Vec<Take>) {
        buf.clear();
        for (heap, &from) in s.heaps.iter().enumerate() {
            buf.extend((0..from).rev().map(|to| Take { heap, from, to }));
        }
    }

    fn play(&self, s: &mut Heaps, mv: Take) {
        debug_assert_eq!(s.heaps[mv.heap], mv.from, "{mv:?} does not fit {s:?}");
        s.heaps[mv.heap] = mv.to;
        s.to_move = s.to_move.opponent();
    }

    /// A hash of the heaps in order and the player to move (collisions possible, about 2⁻⁶⁴ per pair).
    fn key(&self, s: &Heaps) -> u64 {
        hash_heaps(&s.heaps, s.to_move as u64 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance;

    #[test]
    fn parses_and_refuses() {
        assert_eq!(Nim::parse(" 3, 4 ,5").unwrap().heaps, [3, 4, 5]);
        assert_eq!(Nim::parse("").unwrap_err(), ParseError::Empty);
        assert!(Nim::parse("3,,5").unwrap_err().to_string().contains("\"\" is not a heap size"));
        assert!(Nim::parse("3,x").unwrap_err().to_string().contains("\"x\" is not a heap size"));
        assert!(Nim::parse("99999999999").is_err());
    }

    #[test]
    fn moves_in_natural_order() {
        let mut buf = Vec::new();
        Nim.moves(&Nim::parse("2,0,1").unwrap(), &mut buf);
        let listed: Vec<_> = buf.iter().map(|m| (m.heap, m.from, m.to)).collect();
        assert_eq!(listed, [(0, 2, 1), (0, 2, 0), (2, 1, 0)]);
    }

    #[test]
    fn terminal_is_a_loss_for_the_mover() {
        let mut s = Nim::parse("1").unwrap();
        Nim.play(&mut s, Take { heap: 0, from: 1, to: 0 });
        assert_eq!(Nim.node(&s), Node::Terminal(1.0)); // MAX took the last object.
    }

    /// Every list of up to 3 heaps of up to 7 objects, with either player to move, has a key of its own.
    #[test]
    fn keys_of_small_positions_are_distinct() {
        let mut positions = vec![Vec::new()];
        for len in 1..=3 {
            let longer: Vec<Vec<u32>> = positions
                .iter()
                .filter(|heaps: &&Vec<u32>| heaps.len() == len - 1)
                .flat_map(|heaps| (0..8).map(move |h| [heaps.clone(), vec![h]].concat()))
                .collect();
            positions.extend(longer);
        }
        let keys: std::collections::HashSet<u64> = positions
            .iter()
            .flat_map(|heaps| {
                [Player::Max, Player::Min].map(|to_move| Nim.key(&Heaps { heaps: heaps.clone(), to_move }))
            })
            .collect();
        assert_eq!(keys.len(), 2 * (1 + 8 + 64 + 512));
    }

    #[test]
    fn impartial_key_ignores_order_and_player() {
        let a = Nim::parse("3,4,5").unwrap();
        let mut b = Nim::parse("5,3,4").unwrap();
        b.to_move = Player::Min;
        assert_eq!(Nim::impartial_key(&a), Nim::impartial_key(&b));
        assert_ne!(Nim.key(&a), Nim.key(&b));
    }

    #[test]
    fn notation() {
        let heaps = Nim.parse_position("3, 4,5").unwrap();
        assert_eq!(Nim.picture(&heaps), "3,4,5");
        assert_eq!(Nim.picture(&Nim.parse_position("0").unwrap()), "0");
        assert_eq!(Nim.write_move(Take { heap: 0, from: 3, to: 1 }), "0:1");
        assert_eq!(Nim.start(), None);
        assert_eq!([Player::Max, Player::Min].map(|p| Nim.player_name(p)), ["first", "second"]);
        assert_eq!(Nim.parse_position(""), Err(ParseError::Empty));
    }

    #[test]
    fn conforms() {
        let roots = [Nim::parse("3,4,5").unwrap(), Nim::parse("1,1,2,7").unwrap()];
        conformance::check(&Nim, &roots, 300, 2);
        conformance::check_notation(&Nim, &roots, 300, 2);
    }
}
