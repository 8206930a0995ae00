//! Criterion benchmarks of the search loop: alpha-beta on tic-tac-toe and on a random tree, perft on
//! Connect-4, and the whole End-Easy Connect-4 benchmark set solved with a transposition table (every position
//! checked against its published score before timing).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use khela_exact::count::{perft, quiet};
use khela_exact::{Algorithm, MoveOrdering, Natural, Searcher};
use khela_games::connect4::{Connect4, Position};
use khela_games::implicit::{ImplicitTree, TreeModel};
use khela_games::random_tree::{Params, RandomTree};
use khela_games::rng::Rng;
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node};
use khela_testkit::connect4::{Scored, Set};
use khela_tt::{Replacement, Table};
use std::hint::black_box;

fn centre_first() -> MoveOrdering<Connect4> {
    MoveOrdering::preference(vec![3, 2, 4, 1, 5, 0, 6])
}

fn tictactoe(c: &mut Criterion) {
    c.bench_function("alphabeta/tictactoe-empty-natural", |b| {
        b.iter(|| Searcher::new(&TicTacToe, Natural).run(Algorithm::AlphaBeta, black_box(&Board::EMPTY)))
    });
}

fn random_tree(c: &mut Criterion) {
    let tree = RandomTree::new(Params { b: 4, d: 8, lo: 0, hi: 99, seed: 1, rng: Rng::Python }).unwrap();
    c.bench_function("alphabeta/random-tree-b4-d8-python", |b| {
        b.iter(|| Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, black_box(&RandomTree::ROOT)))
    });
}

/// The core loop's throughput: alpha-beta (natural order) on implicit iid trees, in nodes per second.
fn implicit_trees(c: &mut Criterion) {
    let mut group = c.benchmark_group("alphabeta-implicit-iid");
    for (b, d) in [(4, 10), (8, 7), (16, 6)] {
        let tree = ImplicitTree::hashed(b, d, 1, TreeModel::Iid { lo: 0, hi: (1 << 31) - 1 }).unwrap();
        let nodes = Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, &ImplicitTree::ROOT).stats.nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("b{b}-d{d}"), |bench| {
            bench.iter(|| Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, black_box(&ImplicitTree::ROOT)))
        });
    }
    group.finish();
}

fn connect4_perft(c: &mut Criterion) {
    let game = Connect4::standard();
    c.bench_function("perft/connect4-ply8", |b| b.iter(|| perft(&game, black_box(&Position::EMPTY), 8, &quiet)));
}

/// Solves every position of End-Easy with alpha-beta and a 16 MiB two-tier table, checking each against the
/// published score; returns the nodes searched.
fn solve_set(game: &Connect4, set: &[(Position, f64)]) -> u64 {
    let mut nodes = 0;
    let mut searcher = Searcher::new(game, centre_first()).with_cache(Table::with_mib(16, Replacement::TwoTier));
    for (position, expected) in set {
        let result = searcher.run(Algorithm::AlphaBeta, position);
        assert_eq!(result.value, *expected, "End-Easy position {position:?}");
        nodes += result.stats.nodes;
    }
    nodes
}

fn connect4_end_easy(c: &mut Criterion) {
    let scored = match Set::EndEasy.read() {
        Ok(scored) => scored,
        Err(err) => {
            eprintln!("NOTE: the End-Easy benchmark is skipped: {err}");
            return;
        }
    };
    let game = Connect4::standard();
    let set: Vec<(Position, f64)> = scored
        .iter()
        .map(|Scored { moves, score }| {
            let position = game.parse(moves).expect("a benchmark position parses");
            let Node::Decision(mover) = game.node(&position) else { panic!("{moves} is over") };
            (position, mover.view(f64::from(*score)))
        })
        .collect();
    let started = std::time::Instant::now();
    let nodes = solve_set(&game, &set);
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "End-Easy: all {} positions agree with the published scores; {nodes} nodes, {:.1} µs per position, \
         {:.3e} nodes per second",
        set.len(),
        seconds * 1e6 / set.len() as f64,
        nodes as f64 / seconds
    );
    let mut group = c.benchmark_group("connect4");
    group.sample_size(10);
    group.bench_function("end-easy-1000-alphabeta-tt", |b| b.iter(|| solve_set(&game, black_box(&set))));
    group.finish();
}

criterion_group!(benches, tictactoe, random_tree, implicit_trees, connect4_perft, connect4_end_easy);
criterion_main!(benches);
