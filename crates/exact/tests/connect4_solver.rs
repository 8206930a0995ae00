//! The Connect-4 solver ([`khela_exact::connect4`]) against the truth: the published scores of Pons' benchmark
//! sets (`../shared/connect4/`; the first positions of each, strong and weak, and their mirror images), and
//! plain alpha-beta without the solver's knowledge on seeded random positions of the standard board and on
//! small boards from their start and on positions that are their own mirror image (whose trees the solver searches
//! with a position and its image sharing entries) — where a pruning rule wrong by one stone would show; on one
//! thread and on two (which must find the same scores, called from outside the solver's threads or from within).
//!
//! Where the sets are absent, as in a fresh clone, their test is reported as ignored, with a note saying why
//! (this file runs its own harness, so that it can decide that when it runs).

use khela_exact::connect4::{Knowledge, Solver};
use khela_exact::{Algorithm, Foreknown, Natural, Orderer, Searcher};
use khela_games::conformance::random_lines;
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Node, Player};
use khela_testkit::connect4::Set;
use khela_tt::{Replacement, Table};
use libtest_mimic::{Arguments, Trial};

/// The positions checked of each set, strong and weak, in set order (the harder sets fewer: this is `cargo
/// test`; all 6,000 run in `solve --set`).
const CHECKED: [(Set, usize); 6] = [
    (Set::EndEasy, 300),
    (Set::MiddleEasy, 200),
    (Set::MiddleMedium, 8),
    (Set::BeginEasy, 100),
    (Set::BeginMedium, 3),
    (Set::BeginHard, 0),
];

fn main() {
    let absent = Set::EndEasy.missing_for("the benchmark sets' test is ignored");
    let trials = vec![
        Trial::test("the_benchmark_sets_published_scores_strong_weak_and_mirrored", || {
            benchmark_sets();
            Ok(())
        })
        .with_ignored_flag(absent),
        Trial::test("the_solver_agrees_with_plain_alpha_beta_on_random_positions", || {
            random_positions();
            Ok(())
        }),
        Trial::test("the_solver_agrees_with_plain_alpha_beta_on_small_boards", || {
            small_boards();
            Ok(())
        }),
        Trial::test("the_solver_agrees_with_plain_alpha_beta_on_symmetric_positions", || {
            symmetric_positions();
            Ok(())
        }),
        Trial::test("the_knowledge_lists_the_moves_it_would_filter", || {
            listed_or_filtered();
            Ok(())
        }),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

/// The columns of a move string reversed: the mirror image, which has the same score.
fn mirrored(moves: &str, width: u32) -> String {
    moves.chars().map(|c| char::from_digit(width + 1 - c.to_digit(10).unwrap(), 10).unwrap()).collect()
}

/// The positions of each set checked on two threads too (every position, however few its empty cells).
const CHECKED_ON_TWO: [(Set, usize); 6] = [
    (Set::EndEasy, 60),
    (Set::MiddleEasy, 40),
    (Set::MiddleMedium, 4),
    (Set::BeginEasy, 40),
    (Set::BeginMedium, 2),
    (Set::BeginHard, 0),
];

fn benchmark_sets() {
    let game = Connect4::standard();
    let mut one = Solver::new(&game, 16).unwrap();
    let mut two = Solver::new(&game, 16).unwrap().on(two_threads()).shared_from(0);
    for ((set, checked), (_, on_two)) in CHECKED.into_iter().zip(CHECKED_ON_TWO) {
        let positions = set.read().unwrap_or_else(|err| panic!("{err}"));
        for (i, scored) in positions.iter().take(checked).enumerate() {
            for moves in [scored.moves.clone(), mirrored(&scored.moves, 7)] {
                let p = game.parse(&moves).unwrap();
                let solvers = if i < on_two { [Some(&mut one), Some(&mut two)] } else { [Some(&mut one), None] };
                for (threads, solver) in solvers.into_iter().flatten().enumerate() {
                    let what = format!("{set} {moves} on {} threads", threads + 1);
                    solver.reset();
                    let strong = solver.solve(&p, false).unwrap();
                    assert_eq!(strong.score, scored.score, "{what}: strong");
                    solver.reset();
                    let weak = solver.solve(&p, true).unwrap();
                    assert_eq!(weak.score, scored.score.signum(), "{what}: weak");
                }
            }
        }
    }
}

/// The exact score for the side to move by plain alpha-beta with a table and nothing of the solver's.
fn plain(game: &Connect4, p: &Position) -> i32 {
    let Node::Decision(mover) = game.node(p) else { panic!("the game is over") };
    let table = Table::with_mib(4, Replacement::TwoTier);
    let value = Searcher::new(game, Natural).with_cache(table).run(Algorithm::AlphaBeta, p).value;
    mover.view(value) as i32
}

/// The solver's strong score, and every move's, against plain alpha-beta's; the weak ones by sign.
fn agrees(game: &Connect4, solver: &mut Solver, p: &Position, what: &str) {
    let truth = plain(game, p);
    assert_eq!(solver.solve(p, false).unwrap().score, truth, "{what}: strong");
    assert_eq!(solver.solve(p, true).unwrap().score, truth.signum(), "{what}: weak");
    let moves = solver.analyse(p, false).unwrap();
    let best = moves.iter().map(|(_, s)| s.score).max().unwrap();
    assert_eq!(best, truth, "{what}: the best move's score");
    for (col, solution) in moves {
        let child = game.child(p, col);
        let score = match game.node(&child) {
            Node::Decision(_) => -plain(game, &child),
            Node::Terminal(v) => v.abs() as i32,
            Node::Chance => unreachable!(),
        };
        assert_eq!(solution.score, score, "{what}: column {}", col + 1);
    }
}

fn random_positions() {
    let game = Connect4::standard();
    let mut one = Solver::new(&game, 4).unwrap();
    let mut two = Solver::new(&game, 4).unwrap().on(two_threads()).shared_from(0);
    // Work given to a solver's own threads runs on one of them (on the calling thread for a solver on one).
    assert!(two.in_pool(|_| rayon::current_thread_index().is_some()), "on the pool");
    assert!(one.in_pool(|_| rayon::current_thread_index().is_none()), "on the calling thread");
    let mut decided = [0; 3];
    for (i, (_, p)) in random_lines(&game, &Position::EMPTY, 60, 26..40, 11).into_iter().enumerate() {
        if let Node::Decision(_) = game.node(&p) {
            agrees(&game, &mut one, &p, &format!("{p:?}"));
            // Every other position from within the solver's own threads (`Solver::in_pool`).
            if i % 2 == 0 {
                agrees(&game, &mut two, &p, &format!("{p:?} on 2 threads"));
            } else {
                two.in_pool(|two| agrees(&game, two, &p, &format!("{p:?} on 2 threads, from within")));
            }
            decided[(plain(&game, &p).signum() + 1) as usize] += 1;
        }
    }
    assert!(decided.iter().all(|&n| n > 0), "losses, draws and wins all met: {decided:?}");
}

/// The solver's knowledge behind an ordering that passes on its order and its knowledge but not its shortcuts
/// (the defaults of `Orderer::lists_moves` and `Orderer::bounded_moves_go_on`).
struct Plainly(Knowledge);

impl Orderer<Connect4> for Plainly {
    fn order(&mut self, game: &Connect4, p: &Position, player: Player, ply: usize, moves: &mut [u8]) {
        self.0.order(game, p, player, ply, moves);
    }

    fn prunes(&self) -> bool {
        true
    }

    fn prune(&mut self, g: &Connect4, p: &Position, pl: Player, ply: usize, d: u32, moves: &mut Vec<u8>) -> Foreknown {
        self.0.prune(g, p, pl, ply, d, moves)
    }
}

/// The knowledge lists the moves it keeps, where the loop lets it, and takes the children of a node it bounds
/// for the opponent's decision nodes: the same values and the same counters as filtering the game's list and
/// asking the game, on 40 random positions of 24 to 32 stones.
fn listed_or_filtered() {
    let game = Connect4::standard();
    assert!(Knowledge.lists_moves() && Knowledge.bounded_moves_go_on());
    for (_, p) in random_lines(&game, &Position::EMPTY, 40, 24..33, 5) {
        if let Node::Decision(_) = game.node(&p) {
            let table = || Table::with_mib(4, Replacement::TwoTier);
            let fast = Searcher::new(&game, Knowledge).with_cache(table()).run(Algorithm::NegamaxAlphaBeta, &p);
            let plain =
                Searcher::new(&game, Plainly(Knowledge)).with_cache(table()).run(Algorithm::NegamaxAlphaBeta, &p);
            assert_eq!((fast.value, fast.stats, fast.best), (plain.value, plain.stats, plain.best), "{p:?}");
            let truth = Searcher::new(&game, Natural).with_cache(table()).run(Algorithm::AlphaBeta, &p).value;
            assert_eq!(fast.value, truth, "{p:?}: plain alpha-beta");
        }
    }
}

/// Small boards, from their start where plain alpha-beta solves it in moments, else from a few plies in.
fn small_boards() {
    for (width, height, plies) in [(4, 4, 0), (5, 3, 0), (3, 5, 0), (5, 4, 6), (4, 5, 6), (6, 3, 6), (8, 3, 9)] {
        let game = Connect4::new(width, height).unwrap();
        let mut one = Solver::new(&game, 4).unwrap();
        let mut two = Solver::new(&game, 4).unwrap().on(two_threads()).shared_from(0);
        if plies == 0 {
            agrees(&game, &mut one, &Position::EMPTY, &format!("{width}x{height} empty"));
            agrees(&game, &mut two, &Position::EMPTY, &format!("{width}x{height} empty on 2 threads"));
        }
        for (_, p) in random_lines(&game, &Position::EMPTY, 20, plies.max(2)..plies + 6, 3) {
            if let Node::Decision(_) = game.node(&p) {
                agrees(&game, &mut one, &p, &format!("{width}x{height} {p:?}"));
                agrees(&game, &mut two, &p, &format!("{width}x{height} {p:?} on 2 threads"));
            }
        }
    }
}

/// Positions that are their own mirror image, on small boards: each side plays a column, then each the image
/// of its column (seeded random columns), kept while the board stays symmetric.
fn symmetric_positions() {
    let mut checked = 0;
    let mut seed = 11u64;
    let mut column = |width: u32| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) % u64::from(width)) as u8
    };
    for (width, height) in [(5, 4), (4, 5), (7, 3), (3, 6)] {
        let game = Connect4::new(width, height).unwrap();
        let mut one = Solver::new(&game, 4).unwrap();
        let mut two = Solver::new(&game, 4).unwrap().on(two_threads()).shared_from(0);
        let image = |col: u8| width as u8 - 1 - col;
        for _ in 0..12 {
            let mut p = Position::EMPTY;
            for _ in 0..3 {
                let (a, b) = (column(width), column(width));
                let mut next = p;
                for col in [a, b, image(a), image(b)] {
                    if matches!(game.node(&next), Node::Decision(_)) && game.can_play(&next, col) {
                        game.play_col(&mut next, col);
                    }
                }
                if next.moves_played() != p.moves_played() + 4 || game.mirrored(&next) != next {
                    break;
                }
                p = next;
                if let Node::Decision(_) = game.node(&p) {
                    agrees(&game, &mut one, &p, &format!("{width}x{height} {p:?}"));
                    agrees(&game, &mut two, &p, &format!("{width}x{height} {p:?} on 2 threads"));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20, "{checked} symmetric positions");
}

/// A pool of two threads for the solver.
fn two_threads() -> std::sync::Arc<rayon::ThreadPool> {
    std::sync::Arc::new(rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap())
}
