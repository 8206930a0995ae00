//! Tic-tac-toe.
//!
//! Cells are numbered 0–8 row by row:
//!
//! ```text
//!  0 | 1 | 2
//! ---+---+---
//!  3 | 4 | 5
//! ---+---+---
//!  6 | 7 | 8
//! ```
//!
//! X moves first and is MAX. A win for X is worth +1, a win for O −1, a draw 0. The natural move order is by
//! cell number, ascending.
//!
//! # Notation
//!
//! A position is nine characters of `.`, `X` and `O`, row by row: `X...O...X` has X on 0 and 8 and O on 4; the
//! standard start is `.........`. A move is its cell number, `4` for the center. The players are `X` and `O`.
//! The picture ([`Notation::picture`]) is the 3×3 grid, three lines without a trailing newline, each cell
//! preceded by one space:
//!
//! ```text
//!  X . .
//!  . O .
//!  . . X
//! ```

pub mod space;

use crate::{Actions, Game, Node, Notation, Player, Value};
use std::fmt;
use thiserror::Error;

/// The eight lines of three, as bit masks over the cells.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// The textbook's preference list "center, corners, edges" for move ordering.
pub const CENTER_CORNER_EDGE: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// The textbook's preference list "edges, corners, center" for move ordering.
pub const EDGE_CORNER_CENTER: [u8; 9] = [1, 3, 5, 7, 0, 2, 6, 8, 4];

/// A tic-tac-toe position: one 9-bit mask of cells per player (bit `i` is cell `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// X's cells.
    pub x: u16,
    /// O's cells.
    pub o: u16,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// The player to move: X (MAX) when both have played equally often.
    #[inline]
    pub fn to_move(&self) -> Player {
        if self.x.count_ones() == self.o.count_ones() { Player::Max } else { Player::Min }
    }

    /// The winner, if a player has three in a line.
    #[inline]
    pub fn winner(&self) -> Option<Player> {
        if has_line(self.x) {
            Some(Player::Max)
        } else if has_line(self.o) {
            Some(Player::Min)
        } else {
            None
        }
    }

    /// The mask of empty cells.
    #[inline]
    pub fn empty(&self) -> u16 {
        FULL & !(self.x | self.o)
    }
}

/// The board's 8 symmetries (the dihedral group of the square) as cell permutations: `SYMMETRIES[s][c]` is
/// where cell `c` goes under symmetry `s`. The first is the identity.
pub const SYMMETRIES: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8], // identity
    [2, 5, 8, 1, 4, 7, 0, 3, 6], // rotation by 90° (clockwise: cell 0 goes to 2)
    [8, 7, 6, 5, 4, 3, 2, 1, 0], // rotation by 180°
    [6, 3, 0, 7, 4, 1, 8, 5, 2], // rotation by 270°
    [2, 1, 0, 5, 4, 3, 8, 7, 6], // mirror left-right
    [6, 7, 8, 3, 4, 5, 0, 1, 2], // mirror top-bottom
    [0, 3, 6, 1, 4, 7, 2, 5, 8], // mirror on the main diagonal
    [8, 5, 2, 7, 4, 1, 6, 3, 0], // mirror on the anti-diagonal
];

fn transform(cells: u16, symmetry: &[u8; 9]) -> u16 {
    (0..9).filter(|&c| cells & (1 << c) != 0).fold(0, |acc, c| acc | 1 << symmetry[c])
}

impl Board {
    /// The board under one of the [`SYMMETRIES`].
    pub fn transformed(&self, symmetry: &[u8; 9]) -> Board {
        Board { x: transform(self.x, symmetry), o: transform(self.o, symmetry) }
    }

    /// The canonical form: of the board's 8 images under the symmetries, the one with the smallest key.
    /// Symmetric boards have the same canonical form, and the same value (the rules are symmetric).
    ///
    /// ```
    /// use khela_games::tictactoe::TicTacToe;
    /// let corner = TicTacToe::parse("X........").unwrap();
    /// let other = TicTacToe::parse("........X").unwrap();
    /// assert_eq!(corner.canonical(), other.canonical());
    /// ```
    pub fn canonical(&self) -> Board {
        SYMMETRIES.iter().map(|s| self.transformed(s)).min_by_key(|b| TicTacToe.key(b)).expect("eight symmetries")
    }
}

/// Whether a mask of cells contains a line of three.
#[inline]
pub fn has_line(cells: u16) -> bool {
    LINES.iter().any(|&line| line & !cells == 0)
}

/// The cells of `empty` where a stone added to `cells` would complete a line.
#[inline]
pub fn winning_cells(cells: u16, empty: u16) -> u16 {
    LINES.iter().map(|&line| line & !cells).filter(|&left| left.count_ones() == 1).fold(0, |won, left| won | left)
        & empty
}

impl Board {
    /// The notation's character for `cell`: `X`, `O` or `.` when empty.
    fn symbol(&self, cell: u8) -> char {
        let bit = 1 << cell;
        if self.x & bit != 0 {
            'X'
        } else if self.o & bit != 0 {
            'O'
        } else {
            '.'
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in 0..9 {
            write!(f, "{}", self.symbol(cell))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

/// Why a tic-tac-toe position was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// Not nine characters.
    #[error("tic-tac-toe position {0:?} has {1} characters; expected 9 of '.', 'X', 'O'")]
    Length(String, usize),
    /// A character other than `.`, `X`, `O`.
    #[error("tic-tac-toe position {0:?}: bad character {1:?} at cell {2}; expected '.', 'X' or 'O'")]
    Character(String, char, usize),
    /// Piece counts that no game reaches.
    #[error("tic-tac-toe position {0:?} has {1} X and {2} O; X moves first, so X = O or X = O + 1")]
    Counts(String, u32, u32),
    /// Both players have a line.
    #[error("tic-tac-toe position {0:?}: both X and O have three in a line")]
    TwoWinners(String),
    /// The winner is not the player who moved last.
    #[error("tic-tac-toe position {0:?}: {1} has a line but did not move last")]
    WinnerMismatch(String, char),
}

/// The game of tic-tac-toe. Moves are cell numbers 0–8.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

impl TicTacToe {
    /// Parses the 9-character notation, validating it is reachable as far as counts and winners go.
    ///
    /// ```
    /// use khela_games::tictactoe::TicTacToe;
    /// let board = TicTacToe::parse("X...O...X").unwrap();
    /// assert_eq!(board.to_string(), "X...O...X");
    /// assert!(TicTacToe::parse("XX.......").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 9 {
            return Err(ParseError::Length(text.to_string(), chars.len()));
        }
        let mut board = Board::EMPTY;
        for (cell, &c) in chars.iter().enumerate() {
            match c {
                '.' => {}
                'X' => board.x |= 1 << cell,
                'O' => board.o |= 1 << cell,
                _ => return Err(ParseError::Character(text.to_string(), c, cell)),
            }
        }
        let (nx, no) = (board.x.count_ones(), board.o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(ParseError::Counts(text.to_string(), nx, no));
        }
        match (has_line(board.x), has_line(board.o)) {
            (true, true) => Err(ParseError::TwoWinners(text.to_string())),
            (true, false) if nx != no + 1 => Err(ParseError::WinnerMismatch(text.to_string(), 'X')),
            (false, true) if nx != no => Err(ParseError::WinnerMismatch(text.to_string(), 'O')),
            _ => Ok(board),
        }
    }
}

impl TicTacToe {
    /// The key of the canonical form: equal for boards equal up to symmetry, so it may memoize values (which
    /// symmetry preserves) over the 765 essentially different positions.
    pub fn symmetric_key(board: &Board) -> u64 {
        TicTacToe.key(&board.canonical())
    }
}

/// The notation of the module documentation: nine characters, moves by cell number, players `X` and `O`.
impl Notation for TicTacToe {
    type Error = ParseError;

    /// [`TicTacToe::parse`].
    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        TicTacToe::parse(text)
    }

    /// The empty board, `.........`.
    fn start(&self) -> Option<&str> {
        Some(".........")
    }

    /// The cell number, 0–8.
    fn write_move(&self, cell: u8) -> String {
        cell.to_string()
    }

    /// The 3×3 grid: three lines, each cell preceded by one space, no trailing newline.
    fn picture(&self, board: &Board) -> String {
        let mut out = String::with_capacity(3 * 7);
        for row in 0..3 {
            if row > 0 {
                out.push('\n');
            }
            for cell in 3 * row..3 * row + 3 {
                out.push(' ');
                out.push(board.symbol(cell));
            }
        }
        out
    }

    /// `X` for MAX, `O` for MIN.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "X",
            Player::Min => "O",
        }
    }
}

/// A move's action is its cell, 0–8 in reading order.
impl Actions for TicTacToe {
    fn actions(&self) -> usize {
        9
    }

    fn action(&self, cell: u8) -> usize {
        usize::from(cell)
    }
}

impl Game for TicTacToe {
    type State = Board;
    type Move = u8;

    #[inline]
    fn node(&self, b: &Board) -> Node {
        match b.winner() {
            Some(Player::Max) => Node::Terminal(1.0),
            Some(Player::Min) => Node::Terminal(-1.0),
            None if b.empty() == 0 => Node::Terminal(0.0),
            None => Node::Decision(b.to_move()),
        }
    }

    #[inline]
    fn moves(&self, b: &Board, buf: &mut Vec<u8>) {
        buf.clear();
        if b.winner().is_some() {
            return;
        }
        let mut empty = b.empty();
        while empty != 0 {
            buf.push(empty.trailing_zeros() as u8);
            empty &= empty - 1;
        }
    }

    #[inline]
    fn play(&self, b: &mut Board, cell: u8) {
        debug_assert!(b.empty() & (1 << cell) != 0, "cell {cell} is taken in {b}");
        match b.to_move() {
            Player::Max => b.x |= 1 << cell,
            Player::Min => b.o |= 1 << cell,
        }
    }

    /// A win on the move; a line the opponent would complete (its cell is forced, and two such cells lose).
    #[inline]
    fn tactics(&self, b: &Board, moves: &mut Vec<u8>) -> Option<Value> {
        let mover = b.to_move();
        let (own, other) = if mover == Player::Max { (b.x, b.o) } else { (b.o, b.x) };
        let empty = b.empty();
        if winning_cells(own, empty) != 0 {
            return Some(mover.view(1.0));
        }
        let threats = winning_cells(other, empty);
        match threats.count_ones() {
            0 => None,
            1 => {
                moves.retain(|&cell| threats & 1 << cell != 0);
                None
            }
            _ => Some(mover.opponent().view(1.0)),
        }
    }

    #[inline]
    fn has_tactics(&self) -> bool {
        true
    }

    /// The two masks side by side: unique for every board.
    #[inline]
    fn key(&self, b: &Board) -> u64 {
        u64::from(b.x) | u64::from(b.o) << 9
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance;

    fn refused(text: &str, expected: &str) {
        let err = TicTacToe::parse(text).unwrap_err().to_string();
        assert!(err.contains(expected), "{text:?}: {err}");
    }

    #[test]
    fn parse_round_trips() {
        for text in [".........", "X...O...X", "XXXOO....", "XOXXOOOXX", "OOOXX.X.."] {
            assert_eq!(TicTacToe::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn parse_refuses_bad_positions() {
        refused("X...O...", "has 8 characters");
        refused("X...O...XX", "has 10 characters");
        refused("X...o...X", "bad character 'o' at cell 4");
        refused("XX.......", "2 X and 0 O");
        refused("O........", "0 X and 1 O");
        refused("XXXOOO...", "both X and O");
        refused("XXXOO.O..", "X has a line but did not move last");
        refused("OOOXX.XX.", "O has a line but did not move last");
    }

    #[test]
    fn nodes_and_moves() {
        let game = TicTacToe;
        let b = TicTacToe::parse("X...O...X").unwrap();
        assert_eq!(game.node(&b), Node::Decision(Player::Min));
        let mut moves = Vec::new();
        game.moves(&b, &mut moves);
        assert_eq!(moves, [1, 2, 3, 5, 6, 7]);
        assert_eq!(game.node(&TicTacToe::parse("XOXXOOOXX").unwrap()), Node::Terminal(0.0));
        assert_eq!(game.node(&TicTacToe::parse("OOOXX.X..").unwrap()), Node::Terminal(-1.0));
    }

    #[test]
    fn symmetries_are_permutations_that_keep_lines() {
        for symmetry in &SYMMETRIES {
            let mut seen = [false; 9];
            for &c in symmetry {
                seen[c as usize] = true;
            }
            assert!(seen.iter().all(|&s| s), "{symmetry:?} is not a permutation");
            for line in LINES {
                assert!(LINES.contains(&transform(line, symmetry)), "{symmetry:?} breaks line {line:09b}");
            }
        }
        let b = TicTacToe::parse("XO.......").unwrap();
        let images: std::collections::HashSet<Board> = SYMMETRIES.iter().map(|s| b.transformed(s)).collect();
        assert_eq!(images.len(), 8, "an asymmetric board has 8 distinct images");
        assert!(images.iter().all(|i| i.canonical() == b.canonical()));
    }

    #[test]
    fn notation() {
        let board = TicTacToe.parse_position("X...O...X").unwrap();
        assert_eq!(TicTacToe.picture(&board), " X . .\n . O .\n . . X");
        assert_eq!(TicTacToe.picture(&Board::EMPTY), " . . .\n . . .\n . . .");
        assert_eq!(TicTacToe.parse_position(TicTacToe.start().unwrap()), Ok(Board::EMPTY));
        assert_eq!((0..9).map(|cell| TicTacToe.write_move(cell)).collect::<String>(), "012345678");
        assert_eq!([Player::Max, Player::Min].map(|p| TicTacToe.player_name(p)), ["X", "O"]);
        assert_eq!(TicTacToe.parse_position("XX......."), TicTacToe::parse("XX......."));
    }

    #[test]
    fn conforms() {
        let roots = [Board::EMPTY, TicTacToe::parse("X...O...X").unwrap()];
        conformance::check(&TicTacToe, &roots, 500, 1);
        conformance::check_notation(&TicTacToe, &roots, 500, 1);
        conformance::check_actions(&TicTacToe, &roots, 500, 1);
    }
}
