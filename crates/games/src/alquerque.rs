//! Boards of the alquerque family: points joined by straight lines, on which pieces step to an adjacent point
//! or jump over one to the point beyond. Bagh-Chal ([`crate::bagh_chal`]) plays on the square grid, Sixteen
//! Soldiers ([`crate::sixteen_soldiers`]) on the grid with a triangle on two opposite sides.
//!
//! A [`Board`] is built from its straight lines, each a sequence of points; the points are numbered in reading
//! order (the top rank first, left to right), so that a set of points is a `u64` bit mask (at most 64 points).
//! From the lines it derives, per point and per direction, the adjacent point and the jump (the point jumped
//! over and the point landed on): two points are adjacent when they follow each other on a line, and a jump
//! goes over the next point of a line to the one after it.
//!
//! # Notation
//!
//! Points are named as on the boards players draw and in the books on these games, like a chess board: files
//! `a`, `b`, … from the left, ranks `1`, `2`, … from the bottom. `c3` is the centre of the 5 × 5 grid.

use std::fmt::Write;
use thiserror::Error;

/// Why a board written rank by rank is refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BoardError {
    /// The wrong number of ranks.
    #[error("{1} ranks expected, {0} given")]
    Ranks(usize, usize),
    /// A rank with the wrong number of points (ranks numbered as on the board).
    #[error("rank {0} has {1} points, not {2}")]
    Rank(usize, usize, usize),
    /// A character that is neither piece nor `.`.
    #[error("{0:?} at {1} is not {2}, {3} or '.'")]
    Character(char, String, char, char),
}

/// A set of points, bit `i` for point `i`.
pub type Points = u64;

/// No point: the empty slot of the neighbour and jump tables.
pub const NONE: u8 = u8::MAX;

/// The eight directions, in the picture: north (up), north-east, east, …, north-west. Direction `d`'s opposite
/// is `(d + 4) % 8`.
pub const DIRECTIONS: usize = 8;

/// The largest board: its points must fit in a [`Points`] mask.
pub const MAX_POINTS: usize = 64;

/// A board: its points, named and placed on a grid of files and ranks, and the lines joining them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Each point's (file, rank), 0-based from the bottom left.
    coords: Vec<(u8, u8)>,
    /// The number of files and of ranks.
    files: u8,
    ranks: u8,
    /// `step[p][d]`: the point adjacent to `p` in direction `d`, or [`NONE`].
    step: Vec<[u8; DIRECTIONS]>,
    /// `adjacent[p]`: the points adjacent to `p`.
    adjacent: Vec<Points>,
    /// `jumps[p]`: the jumps from `p`, as (point jumped over, point landed on), by direction.
    jumps: Vec<Vec<(u8, u8, u8)>>,
    /// The number of lines between adjacent points.
    links: usize,
}

impl Board {
    /// The board with these points, given as (file, rank), and these straight lines, each listing its points
    /// (as indices into `coords`) in order along the line.
    ///
    /// # Panics
    ///
    /// If there are more than [`MAX_POINTS`] points, or a line has fewer than two points or steps in more than
    /// one direction. Boards are built by the games, from fixed descriptions.
    pub fn from_lines(coords: Vec<(u8, u8)>, lines: &[Vec<u8>]) -> Board {
        assert!(coords.len() <= MAX_POINTS, "{} points do not fit in a mask", coords.len());
        let n = coords.len();
        let files = coords.iter().map(|&(f, _)| f + 1).max().unwrap_or(0);
        let ranks = coords.iter().map(|&(_, r)| r + 1).max().unwrap_or(0);
        let mut step = vec![[NONE; DIRECTIONS]; n];
        let mut links = 0;
        for line in lines {
            assert!(line.len() >= 2, "a line of one point");
            let d = direction(coords[line[0] as usize], coords[line[1] as usize]);
            for pair in line.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                assert_eq!(direction(coords[a as usize], coords[b as usize]), d, "a line that bends");
                step[a as usize][d] = b;
                step[b as usize][(d + 4) % DIRECTIONS] = a;
                links += 1;
            }
        }
        let adjacent = step.iter().map(|s| s.iter().filter(|&&q| q != NONE).fold(0, |m, &q| m | 1 << q)).collect();
        let jumps = (0..n)
            .map(|p| {
                (0..DIRECTIONS)
                    .filter_map(|d| {
                        let over = step[p][d];
                        let to = if over == NONE { NONE } else { step[over as usize][d] };
                        (to != NONE).then_some((d as u8, over, to))
                    })
                    .collect()
            })
            .collect();
        Board { coords, files, ranks, step, adjacent, jumps, links }
    }

    /// The `n` × `n` alquerque grid (Bagh-Chal's board when `n` is 5): the orthogonal lines everywhere, and the
    /// diagonals through the points whose file + rank is even. `n` is odd, so that the corners lie on diagonals
    /// and the board has the 8 symmetries of the square.
    ///
    /// # Panics
    ///
    /// If `n` is even, below 3 or above 7.
    pub fn grid(n: u8) -> Board {
        assert!(!n.is_multiple_of(2) && (3..=7).contains(&n), "the grid is odd, 3 to 7 points wide: {n}");
        let coords: Vec<(u8, u8)> = (0..n).rev().flat_map(|r| (0..n).map(move |f| (f, r))).collect();
        let at = |f: i32, r: i32| -> Option<u8> {
            (0..n as i32).contains(&f).then_some(())?;
            (0..n as i32).contains(&r).then_some(())?;
            Some(((n as i32 - 1 - r) * n as i32 + f) as u8)
        };
        let mut lines = Vec::new();
        for i in 0..n as i32 {
            lines.push((0..n as i32).filter_map(|f| at(f, i)).collect()); // a rank, west to east
            lines.push((0..n as i32).filter_map(|r| at(i, r)).collect()); // a file, south to north
        }
        // The diagonals through even points: file − rank = k and file + rank = k for even k.
        let n2 = 2 * n as i32;
        for k in (-n2..=n2).step_by(2) {
            let rising: Vec<u8> = (0..n as i32).filter_map(|f| at(f, f - k)).collect();
            let falling: Vec<u8> = (0..n as i32).filter_map(|f| at(f, k - f)).collect();
            lines.extend([rising, falling].into_iter().filter(|line| line.len() >= 2));
        }
        Board::from_lines(coords, &lines)
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether the board has no points (never, for the games' boards).
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Every point.
    pub fn all(&self) -> Points {
        if self.len() == 64 { u64::MAX } else { (1 << self.len()) - 1 }
    }

    /// The point adjacent to `p` in direction `d`, if any.
    #[inline]
    pub fn step(&self, p: u8, d: usize) -> Option<u8> {
        let q = self.step[p as usize][d];
        (q != NONE).then_some(q)
    }

    /// The points adjacent to `p`.
    #[inline]
    pub fn adjacent(&self, p: u8) -> Points {
        self.adjacent[p as usize]
    }

    /// The jumps from `p`: (direction, point jumped over, point landed on).
    #[inline]
    pub fn jumps(&self, p: u8) -> &[(u8, u8, u8)] {
        &self.jumps[p as usize]
    }

    /// The number of lines between adjacent points.
    pub fn links(&self) -> usize {
        self.links
    }

    /// The number of jumps, counting each direction.
    pub fn jump_count(&self) -> usize {
        self.jumps.iter().map(Vec::len).sum()
    }

    /// The point's (file, rank), 0-based from the bottom left.
    pub fn coords(&self, p: u8) -> (u8, u8) {
        self.coords[p as usize]
    }

    /// The number of ranks.
    pub fn rank_count(&self) -> u8 {
        self.ranks
    }

    /// The point's name: `c3`.
    pub fn name(&self, p: u8) -> String {
        let (f, r) = self.coords[p as usize];
        format!("{}{}", (b'a' + f) as char, r + 1)
    }

    /// The point named `text`, if the board has it.
    pub fn point(&self, text: &str) -> Option<u8> {
        let mut chars = text.chars();
        let file = chars.next()?;
        let rank: u8 = chars.as_str().parse().ok()?;
        let f = (file as u32).checked_sub('a' as u32)?;
        let at = (u8::try_from(f).ok()?, rank.checked_sub(1)?);
        self.coords.iter().position(|&c| c == at).map(|p| p as u8)
    }

    /// The points of each rank, top rank first, each rank west to east: the order of the one-line position
    /// notations (which is the points' own order).
    pub fn ranks(&self) -> Vec<Vec<u8>> {
        let mut ranks: Vec<Vec<u8>> = vec![Vec::new(); self.ranks as usize];
        for (p, &(_, r)) in self.coords.iter().enumerate() {
            ranks[(self.ranks - 1 - r) as usize].push(p as u8);
        }
        ranks
    }

    /// The two sides' pieces of a board written rank by rank, the top rank first, `/` between ranks, a character
    /// a point west to east: `pieces[0]` or `pieces[1]`, or `.` for an empty point (the games' one-line
    /// position notations).
    pub fn read_pieces(&self, text: &str, pieces: [char; 2]) -> Result<(Points, Points), BoardError> {
        let ranks = self.ranks();
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != ranks.len() {
            return Err(BoardError::Ranks(rows.len(), ranks.len()));
        }
        let mut sides = (0, 0);
        for (i, (row, points)) in rows.iter().zip(&ranks).enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != points.len() {
                return Err(BoardError::Rank(ranks.len() - i, chars.len(), points.len()));
            }
            for (&c, &p) in chars.iter().zip(points) {
                match c {
                    _ if c == pieces[0] => sides.0 |= 1 << p,
                    _ if c == pieces[1] => sides.1 |= 1 << p,
                    '.' => {}
                    _ => return Err(BoardError::Character(c, self.name(p), pieces[0], pieces[1])),
                }
            }
        }
        Ok(sides)
    }

    /// The board written as [`Board::read_pieces`] reads it.
    pub fn write_pieces(&self, (first, second): (Points, Points), pieces: [char; 2]) -> String {
        self.write_with(|p| match (first >> p & 1, second >> p & 1) {
            (1, _) => pieces[0],
            (_, 1) => pieces[1],
            _ => '.',
        })
    }

    /// The board in one line, `symbol(p)` for each point: the ranks from the top, separated by `/`.
    pub fn write_with(&self, symbol: impl Fn(u8) -> char) -> String {
        let ranks: Vec<String> = self.ranks().iter().map(|rank| rank.iter().map(|&p| symbol(p)).collect()).collect();
        ranks.join("/")
    }

    /// The board drawn with its lines ([`Board::draw`]), the two sides' pieces on it as `pieces`, `·` on the
    /// empty points.
    pub fn draw_pieces(&self, (first, second): (Points, Points), pieces: [char; 2]) -> String {
        self.draw(|p| match (first >> p & 1, second >> p & 1) {
            (1, _) => pieces[0],
            (_, 1) => pieces[1],
            _ => '·',
        })
    }

    /// The board drawn in text, with its lines, `symbol(p)` at each point, the ranks numbered on the left and the
    /// files lettered below; rows separated by newlines, none after the last.
    pub fn draw(&self, symbol: impl Fn(u8) -> char) -> String {
        // Point (f, r) sits at column 4 + 4f, row 2(ranks − 1 − r) of a character grid.
        let (width, height) = (4 * self.files as usize + 1, 2 * self.ranks as usize - 1);
        let mut grid = vec![vec![' '; width]; height];
        let place = |p: u8| {
            let (f, r) = self.coords[p as usize];
            (4 + 4 * f as usize, 2 * (self.ranks - 1 - r) as usize)
        };
        for p in 0..self.len() as u8 {
            let (x, y) = place(p);
            // East and north links only, so that each line is drawn once.
            for (d, fill) in [(2, '─'), (0, '│'), (1, '╱'), (7, '╲')] {
                let Some(q) = self.step(p, d) else { continue };
                let (qx, qy) = place(q);
                match d {
                    2 => (x + 1..qx).for_each(|c| grid[y][c] = fill),
                    0 => (qy + 1..y).for_each(|row| grid[row][x] = fill),
                    _ => grid[(y + qy) / 2][(x + qx) / 2] = fill,
                }
            }
        }
        for p in 0..self.len() as u8 {
            let (x, y) = place(p);
            grid[y][x] = symbol(p);
        }
        for r in 0..self.ranks {
            let label = (r + 1).to_string();
            for (i, c) in label.chars().enumerate() {
                grid[2 * (self.ranks - 1 - r) as usize][i] = c;
            }
        }
        let mut text = String::new();
        for row in grid {
            let line: String = row.into_iter().collect();
            let _ = writeln!(text, "{}", line.trim_end());
        }
        text.push_str("   ");
        for f in 0..self.files {
            let _ = write!(text, " {}  ", (b'a' + f) as char);
        }
        text.trim_end().to_string()
    }

    /// The permutation of the points that a map of coordinates gives, if it maps the board onto itself, lines
    /// onto lines.
    pub fn symmetry(&self, map: impl Fn(u8, u8) -> (u8, u8)) -> Option<Vec<u8>> {
        let perm: Vec<u8> = (0..self.len())
            .map(|p| {
                let (f, r) = self.coords[p];
                let image = map(f, r);
                self.coords.iter().position(|&c| c == image).map(|q| q as u8)
            })
            .collect::<Option<_>>()?;
        let keeps_lines = (0..self.len() as u8).all(|p| {
            let image: Points = crate::alquerque::points(self.adjacent(p)).fold(0, |m, q| m | 1 << perm[q as usize]);
            image == self.adjacent(perm[p as usize])
        });
        keeps_lines.then_some(perm)
    }
}

/// The direction from point `a` to point `b` on a line, from their coordinates.
fn direction((af, ar): (u8, u8), (bf, br): (u8, u8)) -> usize {
    match (bf.cmp(&af), br.cmp(&ar)) {
        (std::cmp::Ordering::Equal, std::cmp::Ordering::Greater) => 0,
        (std::cmp::Ordering::Greater, std::cmp::Ordering::Greater) => 1,
        (std::cmp::Ordering::Greater, std::cmp::Ordering::Equal) => 2,
        (std::cmp::Ordering::Greater, std::cmp::Ordering::Less) => 3,
        (std::cmp::Ordering::Equal, std::cmp::Ordering::Less) => 4,
        (std::cmp::Ordering::Less, std::cmp::Ordering::Less) => 5,
        (std::cmp::Ordering::Less, std::cmp::Ordering::Equal) => 6,
        (std::cmp::Ordering::Less, std::cmp::Ordering::Greater) => 7,
        (std::cmp::Ordering::Equal, std::cmp::Ordering::Equal) => panic!("a line through one point twice"),
    }
}

/// The points of a set, in ascending order.
#[inline]
pub fn points(mut set: Points) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let p = set.trailing_zeros() as u8;
            set &= set - 1;
            p
        })
    })
}

/// A set of points moved by a permutation of the board's points.
pub fn permute(set: Points, perm: &[u8]) -> Points {
    points(set).fold(0, |m, p| m | 1 << perm[p as usize])
}

/// A permutation of the points applied to whole sets at once, a byte of the set at a time: what [`permute`]
/// does, in eight table lookups, for the searches that move millions of sets (retrograde analysis).
#[derive(Clone, Debug)]
pub struct Permutation {
    /// `bytes[k][b]`: where the points of byte `b` at byte position `k` of a set go.
    bytes: Vec<[Points; 256]>,
}

impl Permutation {
    /// The tables of a permutation of the points (as [`crate::bagh_chal::BaghChal::symmetries`] gives them).
    pub fn new(perm: &[u8]) -> Permutation {
        let bytes = (0..perm.len().div_ceil(8))
            .map(|k| {
                let mut table = [0; 256];
                for (b, image) in table.iter_mut().enumerate() {
                    let set = (b as Points) << (8 * k) & ((1u128 << perm.len()) - 1) as Points;
                    *image = permute(set, perm);
                }
                table
            })
            .collect();
        Permutation { bytes }
    }

    /// The set moved by the permutation.
    #[inline]
    pub fn apply(&self, set: Points) -> Points {
        self.bytes.iter().enumerate().fold(0, |image, (k, table)| image | table[(set >> (8 * k)) as usize & 255])
    }
}

/// The powers of 3 up to 3⁴⁰, for [`base3`].
const POW3: [u64; 41] = {
    let mut pow = [1u64; 41];
    let mut i = 1;
    while i < 41 {
        pow[i] = pow[i - 1] * 3;
        i += 1;
    }
    pow
};

/// The board with `first`'s pieces and `second`'s (disjoint sets of points, all below 40) as a number in base 3,
/// digit `p` being 0 (empty), 1 (`first`) or 2 (`second`): a unique number below 3⁴⁰ < 2⁶⁴ for every board, from
/// which the games make keys that never collide while the rest of a position fits beside it in 64 bits.
#[inline]
pub fn base3(first: Points, second: Points) -> u64 {
    debug_assert!(first & second == 0 && (first | second) >> 40 == 0, "pieces on one point, or past point 39");
    points(first).map(|p| POW3[p as usize]).sum::<u64>() + 2 * points(second).map(|p| POW3[p as usize]).sum::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_tables_move_sets_as_permute_does() {
        for n in [3u8, 5, 7] {
            let board = Board::grid(n);
            let quarter = board.symmetry(|f, r| (r, n - 1 - f)).unwrap();
            let table = Permutation::new(&quarter);
            let mut set: Points = 0x9e37_79b9_7f4a_7c15;
            for _ in 0..1000 {
                set = crate::rng::splitmix64(set);
                let within = set & board.all();
                assert_eq!(table.apply(within), permute(within, &quarter));
            }
        }
    }

    #[test]
    fn the_bagh_chal_grid() {
        let board = Board::grid(5);
        assert_eq!(board.len(), 25);
        // 40 orthogonal links and 16 diagonal ones.
        assert_eq!(board.links(), 56);
        let c3 = board.point("c3").unwrap();
        assert_eq!(board.adjacent(c3).count_ones(), 8);
        assert_eq!(board.adjacent(board.point("b3").unwrap()).count_ones(), 4);
        assert_eq!(board.adjacent(board.point("a1").unwrap()).count_ones(), 3);
        assert_eq!(board.name(0), "a5");
        assert_eq!(board.name(24), "e1");
        assert_eq!(board.point("f1"), None);
        assert_eq!(board.point("a0"), None);
        assert_eq!(board.point("a"), None);
        // A jump along each line of three or more: from a1 to a3, c3 and c1.
        let a1 = board.point("a1").unwrap();
        let landings: Vec<String> = board.jumps(a1).iter().map(|&(_, _, to)| board.name(to)).collect();
        assert_eq!(landings, ["a3", "c3", "c1"]);
        assert_eq!(
            board.draw(|_| '·'),
            "5   ·───·───·───·───·\n    │ ╲ │ ╱ │ ╲ │ ╱ │\n4   ·───·───·───·───·\n    │ ╱ │ ╲ │ ╱ │ ╲ │\n\
             3   ·───·───·───·───·\n    │ ╲ │ ╱ │ ╲ │ ╱ │\n2   ·───·───·───·───·\n    │ ╱ │ ╲ │ ╱ │ ╲ │\n\
             1   ·───·───·───·───·\n    a   b   c   d   e"
        );
    }

    #[test]
    fn grids_have_the_symmetries_of_the_square() {
        for n in [3u8, 5, 7] {
            let board = Board::grid(n);
            let m = n - 1;
            assert!(board.symmetry(|f, r| (r, m - f)).is_some(), "rotation, {n}");
            assert!(board.symmetry(|f, r| (m - f, r)).is_some(), "mirror, {n}");
            // A shift is no symmetry.
            assert!(board.symmetry(|f, r| ((f + 1) % n, r)).is_none(), "shift, {n}");
        }
    }

    #[test]
    fn base3_is_unique_on_a_sample() {
        let mut seen = std::collections::HashSet::new();
        for first in 0u64..64 {
            for second in 0u64..64 {
                if first & second == 0 {
                    assert!(seen.insert(base3(first, second)));
                }
            }
        }
        assert_eq!(base3(0b1, 0b10), 1 + 2 * 3);
    }
}
