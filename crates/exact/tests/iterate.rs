//! Value iteration checked: Pig's published figures, and on small goals an independent solve — the policy that
//! value iteration's values choose, evaluated exactly by Gaussian elimination over every position reached from
//! the start (listed by playing the game, not by the space's numbering), must give the same values, and no
//! single move changed anywhere may do better (Bellman's optimality, checked one move at a time).

use khela_exact::iterate::{self, DecisionRule, Values, best_move, win_probability};
use khela_games::pig::{HOLD, Pig, PigSpace, ROLL, State};
use khela_games::{Game, Node, Player, Space};
use std::collections::HashMap;

/// Every position reached from the start, by playing every move and outcome.
fn reachable(game: &Pig) -> Vec<State> {
    let start = game.parse("0 0 0 first").unwrap();
    let (mut seen, mut todo) = (vec![start], vec![start]);
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let mut known: std::collections::HashSet<State> = seen.iter().copied().collect();
    while let Some(s) = todo.pop() {
        game.moves(&s, &mut moves);
        game.outcomes(&s, &mut outcomes);
        for mv in moves.iter().copied().chain(outcomes.iter().map(|o| o.0)) {
            let child = game.child(&s, mv);
            if !matches!(game.node(&child), Node::Terminal(_)) && known.insert(child) {
                seen.push(child);
                todo.push(child);
            }
        }
    }
    seen
}

/// The first player's value (+1 a sure win) of every position when both sides play `policy`, by solving the
/// linear equations v = P v + r with Gaussian elimination (partial pivoting).
fn evaluate(game: &Pig, positions: &[State], policy: &dyn Fn(&State) -> u8) -> HashMap<State, f64> {
    let n = positions.len();
    let at: HashMap<State, usize> = positions.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let mut a = vec![vec![0.0; n + 1]; n];
    let mut outcomes = Vec::new();
    for (i, s) in positions.iter().enumerate() {
        a[i][i] = 1.0;
        let mut successors = Vec::new();
        match game.node(s) {
            Node::Chance => {
                game.outcomes(s, &mut outcomes);
                successors.extend(outcomes.iter().map(|&(mv, p)| (game.child(s, mv), p)));
            }
            _ => successors.push((game.child(s, policy(s)), 1.0)),
        }
        for (child, p) in successors {
            match game.node(&child) {
                Node::Terminal(payoff) => a[i][n] += p * payoff,
                _ => a[i][at[&child]] -= p,
            }
        }
    }
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap();
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (row, entries) in a.iter_mut().enumerate() {
            if row != col && entries[col] != 0.0 {
                let f = entries[col] / pivot_row[col];
                for (x, p) in entries[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    positions.iter().enumerate().map(|(i, s)| (*s, a[i][n] / a[i][i])).collect()
}

/// The first player's value of a position from `values` (which are from the side to move's view).
fn first_view(space: &PigSpace, values: &Values, s: &State) -> f64 {
    s.mover().view(values.of(space, s).unwrap())
}

#[test]
fn value_iteration_agrees_with_an_exact_linear_solve_on_small_games() {
    for game in [Pig::with_die(10).unwrap(), Pig::piglet(6).unwrap(), Pig::with_die(7).unwrap()] {
        let space = PigSpace::new(game);
        let values = iterate::iterate(&space, &DecisionRule::Best, 1e-13, 1_000_000, |_| {});
        let positions = reachable(&game);
        let chosen = |s: &State| best_move(&space, &values, s).unwrap();
        let exact = evaluate(&game, &positions, &chosen);
        for s in &positions {
            assert!((exact[s] - first_view(&space, &values, s)).abs() < 1e-9, "{}", game.write(s));
        }
        // Optimality: at every decision, the other move is no better than the chosen one, given exact values.
        let value_after = |s: &State, mv: u8| -> f64 {
            let child = game.child(s, mv);
            match game.node(&child) {
                Node::Terminal(payoff) => payoff,
                _ => exact[&child],
            }
        };
        for s in positions.iter().filter(|s| matches!(game.node(s), Node::Decision(_))) {
            let [roll, hold] = [ROLL, HOLD].map(|mv| s.mover().view(value_after(s, mv)));
            assert!(s.mover().view(exact[s]) >= roll.max(hold) - 1e-9, "{}", game.write(s));
        }
        // A fixed policy, evaluated both ways.
        let hold_at_4 = |s: &State| if s.turn < 4 { ROLL } else { HOLD };
        let by_sweeps = iterate::iterate(&space, &DecisionRule::Policy(&hold_at_4), 1e-13, 1_000_000, |_| {});
        let by_solve = evaluate(&game, &positions, &hold_at_4);
        for s in &positions {
            assert!((by_solve[s] - first_view(&space, &by_sweeps, s)).abs() < 1e-9, "{}", game.write(s));
        }
    }
}

#[test]
fn the_values_are_the_same_for_one_and_two_threads() {
    let space = PigSpace::new(Pig::with_die(30).unwrap());
    let solve = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| iterate::iterate(&space, &DecisionRule::Best, 1e-12, 100_000, |_| {}))
    };
    assert_eq!(solve(1), solve(2));
}

#[test]
fn pig_to_100_the_published_figures() {
    let game = Pig::with_die(100).unwrap();
    let space = PigSpace::new(game);
    let start = game.parse("0 0 0 first").unwrap();
    let optimal = iterate::iterate(&space, &DecisionRule::Best, 1e-12, 100_000, |_| {});
    assert!(optimal.residual <= 1e-12, "{}", optimal.residual);
    // Neller and Presser: the first player's optimal chance of winning is 0.530592725 (about 0.5306).
    let p = win_probability(optimal.of(&space, &start).unwrap());
    assert!((p - 0.530_592_725).abs() < 1e-9, "{p:.12}");
    // "Hold at 20 or the goal" against itself: about 0.5347 for the first player (Neller).
    let hold_at_20 = |s: &State| if s.turn < 20 { ROLL } else { HOLD };
    let policy = iterate::iterate(&space, &DecisionRule::Policy(&hold_at_20), 1e-12, 100_000, |_| {});
    let p = win_probability(policy.of(&space, &start).unwrap());
    assert!((p - 0.5347).abs() < 5e-5, "{p:.12}");
    // With optimal play the first move is to roll (to hold is to pass).
    assert_eq!(best_move(&space, &optimal, &start), Some(ROLL));
    assert_eq!(space.to_move(&start), Player::Max);
}
