//! Self-play with the model that knows nothing ([`khela_zero::Blank`]): legal, complete records; the same seed
//! gives the same games with a given number of threads.

use khela_games::Node;
use khela_games::connect4::Connect4;
use khela_games::line::Line;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_zero::Blank;
use khela_zero::selfplay::{Record, Schedule, Settings, play};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Checks that every record is a legal game to its end, with visit shares over legal actions summing to 1 after
/// an opening of at most `random_plies` moves without them.
fn check<G: khela_zero::Encode>(game: &G, start: &G::State, records: &[Record<G>], random_plies: usize) {
    for record in records {
        let mut line = Line::new(game, start.clone());
        assert_eq!(record.moves.len(), record.visits.len());
        assert_eq!(record.moves.len(), record.values.len());
        let opening = record.visits.iter().take_while(|v| v.is_empty()).count();
        assert!(opening <= random_plies, "{opening} random plies");
        let mut moves = Vec::new();
        for (i, (mv, visits)) in record.moves.iter().zip(&record.visits).enumerate() {
            assert!(line.end(game).is_none(), "a move after the end");
            game.moves(line.state(), &mut moves);
            assert!(moves.contains(mv));
            if i < opening {
                line.play(game, *mv);
                continue;
            }
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
    check(&TicTacToe, &Board::EMPTY, &one, 0);
    assert_eq!(
        play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 12, seed: 3, threads: 1 }, &|| ()),
        one
    );
    let two = play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 12, seed: 3, threads: 2 }, &|| ());
    check(&TicTacToe, &Board::EMPTY, &two, 0);
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
    check(&game, &Default::default(), &records, 0);
}

/// Random openings: each game's first moves, up to the most asked for, unsearched; games of different lengths
/// of opening, the same ones from the same seed.
#[test]
fn random_openings_vary_and_repeat() {
    let settings = Settings { simulations: 20, in_flight: 4, random_plies: 4, ..Settings::default() };
    let schedule = Schedule { games: 24, seed: 7, threads: 1 };
    let records = play(&TicTacToe, &Board::EMPTY, &Blank, &settings, schedule, &|| ());
    check(&TicTacToe, &Board::EMPTY, &records, 4);
    let openings: std::collections::HashSet<usize> =
        records.iter().map(|r| r.visits.iter().take_while(|v| v.is_empty()).count()).collect();
    assert_eq!(openings, (0..=4).collect(), "every length from 0 to 4 in 24 games");
    assert_eq!(play(&TicTacToe, &Board::EMPTY, &Blank, &settings, schedule, &|| ()), records);
}

/// MIN's own simulations: with 2 for MAX and 50 for MIN, X's first move (a new tree: one simulation opens the
/// root, the other visits one move) has one move visited, and O's reply, whose tree X's search left unopened, every
/// one of its 8 moves; the settings' Debug string without the field is the one from before it existed (a training
/// run's record of its options).
#[test]
fn min_searches_with_its_own_simulations() {
    let settings = Settings { simulations: 2, simulations_for_min: Some(50), in_flight: 3, ..Settings::default() };
    let records =
        play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 6, seed: 5, threads: 1 }, &|| ());
    check(&TicTacToe, &Board::EMPTY, &records, 0);
    let visited = |visits: &[(usize, f32)]| visits.iter().filter(|&&(_, share)| share > 0.0).count();
    for record in &records {
        assert_eq!(visited(&record.visits[0]), 1, "X searched with 2 simulations");
        assert_eq!(visited(&record.visits[1]), 8, "O searched with 50 simulations");
    }
    // The same budget for both sides, given twice or once, gives the same games.
    let same = Settings { simulations: 20, simulations_for_min: Some(20), ..settings };
    let schedule = Schedule { games: 6, seed: 5, threads: 1 };
    assert_eq!(
        play(&TicTacToe, &Board::EMPTY, &Blank, &same, schedule, &|| ()),
        play(&TicTacToe, &Board::EMPTY, &Blank, &Settings { simulations_for_min: None, ..same }, schedule, &|| ())
    );
    assert_eq!(
        format!("{:?}", Settings::default()),
        "Settings { simulations: 200, c_puct: 1.5, noise: DirichletNoise { alpha: 0.5, epsilon: 0.25 }, \
         temperature_moves: 10, in_flight: 32, random_plies: 0 }"
    );
    assert_eq!(
        format!("{settings:?}"),
        "Settings { simulations: 2, simulations_for_min: 50, c_puct: 1.5, noise: DirichletNoise { alpha: 0.5, \
         epsilon: 0.25 }, temperature_moves: 10, in_flight: 3, random_plies: 0 }"
    );
}
