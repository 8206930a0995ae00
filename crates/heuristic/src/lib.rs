//! Heuristic evaluation: what a program does when it cannot see to the end of the game.
//!
//! An [`Evaluator`] gives a static estimate of a non-terminal state, on a scale of its own where every real
//! win or loss outranks every estimate ([`Evaluator::bound`], [`Evaluator::terminal`]). [`Heuristic`] is the
//! game seen on that scale: the same states and moves, terminal payoffs mapped by the evaluator. Depth-limited
//! search runs the exact crate's one search loop over it, with the evaluator at the horizon.

pub mod connect4;
mod engine;
pub mod random;
pub mod tictactoe;

pub use engine::{Analysis, Engine, MoveValue, SORTED_PLIES};
use khela_games::{Game, Node, Value};

/// A static evaluation of non-terminal states, in the value convention of the game API (MAX's view), on a
/// scale where wins and losses come first.
///
/// Implementations promise that every estimate lies in `[-bound(), bound()]`, and that [`Evaluator::terminal`]
/// maps every non-zero payoff beyond that range, keeping its sign and order: so a search never prefers an
/// estimate to a real win, nor a real loss to an estimate.
pub trait Evaluator<G: Game> {
    /// The estimate of a non-terminal `state`, from MAX's view, within `[-bound(), bound()]`. A depth-limited
    /// search asks it of decision nodes, and of chance nodes met with no depth left (before the draw).
    fn evaluate(&self, game: &G, state: &G::State) -> Value;

    /// The largest magnitude of an estimate.
    fn bound(&self) -> Value;

    /// A terminal payoff on this evaluator's scale. The default keeps draws (0) at 0 and moves every other
    /// payoff `p` beyond the estimates, to `p ± bound()` (so larger wins stay larger).
    fn terminal(&self, payoff: Value) -> Value {
        if payoff == 0.0 { 0.0 } else { payoff + payoff.signum() * self.bound() }
    }

    /// Whether a proven win or loss is final in this game on this scale: no forced win maps to less than a
    /// faster one (all wins map alike, or faster wins higher). Then a depth-limited search that proves one may
    /// stop deepening, as engines do on finding a mate. The default, `false`, never stops early; say `true` only
    /// when the game's payoffs have the property (tic-tac-toe's ±1 and Connect-4's scores do).
    fn proofs_are_final(&self) -> bool {
        false
    }

    /// Clears `moves` and writes the *noisy* moves of decision node `state`, in natural order: the moves a
    /// quiescence search keeps playing past the horizon because the estimate cannot be trusted until they are
    /// played. None (the default) means every position is quiet.
    fn noisy(&self, game: &G, state: &G::State, moves: &mut Vec<G::Move>) {
        let _ = (game, state);
        moves.clear();
    }

    /// The named terms of the estimate, for display (`bench-suite eval`); they add up to
    /// [`Evaluator::evaluate`]. The default is the estimate as one term.
    fn terms(&self, game: &G, state: &G::State) -> Vec<(&'static str, Value)> {
        vec![("estimate", self.evaluate(game, state))]
    }
}

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
