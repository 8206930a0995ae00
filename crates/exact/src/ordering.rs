//! Move orderings: the order in which a decision node's children are searched.

use crate::{Algorithm, Memo, Searcher};
use khela_games::{Game, Player, Value};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;

/// A move-ordering policy. Orderings change how much alpha-beta prunes, never the value it returns.
#[derive(Clone, Debug, PartialEq)]
pub enum Ordering<M> {
    /// The game's natural order.
    Natural,
    /// The natural order backwards.
    Reversed,
    /// Moves in the order of this preference list; moves not in it come last, in natural order.
    Preference(Vec<M>),
    /// Oracle: children sorted best first for the side to move by their exact minimax value, ties in natural
    /// order (a stable sort). The values come from a memoized minimax search, which is not counted.
    BestFirst,
    /// Oracle: children sorted worst first for the side to move, ties in natural order.
    WorstFirst,
    /// A random shuffle at every node, from a generator seeded once per search.
    Random {
        /// The seed.
        seed: u64,
    },
}

/// An ordering at work: the policy with what it needs at run time (a generator, an oracle).
pub(crate) struct Orderer<'g, G: Game> {
    ordering: Ordering<G::Move>,
    oracle: Option<Box<Searcher<'g, G, Memo<G>, ()>>>,
    rng: Pcg64Mcg,
    scratch: Vec<(Value, G::Move)>,
}

impl<'g, G: Game> Orderer<'g, G> {
    pub(crate) fn new(game: &'g G, ordering: Ordering<G::Move>) -> Self {
        let oracle = matches!(ordering, Ordering::BestFirst | Ordering::WorstFirst)
            .then(|| Box::new(Searcher::new(game, Ordering::Natural).with_cache(Memo::new())));
        let seed = match ordering {
            Ordering::Random { seed } => seed,
            _ => 0,
        };
        Orderer { ordering, oracle, rng: Pcg64Mcg::seed_from_u64(seed), scratch: Vec::new() }
    }

    /// Puts `moves`, the moves of `state` where `player` is to move, in this ordering's order.
    #[inline]
    pub(crate) fn order(&mut self, game: &G, state: &G::State, player: Player, moves: &mut [G::Move]) {
        match &self.ordering {
            Ordering::Natural => {}
            Ordering::Reversed => moves.reverse(),
            Ordering::Preference(list) => {
                moves.sort_by_key(|m| list.iter().position(|p| p == m).unwrap_or(list.len()));
            }
            Ordering::Random { .. } => moves.shuffle(&mut self.rng),
            Ordering::BestFirst | Ordering::WorstFirst => {
                let best_first = self.ordering == Ordering::BestFirst;
                let oracle = self.oracle.as_mut().expect("oracle orderings have an oracle");
                self.scratch.clear();
                for &mv in moves.iter() {
                    let exact = oracle.run(Algorithm::Minimax, &game.child(state, mv)).value;
                    // Sort key: ascending sorts the side to move's value best first (or worst first).
                    let mover = player.view(exact);
                    self.scratch.push((if best_first { -mover } else { mover }, mv));
                }
                self.scratch.sort_by(|a, b| a.0.total_cmp(&b.0));
                for (slot, &(_, mv)) in moves.iter_mut().zip(&self.scratch) {
                    *slot = mv;
                }
            }
        }
    }
}
