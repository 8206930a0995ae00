//! A position's exact value as tables give it ([`Verdict`]: win, draw or loss, with the plies to the end where
//! they are kept), and the values of the positions before a game's endgame ([`Before`]): Bagh-Chal's placement
//! phase, from its layer tables ([`crate::layers::Tables`]) or solved in memory ([`Solved`]).

use anyhow::Result;
use khela_exact::layered::Wdl;
use khela_exact::retro::{Outcome, OutcomeTable};
use khela_games::notation::plies;
use khela_games::{Game, Space};
use std::fmt;

/// A position's exact value for its side to move, with the plies to the end where the tables keep them (the
/// placement phase's layer tables keep win, draw or loss only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins (in this many plies, if known).
    Win(Option<u32>),
    /// Neither side can force an end.
    Draw,
    /// The side to move loses (in this many plies, if known).
    Loss(Option<u32>),
}

impl Verdict {
    /// The value for the side to move of a table's two bits.
    pub fn of(wdl: Wdl) -> Verdict {
        match wdl {
            Wdl::Win => Verdict::Win(None),
            Wdl::Draw => Verdict::Draw,
            Wdl::Loss => Verdict::Loss(None),
        }
    }

    /// The plies to the end, where known (never for a draw).
    pub fn plies(self) -> Option<u32> {
        match self {
            Verdict::Win(d) | Verdict::Loss(d) => d,
            Verdict::Draw => None,
        }
    }

    /// Win 1, draw 0, loss −1, for the side to move.
    pub fn sign(self) -> i8 {
        match self {
            Verdict::Win(_) => 1,
            Verdict::Draw => 0,
            Verdict::Loss(_) => -1,
        }
    }

    /// The value a ply earlier for the side that moved there: the other side's (`turned`) or the same side's.
    pub fn before(self, turned: bool) -> Verdict {
        let later = |d: Option<u32>| d.map(|d| d + 1);
        match (self, turned) {
            (Verdict::Win(d), true) => Verdict::Loss(later(d)),
            (Verdict::Loss(d), true) => Verdict::Win(later(d)),
            (Verdict::Win(d), false) => Verdict::Win(later(d)),
            (Verdict::Loss(d), false) => Verdict::Loss(later(d)),
            (Verdict::Draw, _) => Verdict::Draw,
        }
    }

    /// Whether `self` is better than `other` for the side that has them: a win over a draw over a loss, a
    /// faster win and a slower loss, an unknown distance counted as longer than any known.
    pub fn better(self, other: Verdict) -> bool {
        let rank = |v: Verdict| match v {
            Verdict::Win(d) => (2, -i64::from(d.unwrap_or(u32::MAX))),
            Verdict::Draw => (1, 0),
            Verdict::Loss(d) => (0, i64::from(d.unwrap_or(u32::MAX))),
        };
        rank(self) > rank(other)
    }
}

impl From<Outcome> for Verdict {
    fn from(outcome: Outcome) -> Verdict {
        match outcome {
            Outcome::Win(d) => Verdict::Win(Some(d)),
            Outcome::Draw => Verdict::Draw,
            Outcome::Loss(d) => Verdict::Loss(Some(d)),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(Some(d)) => write!(f, "a win in {}", plies(u64::from(*d))),
            Verdict::Loss(Some(d)) => write!(f, "a loss in {}", plies(u64::from(*d))),
            Verdict::Win(None) => f.write_str("a win"),
            Verdict::Loss(None) => f.write_str("a loss"),
            Verdict::Draw => f.write_str("a draw"),
        }
    }
}

/// The exact values of the positions before a game's endgame, the positions its tables do not hold.
pub trait Before<G: Game>: Send + Sync {
    /// The value of `state` for its side to move, if these values hold it.
    ///
    /// # Errors
    ///
    /// A table file that cannot be read, or is damaged (its checksum checked the first time it is read).
    fn verdict(&self, state: &G::State) -> Result<Option<Verdict>>;
}

/// The positions of a space and their outcomes, solved in memory: [`Before`] for a small game's placement phase.
pub struct Solved<S> {
    /// The positions.
    pub space: S,
    /// Their outcomes.
    pub table: OutcomeTable,
}

impl<S: Space + Send> Before<S::Game> for Solved<S> {
    fn verdict(&self, state: &<S::Game as Game>::State) -> Result<Option<Verdict>> {
        Ok(self.table.outcome(&self.space, state).map(Verdict::from))
    }
}
