//! The searcher: the search loop's settings and state, how it is built, and how a search is started.

use crate::algorithm::Algorithm;
use crate::cache::{COMPLETE, Cache};
use crate::horizon::{EvalFn, Horizon, Noisy, UNLIMITED};
use crate::orderer::Orderer;
use crate::stats::Stats;
use crate::trace::Observer;
use khela_games::{Game, Value};
use std::num::NonZeroU32;

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

/// Star pruning in the current run: the bounds on every value, and whether Star2 probes first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Star {
    /// Bounds on every value the search can meet, MAX's view.
    pub(super) bounds: (Value, Value),
    /// Star2's probing phase.
    pub(super) probe: bool,
}

/// What the searcher keeps track of while it runs.
pub(super) struct Track<M> {
    /// The counters of the current run.
    pub(super) stats: Stats,
    /// The best root move of the current run.
    pub(super) root_best: Option<M>,
    /// Nodes evaluated at a horizon (or answered by a cache from a search that met one), ever: a node's search
    /// is complete when this does not change during it.
    pub(super) horizon_hits: u64,
    /// Draws by a game's cycle rules (a repetition on the line, the length cap) met, ever: a node whose search
    /// met one is not stored in the cache.
    pub(super) line_draws: u64,
    /// The plies the next search should start with: more than [`PLIES`] once a search went deeper.
    pub(super) plies_wanted: usize,
    /// The plies of a spare block, for a node deeper than the plies lent to the search ([`PLIES`]; a test makes
    /// it 1, which puts every node on a block's boundary).
    pub(super) plies_step: usize,
    /// Whether a chance node was searched, ever (a mean of wins and estimates can pass the proof bound).
    pub(super) met_chance: bool,
    /// Star pruning, if the current run's algorithm prunes chance nodes and the searcher has bounds.
    pub(super) star: Option<Star>,
}

/// The buffers of one ply of the search, reused by every node at that ply. The loop hands each node the plies
/// from its own down as a slice, so that a node takes its buffers by splitting the slice, with no copy in or out;
/// below the slice's end, blocks of spare plies kept in the searcher take over ([`Searcher::with_spare_plies`]).
/// Once the deepest ply has been reached there is no allocation per node.
pub(super) struct Ply<G: Game> {
    /// The moves of the decision node.
    pub(super) moves: Vec<G::Move>,
    /// The outcomes of the chance node.
    pub(super) outcomes: Vec<(G::Move, f64)>,
    /// Star pruning's bounds on each outcome of the chance node.
    pub(super) outcome_bounds: Vec<(Value, Value)>,
}

impl<G: Game> Default for Ply<G> {
    fn default() -> Self {
        Ply { moves: Vec::new(), outcomes: Vec::new(), outcome_bounds: Vec::new() }
    }
}

/// The plies a search starts with at least, and the plies of a spare block: deeper than most games khela
/// searches to their end, so that a search seldom needs a spare block (a Nim heap of more, or long quiescence,
/// may).
pub(super) const PLIES: usize = 128;

/// The search loop with its ordering, cache, observer and horizon.
///
/// `O` is an [`Orderer`] ([`crate::Natural`], [`crate::MoveOrdering`] to choose at run time, …), `C` a
/// [`Cache`] (`()` for none, [`crate::Memo`] for memoized minimax, a [`khela_tt::Table`]) and `V` an
/// [`Observer`] (`()` for none, [`crate::Trace`] for the textbook trace). All three are type parameters, so the
/// plain search pays nothing for them.
pub struct Searcher<'g, G: Game, O, C = (), V = ()> {
    pub(super) game: &'g G,
    pub(super) order: O,
    pub(super) cache: C,
    pub(super) observer: V,
    pub(super) horizon: Horizon<G>,
    /// Bounds on every value the search can meet (leaves and evaluations), MAX's view, for star pruning.
    pub(super) bounds: Option<(Value, Value)>,
    /// The plies iterative deepening adds from one iteration to the next.
    pub(super) deepening_step: NonZeroU32,
    pub(super) track: Track<G::Move>,
    /// The buffers of every ply, lent to the search loop while it runs (empty then).
    pub(super) plies: Vec<Ply<G>>,
    /// Blocks of spare plies for nodes deeper than the lent plies, one for each level of nesting reached (see
    /// [`Searcher::with_spare_plies`]), kept from node to node and run to run.
    pub(super) spare_plies: Vec<Vec<Ply<G>>>,
    /// In a game whose positions repeat ([`Game::cycles`]): the keys of the line of play before the node being
    /// searched, the game's history before the root ([`Searcher::with_history`]) first.
    pub(super) line: Vec<u64>,
}

impl<'g, G: Game, O: Orderer<G>> Searcher<'g, G, O> {
    /// A searcher with the given ordering, no cache, no observer and no horizon.
    pub fn new(game: &'g G, order: O) -> Self {
        Searcher {
            game,
            order,
            cache: (),
            observer: (),
            horizon: Horizon::default(),
            bounds: None,
            deepening_step: NonZeroU32::MIN,
            track: Track {
                stats: Stats::default(),
                root_best: None,
                horizon_hits: 0,
                line_draws: 0,
                plies_wanted: PLIES,
                plies_step: PLIES,
                met_chance: false,
                star: None,
            },
            plies: Vec::new(),
            spare_plies: Vec::new(),
            line: Vec::new(),
        }
    }
}

impl<'g, G: Game, O: Orderer<G>, C: Cache<G>, V: Observer<G>> Searcher<'g, G, O, C, V> {
    /// The same searcher with a cache.
    pub fn with_cache<C2: Cache<G>>(self, cache: C2) -> Searcher<'g, G, O, C2, V> {
        self.with_parts(|_, observer| (cache, observer))
    }

    /// The same searcher with an observer.
    pub fn with_observer<V2: Observer<G>>(self, observer: V2) -> Searcher<'g, G, O, C, V2> {
        self.with_parts(|cache, _| (cache, observer))
    }

    /// The same searcher with its cache and observer replaced by what `parts` makes of them.
    fn with_parts<C2: Cache<G>, V2: Observer<G>>(
        self,
        parts: impl FnOnce(C, V) -> (C2, V2),
    ) -> Searcher<'g, G, O, C2, V2> {
        let Searcher { game, order, cache, observer, horizon, bounds, deepening_step, track, plies, spare_plies, line } =
            self;
        let (cache, observer) = parts(cache, observer);
        Searcher { game, order, cache, observer, horizon, bounds, deepening_step, track, plies, spare_plies, line }
    }

    /// The same searcher told the game's history before the roots it will search: the keys of the positions
    /// played, from the game's start, the root's own excluded. In a game whose positions repeat ([`Game::cycles`])
    /// a move back to one of them is a draw, and the plies played count towards the length cap; other games
    /// ignore it.
    pub fn with_history(mut self, keys: Vec<u64>) -> Self {
        self.line = keys;
        self
    }

    /// The same searcher with `horizon` for its depth-limited searches.
    pub fn with_horizon(mut self, horizon: Horizon<G>) -> Self {
        self.horizon = horizon;
        self
    }

    /// The same searcher with an evaluator: the value of a non-terminal node at the horizon of a depth-limited
    /// search ([`Searcher::run_to_depth`], iterative deepening) and MTD(f)'s first guess.
    pub fn with_evaluator(mut self, evaluate: EvalFn<G>) -> Self {
        self.horizon.evaluate = Some(evaluate);
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
        self.horizon.proof_bound = bound;
        self
    }

    /// The same searcher with quiescence search: at the horizon, a decision node with noisy moves is not
    /// evaluated but searched, over its noisy moves only, and so on until the position is quiet (has none).
    /// The noisy moves are forcing (a win, a block): there is no "stand pat", the mover must play one of them.
    pub fn with_quiescence(mut self, noisy: Noisy<G>) -> Self {
        self.horizon.noisy = Some(noisy);
        self
    }

    /// The same searcher with bounds, from MAX's view, on every value it can meet: terminal payoffs and
    /// evaluations. [`Algorithm::Star1`] and [`Algorithm::Star2`] prune chance nodes with them, and so do the
    /// iterations of [`Algorithm::IterativeDeepening`] (as Star2's); a value outside them makes those searches
    /// wrong.
    ///
    /// # Panics
    ///
    /// If the bounds are not finite or `lo > hi`.
    pub fn with_bounds(mut self, lo: Value, hi: Value) -> Self {
        assert!(lo.is_finite() && hi.is_finite() && lo <= hi, "value bounds must be finite, lo ≤ hi: {lo}, {hi}");
        self.bounds = Some((lo, hi));
        self
    }

    /// The same searcher deepening by `step` plies from one iteration of [`Algorithm::IterativeDeepening`] to
    /// the next (one by default), the last iteration at the depth asked for: by two to depth 6, iterations 2, 4
    /// and 6; to depth 7, 1, 3, 5 and 7. Every iteration's horizon then falls on the same side to move as the
    /// last one's, against the odd–even effect of evaluators whose estimates favour one side by the side to move.
    pub fn with_deepening_step(mut self, step: NonZeroU32) -> Self {
        self.deepening_step = step;
        self
    }

    /// The cache (for instance, to count the states a memo solved).
    pub fn cache(&self) -> &C {
        &self.cache
    }

    /// The cache, to change (for instance, to zero its counters between searches).
    pub fn cache_mut(&mut self) -> &mut C {
        &mut self.cache
    }

    /// The cache, taken out of the searcher (for instance, to keep a transposition table for the next search).
    pub fn into_cache(self) -> C {
        self.cache
    }

    /// The observer (for instance, to read a trace).
    pub fn observer(&self) -> &V {
        &self.observer
    }

    /// Searches `state` with the algorithm to the end of the game. The counters start from zero; the cache, the
    /// observer and a learning ordering keep what earlier runs left in them.
    pub fn run(&mut self, algorithm: Algorithm, state: &G::State) -> SearchResult<G::Move> {
        self.run_to_depth(algorithm, state, UNLIMITED)
    }

    /// Searches `state` with the algorithm, `depth` decision plies deep (chance plies do not count): a
    /// non-terminal node `depth` plies down is a leaf valued by the evaluator (or, with quiescence, searched over
    /// its noisy moves until quiet). A terminal node is a terminal node at any depth: the terminal test comes
    /// before the depth test, so a won position is never estimated. [`UNLIMITED`] is [`Searcher::run`].
    ///
    /// Iterative deepening searches to depth 1, 2, … up to `depth` (by the searcher's deepening step,
    /// [`Searcher::with_deepening_step`]), and stops early when an iteration meets no horizon (it was exact).
    ///
    /// In a game whose positions repeat ([`Game::cycles`]), a position repeated on the line of play and the
    /// length cap are draws, and count as horizons: the value is that of a depth-limited search, never exact.
    ///
    /// # Panics
    ///
    /// If the search reaches its horizon at a non-terminal node and the searcher has no evaluator; and if the
    /// game's positions repeat and `depth` is [`UNLIMITED`]: such a game has no exact value by search (retrograde
    /// analysis gives it), and a search without a horizon would only meet the length cap.
    pub fn run_to_depth(&mut self, algorithm: Algorithm, state: &G::State, depth: u32) -> SearchResult<G::Move> {
        // Horizons at or beyond the depth that marks complete table entries could not be told from them; no game
        // khela searches is that long, so such a limit is no limit.
        let depth = if depth >= COMPLETE { UNLIMITED } else { depth };
        assert!(
            depth != UNLIMITED || self.game.cycles().is_none(),
            "exact search of a game whose positions repeat needs a depth: its exact values come from retrograde analysis"
        );
        self.track.stats = Stats::default();
        self.track.root_best = None;
        self.track.star = match (algorithm, self.bounds) {
            (Algorithm::Star1, Some(bounds)) => Some(Star { bounds, probe: false }),
            // Iterative deepening's iterations are Star2's where the values are bounded (a game with dice).
            (Algorithm::Star2 | Algorithm::IterativeDeepening, Some(bounds)) => Some(Star { bounds, probe: true }),
            _ => None,
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
        SearchResult { value, best: self.track.root_best, stats: self.track.stats }
    }
}

impl<G: Game, O, C, V> Searcher<'_, G, O, C, V> {
    /// Runs `f` with plies of their own for the node at `ply`, which is deeper than the plies lent to the search
    /// reach: a block of spare plies, kept from earlier or made now, given back after (so a node on the block's
    /// boundary allocates once, not each time); and the next search starts with enough plies to need none.
    pub(super) fn with_spare_plies<R>(&mut self, ply: usize, f: impl FnOnce(&mut Self, &mut [Ply<G>]) -> R) -> R {
        let step = self.track.plies_step;
        self.track.plies_wanted = self.track.plies_wanted.max(ply + step);
        let mut block = self.spare_plies.pop().unwrap_or_default();
        if block.len() < step {
            block.resize_with(step, Ply::default);
        }
        let result = f(self, &mut block);
        self.spare_plies.push(block);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Memo, Natural};
    use khela_games::chance_tree::{ChanceTree, Params};
    use khela_games::nim::{Heaps, Nim};
    use khela_games::{Game, Player};

    /// Runs `algorithm` on `root` twice with a searcher whose nodes below the root all lie on a spare block's
    /// boundary at first (one ply lent, blocks of one ply), and once with a plain one: the buffers a node gets
    /// change nothing a search finds or counts. The second run is lent enough plies to need no spare block.
    fn spare_plies_change_nothing<G: Game>(game: &G, root: &G::State, algorithm: Algorithm, bounds: (Value, Value))
    where
        G::Move: PartialEq,
    {
        let memo = || Memo::new();
        let expected =
            Searcher::new(game, Natural).with_cache(memo()).with_bounds(bounds.0, bounds.1).run(algorithm, root);
        let mut searcher = Searcher::new(game, Natural).with_cache(memo()).with_bounds(bounds.0, bounds.1);
        (searcher.track.plies_wanted, searcher.track.plies_step) = (1, 1);
        assert_eq!(searcher.run(algorithm, root), expected, "{algorithm:?}, one ply lent");
        let (blocks, wanted) = (searcher.spare_plies.len(), searcher.track.plies_wanted);
        assert!(blocks > 1 && wanted > 1, "{algorithm:?} went below the lent ply: {blocks} blocks, {wanted} wanted");
        *searcher.cache_mut() = memo();
        assert_eq!(searcher.run(algorithm, root), expected, "{algorithm:?}, enough plies lent");
        assert_eq!(searcher.plies.len(), wanted, "{algorithm:?}: the second run is lent the plies the first wanted");
        assert_eq!(searcher.spare_plies.len(), blocks, "{algorithm:?}: the second run needs no new spare block");
    }

    #[test]
    fn spare_plies_change_nothing_in_decision_and_chance_trees() {
        // A Nim line of 12 plies, and a chance tree whose Star2 probes reach below their chance node's ply.
        let heaps = Heaps { heaps: vec![5, 4, 3], to_move: Player::Max };
        for algorithm in [Algorithm::AlphaBeta, Algorithm::NegaScout, Algorithm::MtdF] {
            spare_plies_change_nothing(&Nim, &heaps, algorithm, (-1.0, 1.0));
        }
        let mut probed = false;
        for seed in 0..4 {
            let tree = ChanceTree::new(Params { b: 3, k: 3, d: 4, seed, lo: 0, hi: 99 }).unwrap();
            for algorithm in [Algorithm::Minimax, Algorithm::Star1, Algorithm::Star2] {
                spare_plies_change_nothing(&tree, &ChanceTree::ROOT, algorithm, (0.0, 99.0));
            }
            let stats = |algorithm| {
                Searcher::new(&tree, Natural).with_bounds(0.0, 99.0).run(algorithm, &ChanceTree::ROOT).stats
            };
            probed |= stats(Algorithm::Star2) != stats(Algorithm::Star1);
        }
        assert!(probed, "on some tree Star2's probes change what it visits, so skipping one would show");
    }
}
