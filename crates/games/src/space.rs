//! Numbered sets of positions, for the solvers that value every position of a set at once: the contract
//! between a game and `khela_exact::retro` (retrograde analysis) and `khela_exact::iterate` (value iteration).
//!
//! A [`Space`] is a set of a game's positions numbered `0..len` (a perfect hash: [`Space::index`] and
//! [`Space::position`] are inverse), closed under moves: every move (and chance outcome) of a position of the
//! space leads to a position of the space or ends the game. It may number positions up to the game's
//! symmetries (one number a class of equivalent positions, its *representative* the one [`Space::position`]
//! gives); some numbers may then stand for no position. [`Unmoves`] adds the moves backwards: the positions
//! that lead to a given one, which lets retrograde analysis spread what it learns from a decided position to
//! its predecessors instead of scanning every position again.
//!
//! [`crate::conformance::check_space`] and [`crate::conformance::check_unmoves`] test every promise below;
//! every space runs them.

use crate::{Game, Player};

/// A set of positions of a game, numbered, closed under moves. See the module documentation.
///
/// Promises:
/// - for every number `i < len()` that stands for a position, `index(&position(i).unwrap()) == Some(i)`, and
///   `index` gives the same number for every position equivalent to it under the space's symmetries;
/// - every move and chance outcome of a position of the space leads to a terminal position or to one of the
///   space.
pub trait Space: Sync {
    /// The game whose positions these are.
    type Game: Game;

    /// The game.
    fn game(&self) -> &Self::Game;

    /// The numbers run from 0 to `len() − 1`.
    fn len(&self) -> u64;

    /// Whether the space numbers no position.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position numbered `index` (the representative of its class), or `None` where the number stands for
    /// no position.
    fn position(&self, index: u64) -> Option<<Self::Game as Game>::State>;

    /// The number of a position (that of its class), or `None` for a position outside the space.
    fn index(&self, state: &<Self::Game as Game>::State) -> Option<u64>;

    /// The side to move in a position of the space, terminal or not (the game's [`crate::Node`] names it only
    /// for a decision).
    fn to_move(&self, state: &<Self::Game as Game>::State) -> Player;

    /// How many positions of the game the class of `state` holds: 1 in a space without symmetries, otherwise
    /// the number of distinct images of `state` under them.
    fn multiplicity(&self, state: &<Self::Game as Game>::State) -> u64 {
        let _ = state;
        1
    }

    /// The numbers in stages, for value iteration, the stages in layers: every move and chance outcome of a
    /// position leads to a terminal position, into its own stage or into a stage of an earlier layer, so that
    /// the stages of a layer can be solved at once, each on the values of the layers before it, already final.
    /// The stages cover the numbers in order. One layer of one stage of every number by default.
    fn stages(&self) -> Vec<Vec<std::ops::Range<u64>>> {
        vec![vec![0..self.len()]]
    }
}

/// A [`Space`] that knows its moves backwards, for retrograde analysis.
///
/// Promise: `unmoves(s)` lists, for every position `q` of the space with a move to `s`, `q` or a position
/// equivalent to it (duplicates are allowed), and nothing else: only non-terminal positions of the space whose
/// moves lead to `s` or to a position equivalent to it.
pub trait Unmoves: Space {
    /// Clears `buf` and writes the positions of the space with a move to `state` (see the trait's promise).
    fn unmoves(&self, state: &<Self::Game as Game>::State, buf: &mut Vec<<Self::Game as Game>::State>);
}
