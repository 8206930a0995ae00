//! Star1 and Star2 (Ballard's *-minimax) against plain expectiminimax.
//!
//! On thousands of random *-minimax trees (decision nodes of one to four moves, each followed by a chance node
//! of one to four outcomes, with equal or unequal probabilities, ties and narrow leaf ranges, either side at the
//! root), Star1 and Star2 must return expectiminimax's value under every ordering, bit for bit; Star1 must visit
//! no more nodes than alpha-beta (which searches chance nodes with full windows). Over many trees both must visit
//! fewer nodes than expectiminimax on average. The same holds for depth-limited search with an evaluator inside the
//! bounds.

mod common;

use khela_exact::{Algorithm, MoveOrdering, Natural, Oracle, Searcher};
use khela_games::tree::Tree;
use khela_games::{Game, Player, Value};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A random *-minimax tree in the nested-list notation: `levels` decision levels, each decision node with 1 to
/// `b` moves followed by a chance node with 1 to `k` outcomes (probabilities equal, or proportional to weights
/// 1..=4 when `skewed`), leaves uniform in `lo..=hi`. Leaves sometimes come early, so the tree is irregular.
fn star_tree(rng: &mut Pcg64Mcg, levels: u32, b: u32, k: u32, skewed: bool, lo: i64, hi: i64) -> String {
    if levels == 0 || rng.random_ratio(1, 12) {
        return rng.random_range(lo..=hi).to_string();
    }
    let moves = rng.random_range(1..=b);
    let kids: Vec<String> = (0..moves)
        .map(|_| {
            let outcomes = rng.random_range(1..=k);
            let weights: Vec<u32> = (0..outcomes).map(|_| if skewed { rng.random_range(1..=4) } else { 1 }).collect();
            let total: u32 = weights.iter().sum();
            let parts: Vec<String> = weights
                .iter()
                .map(|w| format!("{w}/{total}:{}", star_tree(rng, levels - 1, b, k, skewed, lo, hi)))
                .collect();
            format!("{{{}}}", parts.join(","))
        })
        .collect();
    format!("[{}]", kids.join(","))
}

/// The proptest seed (unless `PROPTEST_RNG_SEED` names another).
const SEED: u64 = 0x5354_4152;

/// Every leaf value of a tree, to bound it.
fn leaf_range(text: &str) -> (Value, Value) {
    let numbers = text
        .split(|c: char| !(c.is_ascii_digit() || c == '-' || c == '/' || c == ':'))
        .flat_map(|s| s.split(':').next_back())
        .filter(|s| !s.is_empty() && !s.contains('/'))
        .map(|s| s.parse::<f64>().unwrap());
    numbers.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

/// The orderings the checks run under, the oracles' exact values those of `tree` from its root.
fn orderings(tree: &Tree) -> [MoveOrdering<Tree>; 5] {
    let oracle = Oracle::new(tree, &0).shared();
    [
        MoveOrdering::Natural,
        MoveOrdering::Reversed,
        MoveOrdering::best_first(&oracle),
        MoveOrdering::worst_first(&oracle),
        MoveOrdering::shuffled(7),
    ]
}

proptest! {
    #![proptest_config(common::config(3000, SEED))]

    /// Star1 and Star2 return expectiminimax's value, bit for bit; Star1 never visits more nodes than alpha-beta,
    /// nor alpha-beta more than expectiminimax.
    #[test]
    fn star_pruning_returns_expectiminimax(
        seed in any::<u64>(),
        levels in 1u32..=3,
        b in 1u32..=4,
        k in 1u32..=4,
        skewed in any::<bool>(),
        lo in -20i64..=5,
        span in 0i64..=40,
        slack in 0i64..=3,
        max_root in any::<bool>(),
    ) {
        let text = star_tree(&mut Pcg64Mcg::seed_from_u64(seed), levels, b, k, skewed, lo, lo + span);
        let tree = Tree::parse(&text, if max_root { Player::Max } else { Player::Min }).unwrap();
        let root = 0;
        let (min, max) = leaf_range(&text);
        // Bounds at the leaves' range, or looser: both are sound.
        let (lo, hi) = (min - slack as f64, max + slack as f64);
        for ordering in orderings(&tree) {
            let plain = Searcher::new(&tree, ordering.clone()).run(Algorithm::Minimax, &root);
            let alphabeta = Searcher::new(&tree, ordering.clone()).run(Algorithm::AlphaBeta, &root);
            for algorithm in [Algorithm::Star1, Algorithm::Star2] {
                let star = Searcher::new(&tree, ordering.clone()).with_bounds(lo, hi).run(algorithm, &root);
                let context = format!("{algorithm:?} {ordering:?} on {text}");
                prop_assert_eq!(star.value.to_bits(), plain.value.to_bits(), "{}", context);
                // The best move attains the value.
                if let Some(best) = star.best {
                    let after = Searcher::new(&tree, Natural).run(Algorithm::Minimax, &tree.child(&root, best));
                    prop_assert_eq!(after.value.to_bits(), plain.value.to_bits());
                }
            }
            // Star1 only narrows windows and stops chance nodes early. (Star2's probes are extra searches, which
            // pay off on average, not on every tree: see below.)
            let star1 = Searcher::new(&tree, ordering.clone()).with_bounds(lo, hi).run(Algorithm::Star1, &root);
            prop_assert!(star1.stats.nodes <= alphabeta.stats.nodes, "{:?} on {}", ordering, text);
            prop_assert!(alphabeta.stats.nodes <= plain.stats.nodes, "{:?} on {}", ordering, text);
        }
    }

    /// Depth-limited: with an evaluator whose values lie within the bounds, Star1 and Star2 to any depth return
    /// depth-limited expectiminimax's value.
    #[test]
    fn depth_limited_star_pruning_returns_expectiminimax(
        seed in any::<u64>(),
        b in 1u32..=4,
        k in 1u32..=4,
        depth in 0u32..=3,
    ) {
        let text = star_tree(&mut Pcg64Mcg::seed_from_u64(seed), 3, b, k, true, 0, 30);
        let tree = Tree::parse(&text, Player::Max).unwrap();
        // An evaluator within the leaves' bounds that knows nothing useful: the key, folded into 0..=30.
        fn estimate(tree: &Tree, state: &u32) -> Value {
            (tree.key(state) % 31) as Value
        }
        let plain = Searcher::new(&tree, Natural).with_evaluator(estimate).run_to_depth(Algorithm::Minimax, &0, depth);
        for algorithm in [Algorithm::Star1, Algorithm::Star2] {
            let star = Searcher::new(&tree, Natural)
                .with_evaluator(estimate)
                .with_bounds(0.0, 30.0)
                .run_to_depth(algorithm, &0, depth);
            let context = format!("{algorithm:?} to depth {depth} on {text}");
            prop_assert_eq!(star.value.to_bits(), plain.value.to_bits(), "{}", context);
            if algorithm == Algorithm::Star1 {
                prop_assert!(star.stats.nodes <= plain.stats.nodes);
            }
        }
    }
}

/// Over many trees of each shape, Star1 and Star2 visit fewer nodes than expectiminimax on average, and Star1
/// fewer than alpha-beta; regular trees with equiprobable outcomes, as in Ballard's experiments.
#[test]
fn star_pruning_visits_fewer_nodes_on_average() {
    for (b, k) in [(2, 2), (3, 3), (4, 2), (2, 6)] {
        let (mut plain, mut alphabeta, mut star1, mut star2) = (0u64, 0u64, 0u64, 0u64);
        for seed in 0..100 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let text = star_tree(&mut rng, 3, b, k, false, 0, 99);
            let tree = Tree::parse(&text, Player::Max).unwrap();
            let nodes = |algorithm| Searcher::new(&tree, Natural).with_bounds(0.0, 99.0).run(algorithm, &0).stats.nodes;
            plain += nodes(Algorithm::Minimax);
            alphabeta += nodes(Algorithm::AlphaBeta);
            star1 += nodes(Algorithm::Star1);
            star2 += nodes(Algorithm::Star2);
        }
        assert!(star1 < alphabeta && alphabeta <= plain, "b={b} k={k}: {star1} {alphabeta} {plain}");
        assert!(star2 < plain, "b={b} k={k}: star2 {star2}, expectiminimax {plain}");
    }
}
