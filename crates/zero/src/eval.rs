//! The network measured against exact truth: the value head's sign and the policy head's top move on positions
//! whose values are known.

use crate::encode::Encode;
use crate::model::Model;

/// What is known of a position: its value's sign for the side to move, and its optimal moves' actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truth {
    /// 1 a win for the side to move, 0 a draw, −1 a loss.
    pub sign: i8,
    /// The actions of the moves that keep the value.
    pub optimal: Vec<usize>,
}

/// The shares of positions the network judges right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The positions judged.
    pub positions: usize,
    /// The share whose value's sign is right: a value above 1/3 reads as a win, below −1/3 as a loss, between
    /// as a draw.
    pub value_sign_accuracy: f64,
    /// The share whose policy head's top legal action (the first of equals) is an optimal move's.
    pub policy_top1_optimal: f64,
}

/// The sign a value reads as: win above 1/3, loss below −1/3, draw between.
pub fn sign_of(value: f32) -> i8 {
    if value > 1.0 / 3.0 {
        1
    } else if value < -1.0 / 3.0 {
        -1
    } else {
        0
    }
}

/// Judges the network's raw output (no search) on `positions` (decision nodes with their truths), `batch` at a
/// forward pass.
pub fn judge<G: Encode, M: Model<G>>(game: &G, model: &M, positions: &[(G::State, Truth)], batch: usize) -> Judgement {
    let (len, actions) = (game.shape().len(), game.actions());
    let (mut input, mut logits, mut values, mut moves) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut signs, mut tops) = (0usize, 0usize);
    for chunk in positions.chunks(batch.max(1)) {
        input.clear();
        input.resize(chunk.len() * len, 0.0);
        for ((state, _), out) in chunk.iter().zip(input.chunks_exact_mut(len)) {
            game.encode(state, out);
        }
        model.evaluate(game, &input, chunk.len(), &mut logits, &mut values);
        for (k, (state, truth)) in chunk.iter().enumerate() {
            signs += usize::from(sign_of(values[k]) == truth.sign);
            game.moves(state, &mut moves);
            let scores = &logits[k * actions..(k + 1) * actions];
            let top = moves
                .iter()
                .map(|&mv| game.action(mv))
                .fold(None, |best: Option<usize>, a| match best {
                    Some(b) if scores[b] >= scores[a] => Some(b),
                    _ => Some(a),
                })
                .expect("a decision node has moves");
            tops += usize::from(truth.optimal.contains(&top));
        }
    }
    let n = positions.len().max(1) as f64;
    Judgement {
        positions: positions.len(),
        value_sign_accuracy: signs as f64 / n,
        policy_top1_optimal: tops as f64 / n,
    }
}
