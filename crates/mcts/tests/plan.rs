//! `plan::run` searches exactly as the harness's own recipe did before the dispatch moved into the library:
//! `root_parallel` or `Search::run_parallel` with the policy and generator written out by hand, and the move
//! chosen with a fresh generator seeded by the config's seed. Every statistic must be bit-identical.

mod common;

use common::OpenStones;
use khela_games::connect4::Connect4;
use khela_games::rng::Rng;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Evaluator, Game, NoEvaluator};
use khela_mcts::random::{Pcg, Python, Random};
use khela_mcts::{
    EvaluatorPrior, FinalMove, Flat, MctsConfig, MctsPlan, MctsResult, Meter, MoveStats, Parallelism, Policy,
    PolicyKind, PriorKind, Puct, Search, Uct, Uniform, choose, plan, root_parallel,
};

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

/// The harness's recipe (bench-suite's `mcts` command before `plan::run`), for one policy and generator.
fn by_hand<G, P, R>(game: &G, state: G::State, policy: P, config: MctsConfig, plan: &MctsPlan) -> MctsResult<G::Move>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    P: Policy<G> + Clone + Send + Sync,
    R: Random + Send,
{
    let mut moves = Vec::new();
    game.moves(&state, &mut moves);
    let iterations = match plan.policy {
        PolicyKind::Flat => plan.iterations * moves.len() as u64,
        _ => plan.iterations,
    };
    let threads = plan.threads;
    pool(threads).install(|| {
        let (stats, summary, mut rng) = match plan.parallelism {
            Parallelism::Root => {
                let (stats, summary) = root_parallel::<G, P, R>(game, &state, &policy, &config, threads, iterations);
                (stats, summary, R::from_seed(config.seed))
            }
            Parallelism::Tree => {
                let mut search: Search<'_, G, P, R> = Search::new(game, state, policy, config);
                let summary = search.run_parallel(iterations, threads);
                (search.stats(), summary, R::from_seed(config.seed))
            }
        };
        let best = choose(&stats, config.choice, &mut rng);
        MctsResult { stats, summary, best }
    })
}

/// The harness's config: the seed, the solver, its node budget, and the policy's usual choice.
fn config(plan: &MctsPlan, seed: u64, solver: bool) -> MctsConfig {
    let choice = if let PolicyKind::Flat = plan.policy { FinalMove::BestMean } else { FinalMove::MostVisits };
    assert_eq!(choice, plan.policy.choice());
    MctsConfig { seed, solver, max_nodes: 1 << 22, choice, ..MctsConfig::default() }
}

/// `plan::run` on a pool of the plan's threads.
fn planned<G, E>(
    game: &G,
    state: G::State,
    plan: &MctsPlan,
    config: MctsConfig,
    prior: Option<EvaluatorPrior<E>>,
) -> MctsResult<G::Move>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync,
{
    pool(plan.threads).install(|| plan::run(game, state, plan, config, prior)).unwrap()
}

/// Asserts that the two results are identical and not empty.
fn same<M: PartialEq + std::fmt::Debug>(planned: MctsResult<M>, by_hand: MctsResult<M>, iterations: u64) {
    assert!(!by_hand.stats.is_empty() && by_hand.best.is_some(), "{by_hand:?}");
    assert_eq!(by_hand.summary.iterations, iterations);
    assert_eq!(planned.stats.len(), by_hand.stats.len());
    for (a, b) in planned.stats.iter().zip(&by_hand.stats) {
        assert_eq!((&a.mv, a.visits, a.wins.to_bits(), a.proof), (&b.mv, b.visits, b.wins.to_bits(), b.proof));
    }
    assert_eq!(planned, by_hand);
}

fn plan(policy: PolicyKind, prior: Option<PriorKind>, rng: Rng, parallelism: Parallelism, threads: usize) -> MctsPlan {
    MctsPlan { policy, prior, rng, parallelism, threads, iterations: 0 }
}

/// No evaluator, for the searches without the evaluator prior.
type Unused = EvaluatorPrior<NoEvaluator>;

#[test]
fn uct_pcg_root_on_one_and_two_threads() {
    let game = Connect4::standard();
    let state = game.parse("4453").unwrap();
    for threads in [1, 2] {
        let plan = MctsPlan { iterations: 3000, ..plan(PolicyKind::Uct, None, Rng::Pcg, Parallelism::Root, threads) };
        let config = config(&plan, 7, false);
        let expected = by_hand::<_, _, Pcg>(&game, state, Uct::default(), config, &plan);
        same(planned(&game, state, &plan, config, None::<Unused>), expected, 3000);
    }
}

#[test]
fn flat_python_root_on_one_and_two_threads() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    for threads in [1, 2] {
        let plan =
            MctsPlan { iterations: 500, ..plan(PolicyKind::Flat, None, Rng::Python, Parallelism::Root, threads) };
        let config = config(&plan, 1, false);
        let expected = by_hand::<_, _, Python>(&TicTacToe, board, Flat { per_move: 500 }, config, &plan);
        same(planned(&TicTacToe, board, &plan, config, None::<Unused>), expected, 6 * 500);
        assert_eq!(plan.total_iterations(6), 3000);
    }
}

#[test]
fn puct_uniform_pcg_root_and_tree() {
    let game = Connect4::standard();
    let state = game.parse("44").unwrap();
    for (prior, parallelism, threads) in
        [(None, Parallelism::Root, 2), (Some(PriorKind::Uniform), Parallelism::Root, 1), (None, Parallelism::Tree, 1)]
    {
        let plan = MctsPlan { iterations: 2000, ..plan(PolicyKind::Puct, prior, Rng::Pcg, parallelism, threads) };
        let config = config(&plan, 3, false);
        let expected = by_hand::<_, _, Pcg>(&game, state, Puct::new(Uniform), config, &plan);
        same(planned(&game, state, &plan, config, None::<Unused>), expected, 2000);
    }
}

#[test]
fn puct_evaluator_python_root_with_the_solver() {
    let board = TicTacToe::parse("X........").unwrap();
    let prior = EvaluatorPrior { evaluator: OpenStones, temperature: 0.25 };
    let plan = MctsPlan {
        iterations: 4000,
        ..plan(PolicyKind::Puct, Some(PriorKind::Evaluator), Rng::Python, Parallelism::Root, 2)
    };
    let config = config(&plan, 11, true);
    let expected = by_hand::<_, _, Python>(&TicTacToe, board, Puct::new(prior), config, &plan);
    let iterations = expected.summary.iterations;
    same(planned(&TicTacToe, board, &plan, config, Some(prior)), expected, iterations);
}

#[test]
fn uct_python_tree_on_one_thread() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    let plan = MctsPlan { iterations: 3000, ..plan(PolicyKind::Uct, None, Rng::Python, Parallelism::Tree, 1) };
    let config = config(&plan, 1, false);
    let expected = by_hand::<_, _, Python>(&TicTacToe, board, Uct::default(), config, &plan);
    same(planned(&TicTacToe, board, &plan, config, None::<Unused>), expected, 3000);
}

/// Two threads sharing a tree vary in what they find, but not in how much they run.
#[test]
fn uct_pcg_tree_on_two_threads_runs_every_iteration() {
    let game = Connect4::standard();
    let plan = MctsPlan { iterations: 3000, ..plan(PolicyKind::Uct, None, Rng::Pcg, Parallelism::Tree, 2) };
    let found = planned(&game, game.parse("").unwrap(), &plan, config(&plan, 5, false), None::<Unused>);
    assert_eq!(found.summary.iterations, 3000);
    assert_eq!(found.stats.iter().map(|s| s.visits).sum::<u64>(), 3000);
    assert!(found.best.is_some());
}

#[test]
fn refusals_name_the_bad_value() {
    let board = Board::EMPTY;
    let uct =
        MctsPlan { iterations: 10, ..plan(PolicyKind::Uct, Some(PriorKind::Uniform), Rng::Pcg, Parallelism::Root, 1) };
    let err = plan::run(&TicTacToe, board, &uct, MctsConfig::default(), None::<Unused>).unwrap_err();
    assert_eq!(err.to_string(), "prior uniform is for the puct policy, not uct");
    let puct = MctsPlan { policy: PolicyKind::Puct, prior: Some(PriorKind::Evaluator), ..uct };
    let err = plan::run(&TicTacToe, board, &puct, MctsConfig::default(), None::<Unused>).unwrap_err();
    assert_eq!(err, khela_mcts::PlanError::NoEvaluator);
    let flat = MctsPlan { policy: PolicyKind::Flat, prior: None, iterations: u64::from(u32::MAX) + 1, ..uct };
    let err = plan::run(&TicTacToe, board, &flat, MctsConfig::default(), None::<Unused>).unwrap_err();
    assert!(err.to_string().contains("4294967296 playouts after each move"), "{err}");
}

#[test]
fn a_finished_game_searches_nothing() {
    let over = TicTacToe::parse("XXXOO....").unwrap();
    for policy in [PolicyKind::Flat, PolicyKind::Uct, PolicyKind::Puct] {
        let plan = MctsPlan { iterations: 100, ..plan(policy, None, Rng::Pcg, Parallelism::Root, 1) };
        let found: MctsResult<u8> = planned(&TicTacToe, over, &plan, MctsConfig::default(), None::<Unused>);
        assert_eq!((found.stats, found.summary.iterations, found.best), (Vec::<MoveStats<u8>>::new(), 0, None));
    }
}

/// `run_metered` finds what `run` finds, to the bit, and its meter ends at the iterations run: root and tree
/// parallelism, one and two threads, and a solver that stops early. A stopped meter stops every search it
/// watches after the iteration under way: one an independent tree.
#[test]
fn a_metered_run_is_the_run_and_counts_every_iteration() {
    let board = TicTacToe::parse("X...O...X").unwrap();
    for (policy, parallelism, threads, solver) in [
        (PolicyKind::Uct, Parallelism::Root, 2, false),
        (PolicyKind::Flat, Parallelism::Root, 1, false),
        (PolicyKind::Uct, Parallelism::Tree, 1, true),
        (PolicyKind::Puct, Parallelism::Tree, 2, false),
    ] {
        let plan = MctsPlan { iterations: 700, ..plan(policy, None, Rng::Pcg, parallelism, threads) };
        let config = config(&plan, 2, solver);
        let meter = Meter::new();
        let counted = pool(threads)
            .install(|| plan::run_metered(&TicTacToe, board, &plan, config, None::<Unused>, &meter))
            .unwrap();
        assert_eq!(meter.iterations(), counted.summary.iterations, "{plan:?}");
        let stopped = Meter::new();
        stopped.stop();
        let cut = pool(threads)
            .install(|| plan::run_metered(&TicTacToe, board, &plan, config, None::<Unused>, &stopped))
            .unwrap();
        // One iteration a search at most: root parallelism's trees (flat Monte Carlo's, one a move) or the
        // threads sharing one tree.
        assert!(cut.summary.iterations <= 9, "{plan:?}: {} iterations after the stop", cut.summary.iterations);
        if threads == 1 || parallelism == Parallelism::Root {
            same(
                planned(&TicTacToe, board, &plan, config, None::<Unused>),
                counted.clone(),
                counted.summary.iterations,
            );
        }
    }
}
