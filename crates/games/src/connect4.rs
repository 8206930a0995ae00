//! Connect-4 on bitboards, after Pascal Pons' "Solving Connect 4" tutorial.
//!
//! Two players drop stones into the columns of an upright board, 7 wide and 6 high by default; a stone falls to
//! the lowest empty cell of its column. Whoever first has four stones in a row (horizontally, vertically or
//! diagonally) wins; a full board without one is a draw. Other sizes are allowed as long as the bit layout
//! below fits in a `u64`, that is width × (height + 1) ≤ 64.
//!
//! # The bit layout
//!
//! Each column takes `height + 1` bits, bottom to top: `height` playable cells and one sentinel bit on top that is
//! never set in a set of stones, so that runs of stones cannot continue from the top of one column into the
//! bottom of the next. Cell (column `c`, row `r`), both 0-based from the bottom left, is bit `c * (height + 1) +
//! r`. For the standard 7×6 board:
//!
//! ```text
//!  6 13 20 27 34 41 48   <- sentinel row
//!  5 12 19 26 33 40 47
//!  4 11 18 25 32 39 46
//!  3 10 17 24 31 38 45
//!  2  9 16 23 30 37 44
//!  1  8 15 22 29 36 43
//!  0  7 14 21 28 35 42   <- bottom row
//! ```
//!
//! A [`Position`] is two such bitboards, `current` (the stones of the side to move) and `mask` (all stones).
//! Since a column is filled from the bottom, `mask + bottom` sets the lowest empty cell of every column, which
//! makes move generation a few arithmetic operations.
//!
//! # Players, moves, payoffs and notation
//!
//! The first player, drawn `X`, is MAX and moves when the number of moves played is even; the second player,
//! `O`, is MIN. A move is a 0-based column index (`u8`); the natural move order is by column, left to right.
//! A win is worth Pons' score, positive when MAX wins: see [`Connect4`]. The notation ([`crate::Notation`]) writes a
//! position as the standard string of 1-based columns, one digit per move (`4453` is columns 4, 4, 5, 3), as
//! used by the benchmark sets; the standard start is the empty string, the empty board. A move is written as its
//! 1-based column, `1` for column 0 (on boards wider than 9, columns past the ninth are written `10`, `11`, …,
//! which a move string has no digit for). The players are `X` and `O`. The picture is
//! [`Connect4::board_string`] without its last newline: the rows from top to bottom.
//!
//! Pascal Pons' benchmark sets are positions in this notation with their exact scores (the tests read them
//! with the `khela-testkit` crate, the command line with its own reader).
//!
//! # Examples
//!
//! ```
//! use khela_games::connect4::Connect4;
//! use khela_games::{Game, Node, Player};
//!
//! let game = Connect4::standard();
//! let state = game.parse("4453").unwrap();
//! assert_eq!(game.node(&state), Node::Decision(Player::Max));
//! // The first player completes a horizontal four with its 4th stone: 22 - 4 = 18 from MAX's view.
//! let won = game.parse("1122334").unwrap();
//! assert_eq!(game.node(&won), Node::Terminal(18.0));
//! ```

pub mod notation;
mod threats;

use crate::{Actions, Game, Node, Player, Value};
use std::fmt;
use thiserror::Error;

/// A Connect-4 position: two bitboards in the layout of the module documentation.
///
/// It is `Copy` and 16 bytes (the number of moves played is the number of stones, a population count), so that
/// the position sets of `count` hold tens of millions of them. Only [`Position::EMPTY`], [`Connect4::parse`] and
/// playing moves make positions, so the sentinel bits are always clear. The board's dimensions are not stored:
/// they belong to the [`Connect4`] value that made the position, and a position means nothing with another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// The stones of the side to move.
    current: u64,
    /// All stones, of both players.
    mask: u64,
}

impl Position {
    /// The empty board, of any size.
    pub const EMPTY: Position = Position { current: 0, mask: 0 };

    /// The stones of the side to move.
    #[inline]
    pub fn current(&self) -> u64 {
        self.current
    }

    /// The stones of the player who moved last (none on the empty board).
    #[inline]
    pub fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// All stones on the board.
    #[inline]
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// The number of moves played so far, which is the number of stones on the board.
    #[inline]
    pub fn moves_played(&self) -> u32 {
        self.mask.count_ones()
    }

    /// The player to move: the first player (MAX) when the number of moves played is even.
    ///
    /// This is whose turn it would be even when the game is over; [`Game::node`] says whether it is.
    #[inline]
    pub fn to_move(&self) -> Player {
        if self.moves_played().is_multiple_of(2) { Player::Max } else { Player::Min }
    }
}

/// Why a board size was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SizeError {
    /// A width or height of zero.
    #[error("Connect-4 board {width}x{height}: the width and the height must both be at least 1")]
    Empty {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
    },
    /// A board whose bit layout does not fit in 64 bits.
    #[error("Connect-4 board {width}x{height} needs width x (height + 1) = {bits} bits; at most 64 fit in a u64")]
    TooLarge {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
        /// The bits its layout needs.
        bits: u64,
    },
}

/// The game of Connect-4 on a board of a given size (7 wide, 6 high for the standard game).
///
/// # Values
///
/// Payoffs are from MAX's (the first player's) view, as everywhere in khela. A draw is worth 0. A win is worth
/// Pons' score to the winner, so a faster win is worth more:
///
/// ```text
/// score = (width * height + 2 - moves) / 2      (integer division)
/// ```
///
/// where `moves` is the number of stones on the board after the winning move. This is one more than the
/// number of stones the winner has left in hand, each player having its share of the board: ⌈w·h / 2⌉ stones
/// for the first player, ⌊w·h / 2⌋ for the second. On the standard 7×6 board it is **22 minus the number of
/// stones the winner has played**, from 18 (a win with 4 stones) down to 1 (with all 21). The payoff is
/// `+score` when the first player wins and `-score` when the second does.
///
/// The benchmark files give the score for the *side to move*; [`Player::view`] converts: a position with
/// benchmark score `s` has MAX's-view value `to_move.view(s)`.
///
/// # Examples
///
/// ```
/// use khela_games::connect4::Connect4;
/// use khela_games::{Game, Node};
///
/// let game = Connect4::standard();
/// assert_eq!(game.win_score(7), 18);
/// // The second player stacks four in column 1 with its 4th stone, the 8th move: -(22 - 4).
/// let state = game.parse("31212121").unwrap();
/// assert_eq!(game.node(&state), Node::Terminal(-18.0));
/// assert!(Connect4::new(10, 6).is_err()); // 10 x 7 = 70 bits.
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect4 {
    width: u32,
    height: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every playable cell (all bits but the sentinels).
    board: u64,
    /// The column of every bit, so that move generation needs no division.
    column_of: [u8; 64],
    /// How [`Connect4::mirror`] reverses the columns of a board whose columns, padded to a power of two,
    /// still fit in 64 bits (the standard's 7 in 8): swaps of ever larger groups of columns, each the mask of
    /// the lower columns of each pair of groups, then a shift that drops the padding.
    swaps: Option<([u64; 6], u32)>,
}

impl Default for Connect4 {
    /// The standard 7×6 game.
    fn default() -> Self {
        Connect4::standard()
    }
}

impl Connect4 {
    /// The standard width, 7 columns.
    pub const STANDARD_WIDTH: u32 = 7;
    /// The standard height, 6 rows.
    pub const STANDARD_HEIGHT: u32 = 6;

    /// The standard game: 7 columns, 6 rows.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// assert_eq!((game.width(), game.height()), (7, 6));
    /// ```
    pub fn standard() -> Connect4 {
        Connect4::new(Self::STANDARD_WIDTH, Self::STANDARD_HEIGHT).expect("7x6 fits in 64 bits")
    }

    /// A board `width` columns wide and `height` rows high, if its bit layout fits: width × (height + 1) ≤ 64.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// assert!(Connect4::new(8, 7).is_ok()); // Exactly 64 bits.
    /// let err = Connect4::new(9, 7).unwrap_err();
    /// assert!(err.to_string().contains("9x7 needs width x (height + 1) = 72 bits"));
    /// ```
    pub fn new(width: u32, height: u32) -> Result<Connect4, SizeError> {
        if width == 0 || height == 0 {
            return Err(SizeError::Empty { width, height });
        }
        let bits = u64::from(width) * (u64::from(height) + 1);
        if bits > 64 {
            return Err(SizeError::TooLarge { width, height, bits });
        }
        let bottom = (0..width).fold(0u64, |acc, col| acc | 1 << (col * (height + 1)));
        let column = (1u64 << height) - 1;
        let column_of = std::array::from_fn(|bit| (bit as u32 / (height + 1)) as u8);
        let (groups, step) = (width.next_power_of_two(), height + 1);
        let swaps = (groups * step <= 64).then(|| {
            let bits = u64::MAX >> (64 - step);
            let lower = |span: u32| (0..groups).filter(|g| g & span == 0).fold(0, |m, g| m | bits << (g * step));
            (std::array::from_fn(|i| if 1 << i < groups { lower(1 << i) } else { 0 }), (groups - width) * step)
        });
        Ok(Connect4 { width, height, bottom, board: bottom * column, column_of, swaps })
    }

    /// The number of columns.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The number of cells, width × height: the number of moves of a game that ends in a draw.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// The score, to the winner, of a win completed by the `moves`-th stone: `(width * height + 2 - moves) / 2`.
    ///
    /// See [`Connect4`] for what it means.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// assert_eq!(game.win_score(7), 22 - 4); // The first player's 4th stone.
    /// assert_eq!(game.win_score(42), 22 - 21); // The second player's 21st, the last stone.
    /// ```
    ///
    /// # Panics
    ///
    /// In debug builds, if `moves` exceeds the number of cells.
    #[inline]
    pub fn win_score(&self, moves: u32) -> i32 {
        debug_assert!(moves <= self.cells(), "{moves} moves on a board of {} cells", self.cells());
        ((self.cells() + 2 - moves) / 2) as i32
    }

    /// The bottom cell of column `col` (0-based).
    #[inline]
    pub fn bottom_cell(&self, col: u8) -> u64 {
        1 << (u32::from(col) * (self.height + 1))
    }

    /// The top playable cell of column `col` (0-based).
    #[inline]
    pub fn top_cell(&self, col: u8) -> u64 {
        1 << (self.height - 1 + u32::from(col) * (self.height + 1))
    }

    /// The playable cells of column `col` (0-based).
    #[inline]
    pub fn column_cells(&self, col: u8) -> u64 {
        ((1 << self.height) - 1) << (u32::from(col) * (self.height + 1))
    }

    /// `bits` with the board's columns in reverse order: the mirror image of a set of cells, of a position's
    /// stones, or of its key ([`Game::key`], which never carries from one column into the next).
    #[inline(always)]
    pub fn mirror(&self, bits: u64) -> u64 {
        let step = self.height + 1;
        match self.swaps {
            Some((masks, padding)) => {
                let mut image = bits;
                for (i, &mask) in masks.iter().enumerate().take_while(|&(_, &mask)| mask != 0) {
                    let shift = step << i;
                    image = (image & mask) << shift | (image >> shift) & mask;
                }
                image >> padding
            }
            None => {
                let column = (1 << step) - 1;
                (0..self.width)
                    .fold(0, |image, col| image | (bits >> (col * step) & column) << ((self.width - 1 - col) * step))
            }
        }
    }

    /// The mirror image of `p` (its columns in reverse order), which has the same value.
    #[inline]
    pub fn mirrored(&self, p: &Position) -> Position {
        Position { current: self.mirror(p.current), mask: self.mirror(p.mask) }
    }

    /// Whether column `col` (0-based, below the width) has room for a stone. It does not look at whether the
    /// game is over.
    #[inline]
    pub fn can_play(&self, p: &Position, col: u8) -> bool {
        debug_assert!(u32::from(col) < self.width, "column {col} of {} columns", self.width);
        p.mask & self.top_cell(col) == 0
    }

    /// Drops a stone of the side to move into column `col` (0-based) and passes the turn.
    ///
    /// # Panics
    ///
    /// In debug builds, if the column is full. It does not look at whether the game is over.
    #[inline]
    pub fn play_col(&self, p: &mut Position, col: u8) {
        debug_assert!(self.can_play(p, col), "column {col} is full");
        // The stones of the player who just moved become `current` of the next turn, which is the opponent's.
        p.current ^= p.mask;
        p.mask |= p.mask + self.bottom_cell(col);
    }

    /// The columns of `cells` (at most one cell a column), left to right, into `buf`, which is cleared first.
    #[inline]
    pub fn columns(&self, mut cells: u64, buf: &mut Vec<u8>) {
        buf.clear();
        // The cells come out lowest bit (leftmost column) first.
        while cells != 0 {
            buf.push(self.column_of[cells.trailing_zeros() as usize]);
            cells &= cells - 1;
        }
    }

    /// The cells where the side to move can drop a stone: the lowest empty cell of each column that is not full.
    ///
    /// It does not look at whether the game is over.
    #[doc(alias = "possible")]
    #[inline]
    pub fn legal_mask(&self, p: &Position) -> u64 {
        (p.mask + self.bottom) & self.board
    }

    /// The number of columns that are not full (the number of legal moves, unless the game is over).
    #[inline]
    pub fn count_legal(&self, p: &Position) -> u32 {
        self.legal_mask(p).count_ones()
    }

    /// Whether a stone of the side to move in column `col` (0-based) would make four in a row.
    ///
    /// # Panics
    ///
    /// In debug builds, if the column is full.
    #[inline]
    pub fn is_winning_move(&self, p: &Position, col: u8) -> bool {
        debug_assert!(self.can_play(p, col), "column {col} is full");
        let cell = (p.mask + self.bottom_cell(col)) & self.column_cells(col);
        self.has_won(p.current | cell)
    }

    /// Whether a set of stones contains four in a row, horizontally, vertically or diagonally.
    ///
    /// `stones` must be a set of stones in this board's layout (sentinel bits clear), such as
    /// [`Position::current`] or [`Position::opponent`]. Each direction is a shift `s` between neighbouring cells
    /// (1 up a column, `height + 1` along a row, `height` and `height + 2` along the diagonals); `m = b & (b >>
    /// s)` marks the cells that start a pair, and `m & (m >> 2s)` those that start a four.
    #[inline]
    pub fn has_won(&self, stones: u64) -> bool {
        // Boards narrower than 4 have no lines but the columns'; skipping the others also keeps their shifts below
        // 64, since a board 4 or more wide is at most 16 rows high. At the standard height the shifts are
        // constants when compiled (far fewer instructions than shifts by a register's count, in the innermost
        // loop of every count and search); the branch goes the same way every time.
        if self.width >= 4 && self.height == Self::STANDARD_HEIGHT {
            fours(stones, Self::STANDARD_HEIGHT)
        } else {
            self.has_won_other(stones)
        }
    }

    /// [`Connect4::has_won`] on a board that is not 6 rows high or is narrower than 4, out of line: it keeps the
    /// standard board's inlined code short.
    #[inline(never)]
    fn has_won_other(&self, stones: u64) -> bool {
        if self.width < 4 {
            let m = stones & (stones >> 1);
            m & (m >> 2) != 0
        } else {
            fours(stones, self.height)
        }
    }

    /// Whether the player who moved last has four in a row.
    #[inline]
    pub fn is_won(&self, p: &Position) -> bool {
        self.has_won(p.opponent())
    }

    /// Whether every cell holds a stone.
    #[inline]
    pub fn is_full(&self, p: &Position) -> bool {
        p.moves_played() == self.cells()
    }
}

/// Whether `stones`, in the layout of a board `h` rows high and at least 4 columns wide, hold four in a row.
/// Each direction is a shift `s` between neighbouring cells (1 up a column, `h + 1` along a row, `h` and `h + 2`
/// along the diagonals); `m = b & (b >> s)` marks the cells that start a pair, and `m & (m >> 2s)` those that
/// start a four. Inlined, so that a constant `h` makes constant shifts.
#[inline(always)]
fn fours(stones: u64, h: u32) -> bool {
    // Vertical, horizontal, the diagonal rising to the left (each step one column left, one row up), and the one
    // rising to the right; each tested as soon as it is made (a loop over the four shifts would keep its
    // counter's branches, and testing all four at once costs more time).
    let four = |s: u32| {
        let m = stones & (stones >> s);
        m & (m >> (2 * s))
    };
    four(1) != 0 || four(h + 1) != 0 || four(h) != 0 || four(h + 2) != 0
}

impl fmt::Display for Connect4 {
    /// The size, `7x6` (width by height).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A move's action is its column, 0 on the left.
impl Actions for Connect4 {
    fn actions(&self) -> usize {
        self.width() as usize
    }

    fn action(&self, col: u8) -> usize {
        usize::from(col)
    }
}

impl Game for Connect4 {
    type State = Position;
    type Move = u8;

    #[inline]
    fn node(&self, p: &Position) -> Node {
        if self.is_won(p) {
            let score = Value::from(self.win_score(p.moves_played()));
            // The player who moved last won; it is the opponent of the side to move.
            Node::Terminal(p.to_move().opponent().view(score))
        } else if self.is_full(p) {
            Node::Terminal(0.0)
        } else {
            Node::Decision(p.to_move())
        }
    }

    /// The columns that are not full, left to right; nothing once the game is over.
    #[inline]
    fn moves(&self, p: &Position, buf: &mut Vec<u8>) {
        if self.is_won(p) {
            buf.clear();
            return;
        }
        self.decision_moves(p, buf);
    }

    /// The columns that are not full, left to right, without the test for a win.
    #[inline]
    fn decision_moves(&self, p: &Position, buf: &mut Vec<u8>) {
        self.columns(self.legal_mask(p), buf);
    }

    /// A population count of the playable cells: no list, no moves made.
    #[inline]
    fn move_count(&self, p: &Position, _: &mut Vec<u8>) -> usize {
        self.count_legal(p) as usize
    }

    #[inline]
    fn play(&self, p: &mut Position, col: u8) {
        debug_assert!(!self.is_won(p), "move {col} after the game was won");
        self.play_col(p, col);
    }

    /// A win on the move (the fastest win there is), a cell where the opponent would win (its move is forced,
    /// and two of them lose), and the moves below such a cell, which lose on the reply ([`Connect4::safe_cells`]).
    #[inline]
    fn tactics(&self, p: &Position, moves: &mut Vec<u8>) -> Option<Value> {
        let (mover, m) = (p.to_move(), p.moves_played());
        if self.winning_cells(p.current()) & self.legal_mask(p) != 0 {
            return Some(mover.view(Value::from(self.win_score(m + 1))));
        }
        let safe = self.safe_cells(p);
        if safe == 0 {
            return Some(mover.opponent().view(Value::from(self.win_score(m + 2))));
        }
        moves.retain(|&col| safe & self.column_cells(col) != 0);
        None
    }

    /// The threats each move makes, most first, the centre first among equals ([`Connect4::order_by_threats`]).
    #[inline]
    fn order_moves(&self, p: &Position, moves: &mut [u8]) {
        self.order_by_threats(p, moves);
    }

    #[inline]
    fn has_move_order(&self) -> bool {
        true
    }

    #[inline]
    fn has_tactics(&self) -> bool {
        true
    }

    /// Pons' key `current + mask`: unique for every position of a given board size (positions of different
    /// sizes may share keys).
    ///
    /// In each column holding `k` stones, `mask` is `2^k - 1` and `current` is below `2^k`, so their sum lies in
    /// `2^k - 1 ..= 2^(k+1) - 2`: the ranges for different `k` are disjoint, the sum tells `current` apart
    /// within one, and it never carries into the next column. The side to move follows from the number of
    /// stones.
    #[inline]
    fn key(&self, p: &Position) -> u64 {
        p.current + p.mask
    }
}
