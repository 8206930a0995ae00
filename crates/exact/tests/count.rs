//! Tree counts against published figures, and the same counts for any number of threads.

use khela_exact::count::{distinct_positions, perft, quiet};
use khela_exact::tally;
use khela_games::connect4::{Connect4, Position};
use khela_games::tictactoe::{Board, TicTacToe};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(work)
}

#[test]
fn connect4_sequences_per_ply() {
    // Perft from the empty 7×6 board, positions already won not extended (the published figures).
    let expected = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    for threads in [1, 2, 3] {
        let counts = on_threads(threads, || perft(&Connect4::standard(), &Position::EMPTY, 8, &quiet));
        assert_eq!(counts, expected, "{threads} threads");
    }
}

#[test]
fn connect4_distinct_positions_per_ply() {
    // OEIS A212693: legal 7×6 Connect-Four positions after n plies.
    let expected = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186];
    for threads in [1, 2] {
        let counts = on_threads(threads, || distinct_positions(&Connect4::standard(), &Position::EMPTY, 9, &quiet));
        assert_eq!(counts, expected, "{threads} threads");
    }
}

#[test]
fn counts_from_a_position_and_at_depth_zero() {
    let game = Connect4::standard();
    assert_eq!(perft(&game, &Position::EMPTY, 0, &quiet), [1]);
    assert_eq!(distinct_positions(&game, &Position::EMPTY, 0, &quiet), [1]);
    // Column 1 holds six stones: six columns remain open.
    let p = game.parse("111111").unwrap();
    assert_eq!(perft(&game, &p, 2, &quiet), [1, 6, 36]);
    // A won position is not extended.
    let won = game.parse("1212121").unwrap();
    assert_eq!(perft(&game, &won, 3, &quiet), [1, 0, 0, 0]);
    assert_eq!(distinct_positions(&game, &won, 3, &quiet), [1, 0, 0, 0]);
}

#[test]
fn tictactoe_sequences_and_positions_per_ply() {
    // Sequences per ply sum to the 549,946 nodes of the full tree; the last ply is the 127,872 nine-move games.
    let sequences = perft(&TicTacToe, &Board::EMPTY, 9, &quiet);
    assert_eq!(sequences, [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
    assert_eq!(sequences.iter().sum::<u64>(), 549_946);
    // Distinct positions per ply sum to the 5,478 reachable states.
    let positions = distinct_positions(&TicTacToe, &Board::EMPTY, 9, &quiet);
    assert_eq!(positions, [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]);
    assert_eq!(positions.iter().sum::<u64>(), 5_478);
}

#[test]
fn tictactoe_tally_is_the_same_on_any_number_of_threads() {
    let one = on_threads(1, || tally(&TicTacToe, &Board::EMPTY));
    for threads in [2, 4] {
        assert_eq!(on_threads(threads, || tally(&TicTacToe, &Board::EMPTY)), one);
    }
    assert_eq!((one.games, one.nodes, one.states), (255_168, 549_946, 5_478));
    let over = TicTacToe::parse("XXXOO....").unwrap();
    let t = tally(&TicTacToe, &over);
    assert_eq!((t.games, t.max_wins, t.nodes, t.states), (1, 1, 1, 1));
}

#[test]
fn einstein_counts_turns_roll_and_move_together() {
    use khela_games::einstein::{Einstein, Setup};
    use khela_games::{Game, Node};
    let setup = Setup::parse("123456/123456").unwrap();
    let (game, start) = (Einstein::new(setup), setup.state());
    // Ply 1: over the six rolls, the moves each allows (a cube in the corner has 3, on an edge 2... all 3 here).
    let reference: Vec<u64> = (0..=4).map(|d| khela_games::conformance::perft(&game, &start, d)).collect();
    assert_eq!(reference[1], 6 * 3);
    // Distinct positions after each turn, by a plain breadth-first walk through the rolls.
    let mut level = std::collections::HashMap::from([(game.key(&start), start)]);
    let mut positions = vec![1u64];
    for _ in 0..4 {
        let mut next = std::collections::HashMap::new();
        for s in level.values() {
            let mut outcomes = Vec::new();
            game.outcomes(s, &mut outcomes);
            for (roll, _) in outcomes {
                let rolled = game.child(s, roll);
                assert!(matches!(game.node(&rolled), Node::Decision(_)));
                let mut moves = Vec::new();
                game.moves(&rolled, &mut moves);
                for mv in moves {
                    let child = game.child(&rolled, mv);
                    next.insert(game.key(&child), child);
                }
            }
        }
        positions.push(next.len() as u64);
        level = next;
    }
    for threads in [1, 2] {
        assert_eq!(on_threads(threads, || perft(&game, &start, 4, &quiet)), reference, "{threads} threads");
        assert_eq!(
            on_threads(threads, || distinct_positions(&game, &start, 4, &quiet)),
            positions,
            "{threads} threads"
        );
    }
}

#[test]
fn shards_of_a_count_add_up_to_the_whole() {
    use khela_exact::count::{Shard, perft_shard};
    use khela_games::einstein::{Einstein, Setup};
    let connect4 = Connect4::standard();
    let setup = Setup::random(3);
    let einstein = Einstein::new(setup);
    for n in [1, 2, 5, 64] {
        for depth in [0, 1, 2, 7] {
            let whole = perft(&connect4, &Position::EMPTY, depth, &quiet);
            let parts: Vec<Vec<u64>> =
                (0..n).map(|k| perft_shard(&connect4, &Position::EMPTY, depth, Shard { k, n }, &quiet)).collect();
            let sum: Vec<u64> = (0..=depth as usize).map(|ply| parts.iter().map(|p| p[ply]).sum()).collect();
            assert_eq!(sum, whole, "Connect-4, {n} shards, depth {depth}");
        }
        let whole = perft(&einstein, &setup.state(), 4, &quiet);
        let sum = (0..n)
            .map(|k| perft_shard(&einstein, &setup.state(), 4, Shard { k, n }, &quiet))
            .fold(vec![0; 5], |a, b| a.iter().zip(b).map(|(x, y)| x + y).collect());
        assert_eq!(sum, whole, "EinStein, {n} shards");
    }
}

/// A progress that breaks stops the count (Ctrl-C in a front end): perft skips the subtrees not yet begun, the
/// count of distinct positions stops after the ply it reported.
#[test]
fn a_count_stops_when_its_progress_breaks() {
    let game = Connect4::standard();
    let calls = AtomicU64::new(0);
    let stop = |_: u64, _: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        ControlFlow::Break(())
    };
    let whole = perft(&game, &Position::EMPTY, 8, &quiet);
    let partial = perft(&game, &Position::EMPTY, 8, &stop);
    let reported = calls.swap(0, Ordering::Relaxed);
    assert!(reported <= rayon::current_num_threads() as u64, "{reported} subtrees finished after the stop");
    assert!(partial[8] < whole[8] / 10, "{} of {} sequences counted", partial[8], whole[8]);
    assert_eq!(distinct_positions(&game, &Position::EMPTY, 6, &stop), [1, 7]);
    assert_eq!(calls.load(Ordering::Relaxed), 1);
}
