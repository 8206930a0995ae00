//! Search under chance on EinStein würfelt nicht!:
//!
//! - at depths 1–3, every algorithm of the exact crate (alpha-beta, negamax, NegaScout, Star1, Star2, MTD(f) is
//!   left out: it converges on a value by null windows) and every ordering returns a value bit-identical to
//!   expectiminimax's (up to the sign of a zero, which negamax flips), on positions from many random games; and so does a direct depth-limited expectiminimax
//!   written here without the library, and the engine (iterative deepening with Star2 and a table);
//! - small endgames (one cube a side, two a side) solved exactly by the library's memoized expectiminimax agree
//!   with an independent solver written here on a plain board, and searches deep enough to meet no horizon
//!   (Star2, the engine) give the same values.

use khela_exact::{Algorithm, Memo, MoveOrdering, Natural, OrderingKind, OrderingParts, SearchConfig, Searcher};
use khela_games::conformance::random_lines;
use khela_games::einstein::{Einstein, GONE, Setup, State};
use khela_games::{Evaluator, Game, Node, Value};
use khela_heuristic::einstein::{Race, WIN};
use khela_heuristic::{Engine, Heuristic, SORTED_PLIES, child_estimate};
use std::collections::HashMap;

fn game() -> Einstein {
    Einstein::new(Setup::random(0))
}

/// Decision positions from random games of several setups.
fn positions(count: usize) -> Vec<State> {
    let game = game();
    (0..8u64)
        .flat_map(|seed| random_lines(&game, &Setup::random(seed).state(), count / 8, 0..24, seed))
        .map(|(_, s)| s)
        .collect()
}

/// Depth-limited expectiminimax written from its definition: the evaluator at the horizon (decision plies),
/// terminal payoffs on its scale, chance nodes the probability-weighted sum in the game's order.
fn expectiminimax(game: &Einstein, s: &State, depth: u32) -> Value {
    match game.node(s) {
        Node::Terminal(payoff) => Race.terminal(payoff),
        _ if depth == 0 => Race.evaluate(game, s),
        Node::Chance => {
            let mut outcomes = Vec::new();
            game.outcomes(s, &mut outcomes);
            let mut mean = 0.0;
            for (o, p) in outcomes {
                mean += p * expectiminimax(game, &game.child(s, o), depth);
            }
            mean
        }
        Node::Decision(player) => {
            let mut moves = Vec::new();
            game.moves(s, &mut moves);
            let values = moves.iter().map(|&m| expectiminimax(game, &game.child(s, m), depth - 1));
            match player {
                khela_games::Player::Max => values.fold(Value::NEG_INFINITY, Value::max),
                khela_games::Player::Min => values.fold(Value::INFINITY, Value::min),
            }
        }
    }
}

#[test]
fn star_pruning_keeps_expectiminimax_values_to_the_bit() {
    let game = game();
    let heuristic = Heuristic::new(&game, &Race);
    let orderings = [
        OrderingKind::Natural,
        OrderingKind::Reversed,
        OrderingKind::Random,
        OrderingKind::Static,
        OrderingKind::Shallow,
        OrderingKind::History,
    ];
    let algorithms = [
        Algorithm::AlphaBeta,
        Algorithm::Negamax,
        Algorithm::NegamaxAlphaBeta,
        Algorithm::NegaScout,
        Algorithm::Star1,
        Algorithm::Star2,
    ];
    let mut pruned = 0;
    for (i, s) in positions(160).iter().enumerate() {
        for depth in 1..=3 {
            let direct = expectiminimax(&game, s, depth);
            let reference = SearchConfig { algorithm: Algorithm::Minimax, depth, ..SearchConfig::default() }
                .searcher(&heuristic, Natural, heuristic.horizon())
                .run_to_depth(Algorithm::Minimax, s, depth);
            assert_eq!(reference.value.to_bits(), direct.to_bits(), "{} depth {depth}", Einstein::write(s));
            for kind in orderings {
                let parts = OrderingParts {
                    seed: i as u64,
                    estimate: Some(child_estimate::<Einstein, Race>),
                    plies: SORTED_PLIES,
                    ..OrderingParts::default()
                };
                for algorithm in algorithms {
                    let config =
                        SearchConfig { algorithm, depth, bounds: Race.value_range(), ..SearchConfig::default() };
                    let ordering = MoveOrdering::named(kind, &parts).unwrap();
                    let result =
                        config.searcher(&heuristic, ordering, heuristic.horizon()).run_to_depth(algorithm, s, depth);
                    assert_eq!(
                        (result.value + 0.0).to_bits(),
                        (direct + 0.0).to_bits(),
                        "{algorithm} {kind} depth {depth}: {} vs {direct} at {}",
                        result.value,
                        Einstein::write(s)
                    );
                    pruned += u64::from(result.stats.nodes < reference.stats.nodes);
                }
            }
            // The engine: iterative deepening, Star2 at chance nodes (the evaluator's bounds), a table.
            let engine = Engine::new(&game, &Race, SearchConfig::depth_limited(depth)).search(s);
            assert_eq!(
                (engine.value + 0.0).to_bits(),
                (direct + 0.0).to_bits(),
                "engine depth {depth} at {}",
                Einstein::write(s)
            );
        }
    }
    assert!(pruned > 1000, "star pruning pruned only {pruned} searches");
}

/// An independent exact solver: the first player's winning chance, from a board of 25 squares (0 empty, 1–6 the
/// first player's cubes, 7–12 the second's) and the side to move, before the roll; memoized by the board.
fn win_chance(squares: [u8; 25], second: bool, memo: &mut HashMap<([u8; 25], bool), f64>) -> f64 {
    let firsts = squares.iter().filter(|&&v| (1..=6).contains(&v)).count();
    let seconds = squares.iter().filter(|&&v| v >= 7).count();
    if (1..=6).contains(&squares[24]) || seconds == 0 {
        return 1.0;
    }
    if squares[0] >= 7 || firsts == 0 {
        return 0.0;
    }
    if let Some(&v) = memo.get(&(squares, second)) {
        return v;
    }
    let base = if second { 6 } else { 0 };
    let mut total = 0.0;
    for roll in 1..=6u8 {
        let present = |n: u8| squares.contains(&(base + n));
        let cubes: Vec<u8> = if present(roll) {
            vec![roll]
        } else {
            (1..roll).rev().find(|&n| present(n)).into_iter().chain((roll + 1..=6).find(|&n| present(n))).collect()
        };
        let mut best: Option<f64> = None;
        for n in cubes {
            let from = squares.iter().position(|&v| v == base + n).unwrap();
            let (r, c) = ((from / 5) as i32, (from % 5) as i32);
            let steps = if second { [(0, -1), (-1, 0), (-1, -1)] } else { [(0, 1), (1, 0), (1, 1)] };
            for (dr, dc) in steps {
                let (nr, nc) = (r + dr, c + dc);
                if (0..5).contains(&nr) && (0..5).contains(&nc) {
                    let mut next = squares;
                    next[(nr * 5 + nc) as usize] = base + n;
                    next[from] = 0;
                    let v = win_chance(next, !second, memo);
                    best = Some(match best {
                        None => v,
                        Some(b) if second => b.min(v),
                        Some(b) => b.max(v),
                    });
                }
            }
        }
        total += best.expect("a cube on the board has a move");
    }
    let v = total / 6.0;
    memo.insert((squares, second), v);
    v
}

fn board(s: &State) -> [u8; 25] {
    let mut squares = [0; 25];
    for p in 0..2 {
        for c in 0..6 {
            if s.cubes[p][c] != GONE {
                squares[usize::from(s.cubes[p][c])] = (p * 6 + c + 1) as u8;
            }
        }
    }
    squares
}

/// The moves the cubes can still make: each brings a cube's row and column distances to its goal down by one
/// or two.
fn moves_left(s: &State) -> u32 {
    let mut left = 0;
    for (p, cubes) in s.cubes.iter().enumerate() {
        for &sq in cubes.iter().filter(|&&sq| sq != GONE) {
            let (r, c) = (u32::from(sq / 5), u32::from(sq % 5));
            left += if p == 0 { (4 - r) + (4 - c) } else { r + c };
        }
    }
    left
}

#[test]
fn small_endgames_are_solved_exactly() {
    let game = game();
    let heuristic = Heuristic::new(&game, &Race);
    let mut reference = HashMap::new();
    let mut exact = Searcher::new(&game, Natural).with_cache(Memo::new());
    let texts = [
        // One cube a side: the die cannot choose, so the race is decided (a chance of 0 or 1).
        "1..../...../...../...../....a first",
        "...../.1.../...../...a./..... second",
        // Two a side, from the corners and elsewhere.
        "12.../...../...../....b/....a first",
        "1..../2..../...../....b/....a first",
        "..1../...../3..../...e./....c second",
        // Two a side near the end.
        "...../.a.../..b1./....2/..... first",
        "...../.a.../.c.../...1./...2. second",
        ".4.../...../..6../.b.../....f first",
    ];
    let mut chances = Vec::new();
    for text in texts {
        let s = Einstein::parse(text).unwrap();
        let value = exact.run(Algorithm::Minimax, &s).value;
        let chance = (1.0 + value) / 2.0;
        let independent = win_chance(board(&s), s.second_to_move, &mut reference);
        assert!((chance - independent).abs() < 1e-12, "{text}: {chance} vs {independent}");
        chances.push(chance);
        // Deep enough to meet no horizon, the depth-limited searches are exact too (on the evaluator's scale):
        // Star2 without a table where few moves are left, the engine (a table) everywhere.
        if moves_left(&s) <= 8 {
            let config = SearchConfig {
                algorithm: Algorithm::Star2,
                depth: 40,
                bounds: Race.value_range(),
                ..SearchConfig::default()
            };
            let star = config.searcher(&heuristic, Natural, heuristic.horizon()).run_to_depth(Algorithm::Star2, &s, 40);
            assert!((star.value - WIN * value).abs() < 1e-9, "{text}: star2 {} vs {}", star.value, WIN * value);
        }
        if moves_left(&s) <= 12 {
            let mut rolled = s;
            rolled.die = 3;
            let engine = Engine::new(&game, &Race, SearchConfig::depth_limited(40)).search(&rolled);
            let truth = exact.run(Algorithm::Minimax, &rolled).value;
            assert!((engine.value - WIN * truth).abs() < 1e-9, "{text}: engine {} vs {}", engine.value, WIN * truth);
        }
    }
    // (Six times a sixth is a rounding short of 1 in floating point.)
    assert!(chances[..2].iter().all(|&c| !(1e-15..=1.0 - 1e-15).contains(&c)), "{chances:?}");
    assert!(chances[2..6].iter().all(|&c| c > 0.0 && c < 1.0), "{chances:?}");
    // The figures the book prints (docs/src/chance.md).
    assert!((chances[2] - 0.475741740459).abs() < 5e-13, "{chances:?}");
    for (text, printed) in [
        ("12.../...../...../....b/....a first 1", 0.491545818642),
        ("1..../2..../...../....b/....a first 1", 0.585076124524),
    ] {
        let chance = (1.0 + exact.run(Algorithm::Minimax, &Einstein::parse(text).unwrap()).value) / 2.0;
        assert!((chance - printed).abs() < 5e-13, "{text}: {chance}");
    }
}
