//! The conformance suite every game runs (after OpenSpiel's basic tests).
//!
//! [`check`] plays seeded random games from the given states and checks the promises of [`Game`]: decision
//! nodes have moves and terminal nodes none, chance probabilities are positive and sum to 1, playing a move on a
//! copy leaves the original untouched, and equal states have equal keys.

use crate::{Game, Node};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The tolerance for chance probabilities summing to 1.
pub const PROBABILITY_TOLERANCE: f64 = 1e-9;

/// Plays `playouts` random games from each of `roots` (seeded by `seed`) and checks every state visited.
///
/// # Panics
///
/// Panics, naming the state, when the game breaks a promise of [`Game`]. It is a test helper.
pub fn check<G: Game>(game: &G, roots: &[G::State], playouts: usize, seed: u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    let mut seen: Vec<(G::State, u64)> = Vec::new();
    for root in roots {
        for _ in 0..playouts {
            let mut state = root.clone();
            loop {
                let key = game.key(&state);
                assert_eq!(key, game.key(&state.clone()), "key of a copy differs: {state:?}");
                if seen.len() < 4096 {
                    seen.push((state.clone(), key));
                }
                let mv = match game.node(&state) {
                    Node::Terminal(value) => {
                        assert!(value.is_finite(), "terminal value {value} of {state:?}");
                        game.moves(&state, &mut moves);
                        assert!(moves.is_empty(), "terminal state {state:?} has moves {moves:?}");
                        break;
                    }
                    Node::Decision(_) => {
                        game.moves(&state, &mut moves);
                        assert!(!moves.is_empty(), "decision node {state:?} has no moves");
                        moves[rng.next_u32() as usize % moves.len()]
                    }
                    Node::Chance => {
                        game.outcomes(&state, &mut outcomes);
                        assert!(!outcomes.is_empty(), "chance node {state:?} has no outcomes");
                        assert!(outcomes.iter().all(|&(_, p)| p > 0.0), "chance node {state:?}: {outcomes:?}");
                        let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
                        assert!(
                            (total - 1.0).abs() < PROBABILITY_TOLERANCE,
                            "chance probabilities of {state:?} sum to {total}"
                        );
                        outcomes[rng.next_u32() as usize % outcomes.len()].0
                    }
                };
                let before = state.clone();
                let next = game.child(&state, mv);
                assert_eq!(state, before, "child() changed its parent {state:?}");
                state = next;
            }
        }
    }
    for (i, (a, key_a)) in seen.iter().enumerate() {
        for (b, key_b) in &seen[i + 1..] {
            if a == b {
                assert_eq!(key_a, key_b, "equal states {a:?} have different keys");
            }
        }
    }
}
