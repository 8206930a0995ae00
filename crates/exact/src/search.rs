//! The search loop, written once and specialised at compile time for each algorithm.

use crate::ordering::{Orderer, Ordering};
use crate::{Bound, Cache, Observer, Stored};
use khela_games::{Game, Node, Player, Value};

/// The exact-search algorithms. At chance nodes every one of them takes the probability-weighted mean of the
/// outcomes, each searched with a full window: that is expectiminimax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain minimax: MAX maximises, MIN minimises, every node is searched.
    Minimax,
    /// Minimax with alpha-beta pruning: a node's remaining children are cut when α ≥ β.
    AlphaBeta,
    /// Minimax in the side-to-move view: every node maximises the negated values of its children.
    Negamax,
    /// Negamax with alpha-beta pruning.
    NegamaxAlphaBeta,
}

impl Algorithm {
    /// Every algorithm, in the order above.
    pub const ALL: [Algorithm; 4] =
        [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Negamax, Algorithm::NegamaxAlphaBeta];

    /// The name used in tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Negamax => "negamax",
            Algorithm::NegamaxAlphaBeta => "negamax-alphabeta",
        }
    }
}

/// What a search counted. Plain counters, so that the harness can write them out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Nodes visited: every call of the search, terminal or not, the root included (cache hits included).
    pub nodes: u64,
    /// Terminal nodes visited.
    pub leaves: u64,
    /// Cutoffs: decision nodes where α ≥ β was reached with children still to search, which were pruned.
    pub cutoffs: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.cutoffs += other.cutoffs;
    }
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The value of the root, from MAX's view.
    pub value: Value,
    /// The first root move, in search order, that attains the value (`None` at a terminal or chance root).
    pub best: Option<M>,
    /// The counters of this search.
    pub stats: Stats,
}

/// The search loop with its ordering, cache and observer.
///
/// `C` is a [`Cache`] (`()` for none, [`crate::Memo`] for memoized minimax) and `O` an [`Observer`] (`()` for
/// none, [`crate::Trace`] for the textbook trace). Both are type parameters, so the plain search pays nothing
/// for them.
pub struct Searcher<'g, G: Game, C: Cache<G> = (), O: Observer<G> = ()> {
    game: &'g G,
    orderer: Orderer<'g, G>,
    cache: C,
    observer: O,
    stats: Stats,
    root_best: Option<G::Move>,
    /// One move buffer per ply, reused: no allocation per node once the deepest ply has been reached.
    moves: Vec<Vec<G::Move>>,
    outcomes: Vec<Vec<(G::Move, f64)>>,
}

impl<'g, G: Game> Searcher<'g, G> {
    /// A searcher with the given ordering, no cache and no observer.
    pub fn new(game: &'g G, ordering: Ordering<G::Move>) -> Self {
        Searcher {
            game,
            orderer: Orderer::new(game, ordering),
            cache: (),
            observer: (),
            stats: Stats::default(),
            root_best: None,
            moves: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

impl<'g, G: Game, C: Cache<G>, O: Observer<G>> Searcher<'g, G, C, O> {
    /// The same searcher with a cache.
    pub fn with_cache<C2: Cache<G>>(self, cache: C2) -> Searcher<'g, G, C2, O> {
        let Searcher { game, orderer, observer, stats, root_best, moves, outcomes, .. } = self;
        Searcher { game, orderer, cache, observer, stats, root_best, moves, outcomes }
    }

    /// The same searcher with an observer.
    pub fn with_observer<O2: Observer<G>>(self, observer: O2) -> Searcher<'g, G, C, O2> {
        let Searcher { game, orderer, cache, stats, root_best, moves, outcomes, .. } = self;
        Searcher { game, orderer, cache, observer, stats, root_best, moves, outcomes }
    }

    /// The cache (for instance, to count the states a memo solved).
    pub fn cache(&self) -> &C {
        &self.cache
    }

    /// The observer (for instance, to read a trace).
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// Searches `state` with the algorithm. The counters start from zero; the cache and the observer keep what
    /// earlier runs left in them.
    pub fn run(&mut self, algorithm: Algorithm, state: &G::State) -> SearchResult<G::Move> {
        self.stats = Stats::default();
        self.root_best = None;
        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
        let value = match algorithm {
            Algorithm::Minimax => self.search::<false, false>(state, 0, Player::Max, lo, hi),
            Algorithm::AlphaBeta => self.search::<true, false>(state, 0, Player::Max, lo, hi),
            Algorithm::Negamax | Algorithm::NegamaxAlphaBeta => {
                // The negamax value is from the view of the side to move at the root (MAX at a chance root).
                let viewer = match self.game.node(state) {
                    Node::Decision(player) => player,
                    Node::Chance | Node::Terminal(_) => Player::Max,
                };
                let v = if algorithm == Algorithm::Negamax {
                    self.search::<false, true>(state, 0, viewer, lo, hi)
                } else {
                    self.search::<true, true>(state, 0, viewer, lo, hi)
                };
                viewer.view(v)
            }
        };
        SearchResult { value, best: self.root_best, stats: self.stats }
    }

    /// The search loop. It returns the value of `state` from `viewer`'s view: MAX's when `NEGAMAX` is false,
    /// the side to move's (at decision nodes) when it is true.
    ///
    /// Contract (fail-soft alpha-beta): if the true value is ≤ `alpha` the returned value is ≤ `alpha`; if it
    /// is ≥ `beta` the returned value is ≥ `beta`; otherwise the returned value is exact. Without `PRUNE`, and
    /// at chance nodes, the value is always exact.
    fn search<const PRUNE: bool, const NEGAMAX: bool>(
        &mut self,
        state: &G::State,
        ply: usize,
        viewer: Player,
        mut alpha: Value,
        mut beta: Value,
    ) -> Value {
        self.stats.nodes += 1; // Every call, terminal or not, the root included, as the textbook counts.
        let probe = self.cache.probe(self.game, state, viewer, alpha, beta);
        // The root is always expanded, so that the search reports its best move even when the cache knows it.
        if ply > 0
            && let Some(value) = probe.value
        {
            return value;
        }
        let game = self.game;
        let (value, bound, best) = match game.node(state) {
            Node::Terminal(payoff) => {
                self.stats.leaves += 1;
                (viewer.view(payoff), Bound::Exact, None)
            }
            Node::Chance => {
                let mut outcomes = take_buffer(&mut self.outcomes, ply);
                game.outcomes(state, &mut outcomes);
                let mut mean = 0.0;
                for &(outcome, p) in &outcomes {
                    let child = game.child(state, outcome);
                    let v =
                        self.search::<PRUNE, NEGAMAX>(&child, ply + 1, viewer, Value::NEG_INFINITY, Value::INFINITY);
                    mean += p * v;
                }
                self.outcomes[ply] = outcomes;
                (mean, Bound::Exact, None)
            }
            Node::Decision(player) => {
                // Negamax searches a decision node from its mover's view. The caller's view differs only below a
                // chance node at the root, where the viewer is MAX whoever moves: then the window and the result
                // are negated on the way in and out.
                let flip = NEGAMAX && viewer != player;
                if flip {
                    (alpha, beta) = (-beta, -alpha);
                }
                let mut moves = take_buffer(&mut self.moves, ply);
                game.moves(state, &mut moves);
                debug_assert!(!moves.is_empty(), "decision node without moves: {state:?}");
                self.orderer.order(game, state, player, &mut moves);
                // The cache's best move, from an earlier search of this state, goes first.
                if let Some(pos) = probe.best.and_then(|hint| moves.iter().position(|&m| m == hint)) {
                    moves[..=pos].rotate_right(1);
                }
                let maximise = NEGAMAX || player == Player::Max;
                let (alpha0, beta0) = (alpha, beta);
                let mut best_value = if maximise { Value::NEG_INFINITY } else { Value::INFINITY };
                let mut best = None;
                for (i, &mv) in moves.iter().enumerate() {
                    let child = game.child(state, mv);
                    let v = if NEGAMAX {
                        -self.search::<PRUNE, NEGAMAX>(&child, ply + 1, player.opponent(), -beta, -alpha)
                    } else {
                        self.search::<PRUNE, NEGAMAX>(&child, ply + 1, viewer, alpha, beta)
                    };
                    let improves = if maximise { v > best_value } else { v < best_value };
                    if improves {
                        (best_value, best) = (v, Some(mv));
                    }
                    if !PRUNE {
                        // Without pruning the window stays full, so every value is exact.
                        continue;
                    }
                    if maximise {
                        alpha = alpha.max(v);
                    } else {
                        beta = beta.min(v);
                    }
                    if alpha >= beta {
                        let pruned = &moves[i + 1..];
                        if !pruned.is_empty() {
                            self.stats.cutoffs += 1;
                            self.observer.pruned(game, state, pruned);
                        }
                        break;
                    }
                }
                self.moves[ply] = moves;
                let bound = Bound::of(best_value, alpha0, beta0);
                if flip { (-best_value, bound.flip(), best) } else { (best_value, bound, best) }
            }
        };
        if ply == 0 {
            self.root_best = best;
        }
        let max_view_bound = if viewer == Player::Max { bound } else { bound.flip() };
        self.observer.backed_up(game, state, viewer.view(value), max_view_bound);
        self.cache.store(game, state, Stored { viewer, ply, value, bound, best });
        value
    }
}

/// Takes the buffer of `ply` out of `buffers` (growing it as needed); the caller puts it back.
#[inline]
fn take_buffer<T>(buffers: &mut Vec<Vec<T>>, ply: usize) -> Vec<T> {
    if buffers.len() <= ply {
        buffers.resize_with(ply + 1, Vec::new);
    }
    std::mem::take(&mut buffers[ply])
}

/// The exact value, from MAX's view, of every legal move of a decision node, in natural order: each child is
/// searched with a full window by `algorithm`.
///
/// # Examples
///
/// ```
/// use khela_exact::{Algorithm, move_values};
/// use khela_games::tictactoe::TicTacToe;
/// let trap = TicTacToe::parse("X...O...X").unwrap();
/// let values = move_values(&TicTacToe, &trap, Algorithm::AlphaBeta);
/// assert_eq!(values, [(1, 0.0), (2, 1.0), (3, 0.0), (5, 0.0), (6, 1.0), (7, 0.0)]);
/// ```
pub fn move_values<G: Game>(game: &G, state: &G::State, algorithm: Algorithm) -> Vec<(G::Move, Value)> {
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    let mut searcher = Searcher::new(game, Ordering::Natural);
    moves.into_iter().map(|mv| (mv, searcher.run(algorithm, &game.child(state, mv)).value)).collect()
}
