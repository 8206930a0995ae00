//! A position as a board for people: the points of the game's geometry, the lines between them, the pieces on
//! them and the numbers beside them (goats in hand, scores, the die), and for every legal move the gesture that
//! makes it on that board (the points it passes through, the pieces it captures). Each game's entry draws its
//! own ([`crate::registry::Entry::board`], [`crate::registry::Entry::gesture`]); the browser app draws every board
//! from this description alone, and knows no game's rules.
//!
//! Coordinates are in board units, `x` to the right and `y` downwards, one unit between neighbouring points.

use khela_games::alquerque;
use serde::{Deserialize, Serialize};

/// How a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// A grid of square cells, a point at each cell's centre (tic-tac-toe, Connect-4, EinStein).
    Cells,
    /// Points joined by lines, pieces on the points (Bagh-Chal, Sixteen Soldiers).
    Lines,
    /// Rows of tokens (Nim).
    Heaps,
    /// Dots, with the edges between them drawn as they are played (Dots and Boxes).
    Dots,
    /// No board: the numbers and the moves alone (Pig).
    Plain,
}

/// A point of the board: where a piece stands or a move is made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Its name in the game's notation (`c3`), or a description where the notation names none.
    pub name: String,
    /// Its place.
    pub x: f32,
    /// Its place.
    pub y: f32,
}

/// A line between two points: the board's lines, or an edge drawn in Dots and Boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// One end (a point's index).
    pub from: usize,
    /// The other.
    pub to: usize,
    /// Whether it was drawn in play (an edge of Dots and Boxes), not one of the board's own lines.
    pub played: bool,
}

/// What a piece looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A cross (tic-tac-toe's X).
    Cross,
    /// A ring (tic-tac-toe's O).
    Ring,
    /// A disc (Connect-4's stones, Sixteen Soldiers' soldiers, a box taken in Dots and Boxes).
    Disc,
    /// A tiger.
    Tiger,
    /// A goat.
    Goat,
    /// A numbered cube (EinStein).
    Cube,
    /// A token of a heap (Nim).
    Token,
}

/// A piece on a point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// Its point's index.
    pub point: usize,
    /// Its side: 0 the first player's, 1 the second's.
    pub side: u8,
    /// What it looks like.
    pub kind: Kind,
    /// What is written on it (a cube's number), if anything.
    pub label: Option<String>,
    /// How many stand there (a stack's height; 1 otherwise).
    pub count: u32,
}

/// A number shown beside the board, named by a key that the interface's language files translate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Counter {
    /// What it counts: `in_hand`, `captured`, `score`, `turn_total`, `goal`, `die`, `boxes`.
    pub key: String,
    /// The side it belongs to, if it belongs to one.
    pub side: Option<u8>,
    /// The number.
    pub value: i64,
}

/// A position drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// How to draw it.
    pub style: Style,
    /// Its points.
    pub points: Vec<Point>,
    /// Its lines, and the edges drawn.
    pub links: Vec<Link>,
    /// Its pieces.
    pub pieces: Vec<Piece>,
    /// The numbers beside it.
    pub counters: Vec<Counter>,
}

impl Board {
    /// A board of `style` with these points and nothing yet on them.
    pub fn new(style: Style, points: Vec<Point>) -> Board {
        Board { style, points, links: Vec::new(), pieces: Vec::new(), counters: Vec::new() }
    }

    /// A grid of `columns` × `rows` points named by `name(column, row)`, row 0 at the top, numbered row by row.
    pub fn grid(style: Style, columns: u32, rows: u32, name: impl Fn(u32, u32) -> String) -> Board {
        let points = (0..rows)
            .flat_map(|row| (0..columns).map(move |column| (column, row)))
            .map(|(column, row)| Point { name: name(column, row), x: column as f32, y: row as f32 })
            .collect();
        Board::new(style, points)
    }

    /// A board of the alquerque family: its points where the game places them, named as the notation names
    /// them, numbered as the game numbers them, joined by the board's lines.
    pub fn alquerque(board: &alquerque::Board) -> Board {
        let top = f32::from(board.rank_count()) - 1.0;
        let points = (0..board.len() as u8)
            .map(|p| {
                let (file, rank) = board.coords(p);
                Point { name: board.name(p), x: f32::from(file), y: top - f32::from(rank) }
            })
            .collect();
        let mut drawn = Board::new(Style::Lines, points);
        for p in 0..board.len() as u8 {
            for q in alquerque::points(board.adjacent(p)).filter(|&q| q > p) {
                drawn.links.push(Link { from: usize::from(p), to: usize::from(q), played: false });
            }
        }
        drawn
    }

    /// Puts a piece (one, unlabelled) on `point`.
    pub fn put(&mut self, point: usize, side: u8, kind: Kind) {
        self.pieces.push(Piece { point, side, kind, label: None, count: 1 });
    }

    /// Adds a number beside the board.
    pub fn count(&mut self, key: &str, side: Option<u8>, value: impl Into<i64>) {
        self.counters.push(Counter { key: key.to_string(), side, value: value.into() });
    }
}

/// How a move is made on a board: by clicking (or dragging along) the points of its path; a move with no path
/// (Pig's roll and hold, a die's outcome) is made by a button named by its notation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gesture {
    /// The points the move passes through, in order: one for a placement, the start and the end of a step, every
    /// landing of a chain of jumps.
    pub path: Vec<usize>,
    /// Other points a click on which also makes a one-point move (every cell of a Connect-4 column).
    pub also: Vec<usize>,
    /// The points whose pieces the move captures.
    pub captures: Vec<usize>,
}

impl Gesture {
    /// A move made on one point.
    pub fn at(point: usize) -> Gesture {
        Gesture { path: vec![point], ..Gesture::default() }
    }

    /// A move from one point to another, capturing the pieces on `captures`.
    pub fn path(path: Vec<usize>, captures: Vec<usize>) -> Gesture {
        Gesture { path, also: Vec::new(), captures }
    }

    /// A move made by a button, not on the board.
    pub fn button() -> Gesture {
        Gesture::default()
    }
}
