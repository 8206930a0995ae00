//! Searches on the dynamic face's states: every legal move valued ([`crate::analysis`]), what a move lets happen
//! to the pieces ([`crate::threat`]) and a player's choice ([`crate::players`]), the analysis and the choice
//! within a [`Limit`] where they can stop early.

use super::State;
use crate::analysis::{Analyser, Analysis, Limit};
use crate::players::Contender;
use crate::threat::Threat;
use anyhow::Result;
use std::time::Instant;

impl State {
    /// Every legal move valued by `analyser` ([`crate::analysis`]).
    ///
    /// # Errors
    ///
    /// A position with no move to choose (over, or a chance node), or an analyser the game cannot serve.
    pub fn analyse(&self, analyser: &Analyser) -> Result<Analysis> {
        self.line.analyse(self.game.spec.name, analyser, &Limit::NONE)
    }

    /// [`State::analyse`], answering by `until` with the best found by then where the search can stop early (a
    /// shallower depth, fewer iterations; [`Analysis::complete`] says so).
    ///
    /// # Errors
    ///
    /// As [`State::analyse`].
    pub fn analyse_until(&self, analyser: &Analyser, until: Instant) -> Result<Analysis> {
        self.analyse_within(analyser, &Limit { until: Some(until), stop: None })
    }

    /// [`State::analyse`] within `limit`: a deadline as [`State::analyse_until`], and a flag that stops Monte
    /// Carlo and a network's search early ([`Limit::stop`]).
    ///
    /// # Errors
    ///
    /// As [`State::analyse`].
    pub fn analyse_within(&self, analyser: &Analyser, limit: &Limit) -> Result<Analysis> {
        self.line.analyse(self.game.spec.name, analyser, limit)
    }

    /// The captures that the legal move numbered `mv` lets the opponent force, or itself forces, within a few
    /// moves ([`crate::threat`]); `None` for a game without captures, a number that is no legal move, or a
    /// position with no move to choose.
    pub fn threat(&self, mv: usize) -> Option<Threat> {
        self.line.threat(mv)
    }

    /// The move `contender` chooses here, `seed` for its random choices (the same seed, the same move).
    ///
    /// # Errors
    ///
    /// A position with no move to choose, or a contender the game cannot serve (the engine without an evaluator,
    /// a network the game has not).
    pub fn choose(&self, contender: &Contender, seed: u64) -> Result<usize> {
        self.line.choose(self.game.spec.name, contender, seed, &Limit::NONE)
    }

    /// [`State::choose`] within `limit`: Monte Carlo and a network's search stop when it is reached, choosing by
    /// the iterations they ran ([`crate::players::Seat::within`]).
    ///
    /// # Errors
    ///
    /// As [`State::choose`].
    pub fn choose_within(&self, contender: &Contender, seed: u64, limit: &Limit) -> Result<usize> {
        self.line.choose(self.game.spec.name, contender, seed, limit)
    }
}
