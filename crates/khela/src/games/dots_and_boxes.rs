//! Dots and Boxes' entry: a board of `rows × cols` boxes (2 × 2 by default), solved exactly by alpha-beta on
//! the small boards, played by Monte Carlo and counted ply by ply; no evaluator yet.

use crate::board::{Board as Drawn, Gesture, Kind, Link, Point, Style};
use crate::registry::{ActionOf, Entry, Observe, Observer, Published, Spec, View, VisitNet, numbered};
use anyhow::Result;
use khela_games::dots_and_boxes::{DotsAndBoxes, Position};
use khela_games::{NoEvaluator, Notation};

/// Dots and Boxes' entry: the board of its parameters.
pub struct DotsAndBoxesEntry {
    game: DotsAndBoxes,
}

impl Entry for DotsAndBoxesEntry {
    type Game = DotsAndBoxes;
    type Evaluator = NoEvaluator;

    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("Dots and Boxes", &["rows", "cols"])?;
        let rows = spec.params.count("rows")?.unwrap_or(2);
        let cols = spec.params.count("cols")?.unwrap_or(2);
        Ok(DotsAndBoxesEntry { game: DotsAndBoxes::new(rows, cols)? })
    }

    fn game(&self) -> &DotsAndBoxes {
        &self.game
    }

    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        numbered(self)
    }

    fn observer(&self) -> Result<Observer<'_, Self::Game>, &'static str> {
        Ok(Observe.visit(self))
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

    /// The dots, then a point at the middle of every edge (where a click draws it), then one at the middle of every
    /// box (where its owner's mark goes); the edges drawn join their dots.
    fn board(&self, p: &Position) -> Drawn {
        let (rows, cols) = (self.game.rows(), self.game.cols());
        let dot = |row: u32, col: u32| (row * (cols + 1) + col) as usize;
        let mut points: Vec<Point> = (0..=rows)
            .flat_map(|row| (0..=cols).map(move |col| (row, col)))
            .map(|(row, col)| Point { name: format!("dot {}", dot(row, col) + 1), x: col as f32, y: row as f32 })
            .collect();
        let ends = |edge: u32| edge_ends(cols, edge);
        let mut links = Vec::new();
        for edge in 0..self.game.edges() {
            let ((r1, c1), (r2, c2)) = ends(edge);
            let (x, y) = ((c1 + c2) as f32 / 2.0, (r1 + r2) as f32 / 2.0);
            points.push(Point { name: self.game.write_move(edge as u8), x, y });
            if p.drawn() & 1 << edge != 0 {
                links.push(Link { from: dot(r1, c1), to: dot(r2, c2), played: true });
            }
        }
        let first_box = points.len();
        for row in 0..rows {
            for col in 0..cols {
                points.push(Point {
                    name: format!("box {}", row * cols + col + 1),
                    x: col as f32 + 0.5,
                    y: row as f32 + 0.5,
                });
            }
        }
        let mut drawn = Drawn::new(Style::Dots, points);
        drawn.links = links;
        let (first, second) = p.owners();
        for b in 0..rows * cols {
            for (side, owned) in [(0, first), (1, second)] {
                if owned & 1 << b != 0 {
                    drawn.put(first_box + b as usize, side, Kind::Disc);
                }
            }
        }
        let (a, b) = p.boxes();
        drawn.count("boxes", Some(0), a);
        drawn.count("boxes", Some(1), b);
        drawn
    }

    /// A click on the middle of the edge.
    fn gesture(&self, _: &Position, edge: u8) -> Gesture {
        let dots = ((self.game.rows() + 1) * (self.game.cols() + 1)) as usize;
        Gesture::at(dots + usize::from(edge))
    }
}

/// The dots (row, column) an edge joins, the edges numbered in reading order: a row of horizontal edges, then
/// the vertical edges below it.
fn edge_ends(cols: u32, edge: u32) -> ((u32, u32), (u32, u32)) {
    let stride = 2 * cols + 1;
    let (row, k) = (edge / stride, edge % stride);
    if k < cols { ((row, k), (row, k + 1)) } else { ((row, k - cols), (row + 1, k - cols)) }
}
