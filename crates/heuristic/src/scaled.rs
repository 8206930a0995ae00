//! A game on an evaluator's scale: the adapter through which depth-limited search runs the exact crate's loop.

use khela_games::{Cycles, Evaluator, Game, Node};

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

    #[inline]
    fn cycles(&self) -> Option<Cycles> {
        self.game.cycles()
    }

    #[inline]
    fn repetition_key(&self, state: &G::State) -> u64 {
        self.game.repetition_key(state)
    }
}
