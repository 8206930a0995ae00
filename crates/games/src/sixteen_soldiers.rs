//! Sixteen Soldiers (ষোলগুটি, Sholo Guti), the soldiers' game of Bengal.
//!
//! # The board
//!
//! 37 points: the 5 × 5 alquerque grid and a triangle on its top and bottom sides. A triangle's apex is the
//! midpoint of the grid's edge; it has a middle row of 3 points and a base row of 3; its lines are its two
//! sides, its median (continuing the grid's centre file) and its two rows. Each side continues one of the grid's
//! diagonals straight through the apex, so a piece can jump over the apex between grid and triangle: 76 lines
//! between adjacent points, 112 jumps counting each direction.
//!
//! Points are named like a chess board ([`crate::alquerque`]): files `a`–`e`, ranks `1`–`9` from the bottom.
//! The bottom triangle's base is `a1 c1 e1` and its middle row `b2 c2 d2`; the grid is ranks 3–7 (its centre
//! `c5`); the top triangle's middle row is `b8 c8 d8` and its base `a9 c9 e9`:
//!
//! ```text
//! 9   ·───────·───────·
//!       ╲     │     ╱
//! 8       ·───·───·
//!           ╲ │ ╱
//! 7   ·───·───·───·───·
//!     │ ╲ │ ╱ │ ╲ │ ╱ │
//! 6   ·───·───·───·───·
//! ...
//! ```
//!
//! # The rules
//!
//! Each side has 16 pieces: its triangle and the two grid ranks nearest it; the centre rank starts empty. `X`,
//! at the bottom, moves first and is MAX; `O` is MIN. A move is a step along a line to an adjacent empty point,
//! or a capture: a jump over an adjacent enemy piece along a straight line to the empty point just beyond,
//! which may continue with the same piece — a chain of jumps is one move, and a jumped piece leaves the board at
//! once. Capturing every enemy piece wins; a side to move with no legal move loses. A win is worth ±1.
//!
//! Sources disagree on whether capturing is compulsory ([`Capture`]):
//! - [`Capture::Compulsory`]: a capture must be made when one exists, and a chain continues while it can — the
//!   rule of the draughts family, as most modern descriptions of Sholo Guti give it (and the default here);
//! - [`Capture::Optional`]: captures are optional, and a chain may stop after any jump — as in alquerque in the
//!   Alfonso manuscript's reading by some authors, and in many village descriptions of the game;
//! - [`Capture::Continue`]: captures are optional, but a chain once started continues while it can.
//!
//! A tournament rule, off by default ([`SixteenSoldiers::with_quiet_limit`]): a game in which `n` plies pass
//! without a capture ends, and the side with more pieces wins (equal: a draw).
//!
//! Pieces step back and forth, so positions repeat: the game declares [`Cycles`] — a position repeated on the
//! line of play is a draw, and so is a game that reaches [`SixteenSoldiers::max_length`] plies (200 by
//! default). Perft counts ignore both rules and the quiet limit, as they count move generation.
//!
//! # Moves
//!
//! A move is a `u64`: the starting point in bits 0–5, the number of jumps in bits 6–10 (0 for a step), then 3
//! bits per step or jump for its direction. A chain captures one enemy piece a jump, so it has at most 16
//! jumps: 11 + 48 bits. The move is the whole chain, identified by its sequence of points, and written as it:
//! `c4-c5` for a step, `c4xc6xe6` for a chain of two jumps. It does not fit the lock-free table's 16 bits, so it
//! does not implement `khela_tt::PackedMove`: that table refuses this game at compile time, while the other
//! tables hold the move whole.
//!
//! # Notation
//!
//! A position is one line: the ranks from the top (`9` down to `1`), separated by `/`, each a character per
//! point west to east (3 on the triangles' ranks, 5 on the grid's) — `X`, `O` or `.` — then the side to move,
//! `x` or `o`, and, with the quiet limit, the plies since the last capture. The start is
//! `OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x`. The players are `X` and `O`.
//!
//! # Symmetries
//!
//! The board has four symmetries: the identity, the mirror left–right, the mirror top–bottom and the half turn.
//! The rules know no direction, so each keeps a position's value; [`SixteenSoldiers::symmetric_key`] merges a
//! position with its mirror left–right, the one that also keeps the start in place. Exchanging the colours (and
//! the side to move) negates MAX's value, which a key of MAX's values cannot merge; the endgame tables, which
//! keep values for the side to move, merge all eight ([`endgame`]).

pub mod endgame;
pub mod jumps;

use crate::alquerque::{self, Board, BoardError, DIRECTIONS, Points, points};
use crate::rng::splitmix64;
use crate::{Cycles, Game, Node, Notation, Player};
use std::sync::Arc;
use thiserror::Error;

/// How captures are ruled.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    strum::Display,
    strum::EnumString,
    strum::VariantArray,
    strum::IntoStaticStr,
    strum::EnumMessage,
)]
#[strum(serialize_all = "lowercase")]
pub enum Capture {
    /// A capture must be made when one exists, and a chain continues while it can.
    #[default]
    Compulsory,
    /// Captures are optional, and a chain may stop after any jump.
    Optional,
    /// Captures are optional, but a started chain continues while it can.
    Continue,
}

/// A position: each side's pieces, the side to move, and the plies since the last capture (counted only with
/// the quiet limit; 0 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// X's pieces (the bottom side, MAX).
    pub x: Points,
    /// O's pieces.
    pub o: Points,
    /// Whether X is to move.
    pub x_to_move: bool,
    /// Plies since the last capture (with the quiet limit).
    pub quiet: u16,
}

/// The notation's characters for X's and O's pieces.
const PIECES: [char; 2] = ['X', 'O'];

/// A move, as the module documentation lays out its bits.
pub type Move = u64;

const JUMPS_SHIFT: u32 = 6;
const DIRS_SHIFT: u32 = 11;

/// The step from `from` in direction `d`.
fn step_move(from: u8, d: usize) -> Move {
    u64::from(from) | (d as u64) << DIRS_SHIFT
}

/// Why a position is refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// The fields are not `board side [quiet]`.
    #[error("position {0:?}: expected the board and the side to move{1}, like {2:?}")]
    Fields(String, &'static str, String),
    /// The board is not written as the notation says (9 ranks of 3, 3, 5, 5, 5, 5, 5, 3 and 3 points).
    #[error("position {0:?}: {1}")]
    Board(String, BoardError),
    /// The side to move is not `x` or `o`.
    #[error("position {0:?}: the side to move is {1:?}, not x or o")]
    Side(String, String),
    /// Too many pieces, or a bad count of quiet plies.
    #[error("position {0:?}: {1}")]
    Counts(String, String),
}

/// Sixteen Soldiers, with its capture rule and options.
#[derive(Clone, Debug)]
pub struct SixteenSoldiers {
    board: Arc<Board>,
    capture: Capture,
    max_length: u32,
    quiet_limit: Option<u16>,
    mirror: Vec<u8>,
}

/// The standard start.
const START: &str = "OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x";

/// The board's lines, by point names.
const LINES: [&str; 20] = [
    "a9 c9 e9",
    "b8 c8 d8",
    "a7 b7 c7 d7 e7",
    "a6 b6 c6 d6 e6",
    "a5 b5 c5 d5 e5",
    "a4 b4 c4 d4 e4",
    "a3 b3 c3 d3 e3",
    "b2 c2 d2",
    "a1 c1 e1",
    "a3 a4 a5 a6 a7",
    "b3 b4 b5 b6 b7",
    "c1 c2 c3 c4 c5 c6 c7 c8 c9",
    "d3 d4 d5 d6 d7",
    "e3 e4 e5 e6 e7",
    "a3 b4 c5 d6 e7",
    "e3 d4 c5 b6 a7",
    "a5 b6 c7 d8 e9",
    "e5 d6 c7 b8 a9",
    "a1 b2 c3 d4 e5",
    "e1 d2 c3 b4 a5",
];

impl SixteenSoldiers {
    /// The game with this capture rule, a 200-ply cap and no quiet limit.
    pub fn new(capture: Capture) -> SixteenSoldiers {
        let ranks: [&[u8]; 9] = [
            &[0, 2, 4],
            &[1, 2, 3],
            &[0, 1, 2, 3, 4],
            &[0, 1, 2, 3, 4],
            &[0, 1, 2, 3, 4],
            &[0, 1, 2, 3, 4],
            &[0, 1, 2, 3, 4],
            &[1, 2, 3],
            &[0, 2, 4],
        ];
        let coords: Vec<(u8, u8)> =
            ranks.iter().enumerate().flat_map(|(i, files)| files.iter().map(move |&f| (f, 8 - i as u8))).collect();
        let index = |name: &str| {
            let (f, r) = (name.as_bytes()[0] - b'a', name[1..].parse::<u8>().expect("a rank") - 1);
            coords.iter().position(|&c| c == (f, r)).expect("a point of the board") as u8
        };
        let lines: Vec<Vec<u8>> = LINES.iter().map(|line| line.split(' ').map(index).collect()).collect();
        let board = Board::from_lines(coords, &lines);
        let mirror = board.symmetry(|f, r| (4 - f, r)).expect("the mirror is a symmetry");
        SixteenSoldiers { board: Arc::new(board), capture, max_length: 200, quiet_limit: None, mirror }
    }

    /// The same game with another cap on its length, in plies.
    pub fn with_max_length(self, max_length: u32) -> SixteenSoldiers {
        SixteenSoldiers { max_length, ..self }
    }

    /// The same game ending after `plies` plies without a capture, the side with more pieces winning (`None`:
    /// no such rule).
    pub fn with_quiet_limit(self, plies: Option<u16>) -> SixteenSoldiers {
        SixteenSoldiers { quiet_limit: plies, ..self }
    }

    /// The capture rule.
    pub fn capture(&self) -> Capture {
        self.capture
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The most plies a game lasts: reaching it is a draw.
    pub fn max_length(&self) -> u32 {
        self.max_length
    }

    /// The plies without a capture that end a game, with the tournament rule.
    pub fn quiet_limit(&self) -> Option<u16> {
        self.quiet_limit
    }

    /// The point `p` mirrored left–right.
    pub fn mirror_point(&self, p: u8) -> u8 {
        self.mirror[usize::from(p)]
    }

    /// The standard start (with the quiet limit, no plies yet without a capture).
    pub fn start_position(&self) -> Position {
        self.parse(self.start().expect("a standard start")).expect("the standard start parses")
    }

    /// The position written `text` (see the module documentation).
    pub fn parse(&self, text: &str) -> Result<Position, ParseError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let quiet_field = if self.quiet_limit.is_some() { " and the plies since the last capture" } else { "" };
        let wanted = 2 + usize::from(self.quiet_limit.is_some());
        if fields.len() != wanted {
            let mut example = START.to_string();
            if self.quiet_limit.is_some() {
                example.push_str(" 0");
            }
            return Err(ParseError::Fields(text.into(), quiet_field, example));
        }
        let (x, o) = self.board.read_pieces(fields[0], PIECES).map_err(|e| ParseError::Board(text.into(), e))?;
        let mut position = Position { x, o, ..Position::default() };
        for (pieces, name) in [(position.x, 'X'), (position.o, 'O')] {
            if pieces.count_ones() > 16 {
                return Err(ParseError::Counts(
                    text.into(),
                    format!("{} {name} pieces, more than 16", pieces.count_ones()),
                ));
            }
        }
        if position.x == 0 && position.o == 0 {
            let why = "no soldiers of either side: a game ends when one side has none left".to_string();
            return Err(ParseError::Counts(text.into(), why));
        }
        position.x_to_move = match fields[1] {
            "x" => true,
            "o" => false,
            side => return Err(ParseError::Side(text.into(), side.into())),
        };
        if let (Some(limit), Some(quiet)) = (self.quiet_limit, fields.get(2)) {
            position.quiet = match quiet.parse::<u16>() {
                Ok(n) if n <= limit => n,
                _ => {
                    let why = format!("plies since the last capture {quiet:?}: a number up to the limit {limit}");
                    return Err(ParseError::Counts(text.into(), why));
                }
            };
        }
        Ok(position)
    }

    /// The position in the notation.
    pub fn write(&self, s: &Position) -> String {
        let board = self.board.write_pieces((s.x, s.o), PIECES);
        let side = if s.x_to_move { 'x' } else { 'o' };
        match self.quiet_limit {
            Some(_) => format!("{board} {side} {}", s.quiet),
            None => format!("{board} {side}"),
        }
    }

    /// The position mirrored left–right (same players, same value).
    pub fn mirrored(&self, s: &Position) -> Position {
        Position { x: alquerque::permute(s.x, &self.mirror), o: alquerque::permute(s.o, &self.mirror), ..*s }
    }

    /// A key shared by the position and its mirror image (the smaller of their keys).
    pub fn symmetric_key(&self, s: &Position) -> u64 {
        self.key(s).min(self.key(&self.mirrored(s)))
    }

    /// The mover's and the opponent's pieces.
    #[inline]
    fn sides(s: &Position) -> (Points, Points) {
        if s.x_to_move { (s.x, s.o) } else { (s.o, s.x) }
    }

    /// Whether the piece on `p` can jump, with `own` and `enemy` pieces on the board.
    #[inline]
    fn can_jump(&self, p: u8, own: Points, enemy: Points) -> bool {
        self.jumps_from(p, own, enemy).next().is_some()
    }

    /// The jumps open to the piece on `p` (`own` the other pieces of its side, `enemy` the other side's), as
    /// (direction, the point jumped over, the landing), by direction.
    #[inline]
    fn jumps_from(&self, p: u8, own: Points, enemy: Points) -> impl Iterator<Item = (usize, u8, u8)> + '_ {
        let empty = self.board.all() & !(own | enemy);
        let open = move |&&(_, over, to): &&(u8, u8, u8)| enemy & 1 << over != 0 && empty & 1 << to != 0;
        self.board.jumps(p).iter().filter(open).map(|&(d, over, to)| (d as usize, over, to))
    }

    /// The player to move in `s`.
    #[inline]
    fn mover(s: &Position) -> Player {
        if s.x_to_move { Player::Max } else { Player::Min }
    }

    /// Writes the chains of jumps from `at` (the chain so far is `chain`, its piece lifted from the board, with
    /// `enemy` the enemy pieces left), as the capture rule allows them.
    fn chains(&self, chain: Move, jumps: u32, at: u8, own: Points, enemy: Points, buf: &mut Vec<Move>) {
        let mut went_on = false;
        for (d, over, to) in self.jumps_from(at, own, enemy) {
            went_on = true;
            let next = (chain & !(0x1f << JUMPS_SHIFT))
                | u64::from(jumps + 1) << JUMPS_SHIFT
                | (d as u64) << (DIRS_SHIFT + 3 * jumps);
            if self.capture == Capture::Optional {
                buf.push(next);
            }
            self.chains(next, jumps + 1, to, own, enemy & !(1 << over), buf);
        }
        if !went_on && jumps > 0 && self.capture != Capture::Optional {
            buf.push(chain);
        }
    }

    /// The points a move passes through, from its start.
    pub fn path(&self, mv: Move) -> Vec<u8> {
        let mut path = vec![(mv & 0x3f) as u8];
        self.walk(mv, |_, to| path.push(to));
        path
    }

    /// The points whose pieces a move captures, in order (none for a step).
    pub fn captures(&self, mv: Move) -> Vec<u8> {
        let mut captured = Vec::new();
        self.walk(mv, |over, _| captured.extend(over));
        captured
    }

    /// Follows a move from its start: `visit(over, to)` for each step (`over` is `None`) or jump.
    #[inline]
    fn walk(&self, mv: Move, mut visit: impl FnMut(Option<u8>, u8)) {
        let mut at = (mv & 0x3f) as u8;
        let jumps = Self::jumps(mv);
        for i in 0..jumps.max(1) {
            let d = ((mv >> (DIRS_SHIFT + 3 * i)) & 7) as usize;
            let next = self.board.step(at, d).expect("a move along a line");
            if jumps == 0 {
                visit(None, next);
                at = next;
            } else {
                at = self.board.step(next, d).expect("a jump along a line");
                visit(Some(next), at);
            }
        }
    }

    /// The number of jumps of a move (0 for a step).
    pub fn jumps(mv: Move) -> u32 {
        ((mv >> JUMPS_SHIFT) & 0x1f) as u32
    }
}

impl Game for SixteenSoldiers {
    type State = Position;
    type Move = Move;

    fn node(&self, s: &Position) -> Node {
        let (own, enemy) = Self::sides(s);
        let mover = Self::mover(s);
        let loss = Node::Terminal(-mover.view(1.0));
        if own == 0 {
            return loss;
        }
        if enemy == 0 {
            return Node::Terminal(mover.view(1.0));
        }
        if let Some(limit) = self.quiet_limit
            && s.quiet >= limit
        {
            let lead = i64::from(s.x.count_ones()) - i64::from(s.o.count_ones());
            return Node::Terminal(lead.signum() as f64);
        }
        let empty = self.board.all() & !(own | enemy);
        let can_move =
            points(own).any(|p| self.board.adjacent(p) & empty != 0 || self.can_jump(p, own & !(1 << p), enemy));
        if can_move { Node::Decision(mover) } else { loss }
    }

    /// Natural order: by the moving piece's point; a piece's steps by direction (north first, clockwise), then
    /// its chains of jumps, depth first, each jump's directions in the same order (with [`Capture::Optional`],
    /// a chain before its continuations). With [`Capture::Compulsory`], only the chains when there are any.
    fn moves(&self, s: &Position, buf: &mut Vec<Move>) {
        buf.clear();
        let (own, enemy) = Self::sides(s);
        if own == 0 || enemy == 0 || self.quiet_limit.is_some_and(|limit| s.quiet >= limit) {
            return;
        }
        for p in points(own) {
            self.chains(u64::from(p), 0, p, own & !(1 << p), enemy, buf);
        }
        if self.capture == Capture::Compulsory && !buf.is_empty() {
            return;
        }
        let empty = self.board.all() & !(own | enemy);
        for p in points(own) {
            for d in 0..DIRECTIONS {
                if let Some(q) = self.board.step(p, d)
                    && empty & 1 << q != 0
                {
                    buf.push(step_move(p, d));
                }
            }
        }
        // Natural order is by piece: merge the steps in before the chains of each piece.
        buf.sort_by_key(|&mv| (mv & 0x3f, Self::jumps(mv) > 0));
    }

    fn play(&self, s: &mut Position, mv: Move) {
        let (mut own, mut enemy) = Self::sides(s);
        let mut to = (mv & 0x3f) as u8;
        own &= !(1 << to);
        self.walk(mv, |over, landing| {
            if let Some(over) = over {
                enemy &= !(1 << over);
            }
            to = landing;
        });
        own |= 1 << to;
        if s.x_to_move {
            (s.x, s.o) = (own, enemy);
        } else {
            (s.o, s.x) = (own, enemy);
        }
        if self.quiet_limit.is_some() {
            s.quiet = if Self::jumps(mv) > 0 { 0 } else { s.quiet + 1 };
        }
        s.x_to_move = !s.x_to_move;
    }

    /// Unique: the board in base 3 (3³⁷ < 2⁵⁹) and the side to move, mixed, with up to 15 quiet plies in the
    /// top bits; past 15 quiet plies (only with a quiet limit) the count is hashed in, and keys may collide.
    #[inline]
    fn key(&self, s: &Position) -> u64 {
        let quiet = u64::from(s.quiet);
        let base = alquerque::base3(s.x, s.o) << 1 | u64::from(s.x_to_move) | (quiet & 15) << 60;
        splitmix64(base) ^ (quiet >> 4).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn cycles(&self) -> Option<Cycles> {
        Some(Cycles { max_length: self.max_length })
    }

    /// The board and the side to move, without the quiet plies: a position that comes back is a repetition
    /// whatever the count (which only grows between captures, so keys with it never repeat).
    #[inline]
    fn repetition_key(&self, s: &Position) -> u64 {
        splitmix64(alquerque::base3(s.x, s.o) << 1 | u64::from(s.x_to_move))
    }
}

impl Notation for SixteenSoldiers {
    type Error = ParseError;

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        self.parse(text)
    }

    /// The standard start (with the quiet limit, its count of quiet plies, 0, appended).
    fn start(&self) -> Option<&str> {
        Some(if self.quiet_limit.is_some() { "OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x 0" } else { START })
    }

    fn write_move(&self, mv: Move) -> String {
        let names: Vec<String> = self.path(mv).into_iter().map(|p| self.board.name(p)).collect();
        names.join(if Self::jumps(mv) > 0 { "x" } else { "-" })
    }

    /// The board with its lines, then the side to move.
    fn picture(&self, s: &Position) -> String {
        let side = if s.x_to_move { "X" } else { "O" };
        let board = self.board.draw_pieces((s.x, s.o), PIECES);
        format!("{board}\n{side} to move")
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "X",
            Player::Min => "O",
        }
    }
}

#[cfg(test)]
mod tests;
