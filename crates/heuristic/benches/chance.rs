//! Search under chance on a real dice game: expectiminimax, Star1 and Star2 to depth 3 with the race evaluator
//! over 24 EinStein positions from random games, in nodes per second, on one thread and with the positions
//! split over two (each search itself runs on one).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use khela_exact::{Algorithm, Natural, SearchConfig};
use khela_games::Evaluator;
use khela_games::conformance::random_lines;
use khela_games::einstein::{Einstein, Setup, State};
use khela_heuristic::Heuristic;
use khela_heuristic::einstein::Race;
use rayon::prelude::*;
use std::hint::black_box;

/// The depth in decision plies.
const DEPTH: u32 = 3;

/// The nodes of searching every position with `algorithm`.
fn search_all(game: &Einstein, positions: &[State], algorithm: Algorithm) -> u64 {
    let heuristic = Heuristic::new(game, &Race);
    let config = SearchConfig { algorithm, depth: DEPTH, bounds: Race.value_range(), ..SearchConfig::default() };
    positions
        .par_iter()
        .map(|s| {
            config.searcher(&heuristic, Natural, heuristic.horizon()).run_to_depth(algorithm, s, DEPTH).stats.nodes
        })
        .sum()
}

fn chance(c: &mut Criterion) {
    let game = Einstein::new(Setup::random(0));
    let positions: Vec<State> = (0..4u64)
        .flat_map(|seed| random_lines(&game, &Setup::random(seed).state(), 6, 0..20, seed))
        .map(|(_, s)| s)
        .collect();
    let mut group = c.benchmark_group("einstein-depth3");
    group.sample_size(10);
    for algorithm in [Algorithm::Minimax, Algorithm::Star1, Algorithm::Star2] {
        let name = if algorithm == Algorithm::Minimax { "expectiminimax".to_string() } else { algorithm.to_string() };
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let nodes = pool.install(|| search_all(&game, &positions, algorithm));
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{name}-{threads}-thread"), |b| {
                b.iter(|| pool.install(|| black_box(search_all(&game, &positions, algorithm))))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, chance);
criterion_main!(benches);
