//! Heuristic evaluation: what a program does when it cannot see to the end of the game.
//!
//! An [`Evaluator`] (the contract is `khela-games`'; this crate holds the evaluators) gives a static estimate of
//! a non-terminal state, on a scale of its own where every real win or loss outranks every estimate
//! ([`Evaluator::bound`], [`Evaluator::terminal`]). [`Heuristic`] is the game seen on that scale: the same
//! states and moves, terminal payoffs mapped by the evaluator. Depth-limited search runs the exact crate's one
//! search loop over it, with the evaluator at the horizon.

pub mod connect4;
mod engine;
pub mod random;
pub mod tictactoe;

pub use engine::{Analysis, Engine, MoveValue, SORTED_PLIES};
use khela_games::{Evaluator, Game, Node};

/// A game seen through an evaluator: the same states and moves, with every terminal payoff mapped onto the
/// evaluator's scale by [`Evaluator::terminal`].
#[derive(Clone, Copy, Debug)]
pub struct Heuristic<'a, G, E> {
    /// The game.
    pub game: &'a G,
    /// The evaluator.
    pub evaluator: &'a E,
}

impl<'a, G: Game, E: Evaluator<G>> Heuristic<'a, G, E> {
    /// The game `game` seen through `evaluator`.
    pub fn new(game: &'a G, evaluator: &'a E) -> Self {
        Heuristic { game, evaluator }
    }
}

impl<G: Game, E: Evaluator<G>> Game for Heuristic<'_, G, E> {
    type State = G::State;
    type Move = G::Move;

    #[inline]
    fn node(&self, state: &G::State) -> Node {
        match self.game.node(state) {
            Node::Terminal(payoff) => Node::Terminal(self.evaluator.terminal(payoff)),
            other => other,
        }
    }

    #[inline]
    fn moves(&self, state: &G::State, buf: &mut Vec<G::Move>) {
        self.game.moves(state, buf)
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
    fn move_count(&self, state: &G::State, buf: &mut Vec<G::Move>) -> usize {
        self.game.move_count(state, buf)
    }
}
