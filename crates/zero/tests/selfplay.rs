//! Self-play with the model that knows nothing ([`khela_zero::Blank`]): legal, complete records; the same seed
//! gives the same games with a given number of threads.

use khela_games::Node;
use khela_games::connect4::Connect4;
use khela_games::line::Line;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_zero::Blank;
use khela_zero::selfplay::{Record, Schedule, Settings, play};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Checks that every record is a legal game to its end, with visit shares over legal actions summing to 1.
fn check<G: khela_zero::Encode>(game: &G, start: &G::State, records: &[Record<G>]) {
    for record in records {
        let mut line = Line::new(game, start.clone());
        assert_eq!(record.moves.len(), record.visits.len());
        let mut moves = Vec::new();
        for (mv, visits) in record.moves.iter().zip(&record.visits) {
            assert!(line.end(game).is_none(), "a move after the end");
            game.moves(line.state(), &mut moves);
            assert!(moves.contains(mv));
            let legal: Vec<usize> = moves.iter().map(|&m| game.action(m)).collect();
            assert!(visits.iter().all(|(a, _)| legal.contains(a)));
            let total: f32 = visits.iter().map(|(_, s)| s).sum();
            assert!((total - 1.0).abs() < 1e-5, "{total}");
            assert!(visits.iter().any(|(a, _)| *a == game.action(*mv)), "the move played was visited");
            line.play(game, *mv);
        }
        let end = line.end(game).expect("the game ran to its end");
        assert_eq!(end.payoff(), record.payoff);
        if let Node::Terminal(payoff) = game.node(line.state()) {
            assert_eq!(payoff, record.payoff);
        }
    }
}

#[test]
fn tictactoe_games_are_legal_and_repeatable() {
    let settings = Settings { simulations: 50, in_flight: 5, ..Settings::default() };
    let count = AtomicUsize::new(0);
    let done = || {
        count.fetch_add(1, Ordering::Relaxed);
    };
    let one = play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 12, seed: 3, threads: 1 }, &done);
    assert_eq!(one.len(), 12);
    assert_eq!(count.load(Ordering::Relaxed), 12);
    check(&TicTacToe, &Board::EMPTY, &one);
    assert_eq!(
        play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 12, seed: 3, threads: 1 }, &|| ()),
        one
    );
    let two = play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 12, seed: 3, threads: 2 }, &|| ());
    check(&TicTacToe, &Board::EMPTY, &two);
    assert_eq!(
        play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 12, seed: 3, threads: 2 }, &|| ()),
        two
    );
    // The seed matters (the temperature's draws and the noise).
    assert_ne!(
        play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 12, seed: 4, threads: 1 }, &|| ()),
        one
    );
    // The temperature moves: at 0 the first move is the most visited one in every game.
    let greedy = Settings { temperature_moves: 0, ..settings };
    for record in play(&TicTacToe, &Board::EMPTY, &Blank, &greedy, Schedule { games: 6, seed: 3, threads: 1 }, &|| ()) {
        let top = record.visits[0].iter().map(|&(_, s)| s).fold(0.0, f32::max);
        let played = record.visits[0].iter().find(|(a, _)| *a == usize::from(record.moves[0])).unwrap().1;
        assert_eq!(played, top);
    }
}

#[test]
fn connect4_games_are_legal() {
    let game = Connect4::new(5, 4).unwrap();
    let settings = Settings { simulations: 30, in_flight: 4, ..Settings::default() };
    let records =
        play(&game, &Default::default(), &Blank, &settings, Schedule { games: 6, seed: 1, threads: 2 }, &|| ());
    check(&game, &Default::default(), &records);
}
