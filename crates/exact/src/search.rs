//! The search loop, written once and specialised at compile time for each algorithm, and the drivers that run
//! it more than once (MTD(f), iterative deepening).

use crate::ordering::{Orderer, Ordering};
use crate::{Bound, Cache, Observer, Stored};
use khela_games::{Game, Node, Player, Value};
use khela_tt::Table;

/// The remaining depth of a search without a horizon.
pub const UNLIMITED: u32 = u32::MAX;

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
    /// NegaScout (principal variation search): the first child with the full window, the others with a null
    /// window around α, re-searched with (v, β) when they fail high.
    NegaScout,
    /// MTD(f): null-window alpha-beta searches, with the searcher's cache as memory, converging on the value
    /// from a first guess (the evaluator's value of the root, or 0).
    MtdF,
    /// Iterative deepening: alpha-beta to depth 1, 2, … with the evaluator at the horizon, each iteration
    /// ordered by the best moves the cache kept from the one before, until an iteration meets no horizon.
    IterativeDeepening,
}

impl Algorithm {
    /// Every algorithm, in the order above.
    pub const ALL: [Algorithm; 7] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Negamax,
        Algorithm::NegamaxAlphaBeta,
        Algorithm::NegaScout,
        Algorithm::MtdF,
        Algorithm::IterativeDeepening,
    ];

    /// The name used in tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Negamax => "negamax",
            Algorithm::NegamaxAlphaBeta => "negamax-alphabeta",
            Algorithm::NegaScout => "negascout",
            Algorithm::MtdF => "mtdf",
            Algorithm::IterativeDeepening => "id",
        }
    }
}

/// What a search counted. Plain counters, so that the harness can write them out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Nodes visited: every call of the search, terminal or not, the root included (cache hits included); over
    /// all passes of MTD(f) and all iterations of iterative deepening.
    pub nodes: u64,
    /// Leaves visited: terminal nodes, and nodes evaluated at a horizon.
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

/// A static evaluation: an estimate, from MAX's view, of a non-terminal state.
pub type Evaluator<G> = fn(&G, &<G as Game>::State) -> Value;

/// The search loop with its ordering, cache, observer and evaluator.
///
/// `C` is a [`Cache`] (`()` for none, [`crate::Memo`] for memoized minimax, a [`khela_tt::Table`]) and `O` an
/// [`Observer`] (`()` for none, [`crate::Trace`] for the textbook trace). Both are type parameters, so the plain
/// search pays nothing for them.
pub struct Searcher<'g, G: Game, C: Cache<G> = (), O: Observer<G> = ()> {
    game: &'g G,
    orderer: Orderer<'g, G>,
    cache: C,
    observer: O,
    evaluator: Option<Evaluator<G>>,
    stats: Stats,
    root_best: Option<G::Move>,
    /// Nodes evaluated at a horizon (or answered by a cache from a search that met one), ever: a node's search
    /// is complete when this does not change during it.
    horizon_hits: u64,
    /// One move buffer per ply, reused: no allocation per node once the deepest ply has been reached.
    moves: Vec<Vec<G::Move>>,
    outcomes: Vec<Vec<(G::Move, f64)>>,
}

impl<'g, G: Game> Searcher<'g, G> {
    /// A searcher with the given ordering, no cache, no observer and no evaluator.
    pub fn new(game: &'g G, ordering: Ordering<G>) -> Self {
        Searcher {
            game,
            orderer: Orderer::new(game, ordering),
            cache: (),
            observer: (),
            evaluator: None,
            stats: Stats::default(),
            root_best: None,
            horizon_hits: 0,
            moves: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

impl<'g, G: Game, C: Cache<G>, O: Observer<G>> Searcher<'g, G, C, O> {
    /// The same searcher with a cache.
    pub fn with_cache<C2: Cache<G>>(self, cache: C2) -> Searcher<'g, G, C2, O> {
        let Searcher { game, orderer, observer, evaluator, stats, root_best, horizon_hits, moves, outcomes, .. } = self;
        Searcher { game, orderer, cache, observer, evaluator, stats, root_best, horizon_hits, moves, outcomes }
    }

    /// The same searcher with an observer.
    pub fn with_observer<O2: Observer<G>>(self, observer: O2) -> Searcher<'g, G, C, O2> {
        let Searcher { game, orderer, cache, evaluator, stats, root_best, horizon_hits, moves, outcomes, .. } = self;
        Searcher { game, orderer, cache, observer, evaluator, stats, root_best, horizon_hits, moves, outcomes }
    }

    /// The same searcher with an evaluator, used at the horizon of iterative deepening and for MTD(f)'s first
    /// guess.
    pub fn with_evaluator(mut self, evaluator: Evaluator<G>) -> Self {
        self.evaluator = Some(evaluator);
        self
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
            Algorithm::Minimax => self.root::<false, false, false>(state, UNLIMITED, lo, hi),
            Algorithm::AlphaBeta => self.root::<true, false, false>(state, UNLIMITED, lo, hi),
            Algorithm::Negamax => self.root::<false, true, false>(state, UNLIMITED, lo, hi),
            Algorithm::NegamaxAlphaBeta => self.root::<true, true, false>(state, UNLIMITED, lo, hi),
            Algorithm::NegaScout => self.root::<true, true, true>(state, UNLIMITED, lo, hi),
            Algorithm::MtdF => self.mtdf(state),
            Algorithm::IterativeDeepening => self.iterative_deepening(state),
        };
        SearchResult { value, best: self.root_best, stats: self.stats }
    }

    /// Searches the root with a window given, like the result, in MAX's view.
    fn root<const PRUNE: bool, const NEGAMAX: bool, const SCOUT: bool>(
        &mut self,
        state: &G::State,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Value {
        // The negamax value is from the view of the side to move at the root (MAX at a chance root).
        let viewer = match self.game.node(state) {
            Node::Decision(player) if NEGAMAX => player,
            _ => Player::Max,
        };
        let (a, b) = if viewer == Player::Max { (alpha, beta) } else { (-beta, -alpha) };
        let kind = self.game.node(state);
        viewer.view(self.search::<PRUNE, NEGAMAX, SCOUT>(self.game, state, kind, 0, depth, viewer, a, b))
    }

    /// MTD(f): null-window searches around the current guess `g`, each one a fail-soft bound that tightens
    /// `lower` or `upper`, until they meet.
    fn mtdf(&mut self, state: &G::State) -> Value {
        let mut g = match self.game.node(state) {
            Node::Terminal(_) => {
                return self.root::<true, false, false>(state, UNLIMITED, Value::NEG_INFINITY, Value::INFINITY);
            }
            _ => self.evaluator.map_or(0.0, |evaluate| evaluate(self.game, state)),
        };
        let (mut lower, mut upper) = (Value::NEG_INFINITY, Value::INFINITY);
        // A root move is proven good by a pass that fails the mover's way: high for MAX (the move reaches at
        // least g, and the lower bound only rises from here), low for MIN.
        let max_to_move = self.game.node(state) == Node::Decision(Player::Max);
        let mut best = None;
        while lower < upper {
            let beta = if g == lower { g.next_up() } else { g };
            g = self.root::<true, false, false>(state, UNLIMITED, beta.next_down(), beta);
            let failed_high = g >= beta;
            if failed_high {
                lower = g;
            } else {
                upper = g;
            }
            if failed_high == max_to_move {
                best = self.root_best;
            }
        }
        self.root_best = best.or(self.root_best);
        g
    }

    /// Iterative deepening alpha-beta: depth 1, 2, … until an iteration meets no horizon, which makes it exact.
    /// Without an evaluator there is nothing to stop at, so it is plain alpha-beta.
    fn iterative_deepening(&mut self, state: &G::State) -> Value {
        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
        if self.evaluator.is_none() {
            return self.root::<true, false, false>(state, UNLIMITED, lo, hi);
        }
        // Horizons stay below the depth that marks complete table entries; past them, search without one.
        for depth in 1..crate::cache::COMPLETE {
            let hits = self.horizon_hits;
            let value = self.root::<true, false, false>(state, depth, lo, hi);
            if self.horizon_hits == hits {
                return value;
            }
        }
        self.root::<true, false, false>(state, UNLIMITED, lo, hi)
    }

    /// The search loop. It returns the value of `state` from `viewer`'s view: MAX's when `NEGAMAX` is false,
    /// the side to move's (at decision nodes) when it is true. `kind` is `game.node(state)`, which the caller
    /// has already computed. `depth` is the number of decision plies left
    /// before the horizon ([`UNLIMITED`] for none); chance plies do not count.
    ///
    /// Contract (fail-soft alpha-beta): if the true value is ≤ `alpha` the returned value is ≤ `alpha`; if it
    /// is ≥ `beta` the returned value is ≥ `beta`; otherwise the returned value is exact. Without `PRUNE`, and
    /// at chance nodes, the value is always exact. `SCOUT` (with `NEGAMAX`) searches all but the first child
    /// with a null window first.
    // The loop's state is its arguments, kept in registers; bundling them into a struct would only move them
    // through memory on every call.
    #[allow(clippy::too_many_arguments)]
    fn search<const PRUNE: bool, const NEGAMAX: bool, const SCOUT: bool>(
        &mut self,
        game: &G,
        state: &G::State,
        kind: Node,
        ply: usize,
        depth: u32,
        viewer: Player,
        mut alpha: Value,
        mut beta: Value,
    ) -> Value {
        self.stats.nodes += 1; // Every call, terminal or not, the root included, as the textbook counts.
        let hits_before = self.horizon_hits;
        let probe = self.cache.probe(game, state, viewer, depth, alpha, beta);
        // The root is always expanded, so that the search reports its best move even when the cache knows it.
        if ply > 0
            && let Some(value) = probe.value
        {
            if !probe.complete {
                self.horizon_hits += 1;
            }
            return value;
        }
        let (value, bound, best) = match kind {
            Node::Terminal(payoff) => {
                self.stats.leaves += 1;
                (viewer.view(payoff), Bound::Exact, None)
            }
            _ if depth == 0 => {
                // The horizon: a leaf of this search, valued by the evaluator.
                self.stats.leaves += 1;
                self.horizon_hits += 1;
                let evaluate = self.evaluator.expect("a depth-limited search has an evaluator");
                (viewer.view(evaluate(game, state)), Bound::Exact, None)
            }
            Node::Chance => {
                let mut outcomes = take_buffer(&mut self.outcomes, ply);
                game.outcomes(state, &mut outcomes);
                let mut mean = 0.0;
                for &(outcome, p) in &outcomes {
                    let child = game.child(state, outcome);
                    let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
                    let kind = game.node(&child);
                    mean +=
                        p * self.search::<PRUNE, NEGAMAX, SCOUT>(game, &child, kind, ply + 1, depth, viewer, lo, hi);
                }
                put_buffer(&mut self.outcomes, ply, outcomes);
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
                let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
                let mut moves = take_buffer(&mut self.moves, ply);
                game.moves(state, &mut moves);
                debug_assert!(!moves.is_empty(), "decision node without moves: {state:?}");
                if !self.orderer.is_natural() {
                    self.orderer.order(game, state, player, &mut moves);
                }
                // The cache's best move, from an earlier search of this state, goes first.
                if let Some(pos) = probe.best.and_then(|hint| moves.iter().position(|&m| m == hint)) {
                    moves[..=pos].rotate_right(1);
                }
                let maximise = NEGAMAX || player == Player::Max;
                let (alpha0, beta0) = (alpha, beta);
                let mut best_value = if maximise { Value::NEG_INFINITY } else { Value::INFINITY };
                // The best move is tracked by its index, a plain integer whatever the move type (a register in
                // the loop rather than an `Option<G::Move>` kept in memory).
                let mut best_index = usize::MAX;
                for (i, &mv) in moves.iter().enumerate() {
                    let child = game.child(state, mv);
                    let kind = game.node(&child);
                    // The search of this child, one ply down, in a view and a window.
                    let down = |this: &mut Self, view: Player, lo: Value, hi: Value| {
                        this.search::<PRUNE, NEGAMAX, SCOUT>(game, &child, kind, ply + 1, child_depth, view, lo, hi)
                    };
                    let v = if let (false, false, Node::Terminal(payoff)) = (C::ACTIVE, O::ACTIVE, kind) {
                        // A leaf of a plain search (no cache, no observer to tell), valued here rather than by a
                        // call; it is a visit all the same. Its value is in this node's working view.
                        self.stats.nodes += 1;
                        self.stats.leaves += 1;
                        if NEGAMAX { player.view(payoff) } else { viewer.view(payoff) }
                    } else if !NEGAMAX {
                        down(self, viewer, alpha, beta)
                    } else if SCOUT && i > 0 {
                        // A null window (α, α⁺): is this child better than α at all?
                        let opponent = player.opponent();
                        let t = -down(self, opponent, -alpha.next_up(), -alpha);
                        if t > alpha && t < beta {
                            // It is: search it again with the window (t, β) for its value.
                            -down(self, opponent, -beta, -t)
                        } else {
                            t
                        }
                    } else {
                        -down(self, player.opponent(), -beta, -alpha)
                    };
                    // Plain comparisons, one branch per side: this is the hottest code of every search. The
                    // outcomes are data-dependent (a branch on them mispredicts often), so they are selects
                    // (conditional moves), as a C compiler makes of the same comparisons.
                    use std::hint::select_unpredictable as select;
                    if maximise {
                        let better = v > best_value;
                        best_value = select(better, v, best_value);
                        best_index = select(better, i, best_index);
                        if PRUNE {
                            alpha = select(v > alpha, v, alpha);
                        }
                    } else {
                        let better = v < best_value;
                        best_value = select(better, v, best_value);
                        best_index = select(better, i, best_index);
                        if PRUNE {
                            beta = select(v < beta, v, beta);
                        }
                    }
                    // Without pruning the window stays full, so every value is exact.
                    if PRUNE && alpha >= beta {
                        // Counted without a branch (whether children remain is as unpredictable as the cut).
                        let pruned = i + 1 < moves.len();
                        self.stats.cutoffs += u64::from(pruned);
                        if pruned {
                            self.observer.pruned(game, state, &moves[i + 1..]);
                        }
                        break;
                    }
                }
                let best = moves.get(best_index).copied();
                put_buffer(&mut self.moves, ply, moves);
                let history = self.orderer.is_history();
                // The bound is for the cache, the observer and the history heuristic: a plain search has no use
                // for it, and skips the comparisons (the placeholder below reaches nothing).
                let bound =
                    if C::ACTIVE || O::ACTIVE || history { Bound::of(best_value, alpha0, beta0) } else { Bound::Exact };
                // The history heuristic rewards the mover's best move unless the node failed low for the mover
                // (then no move was good enough, and "best" means nothing); the rule is the same in every view.
                let mover_bound = if maximise { bound } else { bound.flip() };
                if history
                    && let Some(mv) = best
                    && mover_bound != Bound::Upper
                {
                    self.orderer.reward(mv, ply, depth);
                }
                if flip { (-best_value, bound.flip(), best) } else { (best_value, bound, best) }
            }
        };
        if ply == 0 {
            self.root_best = best;
        }
        let max_view_bound = if viewer == Player::Max { bound } else { bound.flip() };
        self.observer.backed_up(game, state, viewer.view(value), max_view_bound);
        let complete = self.horizon_hits == hits_before;
        self.cache.store(game, state, Stored { viewer, ply, depth, complete, value, bound, best });
        value
    }
}

/// Takes the buffer of `ply` out of `buffers` (growing it as needed); the caller puts it back.
#[inline]
fn take_buffer<T>(buffers: &mut Vec<Vec<T>>, ply: usize) -> Vec<T> {
    match buffers.get_mut(ply) {
        Some(buffer) => std::mem::take(buffer),
        None => take_new_buffer(buffers, ply),
    }
}

/// [`take_buffer`] at a ply not reached before: once per new depth, so out of the hot path.
#[cold]
#[inline(never)]
fn take_new_buffer<T>(buffers: &mut Vec<Vec<T>>, ply: usize) -> Vec<T> {
    buffers.resize_with(ply + 1, Vec::new);
    Vec::new()
}

/// Puts the buffer of `ply`, taken by [`take_buffer`], back. The slot holds the empty vector `take` left there
/// (deeper plies use other slots), which owns no memory: it is overwritten without a drop.
#[inline]
fn put_buffer<T>(buffers: &mut [Vec<T>], ply: usize, buffer: Vec<T>) {
    let slot = &mut buffers[ply];
    debug_assert!(slot.capacity() == 0 || size_of::<T>() == 0, "the slot of ply {ply} was refilled in its search");
    std::mem::forget(std::mem::replace(slot, buffer));
}

/// b^⌈d/2⌉ + b^⌊d/2⌋ − 1: the fewest leaves alpha-beta can visit in a uniform tree of branching `b` and depth
/// `d` (Knuth and Moore, 1975), or `None` if it does not fit in 64 bits.
///
/// ```
/// assert_eq!(khela_exact::knuth_moore(4, 6), Some(127));
/// ```
pub fn knuth_moore(b: u32, d: u32) -> Option<u64> {
    let b = u64::from(b);
    b.checked_pow(d.div_ceil(2))?.checked_add(b.checked_pow(d / 2)?).map(|n| n - 1)
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

/// How to search: the algorithm, the ordering, the evaluator (for iterative deepening's horizon and MTD(f)'s
/// first guess) and the size of the transposition table that MTD(f) and iterative deepening use.
#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The move ordering.
    pub ordering: Ordering<G>,
    /// The static evaluation, if any.
    pub evaluator: Option<Evaluator<G>>,
    /// The transposition table's size in MiB, for the algorithms that need memory (MTD(f), iterative
    /// deepening); the others search without one.
    pub table_mib: usize,
}

/// Searches `root` as `config` says, with a fresh two-tier transposition table for MTD(f) and iterative
/// deepening.
///
/// ```
/// use khela_exact::{Algorithm, Config, Ordering, search};
/// use khela_games::tictactoe::{Board, TicTacToe};
/// let config = Config { algorithm: Algorithm::MtdF, ordering: Ordering::Natural, evaluator: None, table_mib: 1 };
/// assert_eq!(search(&TicTacToe, &Board::EMPTY, &config).value, 0.0);
/// ```
pub fn search<G: Game>(game: &G, root: &G::State, config: &Config<G>) -> SearchResult<G::Move> {
    let mut searcher = Searcher::new(game, config.ordering.clone());
    if let Some(evaluator) = config.evaluator {
        searcher = searcher.with_evaluator(evaluator);
    }
    match config.algorithm {
        Algorithm::MtdF | Algorithm::IterativeDeepening => searcher
            .with_cache(Table::with_mib(config.table_mib, khela_tt::Policy::TwoTier))
            .run(config.algorithm, root),
        algorithm => searcher.run(algorithm, root),
    }
}
