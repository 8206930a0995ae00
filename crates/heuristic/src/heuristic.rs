//! A game on an evaluator's scale: the adapter through which depth-limited search runs the exact crate's loop.

use khela_exact::Horizon;
use khela_games::{Cycles, Evaluator, Game, Node, Value};

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

    /// The horizon of a depth-limited search of this game: the evaluator at the leaves, its noisy moves for
    /// quiescence, and the bound past which a value is a proof (when the evaluator's proofs are final).
    pub fn horizon(&self) -> Horizon<Self> {
        let evaluator = self.evaluator;
        Horizon {
            evaluate: Some(estimate::<G, E>),
            noisy: Some(noisy::<G, E>),
            proof_bound: if evaluator.proofs_are_final() { evaluator.bound() } else { Value::INFINITY },
        }
    }
}

/// The evaluator at the horizon.
fn estimate<G: Game, E: Evaluator<G>>(game: &Heuristic<'_, G, E>, state: &G::State) -> Value {
    game.evaluator.evaluate(game.game, state)
}

/// The value a child is sorted by (the static orderings' estimate): its terminal value on the evaluator's
/// scale if the game is over there, else its estimate.
pub fn child_estimate<G: Game, E: Evaluator<G>>(game: &Heuristic<'_, G, E>, state: &G::State) -> Value {
    match game.node(state) {
        Node::Terminal(value) => value,
        _ => estimate(game, state),
    }
}

/// The evaluator's noisy moves, for quiescence.
fn noisy<G: Game, E: Evaluator<G>>(game: &Heuristic<'_, G, E>, state: &G::State, moves: &mut Vec<G::Move>) {
    game.evaluator.noisy(game.game, state, moves)
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
    fn decision_moves(&self, state: &G::State, buf: &mut Vec<G::Move>) {
        self.game.decision_moves(state, buf)
    }

    /// The game's tactics, their payoffs on the evaluator's scale, where proofs are final
    /// ([`Evaluator::proofs_are_final`]: a faster win is worth no less, and so the fastest loss no more); none
    /// elsewhere.
    #[inline]
    fn tactics(&self, state: &G::State, moves: &mut Vec<G::Move>) -> Option<Value> {
        if !self.evaluator.proofs_are_final() {
            return None;
        }
        self.game.tactics(state, moves).map(|payoff| self.evaluator.terminal(payoff))
    }

    #[inline]
    fn has_tactics(&self) -> bool {
        self.evaluator.proofs_are_final() && self.game.has_tactics()
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
    fn move_count(&self, state: &G::State, buf: &mut Vec<G::Move>) -> usize {
        self.game.move_count(state, buf)
    }

    const NUMBERED_MOVES: Option<fn(usize) -> G::Move> = G::NUMBERED_MOVES;

    #[inline]
    fn cycles(&self) -> Option<Cycles> {
        self.game.cycles()
    }

    #[inline]
    fn repetition_key(&self, state: &G::State) -> u64 {
        self.game.repetition_key(state)
    }
}
