//! Playouts per second: khela's UCT on tic-tac-toe, Connect-4 and EinStein (a dice game) from the start, on one thread and on two (root
//! and tree parallelism), and on the same Connect-4 position with the same iteration budget, the peers: the
//! `mcts` crate (0.3, UCT, its evaluator playing out at random) and the `minimax` crate's MonteCarloTreeSearch
//! (0.6). Every search plays out with khela's Connect-4 rules, so the figures compare the searches. Criterion
//! reports each as elements (iterations, one playout each) per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use khela_games::connect4::{Connect4, Position};
use khela_games::einstein::{Einstein, Setup};
use khela_games::tictactoe::{Board, TicTacToe};
use khela_games::{Game, Node, Player};
use khela_mcts::random::{Pcg, Random};
use khela_mcts::{MctsConfig, Search, Uct, root_parallel};
use std::cell::RefCell;
use std::hint::black_box;
use std::sync::LazyLock;

/// The iterations of every search.
const ITERATIONS: u64 = 20_000;

static CONNECT4: LazyLock<Connect4> = LazyLock::new(Connect4::standard);

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

fn khela<G>(c: &mut Criterion, name: &str, game: &G, state: G::State)
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
{
    let mut group = c.benchmark_group(format!("playouts/{name}"));
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(10);
    group.bench_function("khela-uct-1-thread", |b| {
        b.iter(|| {
            let mut search: Search<'_, _, _, Pcg> =
                Search::new(game, state.clone(), Uct::default(), MctsConfig::default());
            black_box(search.run(ITERATIONS))
        })
    });
    let two = pool(2);
    group.bench_function("khela-uct-2-threads-root", |b| {
        b.iter(|| {
            two.install(|| {
                root_parallel::<_, _, Pcg>(game, &state, &Uct::default(), &MctsConfig::default(), 2, ITERATIONS)
            })
        })
    });
    group.bench_function("khela-uct-2-threads-tree", |b| {
        b.iter(|| {
            let mut search: Search<'_, _, _, Pcg> =
                Search::new(game, state.clone(), Uct::default(), MctsConfig::default());
            two.install(|| black_box(search.run_parallel(ITERATIONS, 2)))
        })
    });
    group.finish();
}

/// EinStein würfelt nicht!: the first decision of a seeded setup (the die showing 1); chance nodes in the tree
/// and in every playout.
fn einstein(c: &mut Criterion) {
    let mut start = Setup::random(0).state();
    start.die = 1;
    khela(c, "einstein-start", &Einstein::new(Setup::random(0)), start);
}

fn tictactoe(c: &mut Criterion) {
    khela(c, "tictactoe-start", &TicTacToe, Board::EMPTY);
}

fn connect4(c: &mut Criterion) {
    khela(c, "connect4-start", &*CONNECT4, Position::EMPTY);
    peers(c);
}

/// A uniformly random playout with khela's rules, as khela's own: the moves listed first, the outcome asked
/// only when there are none. +1 if MAX wins, −1 if MIN does, 0 for a draw.
fn random_playout<R: Random>(mut position: Position, rng: &mut R, moves: &mut Vec<u8>) -> i64 {
    loop {
        CONNECT4.moves(&position, moves);
        if moves.is_empty() {
            let Node::Terminal(payoff) = CONNECT4.node(&position) else { unreachable!("Connect-4 has no chance") };
            return payoff.signum() as i64;
        }
        CONNECT4.play(&mut position, moves[rng.below(moves.len())]);
    }
}

/// The `mcts` crate's view of Connect-4.
#[derive(Clone)]
struct PeerState(Position);

impl mcts::GameState for PeerState {
    type Move = u8;
    type Player = Player;
    type MoveList = Vec<u8>;

    fn current_player(&self) -> Player {
        self.0.to_move()
    }

    fn available_moves(&self) -> Vec<u8> {
        let mut moves = Vec::new();
        CONNECT4.moves(&self.0, &mut moves);
        moves
    }

    fn make_move(&mut self, mv: &u8) {
        CONNECT4.play(&mut self.0, *mv);
    }
}

thread_local! {
    static PEER_RNG: RefCell<(Pcg, Vec<u8>)> = RefCell::new((Pcg::from_seed(0), Vec::new()));
}

/// Evaluates a new state by one random playout.
struct PlayoutEvaluator;

impl mcts::Evaluator<PeerSpec> for PlayoutEvaluator {
    type StateEvaluation = i64;

    fn evaluate_new_state(
        &self,
        state: &PeerState,
        moves: &Vec<u8>,
        _: Option<mcts::SearchHandle<PeerSpec>>,
    ) -> (Vec<()>, i64) {
        let value = PEER_RNG.with(|cell| {
            let (rng, buf) = &mut *cell.borrow_mut();
            random_playout(state.0, rng, buf)
        });
        (vec![(); moves.len()], value)
    }

    fn evaluate_existing_state(&self, _: &PeerState, value: &i64, _: mcts::SearchHandle<PeerSpec>) -> i64 {
        *value
    }

    fn interpret_evaluation_for_player(&self, value: &i64, player: &Player) -> i64 {
        match player {
            Player::Max => *value,
            Player::Min => -*value,
        }
    }
}

#[derive(Default)]
struct PeerSpec;

impl mcts::MCTS for PeerSpec {
    type State = PeerState;
    type Eval = PlayoutEvaluator;
    type TreePolicy = mcts::tree_policy::UCTPolicy;
    type NodeData = ();
    type TranspositionTable = ();
    type ExtraThreadData = ();

    fn cycle_behaviour(&self) -> mcts::CycleBehaviour<Self> {
        mcts::CycleBehaviour::Ignore
    }
}

/// The `minimax` crate's view of Connect-4.
struct MinimaxConnect4;

impl minimax::Game for MinimaxConnect4 {
    type S = Position;
    type M = u8;

    /// The moves first, the winner only when there are none, as khela's playouts do.
    fn generate_moves(position: &Position, moves: &mut Vec<u8>) -> Option<minimax::Winner> {
        CONNECT4.moves(position, moves);
        if moves.is_empty() { Self::get_winner(position) } else { None }
    }

    /// A new position (the crate's copy strategy: it has no undo to call for moves made in place).
    fn apply(position: &mut Position, mv: u8) -> Option<Position> {
        Some(CONNECT4.child(position, mv))
    }

    fn get_winner(position: &Position) -> Option<minimax::Winner> {
        match CONNECT4.node(position) {
            Node::Terminal(0.0) => Some(minimax::Winner::Draw),
            Node::Terminal(_) => Some(minimax::Winner::PlayerJustMoved),
            _ => None,
        }
    }
}

fn peers(c: &mut Criterion) {
    let mut group = c.benchmark_group("playouts/connect4-start");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("mcts-0.3-uct-{threads}-thread"), |b| {
            b.iter(|| {
                let mut manager = mcts::MCTSManager::new(
                    PeerState(Position::EMPTY),
                    PeerSpec,
                    PlayoutEvaluator,
                    mcts::tree_policy::UCTPolicy::new(std::f64::consts::SQRT_2),
                    (),
                );
                if threads == 1 {
                    manager.playout_n(ITERATIONS);
                } else {
                    manager.playout_n_parallel(ITERATIONS as u32, threads);
                }
                black_box(manager.best_move())
            })
        });
        group.bench_function(format!("minimax-0.6-mcts-{threads}-thread"), |b| {
            b.iter(|| {
                use minimax::Strategy;
                let options = minimax::MCTSOptions::default().with_num_threads(threads);
                let mut search = minimax::MonteCarloTreeSearch::<MinimaxConnect4>::new(options);
                search.set_max_rollouts(ITERATIONS as u32);
                black_box(search.choose_move(&Position::EMPTY))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, tictactoe, connect4, einstein);
criterion_main!(benches);
