//! A move chosen by PUCT guided by a model, for play and evaluation: no root noise, the most visited move.

use crate::encode::Encode;
use crate::model::{Leaves, Model};
use khela_mcts::random::Pcg;
use khela_mcts::{Begun, MctsConfig, MctsResult, Pending, Puct, Search, Uniform};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How a model-guided search runs.
#[derive(Clone, Debug)]
pub struct Guided {
    /// Simulations (iterations) of the search.
    pub simulations: u32,
    /// PUCT's exploration constant.
    pub c_puct: f64,
    /// Leaves valued per forward pass (kept apart by virtual loss); 1 is the serial search.
    pub batch: usize,
    /// When the search must stop, fewer simulations done if need be: checked between two forward passes, the
    /// first pass made whatever the clock says (a deadline past before the search began still gets an answer).
    pub until: Option<Instant>,
    /// Raised from elsewhere (a front end's Ctrl-C) to stop the search as the deadline does.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for Guided {
    /// 200 simulations, c_puct 1.5, 8 leaves a pass, no deadline.
    fn default() -> Guided {
        Guided { simulations: 200, c_puct: 1.5, batch: 8, until: None, stop: None }
    }
}

/// A search of `state` (a decision node; `history` the keys of the positions played before it, for a game whose
/// positions repeat) guided by `model`: the root's statistics, what the search did, and the most visited move
/// (the first of equals, in natural order). Deterministic: no noise, and the seed only breaks what nothing else
/// does.
pub fn search<G: Encode, M: Model<G>>(
    game: &G,
    model: &M,
    state: &G::State,
    history: &[u64],
    guided: &Guided,
    seed: u64,
) -> MctsResult<G::Move> {
    let config = MctsConfig { seed, virtual_loss: 1, ..MctsConfig::default() };
    let puct = Puct { c: guided.c_puct, ..Puct::new(Uniform) };
    let mut search: Search<'_, G, _, Pcg> =
        Search::new(game, state.clone(), puct, config).with_history(history.to_vec());
    let mut leaves = Leaves::new();
    let mut done = 0;
    let go_on = || {
        guided.until.is_none_or(|until| Instant::now() < until)
            && guided.stop.as_ref().is_none_or(|stop| !stop.load(Ordering::Relaxed))
    };
    while done < guided.simulations && (done == 0 || go_on()) {
        let mut pending: Vec<(usize, Pending<G>)> = Vec::new();
        while pending.len() < guided.batch.max(1) && done + (pending.len() as u32) < guided.simulations {
            match search.begin() {
                // A descent to a leaf already in the batch would only value it again: the batch goes as it is.
                Begun::Leaf(leaf) if pending.iter().any(|(_, p)| p.state() == leaf.state()) => {
                    search.abandon(leaf);
                    break;
                }
                Begun::Leaf(leaf) => pending.push((0, leaf)),
                Begun::Done => done += 1,
                Begun::Over => return outcome(&search, done),
            }
        }
        done += pending.len() as u32;
        leaves.value(game, model, pending, |_, leaf, score, priors| search.complete(leaf, score, priors));
    }
    outcome(&search, done)
}

/// What `search` found in `simulations`.
fn outcome<G: Encode, P: khela_mcts::Policy<G>>(
    search: &Search<'_, G, P, Pcg>,
    simulations: u32,
) -> MctsResult<G::Move> {
    let stats = search.stats();
    let top = stats.iter().map(|s| s.visits).max();
    let best = stats.iter().find(|s| Some(s.visits) == top).map(|s| s.mv);
    MctsResult { stats, summary: search.summary(u64::from(simulations)), best }
}

/// The most visited move of [`search`] (the first of equals, in natural order).
pub fn best<G: Encode, M: Model<G>>(
    game: &G,
    model: &M,
    state: &G::State,
    history: &[u64],
    guided: &Guided,
    seed: u64,
) -> G::Move {
    search(game, model, state, history, guided, seed).best.expect("a decision node has moves")
}
