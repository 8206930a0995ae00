//! The evaluator contract: what every static estimate of a position promises.
//!
//! An [`Evaluator`] gives a static estimate of a non-terminal state, on a scale of its own where every real win
//! or loss outranks every estimate ([`Evaluator::bound`], [`Evaluator::terminal`]). The contract lives here, next
//! to [`Game`], so that every search that asks for estimates (depth-limited search, Monte Carlo priors) depends
//! on the games crate alone; the evaluators themselves live in `khela-heuristic`.

use crate::{Game, Value};
use std::num::NonZeroU32;

/// A static evaluation of non-terminal states, in the value convention of the game API (MAX's view), on a
/// scale where wins and losses come first: the contract every static estimate obeys.
///
/// Implementations promise that every estimate lies in `[-bound(), bound()]`, and that [`Evaluator::terminal`]
/// maps every non-zero payoff beyond that range, keeping its sign and order: so a search never prefers an
/// estimate to a real win, nor a real loss to an estimate.
///
/// # Examples
///
/// ```
/// use khela_games::tictactoe::{Board, TicTacToe};
/// use khela_games::{Evaluator, Value};
///
/// /// X's stones minus O's: at most 5 either way.
/// struct Material;
///
/// impl Evaluator<TicTacToe> for Material {
///     fn evaluate(&self, _: &TicTacToe, board: &Board) -> Value {
///         Value::from(board.x.count_ones()) - Value::from(board.o.count_ones())
///     }
///
///     fn bound(&self) -> Value {
///         5.0
///     }
/// }
///
/// let board = TicTacToe::parse("X........").unwrap();
/// assert_eq!(Material.evaluate(&TicTacToe, &board), 1.0);
/// // A win for X (+1) lands beyond every estimate; a draw stays at 0.
/// assert_eq!(Evaluator::<TicTacToe>::terminal(&Material, 1.0), 6.0);
/// assert_eq!(Evaluator::<TicTacToe>::terminal(&Material, 0.0), 0.0);
/// ```
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

    /// The plies by which iterative deepening deepens with this evaluator, each iteration ending on the depth
    /// asked for: one, the default, or two where the estimates favour one side by the side to move (the
    /// odd–even effect), so that an iteration whose horizon falls on the other side to move orders the next one
    /// badly and costs more than it saves. Depth-limited engines take it where their configuration does not say.
    fn deepening_step(&self) -> NonZeroU32 {
        NonZeroU32::MIN
    }

    /// Bounds on every value on this scale, terminal values included, where the game's payoffs are bounded:
    /// star pruning at chance nodes needs them (Star1, Star2, and iterative deepening's iterations in a game with
    /// dice). `None`, the default, leaves chance nodes unpruned.
    fn value_range(&self) -> Option<(Value, Value)> {
        None
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

/// The evaluator of a game that has none: where a type parameter asks for an evaluator that is absent (an
/// `Option` of one left `None`), this type fills it. It has no value, so it never evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoEvaluator {}

impl<G: Game> Evaluator<G> for NoEvaluator {
    fn evaluate(&self, _: &G, _: &G::State) -> Value {
        match *self {}
    }

    fn bound(&self) -> Value {
        match *self {}
    }
}
