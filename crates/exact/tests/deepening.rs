//! The drivers that search more than once — MTD(f) and iterative deepening — and NegaScout, with the static
//! and history orderings, against plain minimax: on implicit trees of both models and on every tic-tac-toe
//! position (which has transpositions, so depth-limited entries meet complete ones in the table).

use khela_exact::{Algorithm, Horizon, MoveOrdering, Natural, Observer, Oracle, SearchConfig, Searcher, Stats, search};
use khela_games::conformance::reachable;
use khela_games::implicit::{ImplicitTree, TreeModel};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Value};
use khela_tt::{Replacement, Table};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use std::num::NonZeroU32;
use std::ops::ControlFlow;

const DRIVERS: [Algorithm; 4] =
    [Algorithm::AlphaBeta, Algorithm::NegaScout, Algorithm::MtdF, Algorithm::IterativeDeepening];

fn static_value(tree: &ImplicitTree, p: &<ImplicitTree as Game>::State) -> Value {
    tree.static_value(p)
}

/// How `algorithm` searches: MTD(f) and iterative deepening with a table of `mib` MiB, the others without one
/// (as the sweep runs them).
fn config(algorithm: Algorithm, mib: usize) -> SearchConfig {
    let memory = matches!(algorithm, Algorithm::MtdF | Algorithm::IterativeDeepening);
    SearchConfig { algorithm, table_mib: memory.then_some(mib), ..SearchConfig::default() }
}

/// The static value at the horizon (and MTD(f)'s first guess).
fn horizon() -> Horizon<ImplicitTree> {
    Horizon { evaluate: Some(static_value), ..Horizon::default() }
}

/// The orderings the drivers run under, the oracles' exact values those of `tree`.
fn orderings(tree: &ImplicitTree, seed: u64) -> Vec<MoveOrdering<ImplicitTree>> {
    let oracle = Oracle::new(tree, &ImplicitTree::ROOT).shared();
    vec![
        MoveOrdering::Natural,
        MoveOrdering::shuffled(seed),
        MoveOrdering::best_first(&oracle),
        MoveOrdering::worst_first(&oracle),
        MoveOrdering::by_estimate(static_value),
        MoveOrdering::history(),
    ]
}

fn model() -> impl Strategy<Value = TreeModel> {
    prop_oneof![
        (-50i64..50, 0i64..3).prop_map(|(lo, w)| TreeModel::Iid { lo, hi: lo + w }),
        Just(TreeModel::Iid { lo: 0, hi: (1 << 31) - 1 }),
        (0i64..20).prop_map(|spread| TreeModel::Incremental { spread }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: RngSeed::Fixed(4),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every driver under every ordering, with the evaluator and a table (a roomy one, and one of a few entries
    /// that forces collisions), returns minimax's value on implicit trees.
    #[test]
    fn drivers_return_minimax_on_implicit_trees(b in 1u32..=4, d in 0u32..=6, seed in any::<u64>(), model in model()) {
        let tree = ImplicitTree::hashed(b, d, seed, model).unwrap();
        let root = ImplicitTree::ROOT;
        let expected = Searcher::new(&tree, Natural).run(Algorithm::Minimax, &root).value;
        for ordering in orderings(&tree, seed) {
            for algorithm in DRIVERS {
                let result = search(&tree, &root, ordering.clone(), horizon(), &config(algorithm, 1));
                prop_assert_eq!(result.value, expected, "{:?} under {:?}", algorithm, ordering);
                if d > 0 {
                    let best = result.best.expect("a decision root has a best move");
                    let child = Searcher::new(&tree, Natural).run(Algorithm::Minimax, &tree.child(&root, best));
                    prop_assert_eq!(child.value, expected, "{:?} under {:?} chose {}", algorithm, ordering, best);
                }
                for entries in [1, 5] {
                    let value = Searcher::new(&tree, ordering.clone())
                        .with_evaluator(static_value)
                        .with_cache(Table::with_entries(entries, Replacement::TwoTier))
                        .run(algorithm, &root)
                        .value;
                    prop_assert_eq!(value, expected, "{:?} under {:?} with {} entries", algorithm, ordering, entries);
                }
            }
        }
    }
}

#[test]
fn drivers_with_tables_on_every_tictactoe_position() {
    // An evaluator that knows nothing: iterative deepening must still stop exactly when a search met no horizon.
    fn blind(_: &TicTacToe, _: &Board) -> Value {
        0.5
    }
    let positions = reachable(&TicTacToe, Board::EMPTY);
    assert_eq!(positions.len(), 5_478);
    // Each driver, and iterative deepening by two plies as well as by one.
    let by_two = NonZeroU32::new(2).unwrap();
    let drivers = DRIVERS.map(|algorithm| (algorithm, NonZeroU32::MIN));
    for (algorithm, step) in drivers.into_iter().chain([(Algorithm::IterativeDeepening, by_two)]) {
        for entries in [3, 1 << 12] {
            for policy in [Replacement::Always, Replacement::DepthPreferred, Replacement::TwoTier] {
                // One table across all positions: entries of other searches and of other depths are met too.
                let mut searcher = Searcher::new(&TicTacToe, MoveOrdering::history())
                    .with_evaluator(blind)
                    .with_deepening_step(step)
                    .with_cache(Table::with_entries(entries, policy));
                for b in &positions {
                    let expected = Searcher::new(&TicTacToe, Natural).run(Algorithm::AlphaBeta, b).value;
                    let got = searcher.run(algorithm, b).value;
                    assert_eq!(got, expected, "{b} {algorithm:?} by {step} {entries} entries {policy:?}");
                }
            }
        }
    }
}

/// The depths of the iterations of iterative deepening, as its observer hears of them.
struct Depths(Vec<u32>);

impl<G: Game> Observer<G> for &mut Depths {
    fn deepened(&mut self, depth: u32, _: Value, _: &Stats) -> ControlFlow<()> {
        self.0.push(depth);
        ControlFlow::Continue(())
    }
}

/// Iterative deepening by one, two or three plies returns depth-limited alpha-beta's value (with the evaluator
/// at the horizon) at every depth on incremental trees, whose horizons are met below their full depth, under
/// natural and history ordering and with a table of 3 entries or a roomy one; its iterations climb by the step
/// from a first depth within one step to the depth asked for.
#[test]
fn deepening_by_any_step_keeps_the_value_and_ends_on_the_depth() {
    for seed in 0..12 {
        let tree = ImplicitTree::hashed(3, 8, seed, TreeModel::Incremental { spread: 40 }).unwrap();
        let root = ImplicitTree::ROOT;
        for limit in 1..=8 {
            let mut plain = Searcher::new(&tree, Natural).with_evaluator(static_value);
            let expected = plain.run_to_depth(Algorithm::AlphaBeta, &root, limit).value;
            for (step, ordering, entries) in [1, 2, 3]
                .into_iter()
                .flat_map(|step| [MoveOrdering::Natural, MoveOrdering::history()].map(|o| (step, o)))
                .flat_map(|(step, o)| [3, 1 << 12].map(|entries| (step, o.clone(), entries)))
            {
                let mut depths = Depths(Vec::new());
                let found = Searcher::new(&tree, ordering.clone())
                    .with_evaluator(static_value)
                    .with_deepening_step(NonZeroU32::new(step).unwrap())
                    .with_cache(Table::with_entries(entries, Replacement::TwoTier))
                    .with_observer(&mut depths)
                    .run_to_depth(Algorithm::IterativeDeepening, &root, limit);
                let context = format!("seed {seed} depth {limit} by {step} {ordering:?} {entries} entries");
                assert_eq!(found.value, expected, "{context}");
                let depths = depths.0;
                assert_eq!(depths.last(), Some(&limit), "{context}: {depths:?}");
                assert!((1..=step).contains(&depths[0]), "{context}: {depths:?}");
                assert!(depths.windows(2).all(|pair| pair[1] == pair[0] + step), "{context}: {depths:?}");
            }
        }
    }
    // The iterations of a few, in full: the last one's parity (or remainder) kept.
    let tree = ImplicitTree::hashed(2, 9, 1, TreeModel::Incremental { spread: 40 }).unwrap();
    for (step, limit, expected) in
        [(2, 6, vec![2, 4, 6]), (2, 7, vec![1, 3, 5, 7]), (3, 7, vec![1, 4, 7]), (2, 1, vec![1])]
    {
        let mut depths = Depths(Vec::new());
        Searcher::new(&tree, Natural)
            .with_evaluator(static_value)
            .with_deepening_step(NonZeroU32::new(step).unwrap())
            .with_observer(&mut depths)
            .run_to_depth(Algorithm::IterativeDeepening, &ImplicitTree::ROOT, limit);
        assert_eq!(depths.0, expected, "by {step} to {limit}");
    }
}

#[test]
fn iterative_deepening_pays_for_its_iterations_and_orders_by_them() {
    let tree = ImplicitTree::hashed(4, 8, 3, TreeModel::Incremental { spread: 100 }).unwrap();
    let root = ImplicitTree::ROOT;
    let run = |algorithm, ordering| search(&tree, &root, ordering, horizon(), &config(algorithm, 16));
    let plain = run(Algorithm::AlphaBeta, MoveOrdering::Natural);
    let deepening = run(Algorithm::IterativeDeepening, MoveOrdering::Natural);
    assert_eq!(deepening.value, plain.value);
    // Iterative deepening counts the leaves of every iteration (horizon nodes included), yet on an incremental
    // tree its ordering from the shallower iterations saves more than they cost.
    assert!(deepening.stats.leaves < plain.stats.leaves, "{:?} vs {:?}", deepening.stats, plain.stats);
}

#[test]
fn on_incremental_trees_iterative_deepening_beats_natural_and_random_ordering() {
    // Mean leaves over seeds, for branching 4 and 6 at depths 5 and 6: there iterative deepening's ordering by
    // the shallower iterations saves more than the iterations cost (on binary trees it does not; the sweep's
    // summary shows where the line falls).
    for (b, d) in [(4, 5), (4, 6), (6, 5), (6, 6)] {
        let mean = |algorithm: Algorithm, random: bool| {
            let total: u64 = (0..10u64)
                .map(|seed| {
                    let tree = ImplicitTree::hashed(b, d, seed, TreeModel::Incremental { spread: 100 }).unwrap();
                    let ordering = if random { MoveOrdering::shuffled(seed) } else { MoveOrdering::Natural };
                    search(&tree, &ImplicitTree::ROOT, ordering, horizon(), &config(algorithm, 4)).stats.leaves
                })
                .sum();
            total as f64 / 10.0
        };
        let deepening = mean(Algorithm::IterativeDeepening, false);
        let (natural, random) = (mean(Algorithm::AlphaBeta, false), mean(Algorithm::AlphaBeta, true));
        assert!(
            deepening < natural && deepening < random,
            "b={b} d={d}: id {deepening}, natural {natural}, random {random}"
        );
    }
}

/// An implicit tree that lists its moves: [`Game::NUMBERED_MOVES`] left at `None`.
struct Listed<'a>(&'a ImplicitTree);

impl Game for Listed<'_> {
    type State = <ImplicitTree as Game>::State;
    type Move = u32;

    fn node(&self, state: &Self::State) -> khela_games::Node {
        self.0.node(state)
    }

    fn moves(&self, state: &Self::State, buf: &mut Vec<u32>) {
        self.0.moves(state, buf);
    }

    fn play(&self, state: &mut Self::State, mv: u32) {
        self.0.play(state, mv);
    }

    fn key(&self, state: &Self::State) -> u64 {
        self.0.key(state)
    }
}

/// A tree whose moves are their numbers ([`Game::NUMBERED_MOVES`]) is searched without a list of moves where
/// nothing looks at one (natural order, no table, no observer): the same values, counters and best moves as the
/// same tree searched through a game that lists its moves.
#[test]
fn numbered_moves_search_as_listed_ones() {
    assert!(<ImplicitTree as Game>::NUMBERED_MOVES.is_some());
    let algorithms = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Negamax,
        Algorithm::NegamaxAlphaBeta,
        Algorithm::NegaScout,
    ];
    let models = [
        TreeModel::Iid { lo: 0, hi: (1 << 31) - 1 },
        TreeModel::Iid { lo: -1, hi: 1 },
        TreeModel::Incremental { spread: 5 },
    ];
    for (b, d) in [(1, 3), (2, 6), (3, 5), (4, 6), (7, 4)] {
        for seed in 0..8 {
            for model in models {
                let tree = ImplicitTree::hashed(b, d, seed, model).unwrap();
                for algorithm in algorithms {
                    let numbered = Searcher::new(&tree, Natural).run(algorithm, &ImplicitTree::ROOT);
                    let listed = Searcher::new(&Listed(&tree), Natural).run(algorithm, &ImplicitTree::ROOT);
                    assert_eq!(numbered, listed, "b{b} d{d} seed {seed} {model:?} {algorithm}");
                }
            }
        }
    }
}
