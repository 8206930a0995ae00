//! What the rules tell of a position a stone or two ahead, without playing: the cells where a stone would
//! complete four ([`Connect4::winning_cells`]), the moves that do not lose on the reply
//! ([`Connect4::safe_cells`]), and the moves by the threats they make ([`Connect4::order_by_threats`]; the
//! windows of four they leave open as a tie-break, [`Connect4::order_by_threats_then_windows`]). The solver's
//! knowledge and the game's tactics and move order share them.

use super::{Connect4, Position};
use std::ops::{BitAnd, BitOr, BitXor, Shl, Shr};
use wide::u64x2;

impl Connect4 {
    /// The cells where a stone added to `stones` would complete four in a row, empty or not (`stones` in this
    /// board's layout): along each direction, three of the stones before, after or around the cell.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// // X on the bottom row of columns 1-3, O on top of them: each has one cell left to finish, in column 4.
    /// let p = game.parse("112233").unwrap();
    /// assert_eq!(game.winning_cells(p.current()), game.bottom_cell(3));
    /// assert_eq!(game.winning_cells(p.opponent()), game.bottom_cell(3) << 1);
    /// ```
    #[inline]
    pub fn winning_cells(&self, stones: u64) -> u64 {
        // As in `has_won`: constant shifts at the standard height, the other boards out of line.
        let cells = if self.width >= 4 && self.height == Self::STANDARD_HEIGHT {
            threes(stones, Self::STANDARD_HEIGHT)
        } else {
            self.threes_other(stones)
        };
        cells & self.board
    }

    /// [`Connect4::winning_cells`] of two sets of stones at once, in the two lanes of a vector at the standard
    /// height (each shift and mask made once for both, where two calls make each twice).
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// let p = game.parse("112233").unwrap();
    /// let pair = game.winning_cells_pair([p.current(), p.opponent()]);
    /// assert_eq!(pair, [game.winning_cells(p.current()), game.winning_cells(p.opponent())]);
    /// ```
    #[inline(always)]
    pub fn winning_cells_pair(&self, stones: [u64; 2]) -> [u64; 2] {
        if self.width >= 4 && self.height == Self::STANDARD_HEIGHT {
            (threes(u64x2::from(stones), Self::STANDARD_HEIGHT) & u64x2::splat(self.board)).to_array()
        } else {
            stones.map(|s| self.threes_other(s) & self.board)
        }
    }

    /// [`Connect4::winning_cells`]' lines on a board that is not 6 rows high or is narrower than 4, out of line.
    #[inline(never)]
    fn threes_other(&self, stones: u64) -> u64 {
        if self.width < 4 { (stones << 1) & (stones << 2) & (stones << 3) } else { threes(stones, self.height) }
    }

    /// The cells where the side to move can drop a stone after which the opponent cannot win on the reply: the
    /// one where the opponent would win if there is one (none if there are two), else any, and never below a cell
    /// where the opponent would win. 0 if every move loses on the reply (or the game is over).
    #[inline(always)]
    pub fn safe_cells(&self, p: &Position) -> u64 {
        let legal = self.legal_mask(p);
        let threats = self.winning_cells(p.opponent()) & !p.mask();
        let forced = legal & threats;
        let open = match forced.count_ones() {
            0 => legal,
            1 => forced,
            _ => 0,
        };
        open & !(threats >> 1)
    }

    /// Sorts `moves` (columns of `p`, each playable) by the threats each makes, most first: the empty cells where
    /// the mover, once the move is made, would complete four with one more stone (Pons, "Solving Connect 4").
    /// Among equals, the centre first, then the columns nearer it, the left one of two first. A move that wins at
    /// once is not told apart: the solver and the game's tactics settle such a node before it is ordered, and
    /// where an engine's tactics do not act (one ply from its horizon), putting such moves first saves it almost
    /// no nodes.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// // X, to move, holds the first two cells of the bottom row: a stone on the third or the fourth makes a
    /// // threat (the other one); the centre column first of those, then the rest from the centre out.
    /// let p = game.parse("1727").unwrap();
    /// let mut moves = vec![0, 1, 2, 3, 4, 5, 6];
    /// game.order_by_threats(&p, &mut moves);
    /// assert_eq!(moves, [3, 2, 4, 1, 5, 0, 6]);
    /// ```
    #[inline(always)]
    pub fn order_by_threats(&self, p: &Position, moves: &mut [u8]) {
        self.sort_by_threats(p, moves, |_| 0);
    }

    /// [`Connect4::order_by_threats`], with the windows each move leaves as the tie-break before the centre:
    /// among moves that make as many threats, the one after which the mover's [`Connect4::open_windows`] most
    /// exceed the opponent's comes first. It costs a few hundred instructions a move, for the shallow nodes of a
    /// solve, whose subtrees are large and whose threats rarely tell the moves apart.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// // X, to move, holds the bottom cell of the third column and the second of the fourth, O the first and
    /// // third of the fourth. No move makes a threat: by threats alone the centre goes first; by the windows,
    /// // the third column (on X's stone, beside the other) and only then the centre.
    /// let p = game.parse("3444").unwrap();
    /// let mut moves = vec![0, 1, 2, 3, 4, 5, 6];
    /// game.order_by_threats_then_windows(&p, &mut moves);
    /// assert_eq!(moves, [2, 3, 4, 5, 6, 1, 0]);
    /// ```
    pub fn order_by_threats_then_windows(&self, p: &Position, moves: &mut [u8]) {
        let theirs = p.opponent();
        self.sort_by_threats(p, moves, |mine| {
            let lead = self.open_windows(mine, theirs) - self.open_windows(theirs, mine);
            (WINDOWS_TIE_MIDDLE as i32 - lead.clamp(1 - WINDOWS_TIE_MIDDLE as i32, WINDOWS_TIE_MIDDLE as i32 - 1))
                as u32
        });
    }

    /// The windows of four cells on the board that `mine` could still complete (none of `theirs` in them),
    /// weighed by the stones of `mine` each holds: 1 for one, 3 for two, 9 for three.
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// let game = Connect4::standard();
    /// // One stone in the corner: one window up its column, one along the row, one up the diagonal.
    /// assert_eq!(game.open_windows(game.bottom_cell(0), 0), 3);
    /// // Blocked by a stone beside it, the row's window is gone.
    /// assert_eq!(game.open_windows(game.bottom_cell(0), game.bottom_cell(1)), 2);
    /// ```
    pub fn open_windows(&self, mine: u64, theirs: u64) -> i32 {
        let shifted = |stones: u64, by: u32| stones.checked_shr(by).unwrap_or(0);
        let mut total = 0;
        // Up a column, along a row, and the two diagonals.
        for s in [1, self.height + 1, self.height, self.height + 2] {
            let [a, b, c, d] = [0, 1, 2, 3].map(|k| shifted(mine, k * s));
            let starts = [0, 1, 2, 3].map(|k| shifted(self.board, k * s)).into_iter().fold(!0, |acc, x| acc & x);
            let blocked = [0, 1, 2, 3].map(|k| shifted(theirs, k * s)).into_iter().fold(0, |acc, x| acc | x);
            let (open, (ones, twos)) = (starts & !blocked, Self::window_stones([a, b, c, d]));
            let count = |cells: u64| cells.count_ones() as i32;
            total += count(open & ones & !twos) + 3 * count(open & !ones & twos) + 9 * count(open & ones & twos);
        }
        total
    }

    /// The stones of every window of four cells along a direction at once, as the two bits of a sum, from the stones
    /// and their shifts by one, two and three steps (`shifted[k]`: the stones `k` steps along from each cell): bit `b`
    /// of `ones` and of `twos` give the stones of the window starting at `b` as ones + 2·twos. A bit-sliced adder: a
    /// pair's sum bit and carry bit are never both set, so a window of four reads as 0, like an empty one. Connect-4's
    /// open windows ([`Connect4::open_windows`]) and the heuristic crate's threat evaluator count with it, the
    /// latter on vectors of two words (one player's stones in each lane).
    ///
    /// ```
    /// use khela_games::connect4::Connect4;
    /// // Stones on bits 1 and 2 of a row whose step is one bit.
    /// let stones = 0b0110u64;
    /// let (ones, twos) = Connect4::window_stones([0, 1, 2, 3].map(|k| stones >> k));
    /// // The windows from bits 0 and 1 hold two stones, from bit 2 one.
    /// assert_eq!((ones & 0b111, twos & 0b111), (0b100, 0b011));
    /// ```
    #[inline(always)]
    pub fn window_stones<T: Copy + BitAnd<Output = T> + BitXor<Output = T>>(shifted: [T; 4]) -> (T, T) {
        let [a, b, c, d] = shifted;
        let (low1, high1, low2, high2) = (a ^ b, a & b, c ^ d, c & d);
        (low1 ^ low2, high1 ^ high2 ^ low1 & low2)
    }

    /// Sorts `moves` by the threats each makes (most first), then by `tie` of the mover's stones after the move
    /// (least first, below 2^11), then from the centre out.
    #[inline(always)]
    fn sort_by_threats(&self, p: &Position, moves: &mut [u8], tie: impl Fn(u64) -> u32) {
        // A node left with one move (a forced block, often) has nothing to order.
        if moves.len() < 2 {
            return;
        }
        let (legal, centre) = (self.legal_mask(p), self.width as i32 / 2);
        // Each move's key (its threats, its tie-break, its rank from the centre, then the column), sorted by
        // insertion as it is made: a board is at most 32 columns wide (a column takes two bits or more of 64),
        // and here seven (a call of the library's sort and a table zeroed at every node would cost more).
        let mut keys = [0u32; 32];
        // Two moves at a time, their threats found together (`winning_cells_pair`; an odd count's last move
        // fills both lanes), in fewer instructions than one move at a time.
        for (pair_index, pair) in moves.chunks(2).enumerate() {
            let cells = [pair[0], pair[pair.len() - 1]].map(|col| legal & self.column_cells(col));
            let wins = self.winning_cells_pair(cells.map(|cell| p.current() | cell));
            for (k, &col) in pair.iter().enumerate() {
                let threats = (wins[k] & !(p.mask() | cells[k])).count_ones();
                // The centre 0, then one left 1, one right 2, two left 3, …
                let offset = i32::from(col) - centre;
                let rank = 2 * offset.unsigned_abs() - u32::from(offset < 0);
                let key = (64 - threats) << 25 | tie(p.current() | cells[k]) << 14 | rank << 8 | u32::from(col);
                let mut j = 2 * pair_index + k;
                while j > 0 && keys[j - 1] > key {
                    keys[j] = keys[j - 1];
                    j -= 1;
                }
                keys[j] = key;
            }
        }
        for (mv, &key) in moves.iter_mut().zip(&keys) {
            *mv = key as u8;
        }
    }
}

/// The middle of the windows' tie-break in [`Connect4::order_by_threats_then_windows`]'s keys (11 bits): a
/// lead of the mover's open windows over the opponent's, clamped to less than it either way, is subtracted.
const WINDOWS_TIE_MIDDLE: u32 = 1 << 10;

/// The cells (sentinels included) where a stone added to `stones` would complete four in a row, on a board `h`
/// rows high and at least 4 columns wide: along each direction, three of the stones before, after or around the
/// cell; up a column only the three below it. Inlined, so that a constant `h` makes constant shifts.
#[inline(always)]
fn threes<T>(stones: T, h: u32) -> T
where
    T: Copy + Shl<u32, Output = T> + Shr<u32, Output = T> + BitAnd<Output = T> + BitOr<Output = T>,
{
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for s in [h + 1, h, h + 2] {
        let (after1, after2, after3) = (stones >> s, stones >> (2 * s), stones >> (3 * s));
        let (before1, before2, before3) = (stones << s, stones << (2 * s), stones << (3 * s));
        cells = cells | before1 & before2 & (before3 | after1) | after1 & after2 & (after3 | before1);
    }
    cells
}
