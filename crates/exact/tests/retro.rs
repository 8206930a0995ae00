//! Retrograde analysis checked against truths found another way: minimax and a recursive distance count on
//! tic-tac-toe (all 5,478 positions, numbered plainly and up to symmetry), and, on small games of the Bagh-Chal
//! family, a naive solver over every position one by one (no numbering, no unmoves, no symmetry: it sweeps
//! all positions level after level, valuing each from its successors). The table must not depend on the
//! number of threads.

use khela_exact::retro::{self, Outcome, Table};
use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::bagh_chal::sliding::SlidingPhase;
use khela_games::bagh_chal::{BaghChal, Position, Setup};
use khela_games::tictactoe::space::TicTacToeSpace;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Space};
use std::collections::HashMap;

/// The outcome of a tic-tac-toe position by plain recursion: a win in the fewest plies, a loss in the most.
fn tictactoe_outcome(board: &Board, memo: &mut HashMap<Board, Outcome>) -> Outcome {
    if let Some(&known) = memo.get(board) {
        return known;
    }
    let outcome = match TicTacToe.node(board) {
        Node::Terminal(0.0) => Outcome::Draw,
        Node::Terminal(_) => Outcome::Loss(0), // the side to move never has the line
        _ => {
            let mut moves = Vec::new();
            TicTacToe.moves(board, &mut moves);
            let after: Vec<Outcome> =
                moves.iter().map(|&m| tictactoe_outcome(&TicTacToe.child(board, m), memo).before()).collect();
            best(&after)
        }
    };
    memo.insert(*board, outcome);
    outcome
}

/// The best of the outcomes a side's moves give it: the fastest win, else a draw, else the slowest loss.
fn best(outcomes: &[Outcome]) -> Outcome {
    let fastest_win = outcomes.iter().filter_map(|o| if let Outcome::Win(d) = o { Some(*d) } else { None }).min();
    let slowest_loss = outcomes.iter().filter_map(|o| if let Outcome::Loss(d) = o { Some(*d) } else { None }).max();
    match (fastest_win, outcomes.contains(&Outcome::Draw)) {
        (Some(d), _) => Outcome::Win(d),
        (None, true) => Outcome::Draw,
        (None, false) => Outcome::Loss(slowest_loss.expect("a decision has moves")),
    }
}

#[test]
fn tictactoe_tables_agree_with_minimax_and_recursion_on_all_5478_positions() {
    let mut memo = HashMap::new();
    for space in [TicTacToeSpace::plain(), TicTacToeSpace::symmetric()] {
        let table = retro::solve(&space, |_| {}).unwrap();
        let mut checked = 0;
        for i in 0..3u64.pow(9) {
            let Some(board) = TicTacToeSpace::plain().position(i) else { continue };
            let outcome = table.outcome(&space, &board).expect("every legal board is numbered");
            assert_eq!(outcome, tictactoe_outcome(&board, &mut memo), "{board}");
            let value = board.to_move().view(Searcher::new(&TicTacToe, Natural).run(Algorithm::Minimax, &board).value);
            let sign = match outcome {
                Outcome::Win(_) => 1.0,
                Outcome::Loss(_) => -1.0,
                Outcome::Draw => 0.0,
            };
            assert_eq!(value, sign, "{board}");
            checked += 1;
        }
        assert_eq!(checked, 5_478);
    }
    // The start is a draw; the longest game with a forced end (a loss for the side to move) is 6 plies away.
    assert_eq!(memo[&Board::EMPTY], Outcome::Draw);
}

/// A small game of the family: the grid, tigers, goats, captures to win.
fn variant(size: u8, tigers: &[&str], goats: u8, captures_to_win: u8) -> BaghChal {
    let tigers = tigers.iter().map(|t| t.to_string()).collect();
    BaghChal::new(&Setup { size, tigers, goats, stacks: Vec::new(), goats_first: true, captures_to_win }).unwrap()
}

/// Every sliding-phase position of a game from `captured` goats captured on, listed one by one.
fn every_position(game: &BaghChal, captured: u8) -> Vec<Position> {
    let (all, tigers) = (game.board().all(), game.start_position().tigers.count_ones());
    let subsets = |within: u64, k: u32| -> Vec<u64> {
        let mut found = Vec::new();
        let mut set: u64 = 0;
        loop {
            if set & !within == 0 && set.count_ones() == k {
                found.push(set);
            }
            if set == within {
                return found;
            }
            set = (set | !within).wrapping_add(1) & within; // the next subset of `within`
        }
    };
    let mut found = Vec::new();
    for c in captured..game.captures_to_win() {
        for t in subsets(all, tigers) {
            for g in subsets(all & !t, u32::from(game.goats() - c)) {
                for goats_to_move in [false, true] {
                    found.push(Position { tigers: t, goats: g, captured: c, goats_to_move, ..Position::default() });
                }
            }
        }
    }
    found
}

/// The naive solver: sweeps every position, level by level, until a sweep decides nothing.
fn naive(game: &BaghChal, positions: &[Position]) -> HashMap<Position, Outcome> {
    let mover = |s: &Position| if s.goats_to_move { khela_games::Player::Max } else { khela_games::Player::Min };
    let mut known: HashMap<Position, Outcome> = HashMap::new();
    for s in positions {
        if let Node::Terminal(payoff) = game.node(s) {
            known.insert(*s, if mover(s).view(payoff) > 0.0 { Outcome::Win(0) } else { Outcome::Loss(0) });
        }
    }
    let mut moves = Vec::new();
    for plies in 1.. {
        let mut decided = Vec::new();
        for s in positions.iter().filter(|s| !known.contains_key(*s)) {
            game.moves(s, &mut moves);
            let after: Vec<Option<Outcome>> = moves
                .iter()
                .map(|&m| {
                    let child = game.child(s, m);
                    match game.node(&child) {
                        Node::Terminal(payoff) => {
                            Some(if mover(&child).view(payoff) > 0.0 { Outcome::Win(0) } else { Outcome::Loss(0) })
                        }
                        _ => known.get(&child).copied(),
                    }
                })
                .collect();
            if after.iter().any(|o| matches!(o, Some(Outcome::Loss(_)))) {
                decided.push((*s, Outcome::Win(plies)));
            } else if after.iter().all(|o| matches!(o, Some(Outcome::Win(_)))) {
                decided.push((*s, Outcome::Loss(plies)));
            }
        }
        if decided.is_empty() {
            return known;
        }
        known.extend(decided);
    }
    unreachable!()
}

#[test]
fn small_bagh_chal_tables_agree_with_a_naive_solver() {
    let games = [
        variant(3, &["b2"], 4, 2),
        variant(3, &["a1", "c3"], 4, 2),
        variant(3, &["b2"], 6, 3),
        variant(5, &["a1"], 3, 2),
        variant(5, &["a1", "e5"], 21, 1),
    ];
    for game in games {
        for captured in 0..game.captures_to_win() {
            let space = SlidingPhase::new(&game, captured).unwrap();
            let table = retro::solve(&space, |_| {}).unwrap();
            let positions = every_position(&game, captured);
            let truth = naive(&game, &positions);
            let mut tally = HashMap::new();
            for s in &positions {
                let expected = truth.get(s).copied().unwrap_or(Outcome::Draw);
                assert_eq!(table.outcome(&space, s), Some(expected), "{}", game.write(s));
                *tally.entry(std::mem::discriminant(&expected)).or_insert(0u64) += 1;
            }
            // The classes' sizes add up to the positions listed one by one.
            let numbered: u64 =
                (0..space.len()).filter_map(|i| space.position(i)).map(|s| space.multiplicity(&s)).sum();
            assert_eq!(numbered, positions.len() as u64);
            assert!(tally.len() >= 2, "a variant whose positions all have one kind of outcome checks little");
        }
    }
}

#[test]
fn the_table_is_the_same_for_one_and_two_threads() {
    let game = variant(5, &["a1", "e5", "a5"], 20, 2);
    let space = SlidingPhase::new(&game, 0).unwrap();
    let solve = |threads: usize| -> (Table, Vec<retro::Level>) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut levels = Vec::new();
        let table = pool.install(|| retro::solve(&space, |level| levels.push(*level))).unwrap();
        (table, levels)
    };
    let (one, two) = (solve(1), solve(2));
    assert_eq!(one, two);
    assert!(one.1.len() > 5 && one.0.longest() > 5, "a table with long wins: {:?}", one.1);
    // Each level's wins are the positions whose code says so.
    for level in &one.1 {
        let wins = one.0.codes().iter().filter(|&&c| Outcome::from_code(c) == Some(Outcome::Win(level.plies))).count();
        assert_eq!(wins as u64, level.wins, "plies {}", level.plies);
    }
}
