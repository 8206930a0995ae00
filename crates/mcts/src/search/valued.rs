//! Iterations whose leaves the caller values ([`Search::begin`], [`Search::complete`]): a network's value and
//! priors, say, for many leaves of many searches at once. The descent, the opening and the backup are the loop's
//! own; only the valuation is the caller's.

use super::{Leaf, Search};
use crate::policy::Policy;
use crate::random::Random;
use crate::tree::ROOT;
use khela_games::{Game, Node as Kind};

impl<G: Game, P: Policy<G>, R: Random> Search<'_, G, P, R> {
    /// Begins an iteration whose leaf the caller values (a network's value and priors, say, for many leaves of
    /// many searches at once): descends as [`Search::run`] does, adding `config.virtual_loss` to every node of
    /// the path so that the next descents go elsewhere, and stops at the first decision node not yet opened (a
    /// fresh node, or the root of a new search) — a [`Begun::Leaf`] for [`Search::complete`] to finish — or at a
    /// terminal or proven node, whose score it backs up at once ([`Begun::Done`]). [`Begun::Over`] when the root
    /// is terminal or proven: nothing to search.
    ///
    /// Several iterations may be in flight at once; each must be completed (or the search dropped). Two of them
    /// may end at the same leaf: the first to complete opens it, and both back up.
    pub fn begin(&mut self) -> Begun<G> {
        let virtual_loss = self.config.virtual_loss;
        let (steps, tree, rng, scratch) = self.parts();
        let root = ROOT as usize;
        if matches!(tree.nodes[root].kind, Kind::Terminal(_)) || tree.stats[root].proof.is_some() {
            return Begun::Over;
        }
        match steps.descend(tree, rng, scratch, virtual_loss, true) {
            Leaf::Score(score) => {
                steps.backup(tree, &scratch.path, score, virtual_loss);
                Begun::Done
            }
            Leaf::Playout(state) => {
                Begun::Leaf(Pending { path: scratch.path.clone(), line: scratch.line.clone(), state })
            }
        }
    }

    /// Abandons an iteration begun by [`Search::begin`] without valuing it: takes its virtual losses back and
    /// backs nothing up, as if it had not begun. For a caller whose batch already holds the same leaf (before the
    /// root is opened, every descent ends there).
    pub fn abandon(&mut self, pending: Pending<G>) {
        let virtual_loss = self.config.virtual_loss;
        for &id in &pending.path {
            self.tree.stats[id as usize].virtual_visits -= virtual_loss;
        }
    }

    /// Completes an iteration begun by [`Search::begin`]: opens its leaf, if it is a decision node not yet
    /// opened, with a child for each legal move (in natural order) whose prior is `priors`' value for it, and
    /// backs up `max_score` (win 1, draw ½, loss 0 for MAX), the leaf's value, along the path.
    ///
    /// # Panics
    ///
    /// If `priors` does not have one value per legal move of the leaf, when it is opened.
    pub fn complete(&mut self, pending: Pending<G>, max_score: f64, priors: &[f64]) {
        let virtual_loss = self.config.virtual_loss;
        let (steps, tree, rng, scratch) = self.parts();
        let leaf = *pending.path.last().expect("a path from the root");
        let node = &tree.nodes[leaf as usize];
        if let (Kind::Decision(mover), false) = (node.kind, node.opened) {
            steps.game.moves(&node.state, &mut scratch.moves);
            assert_eq!(priors.len(), scratch.moves.len(), "one prior a legal move");
            steps.open_with(tree, leaf, mover, &scratch.moves, priors, &pending.line, rng);
        }
        steps.backup(tree, &pending.path, max_score, virtual_loss);
    }
}

/// An iteration begun by [`Search::begin`], waiting at its leaf for the caller's valuation.
pub struct Pending<G: Game> {
    /// The nodes from the root to the leaf.
    path: Vec<u32>,
    /// In a game whose positions repeat: the keys of the line of play to the leaf.
    line: Vec<u64>,
    state: G::State,
}

impl<G: Game> Pending<G> {
    /// The leaf's position: a decision node, not terminal.
    pub fn state(&self) -> &G::State {
        &self.state
    }
}

/// What [`Search::begin`] did.
pub enum Begun<G: Game> {
    /// It reached a leaf, for the caller to value.
    Leaf(Pending<G>),
    /// It ended on a terminal or proven node and backed its score up: a whole iteration.
    Done,
    /// Nothing: the root is terminal or proven.
    Over,
}
