//! Oracle cross-checks: every exact search returns plain minimax's value.
//!
//! On thousands of random uniform trees, random irregular trees with chance nodes, random tic-tac-toe positions
//! and random Nim positions, alpha-beta, negamax and negamax alpha-beta, under every move ordering and with or
//! without a memo, must return exactly the value of plain (expecti)minimax, which must in turn equal a direct
//! evaluation written here without the library. Where theory says more, that is checked too: pruning never visits
//! more than minimax, alpha-beta visits at least the Knuth–Moore minimal tree and exactly that under perfect
//! ordering, and Nim follows Bouton's rule.
//!
//! The cases come from a fixed proptest seed, so every run checks the same cases; set `PROPTEST_RNG_SEED` to
//! explore others.

mod common;

use khela_exact::{Algorithm, Memo, MoveOrdering, Natural, Oracle, OrderingKind, SearchResult, Searcher, move_values};
use khela_games::nim::{Heaps, Nim};
use khela_games::random_tree::{Params, RandomTree};
use khela_games::rng::Rng;
use khela_games::tictactoe::{self, Board, TicTacToe};
use khela_games::tree::Tree;
use khela_games::{Game, Node, Player, Value};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;
use std::fmt;

/// The proptest seed used unless `PROPTEST_RNG_SEED` names another.
const SEED: u64 = 0x6b68_656c_6121;

/// The tolerance for values of trees with chance nodes, where means are taken in floating point.
const CHANCE_TOLERANCE: f64 = 1e-9;

/// Every kind of ordering: natural, reversed, one per preference list, both oracles (exact values of every state
/// below `root`) and a seeded shuffle.
fn orderings<G: Game>(
    game: &G,
    root: &G::State,
    preferences: impl IntoIterator<Item = Vec<G::Move>>,
    shuffle: u64,
) -> Vec<MoveOrdering<G>> {
    let oracle = Oracle::new(game, root).shared();
    let mut all = vec![MoveOrdering::Natural, MoveOrdering::Reversed];
    all.extend(preferences.into_iter().map(MoveOrdering::preference));
    all.extend([
        MoveOrdering::best_first(&oracle),
        MoveOrdering::worst_first(&oracle),
        MoveOrdering::shuffled(shuffle),
        MoveOrdering::history(),
    ]);
    all
}

/// One search of [`check_every_search`].
struct Run<G: Game> {
    ordering: MoveOrdering<G>,
    algorithm: Algorithm,
    result: SearchResult<G::Move>,
}

/// Searches `root` with every algorithm under every ordering, each time with a fresh searcher, and checks the
/// contracts every exact search keeps:
/// - the value is `expected` (within `tolerance`, which is 0 where values must be equal exactly);
/// - the best move is given exactly when the root is a decision node, and its child has the root's value;
/// - negamax is minimax in the side-to-move view, so under one ordering it visits the same nodes and picks the
///   same move as minimax, and negamax alpha-beta does the same as alpha-beta;
/// - pruning only removes nodes: alpha-beta visits no more nodes or leaves than minimax, which never cuts off.
///
/// It returns the runs for checks particular to a game.
fn check_every_search<G: Game>(
    game: &G,
    root: &G::State,
    orderings: &[MoveOrdering<G>],
    expected: Value,
    tolerance: f64,
) -> Result<Vec<Run<G>>, TestCaseError> {
    let mut oracle = Searcher::new(game, Natural).with_cache(Memo::new());
    let decision_root = matches!(game.node(root), Node::Decision(_));
    let mut runs = Vec::new();
    for ordering in orderings {
        for &algorithm in Algorithm::ALL {
            let result = Searcher::new(game, ordering.clone()).run(algorithm, root);
            prop_assert!(
                (result.value - expected).abs() <= tolerance,
                "{algorithm:?} under {ordering:?} returned {}, minimax {expected}",
                result.value
            );
            prop_assert_eq!(result.best.is_some(), decision_root, "{:?} under {:?}", algorithm, ordering);
            if let Some(best) = result.best {
                let value = oracle.run(Algorithm::Minimax, &game.child(root, best)).value;
                prop_assert!(
                    (value - expected).abs() <= tolerance,
                    "{algorithm:?} under {ordering:?} chose {best:?}, worth {value}, not {expected}"
                );
            }
            runs.push(Run { ordering: ordering.clone(), algorithm, result });
        }
        let [minimax, alphabeta, negamax, negamax_alphabeta, ..] = &runs[runs.len() - Algorithm::ALL.len()..] else {
            unreachable!("every algorithm per ordering");
        };
        let algorithms = [minimax, alphabeta, negamax, negamax_alphabeta].map(|run| run.algorithm);
        prop_assert_eq!(&algorithms[..], &Algorithm::ALL[..4]);
        prop_assert_eq!(minimax.result.stats.cutoffs, 0, "minimax never cuts off, under {:?}", ordering);
        prop_assert_eq!(negamax.result.stats, minimax.result.stats, "negamax's search under {:?}", ordering);
        prop_assert_eq!(negamax.result.best, minimax.result.best, "negamax's move under {:?}", ordering);
        prop_assert_eq!(
            negamax_alphabeta.result.stats,
            alphabeta.result.stats,
            "negamax alpha-beta's search under {:?}",
            ordering
        );
        prop_assert_eq!(
            negamax_alphabeta.result.best,
            alphabeta.result.best,
            "negamax alpha-beta's move under {:?}",
            ordering
        );
        let (pruned, full) = (alphabeta.result.stats, minimax.result.stats);
        prop_assert!(
            pruned.leaves <= full.leaves && pruned.nodes <= full.nodes,
            "alpha-beta under {ordering:?} visited more than minimax: {pruned:?} against {full:?}"
        );
    }
    Ok(runs)
}

/// Searches `root` with every algorithm under every ordering with a fresh memo, then again with the memo warm,
/// and checks that each returns `expected` (within `tolerance`): the memo keeps exact values only, so it is
/// sound under pruning too.
fn check_every_memo_search<G: Game>(
    game: &G,
    root: &G::State,
    orderings: &[MoveOrdering<G>],
    expected: Value,
    tolerance: f64,
) -> Result<(), TestCaseError> {
    for ordering in orderings {
        for &algorithm in Algorithm::ALL {
            let mut searcher = Searcher::new(game, ordering.clone()).with_cache(Memo::new());
            for pass in ["cold", "warm"] {
                let value = searcher.run(algorithm, root).value;
                prop_assert!(
                    (value - expected).abs() <= tolerance,
                    "{algorithm:?} with a {pass} memo under {ordering:?} returned {value}, minimax {expected}"
                );
            }
        }
    }
    Ok(())
}

// Uniform random trees.

/// Parameters of small uniform random trees from both generators.
fn random_tree_params() -> impl Strategy<Value = Params> {
    let rng = prop_oneof![Just(Rng::Pcg), Just(Rng::Python)];
    (1u32..=5, 0u32..=6, leaf_range(), any::<u64>(), rng).prop_map(|(b, d, (lo, hi), seed, rng)| Params {
        b,
        d,
        lo,
        hi,
        seed,
        rng,
    })
}

/// Leaf ranges from a single value (every leaf ties) through narrow ones (ties abound) to wide ones, negative
/// ones included.
fn leaf_range() -> impl Strategy<Value = (i64, i64)> {
    let width = prop_oneof![Just(0i64), 1i64..=3, 4i64..=100, 101i64..=1_000_000];
    (-1000i64..=1000, width).prop_map(|(lo, width)| (lo, lo + width))
}

/// Minimax of a uniform random tree straight from its leaves, without the library's search: MAX moves at even
/// depths, and the children of the node numbered `index` at its depth are numbered `index·b + move`.
fn random_tree_minimax(tree: &RandomTree, depth: u32, index: u64) -> Value {
    let Params { b, d, .. } = *tree.params();
    if depth == d {
        return tree.leaf(index) as Value;
    }
    let children = (0..u64::from(b)).map(|mv| random_tree_minimax(tree, depth + 1, index * u64::from(b) + mv));
    if depth.is_multiple_of(2) {
        children.fold(Value::NEG_INFINITY, Value::max)
    } else {
        children.fold(Value::INFINITY, Value::min)
    }
}

/// Whether no two leaves of the tree have the same value.
fn distinct_leaves(tree: &RandomTree) -> bool {
    let Params { b, d, .. } = *tree.params();
    let mut leaves: Vec<i64> = (0..u64::from(b).pow(d)).map(|i| tree.leaf(i)).collect();
    leaves.sort_unstable();
    leaves.windows(2).all(|pair| pair[0] != pair[1])
}

/// The number of leaves of the Knuth–Moore minimal tree of a uniform tree, b^⌈d/2⌉ + b^⌊d/2⌋ − 1: the fewest
/// leaves alpha-beta can visit, whatever the ordering and whatever the ties (at a node with an exact value every
/// child is searched, one of them with an exact value; a node that fails needs one child or all children,
/// alternately), and the number it visits when the best move always comes first and the leaves are distinct.
fn knuth_moore(b: u32, d: u32) -> u64 {
    let b = u64::from(b);
    b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1
}

/// Checks the leaf counts of the runs over a uniform random tree: the searches without pruning visit all b^d
/// leaves, those with pruning at least the Knuth–Moore minimum, and, if `distinct`, best-first ones exactly that.
fn check_leaf_counts(params: &Params, runs: &[Run<RandomTree>], distinct: bool) -> Result<(), TestCaseError> {
    let all = u64::from(params.b).pow(params.d);
    let minimal = knuth_moore(params.b, params.d);
    for Run { ordering, algorithm, result } in runs {
        let leaves = result.stats.leaves;
        match algorithm {
            Algorithm::Minimax | Algorithm::Negamax => {
                prop_assert_eq!(leaves, all, "{:?} under {:?} skipped leaves", algorithm, ordering);
            }
            // Every pruning search must see at least the minimal proof tree (counting repeated visits).
            _ => {
                prop_assert!(
                    leaves >= minimal,
                    "{algorithm:?} under {ordering:?} visited {leaves} leaves, below the minimum {minimal}"
                );
                let exact_on_best_first = matches!(
                    algorithm,
                    Algorithm::AlphaBeta | Algorithm::NegamaxAlphaBeta | Algorithm::IterativeDeepening
                );
                if distinct && exact_on_best_first && ordering.kind() == OrderingKind::BestFirst {
                    prop_assert_eq!(leaves, minimal, "best-first {:?} missed the minimal tree", algorithm);
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config(3000, SEED))]

    /// On uniform random trees of every shape, every algorithm under every ordering returns exactly minimax's
    /// value, which is the value computed straight from the leaves; pruning visits between the Knuth–Moore
    /// minimum and all b^d leaves.
    #[test]
    fn random_trees_every_search_returns_minimax(
        params in random_tree_params(),
        preference in vec(0u32..5, 0..=5),
        shuffle in any::<u64>(),
    ) {
        let tree = RandomTree::new(params).unwrap();
        let expected = random_tree_minimax(&tree, 0, 0);
        let orderings = orderings(&tree, &RandomTree::ROOT, [preference], shuffle);
        let runs = check_every_search(&tree, &RandomTree::ROOT, &orderings, expected, 0.0)?;
        check_leaf_counts(&params, &runs, distinct_leaves(&tree))?;
    }
}

proptest! {
    #![proptest_config(common::config(1000, SEED))]

    /// On uniform random trees with distinct leaves, alpha-beta and negamax alpha-beta with the best move first
    /// visit exactly the Knuth–Moore minimal tree, b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves.
    #[test]
    fn best_first_alpha_beta_visits_the_minimal_tree(
        b in 1u32..=5,
        d in 0u32..=6,
        seed in any::<u64>(),
        rng in prop_oneof![Just(Rng::Pcg), Just(Rng::Python)],
    ) {
        // Leaves this wide collide with probability below 10⁻⁴ and are still exact as floats.
        let params = Params { b, d, lo: -(1 << 40), hi: 1 << 40, seed, rng };
        let tree = RandomTree::new(params).unwrap();
        prop_assume!(distinct_leaves(&tree));
        let expected = random_tree_minimax(&tree, 0, 0);
        let mut runs = Vec::new();
        let oracle = Oracle::new(&tree, &RandomTree::ROOT).shared();
        for algorithm in [Algorithm::AlphaBeta, Algorithm::NegamaxAlphaBeta] {
            let result = Searcher::new(&tree, MoveOrdering::best_first(&oracle)).run(algorithm, &RandomTree::ROOT);
            prop_assert_eq!(result.value, expected, "{:?}", algorithm);
            runs.push(Run { ordering: MoveOrdering::best_first(&oracle), algorithm, result });
        }
        check_leaf_counts(&params, &runs, true)?;
    }
}

// Irregular explicit trees with chance nodes.

/// A tree in the nested-list notation of [`Tree`], generated by proptest. Its `Debug` form is the notation, so
/// that a failing case prints as a tree the reader can paste.
#[derive(Clone)]
enum Shape {
    Leaf(i64),
    Decision(Vec<Shape>),
    Chance(Vec<(Probability, Shape)>),
}

/// A chance outcome's probability, 1/2^halvings, written as a fraction (`1/4`) or a decimal (`0.25`).
#[derive(Clone, Copy)]
struct Probability {
    halvings: u32,
    decimal: bool,
}

impl Probability {
    fn value(self) -> f64 {
        0.5f64.powi(self.halvings as i32)
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Leaf(v) => write!(f, "{v}"),
            Shape::Decision(kids) => {
                write!(f, "[")?;
                for (i, kid) in kids.iter().enumerate() {
                    write!(f, "{}{kid:?}", if i > 0 { "," } else { "" })?;
                }
                write!(f, "]")
            }
            Shape::Chance(kids) => {
                write!(f, "{{")?;
                for (i, (p, kid)) in kids.iter().enumerate() {
                    write!(f, "{}", if i > 0 { "," } else { "" })?;
                    if p.decimal {
                        write!(f, "{}:{kid:?}", p.value())?;
                    } else {
                        write!(f, "1/{}:{kid:?}", 1u64 << p.halvings)?;
                    }
                }
                write!(f, "}}")
            }
        }
    }
}

impl Shape {
    /// Expectiminimax of the shape, computed here without the library: decision nodes alternate starting with
    /// `side`, chance nodes take no turn and average their outcomes.
    fn value(&self, side: Player) -> Value {
        match self {
            Shape::Leaf(v) => *v as Value,
            Shape::Decision(kids) => {
                let values = kids.iter().map(|kid| kid.value(side.opponent()));
                match side {
                    Player::Max => values.fold(Value::NEG_INFINITY, Value::max),
                    Player::Min => values.fold(Value::INFINITY, Value::min),
                }
            }
            Shape::Chance(kids) => kids.iter().map(|(p, kid)| p.value() * kid.value(side)).sum(),
        }
    }

    fn has_chance(&self) -> bool {
        match self {
            Shape::Leaf(_) => false,
            Shape::Decision(kids) => kids.iter().any(Shape::has_chance),
            Shape::Chance(_) => true,
        }
    }
}

/// Splits probability 1 into `k` powers of one half that sum to exactly 1: each pick halves one part into two.
fn dyadic_split(k: usize, picks: &[Index]) -> Vec<u32> {
    let mut halvings = vec![0];
    for pick in &picks[..k - 1] {
        let i = pick.index(halvings.len());
        halvings[i] += 1;
        halvings.insert(i + 1, halvings[i]);
    }
    halvings
}

/// Irregular trees up to five levels deep: decision nodes with one to four children, chance nodes with one to
/// four outcomes, leaves from a narrow range (ties) or a wide one; now and then a lone leaf.
fn shape() -> impl Strategy<Value = Shape> {
    let leaf = prop_oneof![-3i64..=3, -1000i64..=1000].prop_map(Shape::Leaf);
    let tree = leaf.clone().prop_recursive(5, 256, 3, |inner| {
        let chance = (vec(inner.clone(), 1..=4), vec(any::<Index>(), 3), vec(any::<bool>(), 4)).prop_map(
            |(kids, picks, decimal)| {
                let halvings = dyadic_split(kids.len(), &picks);
                let probabilities =
                    halvings.into_iter().zip(decimal).map(|(halvings, decimal)| Probability { halvings, decimal });
                Shape::Chance(probabilities.zip(kids).collect())
            },
        );
        prop_oneof![4 => vec(inner, 1..=4).prop_map(Shape::Decision), 1 => chance]
    });
    prop_oneof![1 => leaf, 49 => tree]
}

proptest! {
    #![proptest_config(common::config(3000, SEED))]

    /// On irregular trees with chance nodes and either side at the root, plain expectiminimax returns the value
    /// computed straight from the tree, and every algorithm under every ordering, with or without a memo, returns
    /// that value: exactly without chance nodes, within 10⁻⁹ with them.
    #[test]
    fn irregular_trees_every_search_returns_expectiminimax(
        shape in shape(),
        root in prop_oneof![Just(Player::Max), Just(Player::Min)],
        preference in vec(0u32..4, 0..=4),
        shuffle in any::<u64>(),
    ) {
        let text = format!("{shape:?}");
        let tree = Tree::parse(&text, root).unwrap();
        let expected = shape.value(root);
        let tolerance = if shape.has_chance() { CHANCE_TOLERANCE } else { 0.0 };
        let minimax = Searcher::new(&tree, Natural).run(Algorithm::Minimax, &0).value;
        prop_assert!((minimax - expected).abs() <= tolerance, "minimax returned {}, not {}", minimax, expected);
        let orderings = orderings(&tree, &0, [preference], shuffle);
        check_every_search(&tree, &0, &orderings, expected, tolerance)?;
        check_every_memo_search(&tree, &0, &orderings, expected, tolerance)?;
    }
}

// Tic-tac-toe.

/// Positions reached by up to eight random legal moves from the empty board, stopping early at the end of a game.
fn tictactoe_position() -> impl Strategy<Value = Board> {
    (0usize..=8, vec(any::<Index>(), 8)).prop_map(|(plies, picks)| {
        let mut board = Board::EMPTY;
        let mut moves = Vec::new();
        for pick in &picks[..plies] {
            if !matches!(TicTacToe.node(&board), Node::Decision(_)) {
                break;
            }
            TicTacToe.moves(&board, &mut moves);
            TicTacToe.play(&mut board, moves[pick.index(moves.len())]);
        }
        board
    })
}

proptest! {
    #![proptest_config(common::config(100, SEED))]

    /// On random tic-tac-toe positions, every algorithm under every ordering, with or without a memo, returns
    /// the value of memoized minimax.
    #[test]
    fn tictactoe_every_search_returns_memoized_minimax(board in tictactoe_position(), shuffle in any::<u64>()) {
        let expected = Searcher::new(&TicTacToe, Natural)
            .with_cache(Memo::new())
            .run(Algorithm::Minimax, &board)
            .value;
        let preferences = [tictactoe::CENTER_CORNER_EDGE.to_vec(), tictactoe::EDGE_CORNER_CENTER.to_vec()];
        let orderings = orderings(&TicTacToe, &board, preferences, shuffle);
        check_every_search(&TicTacToe, &board, &orderings, expected, 0.0)?;
        check_every_memo_search(&TicTacToe, &board, &orderings, expected, 0.0)?;
    }
}

// Nim.

/// A line of play longer than the plies of buffers a search is lent at first (128): a heap of 300 taken one at a
/// time first, so that the nodes below ply 128 search with spare plies. The value and best move are Bouton's
/// (the mover takes the whole heap), and a second run, lent enough plies from the start, finds the same with the
/// same counts. (The unit tests of `search::searcher` put every node on a spare block's boundary.)
#[test]
fn a_search_deeper_than_its_first_plies_grows_them() {
    let state = Heaps { heaps: vec![300], to_move: Player::Max };
    let mut searcher = Searcher::new(&Nim, Natural).with_cache(Memo::new());
    let first = searcher.run(Algorithm::AlphaBeta, &state);
    *searcher.cache_mut() = Memo::new();
    let second = searcher.run(Algorithm::AlphaBeta, &state);
    assert_eq!(first.value, 1.0, "the side to move wins a single heap");
    assert_eq!(first.best.map(|take| take.to), Some(0), "by taking it all");
    assert_eq!(first, second, "a run with enough plies from the start searches alike");
    assert!(first.stats.nodes > 300, "the search went down the line of 300: {:?}", first.stats);
}

proptest! {
    #![proptest_config(common::config(300, SEED))]

    /// On random Nim positions, alpha-beta's value follows Bouton's rule (the side to move wins exactly when the
    /// nim-sum is not 0), so does negamax alpha-beta with a memo keyed by the heap multiset alone, and the winning
    /// moves `move_values` reports are exactly those that leave a nim-sum of 0.
    #[test]
    fn nim_follows_boutons_rule(
        heaps in vec(0u32..=4, 1..=4),
        to_move in prop_oneof![Just(Player::Max), Just(Player::Min)],
    ) {
        let state = Heaps { heaps, to_move };
        let mover_value = if Nim::nim_sum(&state) != 0 { 1.0 } else { -1.0 };
        let value = Searcher::new(&Nim, Natural).run(Algorithm::AlphaBeta, &state).value;
        prop_assert_eq!(to_move.view(value), mover_value, "alpha-beta, from the mover's view");
        let impartial = Memo::impartial(|_, state| Nim::impartial_key(state));
        let value = Searcher::new(&Nim, Natural)
            .with_cache(impartial)
            .run(Algorithm::NegamaxAlphaBeta, &state)
            .value;
        prop_assert_eq!(to_move.view(value), mover_value, "negamax alpha-beta with the impartial memo");

        let mut legal = Vec::new();
        Nim.moves(&state, &mut legal);
        let values = move_values(&Nim, &state, Algorithm::AlphaBeta);
        prop_assert_eq!(values.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(), legal, "every legal move, in order");
        for (mv, value) in values {
            let wins = to_move.view(value) == 1.0;
            prop_assert!(wins || to_move.view(value) == -1.0, "{:?} is worth {}", mv, value);
            let leaves_zero = Nim::nim_sum(&Nim.child(&state, mv)) == 0;
            prop_assert_eq!(wins, leaves_zero, "{:?} wins exactly when it leaves nim-sum 0", mv);
        }
    }
}
