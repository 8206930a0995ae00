//! The search's mechanics: chance nodes, the node budget, tree reuse, determinism, root and tree parallelism,
//! root noise and the temperature choice.

mod common;

use common::OpenStones;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::tree::Tree;
use khela_games::{Game, Player};
use khela_mcts::random::{Pcg, Python, Random};
use khela_mcts::{
    DirichletNoise, EvaluatorPrior, FinalMove, Flat, MctsConfig, MoveStats, Policy, Proof, Puct, Search, Uct, Uniform,
    choose, root_parallel,
};

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

fn run<G: Game, P: Policy<G>>(
    game: &G,
    state: G::State,
    policy: P,
    config: MctsConfig,
    n: u64,
) -> Vec<MoveStats<G::Move>> {
    let mut search: Search<'_, _, _, Pcg> = Search::new(game, state, policy, config);
    assert_eq!(search.run(n).iterations, n);
    search.stats()
}

fn visits<M: Copy>(stats: &[MoveStats<M>]) -> Vec<(M, u64)> {
    stats.iter().map(|s| (s.mv, s.visits)).collect()
}

/// Flat Monte Carlo over two coins for MAX: a 0.9 and a 0.2 chance of winning. Playouts sample the outcomes by
/// their probabilities.
#[test]
fn playouts_sample_chance_outcomes_by_probability() {
    let tree = Tree::parse("[{0.9:1,0.1:-1},{0.2:1,0.8:-1}]", Player::Max).unwrap();
    let stats = run(&tree, 0, Flat { per_move: 20_000 }, MctsConfig::default(), 40_000);
    assert!((stats[0].mean() - 0.9).abs() < 0.01, "{stats:?}");
    assert!((stats[1].mean() - 0.2).abs() < 0.01, "{stats:?}");
}

/// At a chance root, selection draws the outcome by its probability: visits split about 0.7 / 0.3.
#[test]
fn selection_samples_chance_outcomes_by_probability() {
    let tree = Tree::parse("{0.7:[1,-1],0.3:[-1,1]}", Player::Max).unwrap();
    let stats = run(&tree, 0, Uct::default(), MctsConfig::default(), 10_000);
    let share = stats[0].visits as f64 / 10_000.0;
    assert!((share - 0.7).abs() < 0.02, "{stats:?}");
    // MAX picks the winning leaf under each outcome.
    assert!(stats.iter().all(|s| s.mean() > 0.9), "{stats:?}");
}

/// The solver proves a chance node once all its outcomes are proven for one player.
#[test]
fn solver_proves_chance_nodes() {
    let tree = Tree::parse("[{0.5:1,0.5:2},{0.5:-1,0.5:1}]", Player::Max).unwrap();
    let config = MctsConfig { solver: true, ..MctsConfig::default() };
    let mut search: Search<'_, _, _, Pcg> = Search::new(&tree, 0, Uct::default(), config);
    search.run(1000);
    assert_eq!(search.proof(), Some(Player::Max));
    assert_eq!(search.stats()[0].proof, Some(Proof::Win));
    assert_eq!(search.best(), Some(0));
}

/// The tree never grows past the node budget; iterations go on, playing out from where growth stopped.
#[test]
fn the_node_budget_is_never_exceeded() {
    for (policy_all, max_nodes) in [(false, 50), (true, 50), (false, 1)] {
        let config = MctsConfig { max_nodes, ..MctsConfig::default() };
        let summary = if policy_all {
            Search::<'_, _, _, Pcg>::new(&TicTacToe, Board::EMPTY, Puct::new(Uniform), config).run(10_000)
        } else {
            Search::<'_, _, _, Pcg>::new(&TicTacToe, Board::EMPTY, Uct::default(), config).run(10_000)
        };
        assert_eq!(summary.iterations, 10_000);
        assert!(summary.nodes <= max_nodes, "{summary:?}");
        assert!(summary.refused > 0, "{summary:?}");
    }
}

/// After a move, the search keeps the subtree below it: the new root's children carry the visits they had.
#[test]
fn tree_reuse_keeps_the_subtree() {
    let mut search: Search<'_, _, _, Pcg> =
        Search::new(&TicTacToe, Board::EMPTY, Uct::default(), MctsConfig::default());
    search.run(5000);
    let centre = search.stats().into_iter().find(|s| s.mv == 4).unwrap();
    search.advance(4);
    assert_eq!(search.state(), &TicTacToe.child(&Board::EMPTY, 4));
    // The centre's visits: one playout when it was expanded, then one through a child per visit.
    let below: u64 = search.stats().iter().map(|s| s.visits).sum();
    assert_eq!(below, centre.visits - 1);
    // A move the search never expanded starts a fresh tree.
    let mut fresh: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, Board::EMPTY, Uct::default(), MctsConfig::default());
    fresh.advance(0);
    assert!(fresh.stats().is_empty());
    assert_eq!(fresh.run(100).iterations, 100);
}

/// Same seed, same numbers; another seed, other numbers.
#[test]
fn searches_are_deterministic() {
    let config = |seed| MctsConfig { seed, ..MctsConfig::default() };
    let a = run(&TicTacToe, Board::EMPTY, Uct::default(), config(7), 3000);
    assert_eq!(a, run(&TicTacToe, Board::EMPTY, Uct::default(), config(7), 3000));
    assert_ne!(a, run(&TicTacToe, Board::EMPTY, Uct::default(), config(8), 3000));
}

/// Root parallelism gives the same merged statistics on one thread and on two, every iteration counted once.
#[test]
fn root_parallelism_does_not_depend_on_threads() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    let config = MctsConfig { seed: 3, ..MctsConfig::default() };
    let merged = |threads| {
        pool(threads).install(|| root_parallel::<_, _, Python>(&TicTacToe, &board, &Uct::default(), &config, 4, 3001))
    };
    let (one, summary) = merged(1);
    let (two, _) = merged(2);
    assert_eq!(one, two);
    assert_eq!(summary.iterations, 3001);
    assert_eq!(one.iter().map(|s| s.visits).sum::<u64>(), 3001);
    assert_eq!(visits(&one).iter().map(|&(mv, _)| mv).collect::<Vec<_>>(), [1, 2, 3, 5, 6, 7]);
    assert!([1, 3, 5, 7].contains(&choose(&one, FinalMove::MostVisits, &mut Pcg::from_seed(0)).unwrap()));
}

/// Root-parallel flat Monte Carlo shares out each move's playouts: every move still gets exactly its own.
#[test]
fn root_parallel_flat_monte_carlo_plays_every_move() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    let (stats, summary) =
        root_parallel::<_, _, Pcg>(&TicTacToe, &board, &Flat { per_move: 1000 }, &MctsConfig::default(), 3, 6000);
    assert_eq!(summary.iterations, 6000);
    assert_eq!(visits(&stats), [(1, 1000), (2, 1000), (3, 1000), (5, 1000), (6, 1000), (7, 1000)]);
}

/// Tree parallelism on one thread is the serial search; on two it runs exactly the iterations asked and finds a
/// drawing edge of the trap.
#[test]
fn tree_parallelism() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    let config = MctsConfig { seed: 5, ..MctsConfig::default() };
    let serial = run(&TicTacToe, board, Uct::default(), config, 3000);
    let mut one: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
    pool(1).install(|| one.run_parallel(3000, 1));
    assert_eq!(one.stats(), serial);
    let mut two: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), config);
    let summary = pool(2).install(|| two.run_parallel(3000, 2));
    assert_eq!(summary.iterations, 3000);
    assert_eq!(two.stats().iter().map(|s| s.visits).sum::<u64>(), 3000);
    assert!([1, 3, 5, 7].contains(&two.best().unwrap()), "{:?}", two.stats());
}

/// Dirichlet noise at the root changes PUCT's statistics, reproducibly.
#[test]
fn root_noise_is_seeded() {
    let noisy = MctsConfig { noise: Some(DirichletNoise { alpha: 0.3, epsilon: 0.25 }), ..MctsConfig::default() };
    let plain = run(&TicTacToe, Board::EMPTY, Puct::new(Uniform), MctsConfig::default(), 2000);
    let a = run(&TicTacToe, Board::EMPTY, Puct::new(Uniform), noisy, 2000);
    assert_eq!(a, run(&TicTacToe, Board::EMPTY, Puct::new(Uniform), noisy, 2000));
    assert_ne!(visits(&a), visits(&plain));
}

/// A temperature of 1 samples moves in proportion to their visits; a tiny one takes the most visited.
#[test]
fn temperature_sampling_follows_visits() {
    let stats = [(0u8, 100), (1, 300), (2, 600)].map(|(mv, visits)| MoveStats { mv, visits, wins: 0.0, proof: None });
    let mut rng = Pcg::from_seed(11);
    let mut counts = [0u32; 3];
    for _ in 0..10_000 {
        counts[usize::from(choose(&stats, FinalMove::Temperature(1.0), &mut rng).unwrap())] += 1;
    }
    for (count, expected) in counts.iter().zip([1000.0, 3000.0, 6000.0]) {
        assert!((f64::from(*count) - expected).abs() < 200.0, "{counts:?}");
    }
    assert_eq!(choose(&stats, FinalMove::Temperature(0.01), &mut rng), Some(2));
    assert_eq!(choose(&stats, FinalMove::Temperature(0.0), &mut rng), Some(2));
}

/// PUCT with an evaluator's prior finds the immediate win and never loses the trap's draw.
#[test]
fn puct_with_an_evaluator_prior() {
    let policy = Puct::new(EvaluatorPrior { evaluator: OpenStones, temperature: 0.1 });
    let win = TicTacToe::parse("XX.OO....").unwrap();
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, win, policy, MctsConfig::default());
    search.run(500);
    assert_eq!(search.best(), Some(2));
    let trap = TicTacToe::parse("X...O...X").unwrap();
    let mut search: Search<'_, _, _, Pcg> = Search::new(&TicTacToe, trap, policy, MctsConfig::default());
    search.run(5000);
    assert!([1, 3, 5, 7].contains(&search.best().unwrap()), "{:?}", search.stats());
}
