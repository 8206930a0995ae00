//! Retrograde analysis checked against truths found another way: minimax and a recursive distance count on
//! tic-tac-toe (all 5,478 positions, numbered plainly and up to symmetry), and, on small games of the Bagh-Chal
//! family, a naive solver over every position one by one (no numbering, no unmoves, no symmetry: it sweeps
//! all positions level after level, valuing each from its successors). The table must not depend on the
//! number of threads.

use khela_exact::retro::{self, Outcome, OutcomeTable};
use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::alquerque::points;
use khela_games::bagh_chal::sliding::SlidingPhase;
use khela_games::bagh_chal::{BaghChal, Position, Setup};
use khela_games::sixteen_soldiers::endgame::FewPieces;
use khela_games::sixteen_soldiers::{Capture, Position as SoldiersPosition, SixteenSoldiers};
use khela_games::tictactoe::space::TicTacToeSpace;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Player, Space};
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
fn naive<G: Game<State: Copy + Eq + std::hash::Hash>>(
    game: &G,
    positions: &[G::State],
    mover: impl Fn(&G::State) -> Player,
) -> HashMap<G::State, Outcome> {
    let mut known: HashMap<G::State, Outcome> = HashMap::new();
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

/// Checks a table of `space` against the naive solver on `positions` (every position of the space, listed one
/// by one): every outcome equal, the classes' sizes adding up to the positions, and more than one kind of
/// outcome among them.
fn agrees_with_the_naive_solver<S: Space<Game: Game<State: Copy + Eq + std::hash::Hash>> + khela_games::Unmoves>(
    space: &S,
    positions: &[<S::Game as Game>::State],
    write: impl Fn(&<S::Game as Game>::State) -> String,
) {
    let table = retro::solve(space, |_| {}).unwrap();
    let truth = naive(space.game(), positions, |s| space.to_move(s));
    let mut tally = HashMap::new();
    for s in positions {
        let expected = truth.get(s).copied().unwrap_or(Outcome::Draw);
        assert_eq!(table.outcome(space, s), Some(expected), "{}", write(s));
        *tally.entry(std::mem::discriminant(&expected)).or_insert(0u64) += 1;
    }
    let numbered: u64 = (0..space.len()).filter_map(|i| space.position(i)).map(|s| space.multiplicity(&s)).sum();
    assert_eq!(numbered, positions.len() as u64);
    assert!(tally.len() >= 2, "a space whose positions all have one kind of outcome checks little");
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
            agrees_with_the_naive_solver(&space, &every_position(&game, captured), |s| game.write(s));
        }
    }
}

/// Sixteen Soldiers with up to 3 pieces, under each capture rule: the space numbers positions from the side to
/// move's view, up to the board's four symmetries; the naive solver lists them all, each colour to move.
#[test]
fn small_sixteen_soldiers_tables_agree_with_a_naive_solver() {
    for capture in [Capture::Compulsory, Capture::Optional, Capture::Continue] {
        let game = SixteenSoldiers::new(capture);
        // The sets of one or two of the points `within`.
        let sets = |within: u64, most: u32| -> Vec<u64> {
            let singles = points(within).map(|p| 1u64 << p);
            let pairs =
                points(within).flat_map(move |p| points(within & !((2u64 << p) - 1)).map(move |q| 1 << p | 1 << q));
            singles.chain(pairs.filter(|_| most == 2)).collect()
        };
        let all = game.board().all();
        let mut positions = Vec::new();
        for x in sets(all, 2) {
            for o in sets(all & !x, 3 - x.count_ones()) {
                for x_to_move in [false, true] {
                    positions.push(SoldiersPosition { x, o, x_to_move, quiet: 0 });
                }
            }
        }
        let space = FewPieces::new(&game, 3).unwrap();
        agrees_with_the_naive_solver(&space, &positions, |s| game.write(s));
    }
}

#[test]
fn the_table_is_the_same_for_one_and_two_threads() {
    let game = variant(5, &["a1", "e5", "a5"], 20, 2);
    let space = SlidingPhase::new(&game, 0).unwrap();
    let solve = |threads: usize| -> (OutcomeTable, Vec<retro::Level>) {
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
