//! Positions a second through the network, in one run: raw forward passes of a batch (1 to 64 positions),
//! self-play's leaves (batched by the games in flight, with the same cap on each thread) on one thread and on
//! two, and a training step — on Connect-4 with the network `zero train` is run with here (2 blocks of 32
//! channels). Criterion reports each as elements (positions) per second; self-play's positions are the leaves it
//! values, counted once beforehand (the same seed plays the same games), and the mean batch it sent is printed.
//!
//! Run it as the command line runs a network, with candle's thread counts set (`RAYON_NUM_THREADS=2
//! CANDLE_NUM_THREADS=1 cargo bench -p khela-zero`): without the first candle reads /proc at every matrix
//! product, without the second its spinning threads compete with self-play's, and the figures measure that.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use khela_games::Actions;
use khela_games::connect4::{Connect4, Position};
use khela_mcts::DirichletNoise;
use khela_zero::selfplay::{Schedule, Settings, play};
use khela_zero::{Architecture, Encode, Model, Net, Trainer};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

/// Games of self-play a measurement.
const GAMES: usize = 32;

/// The cap on games in flight on each thread, the same with one thread and with two: one thread starts a game as
/// another ends and keeps 16 in flight, two threads start all theirs at once and their batches thin out as games
/// end. (`zero train` shares its games among the threads, at most 64 in flight on each.)
const IN_FLIGHT: usize = GAMES / 2;

/// A network that counts the positions and the forward passes it is asked for.
struct Counting<'a> {
    net: &'a Net,
    positions: AtomicU64,
    passes: AtomicU64,
}

impl Model<Connect4> for Counting<'_> {
    fn evaluate(&self, game: &Connect4, input: &[f32], batch: usize, logits: &mut Vec<f32>, values: &mut Vec<f32>) {
        self.positions.fetch_add(batch as u64, Ordering::Relaxed);
        self.passes.fetch_add(1, Ordering::Relaxed);
        self.net.evaluate(game, input, batch, logits, values);
    }
}

fn throughput(c: &mut Criterion) {
    let game = Connect4::standard();
    let net = Net::new(Architecture::for_game(&game, 2, 32), 1).unwrap();
    let len = game.shape().len();
    let mut group = c.benchmark_group("zero/connect4-2x32");
    group.sample_size(10);
    for batch in [1, 8, 32, 64] {
        let input = vec![0.5f32; batch * len];
        group.throughput(Throughput::Elements(batch as u64));
        group.bench_function(format!("forward/batch-{batch}"), |b| b.iter(|| black_box(net.forward(&input, batch))));
    }
    let settings = Settings {
        simulations: 32,
        noise: DirichletNoise { alpha: 0.5, epsilon: 0.25 },
        in_flight: IN_FLIGHT,
        random_plies: 4,
        ..Settings::default()
    };
    for threads in [1, 2] {
        let schedule = Schedule { games: GAMES, seed: 7, threads };
        let counting = Counting { net: &net, positions: AtomicU64::new(0), passes: AtomicU64::new(0) };
        play(&game, &Position::EMPTY, &counting, &settings, schedule, &|| {});
        let (positions, passes) = (counting.positions.into_inner(), counting.passes.into_inner());
        eprintln!(
            "self-play, {threads} thread(s): {positions} positions in {passes} passes, {:.1} a pass",
            positions as f64 / passes as f64
        );
        group.throughput(Throughput::Elements(positions));
        group.bench_function(format!("selfplay/threads-{threads}"), |b| {
            b.iter(|| black_box(play(&game, &Position::EMPTY, &net, &settings, schedule, &|| {})))
        });
    }
    let batch = 128;
    let input = vec![0.5f32; batch * len];
    let policy = vec![1.0 / game.actions() as f32; batch * game.actions()];
    let value = vec![0.0f32; batch];
    let mut trainer = Trainer::new(Net::new(Architecture::for_game(&game, 2, 32), 1).unwrap(), 0.002, 1e-4).unwrap();
    group.throughput(Throughput::Elements(batch as u64));
    group.bench_function("train/batch-128", |b| b.iter(|| black_box(trainer.step(&input, &policy, &value, batch))));
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
