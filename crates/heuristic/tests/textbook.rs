//! The textbook's figures for depth-limited search on tic-tac-toe, and the horizon effect.

use khela_exact::SearchConfig;
use khela_exact::{Algorithm, move_values};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_heuristic::Engine;
use khela_heuristic::tictactoe::OpenLines;

/// Two plies with the open-lines evaluator (X's move, O's best reply, then the evaluator; wins ±100): the
/// center is worth 1, a corner −1, an edge −2, so the program opens in the center — though exact search values
/// every first move at 0.
#[test]
fn two_ply_open_lines_prefers_the_center() {
    let mut engine = Engine::new(&TicTacToe, &OpenLines, SearchConfig::depth_limited(2));
    let values: Vec<(u8, f64)> = engine.analyse(&Board::EMPTY).iter().map(|m| (m.mv, m.value)).collect();
    let expected = [(0, -1.0), (1, -2.0), (2, -1.0), (3, -2.0), (4, 1.0), (5, -2.0), (6, -1.0), (7, -2.0), (8, -1.0)];
    assert_eq!(values, expected);
    let analysis = engine.search(&Board::EMPTY);
    assert_eq!((analysis.value, analysis.best), (1.0, Some(4)));
    assert_eq!(analysis.pv.len(), 2);
    assert!(move_values(&TicTacToe, &Board::EMPTY, Algorithm::AlphaBeta).iter().all(|&(_, v)| v == 0.0));
}

/// The horizon effect. In `..O..X.OX` (X to move), two plies without quiescence choose the corner 0: after
/// X 0, O 4 the open lines still look fine for X, but O has made two threats at once and wins on the next move,
/// just past the horizon. Quiescence keeps playing the forced moves (wins and blocks) and sees it; it finds
/// X 4, which makes two threats of X's own and wins.
#[test]
fn quiescence_sees_past_the_horizon() {
    let board = TicTacToe::parse("..O..X.OX").unwrap();
    let exact = move_values(&TicTacToe, &board, Algorithm::AlphaBeta);
    let exact_value = |mv: u8| exact.iter().find(|&&(m, _)| m == mv).unwrap().1;

    let plain = Engine::new(&TicTacToe, &OpenLines, SearchConfig::depth_limited(2)).search(&board);
    assert_eq!((plain.best, plain.value), (Some(0), -1.0));
    assert_eq!(exact_value(0), -1.0, "the move chosen without quiescence loses");

    let options = SearchConfig { quiescence: true, ..SearchConfig::depth_limited(2) };
    let quiet = Engine::new(&TicTacToe, &OpenLines, options).search(&board);
    assert_eq!((quiet.best, quiet.value), (Some(4), 100.0));
    assert_eq!(exact_value(4), 1.0, "the move chosen with quiescence wins");
}
