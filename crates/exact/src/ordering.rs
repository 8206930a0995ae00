//! Move orderings: the order in which a decision node's children are searched.

use crate::search::{Evaluator, UNLIMITED};
use crate::{Algorithm, Memo, Searcher};
use ahash::AHashMap;
use khela_games::{Game, Player, Value};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;
use std::fmt;

/// A move-ordering policy. Orderings change how much alpha-beta prunes, never the value it returns.
pub enum Ordering<G: Game> {
    /// The game's natural order.
    Natural,
    /// The natural order backwards.
    Reversed,
    /// Moves in the order of this preference list; moves not in it come last, in natural order.
    Preference(Vec<G::Move>),
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
    /// Children sorted best first for the side to move by a static evaluation of the child (MAX's view), ties
    /// in natural order.
    Static(Evaluator<G>),
    /// [`Ordering::Static`] at the nodes fewer than `plies` moves from the root, where subtrees are large and a
    /// sort by evaluation pays; the history heuristic ([`Ordering::History`]) below, where evaluating every
    /// child would cost more than it saves. (The best move a cache remembers goes first at every depth.)
    Shallow {
        /// The static evaluation of a child, MAX's view.
        evaluate: Evaluator<G>,
        /// The plies, from the root, at which children are sorted.
        plies: usize,
    },
    /// The history heuristic: moves sorted by how often (weighted by the height of the subtree) they were the
    /// best move or caused a cutoff earlier in the search, ties in natural order.
    History,
}

impl<G: Game> Ordering<G> {
    /// The name used in tables and on the command line (`preference` for any preference list).
    pub fn name(&self) -> &'static str {
        match self {
            Ordering::Natural => "natural",
            Ordering::Reversed => "reversed",
            Ordering::Preference(_) => "preference",
            Ordering::BestFirst => "best",
            Ordering::WorstFirst => "worst",
            Ordering::Random { .. } => "random",
            Ordering::Static(_) => "static",
            Ordering::Shallow { .. } => "shallow",
            Ordering::History => "history",
        }
    }
}

impl<G: Game> Clone for Ordering<G> {
    fn clone(&self) -> Self {
        match self {
            Ordering::Natural => Ordering::Natural,
            Ordering::Reversed => Ordering::Reversed,
            Ordering::Preference(list) => Ordering::Preference(list.clone()),
            Ordering::BestFirst => Ordering::BestFirst,
            Ordering::WorstFirst => Ordering::WorstFirst,
            Ordering::Random { seed } => Ordering::Random { seed: *seed },
            Ordering::Static(evaluate) => Ordering::Static(*evaluate),
            Ordering::Shallow { evaluate, plies } => Ordering::Shallow { evaluate: *evaluate, plies: *plies },
            Ordering::History => Ordering::History,
        }
    }
}

impl<G: Game> fmt::Debug for Ordering<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ordering::Preference(list) => write!(f, "Preference({list:?})"),
            Ordering::Random { seed } => write!(f, "Random {{ seed: {seed} }}"),
            Ordering::Shallow { plies, .. } => write!(f, "Shallow {{ plies: {plies} }}"),
            other => f.write_str(other.name()),
        }
    }
}

/// An ordering at work: the policy with what it needs at run time (a generator, an oracle, a history table).
pub(crate) struct Orderer<'g, G: Game> {
    ordering: Ordering<G>,
    oracle: Option<Box<Searcher<'g, G, Memo<G>, ()>>>,
    rng: Pcg64Mcg,
    history: AHashMap<G::Move, u64>,
    scratch: Vec<(Value, G::Move)>,
}

impl<'g, G: Game> Orderer<'g, G> {
    pub(crate) fn new(game: &'g G, ordering: Ordering<G>) -> Self {
        let oracle = matches!(ordering, Ordering::BestFirst | Ordering::WorstFirst)
            .then(|| Box::new(Searcher::new(game, Ordering::Natural).with_cache(Memo::new())));
        let seed = match ordering {
            Ordering::Random { seed } => seed,
            _ => 0,
        };
        Orderer { ordering, oracle, rng: Pcg64Mcg::seed_from_u64(seed), history: AHashMap::new(), scratch: Vec::new() }
    }

    /// Whether [`Orderer::order`] leaves the natural order alone (checked inline, so that the plain search
    /// pays nothing for orderings).
    #[inline(always)]
    pub(crate) fn is_natural(&self) -> bool {
        matches!(self.ordering, Ordering::Natural)
    }

    /// Whether [`Orderer::reward`] records anything.
    #[inline(always)]
    pub(crate) fn is_history(&self) -> bool {
        matches!(self.ordering, Ordering::History | Ordering::Shallow { .. })
    }

    /// Puts `moves`, the moves of `state` where `player` is to move, `ply` moves from the root, in this
    /// ordering's order.
    #[inline]
    pub(crate) fn order(&mut self, game: &G, state: &G::State, player: Player, ply: usize, moves: &mut [G::Move]) {
        match &self.ordering {
            Ordering::Natural => {}
            Ordering::Reversed => moves.reverse(),
            Ordering::Preference(list) => {
                moves.sort_by_key(|m| list.iter().position(|p| p == m).unwrap_or(list.len()));
            }
            Ordering::Random { .. } => moves.shuffle(&mut self.rng),
            Ordering::History => by_history(&self.history, &mut self.scratch, moves),
            Ordering::Shallow { plies, .. } if ply >= *plies => by_history(&self.history, &mut self.scratch, moves),
            Ordering::BestFirst | Ordering::WorstFirst | Ordering::Static(_) | Ordering::Shallow { .. } => {
                let worst_first = matches!(self.ordering, Ordering::WorstFirst);
                self.scratch.clear();
                for &mv in moves.iter() {
                    let child = game.child(state, mv);
                    let value = match &self.ordering {
                        Ordering::Static(evaluate) | Ordering::Shallow { evaluate, .. } => evaluate(game, &child),
                        _ => {
                            self.oracle
                                .as_mut()
                                .expect("oracle orderings have an oracle")
                                .run(Algorithm::Minimax, &child)
                                .value
                        }
                    };
                    // Sort key: ascending sorts the side to move's values best first (or worst first).
                    let mover = player.view(value);
                    self.scratch.push((if worst_first { mover } else { -mover }, mv));
                }
                sort_by_key(&mut self.scratch, moves);
            }
        }
    }

    /// Records, for the history ordering, that `mv` was the best move (or caused a cutoff) at a node `ply`
    /// moves deep with `depth` plies left: the history heuristic's reward, depth² (or, without a horizon, the square of 64 − ply, so that
    /// moves near the root, over larger subtrees, weigh more).
    #[inline]
    pub(crate) fn reward(&mut self, mv: G::Move, ply: usize, depth: u32) {
        debug_assert!(self.is_history());
        let height = if depth == UNLIMITED { 64u64.saturating_sub(ply as u64).max(1) } else { u64::from(depth) };
        *self.history.entry(mv).or_insert(0) += height * height;
    }
}

/// Sorts `moves` by their history scores, highest first, each looked up once (into `scratch`); stable, so ties
/// (moves never rewarded) keep their natural order.
fn by_history<M: Copy + Eq + std::hash::Hash>(
    history: &AHashMap<M, u64>,
    scratch: &mut Vec<(Value, M)>,
    moves: &mut [M],
) {
    scratch.clear();
    // Scores are far below 2^53, so the float holds them exactly.
    scratch.extend(moves.iter().map(|&mv| (-(history.get(&mv).copied().unwrap_or(0) as Value), mv)));
    sort_by_key(scratch, moves);
}

/// Puts `moves` in the order of their keys in `keyed` (ascending, stable), which holds one (key, move) pair per
/// move.
fn sort_by_key<M: Copy>(keyed: &mut [(Value, M)], moves: &mut [M]) {
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (slot, &(_, mv)) in moves.iter_mut().zip(keyed.iter()) {
        *slot = mv;
    }
}
