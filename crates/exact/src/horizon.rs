//! The horizon of a depth-limited search: how deep it goes, and what it does where it stops.

use khela_games::{Game, Value};

/// The remaining depth of a search without a horizon: it searches to the end of the game.
pub const UNLIMITED: u32 = u32::MAX;

/// A static evaluation: an estimate, from MAX's view, of a non-terminal state.
pub type EvalFn<G> = fn(&G, &<G as Game>::State) -> Value;

/// The noisy moves of a decision node, for quiescence search: it clears the buffer and writes the moves that
/// the search keeps playing past the horizon, in natural order (none when the position is quiet).
pub type Noisy<G> = fn(&G, &<G as Game>::State, &mut Vec<<G as Game>::Move>);

/// What a depth-limited search does at its horizon.
pub struct Horizon<G: Game> {
    /// The estimate of a non-terminal node at the horizon, also MTD(f)'s first guess.
    pub evaluate: Option<EvalFn<G>>,
    /// Quiescence: the noisy moves searched past the horizon until the position is quiet; `None` for none. (A
    /// searcher given this horizon plays them; [`crate::SearchConfig::searcher`] keeps them only when the
    /// configuration asks for quiescence: there the horizon says what the noisy moves are, the configuration
    /// whether to play them.)
    pub noisy: Option<Noisy<G>>,
    /// A value beyond ± this is a proven win or loss that no deeper search changes (see
    /// [`crate::Searcher::with_final_proofs`]); infinite for none.
    pub proof_bound: Value,
}

impl<G: Game> Default for Horizon<G> {
    /// No evaluator, no quiescence, no final proofs.
    fn default() -> Self {
        Horizon { evaluate: None, noisy: None, proof_bound: Value::INFINITY }
    }
}

impl<G: Game> Clone for Horizon<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Horizon<G> {}
