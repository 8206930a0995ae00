//! What the search asks of a network: for a batch of positions, a score per action and a value.

use crate::encode::Encode;
use khela_games::{Node, Player};
use khela_mcts::Pending;

/// A policy-value model over a game's encoding ([`Encode`]).
pub trait Model<G: Encode>: Sync {
    /// For `batch` encoded positions (`input`: `batch` × `game.shape().len()` values, one position after the
    /// other), writes `batch` × `game.actions()` logits (a position's action scores, one position after the
    /// other) and `batch` values in [−1, 1], each from its side to move's view.
    fn evaluate(&self, game: &G, input: &[f32], batch: usize, logits: &mut Vec<f32>, values: &mut Vec<f32>);
}

/// The priors of `moves` (the legal moves of a position, in natural order) from a position's logits: a softmax
/// over the legal actions only (the illegal ones are masked out), written into `priors`.
pub fn legal_priors<G: Encode>(game: &G, logits: &[f32], moves: &[G::Move], priors: &mut Vec<f64>) {
    priors.clear();
    priors.extend(moves.iter().map(|&mv| f64::from(logits[game.action(mv)])));
    let top = priors.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    priors.iter_mut().for_each(|p| *p = (*p - top).exp());
    let total: f64 = priors.iter().sum();
    priors.iter_mut().for_each(|p| *p /= total);
}

/// A value in [−1, 1] from the side to move's view of `state` as the Monte Carlo search scores it: MAX's
/// expected score, win 1, draw ½, loss 0.
pub fn max_score<G: Encode>(game: &G, state: &G::State, value: f32) -> f64 {
    let value = f64::from(value.clamp(-1.0, 1.0));
    match game.node(state) {
        Node::Decision(Player::Min) => 0.5 - 0.5 * value,
        _ => 0.5 + 0.5 * value,
    }
}

/// The model that knows nothing: equal logits, value 0 (a draw). PUCT guided by it is PUCT with a uniform
/// prior and no playouts; the tests and a network's first self-play use it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Blank;

impl<G: Encode> Model<G> for Blank {
    fn evaluate(&self, game: &G, _: &[f32], batch: usize, logits: &mut Vec<f32>, values: &mut Vec<f32>) {
        logits.clear();
        values.clear();
        logits.resize(batch * game.actions(), 0.0);
        values.resize(batch, 0.0);
    }
}

/// Buffers for valuing leaves a batch at a time.
pub(crate) struct Leaves {
    input: Vec<f32>,
    logits: Vec<f32>,
    values: Vec<f32>,
}

impl Leaves {
    pub(crate) fn new() -> Leaves {
        Leaves { input: Vec::new(), logits: Vec::new(), values: Vec::new() }
    }

    /// Values `pending` leaves (each tagged with its owner's index) in one forward pass of `model` and hands
    /// each, with MAX's score and its moves' priors, to `complete`.
    pub(crate) fn value<G: Encode, M: Model<G>>(
        &mut self,
        game: &G,
        model: &M,
        pending: Vec<(usize, Pending<G>)>,
        mut complete: impl FnMut(usize, Pending<G>, f64, &[f64]),
    ) {
        if pending.is_empty() {
            return;
        }
        let len = game.shape().len();
        self.input.clear();
        self.input.resize(pending.len() * len, 0.0);
        for ((_, leaf), out) in pending.iter().zip(self.input.chunks_exact_mut(len)) {
            game.encode(leaf.state(), out);
        }
        model.evaluate(game, &self.input, pending.len(), &mut self.logits, &mut self.values);
        let actions = game.actions();
        let (mut moves, mut priors) = (Vec::new(), Vec::new());
        for (k, (owner, leaf)) in pending.into_iter().enumerate() {
            game.moves(leaf.state(), &mut moves);
            legal_priors(game, &self.logits[k * actions..(k + 1) * actions], &moves, &mut priors);
            let score = max_score(game, leaf.state(), self.values[k]);
            complete(owner, leaf, score, &priors);
        }
    }
}
