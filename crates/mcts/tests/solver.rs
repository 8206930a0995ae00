//! MCTS-Solver: proofs agree with exact search, and a proven win is played at once.

use khela_exact::Algorithm;
use khela_exact::move_values;
use khela_games::tictactoe::TicTacToe;
use khela_mcts::random::Pcg;
use khela_mcts::{MctsConfig, Proof, Search, Uct};

/// On `X...O...X` the solver proves that O's corner moves 2 and 6 lose, and proves nothing wrong.
#[test]
fn solver_proves_the_trap_corners_lose() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    let config = MctsConfig { solver: true, ..MctsConfig::default() };
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
    search.run(10_000);
    let stats = search.stats();
    let lost: Vec<u8> = stats.iter().filter(|s| s.proof == Some(Proof::Loss)).map(|s| s.mv).collect();
    assert_eq!(lost, [2, 6]);
    assert!(stats.iter().all(|s| s.proof != Some(Proof::Win)), "{stats:?}");
    assert!([1, 3, 5, 7].contains(&search.best().unwrap()));
}

/// From every tic-tac-toe position two plies from the start, each move the solver proves won or lost (with
/// 20,000 iterations) has that value under alpha-beta.
#[test]
fn solver_proofs_agree_with_exact_values() {
    let mut checked = 0;
    for first in 0..9u8 {
        for second in (0..9u8).filter(|&c| c != first) {
            let mut board = khela_games::tictactoe::Board::EMPTY;
            board.x |= 1 << first;
            board.o |= 1 << second;
            let config = MctsConfig { solver: true, seed: u64::from(first * 9 + second), ..MctsConfig::default() };
            let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
            search.run(20_000);
            for (stats, (mv, value)) in search.stats().iter().zip(move_values(&TicTacToe, &board, Algorithm::AlphaBeta))
            {
                assert_eq!(stats.mv, mv);
                // X moves: a win for X is a positive value.
                match stats.proof {
                    Some(Proof::Win) => assert!(value > 0.0, "{board}: {mv} proved won, value {value}"),
                    Some(Proof::Loss) => assert!(value < 0.0, "{board}: {mv} proved lost, value {value}"),
                    None => {}
                }
                checked += usize::from(stats.proof.is_some());
            }
        }
    }
    assert!(checked >= 50, "only {checked} proofs");
}

/// A win in one is proved at once and the search stops there.
#[test]
fn a_proven_win_ends_the_search() {
    let board = TicTacToe::parse("XX.OO....").unwrap();
    let config = MctsConfig { solver: true, ..MctsConfig::default() };
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
    let summary = search.run(10_000);
    assert!(summary.iterations < 100, "{summary:?}");
    assert_eq!(search.proof(), Some(khela_games::Player::Max));
    assert_eq!(search.best(), Some(2));
}
