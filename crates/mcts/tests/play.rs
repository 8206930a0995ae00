//! UCT and PUCT (uniform prior) with 10,000 iterations a move never lose a game of tic-tac-toe to perfect play
//! (memoized minimax): 100 games as X and 100 as O each, the seed varied from game to game (it seeds the
//! search and the perfect player's choice among its best moves). The search keeps its tree between moves.

use khela_exact::{Algorithm, Memo, Natural, Searcher};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Player, Value};
use khela_mcts::random::{Pcg, Random};
use khela_mcts::{MctsConfig, Policy, Puct, Search, Uct, Uniform};
use rayon::prelude::*;

const ITERATIONS: u64 = 10_000;

/// Plays one game between the search (as `side`) and perfect play; returns the payoff (X's view).
fn game<P: Policy<TicTacToe>>(policy: P, side: Player, seed: u64) -> Value {
    let mut perfect = Searcher::new(&TicTacToe, Natural).with_cache(Memo::new());
    let mut tie_break = Pcg::from_seed(seed.wrapping_add(1 << 32));
    let config = MctsConfig { seed, ..MctsConfig::default() };
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, Board::EMPTY, policy, config);
    let mut moves = Vec::new();
    loop {
        let board = *search.state();
        let mv = match TicTacToe.node(&board) {
            Node::Terminal(payoff) => return payoff,
            Node::Decision(mover) if mover == side => {
                search.run(ITERATIONS);
                search.best().expect("a decision node has moves")
            }
            Node::Decision(mover) => {
                TicTacToe.moves(&board, &mut moves);
                let values: Vec<Value> = moves
                    .iter()
                    .map(|&mv| mover.view(perfect.run(Algorithm::Minimax, &TicTacToe.child(&board, mv)).value))
                    .collect();
                let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let best: Vec<u8> = moves.iter().zip(&values).filter(|&(_, &v)| v == top).map(|(&m, _)| m).collect();
                best[tie_break.below(best.len())]
            }
            Node::Chance => unreachable!("tic-tac-toe has no chance nodes"),
        };
        search.advance(mv);
    }
}

fn never_loses<P: Policy<TicTacToe> + Copy + Sync>(name: &str, policy: P) {
    for side in [Player::Max, Player::Min] {
        let losses: Vec<u64> =
            (0..100u64).into_par_iter().filter(|&seed| side.view(game(policy, side, seed)) < 0.0).collect();
        assert!(losses.is_empty(), "{name} as {side:?} lost to perfect play with seeds {losses:?}");
    }
}

#[test]
fn uct_never_loses_to_perfect_play() {
    never_loses("UCT", Uct::default());
}

#[test]
fn puct_with_a_uniform_prior_never_loses_to_perfect_play() {
    never_loses("PUCT", Puct::new(Uniform));
}
