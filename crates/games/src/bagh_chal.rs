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
//! [`BaghChal::new`] takes a [`Setup`]: the board size (odd, 3 to 7), the tigers' starting points, the goats
//! in hand, the goats standing on the board at the start in stacks, the side that moves first and the captures
//! that win. A goat leaves a stack from the top, one a turn, and never joins one again; a tiger jumping a stack
//! captures its top goat, the rest stay.
//!
//! Bagh-Bandi, the Bengal game, is written down differently by each source (one or two tigers; 20 or 32 goats;
//! the 25- or the 37-point board; single or chained jumps). [`Setup::bagh_bandi`] follows one source whole: the
//! rules of Bagh Guti (Bagh-Bandi) at Cyningstan (<http://www.cyningstan.com/game/129/bagh-guti>), after
//! H. J. R. Murray's *A History of Board-Games other than Chess* (1952), p. 110 — the one ruleset of the game
//! the Ludii database plays on the plain alquerque board ("Cyningstan (Suggested)"). The 5 × 5 alquerque
//! board; two tigers on `c3` and `c5`; twenty goats in four stacks of five on `b2`, `d2`, `b4` and `d4` (the
//! centres of the four quadrants, where every source puts them) and none in hand; the tigers move first; one
//! jump a turn. The goats win by trapping both tigers. The source has the tigers win "by capturing so many
//! goats" that the rest cannot trap them, which no fixed number states; we end the game when every goat is
//! captured, as Ludii does (`captures=N` in the harness's `--rules` sets another number).
//!
//! # Notation
//!
//! Points are named `a1`–`e5` ([`crate::alquerque`]: files from the left, ranks from the bottom). A position
//! is one line: the ranks from the top, separated by `/`, each a character per point west to east — `T` a
//! tiger, `G` a goat, a digit `2`–`9` a stack of that many goats, `.` empty — then the side to move (`g` or `t`)
//! and the goats still in hand; the goats captured are those neither on the board nor in hand. The standard
//! start is `T...T/...../...../...../T...T g 20`; Bagh-Bandi's is `..T../.5.5./..T../.5.5./..... t 0`.
//! A placement is written as its point (`c3`), a step `a1-a2`, a capture `a1xa3`. The players are `goats` and
//! `tigers`.

mod notation;
pub mod placement;
pub mod sliding;

use crate::alquerque::{self, Board, BoardError, Points, points};
use crate::rng::splitmix64;
use crate::{Actions, Cycles, Game, Node, Player};
use std::sync::Arc;
use thiserror::Error;

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
    /// The goats beneath the top one at each of the setup's stack points, 4 bits a point, the points in their
    /// order (always 0 in a game without stacks).
    pub under: u32,
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
    /// The goats in hand at the start, placed one a turn before any goat moves.
    pub goats: u8,
    /// The goats on the board at the start: a point, by name, and the goats stacked on it (1 to 9).
    pub stacks: Vec<(String, u8)>,
    /// Whether the goats move first.
    pub goats_first: bool,
    /// The tigers win on this capture.
    pub captures_to_win: u8,
}

impl Setup {
    /// Bagh-Chal: 5 × 5, four tigers on the corners, twenty goats in hand, the goats first, five captures win.
    pub fn bagh_chal() -> Setup {
        let tigers = ["a5", "e5", "a1", "e1"].map(String::from).to_vec();
        Setup { size: 5, tigers, goats: 20, stacks: Vec::new(), goats_first: true, captures_to_win: 5 }
    }

    /// Bagh-Bandi as Cyningstan gives it (see the module documentation): tigers on `c3` and `c5`, four stacks
    /// of five goats on `b2`, `d2`, `b4`, `d4`, the tigers first, every goat captured to win.
    pub fn bagh_bandi() -> Setup {
        let stacks = ["b2", "d2", "b4", "d4"].map(|p| (p.to_string(), 5)).to_vec();
        let tigers = vec!["c3".into(), "c5".into()];
        Setup { size: 5, tigers, goats: 0, stacks, goats_first: false, captures_to_win: 20 }
    }

    /// Every goat of the setup, in hand and on the board.
    pub fn total_goats(&self) -> u32 {
        u32::from(self.goats) + self.stacks.iter().map(|&(_, n)| u32::from(n)).sum::<u32>()
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
    /// Every goat, in hand and on the board at the start.
    goats: u8,
    /// The goats in hand at the start.
    hand: u8,
    /// The points that hold stacks at the start (and so may hold one later).
    stack_points: Points,
    captures_to_win: u8,
    max_length: u32,
    /// Whether [`Game::key`] is unique (the board fits base 3 in 64 bits with the counts).
    exact_keys: bool,
    start_text: String,
    /// [`BaghChal::symmetries`], computed once.
    symmetries: Arc<[Vec<u8>]>,
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
        let (mut stack_points, mut heights) = (0, Vec::new());
        for (name, height) in &setup.stacks {
            match board.point(name) {
                _ if !(1..=9).contains(height) => return bad(format!("a stack of {height} goats on {name}: 1 to 9")),
                Some(p) if (tigers | stack_points) & 1 << p == 0 => {
                    stack_points |= 1 << p;
                    heights.push((p, *height));
                }
                Some(_) => return bad(format!("{name} holds two pieces or stacks")),
                None => return bad(format!("no point {name} on a {0} × {0} board", setup.size)),
            }
        }
        if stack_points.count_ones() > 8 {
            return bad(format!("{} stacks: at most 8", stack_points.count_ones()));
        }
        let room = board.len() as u32 - tigers.count_ones();
        let total = setup.total_goats();
        if total == 0 || total > 200 || u32::from(setup.goats) + stack_points.count_ones() >= room {
            return bad(format!(
                "{} goats in hand and {} on the board: at least 1 in all, and fewer points taken than the {room} free",
                setup.goats,
                total - u32::from(setup.goats)
            ));
        }
        if setup.captures_to_win == 0 || u32::from(setup.captures_to_win) > total {
            return bad(format!("captures to win {}: 1 to the {total} goats", setup.captures_to_win));
        }
        let mut start =
            Position { tigers, in_hand: setup.goats, goats_to_move: setup.goats_first, ..Position::default() };
        let mut game = BaghChal {
            board: Arc::new(board),
            start,
            goats: total as u8,
            hand: setup.goats,
            stack_points,
            captures_to_win: setup.captures_to_win,
            max_length: 200,
            exact_keys: false,
            start_text: String::new(),
            symmetries: Arc::new([]),
        };
        for (p, height) in heights {
            start.goats |= 1 << p;
            start.under |= u32::from(height - 1) << game.shift(p);
        }
        // base 3 of the board × (goats in hand + 1) counts × 2 sides × 16 heights a stack.
        let states = 3f64.powi(game.board.len() as i32) * f64::from(setup.goats + 1) * 2.0;
        game.exact_keys = game.board.len() <= 40 && states * f64::from(1u32 << game.under_bits()) < 1.8e19;
        game.start = start;
        game.start_text = game.write(&start);
        game.symmetries = game.find_symmetries().into();
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

    /// The goats on point `p`: 0 or 1, or a stack's height.
    pub fn height(&self, s: &Position, p: u8) -> u32 {
        match s.goats & 1 << p {
            0 => 0,
            _ if self.stack_points & 1 << p == 0 => 1,
            _ => 1 + (s.under >> self.shift(p) & 15),
        }
    }

    /// Where the height of the stack on `p` (a stack point) sits in [`Position::under`].
    #[inline]
    fn shift(&self, p: u8) -> u32 {
        4 * (self.stack_points & ((1 << p) - 1)).count_ones()
    }

    /// The bits [`Position::under`] takes: 4 a stack point.
    fn under_bits(&self) -> u32 {
        4 * self.stack_points.count_ones()
    }

    /// Takes the top goat off point `p`: the point empties unless a stack stood there.
    #[inline]
    fn lift(&self, s: &mut Position, p: u8) {
        if self.stack_points & 1 << p != 0 {
            let shift = self.shift(p);
            if s.under >> shift & 15 != 0 {
                s.under -= 1 << shift;
                return;
            }
        }
        s.goats &= !(1 << p);
    }

    /// The symmetries of the square that keep the setup's stack points in place (all 8 for Bagh-Chal and
    /// Bagh-Bandi), as permutations of the points (`perm[p]` is where point `p` goes), the identity first.
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }

    /// [`BaghChal::symmetries`], from the board.
    fn find_symmetries(&self) -> Vec<Vec<u8>> {
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
        maps.iter()
            .map(|map| self.board.symmetry(|f, r| map(m, f, r)).expect("a symmetry of the grid"))
            .filter(|perm| alquerque::permute(self.stack_points, perm) == self.stack_points)
            .collect()
    }

    /// The position under a symmetry (a permutation from [`BaghChal::symmetries`]).
    pub fn transformed(&self, position: &Position, perm: &[u8]) -> Position {
        let mut under = 0;
        for p in points(self.stack_points) {
            under |= (position.under >> self.shift(p) & 15) << self.shift(perm[p as usize]);
        }
        Position {
            tigers: alquerque::permute(position.tigers, perm),
            goats: alquerque::permute(position.goats, perm),
            under,
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

/// A placement's action is its point (points numbered in reading order from the top left, as
/// [`alquerque::Board::grid`] numbers them); a step or a capture from `from` to `to` is `points + from × points +
/// to`, after the placements.
impl Actions for BaghChal {
    fn actions(&self) -> usize {
        let points = self.board.len();
        points + points * points
    }

    fn action(&self, mv: Move) -> usize {
        let points = self.board.len();
        match ends(mv) {
            (None, to) => usize::from(to),
            (Some(from), to) => points + usize::from(from) * points + usize::from(to),
        }
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
            Some(from) if s.goats_to_move => self.lift(s, from),
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
                self.lift(s, over);
                s.captured += 1;
            }
        }
        s.goats_to_move = !s.goats_to_move;
    }

    /// Unique when the counts fit 64 bits (every board up to 5 × 5): the board in base 3, the goats in hand,
    /// the side to move and the stacks' heights, mixed; on 7 × 7 boards a hash of the same, which may collide.
    #[inline]
    fn key(&self, s: &Position) -> u64 {
        let counts = u64::from(s.in_hand) * 2 + u64::from(s.goats_to_move);
        if self.exact_keys {
            let board = alquerque::base3(s.tigers, s.goats) * (2 * u64::from(self.hand) + 2) + counts;
            splitmix64(board << self.under_bits() | u64::from(s.under))
        } else {
            splitmix64(s.tigers ^ splitmix64(s.goats ^ splitmix64(counts ^ u64::from(s.under) << 8)))
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

    /// The most goats the tigers can have captured when `placed` goats have been placed and `goats_to_move` says
    /// who is to move, while goats are still in hand: the turns alternate from the start, so the tigers have made
    /// a known number of moves, each capturing at most one goat and none before a goat stands on the board.
    /// `None` where no such position arises (tigers to move before the first goat, when the goats move first).
    /// [`BaghChal::parse`] refuses a position with more goats captured.
    pub fn most_captured_while_placing(&self, placed: u8, goats_to_move: bool) -> Option<u8> {
        let moves = (placed + u8::from(!self.start.goats_to_move)).checked_sub(u8::from(!goats_to_move))?;
        // Tigers moving first onto a board with no goats capture nothing with that move.
        let idle = u8::from(!self.start.goats_to_move && self.start.goats == 0);
        Some(moves.saturating_sub(idle))
    }

    /// The most moves a position has: the placements (the points the tigers leave free), 8 per tiger (a step
    /// or a capture in each direction), or 8 per empty point once every goat is placed (a goat stepping in from
    /// each direction; without stacks, at least `goats − captures_to_win + 1` goats stand on the board then,
    /// with them at least one).
    pub fn max_moves(&self) -> u32 {
        let points = self.board.len() as u32;
        let tigers = self.start.tigers.count_ones();
        let goats_left = if self.stack_points == 0 { u32::from(self.goats - self.captures_to_win + 1) } else { 1 };
        (points - tigers).max(8 * tigers).max(8 * (points - tigers - goats_left))
    }

    /// Every goat of the game, in hand and on the board at the start.
    pub fn goats(&self) -> u8 {
        self.goats
    }

    /// The heights a position's stacks may take together: the product of the starting heights (a stack of
    /// `h` is later 1 to `h` goats tall, or gone — which the board itself tells).
    pub fn stack_states(&self) -> f64 {
        points(self.stack_points).map(|p| f64::from(self.height(&self.start, p))).product()
    }

    /// The capture that wins for the tigers.
    pub fn captures_to_win(&self) -> u8 {
        self.captures_to_win
    }
}

#[cfg(test)]
mod tests;
