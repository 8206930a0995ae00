//! Connect-4 in the harness: on the standard board or any size, with the threat evaluator, counted ply by ply
//! against the published counts, solved exactly by the solver of `khela-exact` (its command-line side in
//! [`solve`]).

mod solve;

use super::entry::{Entry, Exact, GameArgs, GameName, OwnSolve, Published, Scale, SetRun, View};
use crate::net::{self, GuideOf};
use anyhow::Result;
use khela_games::connect4::{Connect4, Position};
use khela_heuristic::connect4::Threats;
use std::path::Path;

/// Connect-4 move sequences from the empty 7×6 board, plies 0..=11 (perft).
const SEQUENCES: [u64; 12] = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572, 268031646, 1844590828];

/// Distinct 7×6 Connect-4 positions after n plies, n = 0..=26 (OEIS A212693).
const POSITIONS: [u64; 27] = [
    1,
    7,
    49,
    238,
    1120,
    4263,
    16422,
    54859,
    184275,
    558186,
    1662623,
    4568683,
    12236101,
    30929111,
    75437595,
    176541259,
    394591391,
    858218743,
    1763883894,
    3568259802,
    6746155945,
    12673345045,
    22010823988,
    38263228189,
    60830813459,
    97266114959,
    140728569039,
];

/// Growth of the sequence count per ply beyond the table (the last ratio is 6.88 and falling).
const SEQUENCE_GROWTH: f64 = 6.9;

/// The softmax unit of the Connect-4 prior: a two-stone window (3), a little under the difference between the
/// center column (7) and the edges (3) on the empty board, which gives the center 3.8 times an edge's prior;
/// an immediate win (estimated beyond the bound) takes almost all of it.
const PRIOR_UNIT: f64 = 3.0;

/// Connect-4's entry: the board of the options.
pub struct Connect4Entry {
    game: Connect4,
}

impl Entry for Connect4Entry {
    type Game = Connect4;
    type Evaluator = Threats;

    fn new(args: &GameArgs) -> Result<Self> {
        args.refuse_options("Connect-4", &["--width", "--height"])?;
        let width = args.width.unwrap_or(Connect4::STANDARD_WIDTH);
        let height = args.height.unwrap_or(Connect4::STANDARD_HEIGHT);
        Ok(Connect4Entry { game: Connect4::new(width, height)? })
    }

    fn game(&self) -> &Connect4 {
        &self.game
    }

    fn guide(&self, path: &Path, _: &str) -> Result<GuideOf<'_, Connect4>> {
        net::guide(self.game(), GameName::Connect4.into(), path)
    }

    fn title(&self) -> String {
        format!("Connect-4 {}", self.game)
    }

    fn notation(&self) -> &'static str {
        "the columns played, 1-based, like 4453"
    }

    /// The empty move string is `the empty board`.
    fn name_position(&self, text: &str) -> String {
        if text.is_empty() { "the empty board".to_string() } else { text.to_string() }
    }

    fn view(&self) -> View {
        View::Mover
    }

    fn scale(&self) -> Option<Scale<Threats>> {
        let evaluator = Threats::new(&self.game);
        Some(Scale { evaluator, about: "threats, first player's view", prior_unit: PRIOR_UNIT })
    }

    fn max_moves(&self) -> u32 {
        self.game.width()
    }

    fn plies_left(&self, position: &Position) -> (u32, &'static str) {
        (self.game.cells() - position.moves_played(), "empty cells of the board")
    }

    /// Each empty cell empty, or either player's.
    fn positions_bound(&self, position: &Position) -> f64 {
        3f64.powi(self.plies_left(position).0 as i32)
    }

    /// The Connect-4 solver of `khela-exact`: every move's exact score.
    fn exact(&self) -> Exact {
        Exact::Own
    }

    fn solve_own(&self, text: &str, state: &Position, own: &OwnSolve) -> Result<()> {
        solve::position(&self.game, text, state, own)
    }

    fn solve_sets(&self, run: &SetRun) -> Result<()> {
        solve::sets(&self.game, run)
    }

    /// The published counts from the empty standard board.
    fn per_ply(&self, position: &Position) -> Option<Option<Published>> {
        let standard = self.game == Connect4::standard() && *position == Position::EMPTY;
        Some(standard.then_some(Published { sequences: &SEQUENCES, positions: &POSITIONS, growth: SEQUENCE_GROWTH }))
    }
}
