//! Retrograde analysis: the exact value of every position of a [`Space`], in a game whose positions may repeat.
//!
//! A search from a position cannot value a game with cycles (it would have to know the whole line of play);
//! retrograde analysis values every position of a set closed under moves at once, from the end backwards. Each
//! position gets an [`Outcome`] for the side to move: a win or a loss with its distance to the end in plies
//! (the winner ends the game as soon as it can, the loser as late as it can), or a draw — neither side can
//! force an end, so with best play the game goes round for ever.
//!
//! # The algorithm
//!
//! A position is won in `d` plies when a move leads to a position lost in `d − 1`, the least such `d`; it is
//! lost in `d` when every move leads to a position won in at most `d − 1` plies, `d − 1` reached; positions
//! never decided are draws. [`solve`] decides them level by level, `d` = 0, 1, 2, …:
//!
//! 1. One pass over the space: a terminal position is lost (or won) in 0 plies; a position with a move that
//!    wins at once is won in 1; every other position counts its different successors (up to the space's
//!    symmetries) that might still be won for the opponent — a successor that ends in a draw counts, and is
//!    never counted down. A position whose every move loses at once is lost in 1.
//! 2. At level `d` ≥ 2, the positions decided at `d − 1` tell their predecessors ([`Unmoves::unmoves`]): a
//!    predecessor of a lost position is won in `d`, unless decided before; a predecessor of a won position
//!    counts it off, and the one whose count reaches zero is lost in `d`. A level that decides nothing ends the
//!    analysis.
//!
//! Each level is a parallel pass over the numbers (rayon, in the calling thread pool); a position is decided
//! by a compare-and-swap or by the thread whose count-down reaches zero, so the table is the same for any
//! number of threads (the levels fix every value; threads only change who writes it). While solving, a position
//! takes three bytes: its two-byte outcome code ([`Outcome::code`]) and its one-byte count.

use khela_games::notation::plies;
use khela_games::{Game, Node, Space, Unmoves};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};
use thiserror::Error;

/// What a position is worth to the side to move, with best play by both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move wins, in this many plies.
    Win(u32),
    /// The side to move loses, in this many plies.
    Loss(u32),
    /// Neither side can force an end.
    Draw,
}

/// The code of a number that stands for no position.
pub const UNUSED: u16 = u16::MAX;

/// The longest win or loss, in plies, that a code holds.
pub const MAX_DISTANCE: u32 = (UNUSED as u32 - 2) / 2;

impl Outcome {
    /// The outcome as two bytes: 0 a draw (or, while solving, not yet decided), `1 + 2d` a loss in `d` plies,
    /// `2 + 2d` a win in `d`; [`UNUSED`] is no outcome.
    ///
    /// ```
    /// use khela_exact::retro::Outcome;
    /// for outcome in [Outcome::Draw, Outcome::Loss(0), Outcome::Win(1), Outcome::Loss(2), Outcome::Win(99)] {
    ///     assert_eq!(Outcome::from_code(outcome.code()), Some(outcome));
    /// }
    /// ```
    #[inline]
    pub fn code(self) -> u16 {
        match self {
            Outcome::Draw => 0,
            Outcome::Loss(d) => (1 + 2 * d) as u16,
            Outcome::Win(d) => (2 + 2 * d) as u16,
        }
    }

    /// The outcome of a code, `None` for [`UNUSED`].
    #[inline]
    pub fn from_code(code: u16) -> Option<Outcome> {
        match code {
            UNUSED => None,
            0 => Some(Outcome::Draw),
            c if c % 2 == 1 => Some(Outcome::Loss(u32::from(c - 1) / 2)),
            c => Some(Outcome::Win(u32::from(c - 2) / 2)),
        }
    }

    /// The outcome of a position where the game is over, for `to_move`, from the first player's `payoff`: won,
    /// lost or drawn in 0 plies.
    pub fn at_end(to_move: khela_games::Player, payoff: f64) -> Outcome {
        match to_move.view(payoff) {
            v if v > 0.0 => Outcome::Win(0),
            v if v < 0.0 => Outcome::Loss(0),
            _ => Outcome::Draw,
        }
    }

    /// The outcome one ply earlier, for the side that moved into a position with this outcome: a loss in `d`
    /// is a win in `d + 1`, a win in `d` a loss in `d + 1`.
    #[inline]
    pub fn before(self) -> Outcome {
        match self {
            Outcome::Win(d) => Outcome::Loss(d + 1),
            Outcome::Loss(d) => Outcome::Win(d + 1),
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// "a win in 7 plies", "a loss in 4 plies", "a draw".
impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win(d) => write!(f, "a win in {}", plies(u64::from(*d))),
            Outcome::Loss(d) => write!(f, "a loss in {}", plies(u64::from(*d))),
            Outcome::Draw => f.write_str("a draw"),
        }
    }
}

/// What one level of [`solve`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The distance decided, in plies.
    pub plies: u32,
    /// Positions (numbers) found won for the side to move in that many plies.
    pub wins: u64,
    /// Positions found lost.
    pub losses: u64,
}

/// Why a space could not be solved: each names a broken promise of the space, or a limit of the solver.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RetroError {
    /// More different successors than a one-byte count holds.
    #[error("{position} has {successors} different successors; the solver counts at most 255")]
    Fanout {
        /// The position, as the game's `Debug` writes it.
        position: String,
        /// Its different successors.
        successors: usize,
    },
    /// A move out of the space to a position that is not terminal.
    #[error("{position} moves to {child}, which is neither terminal nor in the space")]
    Outside {
        /// The position.
        position: String,
        /// Where the move leads.
        child: String,
    },
    /// A chance node: retrograde analysis here is for games without chance.
    #[error("{0} is a chance node; retrograde analysis solves games without chance (value iteration those with)")]
    Chance(String),
    /// A position counted down more often than it has successors: the space's unmoves list something that
    /// does not lead to the position.
    #[error("the position numbered {0} was counted down below zero: the space's unmoves break their promise")]
    Unmoves(u64),
    /// A win or loss longer than a code holds.
    #[error("a win or a loss longer than {MAX_DISTANCE} plies")]
    TooLong,
}

/// The outcome of every number of a space: what [`solve`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeTable {
    codes: Vec<u16>,
}

impl OutcomeTable {
    /// A table from its codes ([`Outcome::code`], [`UNUSED`]), one a number, e.g. as read from a file.
    pub fn from_codes(codes: Vec<u16>) -> OutcomeTable {
        OutcomeTable { codes }
    }

    /// The codes, one a number.
    pub fn codes(&self) -> &[u16] {
        &self.codes
    }

    /// How many numbers the table covers.
    pub fn len(&self) -> u64 {
        self.codes.len() as u64
    }

    /// Whether the table covers no number.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The outcome of the position numbered `index`; `None` where the number stands for no position or lies
    /// beyond the table.
    #[inline]
    pub fn get(&self, index: u64) -> Option<Outcome> {
        self.codes.get(index as usize).and_then(|&c| Outcome::from_code(c))
    }

    /// The outcome of a position of `space` (the space the table was solved for); `None` outside it.
    pub fn outcome<S: Space + ?Sized>(&self, space: &S, state: &<S::Game as Game>::State) -> Option<Outcome> {
        space.index(state).and_then(|i| self.get(i))
    }

    /// The longest win or loss in the table, in plies.
    pub fn longest(&self) -> u32 {
        self.codes.iter().filter(|&&c| c != UNUSED && c != 0).map(|&c| u32::from(c - 1) / 2).max().unwrap_or(0)
    }
}

/// What a table says of a group of positions (see [`census`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Classes of positions (numbers that stand for a position) won, lost and drawn for the side to move.
    pub classes: [u64; 3],
    /// Positions of the game, each class counted by its [`Space::multiplicity`]: won, lost, drawn.
    pub positions: [u64; 3],
    /// The longest win, in plies, and the first number that has it.
    pub longest_win: Option<(u32, u64)>,
}

impl Census {
    /// The index into [`Census::classes`] and [`Census::positions`] of an outcome: 0 won, 1 lost, 2 drawn.
    pub fn slot(outcome: Outcome) -> usize {
        match outcome {
            Outcome::Win(_) => 0,
            Outcome::Loss(_) => 1,
            Outcome::Draw => 2,
        }
    }
}

/// Both groups of positions together.
impl std::ops::Add for Census {
    type Output = Census;

    fn add(mut self, other: Census) -> Census {
        for k in 0..3 {
            self.classes[k] += other.classes[k];
            self.positions[k] += other.positions[k];
        }
        // The longer win; of equal ones, the lower number, so that the census is the same for any threads.
        self.longest_win = match (self.longest_win, other.longest_win) {
            (Some(a), Some(b)) => {
                Some(if (b.0, std::cmp::Reverse(b.1)) > (a.0, std::cmp::Reverse(a.1)) { b } else { a })
            }
            (a, b) => a.or(b),
        };
        self
    }
}

/// Counts the outcomes of the numbers in `numbers`, in `groups` groups: `group` says which a position is in
/// (below `groups`). In parallel, in the current rayon pool.
pub fn census<S: Space + ?Sized>(
    space: &S,
    table: &OutcomeTable,
    numbers: std::ops::Range<u64>,
    groups: usize,
    group: impl Fn(&<S::Game as Game>::State) -> usize + Sync,
) -> Vec<Census> {
    let chunks = (numbers.end - numbers.start).div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut found = vec![Census::default(); groups];
            let first = numbers.start + c * CHUNK;
            for i in first..(first + CHUNK).min(numbers.end) {
                let (Some(outcome), Some(s)) = (table.get(i), space.position(i)) else { continue };
                let census = &mut found[group(&s)];
                census.classes[Census::slot(outcome)] += 1;
                census.positions[Census::slot(outcome)] += space.multiplicity(&s);
                if let Outcome::Win(d) = outcome {
                    census.longest_win =
                        (*census + Census { longest_win: Some((d, i)), ..Census::default() }).longest_win;
                }
            }
            found
        })
        .reduce(|| vec![Census::default(); groups], |a, b| a.into_iter().zip(b).map(|(x, y)| x + y).collect())
}

/// The positions a number chunk of a pass covers: large enough to amortise rayon's scheduling, small enough to
/// balance two threads.
const CHUNK: u64 = 1 << 14;

/// Solves every position of `space` (see the module documentation), calling `on_level` after each level with
/// what it decided. Runs in the current rayon thread pool.
///
/// ```
/// use khela_exact::retro::{self, Outcome};
/// use khela_games::{Space, tictactoe::{TicTacToe, space::TicTacToeSpace}};
///
/// let space = TicTacToeSpace::plain();
/// let table = retro::solve(&space, |_| {}).unwrap();
/// let start = TicTacToe::parse(".........").unwrap();
/// assert_eq!(table.outcome(&space, &start), Some(Outcome::Draw));
/// let x_wins = TicTacToe::parse("XX.OO....").unwrap(); // X to move completes the top row
/// assert_eq!(table.outcome(&space, &x_wins), Some(Outcome::Win(1)));
/// ```
pub fn solve<S: Unmoves + ?Sized>(space: &S, mut on_level: impl FnMut(&Level)) -> Result<OutcomeTable, RetroError> {
    let n = space.len() as usize;
    let codes: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(0)).collect();
    let counts: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    let chunks = space.len().div_ceil(CHUNK);
    let decided = (0..chunks)
        .into_par_iter()
        .map_init(Scratch::default, |scratch, c| {
            let mut decided = [[0u64; 2]; 2]; // [plies 0 or 1][win, loss]
            for i in c * CHUNK..((c + 1) * CHUNK).min(space.len()) {
                let (code, count) = first_look(space, i, scratch)?;
                codes[i as usize].store(code, Relaxed);
                counts[i as usize].store(count, Relaxed);
                if let Some(Outcome::Win(d) | Outcome::Loss(d)) = Outcome::from_code(code) {
                    decided[d as usize][usize::from(code % 2 == 1)] += 1;
                }
            }
            Ok(decided)
        })
        .try_reduce(
            || [[0; 2]; 2],
            |a, b| Ok([[a[0][0] + b[0][0], a[0][1] + b[0][1]], [a[1][0] + b[1][0], a[1][1] + b[1][1]]]),
        )?;
    for (plies, [wins, losses]) in decided.into_iter().enumerate() {
        on_level(&Level { plies: plies as u32, wins, losses });
    }
    for plies in 2.. {
        if plies > MAX_DISTANCE {
            return Err(RetroError::TooLong);
        }
        let (wins, losses) = (0..chunks)
            .into_par_iter()
            .map_init(Scratch::default, |scratch, c| spread(space, &codes, &counts, plies, c, scratch))
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
        if wins + losses == 0 {
            break;
        }
        on_level(&Level { plies, wins, losses });
    }
    Ok(OutcomeTable { codes: codes.into_iter().map(AtomicU16::into_inner).collect() })
}

/// A thread's buffers.
struct Scratch<G: Game> {
    moves: Vec<G::Move>,
    states: Vec<G::State>,
    numbers: Vec<u64>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch { moves: Vec::new(), states: Vec::new(), numbers: Vec::new() }
    }
}

/// The first pass over number `i`: its code (decided in 0 or 1 ply, or 0 for undecided) and its count of
/// successors that may still be won for the opponent.
fn first_look<S: Space + ?Sized>(space: &S, i: u64, scratch: &mut Scratch<S::Game>) -> Result<(u16, u8), RetroError> {
    let game = space.game();
    let Some(s) = space.position(i) else { return Ok((UNUSED, 0)) };
    let player = match game.node(&s) {
        Node::Terminal(payoff) => return Ok((Outcome::at_end(space.to_move(&s), payoff).code(), 0)),
        Node::Chance => return Err(RetroError::Chance(format!("{s:?}"))),
        Node::Decision(player) => player,
    };
    game.moves(&s, &mut scratch.moves);
    scratch.numbers.clear();
    let mut drawn = false;
    for &mv in &scratch.moves {
        let child = game.child(&s, mv);
        match game.node(&child) {
            Node::Terminal(payoff) => {
                let view = player.view(payoff);
                if view > 0.0 {
                    return Ok((Outcome::Win(1).code(), 0));
                }
                drawn |= view == 0.0;
            }
            _ => match space.index(&child) {
                Some(j) => scratch.numbers.push(j),
                None => return Err(RetroError::Outside { position: format!("{s:?}"), child: format!("{child:?}") }),
            },
        }
    }
    scratch.numbers.sort_unstable();
    scratch.numbers.dedup();
    let open = scratch.numbers.len() + usize::from(drawn);
    match u8::try_from(open) {
        Ok(0) => Ok((Outcome::Loss(1).code(), 0)),
        Ok(count) => Ok((0, count)),
        Err(_) => Err(RetroError::Fanout { position: format!("{s:?}"), successors: open }),
    }
}

/// Level `plies` on one chunk of numbers: the positions decided at `plies − 1` tell their predecessors. Returns
/// the wins and losses it decided.
fn spread<S: Unmoves + ?Sized>(
    space: &S,
    codes: &[AtomicU16],
    counts: &[AtomicU8],
    plies: u32,
    chunk: u64,
    scratch: &mut Scratch<S::Game>,
) -> Result<(u64, u64), RetroError> {
    let (won_before, lost_before) = (Outcome::Win(plies - 1).code(), Outcome::Loss(plies - 1).code());
    let (win, loss) = (Outcome::Win(plies).code(), Outcome::Loss(plies).code());
    let (mut wins, mut losses) = (0, 0);
    for i in chunk * CHUNK..((chunk + 1) * CHUNK).min(space.len()) {
        let code = codes[i as usize].load(Relaxed);
        if code != won_before && code != lost_before {
            continue;
        }
        let s = space.position(i).expect("a decided number holds a position");
        space.unmoves(&s, &mut scratch.states);
        scratch.numbers.clear();
        scratch.numbers.extend(scratch.states.iter().filter_map(|q| space.index(q)));
        scratch.numbers.sort_unstable();
        scratch.numbers.dedup();
        for &j in &scratch.numbers {
            let (slot, count) = (&codes[j as usize], &counts[j as usize]);
            if code == lost_before {
                wins += u64::from(slot.compare_exchange(0, win, Relaxed, Relaxed).is_ok());
            } else if slot.load(Relaxed) == 0 {
                match count.fetch_sub(1, Relaxed) {
                    0 => return Err(RetroError::Unmoves(j)),
                    1 => {
                        slot.store(loss, Relaxed);
                        losses += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    Ok((wins, losses))
}

/// Each move of a position and the outcome it gives the side to move (the outcome of the position it leads
/// to, one ply earlier: [`Outcome::before`]), from a table of `space`; `None` when the position, or a position
/// a move leads to, is not in the table.
pub fn move_outcomes<S: Space + ?Sized>(
    space: &S,
    table: &OutcomeTable,
    state: &<S::Game as Game>::State,
) -> Option<Vec<(<S::Game as Game>::Move, Outcome)>> {
    let game = space.game();
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    let player = space.to_move(state);
    moves
        .into_iter()
        .map(|mv| {
            let child = game.child(state, mv);
            let outcome = match game.node(&child) {
                Node::Terminal(payoff) if player.view(payoff) > 0.0 => Outcome::Win(1),
                Node::Terminal(payoff) if player.view(payoff) < 0.0 => Outcome::Loss(1),
                Node::Terminal(_) => Outcome::Draw,
                _ => table.outcome(space, &child)?.before(),
            };
            Some((mv, outcome))
        })
        .collect()
}

/// Whether outcome `a` is better than `b` for the side that has them: a faster win, a win over a draw over a
/// loss, a slower loss.
pub fn better(a: Outcome, b: Outcome) -> bool {
    let rank = |o: Outcome| match o {
        Outcome::Win(d) => (2, -i64::from(d)),
        Outcome::Draw => (1, 0),
        Outcome::Loss(d) => (0, i64::from(d)),
    };
    rank(a) > rank(b)
}

/// The line of best play from a position of `space` to the end of the game — the winner's fastest win
/// against the loser's longest defence, the first such move where several are as good — by the table; empty
/// for a draw (which never ends) and for a position the table does not hold.
pub fn line<S: Space + ?Sized>(
    space: &S,
    table: &OutcomeTable,
    state: &<S::Game as Game>::State,
) -> Vec<<S::Game as Game>::Move> {
    let game = space.game();
    let mut state = state.clone();
    let mut line = Vec::new();
    while let Some(outcomes) = move_outcomes(space, table, &state) {
        let Some(&(mv, outcome)) = outcomes.iter().reduce(|a, b| if better(b.1, a.1) { b } else { a }) else { break };
        if outcome == Outcome::Draw {
            break;
        }
        line.push(mv);
        game.play(&mut state, mv);
    }
    line
}
