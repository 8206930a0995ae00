//! Tic-tac-toe's entry: the textbook's game, with its open-lines evaluator, solved and tallied whole.

use crate::registry::{Entry, FullTree, Published, Scale, Spec, View, VisitNet};
use anyhow::Result;
use khela_games::tictactoe::{Board, TicTacToe};
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
}
