//! A random-valued evaluator: the baseline a real evaluator must beat.
//!
//! [`Noise`] values a state by hashing its key with a seed, so it is deterministic (the same state always gets
//! the same estimate, in any search, on any machine) yet carries no knowledge of the game. A depth-limited
//! search with it still sees every win and loss within its horizon; everything else it judges by chance.
//!
//! # Examples
//!
//! ```
//! use khela_games::connect4::Connect4;
//! use khela_games::Evaluator;
//! use khela_heuristic::random::Noise;
//!
//! let game = Connect4::standard();
//! let noise = Noise { seed: 7, bound: 1125.0 };
//! let state = game.parse("4453").unwrap();
//! let estimate = noise.evaluate(&game, &state);
//! assert!(estimate.abs() <= 1125.0);
//! assert_eq!(estimate, noise.evaluate(&game, &state.clone()));
//! ```

use khela_games::implicit::node_word;
use khela_games::{Evaluator, Game, Value};

/// A random-valued evaluator for any game: the estimate of a state is a hash of (seed, key) spread uniformly
/// over `[-bound, bound)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// The seed: different seeds value the same state independently.
    pub seed: u64,
    /// The largest magnitude of an estimate (give it another evaluator's bound to play on that one's scale).
    pub bound: Value,
}

impl<G: Game> Evaluator<G> for Noise {
    /// The top 53 bits of the hash as a fraction of 2⁵³, scaled to `[-bound, bound)`.
    fn evaluate(&self, game: &G, state: &G::State) -> Value {
        let unit = (node_word(self.seed, game.key(state)) >> 11) as Value / (1u64 << 53) as Value;
        (2.0 * unit - 1.0) * self.bound
    }

    fn bound(&self) -> Value {
        self.bound
    }
}
