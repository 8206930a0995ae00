//! Depth-limited search: the exact crate's search loop with a horizon, the evaluator at the frontier, a
//! transposition table, evaluator ordering near the root, and quiescence.

use crate::{Evaluator, Heuristic};
use khela_exact::{Algorithm, Ordering, Searcher, Stats};
use khela_games::{Game, Node, Value};
use khela_tt::{Policy, Table};

/// How deep and how an [`Engine`] searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Plies searched from the position given, the move being chosen included: depth 2 is the mover's move and
    /// the reply, then the evaluator. Chance plies do not count.
    pub depth: u32,
    /// Quiescence search: past the horizon, keep playing the evaluator's noisy moves until the position is
    /// quiet.
    pub quiescence: bool,
    /// The search: [`Algorithm::IterativeDeepening`] (the default) or any other algorithm of the exact crate,
    /// run to the depth at once; [`Algorithm::Star1`]/[`Algorithm::Star2`] prune chance nodes with `bounds`.
    pub algorithm: Algorithm,
    /// Bounds, MAX's view, on every value the search meets (terminal values on the evaluator's scale and
    /// estimates), for star pruning; `None` for none.
    pub bounds: Option<(Value, Value)>,
    /// The transposition table's size in MiB (0 for a table of one entry). It is kept from one search to the
    /// next, as engines do: it changes node counts, never values.
    pub table_mib: usize,
    /// Children are sorted by the evaluator at this many plies from the root, by the history heuristic below.
    pub ordering_plies: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            depth: 4,
            quiescence: false,
            algorithm: Algorithm::IterativeDeepening,
            bounds: None,
            table_mib: 16,
            ordering_plies: 2,
        }
    }
}

/// The result of a depth-limited search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// The depth-limited value of the position, MAX's view, on the evaluator's scale.
    pub value: Value,
    /// The move chosen (`None` at a terminal or chance position, or at depth 0).
    pub best: Option<M>,
    /// The principal variation: the chosen move, the best reply, and so on to the horizon.
    pub pv: Vec<M>,
    /// The counters of the search (the principal variation's re-searches not included).
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

/// A depth-limited searcher: a game, an evaluator, options and a transposition table kept between searches.
///
/// ```
/// use khela_games::tictactoe::{Board, TicTacToe};
/// use khela_heuristic::tictactoe::OpenLines;
/// use khela_heuristic::{Engine, Options};
/// let mut engine = Engine::new(&TicTacToe, &OpenLines, Options { depth: 2, ..Options::default() });
/// let analysis = engine.search(&Board::EMPTY);
/// assert_eq!((analysis.value, analysis.best), (1.0, Some(4))); // The centre, worth 1 after O's best reply.
/// ```
pub struct Engine<'a, G: Game, E> {
    game: Heuristic<'a, G, E>,
    options: Options,
    table: Option<Table<G::Move>>,
}

impl<'a, G: Game, E: Evaluator<G>> Engine<'a, G, E> {
    /// An engine for `game` with `evaluator`.
    pub fn new(game: &'a G, evaluator: &'a E, options: Options) -> Self {
        let table = Some(Table::with_mib(options.table_mib, Policy::TwoTier));
        Engine { game: Heuristic::new(game, evaluator), options, table }
    }

    /// The game seen through the evaluator (terminal values on the evaluator's scale).
    pub fn heuristic(&self) -> &Heuristic<'a, G, E> {
        &self.game
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Searches `state` to the options' depth: its value, the move chosen and the principal variation.
    pub fn search(&mut self, state: &G::State) -> Analysis<G::Move> {
        let depth = self.options.depth;
        let result = self.run(self.options.algorithm, state, depth);
        let mut pv = Vec::new();
        if let Some(best) = result.best {
            pv.push(best);
            let (mut position, mut left) = (self.game.child(state, best), depth.saturating_sub(1));
            while left > 0
                && let Node::Decision(_) = self.game.node(&position)
                && let Some(reply) = self.run(Algorithm::AlphaBeta, &position, left).best
            {
                pv.push(reply);
                self.game.play(&mut position, reply);
                left -= 1;
            }
        }
        Analysis { value: result.value, best: result.best, pv, stats: result.stats }
    }

    /// The depth-limited value of every move of decision node `state`, in natural order: each child searched
    /// to the options' depth less one (the move itself is the first ply). Empty at other nodes.
    pub fn analyse(&mut self, state: &G::State) -> Vec<MoveValue<G::Move>> {
        if !matches!(self.game.node(state), Node::Decision(_)) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.moves(state, &mut moves);
        let depth = self.options.depth.saturating_sub(1);
        moves
            .into_iter()
            .map(|mv| {
                let result = self.run(Algorithm::AlphaBeta, &self.game.child(state, mv), depth);
                MoveValue { mv, value: result.value, stats: result.stats }
            })
            .collect()
    }

    /// One search of the exact crate's loop over the heuristic game, with the table, ordering and quiescence of
    /// the options.
    fn run(&mut self, algorithm: Algorithm, state: &G::State, depth: u32) -> khela_exact::SearchResult<G::Move> {
        let ordering = Ordering::Shallow { evaluate: child_estimate::<G, E>, plies: self.options.ordering_plies };
        let mut searcher = Searcher::new(&self.game, ordering).with_evaluator(estimate::<G, E>);
        if self.game.evaluator.proofs_are_final() {
            searcher = searcher.with_final_proofs(self.game.evaluator.bound());
        }
        if self.options.quiescence {
            searcher = searcher.with_quiescence(noisy::<G, E>);
        }
        if let Some((lo, hi)) = self.options.bounds {
            searcher = searcher.with_bounds(lo, hi);
        }
        let table = self.table.take().expect("the engine owns its table between searches");
        let mut searcher = searcher.with_cache(table);
        let result = searcher.run_to_depth(algorithm, state, depth);
        self.table = Some(searcher.into_cache());
        result
    }
}

/// The evaluator at the horizon.
fn estimate<G: Game, E: Evaluator<G>>(game: &Heuristic<'_, G, E>, state: &G::State) -> Value {
    game.evaluator.evaluate(game.game, state)
}

/// The value a child is sorted by: its terminal value if the game is over there, else its estimate.
fn child_estimate<G: Game, E: Evaluator<G>>(game: &Heuristic<'_, G, E>, state: &G::State) -> Value {
    match game.node(state) {
        Node::Terminal(value) => value,
        _ => estimate(game, state),
    }
}

/// The evaluator's noisy moves, for quiescence.
fn noisy<G: Game, E: Evaluator<G>>(game: &Heuristic<'_, G, E>, state: &G::State, moves: &mut Vec<G::Move>) {
    game.evaluator.noisy(game.game, state, moves)
}
