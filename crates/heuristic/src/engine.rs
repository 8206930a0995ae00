//! Depth-limited search: the exact crate's search loop with a horizon, the evaluator at the frontier, a
//! transposition table, evaluator ordering near the root, and quiescence.

use crate::heuristic::{Heuristic, child_estimate};
use khela_exact::{Algorithm, Bound, Cache, Observer, SearchConfig, SearchResult, Shallow, Stats, Tactical};
use khela_games::{Evaluator, Game, Node, Player, Value};
use khela_tt::Table;
use std::cell::Cell;
use std::ops::ControlFlow;

/// The plies from the root at which an engine sorts children by the evaluator, for a game without its own move
/// order (the history heuristic below).
pub const SORTED_PLIES: usize = 2;

/// The same for a game with its own move order ([`Game::has_move_order`]): the root only, the game's order below.
/// On Connect-4 the evaluator's sort one ply down costs more than it saves, in about as many nodes (measured
/// against the `minimax` crate: see docs/src/measured-choices.md, 'Depth-limited engine and evaluators').
pub const SORTED_PLIES_WITH_GAME_ORDER: usize = 1;

/// The result of a depth-limited search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// The depth-limited value of the position, MAX's view, on the evaluator's scale.
    pub value: Value,
    /// The move chosen (`None` at a terminal or chance position, or at depth 0).
    pub best: Option<M>,
    /// The principal variation: the chosen move, the best reply, and so on to the horizon (the chosen move alone
    /// when an observer stopped the deepening).
    pub pv: Vec<M>,
    /// The depth searched: the configured one, or that of the last iteration of iterative deepening when it
    /// stopped early (the iteration met no horizon and is exact, or the observer stopped the deepening).
    pub depth: u32,
    /// The counters of the search (the principal variation's searches, where the table does not give it, not
    /// included).
    pub stats: Stats,
}

/// One move of [`Engine::analyse`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Its depth-limited value, MAX's view, on the evaluator's scale.
    pub value: Value,
    /// The counters of its search.
    pub stats: Stats,
}

/// A depth-limited searcher: a game, an evaluator, a [`SearchConfig`] and a transposition table kept between
/// searches.
///
/// The configuration's algorithm (usually [`Algorithm::IterativeDeepening`], as
/// [`SearchConfig::depth_limited`] gives it) chooses the move; its depth counts the move being chosen as the
/// first ply (depth 2 is the mover's move and the reply, then the evaluator); its table, if it has one, is kept
/// from one search to the next, as engines do. A fresh engine's value is that of plain alpha-beta to the same
/// depth. A kept table can change it: an entry a deeper search proved exact (it met no horizon) answers a later
/// search of the position with fewer plies left, where plain alpha-beta would stop at the horizon. Searching
/// every tic-tac-toe position at depths 1 to 9 with one engine per depth, kept from position to position, 90
/// values differ from plain alpha-beta's (84 deepening by one ply instead of the evaluator's two); with a fresh
/// engine for each, none. Iterative deepening deepens by the evaluator's [`Evaluator::deepening_step`] unless
/// the configuration says otherwise.
/// Children are sorted by the evaluator at the root and below by the game's own move order
/// ([`Game::order_moves`]: Connect-4's threats) if it has one ([`SORTED_PLIES_WITH_GAME_ORDER`]); for a game
/// without, by the evaluator at the first [`SORTED_PLIES`] plies and by the history heuristic below.
///
/// ```
/// use khela_exact::SearchConfig;
/// use khela_games::tictactoe::{Board, TicTacToe};
/// use khela_heuristic::Engine;
/// use khela_heuristic::tictactoe::OpenLines;
/// let mut engine = Engine::new(&TicTacToe, &OpenLines, SearchConfig::depth_limited(2));
/// let analysis = engine.search(&Board::EMPTY);
/// assert_eq!((analysis.value, analysis.best), (1.0, Some(4))); // The centre, worth 1 after O's best reply.
/// ```
pub struct Engine<'a, G: Game, E> {
    game: Heuristic<'a, G, E>,
    config: SearchConfig,
    table: Option<Table<G::Move>>,
    history: Vec<u64>,
}

impl<'a, G: Game, E: Evaluator<G>> Engine<'a, G, E> {
    /// An engine for `game` with `evaluator`, searching as `config` says.
    /// Where the configuration has no bounds for star pruning, the evaluator's [`Evaluator::value_range`] is
    /// taken (in a game with dice, iterative deepening then prunes chance nodes as Star2); where it has no
    /// deepening step, the evaluator's [`Evaluator::deepening_step`].
    pub fn new(game: &'a G, evaluator: &'a E, config: SearchConfig) -> Self {
        let config = SearchConfig {
            bounds: config.bounds.or(evaluator.value_range()),
            deepening_step: config.deepening_step.or(Some(evaluator.deepening_step())),
            ..config
        };
        Engine { game: Heuristic::new(game, evaluator), config, table: config.table(), history: Vec::new() }
    }

    /// Tells the engine the game's history before the positions it will search next: the keys of the positions
    /// played, from the game's start (the searched position's own excluded). In a game whose positions repeat,
    /// a move back to one of them is a draw and the plies count towards the length cap
    /// ([`khela_games::Cycles`]); other games ignore it.
    pub fn set_history(&mut self, keys: Vec<u64>) {
        self.history = keys;
    }

    /// The game seen through the evaluator (terminal values on the evaluator's scale).
    pub fn heuristic(&self) -> &Heuristic<'a, G, E> {
        &self.game
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Searches `state` to the configured depth: its value, the move chosen and the principal variation.
    pub fn search(&mut self, state: &G::State) -> Analysis<G::Move> {
        self.search_observed(state, ())
    }

    /// [`Engine::search`], with `observer` watching the search of the move (for instance, a progress report of
    /// each iteration of iterative deepening: [`Observer::deepened`]).
    pub fn search_observed<V: Observer<Heuristic<'a, G, E>>>(
        &mut self,
        state: &G::State,
        observer: V,
    ) -> Analysis<G::Move> {
        let (reached, stopped) = (Cell::new(self.config.depth), Cell::new(false));
        let history = std::mem::take(&mut self.history);
        let observed = Reached { observer, depth: &reached, stopped: &stopped };
        let result = self.run(self.config.algorithm, state, self.config.depth, &history, observed);
        let depth = reached.get();
        let mut pv = Vec::new();
        let mut line = history.clone();
        if let Some(best) = result.best {
            pv.push(best);
        }
        // The principal variation past the first move, ply by ply: the table's best move where its entry holds
        // the position's value, exact to the plies left, and otherwise a search of the position again; not when
        // the observer stopped the deepening (its caller wants no more search).
        if let (Some(best), false) = (result.best, stopped.get()) {
            line.push(self.game.repetition_key(state));
            let (mut position, mut left) = (self.game.child(state, best), depth.saturating_sub(1));
            while left > 0
                && let Node::Decision(_) = self.game.node(&position)
                && !self.drawn(&line, &position)
                && let Some(reply) = self
                    .kept_reply(&position, left, result.value)
                    .or_else(|| self.run(Algorithm::AlphaBeta, &position, left, &line, ()).best)
            {
                pv.push(reply);
                line.push(self.game.repetition_key(&position));
                self.game.play(&mut position, reply);
                left -= 1;
            }
        }
        self.history = history;
        Analysis { value: result.value, best: result.best, pv, depth, stats: result.stats }
    }

    /// The depth-limited value of every move of decision node `state`, in natural order: each child searched
    /// to the configured depth less one (the move itself is the first ply). Empty at other nodes.
    pub fn analyse(&mut self, state: &G::State) -> Vec<MoveValue<G::Move>> {
        if !matches!(self.game.node(state), Node::Decision(_)) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.moves(state, &mut moves);
        moves.into_iter().map(|mv| self.value_move(state, mv)).collect()
    }

    /// The depth-limited value of the move `mv` of decision node `state`: its child searched to the configured
    /// depth less one, as [`Engine::analyse`] values every move. A move that the game's cycle rules make a draw
    /// (a repetition of the history, the length cap) is worth a draw, as the search of `state` counts it.
    pub fn value_move(&mut self, state: &G::State, mv: G::Move) -> MoveValue<G::Move> {
        let depth = self.config.depth.saturating_sub(1);
        let mut line = std::mem::take(&mut self.history);
        line.push(self.game.repetition_key(state));
        let child = self.game.child(state, mv);
        let result = if self.drawn(&line, &child) {
            SearchResult { value: 0.0, best: None, stats: Stats { nodes: 1, leaves: 1, cutoffs: 0 } }
        } else {
            self.run(Algorithm::AlphaBeta, &child, depth, &line, ())
        };
        line.pop();
        self.history = line;
        MoveValue { mv, value: result.value, stats: result.stats }
    }

    /// The best move the table keeps for `state`, if its entry holds `value` (MAX's view) as the exact value of
    /// a search to `depth` plies or deeper (or to the end) and the move is legal there: the next move of a
    /// principal variation of that value, found without a search.
    fn kept_reply(&mut self, state: &G::State, depth: u32, value: Value) -> Option<G::Move> {
        let table = self.table.as_mut()?;
        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
        let probe = Cache::probe(table, &self.game, state, Player::Max, depth, lo, hi);
        let reply = probe.best.filter(|_| probe.value == Some(value))?;
        let mut moves = Vec::new();
        self.game.moves(state, &mut moves);
        moves.contains(&reply).then_some(reply)
    }

    /// Whether the game's cycle rules make `state`, reached after the positions `line`, a draw (it is not over).
    fn drawn(&self, line: &[u64], state: &G::State) -> bool {
        self.game.cycles().is_some_and(|cycles| {
            !matches!(self.game.node(state), Node::Terminal(_)) && cycles.draws(line, self.game.repetition_key(state))
        })
    }

    /// One search of the exact crate's loop over the heuristic game, with `algorithm` to `depth` after the line
    /// `history` and the rest of the configuration: the evaluator at the horizon (and its noisy moves, with
    /// quiescence), its final proofs, the engine's ordering and its table.
    fn run<V: Observer<Heuristic<'a, G, E>>>(
        &mut self,
        algorithm: Algorithm,
        state: &G::State,
        depth: u32,
        history: &[u64],
        observer: V,
    ) -> SearchResult<G::Move> {
        let config = SearchConfig { algorithm, depth, ..self.config };
        let horizon = self.game.horizon();
        let plies = if self.game.has_move_order() { SORTED_PLIES_WITH_GAME_ORDER } else { SORTED_PLIES };
        let order = Tactical::new(Shallow::new(child_estimate::<G, E>, plies).with_game_order(&self.game), &self.game);
        let mut searcher =
            config.searcher(&self.game, order, horizon).with_observer(observer).with_history(history.to_vec());
        match self.table.take() {
            Some(table) => {
                let mut searcher = searcher.with_cache(table);
                let result = searcher.run_to_depth(algorithm, state, depth);
                self.table = Some(searcher.into_cache());
                result
            }
            None => searcher.run_to_depth(algorithm, state, depth),
        }
    }
}

/// Forwards everything to `observer`, noting the depth of each iteration of iterative deepening done and
/// whether the observer stopped the deepening.
struct Reached<'c, V> {
    observer: V,
    depth: &'c Cell<u32>,
    stopped: &'c Cell<bool>,
}

impl<G: Game, V: Observer<G>> Observer<G> for Reached<'_, V> {
    const ACTIVE: bool = V::ACTIVE;

    fn deepened(&mut self, depth: u32, value: Value, stats: &Stats) -> ControlFlow<()> {
        self.depth.set(depth);
        let flow = self.observer.deepened(depth, value, stats);
        self.stopped.set(flow.is_break());
        flow
    }

    fn backed_up(&mut self, game: &G, state: &G::State, value: Value, bound: Bound) {
        self.observer.backed_up(game, state, value, bound);
    }

    fn pruned(&mut self, game: &G, state: &G::State, moves: &[G::Move]) {
        self.observer.pruned(game, state, moves);
    }
}
