//! Actions: a game's moves numbered once for the whole game, the integers that OpenSpiel-style interfaces, action
//! masks and a network's policy head take.

use crate::Game;

/// A game whose moves are numbered once for the whole game (after OpenSpiel's distinct actions).
///
/// Contract, checked by [`crate::conformance::check_actions`]: every move of every position, and every chance
/// outcome, has an action below [`Actions::actions`]; two moves of one position, or two outcomes of one chance
/// node, never share one. The action depends on the move alone, so that it means the same in every position (a
/// column of Connect-4, a point of Bagh-Chal) and a policy over actions can be learned; where the sides move in
/// opposite directions (EinStein), an action is a square and a direction as the side to move sees it. Chance
/// outcomes are numbered in the same range as the moves (a die's face), since a node has one kind or the other.
///
/// A game whose moves admit no such fixed range does not implement it: Nim (the heaps, and so the moves, are the
/// position's) and Sixteen Soldiers (a chain of jumps may take any path).
pub trait Actions: Game {
    /// The size of the action space: every action is below it.
    fn actions(&self) -> usize;

    /// The action of `mv`, a move or a chance outcome.
    fn action(&self, mv: Self::Move) -> usize;
}
