//! Training: records read back as written, samples' targets, and a seeded run that repeats.

use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Player};
use khela_mcts::DirichletNoise;
use khela_zero::Blank;
use khela_zero::selfplay::{Record, Schedule, Settings, play};
use khela_zero::train::{Outcomes, TrainConfig, Training, samples};

fn settings() -> Settings {
    Settings {
        simulations: 16,
        in_flight: 4,
        noise: DirichletNoise { alpha: 0.5, epsilon: 0.25 },
        ..Settings::default()
    }
}

#[test]
fn records_read_back_and_give_their_targets() {
    let settings = Settings { random_plies: 3, ..settings() };
    let records =
        play(&TicTacToe, &Board::EMPTY, &Blank, &settings, Schedule { games: 10, seed: 9, threads: 1 }, &|| ());
    assert!(records.iter().any(|r| r.visits[0].is_empty()), "some game opens at random");
    for record in &records {
        let line = record.to_line(&TicTacToe);
        assert_eq!(&Record::from_line(&TicTacToe, &Board::EMPTY, &line).unwrap(), record, "{line}");
        let positions = samples(&TicTacToe, &Board::EMPTY, record);
        // The random opening's positions are no samples.
        let opening = record.visits.iter().take_while(|v| v.is_empty()).count();
        assert_eq!(positions.len(), record.moves.len() - opening);
        let mut state = Board::EMPTY;
        for &mv in &record.moves[..opening] {
            TicTacToe.play(&mut state, mv);
        }
        for (index, (sample, &mv)) in positions.iter().zip(&record.moves[opening..]).enumerate() {
            assert_eq!(sample.state, state);
            // The outcome from the side to move's view: X's sign of the payoff, O's its opposite.
            let x = record.payoff.signum() as f32 * f32::from(u8::from(record.payoff != 0.0));
            assert_eq!(sample.outcome, if state.to_move() == Player::Max { x } else { -x });
            // The search's value, and the target mixing the two.
            assert!((-1.0..=1.0).contains(&sample.searched), "{line}");
            assert_eq!(sample.value_target(0.0, 1.0), sample.outcome);
            assert_eq!(sample.value_target(1.0, 1.0), sample.searched);
            assert_eq!(sample.value_target(0.25, 1.0), 0.75 * sample.outcome + 0.25 * sample.searched);
            // Discounted by the plies to the end: the last position's move ended the game.
            let to_end = record.moves.len() - opening - index;
            assert_eq!(sample.to_end as usize, to_end);
            let discounted = 0.9f32.powi(to_end as i32) * sample.outcome;
            assert!((sample.value_target(0.0, 0.9) - discounted).abs() < 1e-6, "{line}");
            TicTacToe.play(&mut state, mv);
        }
        assert_eq!(positions.iter().map(|p| p.searched).collect::<Vec<_>>(), record.values[opening..]);
    }
    let bad = |line: &str| Record::<TicTacToe>::from_line(&TicTacToe, &Board::EMPTY, line).unwrap_err().to_string();
    assert_eq!(bad("1\t0 0\t0:1;1:1\t0 0"), "a game record: illegal action 0");
    assert_eq!(
        bad("1\t0 3 1 4 2 5\t0:1;3:1;1:1;4:1;2:1;5:1\t0 0 0 0 0 0"),
        "a game record: a move after the game's end"
    );
    assert_eq!(bad("1\t0 3\t0:1\t0 0"), "a game record: 2 moves, 1 visit lists, 2 values");
    assert_eq!(bad("1\t0 3\t0:1;3:1\t0.5"), "a game record: 2 moves, 2 visit lists, 1 values");
    assert_eq!(bad("1\t0 3\t0:1;3:1\t0 1.5"), "a game record: value \"1.5\"");
    assert_eq!(bad("x\t\t\t"), "a game record: payoff \"x\"");
    assert_eq!(bad("1\t0\t0:1"), "a game record: 4 fields, not 3");
}

#[test]
fn a_seeded_run_repeats_and_keeps_its_window() {
    let config = TrainConfig {
        blocks: 1,
        channels: 4,
        selfplay: settings(),
        games: 6,
        window: 40,
        batch: 16,
        reuse: 2.0,
        learning_rate: 0.01,
        l2: 1e-4,
        value_from_search: 0.5,
        discount: 1.0,
        seed: 3,
        threads: 1,
    };
    // The options' string leaves the discount out when there is none, as before the field existed.
    assert!(!format!("{config:?}").contains("discount"));
    assert!(format!("{:?}", TrainConfig { discount: 0.98, ..config }).contains(", discount: 0.98, seed: 3,"));
    let run = || {
        let mut training = Training::new(&TicTacToe, Board::EMPTY, config).unwrap();
        let first = training.iterate(&|| ()).unwrap();
        let second = training.iterate(&|| ()).unwrap();
        assert_eq!((first.iteration, second.iteration, second.games), (1, 2, 12));
        for it in [first, second] {
            let Outcomes { max_wins, draws, min_wins } = it.outcomes;
            assert_eq!(max_wins + draws + min_wins, 6, "{it:?}");
        }
        assert!(second.window <= 40 + 9 && second.window < second.positions as usize, "{second:?}");
        assert_eq!(training.records().map(|r| r.moves.len()).sum::<usize>(), second.window);
        assert_eq!(second.steps, ((second.positions - first.positions) as f64 * 2.0 / 16.0).ceil() as usize);
        (
            training.net().to_safetensors().unwrap(),
            training.records().map(|r| r.to_line(&TicTacToe)).collect::<Vec<_>>(),
        )
    };
    assert_eq!(run(), run());
}
