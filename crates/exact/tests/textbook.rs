//! The textbook chapter's published figures, reproduced exactly. Its Python reference code agrees with each one.

use khela_exact::{Algorithm, Memo, MoveOrdering, Natural, Oracle, Searcher, Trace, TraceEvent, move_values, tally};
use khela_games::nim::{Heaps, Nim};
use khela_games::random_tree::{Params, RandomTree};
use khela_games::rng::Rng;
use khela_games::tictactoe::{self, Board, TicTacToe};
use khela_games::tree::Tree;
use khela_games::{Game, Player};

fn tree(text: &str, root: Player) -> Tree {
    Tree::parse(text, root).unwrap()
}

#[test]
fn three_by_three_tree_value_best_move_and_pruning() {
    let t = tree("[[5,8,6],[3,9,7],[10,4,2]]", Player::Max);
    let minimax = Searcher::new(&t, Natural).run(Algorithm::Minimax, &0);
    assert_eq!((minimax.value, minimax.best.map(|m| t.name(t.child_of(0, m)))), (5.0, Some("A".into())));
    assert_eq!(minimax.stats.nodes, 13);

    let mut searcher = Searcher::new(&t, Natural).with_observer(Trace::default());
    let ab = searcher.run(Algorithm::AlphaBeta, &0);
    assert_eq!((ab.value, ab.best, ab.stats.nodes), (5.0, Some(0), 10));
    let pruned: Vec<i64> = searcher
        .observer()
        .events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Pruned { state, moves } => {
                Some(moves.iter().flat_map(|&m| t.leaves_under(t.child_of(*state, m))))
            }
            TraceEvent::Backed { .. } => None,
        })
        .flatten()
        .collect();
    assert_eq!(pruned, [9, 7, 2]);
}

#[test]
fn trace_reports_children_before_parents() {
    let t = tree("[[5,8,6],[3,9,7],[10,4,2]]", Player::Max);
    let mut searcher = Searcher::new(&t, Natural).with_observer(Trace::default());
    searcher.run(Algorithm::Minimax, &0);
    let order: Vec<String> = searcher
        .observer()
        .events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::Backed { state, value, .. } => Some(format!("{}={value}", t.name(*state))),
            TraceEvent::Pruned { .. } => None,
        })
        .collect();
    assert_eq!(order.join(" "), "A.1=5 A.2=8 A.3=6 A=5 B.1=3 B.2=9 B.3=7 B=3 C.1=10 C.2=4 C.3=2 C=2 root=5");
}

#[test]
fn root_side_changes_the_value() {
    // A widely read tutorial prints 3 for code that puts MAX at the root; with MAX at the root it is 6.
    let text = "[[[3,5],[2,9]],[[1,7],[4,6]]]";
    for (root, expected) in [(Player::Max, 6.0), (Player::Min, 3.0)] {
        let t = tree(text, root);
        for &algorithm in Algorithm::ALL {
            assert_eq!(Searcher::new(&t, Natural).run(algorithm, &0).value, expected, "{algorithm:?}");
        }
    }
}

#[test]
fn tictactoe_is_a_draw_with_5478_states() {
    let mut memo = Searcher::new(&TicTacToe, Natural).with_cache(Memo::new());
    assert_eq!(memo.run(Algorithm::Minimax, &Board::EMPTY).value, 0.0);
    assert_eq!(memo.cache().len(), 5_478);
}

#[test]
fn tictactoe_full_tree_tally() {
    let t = tally(&TicTacToe, &Board::EMPTY);
    assert_eq!((t.games, t.max_wins, t.min_wins, t.draws), (255_168, 131_184, 77_904, 46_080));
    assert_eq!((t.nodes, t.states), (549_946, 5_478));
    let plain = Searcher::new(&TicTacToe, Natural).run(Algorithm::Minimax, &Board::EMPTY);
    assert_eq!((plain.value, plain.stats.nodes, plain.stats.leaves), (0.0, 549_946, 255_168));
}

#[test]
fn tictactoe_trap_move_values() {
    let trap = TicTacToe::parse("X...O...X").unwrap();
    for &algorithm in Algorithm::ALL {
        let values = move_values(&TicTacToe, &trap, algorithm);
        assert_eq!(values, [(1, 0.0), (2, 1.0), (3, 0.0), (5, 0.0), (6, 1.0), (7, 0.0)], "{algorithm:?}");
    }
}

#[test]
fn tictactoe_alphabeta_nodes_by_ordering() {
    let oracle = Oracle::new(&TicTacToe, &Board::EMPTY).shared();
    let cases = [
        (MoveOrdering::Natural, 18_297),
        (MoveOrdering::preference(tictactoe::CENTER_CORNER_EDGE.to_vec()), 7_275),
        (MoveOrdering::preference(tictactoe::EDGE_CORNER_CENTER.to_vec()), 42_094),
        (MoveOrdering::best_first(&oracle), 2_312),
    ];
    for (ordering, nodes) in cases {
        let r = Searcher::new(&TicTacToe, ordering.clone()).run(Algorithm::AlphaBeta, &Board::EMPTY);
        assert_eq!((r.value, r.stats.nodes), (0.0, nodes), "{ordering:?}");
    }
}

#[test]
fn random_tree_b4_d6_seed42_python() {
    let params = Params { b: 4, d: 6, lo: 0, hi: 99, seed: 42, rng: Rng::Python };
    let t = RandomTree::new(params).unwrap();
    let root = RandomTree::ROOT;
    let minimax = Searcher::new(&t, Natural).run(Algorithm::Minimax, &root);
    assert_eq!((minimax.value, minimax.stats.leaves), (26.0, 4_096));
    let oracle = Oracle::new(&t, &root).shared();
    let cases = [
        (MoveOrdering::Natural, 687),
        (MoveOrdering::best_first(&oracle), 127),
        (MoveOrdering::worst_first(&oracle), 3_568),
    ];
    for (ordering, leaves) in cases {
        let r = Searcher::new(&t, ordering.clone()).run(Algorithm::AlphaBeta, &root);
        assert_eq!((r.value, r.stats.leaves), (26.0, leaves), "{ordering:?}");
    }
    // Knuth–Moore minimum: b^⌈d/2⌉ + b^⌊d/2⌋ − 1.
    assert_eq!(4u64.pow(3) + 4u64.pow(3) - 1, 127);
}

#[test]
fn nim_agrees_with_bouton_everywhere() {
    // Memoized negamax over the multiset of heaps: Nim is impartial, so the value for the side to move
    // depends on the heaps alone.
    let mut searcher = Searcher::new(&Nim, Natural).with_cache(Memo::impartial(|_, s| Nim::impartial_key(s)));
    let mut losing = Vec::new();
    for a in 0..=5 {
        for b in 0..=5 {
            for c in 0..=5 {
                let heaps = Heaps { heaps: vec![a, b, c], to_move: Player::Max };
                let value = searcher.run(Algorithm::Negamax, &heaps).value;
                assert_eq!(value < 0.0, Nim::nim_sum(&heaps) == 0, "{heaps:?}");
                if value < 0.0 && a <= b && b <= c {
                    losing.push((a, b, c));
                }
            }
        }
    }
    assert_eq!(searcher.cache().len(), 56);
    assert_eq!(losing, [(0, 0, 0), (0, 1, 1), (0, 2, 2), (0, 3, 3), (0, 4, 4), (0, 5, 5), (1, 2, 3), (1, 4, 5)]);

    let start = Nim::parse("3,4,5").unwrap();
    assert_eq!(Nim::nim_sum(&start), 2);
    let winning: Vec<_> = move_values(&Nim, &start, Algorithm::AlphaBeta)
        .into_iter()
        .filter(|&(_, v)| v > 0.0)
        .map(|(m, _)| (m.heap, m.from, m.to))
        .collect();
    assert_eq!(winning, [(0, 3, 1)]);
}

#[test]
fn expectiminimax_coin_or_sure_thing() {
    for (text, value, best) in [("[3,{0.5:8,0.5:-1}]", 3.5, 1), ("[3,{0.5:5,0.5:-1}]", 3.0, 0)] {
        let t = tree(text, Player::Max);
        for &algorithm in Algorithm::ALL {
            let r = Searcher::new(&t, Natural).run(algorithm, &0);
            assert_eq!((r.value, r.best), (value, Some(best)), "{text} {algorithm:?}");
        }
    }
}

#[test]
fn every_tictactoe_ordering_is_a_draw() {
    let oracle = Oracle::new(&TicTacToe, &Board::EMPTY).shared();
    let orderings = [
        MoveOrdering::Natural,
        MoveOrdering::Reversed,
        MoveOrdering::preference(tictactoe::CENTER_CORNER_EDGE.to_vec()),
        MoveOrdering::preference(tictactoe::EDGE_CORNER_CENTER.to_vec()),
        MoveOrdering::best_first(&oracle),
        MoveOrdering::worst_first(&oracle),
        MoveOrdering::shuffled(9),
    ];
    for ordering in orderings {
        for &algorithm in Algorithm::ALL {
            let r = Searcher::new(&TicTacToe, ordering.clone()).run(algorithm, &Board::EMPTY);
            assert_eq!(r.value, 0.0, "{ordering:?} {algorithm:?}");
        }
    }
    let _ = TicTacToe.key(&Board::EMPTY);
}

#[test]
fn a_warm_memo_still_reports_the_best_move() {
    let trap = TicTacToe::parse("X...O...X").unwrap();
    let mut searcher = Searcher::new(&TicTacToe, Natural).with_cache(Memo::new());
    let cold = searcher.run(Algorithm::Minimax, &trap);
    let warm = searcher.run(Algorithm::Minimax, &trap);
    assert_eq!((cold.value, cold.best), (0.0, Some(1)));
    assert_eq!((warm.value, warm.best), (0.0, Some(1)));
}

#[test]
fn tictactoe_up_to_symmetry_has_765_positions_138_terminal() {
    // Memoized minimax keyed by the canonical form solves each essentially different position once.
    let mut searcher =
        Searcher::new(&TicTacToe, Natural).with_cache(Memo::with_key(|_, b| TicTacToe::symmetric_key(b)));
    assert_eq!(searcher.run(Algorithm::Minimax, &Board::EMPTY).value, 0.0);
    assert_eq!(searcher.cache().len(), 765);
    // The terminal ones, by walking the reachable positions.
    let mut seen = std::collections::HashSet::new();
    let mut terminal = 0;
    let mut stack = vec![Board::EMPTY];
    let mut moves = Vec::new();
    while let Some(b) = stack.pop() {
        if !seen.insert(TicTacToe::symmetric_key(&b)) {
            continue;
        }
        if let khela_games::Node::Terminal(_) = TicTacToe.node(&b) {
            terminal += 1;
        }
        TicTacToe.moves(&b, &mut moves);
        stack.extend(moves.iter().map(|&m| TicTacToe.child(&b, m)));
    }
    assert_eq!((seen.len(), terminal), (765, 138));
}
