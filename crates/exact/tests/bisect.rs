//! The null-window bisection driver (`Searcher::bisect`) against plain alpha-beta on seeded random trees of
//! whole-number leaves, MAX or MIN at the root, with and without a table: the exact value over the true range,
//! and over a narrower range the value clamped to it (the weak solution over −1..1).

use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::Player;
use khela_games::random_tree::{Params, RandomTree};
use khela_games::rng::Rng;
use khela_games::tree::Tree;
use khela_tt::{Policy, Table};

/// A random tree as nested-list text: `b` moves a node, `d` plies, leaves from a seeded generator in −9..=9.
fn text(b: u32, d: u32, seed: &mut u64) -> String {
    if d == 0 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        return (((*seed >> 33) % 19) as i64 - 9).to_string();
    }
    let children: Vec<String> = (0..b).map(|_| text(b, d - 1, seed)).collect();
    format!("[{}]", children.join(","))
}

#[test]
fn bisection_agrees_with_alpha_beta() {
    let mut seed = 7;
    let mut values = std::collections::BTreeSet::new();
    for case in 0..60 {
        let (b, d) = (2 + case % 3, 2 + case % 4);
        let root = if case % 2 == 0 { Player::Max } else { Player::Min };
        let tree = Tree::parse(&text(b, d, &mut seed), root).unwrap();
        let truth = Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, &0).value;
        values.insert(truth as i64);
        let exact = Searcher::new(&tree, Natural).bisect(&0, -9.0, 9.0);
        assert_eq!(exact.value, truth, "case {case}");
        let table = Table::with_entries(64, Policy::TwoTier);
        assert_eq!(Searcher::new(&tree, Natural).with_cache(table).bisect(&0, -9.0, 9.0).value, truth, "case {case}");
        let weak = Searcher::new(&tree, Natural).bisect(&0, -1.0, 1.0).value;
        assert_eq!(weak, truth.clamp(-1.0, 1.0), "case {case}: weak");
        // A best move is one that reaches the value.
        if let Some(best) = exact.best {
            let child = tree.child_of(0, best);
            assert_eq!(Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, &child).value, truth, "case {case}");
        }
    }
    assert!(values.len() > 5, "the trees' values vary: {values:?}");
    // The textbook's random tree b = 4, d = 6 (Python's generator, seed 42): 26.
    let params = Params { b: 4, d: 6, lo: 0, hi: 99, seed: 42, rng: Rng::Python };
    let tree = RandomTree::new(params).unwrap();
    assert_eq!(Searcher::new(&tree, Natural).bisect(&RandomTree::ROOT, 0.0, 99.0).value, 26.0);
}
