//! Connect-4's entry: on the standard board or any size, with the threat evaluator, counted ply by ply against
//! the published counts, solved exactly by the solver of `khela-exact`.

use crate::board::{Board as Drawn, Gesture, Kind, Style};
use crate::registry::{ActionOf, Entry, Exact, Own, Published, Scale, Spec, View, VisitNet, numbered};
use anyhow::Result;
use khela_exact::connect4::Solver;
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Node, Player, Value};
use khela_heuristic::connect4::Threats;

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

/// The transposition table of an analysis's solver, MiB.
const ANALYSIS_TABLE_MIB: usize = 16;

/// The seconds an analysis of the empty 7×6 board takes, and the factor each stone played multiplies them by:
/// the fit of the analyses measured on an AMD EPYC (one core): 680 s at the start, 275 s after one stone, 42–74 s
/// after two to five, 11–13 s after six, 1–2 s after eight, 0.5 s after twelve. Other boards are taken as the
/// standard one with as many empty cells.
const ANALYSIS_SECONDS_AT_START: f64 = 680.0;
/// See [`ANALYSIS_SECONDS_AT_START`].
const ANALYSIS_FACTOR_PER_STONE: f64 = 0.55;

/// Connect-4's entry: the board of its parameters.
pub struct Connect4Entry {
    game: Connect4,
}

impl Entry for Connect4Entry {
    type Game = Connect4;
    type Evaluator = Threats;

    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("Connect-4", &["width", "height"])?;
        let width = spec.params.count("width")?.unwrap_or(Connect4::STANDARD_WIDTH);
        let height = spec.params.count("height")?.unwrap_or(Connect4::STANDARD_HEIGHT);
        let game = Connect4::new(width, height)
            .map_err(|e| anyhow::anyhow!("{e} (width= and height= in the game string, or --width and --height)"))?;
        Ok(Connect4Entry { game })
    }

    fn game(&self) -> &Connect4 {
        &self.game
    }

    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        numbered(self)
    }

    fn with_net<V: VisitNet>(&self, visitor: V) -> Option<V::Output<'_, Connect4>> {
        Some(visitor.visit(self))
    }

    fn title(&self) -> String {
        format!("Connect-4 {}", self.game)
    }

    /// By who moves first: the notation's X and O are the pieces, not the players.
    fn sides(&self) -> [&'static str; 2] {
        ["first", "second"]
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
        Exact::Own(Own::Connect4(self.game))
    }

    /// Every move's exact score for the side to move (stones: the benchmark's convention), the first player's
    /// view.
    fn own_values(&self, position: &Position) -> Option<Result<Vec<(u8, Value)>>> {
        let Node::Decision(mover) = self.game.node(position) else { return None };
        let values = Solver::new(&self.game, ANALYSIS_TABLE_MIB).map(|mut solver| {
            let moves = solver.analyse(position, false).unwrap_or_default();
            moves.into_iter().map(|(column, solution)| (column, mover.view(Value::from(solution.score)))).collect()
        });
        Some(values.map_err(anyhow::Error::from))
    }

    /// The measured fit (680 s at the start, 0.55 times as long a stone played) at the position's empty cells.
    fn own_seconds(&self, position: &Position) -> Option<f64> {
        let stones = Connect4::standard().cells() as f64 - self.plies_left(position).0 as f64;
        Some(ANALYSIS_SECONDS_AT_START * ANALYSIS_FACTOR_PER_STONE.powf(stones))
    }

    /// A score `s` for the side that wins means its winning stone is the move `m` of the game at which
    /// `win_score(m) = s`, of that side's parity: the mover's plays are the moves after this one at odd distances.
    fn exact_plies(&self, position: &Position, value: Value) -> Option<u32> {
        let (played, mover) = (position.moves_played(), position.to_move());
        let score = mover.view(value);
        let winner_moves_first = score > 0.0;
        if score == 0.0 {
            return None;
        }
        (played + 1..=self.game.cells())
            .filter(|m| (m - played) % 2 == u32::from(winner_moves_first))
            .find(|&m| f64::from(self.game.win_score(m)) == score.abs())
            .map(|m| m - played)
    }

    /// The published counts from the empty standard board.
    fn per_ply(&self, position: &Position) -> Option<Option<Published>> {
        let standard = self.game == Connect4::standard() && *position == Position::EMPTY;
        Some(standard.then_some(Published { sequences: &SEQUENCES, positions: &POSITIONS, growth: SEQUENCE_GROWTH }))
    }

    /// The grid, the top row first, its cells named by column and row from the bottom (`4-1`); a move is made on
    /// the cell where its stone lands, or on any cell of its column.
    fn board(&self, p: &Position) -> Drawn {
        let game = &self.game;
        let (width, height) = (game.width(), game.height());
        let mut drawn =
            Drawn::grid(Style::Cells, width, height, |column, row| format!("{}-{}", column + 1, height - row));
        let first = if p.to_move() == Player::Max { p.current() } else { p.opponent() };
        for column in 0..width {
            for row in 0..height {
                let bit = game.bottom_cell(column as u8) << row;
                if p.mask() & bit != 0 {
                    let side = u8::from(first & bit == 0);
                    drawn.put(cell(width, height, column, row), side, Kind::Disc);
                }
            }
        }
        drawn
    }

    fn gesture(&self, p: &Position, column: u8) -> Gesture {
        let game = &self.game;
        let (width, height) = (game.width(), game.height());
        let row = (p.mask() & game.column_cells(column)).count_ones();
        let column = u32::from(column);
        let landing = cell(width, height, column, row);
        let also = (0..height).map(|r| cell(width, height, column, r)).filter(|&c| c != landing).collect();
        Gesture { path: vec![landing], also, captures: Vec::new() }
    }
}

/// The index on the drawn board of the cell in `column` at `row` from the bottom (the board's points go row by row
/// from the top).
fn cell(width: u32, height: u32, column: u32, row: u32) -> usize {
    ((height - 1 - row) * width + column) as usize
}
