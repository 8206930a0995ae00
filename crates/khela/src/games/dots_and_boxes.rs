//! Dots and Boxes' entry: a board of `rows × cols` boxes (2 × 2 by default), solved exactly by alpha-beta on
//! the small boards, played by Monte Carlo and counted ply by ply; no evaluator yet.

use crate::registry::{Entry, Published, Spec, View};
use anyhow::Result;
use khela_games::NoEvaluator;
use khela_games::dots_and_boxes::{DotsAndBoxes, Position};

/// Dots and Boxes' entry: the board of its parameters.
pub struct DotsAndBoxesEntry {
    game: DotsAndBoxes,
}

impl Entry for DotsAndBoxesEntry {
    type Game = DotsAndBoxes;
    type Evaluator = NoEvaluator;

    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("Dots and Boxes", &["rows", "cols"])?;
        let rows = spec.params.parse("rows")?.unwrap_or(2);
        let cols = spec.params.parse("cols")?.unwrap_or(2);
        Ok(DotsAndBoxesEntry { game: DotsAndBoxes::new(rows, cols)? })
    }

    fn game(&self) -> &DotsAndBoxes {
        &self.game
    }

    fn title(&self) -> String {
        format!("Dots and Boxes {}x{}", self.game.rows(), self.game.cols())
    }

    fn notation(&self) -> &'static str {
        "the edges drawn from the empty board, numbered from 1 in reading order, like 1,6,12"
    }

    fn view(&self) -> View {
        View::First
    }

    fn max_moves(&self) -> u32 {
        self.game.edges()
    }

    fn plies_left(&self, position: &Position) -> (u32, &'static str) {
        (self.game.edges_left(position), "edges still to draw")
    }

    /// The lines of play below the position, the edges left factorial: plain alpha-beta merges no
    /// transpositions, so this, not the distinct positions, bounds its work.
    fn positions_bound(&self, position: &Position) -> f64 {
        (1..=self.game.edges_left(position)).map(f64::from).product()
    }

    /// Counted ply by ply; no published counts.
    fn per_ply(&self, _: &Position) -> Option<Option<Published>> {
        Some(None)
    }
}
