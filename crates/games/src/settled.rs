//! A game with some positions settled by exact knowledge — a retrograde table's, typically — so that every
//! search (depth-limited, iterative deepening, Monte Carlo) stops at a settled position and takes its exact value.
//!
//! [`Settled`] is the game itself for every position nothing settles, and a terminal position with the known
//! payoff for those something does ([`Settle`]): the searches need no change, they already stop at terminals.
//! [`Through`] carries the game's evaluator over to the settled game.

use crate::{Cycles, Evaluator, Game, Node, Notation, Player, Value};
use std::num::NonZeroU32;

/// What settles positions: the exact payoff of a position, from MAX's view, where it is known.
pub trait Settle<G: Game>: Sync {
    /// The exact payoff of a decision `state` (MAX's view), or `None` where it is not known.
    fn payoff(&self, state: &G::State) -> Option<Value>;
}

/// A game whose positions a [`Settle`] knows are terminal with their exact payoff; the game itself elsewhere,
/// and everywhere when nothing settles (a plain search runs through it unchanged).
#[derive(Clone, Copy)]
pub struct Settled<'a, G: Game> {
    game: &'a G,
    settle: Option<&'a dyn Settle<G>>,
}

impl<'a, G: Game> Settled<'a, G> {
    /// `game`, with the positions `settle` knows settled (none when `None`).
    pub fn new(game: &'a G, settle: Option<&'a dyn Settle<G>>) -> Self {
        Settled { game, settle }
    }

    /// The game underneath.
    pub fn game(&self) -> &'a G {
        self.game
    }

    /// The settled payoff of a decision `state`, if something settles it.
    #[inline]
    fn settled(&self, state: &G::State) -> Option<Value> {
        self.settle.and_then(|settle| settle.payoff(state))
    }
}

impl<G: Game> Game for Settled<'_, G> {
    type State = G::State;
    type Move = G::Move;

    #[inline]
    fn node(&self, state: &G::State) -> Node {
        match self.game.node(state) {
            Node::Decision(player) => self.settled(state).map_or(Node::Decision(player), Node::Terminal),
            other => other,
        }
    }

    #[inline]
    fn moves(&self, state: &G::State, buf: &mut Vec<G::Move>) {
        match self.settled(state) {
            Some(_) => buf.clear(),
            None => self.game.moves(state, buf),
        }
    }

    /// A decision node is one nothing settles: the game's own.
    #[inline]
    fn decision_moves(&self, state: &G::State, buf: &mut Vec<G::Move>) {
        self.game.decision_moves(state, buf)
    }

    /// The game's own tactics when nothing settles positions (a settled position's payoff is a table's, which
    /// the tactics do not know).
    #[inline]
    fn tactics(&self, state: &G::State, moves: &mut Vec<G::Move>) -> Option<Value> {
        if self.settle.is_some() { None } else { self.game.tactics(state, moves) }
    }

    #[inline]
    fn has_tactics(&self) -> bool {
        self.settle.is_none() && self.game.has_tactics()
    }

    #[inline]
    fn order_moves(&self, state: &G::State, moves: &mut [G::Move]) {
        self.game.order_moves(state, moves)
    }

    #[inline]
    fn has_move_order(&self) -> bool {
        self.game.has_move_order()
    }

    #[inline]
    fn outcomes(&self, state: &G::State, buf: &mut Vec<(G::Move, f64)>) {
        self.game.outcomes(state, buf)
    }

    #[inline]
    fn play(&self, state: &mut G::State, mv: G::Move) {
        self.game.play(state, mv)
    }

    #[inline]
    fn key(&self, state: &G::State) -> u64 {
        self.game.key(state)
    }

    #[inline]
    fn cycles(&self) -> Option<Cycles> {
        self.game.cycles()
    }

    #[inline]
    fn repetition_key(&self, state: &G::State) -> u64 {
        self.game.repetition_key(state)
    }

    #[inline]
    fn move_count(&self, state: &G::State, buf: &mut Vec<G::Move>) -> usize {
        self.game.move_count(state, buf)
    }

    const NUMBERED_MOVES: Option<fn(usize) -> G::Move> = G::NUMBERED_MOVES;
}

impl<G: Notation> Notation for Settled<'_, G> {
    type Error = G::Error;

    fn parse_position(&self, text: &str) -> Result<G::State, G::Error> {
        self.game.parse_position(text)
    }

    fn start(&self) -> Option<&str> {
        self.game.start()
    }

    fn write_move(&self, mv: G::Move) -> String {
        self.game.write_move(mv)
    }

    fn picture(&self, state: &G::State) -> String {
        self.game.picture(state)
    }

    fn player_name(&self, player: Player) -> &'static str {
        self.game.player_name(player)
    }
}

/// A game's evaluator, for the game with some positions settled: the same estimates, the same scale.
#[derive(Debug)]
pub struct Through<'e, E>(pub &'e E);

impl<E> Clone for Through<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Through<'_, E> {}

impl<G: Game, E: Evaluator<G>> Evaluator<Settled<'_, G>> for Through<'_, E> {
    fn evaluate(&self, game: &Settled<'_, G>, state: &G::State) -> Value {
        self.0.evaluate(game.game, state)
    }

    fn bound(&self) -> Value {
        self.0.bound()
    }

    fn terminal(&self, payoff: Value) -> Value {
        self.0.terminal(payoff)
    }

    fn proofs_are_final(&self) -> bool {
        self.0.proofs_are_final()
    }

    fn deepening_step(&self) -> NonZeroU32 {
        self.0.deepening_step()
    }

    /// The evaluator's range: a settled position's payoff is one of the game's, mapped as any terminal's.
    fn value_range(&self) -> Option<(Value, Value)> {
        self.0.value_range()
    }

    fn noisy(&self, game: &Settled<'_, G>, state: &G::State, moves: &mut Vec<G::Move>) {
        self.0.noisy(game.game, state, moves)
    }

    fn terms(&self, game: &Settled<'_, G>, state: &G::State) -> Vec<(&'static str, Value)> {
        self.0.terms(game.game, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::{Board, TicTacToe};

    /// Settles every board with X in the centre as a win for O (whatever the truth).
    struct CentreLoses;

    impl Settle<TicTacToe> for CentreLoses {
        fn payoff(&self, board: &Board) -> Option<Value> {
            (board.x & 1 << 4 != 0).then_some(-1.0)
        }
    }

    #[test]
    fn settled_positions_are_terminal_and_the_rest_is_the_game() {
        let settled = Settled::new(&TicTacToe, Some(&CentreLoses));
        let centre = TicTacToe::parse("....X....").unwrap();
        assert_eq!(settled.node(&centre), Node::Terminal(-1.0));
        let mut moves = vec![0];
        settled.moves(&centre, &mut moves);
        assert!(moves.is_empty());
        let corner = TicTacToe::parse("X........").unwrap();
        assert_eq!(settled.node(&corner), TicTacToe.node(&corner));
        settled.moves(&corner, &mut moves);
        assert_eq!(moves.len(), 8);
        // A real end stays the game's own; nothing settled is the game itself.
        let won = TicTacToe::parse("XXXOO....").unwrap();
        assert_eq!(settled.node(&won), Node::Terminal(1.0));
        assert_eq!(Settled::new(&TicTacToe, None).node(&centre), TicTacToe.node(&centre));
    }
}
