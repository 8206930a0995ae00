//! Random playouts from a state, many in one call: each game played to its end by uniformly random moves
//! (chance outcomes by their probabilities), as Monte Carlo's playouts are, counted by who won.

use khela_games::line::{End, Line};
use khela_games::{Game, Node};
use khela_mcts::random::{Pcg, Random, roll};

/// What a batch of random playouts came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playouts {
    /// Games won by the first player.
    pub first: u64,
    /// Games drawn (a draw by repetition or by the length cap included).
    pub draws: u64,
    /// Games won by the second player.
    pub second: u64,
    /// Plies played in all (chance outcomes included).
    pub plies: u64,
}

/// `count` random games from the end of `line`, seeded by `seed` (the same seed, the same games). A game whose
/// positions repeat plays on a copy of the line, which tells repetitions and the length cap; the others on a copy
/// of the position alone, listing its moves first and asking what the node is only where there are none (as
/// Monte Carlo's playouts do).
pub(super) fn random<G: Game>(game: &G, line: &Line<G>, count: u64, seed: u64) -> Playouts {
    let mut rng = Pcg::from_seed(seed);
    let mut done = Playouts::default();
    let mut moves = Vec::new();
    for _ in 0..count {
        let payoff = if game.cycles().is_some() {
            let mut line = line.clone();
            loop {
                if let Some(end) = line.end(game) {
                    break End::payoff(end);
                }
                let mv = match game.node(line.state()) {
                    Node::Chance => roll(game, line.state(), &mut rng),
                    _ => {
                        game.moves(line.state(), &mut moves);
                        moves[rng.below(moves.len())]
                    }
                };
                line.play(game, mv);
                done.plies += 1;
            }
        } else {
            let mut state = line.state().clone();
            loop {
                game.moves(&state, &mut moves);
                let mv = match moves.len() {
                    0 => match game.node(&state) {
                        Node::Terminal(payoff) => break payoff,
                        Node::Chance => roll(game, &state, &mut rng),
                        Node::Decision(_) => unreachable!("a decision node lists its moves"),
                    },
                    n => {
                        debug_assert!(matches!(game.node(&state), Node::Decision(_)), "moves listed at a chance node");
                        moves[rng.below(n)]
                    }
                };
                game.play(&mut state, mv);
                done.plies += 1;
            }
        };
        match payoff {
            p if p > 0.0 => done.first += 1,
            p if p < 0.0 => done.second += 1,
            _ => done.draws += 1,
        }
    }
    done
}
