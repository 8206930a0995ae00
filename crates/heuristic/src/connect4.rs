//! Connect-4's threat evaluator.
//!
//! # Design
//!
//! Two features, both counted on the game's bitboards with a few shifts and population counts per direction
//! (no loop over cells):
//!
//! - **Open windows.** A window is four cells in a line (horizontal, vertical or either diagonal); it is open
//!   for a player while the other has no stone in it, so the player may still complete it. An open window
//!   holding `k` of the player's stones scores [`WINDOW`]`[k - 1]`: 1, 3 and 9 for 1, 2 and 3 stones. Each
//!   stone triples the weight because each leaves one cell fewer to fill, so that a window one stone from done
//!   outweighs several just begun. Counting windows also rewards the center without a term of its own: a
//!   center cell of the standard board lies in 13 windows, a corner in 3.
//! - **Threats.** A threat is an empty cell where a stone of the player would complete four. Late in the game
//!   the columns fill up and the player who must move into a cell below the opponent's threat loses; which
//!   player that is depends on the row (Allis' rule for even heights, such as the standard 6): rows are numbered
//!   from 1 at the bottom, and a threat of the first player on an odd row, or of the second player on an even
//!   row, tends to win the end of the game (zugzwang); a threat on the other parity rarely does. A good-parity
//!   threat scores [`GOOD_THREAT`] (12), the other [`OTHER_THREAT`] (4): more than the three-stone window it
//!   comes from, since a threat is a cell the opponent must never let the player have. A threat directly above
//!   a threat of the opponent scores nothing: the cell below it must be filled first, and whoever fills it
//!   either wins there (the opponent) or blocks there and hands the cell above to the opponent (the player).
//!   The rows are counted the same way on boards of odd height, where the parity argument no longer holds as
//!   stated.
//!
//! The estimate is the first player's windows and threats minus the second player's, from the first player's
//! (MAX's) view. Each side's part is at most every window at the three-stone weight plus every cell at the
//! good-threat weight, and the estimate is the difference of two such parts, so that sum is the bound (1,125 on
//! the standard board: 69 windows × 9 + 42 cells × 12). Terminal payoffs keep the default mapping, `p ±
//! bound`, so a faster win (a larger Pons score) stays larger.
//!
//! The noisy moves, played on past the horizon by a quiescence search, are the moves that win at once and those
//! that take the cell where the opponent would win at once.
//!
//! # Examples
//!
//! ```
//! use khela_games::connect4::Connect4;
//! use khela_games::Evaluator;
//! use khela_heuristic::connect4::Threats;
//!
//! let game = Connect4::standard();
//! let threats = Threats::new(&game);
//! assert_eq!(threats.bound(), 1125.0);
//! // The first stone in the center column opens 7 windows for X (4 horizontal, 1 vertical, 2 diagonal).
//! let center = game.parse("4").unwrap();
//! assert_eq!(threats.evaluate(&game, &center), 7.0);
//! // X has three in the bottom row with both ends free: two threats on row 1 (odd, good for X).
//! let open_three = game.parse("33445").unwrap();
//! let mut noisy = Vec::new();
//! threats.noisy(&game, &open_three, &mut noisy);
//! assert_eq!(noisy, [1, 5]); // O must block at column 2 or 6 (0-based 1 or 5); either way X wins.
//! ```

use khela_games::connect4::{Connect4, Position};
use khela_games::{Evaluator, Value};
use std::num::NonZeroU32;
use wide::u64x2;

/// The weight of an open window holding 1, 2 or 3 of a player's stones.
pub const WINDOW: [i32; 3] = [1, 3, 9];

/// The weight of a threat on the row parity that favours its owner (odd rows for the first player, even rows for
/// the second).
pub const GOOD_THREAT: i32 = 12;

/// The weight of a threat on the other row parity.
pub const OTHER_THREAT: i32 = 4;

/// The names of the terms, in the order [`Evaluator::terms`] lists them.
pub const TERMS: [&str; 5] = ["open_1", "open_2", "open_3", "x_threats", "o_threats"];

/// The threat evaluator for Connect-4 boards of one size (see the module documentation for its design).
///
/// It precomputes, for its board, the windows of four in each direction as bitboards of their first cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threats {
    /// The board it was made for.
    game: Connect4,
    /// Every playable cell.
    board: u64,
    /// The cells of odd rows, numbered from 1 at the bottom (0-based rows 0, 2, 4, …).
    odd_rows: u64,
    /// Per direction, the shift between neighbouring cells and the first cells of its windows. A direction
    /// whose windows do not fit in 64 bits has none, and shift 0: then it finds no window and no threat (a
    /// stone completes nothing with itself), and no shift reaches 64.
    directions: [(u32, u64); 4],
    /// The largest magnitude of an estimate.
    bound: i32,
}

impl Threats {
    /// The evaluator for boards of `game`'s size.
    pub fn new(game: &Connect4) -> Threats {
        let (width, height) = (game.width(), game.height());
        let board = (0..width as u8).fold(0, |acc, col| acc | game.column_cells(col));
        let odd_column = (0..height).step_by(2).fold(0u64, |acc, row| acc | 1 << row);
        let odd_rows = (0..width).fold(0, |acc, col| acc | odd_column << (col * (height + 1)));
        // Up a column, along a row, and the two diagonals (as in `Connect4::has_won`).
        let directions = [1, height + 1, height, height + 2].map(|shift| {
            if 3 * shift < u64::BITS {
                (shift, board & board >> shift & board >> (2 * shift) & board >> (3 * shift))
            } else {
                (0, 0)
            }
        });
        let windows: u32 = directions.iter().map(|&(_, starts)| starts.count_ones()).sum();
        let bound = windows as i32 * WINDOW[2] + game.cells() as i32 * GOOD_THREAT;
        Threats { game: *game, board, odd_rows, directions, bound }
    }

    /// The cells of `within` where a stone added to `stones` would complete four in a row.
    #[inline]
    fn wins(&self, stones: u64, within: u64) -> u64 {
        self.game.winning_cells(stones) & within
    }

    /// The terms of the estimate, in the order of [`TERMS`].
    #[inline]
    fn term_values(&self, p: &Position) -> [i32; 5] {
        // At the standard height the shifts are constants when compiled, as in `Connect4::has_won`: a shift by a
        // register's count is several micro-operations on x86-64 without BMI2, and with the directions written
        // out the registers do not spill (measured: see docs/src/measured-choices.md, 'Depth-limited engine and
        // evaluators').
        let h = Connect4::STANDARD_HEIGHT;
        if self.game.height() == h {
            self.terms_along(p, [1, h + 1, h, h + 2])
        } else {
            self.terms_along(p, self.directions.map(|(s, _)| s))
        }
    }

    /// [`Threats::term_values`] with the directions' shifts given (the same as `self.directions`' own).
    #[inline(always)]
    fn terms_along(&self, p: &Position, shifts: [u32; 4]) -> [i32; 5] {
        let (x, o) =
            if p.moves_played().is_multiple_of(2) { (p.current(), p.opponent()) } else { (p.opponent(), p.current()) };
        // Both players at once: the first player's stones in one lane of a vector, the second's in the other, so
        // that each shift and mask is made once for both (a quarter less time per evaluation than one player at a
        // time). Per player, summed over the directions, the open windows holding one or three stones, two or
        // three, and three: the bits of the windows' stone counts. The directions are written out, so that
        // constant shifts stay constant.
        let stones = u64x2::from([x, o]);
        let mut counts = [[0u32; 3]; 2];
        let mut along = |s: u32, starts: u64| {
            // Bit `b` of `shifted[k]` is the cell `k` steps along the direction from cell `b`.
            let shifted = [stones, stones >> s, stones >> (2 * s), stones >> (3 * s)];
            // A window is open for a player while the other has none of its cells: the lanes swapped.
            let [x_any, o_any] = (shifted[0] | shifted[1] | shifted[2] | shifted[3]).to_array();
            let open = u64x2::splat(starts) & !u64x2::from([o_any, x_any]);
            // A four reads as an empty window ([`Connect4::window_stones`]): neither is counted.
            let (ones, twos) = Connect4::window_stones(shifted);
            let (ones, twos) = (open & ones, open & twos);
            let ([x1, o1], [x2, o2], [x3, o3]) = (ones.to_array(), twos.to_array(), (ones & twos).to_array());
            counts[0][0] += x1.count_ones();
            counts[0][1] += x2.count_ones();
            counts[0][2] += x3.count_ones();
            counts[1][0] += o1.count_ones();
            counts[1][1] += o2.count_ones();
            counts[1][2] += o3.count_ones();
        };
        let d = self.directions;
        along(shifts[0], d[0].1);
        along(shifts[1], d[1].1);
        along(shifts[2], d[2].1);
        along(shifts[3], d[3].1);
        // Windows of exactly one, two and three stones.
        let [xw, ow] = counts.map(|[ones, twos, threes]| [ones - threes, twos - threes, threes].map(|c| c as i32));
        let [x_wins, o_wins] = self.game.winning_cells_pair([x, o]);
        let empty = self.board & !p.mask();
        let (xt, ot) = (x_wins & empty, o_wins & empty);
        // A threat directly above the opponent's is dead (one row up is one bit up).
        let (xt, ot) = (xt & !(ot << 1), ot & !(xt << 1));
        let parity =
            |good: u64, other: u64| GOOD_THREAT * good.count_ones() as i32 + OTHER_THREAT * other.count_ones() as i32;
        [
            WINDOW[0] * (xw[0] - ow[0]),
            WINDOW[1] * (xw[1] - ow[1]),
            WINDOW[2] * (xw[2] - ow[2]),
            parity(xt & self.odd_rows, xt & !self.odd_rows),
            -parity(ot & !self.odd_rows, ot & self.odd_rows),
        ]
    }
}

impl Evaluator<Connect4> for Threats {
    /// Every win counts alike (tic-tac-toe) or a faster win more (Connect-4's scores): a proven result is final.
    fn proofs_are_final(&self) -> bool {
        true
    }

    /// Two: a stone's windows count before the reply can block any, so the estimates favour the side that moved
    /// last, and an iteration whose horizon falls after the other side's move orders the next one badly. The
    /// engine from the start searches 2,621 nodes to depth 6 deepening by one, 1,468 by two; to depth 10, 60,786
    /// and 43,134 (the same values).
    fn deepening_step(&self) -> NonZeroU32 {
        NonZeroU32::new(2).expect("two is not zero")
    }

    /// # Panics
    ///
    /// In debug builds, if `game` is not the board size the evaluator was made for.
    #[inline]
    fn evaluate(&self, game: &Connect4, p: &Position) -> Value {
        debug_assert_eq!(*game, self.game, "a {} evaluator asked about a {game} board", self.game);
        Value::from(self.term_values(p).iter().sum::<i32>())
    }

    /// The windows on the board times the three-stone weight plus the cells times the good-threat weight.
    fn bound(&self) -> Value {
        Value::from(self.bound)
    }

    /// The columns, left to right, whose move wins at once or takes the cell where the opponent would win.
    fn noisy(&self, game: &Connect4, p: &Position, moves: &mut Vec<u8>) {
        moves.clear();
        let legal = game.legal_mask(p);
        let cells = self.wins(p.current(), legal) | self.wins(p.opponent(), legal);
        moves.extend((0..game.width() as u8).filter(|&col| cells & game.column_cells(col) != 0));
    }

    /// `open_1`, `open_2`, `open_3` (open windows with 1, 2, 3 stones, the first player's minus the second's,
    /// weighted), `x_threats` (the first player's threats, weighted by row parity) and `o_threats` (the second
    /// player's, negative).
    fn terms(&self, _: &Connect4, p: &Position) -> Vec<(&'static str, Value)> {
        TERMS.into_iter().zip(self.term_values(p).map(Value::from)).collect()
    }
}
