//! Bagh-Chal (tigers and goats, Nepal), and the Bagh-Bandi family of Bengal it belongs to.
//!
//! # The rules (the standard modern ones, the default)
//!
//! The board is the 5 × 5 alquerque grid ([`crate::alquerque::Board::grid`]): 25 points, the orthogonal lines
//! everywhere and the diagonals through the points whose file + rank is even. Four tigers stand on the corners;
//! twenty goats wait in hand. The goats move first, and are MAX.
//!
//! - A goat turn places a goat on any empty point while goats remain in hand (captured goats count as placed);
//!   once all are placed, it moves a goat one step along a line to an adjacent empty point.
//! - A tiger turn moves a tiger one step along a line, or captures: it jumps over an adjacent goat along a
//!   straight line to the empty point just beyond, and the goat leaves the board. One jump per turn; capturing
//!   is never compulsory.
//! - The tigers win on their fifth capture; a side to move with no legal move loses (the goats win by trapping
//!   every tiger). A win is worth +1 to the goats (MAX), −1 to the tigers.
//!
//! Pieces slide back and forth, so positions repeat: the game declares [`Cycles`] — a position repeated on the
//! line of play is a draw, and so is a game that reaches [`BaghChal::max_length`] plies (200 by default:
//! the placement phase takes at most 39). Perft counts ignore both rules, as they count move generation.
//!
//! # Variants
//!
//! [`BaghChal::new`] takes a [`Setup`]: the board size (odd, 3 to 7), the tigers' starting points, the
//! number of goats and the captures that win. Bagh-Bandi as written in Bengal differs from source to source.
//! [`Setup::bagh_bandi`] is a two-tiger preset within these rules — two tigers on the centres of the left and
//! right edges (`a3`, `e3`), twenty goats placed from hand, the fifth capture winning — and not a sourced
//! variant: the Bagh-Bandi R. C. Bell describes ("Board and Table Games from Many Civilizations") starts its
//! goats on the board in stacks and lets a tiger chain its jumps, which needs points that hold stacks.
//!
//! # Notation
//!
//! Points are named `a1`–`e5` ([`crate::alquerque`]: files from the left, ranks from the bottom). A position
//! is one line: the ranks from the top, separated by `/`, each a character per point west to east — `T` a
//! tiger, `G` a goat, `.` empty — then the side to move (`g` or `t`) and the goats still in hand; the goats
//! captured are those neither on the board nor in hand. The standard start is `T...T/...../...../...../T...T g 20`.
//! A placement is written as its point (`c3`), a step `a1-a2`, a capture `a1xa3`. The players are `goats` and
//! `tigers`.

use crate::alquerque::{self, Board, BoardError, Points, points};
use crate::rng::splitmix64;
use crate::{Cycles, Game, Node, Notation, Player};
use std::sync::Arc;
use thiserror::Error;

/// The notation's characters for a tiger and a goat.
const PIECES: [char; 2] = ['T', 'G'];

/// A Bagh-Chal position: the tigers, the goats, the goats in hand and captured, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// The tigers' points.
    pub tigers: Points,
    /// The goats' points.
    pub goats: Points,
    /// Goats not yet placed.
    pub in_hand: u8,
    /// Goats captured.
    pub captured: u8,
    /// Whether the goats are to move.
    pub goats_to_move: bool,
}

/// A move: `from << 8 | to`, where `from` is [`alquerque::NONE`] for a placement; a step or a capture (a jump,
/// over the point between) otherwise. A `u16`, so that it is `Copy`, two bytes, and the lock-free table packs
/// it as it is.
pub type Move = u16;

/// The move of the piece on `from` to `to`.
#[inline]
pub fn step(from: u8, to: u8) -> Move {
    u16::from(from) << 8 | u16::from(to)
}

/// A goat placed on `to`.
#[inline]
pub fn place(to: u8) -> Move {
    step(alquerque::NONE, to)
}

/// Where a move's piece comes from (`None` for a placement) and where it goes.
#[inline]
pub fn ends(mv: Move) -> (Option<u8>, u8) {
    let from = (mv >> 8) as u8;
    ((from != alquerque::NONE).then_some(from), mv as u8)
}

/// The parameters of a game of the family: board, tigers, goats and the captures that win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The grid is `size` × `size` points (odd, 3 to 7).
    pub size: u8,
    /// The tigers' starting points, by name.
    pub tigers: Vec<String>,
    /// The goats, all in hand at the start.
    pub goats: u8,
    /// The tigers win on this capture.
    pub captures_to_win: u8,
}

impl Setup {
    /// Bagh-Chal: 5 × 5, four tigers on the corners, twenty goats, five captures win.
    pub fn bagh_chal() -> Setup {
        let tigers = ["a5", "e5", "a1", "e1"].map(String::from).to_vec();
        Setup { size: 5, tigers, goats: 20, captures_to_win: 5 }
    }

    /// The two-tiger preset: tigers on `a3` and `e3` (see the module documentation: not yet a sourced Bagh-Bandi).
    pub fn bagh_bandi() -> Setup {
        Setup { tigers: vec!["a3".into(), "e3".into()], ..Setup::bagh_chal() }
    }
}

/// Why a setup or a position is refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// The setup cannot be played.
    #[error("{0}")]
    Setup(String),
    /// The position does not have the fields `board side in-hand`.
    #[error("position {0:?}: expected the board, the side to move and the goats in hand, like {1:?}")]
    Fields(String, String),
    /// The board is not written as the notation says.
    #[error("position {0:?}: {1}")]
    Board(String, BoardError),
    /// The side to move is not `g` or `t`.
    #[error("position {0:?}: the side to move is {1:?}, not g or t")]
    Side(String, String),
    /// The goats in hand are not a number.
    #[error("position {0:?}: goats in hand {1:?} is not a number")]
    InHand(String, String),
    /// The counts do not add up.
    #[error("position {0:?}: {1}")]
    Counts(String, String),
}

/// A map of the grid's coordinates (file, rank) onto themselves, given the largest coordinate.
type Isometry = fn(u8, u8, u8) -> (u8, u8);

/// Bagh-Chal, or another game of the family (a [`Setup`]).
#[derive(Clone, Debug)]
pub struct BaghChal {
    board: Arc<Board>,
    start: Position,
    goats: u8,
    captures_to_win: u8,
    max_length: u32,
    /// Whether [`Game::key`] is unique (the board fits base 3 in 64 bits with the counts).
    exact_keys: bool,
    start_text: String,
}

impl BaghChal {
    /// The standard game.
    pub fn standard() -> BaghChal {
        BaghChal::new(&Setup::bagh_chal()).expect("the standard setup")
    }

    /// A game of the family.
    pub fn new(setup: &Setup) -> Result<BaghChal, ParseError> {
        let bad = |why: String| Err(ParseError::Setup(why));
        if setup.size.is_multiple_of(2) || !(3..=7).contains(&setup.size) {
            return bad(format!("the board is an odd number of points wide, 3 to 7, not {}", setup.size));
        }
        let board = Board::grid(setup.size);
        let mut tigers: Points = 0;
        for name in &setup.tigers {
            match board.point(name) {
                Some(p) if tigers & 1 << p == 0 => tigers |= 1 << p,
                Some(_) => return bad(format!("two tigers on {name}")),
                None => return bad(format!("no point {name} on a {0} × {0} board", setup.size)),
            }
        }
        if tigers == 0 {
            return bad("a game needs a tiger".to_string());
        }
        let room = board.len() as u32 - tigers.count_ones();
        if setup.goats == 0 || u32::from(setup.goats) >= room {
            return bad(format!("{} goats: at least 1, and fewer than the {room} free points", setup.goats));
        }
        if setup.captures_to_win == 0 || setup.captures_to_win > setup.goats {
            return bad(format!("captures to win {}: 1 to the {} goats", setup.captures_to_win, setup.goats));
        }
        let start = Position { tigers, goats: 0, in_hand: setup.goats, captured: 0, goats_to_move: true };
        // base 3 of the board × (goats + 1) counts in hand × 2 sides.
        let exact_keys = board.len() <= 40 && 3f64.powi(board.len() as i32) * f64::from(setup.goats + 1) * 2.0 < 1.8e19;
        let mut game = BaghChal {
            board: Arc::new(board),
            start,
            goats: setup.goats,
            captures_to_win: setup.captures_to_win,
            max_length: 200,
            exact_keys,
            start_text: String::new(),
        };
        game.start_text = game.write(&start);
        Ok(game)
    }

    /// The same game with another cap on its length, in plies.
    pub fn with_max_length(self, max_length: u32) -> BaghChal {
        BaghChal { max_length, ..self }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The starting position.
    pub fn start_position(&self) -> Position {
        self.start
    }

    /// The most plies a game lasts: reaching it is a draw.
    pub fn max_length(&self) -> u32 {
        self.max_length
    }

    /// The position written `text` (see the module documentation).
    pub fn parse(&self, text: &str) -> Result<Position, ParseError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let example = self.write(&self.start);
        let [board, side, in_hand] = fields[..] else { return Err(ParseError::Fields(text.into(), example)) };
        let (tigers, goats) = self.board.read_pieces(board, PIECES).map_err(|e| ParseError::Board(text.into(), e))?;
        let mut position = Position { tigers, goats, ..Position::default() };
        position.goats_to_move = match side {
            "g" => true,
            "t" => false,
            _ => return Err(ParseError::Side(text.into(), side.into())),
        };
        position.in_hand = in_hand.parse().map_err(|_| ParseError::InHand(text.into(), in_hand.into()))?;
        let counts = |why: String| Err(ParseError::Counts(text.into(), why));
        let tigers = position.tigers.count_ones();
        if tigers != self.start.tigers.count_ones() {
            return counts(format!("{tigers} tigers, not {}", self.start.tigers.count_ones()));
        }
        let placed = position.goats.count_ones() + u32::from(position.in_hand);
        if placed > u32::from(self.goats) {
            return counts(format!("{placed} goats on the board and in hand, more than {}", self.goats));
        }
        position.captured = self.goats - placed as u8;
        if position.captured > self.captures_to_win {
            return counts(format!("{} goats captured, past the {} that win", position.captured, self.captures_to_win));
        }
        Ok(position)
    }

    /// The position in the notation.
    pub fn write(&self, position: &Position) -> String {
        let side = if position.goats_to_move { 'g' } else { 't' };
        let board = self.board.write_pieces((position.tigers, position.goats), PIECES);
        format!("{board} {side} {}", position.in_hand)
    }

    /// The 8 symmetries of the square as permutations of the points, the identity first.
    pub fn symmetries(&self) -> Vec<Vec<u8>> {
        let m = (self.board.len() as f64).sqrt() as u8 - 1;
        let maps: [Isometry; 8] = [
            |_, f, r| (f, r),
            |m, f, r| (r, m - f),
            |m, f, r| (m - f, m - r),
            |m, f, r| (m - r, f),
            |m, f, r| (m - f, r),
            |m, f, r| (f, m - r),
            |_, f, r| (r, f),
            |m, f, r| (m - r, m - f),
        ];
        maps.iter().map(|map| self.board.symmetry(|f, r| map(m, f, r)).expect("a symmetry of the grid")).collect()
    }

    /// The position under a symmetry (a permutation from [`BaghChal::symmetries`]).
    pub fn transformed(&self, position: &Position, perm: &[u8]) -> Position {
        Position {
            tigers: alquerque::permute(position.tigers, perm),
            goats: alquerque::permute(position.goats, perm),
            ..*position
        }
    }

    /// A key shared by the position and its images under the board's 8 symmetries (the smallest of their keys):
    /// they have the same value, the rules being symmetric.
    pub fn symmetric_key(&self, position: &Position) -> u64 {
        self.symmetries().iter().map(|perm| self.key(&self.transformed(position, perm))).min().expect("symmetries")
    }

    /// Whether the side to move has a legal move.
    fn can_move(&self, s: &Position) -> bool {
        let empty = self.board.all() & !(s.tigers | s.goats);
        if s.goats_to_move {
            return (s.in_hand > 0 && empty != 0) || points(s.goats).any(|p| self.board.adjacent(p) & empty != 0);
        }
        points(s.tigers).any(|p| {
            self.board.adjacent(p) & empty != 0
                || self.board.jumps(p).iter().any(|&(_, over, to)| s.goats & 1 << over != 0 && empty & 1 << to != 0)
        })
    }
}

impl Game for BaghChal {
    type State = Position;
    type Move = Move;

    #[inline]
    fn node(&self, s: &Position) -> Node {
        if s.captured >= self.captures_to_win {
            Node::Terminal(-1.0)
        } else if !self.can_move(s) {
            Node::Terminal(if s.goats_to_move { -1.0 } else { 1.0 })
        } else if s.goats_to_move {
            Node::Decision(Player::Max)
        } else {
            Node::Decision(Player::Min)
        }
    }

    /// Natural order: placements by point; steps by the piece's point, then by direction (north first, clockwise);
    /// a tiger's captures after its steps, by direction.
    fn moves(&self, s: &Position, buf: &mut Vec<Move>) {
        buf.clear();
        if s.captured >= self.captures_to_win {
            return;
        }
        let empty = self.board.all() & !(s.tigers | s.goats);
        if s.goats_to_move {
            if s.in_hand > 0 {
                buf.extend(points(empty).map(place));
            } else {
                for from in points(s.goats) {
                    self.steps(from, empty, buf);
                }
            }
        } else {
            for from in points(s.tigers) {
                self.steps(from, empty, buf);
                for &(_, over, to) in self.board.jumps(from) {
                    if s.goats & 1 << over != 0 && empty & 1 << to != 0 {
                        buf.push(step(from, to));
                    }
                }
            }
        }
    }

    #[inline]
    fn play(&self, s: &mut Position, mv: Move) {
        let (from, to) = ends(mv);
        let target = 1u64 << to;
        match from {
            None => s.in_hand -= 1,
            Some(from) if s.goats_to_move => s.goats &= !(1 << from),
            Some(from) => s.tigers &= !(1 << from),
        }
        if s.goats_to_move {
            s.goats |= target;
        } else {
            s.tigers |= target;
            let from = from.expect("tigers move, never placed");
            if self.board.adjacent(from) & target == 0 {
                // A jump: the goat between leaves the board.
                let over = self.board.jumps(from).iter().find(|j| j.2 == to).expect("a jump").1;
                s.goats &= !(1 << over);
                s.captured += 1;
            }
        }
        s.goats_to_move = !s.goats_to_move;
    }

    /// Unique when [`BaghChal::exact_keys`] (every board up to 5 × 5): the board in base 3, the goats in hand and
    /// the side to move, mixed; on 7 × 7 boards a hash of the same, which may collide.
    #[inline]
    fn key(&self, s: &Position) -> u64 {
        let counts = u64::from(s.in_hand) * 2 + u64::from(s.goats_to_move);
        if self.exact_keys {
            splitmix64(alquerque::base3(s.tigers, s.goats) * (2 * u64::from(self.goats) + 2) + counts)
        } else {
            splitmix64(s.tigers ^ splitmix64(s.goats ^ splitmix64(counts)))
        }
    }

    fn cycles(&self) -> Option<Cycles> {
        Some(Cycles { max_length: self.max_length })
    }
}

impl BaghChal {
    /// Writes the steps of the piece on `from` to the empty points, by direction.
    #[inline]
    fn steps(&self, from: u8, empty: Points, buf: &mut Vec<Move>) {
        for d in 0..alquerque::DIRECTIONS {
            if let Some(to) = self.board.step(from, d)
                && empty & 1 << to != 0
            {
                buf.push(step(from, to));
            }
        }
    }

    /// The most moves a position has: the placements (the points the tigers leave free), 8 per tiger (a step
    /// or a capture in each direction), or 8 per empty point once every goat is placed (a goat stepping in from
    /// each direction; at least `goats − captures_to_win + 1` goats stand on the board then).
    pub fn max_moves(&self) -> u32 {
        let points = self.board.len() as u32;
        let tigers = self.start.tigers.count_ones();
        let goats_left = u32::from(self.goats - self.captures_to_win + 1);
        (points - tigers).max(8 * tigers).max(8 * (points - tigers - goats_left))
    }

    /// The goats, all in hand at the start.
    pub fn goats(&self) -> u8 {
        self.goats
    }

    /// The capture that wins for the tigers.
    pub fn captures_to_win(&self) -> u8 {
        self.captures_to_win
    }
}

impl Notation for BaghChal {
    type Error = ParseError;

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        self.parse(text)
    }

    /// The setup's start: `T...T/...../...../...../T...T g 20` for the standard game.
    fn start(&self) -> Option<&str> {
        Some(&self.start_text)
    }

    fn write_move(&self, mv: Move) -> String {
        let (from, to) = ends(mv);
        let Some(from) = from else { return self.board.name(to) };
        let sep = if self.board.adjacent(from) & 1 << to != 0 { '-' } else { 'x' };
        format!("{}{sep}{}", self.board.name(from), self.board.name(to))
    }

    /// The board with its lines, then the goats in hand and captured and the side to move.
    fn picture(&self, s: &Position) -> String {
        let side = if s.goats_to_move { "goats" } else { "tigers" };
        format!(
            "{}\ngoats in hand {}, captured {}; {side} to move",
            self.board.draw_pieces((s.tigers, s.goats), PIECES),
            s.in_hand,
            s.captured
        )
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "goats",
            Player::Min => "tigers",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{self, perft};

    /// The standard start's notation.
    const START: &str = "T...T/...../...../...../T...T g 20";

    #[test]
    fn perft_from_the_start() {
        let game = BaghChal::standard();
        let start = game.start_position();
        assert_eq!([1, 2].map(|d| perft(&game, &start, d)), [21, 252]);
    }

    #[test]
    fn notation_round_trips_and_refuses() {
        let game = BaghChal::standard();
        let start = game.parse(START).unwrap();
        assert_eq!(start, game.start_position());
        assert_eq!(game.write(&start), START);
        let err = |text: &str| game.parse(text).unwrap_err().to_string();
        assert!(err("T...T/...../...../...../T...T g").contains("expected the board"));
        assert!(err("T...T/...../...../...../T...T x 20").contains("not g or t"));
        assert!(err("T...T/...../...../....../T...T g 20").contains("rank 2 has 6 points"));
        assert!(err("T...T/...../..X../...../T...T g 20").contains("'X' at c3"));
        assert!(err("T...T/...../...../T...T g 20").contains("5 ranks expected, 4 given"));
        assert!(err("T...T/...../...../...../T...T g 21").contains("21 goats on the board and in hand"));
        assert!(err("T...T/...../...../...../T...T g 14").contains("6 goats captured, past the 5"));
        assert!(err("T...T/...../..T../...../T...T g 20").contains("5 tigers, not 4"));
        assert!(err("T...T/...../...../...../T...T g x").contains("goats in hand \"x\""));
    }

    #[test]
    fn moves_are_written_and_captures_taken() {
        let game = BaghChal::standard();
        let s = game.parse("T...T/...../...../G..../T...T t 19").unwrap();
        let mut moves = Vec::new();
        game.moves(&s, &mut moves);
        let written: Vec<String> = moves.iter().map(|&m| game.write_move(m)).collect();
        assert!(written.contains(&"a1xa3".to_string()), "{written:?}");
        assert!(written.contains(&"a5-a4".to_string()), "{written:?}");
        let capture = moves[written.iter().position(|w| w == "a1xa3").unwrap()];
        let after = game.child(&s, capture);
        assert_eq!(game.write(&after), "T...T/...../T..../...../....T g 19");
        assert_eq!(after.captured, 1);
    }

    #[test]
    fn trapped_tigers_lose_and_five_captures_win() {
        let game = BaghChal::new(&Setup { tigers: vec!["a1".into()], ..Setup::bagh_chal() }).unwrap();
        // The tiger on a1 is hemmed in by a2, b2, b1 and cannot jump: backed by a3, c3, c1.
        let trapped = game.parse("...../...../G.G../GG.../TGG.. t 14").unwrap();
        assert_eq!(game.node(&trapped), Node::Terminal(1.0));
        let game = BaghChal::standard();
        let won = game.parse("T...T/...../...../...../T...T g 15").unwrap();
        assert_eq!(game.node(&won), Node::Terminal(-1.0));
    }

    #[test]
    fn setups_are_checked() {
        let err = |setup: Setup| BaghChal::new(&setup).unwrap_err().to_string();
        assert!(err(Setup { size: 4, ..Setup::bagh_chal() }).contains("not 4"));
        assert!(err(Setup { tigers: vec!["f1".into()], ..Setup::bagh_chal() }).contains("no point f1"));
        assert!(err(Setup { tigers: vec!["a1".into(), "a1".into()], ..Setup::bagh_chal() }).contains("two tigers"));
        assert!(err(Setup { goats: 21, ..Setup::bagh_chal() }).contains("21 goats"));
        assert!(err(Setup { captures_to_win: 0, ..Setup::bagh_chal() }).contains("captures to win 0"));
        let bandi = BaghChal::new(&Setup::bagh_bandi()).unwrap();
        assert_eq!(bandi.start_position().tigers.count_ones(), 2);
        assert_eq!(bandi.start(), Some("...../...../T...T/...../..... g 20"));
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let game = BaghChal::standard();
        let s = game.parse("T...T/.G.../...../...../T...T t 19").unwrap();
        for perm in game.symmetries() {
            let image = game.transformed(&s, &perm);
            assert_eq!(game.symmetric_key(&image), game.symmetric_key(&s));
            assert_eq!(perft(&game, &image, 3), perft(&game, &s, 3));
        }
        let other = game.parse("T...T/..G../...../...../T...T t 19").unwrap();
        assert_ne!(game.symmetric_key(&other), game.symmetric_key(&s));
    }

    #[test]
    fn conforms() {
        for setup in [
            Setup::bagh_chal(),
            Setup::bagh_bandi(),
            Setup { size: 3, goats: 4, captures_to_win: 2, ..Setup::bagh_bandi() },
        ] {
            let setup = Setup { tigers: if setup.size == 3 { vec!["a1".into()] } else { setup.tigers }, ..setup };
            let game = BaghChal::new(&setup).unwrap();
            let start = game.start_position();
            conformance::check(&game, &[start], 40, 7);
            conformance::check_notation(&game, &[start], 10, 7);
            conformance::check_cycles(&game, &[start], 40, 7);
        }
    }
}
