//! How to search: the one configuration every search is built from — the harness's runs, the heuristic
//! engine — and the functions that search as a configuration says.

use super::searcher::{SearchResult, Searcher};
use crate::algorithm::Algorithm;
use crate::horizon::{Horizon, UNLIMITED};
use crate::orderer::{Natural, Orderer};
use khela_games::{Game, Value};
use khela_tt::{Replacement, Table};
use std::num::NonZeroU32;

/// How to search, whatever the game: the algorithm, how deep, quiescence, the bounds star pruning needs, the
/// transposition table and iterative deepening's step. What is particular to a game — the ordering and the
/// [`Horizon`]'s functions — is given beside it ([`SearchConfig::searcher`], [`search`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Decision plies searched ([`UNLIMITED`]: to the end of the game); the horizon's evaluator values the
    /// nodes this deep.
    pub depth: u32,
    /// Quiescence: past the horizon, the horizon's noisy moves are searched until the position is quiet.
    pub quiescence: bool,
    /// Bounds `(lo, hi)` on every value the search meets, MAX's view, for star pruning
    /// ([`Searcher::with_bounds`]); `None` makes Star1 and Star2 alpha-beta.
    pub bounds: Option<(Value, Value)>,
    /// The transposition table (two-tier replacement): its size in MiB, 0 for a table of one entry (every
    /// store replaces the last: a stress test of the bounds it hands back), `None` for no table. MTD(f) and
    /// iterative deepening keep their memory between passes in it; without one they search again what they
    /// searched before.
    pub table_mib: Option<usize>,
    /// The plies iterative deepening adds from one iteration to the next, the last iteration at `depth` (by two
    /// to depth 6: 2, 4, 6; to depth 7: 1, 3, 5, 7); `None` for one, or in a depth-limited engine its
    /// evaluator's [`khela_games::Evaluator::deepening_step`].
    pub deepening_step: Option<NonZeroU32>,
}

impl Default for SearchConfig {
    /// Alpha-beta to the end of the game, without a table.
    fn default() -> Self {
        SearchConfig {
            algorithm: Algorithm::AlphaBeta,
            depth: UNLIMITED,
            quiescence: false,
            bounds: None,
            table_mib: None,
            deepening_step: None,
        }
    }
}

impl SearchConfig {
    /// A depth-limited search as engines run it: iterative deepening to `depth` plies with a 16 MiB table.
    pub fn depth_limited(depth: u32) -> Self {
        SearchConfig { algorithm: Algorithm::IterativeDeepening, depth, table_mib: Some(16), ..SearchConfig::default() }
    }

    /// A searcher for `game` set up as this configuration says, with `order` and `horizon`: the horizon says
    /// what its noisy moves are, [`SearchConfig::quiescence`] whether they are played. Its table, if any, is
    /// [`SearchConfig::table`].
    pub fn searcher<'g, G: Game, O: Orderer<G>>(
        &self,
        game: &'g G,
        order: O,
        horizon: Horizon<G>,
    ) -> Searcher<'g, G, O> {
        let noisy = if self.quiescence { horizon.noisy } else { None };
        let searcher = Searcher::new(game, order)
            .with_horizon(Horizon { noisy, ..horizon })
            .with_deepening_step(self.deepening_step.unwrap_or(NonZeroU32::MIN));
        match self.bounds {
            Some((lo, hi)) => searcher.with_bounds(lo, hi),
            None => searcher,
        }
    }

    /// A fresh transposition table of the configured size, if the configuration has one.
    pub fn table<M: Copy>(&self) -> Option<Table<M>> {
        self.table_mib.map(|mib| Table::with_mib(mib, Replacement::TwoTier))
    }
}

/// Searches `root` as `config` says, with `order`, `horizon` and a fresh table of the configured size (if any).
///
/// ```
/// use khela_exact::{Algorithm, Horizon, Natural, SearchConfig, search};
/// use khela_games::tictactoe::{Board, TicTacToe};
/// let config = SearchConfig { algorithm: Algorithm::MtdF, table_mib: Some(1), ..SearchConfig::default() };
/// assert_eq!(search(&TicTacToe, &Board::EMPTY, Natural, Horizon::default(), &config).value, 0.0);
/// ```
pub fn search<G: Game, O: Orderer<G>>(
    game: &G,
    root: &G::State,
    order: O,
    horizon: Horizon<G>,
    config: &SearchConfig,
) -> SearchResult<G::Move> {
    let mut searcher = config.searcher(game, order, horizon);
    let SearchConfig { algorithm, depth, .. } = *config;
    match config.table() {
        Some(table) => searcher.with_cache(table).run_to_depth(algorithm, root, depth),
        None => searcher.run_to_depth(algorithm, root, depth),
    }
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
    let mut searcher = Searcher::new(game, Natural);
    moves.into_iter().map(|mv| (mv, searcher.run(algorithm, &game.child(state, mv)).value)).collect()
}
