//! The search loop, written once and specialised at compile time for each algorithm, and the drivers that run
//! it more than once (MTD(f), iterative deepening).

use crate::ordering::{Orderer, Ordering};
use crate::{Bound, Cache, Observer, Probe, Stored};
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
    /// ordered by the best moves the cache kept from the one before, until an iteration meets no horizon (or
    /// reaches the depth limit of [`Searcher::run_to_depth`]).
    IterativeDeepening,
    /// Alpha-beta with Ballard's Star1 pruning at chance nodes: with every leaf value known to lie in
    /// [`Searcher::with_bounds`]' range, a chance node stops as soon as the outcomes searched so far, with the
    /// others at their bounds, settle it outside the window; each outcome is searched with the window that
    /// matters for the node. Without bounds it is [`Algorithm::AlphaBeta`].
    Star1,
    /// Star1 with Star2's probing phase first: at a chance node whose outcomes lead to decision nodes, each of
    /// them is probed by searching its first move only, which bounds its value from the mover's side; the
    /// chance node stops if the probes already settle it, and the Star1 phase starts from the tighter bounds.
    Star2,
}

impl Algorithm {
    /// Every algorithm, in the order above.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Negamax,
        Algorithm::NegamaxAlphaBeta,
        Algorithm::NegaScout,
        Algorithm::MtdF,
        Algorithm::IterativeDeepening,
        Algorithm::Star1,
        Algorithm::Star2,
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
            Algorithm::Star1 => "star1",
            Algorithm::Star2 => "star2",
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
    /// Cutoffs: decision nodes where α ≥ β was reached with children still to search, which were pruned, and
    /// chance nodes that star pruning settled with outcomes still to search.
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

/// The noisy moves of a decision node, for quiescence search: it clears the buffer and writes the moves that
/// the search keeps playing past the horizon, in natural order (none when the position is quiet).
pub type Noisy<G> = fn(&G, &<G as Game>::State, &mut Vec<<G as Game>::Move>);

/// Star pruning at chance nodes, set by the algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Star {
    /// Every outcome searched with a full window (expectiminimax).
    Off,
    /// Ballard's Star1.
    One,
    /// Star1 after Star2's probing phase.
    Two,
}

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
    /// A value beyond ± this is a proven win or loss that no deeper search changes (see
    /// [`Searcher::with_final_proofs`]); infinite for none.
    proof_bound: Value,
    /// Whether a chance node was searched, ever (a mean of wins and estimates can pass the proof bound).
    met_chance: bool,
    noisy: Option<Noisy<G>>,
    /// Bounds on every value the search can meet (leaves and evaluations), MAX's view, for star pruning.
    bounds: Option<(Value, Value)>,
    star: Star,
    stats: Stats,
    root_best: Option<G::Move>,
    /// Nodes evaluated at a horizon (or answered by a cache from a search that met one), ever: a node's search
    /// is complete when this does not change during it.
    horizon_hits: u64,
    /// One move buffer per ply, reused: no allocation per node once the deepest ply has been reached.
    moves: Vec<Vec<G::Move>>,
    outcomes: Vec<Vec<(G::Move, f64)>>,
    /// Star pruning's bounds on each outcome of a chance node, one buffer per ply.
    outcome_bounds: Vec<Vec<(Value, Value)>>,
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
            proof_bound: Value::INFINITY,
            met_chance: false,
            noisy: None,
            bounds: None,
            star: Star::Off,
            stats: Stats::default(),
            root_best: None,
            horizon_hits: 0,
            moves: Vec::new(),
            outcomes: Vec::new(),
            outcome_bounds: Vec::new(),
        }
    }
}

impl<'g, G: Game, C: Cache<G>, O: Observer<G>> Searcher<'g, G, C, O> {
    /// The same searcher with a cache.
    pub fn with_cache<C2: Cache<G>>(self, cache: C2) -> Searcher<'g, G, C2, O> {
        self.with_parts(|_, observer| (cache, observer))
    }

    /// The same searcher with an observer.
    pub fn with_observer<O2: Observer<G>>(self, observer: O2) -> Searcher<'g, G, C, O2> {
        self.with_parts(|cache, _| (cache, observer))
    }

    /// The same searcher with its cache and observer replaced by what `parts` makes of them.
    fn with_parts<C2: Cache<G>, O2: Observer<G>>(
        self,
        parts: impl FnOnce(C, O) -> (C2, O2),
    ) -> Searcher<'g, G, C2, O2> {
        let Searcher {
            game,
            orderer,
            cache,
            observer,
            evaluator,
            proof_bound,
            met_chance,
            noisy,
            bounds,
            star,
            stats,
            root_best,
            horizon_hits,
            moves,
            outcomes,
            outcome_bounds,
        } = self;
        let (cache, observer) = parts(cache, observer);
        Searcher {
            game,
            orderer,
            cache,
            observer,
            evaluator,
            proof_bound,
            met_chance,
            noisy,
            bounds,
            star,
            stats,
            root_best,
            horizon_hits,
            moves,
            outcomes,
            outcome_bounds,
        }
    }

    /// The same searcher with an evaluator: the value of a non-terminal node at the horizon of a depth-limited
    /// search ([`Searcher::run_to_depth`], iterative deepening) and MTD(f)'s first guess.
    pub fn with_evaluator(mut self, evaluator: Evaluator<G>) -> Self {
        self.evaluator = Some(evaluator);
        self
    }

    /// The same searcher told that, in its game, a value beyond ±`bound` is final: every estimate lies within
    /// it, every non-zero terminal value beyond it, and no forced win scores less than a faster one (wins all
    /// count the same, or faster wins more, as in Connect-4's scores). Then, without chance nodes, an iteration
    /// of iterative deepening whose value passes the bound has proven a win or a loss that no deeper
    /// iteration changes, and iterative deepening stops there. (Not with quiescence, which may prove a slower
    /// win than one just past the horizon; nor once a chance node is met, as a mean of a win and estimates can
    /// pass the bound.)
    pub fn with_final_proofs(mut self, bound: Value) -> Self {
        self.proof_bound = bound;
        self
    }

    /// The same searcher with quiescence search: at the horizon, a decision node with noisy moves is not
    /// evaluated but searched, over its noisy moves only, and so on until the position is quiet (has none).
    /// The noisy moves are forcing (a win, a block): there is no "stand pat", the mover must play one of them.
    pub fn with_quiescence(mut self, noisy: Noisy<G>) -> Self {
        self.noisy = Some(noisy);
        self
    }

    /// The same searcher with bounds, from MAX's view, on every value it can meet: terminal payoffs and
    /// evaluations. [`Algorithm::Star1`] and [`Algorithm::Star2`] prune chance nodes with them; a value outside
    /// them makes those searches wrong.
    ///
    /// # Panics
    ///
    /// If the bounds are not finite or `lo > hi`.
    pub fn with_bounds(mut self, lo: Value, hi: Value) -> Self {
        assert!(lo.is_finite() && hi.is_finite() && lo <= hi, "value bounds must be finite, lo ≤ hi: {lo}, {hi}");
        self.bounds = Some((lo, hi));
        self
    }

    /// The cache (for instance, to count the states a memo solved).
    pub fn cache(&self) -> &C {
        &self.cache
    }

    /// The cache, taken out of the searcher (for instance, to keep a transposition table for the next search).
    pub fn into_cache(self) -> C {
        self.cache
    }

    /// The observer (for instance, to read a trace).
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// Searches `state` with the algorithm to the end of the game. The counters start from zero; the cache and
    /// the observer keep what earlier runs left in them.
    pub fn run(&mut self, algorithm: Algorithm, state: &G::State) -> SearchResult<G::Move> {
        self.run_to_depth(algorithm, state, UNLIMITED)
    }

    /// Searches `state` with the algorithm, `depth` decision plies deep (chance plies do not count): a
    /// non-terminal node `depth` plies down is a leaf valued by the evaluator (or, with quiescence, searched over
    /// its noisy moves until quiet). A terminal node is a terminal node at any depth: the terminal test comes
    /// before the depth test, so a won position is never estimated. [`UNLIMITED`] is [`Searcher::run`].
    ///
    /// Iterative deepening searches to depth 1, 2, … up to `depth`, and stops early when an iteration meets no
    /// horizon (it was exact).
    ///
    /// # Panics
    ///
    /// If the search reaches its horizon at a non-terminal node and the searcher has no evaluator.
    pub fn run_to_depth(&mut self, algorithm: Algorithm, state: &G::State, depth: u32) -> SearchResult<G::Move> {
        // Horizons at or beyond the depth that marks complete table entries could not be told from them; no game
        // khela searches is that long, so such a limit is no limit.
        let depth = if depth >= crate::cache::COMPLETE { UNLIMITED } else { depth };
        self.stats = Stats::default();
        self.root_best = None;
        self.star = match algorithm {
            Algorithm::Star1 if self.bounds.is_some() => Star::One,
            Algorithm::Star2 if self.bounds.is_some() => Star::Two,
            _ => Star::Off,
        };
        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
        let value = match algorithm {
            Algorithm::Minimax => self.root::<false, false, false>(state, depth, lo, hi),
            Algorithm::AlphaBeta | Algorithm::Star1 | Algorithm::Star2 => {
                self.root::<true, false, false>(state, depth, lo, hi)
            }
            Algorithm::Negamax => self.root::<false, true, false>(state, depth, lo, hi),
            Algorithm::NegamaxAlphaBeta => self.root::<true, true, false>(state, depth, lo, hi),
            Algorithm::NegaScout => self.root::<true, true, true>(state, depth, lo, hi),
            Algorithm::MtdF => self.mtdf(state, depth),
            Algorithm::IterativeDeepening => self.iterative_deepening(state, depth),
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
    fn mtdf(&mut self, state: &G::State, depth: u32) -> Value {
        let mut g = match self.game.node(state) {
            Node::Terminal(_) => {
                return self.root::<true, false, false>(state, depth, Value::NEG_INFINITY, Value::INFINITY);
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
            g = self.root::<true, false, false>(state, depth, beta.next_down(), beta);
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

    /// Iterative deepening alpha-beta: depth 1, 2, … up to `limit`, stopping early when an iteration meets no
    /// horizon, which makes it exact, or proves a final win or loss ([`Searcher::with_final_proofs`]). Without an evaluator there is nothing to stop at, so it is plain
    /// alpha-beta to `limit`.
    fn iterative_deepening(&mut self, state: &G::State, limit: u32) -> Value {
        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
        if self.evaluator.is_none() {
            return self.root::<true, false, false>(state, limit, lo, hi);
        }
        // Horizons stay below the depth that marks complete table entries; past them, search without one.
        for depth in 1..crate::cache::COMPLETE.min(limit) {
            let hits = self.horizon_hits;
            let value = self.root::<true, false, false>(state, depth, lo, hi);
            // A win proven through quiescence may be slower than one just past the horizon: not final.
            let proven = value.abs() > self.proof_bound && !self.met_chance && self.noisy.is_none();
            if self.horizon_hits == hits || proven {
                return value;
            }
        }
        self.root::<true, false, false>(state, limit, lo, hi)
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
        // A horizon leaf is not worth a table's memory traffic: evaluating it costs less than a probe and a
        // store (as engines do). Quiescence nodes, which search on, still use the table.
        let cached = C::ACTIVE && (depth > 0 || self.noisy.is_some());
        let probe = if cached { self.cache.probe(game, state, viewer, depth, alpha, beta) } else { Probe::MISS };
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
            _ if depth == 0 && !self.noisy_moves(game, state, kind, ply) => {
                // The horizon: a leaf of this search, valued by the evaluator.
                self.stats.leaves += 1;
                self.horizon_hits += 1;
                let evaluate = self.evaluator.expect("a depth-limited search has an evaluator");
                (viewer.view(evaluate(game, state)), Bound::Exact, None)
            }
            Node::Chance => {
                self.met_chance = true;
                let mut outcomes = take_buffer(&mut self.outcomes, ply);
                game.outcomes(state, &mut outcomes);
                let (value, bound) = if PRUNE && self.star != Star::Off {
                    self.star_chance::<NEGAMAX, SCOUT>(game, state, &outcomes, ply, depth, viewer, alpha, beta)
                } else {
                    let mut mean = 0.0;
                    for &(outcome, p) in &outcomes {
                        let child = game.child(state, outcome);
                        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
                        let kind = game.node(&child);
                        mean += p * self.search::<PRUNE, NEGAMAX, SCOUT>(
                            game,
                            &child,
                            kind,
                            ply + 1,
                            depth,
                            viewer,
                            lo,
                            hi,
                        );
                    }
                    (mean, Bound::Exact)
                };
                put_buffer(&mut self.outcomes, ply, outcomes);
                (value, bound, None)
            }
            Node::Decision(player) => {
                // Negamax searches a decision node from its mover's view. The caller's view differs only below a
                // chance node at the root, where the viewer is MAX whoever moves: then the window and the result
                // are negated on the way in and out.
                let flip = NEGAMAX && viewer != player;
                if flip {
                    (alpha, beta) = (-beta, -alpha);
                }
                // Past the horizon (quiescence), the children stay there.
                let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth.saturating_sub(1) };
                let mut moves = take_buffer(&mut self.moves, ply);
                if depth > 0 {
                    game.moves(state, &mut moves);
                } else {
                    // Quiescence: the buffer holds the noisy moves `noisy_moves` found. Searching only them is a
                    // horizon all the same: the value is not exact, nor is any node's above it.
                    self.horizon_hits += 1;
                }
                debug_assert!(!moves.is_empty(), "decision node without moves: {state:?}");
                if !self.orderer.is_natural() {
                    self.orderer.order(game, state, player, ply, &mut moves);
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
        if cached {
            self.cache.store(game, state, Stored { viewer, ply, depth, complete, value, bound, best });
        }
        value
    }

    /// Whether quiescence search goes on at the horizon node `state`: a decision node with noisy moves, which
    /// are left in the ply's move buffer for the search of the node to use.
    #[inline]
    fn noisy_moves(&mut self, game: &G, state: &G::State, kind: Node, ply: usize) -> bool {
        let (Some(noisy), Node::Decision(_)) = (self.noisy, kind) else { return false };
        let mut moves = take_buffer(&mut self.moves, ply);
        noisy(game, state, &mut moves);
        let any = !moves.is_empty();
        put_buffer(&mut self.moves, ply, moves);
        any
    }

    /// Star2's probe of a chance node's `outcome` whose range is `(lower, upper)`: if the outcome leads to a
    /// decision node, its first move (in search order) is searched, which bounds the node from its mover's
    /// side: from below if the mover maximises `viewer`'s value, from above if not. `window` is the outcome's
    /// (a, b): values at most `a` or at least `b` would settle the chance node. Returns the tightened range.
    #[allow(clippy::too_many_arguments)]
    fn star_probe<const NEGAMAX: bool, const SCOUT: bool>(
        &mut self,
        game: &G,
        state: &G::State,
        outcome: G::Move,
        ply: usize,
        depth: u32,
        viewer: Player,
        (a, b): (Value, Value),
        (lower, upper): (Value, Value),
    ) -> (Value, Value) {
        let child = game.child(state, outcome);
        let Node::Decision(player) = game.node(&child) else { return (lower, upper) };
        // A probe bounds the node from one side only, and is worth its cost only if that bound could settle the
        // chance node: a value at most `a` for a node that minimises (the viewer's opponent's), at least `b` for
        // one that maximises.
        let maximises = player == viewer;
        if (maximises && b >= upper) || (!maximises && a <= lower) {
            return (lower, upper);
        }
        let mut moves = take_buffer(&mut self.moves, ply + 1);
        game.moves(&child, &mut moves);
        if !self.orderer.is_natural() {
            self.orderer.order(game, &child, player, ply + 1, &mut moves);
        }
        let first = moves[0];
        put_buffer(&mut self.moves, ply + 1, moves);
        self.stats.nodes += 1; // The decision node, whose moves were listed.
        let grandchild = game.child(&child, first);
        let kind = game.node(&grandchild);
        let depth = if depth == UNLIMITED { UNLIMITED } else { depth - 1 };
        let search = |this: &mut Self, lo, hi| {
            this.search::<true, NEGAMAX, SCOUT>(game, &grandchild, kind, ply + 2, depth, viewer, lo, hi)
        };
        // In `viewer`'s view the node maximises if its mover is the viewer (MAX, unless negamax).
        if maximises {
            let hi = b.min(upper);
            if lower < hi {
                let g = search(self, lower, hi);
                // Not a fail-low: the first move is worth at least g, so the node too.
                if g > lower {
                    return (g.min(upper), upper);
                }
            }
        } else {
            let lo = a.max(lower);
            if lo < upper {
                let g = search(self, lo, upper);
                if g < upper {
                    return (lower, g.max(lower));
                }
            }
        }
        (lower, upper)
    }

    /// A chance node under star pruning (Ballard's Star1, and Star2's probing phase first), with the window
    /// (`alpha`, `beta`) in `viewer`'s view; the fail-soft contract of [`Searcher::search`] holds.
    ///
    /// Every outcome's value lies in [lower, upper], at first the searcher's bounds. After the outcomes before
    /// `i` are searched, the node's value lies in [Σ p·lower, Σ p·upper]; it is cut when that range is all below
    /// α or all above β. Outcome `i` is searched with the window that decides this: values at most `a` make the
    /// node fail low, at least `b` fail high. A search that fails without the node cutting (rounding can do
    /// that at the window's edge) is repeated with the outcome's full range, so the value is always right; and
    /// a node that is not cut sums p·value in the same order as expectiminimax, so the values are identical.
    #[allow(clippy::too_many_arguments)]
    fn star_chance<const NEGAMAX: bool, const SCOUT: bool>(
        &mut self,
        game: &G,
        state: &G::State,
        outcomes: &[(G::Move, f64)],
        ply: usize,
        depth: u32,
        viewer: Player,
        alpha: Value,
        beta: Value,
    ) -> (Value, Bound) {
        let (lo, hi) = self.bounds.expect("star pruning has bounds");
        let (lo, hi) = if viewer == Player::Max { (lo, hi) } else { (-hi, -lo) };
        let mut range = take_buffer(&mut self.outcome_bounds, ply);
        range.clear();
        range.resize(outcomes.len(), (lo, hi));
        let search = |this: &mut Self, outcome: G::Move, lo: Value, hi: Value| {
            let child = game.child(state, outcome);
            let kind = game.node(&child);
            this.search::<true, NEGAMAX, SCOUT>(game, &child, kind, ply + 1, depth, viewer, lo, hi)
        };
        // The range of the node from the outcomes from `i` on: Σ p·lower and Σ p·upper.
        let rest = |range: &[(Value, Value)], i: usize| {
            outcomes[i..].iter().zip(&range[i..]).fold((0.0, 0.0), |(l, u), (&(_, p), &(a, b))| (l + p * a, u + p * b))
        };
        let result = 'node: {
            if self.star == Star::Two && depth > 0 {
                for (i, &(outcome, p)) in outcomes.iter().enumerate() {
                    if p <= 0.0 {
                        continue;
                    }
                    // The window that decides the node, the other outcomes at their current bounds.
                    let (l, u) = rest(&range, 0);
                    let (lower, upper) = range[i];
                    let window = ((alpha - (u - p * upper)) / p, (beta - (l - p * lower)) / p);
                    range[i] =
                        self.star_probe::<NEGAMAX, SCOUT>(game, state, outcome, ply, depth, viewer, window, range[i]);
                    let (l, u) = rest(&range, 0);
                    if u <= alpha {
                        break 'node (u, Bound::Upper, true);
                    }
                    if l >= beta {
                        break 'node (l, Bound::Lower, true);
                    }
                }
            }
            let (mut sum_lo, mut sum_hi) = (0.0, 0.0);
            for (i, &(outcome, p)) in outcomes.iter().enumerate() {
                let (lower, upper) = range[i];
                let (rest_lo, rest_hi) = rest(&range, i + 1);
                if sum_hi + p * upper + rest_hi <= alpha {
                    break 'node (sum_hi + p * upper + rest_hi, Bound::Upper, true);
                }
                if sum_lo + p * lower + rest_lo >= beta {
                    break 'node (sum_lo + p * lower + rest_lo, Bound::Lower, true);
                }
                // The window that decides the node, within what the outcome can be.
                let (a, b) = if p > 0.0 {
                    ((alpha - sum_hi - rest_hi) / p, (beta - sum_lo - rest_lo) / p)
                } else {
                    (Value::NEG_INFINITY, Value::INFINITY)
                };
                // Rounding may put a computed edge an ulp on the wrong side; widen it until the node's test below
                // is certain to settle the node for any value beyond it (the test is monotone in the value).
                let (mut a, mut b) = (a, b);
                for _ in 0..64 {
                    let low_settles = sum_hi + p * a + rest_hi <= alpha;
                    let high_settles = sum_lo + p * b + rest_lo >= beta;
                    if low_settles && high_settles {
                        break;
                    }
                    a = if low_settles { a } else { a.next_down() };
                    b = if high_settles { b } else { b.next_up() };
                }
                let (wa, wb) = (a.max(lower), b.min(upper));
                let v = if wa < wb { search(self, outcome, wa, wb) } else { search(self, outcome, lower, upper) };
                // A fail-soft result beyond an edge of the window is a bound, unless that edge is the outcome's own
                // bound: nothing lies beyond it, so the result is the value (a mean may round an ulp past it).
                let (mut l, mut u) = if v <= wa && wa > lower {
                    (lower, v.min(upper))
                } else if v >= wb && wb < upper {
                    (v.max(lower), upper)
                } else {
                    (v, v)
                };
                if l != u {
                    if sum_hi + p * u + rest_hi <= alpha {
                        break 'node (sum_hi + p * u + rest_hi, Bound::Upper, i + 1 < outcomes.len());
                    }
                    if sum_lo + p * l + rest_lo >= beta {
                        break 'node (sum_lo + p * l + rest_lo, Bound::Lower, i + 1 < outcomes.len());
                    }
                    let exact = search(self, outcome, Value::NEG_INFINITY, Value::INFINITY);
                    (l, u) = (exact, exact);
                }
                sum_lo += p * l;
                sum_hi += p * u;
            }
            (sum_lo, Bound::Exact, false)
        };
        put_buffer(&mut self.outcome_bounds, ply, range);
        let (value, bound, pruned) = result;
        self.stats.cutoffs += u64::from(pruned);
        (value, bound)
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
/// first guess), the size of the transposition table that MTD(f) and iterative deepening use, and the bounds
/// on every leaf value that Star1 and Star2 need.
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
    /// Bounds `(lo, hi)` on every leaf value, MAX's view, for star pruning ([`Searcher::with_bounds`]); `None`
    /// for none, which makes Star1 and Star2 alpha-beta.
    pub bounds: Option<(Value, Value)>,
}

/// Searches `root` as `config` says, with a fresh two-tier transposition table for MTD(f) and iterative
/// deepening.
///
/// ```
/// use khela_exact::{Algorithm, Config, Ordering, search};
/// use khela_games::tictactoe::{Board, TicTacToe};
/// let config =
///     Config { algorithm: Algorithm::MtdF, ordering: Ordering::Natural, evaluator: None, table_mib: 1, bounds: None };
/// assert_eq!(search(&TicTacToe, &Board::EMPTY, &config).value, 0.0);
/// ```
pub fn search<G: Game>(game: &G, root: &G::State, config: &Config<G>) -> SearchResult<G::Move> {
    let mut searcher = Searcher::new(game, config.ordering.clone());
    if let Some(evaluator) = config.evaluator {
        searcher = searcher.with_evaluator(evaluator);
    }
    if let Some((lo, hi)) = config.bounds {
        searcher = searcher.with_bounds(lo, hi);
    }
    match config.algorithm {
        Algorithm::MtdF | Algorithm::IterativeDeepening => searcher
            .with_cache(Table::with_mib(config.table_mib, khela_tt::Policy::TwoTier))
            .run(config.algorithm, root),
        algorithm => searcher.run(algorithm, root),
    }
}
