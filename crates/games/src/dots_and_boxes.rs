//! Dots and Boxes on a board of `rows × cols` boxes (2 × 2 by default, 9 dots): the players draw one edge a
//! turn; whoever completes the fourth edge of a box takes it and moves again; when every edge is drawn, the
//! player with more boxes wins (equal boxes, a draw). MAX is the first player. The payoff is +1, 0 or −1: who
//! wins, not by how much.
//!
//! # Edges
//!
//! The edges are numbered in reading order, a row of horizontal edges, then the vertical edges of the row of
//! boxes below it, and so on; the notation writes them from 1. On the 2 × 2 board:
//!
//! ```text
//! o 1 o 2 o
//! 3   4   5
//! o 6 o 7 o
//! 8   9  10
//! o11 o12 o
//! ```
//!
//! so the interior edges are 4, 6, 7 and 9. A position is written as the edges drawn from the empty board, in
//! the order played, separated by commas (the empty board is the empty string): the order says who took which box
//! and whose turn it is.

use crate::rng::splitmix64;
use crate::{Actions, Game, Node, Notation, Player};
use std::fmt::Write;
use thiserror::Error;

/// The most boxes a side of the board may have.
pub const MAX_SIDE: u32 = 4;

/// Dots and Boxes on a board of `rows × cols` boxes.
///
/// ```
/// use khela_games::Notation;
/// use khela_games::dots_and_boxes::DotsAndBoxes;
///
/// let game = DotsAndBoxes::new(2, 2).unwrap();
/// let position = game.parse_position("1,3,4,6").unwrap();
/// assert_eq!(position.boxes(), (0, 1)); // The second player closed the top-left box with 6, and moves again.
/// assert!(DotsAndBoxes::new(5, 1).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DotsAndBoxes {
    rows: u32,
    cols: u32,
    /// The edges of each box, a bit an edge.
    boxes: Vec<u64>,
    /// The boxes each edge borders (one or two).
    borders: Vec<Vec<u8>>,
}

/// A position: the edges drawn, the boxes each player took, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    edges: u64,
    first: u16,
    second: u16,
    mover: Player,
}

impl Position {
    /// The edges drawn, a bit an edge (bit `i` the edge written `i + 1`).
    pub fn drawn(&self) -> u64 {
        self.edges
    }

    /// The boxes each player took, the first player's first, a bit a box (bit `i` the box `i` in reading order).
    pub fn owners(&self) -> (u16, u16) {
        (self.first, self.second)
    }

    /// The side to move (once every edge is drawn, the side that would).
    pub fn mover(&self) -> Player {
        self.mover
    }

    /// The boxes the first and the second player took.
    pub fn boxes(&self) -> (u32, u32) {
        (self.first.count_ones(), self.second.count_ones())
    }
}

/// Why a board or a position is refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// The board cannot be played.
    #[error("a board of {0} x {1} boxes: each side is from 1 to {MAX_SIDE} boxes")]
    Size(u32, u32),
    /// An edge is not a number of the board, or is drawn already.
    #[error("position {0:?}: {1:?} is not an edge still to draw (the edges are 1 to {2}, each drawn once)")]
    Edge(String, String, u32),
}

impl DotsAndBoxes {
    /// The board of `rows × cols` boxes.
    ///
    /// # Errors
    ///
    /// A side of no box or of more than [`MAX_SIDE`].
    pub fn new(rows: u32, cols: u32) -> Result<DotsAndBoxes, ParseError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(ParseError::Size(rows, cols));
        }
        let stride = 2 * cols + 1;
        let edges = rows * stride + cols;
        let mut boxes = Vec::new();
        let mut borders = vec![Vec::new(); edges as usize];
        for row in 0..rows {
            for col in 0..cols {
                let (top, left) = (row * stride + col, row * stride + cols + col);
                let sides = [top, top + stride, left, left + 1];
                for side in sides {
                    borders[side as usize].push(boxes.len() as u8);
                }
                boxes.push(sides.iter().fold(0u64, |mask, &side| mask | 1 << side));
            }
        }
        Ok(DotsAndBoxes { rows, cols, boxes, borders })
    }

    /// The standard small board, 2 × 2 boxes.
    pub fn two_by_two() -> DotsAndBoxes {
        DotsAndBoxes::new(2, 2).expect("a 2 x 2 board")
    }

    /// Its rows of boxes.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Its columns of boxes.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// Its edges.
    pub fn edges(&self) -> u32 {
        self.borders.len() as u32
    }

    /// The edges still to draw in `position`.
    pub fn edges_left(&self, position: &Position) -> u32 {
        self.edges() - position.edges.count_ones()
    }

    /// The empty board.
    pub fn start_position(&self) -> Position {
        Position { edges: 0, first: 0, second: 0, mover: Player::Max }
    }

    fn all_edges(&self) -> u64 {
        (1u64 << self.edges()) - 1
    }
}

/// A move's action is its edge.
impl Actions for DotsAndBoxes {
    fn actions(&self) -> usize {
        self.edges() as usize
    }

    fn action(&self, edge: u8) -> usize {
        usize::from(edge)
    }
}

impl Game for DotsAndBoxes {
    type State = Position;
    /// An edge, numbered from 0 in reading order.
    type Move = u8;

    fn node(&self, p: &Position) -> Node {
        if p.edges != self.all_edges() {
            return Node::Decision(p.mover);
        }
        let (first, second) = p.boxes();
        Node::Terminal(match first.cmp(&second) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => -1.0,
            std::cmp::Ordering::Equal => 0.0,
        })
    }

    /// The edges not drawn, in reading order.
    fn moves(&self, p: &Position, buf: &mut Vec<u8>) {
        buf.clear();
        let mut free = !p.edges & self.all_edges();
        while free != 0 {
            buf.push(free.trailing_zeros() as u8);
            free &= free - 1;
        }
    }

    fn play(&self, p: &mut Position, edge: u8) {
        p.edges |= 1 << edge;
        let mut closed = false;
        for &b in &self.borders[usize::from(edge)] {
            if self.boxes[usize::from(b)] & !p.edges == 0 {
                closed = true;
                match p.mover {
                    Player::Max => p.first |= 1 << b,
                    Player::Min => p.second |= 1 << b,
                }
            }
        }
        if !closed {
            p.mover = p.mover.opponent();
        }
    }

    fn key(&self, p: &Position) -> u64 {
        let mover = u64::from(p.mover == Player::Min);
        splitmix64(p.edges ^ splitmix64(u64::from(p.first) | u64::from(p.second) << 16 | mover << 32))
    }
}

impl Notation for DotsAndBoxes {
    type Error = ParseError;

    /// The edges played from the empty board, 1-based, separated by commas.
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let mut position = self.start_position();
        for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let edge = field.parse::<u32>().ok().filter(|&e| (1..=self.edges()).contains(&e));
            let Some(edge) = edge.map(|e| (e - 1) as u8).filter(|&e| position.edges & 1 << e == 0) else {
                return Err(ParseError::Edge(text.to_string(), field.to_string(), self.edges()));
            };
            self.play(&mut position, edge);
        }
        Ok(position)
    }

    /// The empty board, the empty string.
    fn start(&self) -> Option<&str> {
        Some("")
    }

    /// The edge's number, from 1.
    fn write_move(&self, edge: u8) -> String {
        (u32::from(edge) + 1).to_string()
    }

    /// The dots (`o`), the edges drawn (`---`, `|`), and each box taken by its owner's letter (`A` the first
    /// player's, `B` the second's).
    fn picture(&self, p: &Position) -> String {
        let stride = 2 * self.cols + 1;
        let drawn = |edge: u32| p.edges & 1 << edge != 0;
        let mut out = String::new();
        for row in 0..=self.rows {
            out.push('o');
            for col in 0..self.cols {
                out.push_str(if drawn(row * stride + col) { "---o" } else { "   o" });
            }
            if row == self.rows {
                break;
            }
            out.push('\n');
            for col in 0..=self.cols {
                out.push(if drawn(row * stride + self.cols + col) { '|' } else { ' ' });
                if col < self.cols {
                    let b = row * self.cols + col;
                    let owner = if p.first & 1 << b != 0 {
                        'A'
                    } else if p.second & 1 << b != 0 {
                        'B'
                    } else {
                        ' '
                    };
                    let _ = write!(out, " {owner} ");
                }
            }
            out.push('\n');
        }
        out
    }

    /// `A` for MAX, the first player; `B` for MIN.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "A",
            Player::Min => "B",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance;

    #[test]
    fn edges_border_their_boxes() {
        let game = DotsAndBoxes::two_by_two();
        assert_eq!(game.edges(), 12);
        // The interior edges border two boxes, the others one.
        let two: Vec<u32> = (0..12).filter(|&e| game.borders[e as usize].len() == 2).map(|e| e + 1).collect();
        assert_eq!(two, [4, 6, 7, 9]);
        assert_eq!(DotsAndBoxes::new(3, 3).unwrap().edges(), 24);
        assert_eq!(DotsAndBoxes::new(1, 4).unwrap().edges(), 13);
        assert_eq!(DotsAndBoxes::new(0, 2), Err(ParseError::Size(0, 2)));
    }

    #[test]
    fn closing_a_box_takes_it_and_moves_again() {
        let game = DotsAndBoxes::two_by_two();
        let p = game.parse_position("1,3,4").unwrap();
        assert_eq!((p.boxes(), p.mover), ((0, 0), Player::Min));
        let p = game.parse_position("1,3,4,6").unwrap();
        assert_eq!((p.boxes(), p.mover), ((0, 1), Player::Min), "B drew 6 and took the top-left box");
        let all = game.parse_position("1,2,3,4,5,6,7,8,9,10,11,12").unwrap();
        assert!(matches!(game.node(&all), Node::Terminal(_)));
        assert_eq!(all.boxes().0 + all.boxes().1, 4);
        assert_eq!(
            game.picture(&game.parse_position("1,3,4,6").unwrap()),
            "o---o   o\n| B |    \no---o   o\n         \no   o   o"
        );
    }

    #[test]
    fn bad_positions_are_refused() {
        let game = DotsAndBoxes::two_by_two();
        for (text, field) in [("13", "13"), ("0", "0"), ("1,1", "1"), ("x", "x")] {
            assert_eq!(game.parse_position(text), Err(ParseError::Edge(text.into(), field.into(), 12)));
        }
    }

    #[test]
    fn conformance() {
        for game in [DotsAndBoxes::two_by_two(), DotsAndBoxes::new(1, 3).unwrap(), DotsAndBoxes::new(3, 2).unwrap()] {
            let roots = [game.start_position(), game.parse_position("1,4,6").unwrap()];
            conformance::check(&game, &roots, 300, 3);
            conformance::check_notation(&game, &roots, 300, 3);
            conformance::check_actions(&game, &roots, 300, 3);
        }
    }
}
