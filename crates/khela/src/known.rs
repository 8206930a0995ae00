//! What endgame tables bring to a search or a player: a game's endgame tables loaded ([`crate::tables`]), answering the
//! searches' question — is this position's value known exactly? ([`Settle`]) — and a player's: which move keeps
//! it (the fastest win, a draw kept, the longest defence).

use crate::registry::{self, Capability, Endgame, Entry, Scope};
use crate::tables;
use anyhow::{Result, bail};
use khela_exact::retro::{self, Outcome, OutcomeTable};
use khela_games::settled::Settle;
use khela_games::{Game, Value};
use std::path::Path;

/// The largest endgame [`Known::solve`] solves in memory, in numbers (a few seconds, a few tens of MB).
pub const MAX_SOLVED_HERE: u64 = 5_000_000;

/// A game's endgame with its tables.
pub struct Known<G: Game> {
    /// The endgame.
    pub endgame: Endgame<G>,
    /// Its outcomes.
    pub table: OutcomeTable,
}

impl<G: Game> Known<G> {
    /// The tables of `entry`'s game (`name` its name, as the tables' files give it) in `dir`, for `command` (its
    /// name in messages).
    ///
    /// # Errors
    ///
    /// A game without an endgame, and tables that are missing, unreadable or for other rules.
    pub fn load<E: Entry<Game = G>>(entry: &E, name: &str, dir: &Path, command: &str) -> Result<Known<G>> {
        let Some(endgame) = entry.endgame(&Scope { within: Some(dir.to_path_buf()), ..Scope::default() }) else {
            return Err(registry::refuse(&format!("{command} --tables"), name, Capability::Retro));
        };
        let endgame = endgame?;
        let table = tables::load(dir, name, &endgame)?;
        Ok(Known { endgame, table })
    }

    /// The tables of `entry`'s game (`name` its name) solved here, in memory, by retrograde analysis: for the small
    /// variants whose endgames take a moment (the standard games' take a minute or more and their tables are
    /// read from disk, [`Known::load`]).
    ///
    /// # Errors
    ///
    /// A game without an endgame, or one of more than [`MAX_SOLVED_HERE`] numbers.
    pub fn solve<E: Entry<Game = G>>(entry: &E, name: &str) -> Result<Known<G>> {
        let Some(endgame) = entry.endgame(&Scope::default()) else {
            return Err(registry::refuse("tables solved in memory", name, Capability::Retro));
        };
        let endgame = endgame?;
        let numbers = endgame.space.len();
        if numbers > MAX_SOLVED_HERE {
            bail!(
                "{}'s endgame has {numbers} numbers, more than the {MAX_SOLVED_HERE} solved in memory: make its tables \
                 with retro and load them",
                entry.title()
            );
        }
        let table = retro::solve(&*endgame.space, |_| {})?;
        Ok(Known { endgame, table })
    }

    /// The outcome of `state` for the side to move, if the tables hold it.
    pub fn outcome(&self, state: &G::State) -> Option<Outcome> {
        self.table.outcome(&*self.endgame.space, state)
    }

    /// Every move of `state` and the outcome it gives the side to move, if the tables hold every position the
    /// moves lead to (or end the game): the positions of the endgame, and those one move before it (Bagh-Chal:
    /// the last goat's placement).
    pub fn moves(&self, state: &G::State) -> Option<Vec<(G::Move, Outcome)>> {
        retro::move_outcomes(&*self.endgame.space, &self.table, state)
    }

    /// The best move of `state` by the tables, and the outcome it keeps for the side to move, where
    /// [`Known::moves`] knows them: the first of the equally good, in natural order.
    pub fn best(&self, state: &G::State) -> Option<(G::Move, Outcome)> {
        self.moves(state)?.into_iter().reduce(|a, b| if retro::better(b.1, a.1) { b } else { a })
    }
}

impl<G: Game> Settle<G> for Known<G> {
    /// A win for the side to move is +1 for it, a loss −1, a draw 0; MAX's view.
    fn payoff(&self, state: &G::State) -> Option<Value> {
        let mover = self.endgame.space.to_move(state);
        self.outcome(state).map(|outcome| match outcome {
            Outcome::Win(_) => mover.view(1.0),
            Outcome::Loss(_) => mover.view(-1.0),
            Outcome::Draw => 0.0,
        })
    }
}
