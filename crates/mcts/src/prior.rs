//! Prior probabilities of moves, for PUCT.

use khela_games::{Evaluator, Game, Node};

/// A prior over the legal moves of a decision node.
pub trait Prior<G: Game> {
    /// Clears `out` and writes one probability per move of `moves` (the legal moves of decision node `state`,
    /// in natural order), summing to 1.
    fn priors(&self, game: &G, state: &G::State, moves: &[G::Move], out: &mut Vec<f64>);
}

/// Every move equally likely.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Uniform;

impl<G: Game> Prior<G> for Uniform {
    fn priors(&self, _: &G, _: &G::State, moves: &[G::Move], out: &mut Vec<f64>) {
        out.clear();
        out.extend(moves.iter().map(|_| 1.0 / moves.len() as f64));
    }
}

/// A softmax over an evaluator's estimates of the children: a move's prior is proportional to
/// exp(v / `temperature`), v the estimate of the child from the mover's view divided by the evaluator's bound
/// (so estimates lie in [−1, 1] and a real win or loss at ±2, whatever the evaluator's scale).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvaluatorPrior<E> {
    /// The evaluator.
    pub evaluator: E,
    /// The softmax temperature: small values concentrate the prior on the best-looking moves.
    pub temperature: f64,
}

impl<G: Game, E: Evaluator<G>> Prior<G> for EvaluatorPrior<E> {
    fn priors(&self, game: &G, state: &G::State, moves: &[G::Move], out: &mut Vec<f64>) {
        let Node::Decision(mover) = game.node(state) else {
            debug_assert!(false, "priors are for decision nodes");
            return Uniform.priors(game, state, moves, out);
        };
        let bound = self.evaluator.bound();
        out.clear();
        out.extend(moves.iter().map(|&mv| {
            let child = game.child(state, mv);
            let estimate = match game.node(&child) {
                Node::Terminal(payoff) => 2.0 * payoff.signum() * bound,
                _ => self.evaluator.evaluate(game, &child),
            };
            mover.view(estimate) / bound / self.temperature
        }));
        let top = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        out.iter_mut().for_each(|v| *v = (*v - top).exp());
        let total: f64 = out.iter().sum();
        out.iter_mut().for_each(|p| *p /= total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use khela_games::tictactoe::{Board, TicTacToe};
    use khela_games::{Player, Value};

    /// X's cells minus O's cells: more stones look better.
    struct Material;

    impl Evaluator<TicTacToe> for Material {
        fn evaluate(&self, _: &TicTacToe, board: &Board) -> Value {
            f64::from(board.x.count_ones()) - f64::from(board.o.count_ones())
        }

        fn bound(&self) -> Value {
            9.0
        }
    }

    #[test]
    fn uniform_sums_to_one() {
        let mut out = Vec::new();
        Uniform.priors(&TicTacToe, &Board::EMPTY, &[0u8, 1, 2, 3], &mut out);
        assert_eq!(out, [0.25; 4]);
    }

    #[test]
    fn evaluator_prior_prefers_the_win() {
        // X to move on XX.OO....: cell 2 wins at once.
        let board = TicTacToe::parse("XX.OO....").unwrap();
        assert_eq!(board.to_move(), Player::Max);
        let moves = [2u8, 5, 6, 7, 8];
        let mut out = Vec::new();
        EvaluatorPrior { evaluator: Material, temperature: 0.5 }.priors(&TicTacToe, &board, &moves, &mut out);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(out[0] > 0.9, "{out:?}");
        assert!(out[1..].iter().all(|&p| (p - out[1]).abs() < 1e-15), "{out:?}");
    }
}
