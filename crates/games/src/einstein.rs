//! EinStein würfelt nicht! (Ingo Althöfer, 2004), the small dice game of game-search research: every turn
//! starts with a roll of the die.
//!
//! # The rules
//!
//! A 5 × 5 board. Each player has six cubes numbered 1–6, set up in the triangle of the three, two and one
//! squares nearest their corner, in any arrangement ([`Setup`]). The first player (MAX) starts in the top-left
//! corner and moves towards the bottom-right one; the second player (MIN) the other way. A turn: the die is
//! rolled (a chance node, six faces equally likely); the player moves the cube with that number or, if it is
//! gone, the next higher or the next lower one still on the board (her choice between those two); a cube moves
//! one square towards the opponent's corner — straight across, straight down (up, for the second player) or
//! diagonally between them — and whatever cube stands on the square it moves to, of either colour, is removed.
//! Reaching the opponent's corner square, or removing every cube of the opponent, wins (+1 or −1).
//!
//! Every move brings a cube nearer its goal, so the game cannot repeat: a cube makes at most 8 moves, a game at
//! most 96 turns.
//!
//! # Notation
//!
//! Squares `a1`–`e5`: columns `a`–`e` from the left, rows `1`–`5` from the top; the first player starts at
//! `a1` and moves towards `e5`. A position is the five rows from the top separated by `/`, each a character a
//! square from the left — `.` for an empty square, `1`–`6` for the first player's cubes, `a`–`f` for the
//! second player's cubes 1–6 — then `first` or `second` to move, then the die's face if it has been rolled
//! (a decision node) — without it the die is about to be rolled (a chance node): `12.../...../...../...../....a
//! second 4`. A move is the cube's square and the square it moves to, `b2c3`; a roll is the face, `1`–`6`. The
//! players are `first` and `second`.
//!
//! A setup is written `FIRST/SECOND`, six digits each: the numbers of the cubes on the player's triangle, in
//! the order corner, then the next diagonal's two squares, then the third's three, each diagonal read from the
//! top row down — for the first player `a1 b1 a2 c1 b2 a3`, for the second `e5 e4 d5 e3 d4 c5`.
//!
//! # Moves
//!
//! In natural order: the cubes the die allows by number, each cube's moves by the square moved to in reading
//! order. The state keeps each cube's square (12 bytes), which gives a unique 64-bit key: 5 bits a cube,
//! the side to move and the die.

use crate::{Actions, Game, Node, Notation, Player};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use thiserror::Error;

/// The squares of a side of the board.
pub const SIDE: u8 = 5;

/// The squares of the board.
pub const SQUARES: u8 = SIDE * SIDE;

/// The square of a cube that has been removed.
pub const GONE: u8 = 31;

/// The first player's starting triangle, in the setup's order: `a1 b1 a2 c1 b2 a3`.
pub const FIRST_TRIANGLE: [u8; 6] = [0, 1, 5, 2, 6, 10];

/// The second player's starting triangle, in the setup's order: `e5 e4 d5 e3 d4 c5`.
pub const SECOND_TRIANGLE: [u8; 6] = [24, 19, 23, 14, 18, 22];

/// The goal of each player: the opponent's corner.
const GOALS: [u8; 2] = [SQUARES - 1, 0];

/// A move: a roll of the die (the face, 1–6) or a cube's step from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The die shows this face.
    Roll(u8),
    /// The cube on the first square moves to the second.
    Step(u8, u8),
}

/// A position: where each cube stands, who is to move and the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The square (0–24, `a1` first, in reading order) of each player's cubes 1–6, [`GONE`] once removed.
    pub cubes: [[u8; 6]; 2],
    /// Whether the second player is to move.
    pub second_to_move: bool,
    /// The face the die shows (1–6) at a decision node; 0 while it is about to be rolled.
    pub die: u8,
}

impl State {
    /// The side to move.
    pub fn mover(&self) -> Player {
        if self.second_to_move { Player::Min } else { Player::Max }
    }

    /// The number of `player`'s cubes on the board.
    pub fn cubes_left(&self, player: Player) -> u32 {
        self.cubes[side(player)].iter().filter(|&&s| s != GONE).count() as u32
    }

    /// The cube (player index, cube index) on `square`, if any.
    fn at(&self, square: u8) -> Option<(usize, usize)> {
        (0..2).find_map(|p| self.cubes[p].iter().position(|&s| s == square).map(|c| (p, c)))
    }

    /// The indices (0–5) of the cubes the mover may move when the die shows `face`: that cube, or the nearest
    /// present below and above it.
    pub fn movable(&self, face: u8) -> impl Iterator<Item = usize> + '_ {
        let mine = &self.cubes[usize::from(self.second_to_move)];
        let wanted = usize::from(face) - 1;
        let (below, above) = if mine[wanted] != GONE {
            (Some(wanted), None)
        } else {
            ((0..wanted).rev().find(|&c| mine[c] != GONE), (wanted + 1..6).find(|&c| mine[c] != GONE))
        };
        below.into_iter().chain(above)
    }
}

/// The index of `player`'s cubes in [`State::cubes`].
fn side(player: Player) -> usize {
    usize::from(player == Player::Min)
}

/// The squares a cube of `player` on `square` may move to, in reading order.
pub fn targets(player: Player, square: u8) -> impl Iterator<Item = u8> {
    let (row, col) = (square / SIDE, square % SIDE);
    let steps: [(i8, i8); 3] = match player {
        Player::Max => [(0, 1), (1, 0), (1, 1)],
        Player::Min => [(-1, -1), (-1, 0), (0, -1)],
    };
    steps.into_iter().filter_map(move |(dr, dc)| {
        let (r, c) = (row as i8 + dr, col as i8 + dc);
        (0..SIDE as i8).contains(&r).then_some(())?;
        (0..SIDE as i8).contains(&c).then_some((r * SIDE as i8 + c) as u8)
    })
}

/// The name of a square: `a1`–`e5`.
pub fn square_name(square: u8) -> String {
    format!("{}{}", char::from(b'a' + square % SIDE), square / SIDE + 1)
}

/// Why a setup or a position was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// Not a setup.
    #[error("setup {0:?}: expected FIRST/SECOND, six digits each, every cube 1-6 once, like 123456/654321")]
    Setup(String),
    /// Not the notation.
    #[error(
        "EinStein position {0:?}: expected five rows of five squares ('.', 1-6 or a-f) separated by '/', then \
             first or second, then the die's face if rolled, like 123../45.../6..../....f/...ed first 3"
    )]
    Form(String),
    /// A die's face that is not one.
    #[error("EinStein position {0:?}: the die's face {1:?} is not one: 1 to 6, or nothing before the roll")]
    Die(String, String),
    /// A side that is not one.
    #[error("EinStein position {0:?}: {1:?} to move: the side is first or second")]
    Side(String, String),
    /// A square that holds neither nothing nor a cube.
    #[error(
        "EinStein position {0:?}: {1:?} on {2}: a square holds '.', one of the first player's cubes 1-6 or one of the \
         second's a-f"
    )]
    Square(String, char, String),
    /// A cube twice on the board.
    #[error("EinStein position {0:?}: {1}'s cube {2} stands on two squares")]
    Twice(String, &'static str, u8),
    /// Both players have won.
    #[error("EinStein position {0:?}: both players have won (each has a cube on the other's corner, or none left)")]
    BothWon(String),
}

/// An arrangement of both players' cubes on their triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The numbers (1–6) of the first player's cubes on [`FIRST_TRIANGLE`], in its order.
    pub first: [u8; 6],
    /// The numbers (1–6) of the second player's cubes on [`SECOND_TRIANGLE`], in its order.
    pub second: [u8; 6],
}

impl Setup {
    /// Reads `FIRST/SECOND` (see the module documentation).
    ///
    /// ```
    /// use khela_games::einstein::Setup;
    /// let setup = Setup::parse("123456/654321").unwrap();
    /// assert_eq!(setup.second, [6, 5, 4, 3, 2, 1]);
    /// assert!(Setup::parse("123455/654321").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Setup, ParseError> {
        let refuse = || ParseError::Setup(text.to_string());
        let (a, b) = text.split_once('/').ok_or_else(refuse)?;
        let arrangement = |t: &str| -> Result<[u8; 6], ParseError> {
            let digits: Vec<u8> = t.bytes().map(|b| b.wrapping_sub(b'0')).collect();
            let mut sorted = digits.clone();
            sorted.sort_unstable();
            (sorted == [1, 2, 3, 4, 5, 6]).then(|| digits.try_into().expect("six digits")).ok_or_else(refuse)
        };
        Ok(Setup { first: arrangement(a)?, second: arrangement(b)? })
    }

    /// The setup drawn from `seed`: each player's arrangement uniform among the 720, independently.
    pub fn random(seed: u64) -> Setup {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut draw = || {
            let mut cubes = [1, 2, 3, 4, 5, 6];
            // Fisher–Yates, each index by Lemire's multiply-and-shift (its bias, below 2⁻⁶⁰, is invisible).
            for i in (1..6).rev() {
                let j = ((u128::from(rng.next_u64()) * (i as u128 + 1)) >> 64) as usize;
                cubes.swap(i, j);
            }
            cubes
        };
        Setup { first: draw(), second: draw() }
    }

    /// The position at the start of a game with this setup: the first player to move, the die about to be rolled.
    pub fn state(&self) -> State {
        let mut cubes = [[GONE; 6]; 2];
        for (k, &n) in self.first.iter().enumerate() {
            cubes[0][usize::from(n) - 1] = FIRST_TRIANGLE[k];
        }
        for (k, &n) in self.second.iter().enumerate() {
            cubes[1][usize::from(n) - 1] = SECOND_TRIANGLE[k];
        }
        State { cubes, second_to_move: false, die: 0 }
    }
}

impl std::fmt::Display for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = |a: &[u8; 6]| a.iter().map(|n| char::from(b'0' + n)).collect::<String>();
        write!(f, "{}/{}", digits(&self.first), digits(&self.second))
    }
}

/// EinStein würfelt nicht!, with its starting position (a [`Setup`]'s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Einstein {
    start: String,
}

impl Einstein {
    /// The game starting from `setup`.
    pub fn new(setup: Setup) -> Einstein {
        Einstein { start: Einstein::write(&setup.state()) }
    }

    /// Writes a position (see the module documentation).
    pub fn write(s: &State) -> String {
        let mut board = [b'.'; SQUARES as usize];
        for (p, cubes) in s.cubes.iter().enumerate() {
            for (c, &square) in cubes.iter().enumerate().filter(|&(_, &sq)| sq != GONE) {
                board[usize::from(square)] = [b'1', b'a'][p] + c as u8;
            }
        }
        let rows: Vec<&str> = board.chunks(usize::from(SIDE)).map(|r| std::str::from_utf8(r).expect("ASCII")).collect();
        let side = if s.second_to_move { "second" } else { "first" };
        let die = if s.die == 0 { String::new() } else { format!(" {}", s.die) };
        format!("{} {side}{die}", rows.join("/"))
    }

    /// Reads a position (see the module documentation).
    pub fn parse(text: &str) -> Result<State, ParseError> {
        let form = || ParseError::Form(text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        let (board, side, die) = match words.as_slice() {
            [board, side] => (*board, *side, 0),
            [board, side, die] => match die.parse::<u8>() {
                Ok(d @ 1..=6) => (*board, *side, d),
                _ => return Err(ParseError::Die(text.to_string(), die.to_string())),
            },
            _ => return Err(form()),
        };
        let second_to_move = match side {
            "first" => false,
            "second" => true,
            _ => return Err(ParseError::Side(text.to_string(), side.to_string())),
        };
        let rows: Vec<&[u8]> = board.split('/').map(str::as_bytes).collect();
        if rows.len() != usize::from(SIDE) || rows.iter().any(|r| r.len() != usize::from(SIDE)) {
            return Err(form());
        }
        let mut cubes = [[GONE; 6]; 2];
        for (square, &ch) in rows.concat().iter().enumerate() {
            let (p, c, name) = match ch {
                b'.' => continue,
                b'1'..=b'6' => (0, ch - b'1', "first"),
                b'a'..=b'f' => (1, ch - b'a', "second"),
                _ => {
                    let found = if ch.is_ascii() { char::from(ch) } else { char::REPLACEMENT_CHARACTER };
                    return Err(ParseError::Square(text.to_string(), found, square_name(square as u8)));
                }
            };
            if cubes[p][usize::from(c)] != GONE {
                return Err(ParseError::Twice(text.to_string(), name, c + 1));
            }
            cubes[p][usize::from(c)] = square as u8;
        }
        let state = State { cubes, second_to_move, die };
        if won(&state, 0) && won(&state, 1) {
            return Err(ParseError::BothWon(text.to_string()));
        }
        Ok(state)
    }
}

/// Whether player `p` (0 first, 1 second) has won: a cube on the opponent's corner, or the opponent's all gone.
#[inline]
fn won(s: &State, p: usize) -> bool {
    s.cubes[p].contains(&GOALS[p]) || s.cubes[1 - p].iter().all(|&sq| sq == GONE)
}

/// A roll's action is its face less one (0–5); a step's is `3 × from + k`, `from` the square it leaves (0–24)
/// and `k` its direction: 0 along the rank, 1 along the file, 2 diagonally (each side has one step of each
/// kind), so 75 actions in all.
impl Actions for Einstein {
    fn actions(&self) -> usize {
        3 * usize::from(SIDE * SIDE)
    }

    fn action(&self, mv: Move) -> usize {
        match mv {
            Move::Roll(face) => usize::from(face - 1),
            Move::Step(from, to) => {
                let (along_rank, along_file) = (from / SIDE == to / SIDE, from % SIDE == to % SIDE);
                let k = if along_rank {
                    0
                } else if along_file {
                    1
                } else {
                    2
                };
                3 * usize::from(from) + k
            }
        }
    }
}

impl Game for Einstein {
    type State = State;
    type Move = Move;

    #[inline]
    fn node(&self, s: &State) -> Node {
        if won(s, 0) {
            Node::Terminal(1.0)
        } else if won(s, 1) {
            Node::Terminal(-1.0)
        } else if s.die == 0 {
            Node::Chance
        } else {
            Node::Decision(s.mover())
        }
    }

    fn moves(&self, s: &State, buf: &mut Vec<Move>) {
        buf.clear();
        if !matches!(self.node(s), Node::Decision(_)) {
            return;
        }
        let me = usize::from(s.second_to_move);
        for c in s.movable(s.die) {
            let from = s.cubes[me][c];
            buf.extend(targets(s.mover(), from).map(|to| Move::Step(from, to)));
        }
    }

    /// The faces 1 to 6, each with probability 1/6.
    fn outcomes(&self, s: &State, buf: &mut Vec<(Move, f64)>) {
        buf.clear();
        if self.node(s) == Node::Chance {
            buf.extend((1..=6).map(|face| (Move::Roll(face), 1.0 / 6.0)));
        }
    }

    #[inline]
    fn play(&self, s: &mut State, mv: Move) {
        match mv {
            Move::Roll(face) => s.die = face,
            Move::Step(from, to) => {
                if let Some((p, c)) = s.at(to) {
                    s.cubes[p][c] = GONE;
                }
                let (p, c) = s.at(from).expect("a cube on the square a move starts from");
                s.cubes[p][c] = to;
                s.die = 0;
                s.second_to_move = !s.second_to_move;
            }
        }
    }

    /// Unique: 5 bits a cube (its square, or [`GONE`]), then the side to move and the die.
    #[inline]
    fn key(&self, s: &State) -> u64 {
        let squares = s.cubes.iter().flatten().fold(0u64, |k, &sq| k << 5 | u64::from(sq));
        squares << 4 | u64::from(s.second_to_move) << 3 | u64::from(s.die)
    }
}

impl Notation for Einstein {
    type Error = ParseError;

    fn parse_position(&self, text: &str) -> Result<State, ParseError> {
        Einstein::parse(text)
    }

    fn start(&self) -> Option<&str> {
        Some(&self.start)
    }

    fn write_move(&self, mv: Move) -> String {
        match mv {
            Move::Roll(face) => face.to_string(),
            Move::Step(from, to) => format!("{}{}", square_name(from), square_name(to)),
        }
    }

    /// The board with its coordinates, then who is to move and the die.
    fn picture(&self, s: &State) -> String {
        let text = Einstein::write(s);
        let (board, _) = text.split_once(' ').expect("the board, then the side");
        let mut lines = vec!["   a b c d e".to_string()];
        for (r, row) in board.split('/').enumerate() {
            let squares: Vec<String> = row.chars().map(String::from).collect();
            lines.push(format!("{}  {}", r + 1, squares.join(" ")));
        }
        let side = if s.second_to_move { "second (a-f)" } else { "first (1-6)" };
        let die =
            if s.die == 0 { "the die about to be rolled".to_string() } else { format!("the die shows {}", s.die) };
        lines.push(format!("{side} to move, {die}"));
        lines.join("\n")
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "first",
            Player::Min => "second",
        }
    }
}

#[cfg(test)]
mod tests;
