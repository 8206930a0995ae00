//! Tic-tac-toe's entry: the textbook's game, with its open-lines evaluator, solved and tallied whole, its every
//! position an endgame of retrograde analysis.

use crate::board::{Board as Drawn, Gesture, Kind, Style};
use crate::registry::{
    ActionOf, Endgame, Entry, FullTree, Part, Published, Scale, Scope, Spec, Summary, View, VisitNet, census_row,
    numbered,
};
use anyhow::{Result, anyhow};
use khela_exact::retro::Census;
use khela_games::tictactoe::space::TicTacToeSpace;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Notation, Player, Space};
use khela_heuristic::tictactoe::OpenLines;

/// Tic-tac-toe's entry.
pub struct TicTacToeEntry;

/// The softmax unit of the tic-tac-toe prior: two open lines, the difference between the center (4) and an
/// edge (2) on the empty board, so the center starts e times as likely as an edge and e^½ as a corner.
const PRIOR_UNIT: f64 = 2.0;

impl Entry for TicTacToeEntry {
    type Game = TicTacToe;
    type Evaluator = OpenLines;

    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("Tic-tac-toe", &[])?;
        Ok(TicTacToeEntry)
    }

    fn game(&self) -> &TicTacToe {
        &TicTacToe
    }

    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        numbered(self)
    }

    fn with_net<V: VisitNet>(&self, visitor: V) -> Option<V::Output<'_, TicTacToe>> {
        Some(visitor.visit(self))
    }

    fn title(&self) -> String {
        "Tic-tac-toe".to_string()
    }

    fn notation(&self) -> &'static str {
        "9 characters of '.', 'X', 'O', row by row"
    }

    fn view(&self) -> View {
        View::First
    }

    fn scale(&self) -> Option<Scale<OpenLines>> {
        Some(Scale { evaluator: OpenLines, about: "open lines, X's view", prior_unit: PRIOR_UNIT })
    }

    fn max_moves(&self) -> u32 {
        9
    }

    fn plies_left(&self, board: &Board) -> (u32, &'static str) {
        (board.empty().count_ones(), "empty cells of the board")
    }

    /// Each empty cell empty, X's or O's.
    fn positions_bound(&self, board: &Board) -> f64 {
        3f64.powi(board.empty().count_ones() as i32)
    }

    fn full_tree(&self) -> Option<FullTree<TicTacToe>> {
        let symmetric = |_: &TicTacToe, board: &Board| TicTacToe::symmetric_key(board);
        Some(FullTree { symmetry: Some((symmetric, "Up to the board's 8 symmetries")) })
    }

    /// No published counts: nine plies at most are counted in an instant.
    fn per_ply(&self, _: &Board) -> Option<Option<Published>> {
        Some(None)
    }

    /// The whole game: its 5,478 legal positions, 765 up to the board's symmetries, in one table.
    fn endgame(&self, scope: &Scope) -> Option<Result<Endgame<TicTacToe>>> {
        if scope.captured.is_some() || scope.pieces.is_some() {
            return Some(Err(anyhow!(
                "retro --captured and --pieces choose Bagh-Chal's and Sixteen Soldiers' endgames; Tic-tac-toe's \
                 is the whole game"
            )));
        }
        let space = TicTacToeSpace::symmetric();
        Some(Ok(Endgame {
            parts: vec![Part {
                name: "every position".into(),
                file: "positions".into(),
                numbers: 0..space.len(),
                labels: Vec::new(),
                summarised: true,
            }],
            space: Box::new(space),
            rules: String::new(),
            about: "every position of the game, up to the board's 8 symmetries".into(),
            write: Box::new(|board| board.to_string()),
            plies_to: Box::new(|_| Some(0)),
            seconds_to: |_| 0.0,
            summary: Summary {
                columns: &SUMMARY,
                groups: 2,
                group: |board| usize::from(board.to_move() == Player::Min),
                row: summary_row,
            },
        }))
    }

    /// The 3 × 3 grid, its cells named by their numbers as moves name them.
    fn board(&self, board: &Board) -> Drawn {
        let mut drawn = Drawn::grid(Style::Cells, 3, 3, |column, row| (3 * row + column).to_string());
        for cell in 0..9 {
            if board.x & 1 << cell != 0 {
                drawn.put(cell, 0, Kind::Cross);
            } else if board.o & 1 << cell != 0 {
                drawn.put(cell, 1, Kind::Ring);
            }
        }
        drawn
    }

    fn gesture(&self, _: &Board, cell: u8) -> Gesture {
        Gesture::at(usize::from(cell))
    }
}

/// The columns of `retro`'s summary: a row for each side to move, its wins, losses and draws.
const SUMMARY: [&str; 10] = [
    "to_move",
    "positions",
    "wins",
    "losses",
    "draws",
    "canonical_positions",
    "canonical_wins",
    "canonical_losses",
    "canonical_draws",
    "longest_win",
];

/// The summary row of one side to move (group 0: X): its name, then its census.
fn summary_row(group: usize, census: &Census) -> Vec<String> {
    let mover = TicTacToe.player_name(if group == 0 { Player::Max } else { Player::Min });
    [vec![mover.to_string()], census_row(census)].concat()
}
