//! Side by side with a peer, the `minimax` crate, on Connect-4 with the threat evaluator: the same positions,
//! depths and evaluator on both sides, single-threaded, in two comparisons.
//!
//! - `alphabeta`: plain depth-limited negamax alpha-beta, ours (the exact crate's search loop over the
//!   heuristic game) against the peer's `Negamax`, both without a transposition table, children in natural
//!   order (the peer shuffles the root's moves, which changes its node count a little but not its value).
//! - `engine`: each library's full depth-limited searcher, our [`Engine::search`] (`SearchConfig::depth_limited`:
//!   iterative deepening by the evaluator's step, two plies on Connect-4, a 16 MiB table, the game's tactics,
//!   evaluator ordering at the root and Connect-4's threat ordering below, its principal variation included)
//!   against the peer's `IterativeSearch` as its documentation sets it up for the job: a table of the same
//!   byte size (16 MiB: 2^20 entries of 16 bytes, against our 2^19 slots of 32), its depth limit set to ours,
//!   null-window (principal variation) search, which is its default, its countermove history table (the
//!   history heuristic by column), the fastest of its move-ordering aids here, and its two search options that
//!   make it fastest here: deepening by two plies at a time and MTD(f) in each iteration (measured: see
//!   docs/src/measured-choices.md, 'Depth-limited engine and evaluators'). None of these changes a value. Both count
//!   the depth alike: depth 2 is the mover's move and the reply, then the evaluator. Each timed search starts from a
//!   new engine on both sides (tables empty), made outside the time measured; criterion does not time this comparison,
//!   since it would make and drop a new engine for each of its many iterations.
//!
//! Before timing, every case checks that both find the same root value, and the Engine the value of the
//! plain search. The peer scores a win as its `BEST_EVAL`, adjusted by one per ply so that faster wins score
//! higher, and its root value reports every win as `BEST_EVAL` exactly; ours scores a win as Pons' score beyond
//! the evaluator's bound. Both orders put every win above every estimate and faster wins above slower ones, so
//! the two searches back up the same estimate whenever the root value is one, and agree on a win's side when it
//! is a win: that is what is compared.
//!
//! Criterion times each side on its own. The machine is shared, and a load that comes and goes between the two
//! measurements would tilt their ratio, so the figures of record come from a second, paired measurement: rounds
//! of a batch of our searches and a batch of the peer's, back to back (in alternating order), the ratio taken
//! per round and its median reported. `cargo bench -p khela-heuristic --bench peer` prints them and writes
//! `results/heuristic-peer.csv` (only under `cargo bench`, not in criterion's test mode).

use ahash::RandomState;
use criterion::Criterion;
use khela_exact::{Algorithm, Natural, SearchConfig, Searcher};
use khela_games::Evaluator;
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Value};
use khela_heuristic::connect4::Threats;
use khela_heuristic::{Engine, Heuristic};
use khela_testkit::connect4::Set;
use minimax::{BEST_EVAL, IterativeOptions, IterativeSearch, Strategy, Winner};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The peer's game API has no game value (its functions take only the state), so the board lives here.
static GAME: LazyLock<Connect4> = LazyLock::new(Connect4::standard);

/// The peer's table wants a well-mixed 64-bit hash of a position (it indexes by the low bits and checks the
/// high ones); ours is Pons' unique key, hashed here with fixed seeds.
static HASHER: LazyLock<RandomState> = LazyLock::new(|| RandomState::with_seeds(1, 2, 3, 4));

/// The depths of the plain alpha-beta comparison.
const ALPHABETA_DEPTHS: [u32; 2] = [6, 8];

/// The depths of the engine comparison.
const ENGINE_DEPTHS: [u32; 3] = [6, 8, 10];

/// The transposition table of both engines, in MiB.
const TABLE_MIB: usize = 16;

/// Openings of our own, in the standard notation.
const OPENINGS: [(&str, &str); 3] = [("start", ""), ("4453", "4453"), ("4363", "4363")];

/// Positions taken from the Middle-Easy benchmark set (`../shared/connect4/Test_L2_R1`), when it is there.
const MIDDLE_EASY: usize = 2;

/// Our Connect-4 seen through the peer's `Game` trait.
struct PeerConnect4;

impl minimax::Game for PeerConnect4 {
    type S = Position;
    type M = u8;

    fn generate_moves(p: &Position, moves: &mut Vec<u8>) -> Option<Winner> {
        let winner = Self::get_winner(p);
        if winner.is_none() {
            moves.extend((0..GAME.width() as u8).filter(|&col| GAME.can_play(p, col)));
        }
        winner
    }

    fn apply(p: &mut Position, col: u8) -> Option<Position> {
        Some(GAME.child(p, col))
    }

    fn get_winner(p: &Position) -> Option<Winner> {
        if GAME.is_won(p) {
            Some(Winner::PlayerJustMoved)
        } else if GAME.is_full(p) {
            Some(Winner::Draw)
        } else {
            None
        }
    }

    fn zobrist_hash(p: &Position) -> u64 {
        HASHER.hash_one(GAME.key(p))
    }

    /// The countermove history table counts cutoffs per column, by this index.
    fn table_index(col: u8) -> u16 {
        col.into()
    }

    fn max_table_index() -> u16 {
        GAME.width() as u16 - 1
    }
}

/// The same threat evaluator through the peer's `Evaluator` trait: the side to move's view, as an `i16`.
struct PeerThreats<'a>(&'a Threats);

impl minimax::Evaluator for PeerThreats<'_> {
    type G = PeerConnect4;

    fn evaluate(&self, p: &Position) -> minimax::Evaluation {
        // Estimates are integers within the bound, which the constructor checked fits far inside an i16.
        p.to_move().view(self.0.evaluate(&GAME, p)) as minimax::Evaluation
    }
}

/// The evaluator at the horizon of our plain search.
fn estimate(h: &Heuristic<'_, Connect4, Threats>, p: &Position) -> Value {
    h.evaluator.evaluate(h.game, p)
}

/// Our engine for one search of `depth` plies: `SearchConfig::depth_limited`, the table's size set.
fn our_engine<'a>(threats: &'a Threats, depth: u32) -> Engine<'a, Connect4, Threats> {
    Engine::new(&GAME, threats, SearchConfig { table_mib: Some(TABLE_MIB), ..SearchConfig::depth_limited(depth) })
}

/// The peer's engine for one search of `depth` plies (see the module's documentation for the options).
fn peer_engine(threats: &Threats, depth: u32) -> IterativeSearch<PeerThreats<'_>> {
    let options = IterativeOptions::new()
        .with_table_byte_size(TABLE_MIB << 20)
        .with_null_window_search(true)
        .with_countermove_history()
        .with_double_step_increment()
        .with_mtdf();
    let mut search = IterativeSearch::new(PeerThreats(threats), options);
    search.set_max_depth(depth as u8);
    search
}

/// The two comparisons.
#[derive(Clone, Copy, Debug)]
enum Comparison {
    /// Plain negamax alpha-beta, no table.
    AlphaBeta,
    /// Each library's full depth-limited searcher.
    Engine,
}

impl Comparison {
    /// The name in the CSV's `search` column and in criterion's group names.
    fn name(self) -> &'static str {
        match self {
            Comparison::AlphaBeta => "alphabeta",
            Comparison::Engine => "engine",
        }
    }
}

/// One comparison at one position and depth.
struct Case {
    comparison: Comparison,
    name: String,
    moves: String,
    position: Position,
    depth: u32,
    value: Value,
    nodes: u64,
    /// The peer's count, where it gives one: `IterativeSearch`'s (its calls of negamax, every iteration's: the
    /// nodes below the root), of the one search that checked the value (its root order is random).
    peer_nodes: Option<u64>,
}

/// The paired measurement of one case: median times per search (seconds) and the median of the rounds' ratios.
struct Paired {
    ours: f64,
    peer: f64,
    ratio: f64,
}

/// The positions compared: our openings, then the first few of Middle-Easy (with a NOTE if it is absent).
fn positions() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = OPENINGS.iter().map(|&(n, m)| (n.to_string(), m.to_string())).collect();
    match Set::MiddleEasy.read() {
        Ok(set) => out.extend(
            set.into_iter().take(MIDDLE_EASY).enumerate().map(|(i, scored)| (format!("L2R1-{}", i + 1), scored.moves)),
        ),
        Err(err) => eprintln!("NOTE: only our own openings are compared: {err}"),
    }
    out
}

/// Rounds of the paired measurement.
const ROUNDS: usize = 21;

/// The least time of a batch of searches in the paired measurement, in seconds, what is set up for each search
/// included.
const BATCH_SECONDS: f64 = 0.01;

/// The time of `search`, in seconds, its result kept from the optimiser.
fn timed<T>(search: impl FnOnce() -> T) -> f64 {
    let start = Instant::now();
    black_box(search());
    start.elapsed().as_secs_f64()
}

/// The time of `n` searches, in seconds: `search` runs one and returns its time (what it sets up is not timed).
fn time(n: u64, search: &mut impl FnMut() -> f64) -> f64 {
    (0..n).map(|_| search()).sum()
}

/// The median of `values`.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Times both sides in [`ROUNDS`] rounds of a batch each, back to back, the first to go alternating.
fn paired(ours: &mut impl FnMut() -> f64, peer: &mut impl FnMut() -> f64) -> Paired {
    let once = timed(&mut *ours).max(timed(&mut *peer));
    let n = (BATCH_SECONDS / once).ceil() as u64;
    let rounds: Vec<(f64, f64)> = (0..ROUNDS)
        .map(|round| {
            if round % 2 == 0 {
                let t = time(n, ours);
                (t, time(n, peer))
            } else {
                let t = time(n, peer);
                (time(n, ours), t)
            }
        })
        .collect();
    let per_search = |pick: fn(&(f64, f64)) -> f64| median(rounds.iter().map(|r| pick(r) / n as f64).collect());
    Paired {
        ours: per_search(|r| r.0),
        peer: per_search(|r| r.1),
        ratio: median(rounds.iter().map(|&(o, p)| p / o).collect()),
    }
}

/// Our value as the peer reports it: the side to move's view, a win or loss as ±`BEST_EVAL`.
fn peer_view(position: &Position, value: Value, bound: Value) -> minimax::Evaluation {
    let mover_view = position.to_move().view(value);
    if mover_view.abs() <= bound {
        mover_view as minimax::Evaluation
    } else {
        mover_view.signum() as minimax::Evaluation * BEST_EVAL
    }
}

/// The nodes the peer's last search of `position` explored, every iteration's: it reports them only in a
/// summary for people (`Explored <n> nodes to depth <d>. …`).
fn explored(search: &IterativeSearch<PeerThreats<'_>>, position: &Position) -> u64 {
    let summary = search.stats(&mut position.clone());
    let count = summary.split_once("Explored ").and_then(|(_, rest)| rest.split_once(' ')).map(|(n, _)| n.parse());
    count.and_then(Result::ok).unwrap_or_else(|| panic!("no node count in the peer's summary: {summary}"))
}

fn main() {
    let game = &*GAME;
    let threats = Threats::new(game);
    // Our wins reach the bound plus the largest Pons score; the peer keeps 100 values below BEST_EVAL for its
    // own wins, and every estimate must stay clear of them.
    assert!(threats.bound() + Value::from(game.win_score(7)) < Value::from(BEST_EVAL - 100));
    let heuristic = Heuristic::new(game, &threats);

    let mut cases = Vec::new();
    for (name, moves) in positions() {
        let position = game.parse(&moves).unwrap_or_else(|err| panic!("{name}: {err}"));
        let comparisons = ALPHABETA_DEPTHS
            .map(|depth| (Comparison::AlphaBeta, depth))
            .into_iter()
            .chain(ENGINE_DEPTHS.map(|depth| (Comparison::Engine, depth)));
        for (comparison, depth) in comparisons {
            let context = format!("{} at {name} ({moves}), depth {depth}", comparison.name());
            let plain = Searcher::new(&heuristic, Natural).with_evaluator(estimate).run_to_depth(
                Algorithm::NegamaxAlphaBeta,
                &position,
                depth,
            );
            let expected = peer_view(&position, plain.value, threats.bound());
            let (value, nodes, peer_value, peer_nodes) = match comparison {
                Comparison::AlphaBeta => {
                    let mut peer = minimax::Negamax::new(PeerThreats(&threats), depth as u8);
                    peer.choose_move(&position).expect("an open position has a move");
                    (plain.value, plain.stats.nodes, peer.root_value(), None)
                }
                Comparison::Engine => {
                    let ours = our_engine(&threats, depth).search(&position);
                    assert_eq!(ours.value, plain.value, "{context}: the Engine against the plain search");
                    let mut peer = peer_engine(&threats, depth);
                    peer.choose_move(&position).expect("an open position has a move");
                    (ours.value, ours.stats.nodes, peer.root_value(), Some(explored(&peer, &position)))
                }
            };
            assert_eq!(peer_value, expected, "{context}: ours {value}");
            let (name, moves) = (name.clone(), moves.clone());
            cases.push(Case { comparison, name, moves, position, depth, value, nodes, peer_nodes });
        }
    }

    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    // Criterion's test mode (`cargo test --benches`) runs each search once: no figures worth keeping.
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let mut figures = Vec::new();
    for case in &cases {
        let (position, depth) = (&case.position, case.depth);
        let mut searcher = Searcher::new(&heuristic, Natural).with_evaluator(estimate);
        let mut negamax = minimax::Negamax::new(PeerThreats(&threats), depth as u8);
        let mut ours = || match case.comparison {
            Comparison::AlphaBeta => {
                timed(|| searcher.run_to_depth(Algorithm::NegamaxAlphaBeta, black_box(position), depth))
            }
            Comparison::Engine => {
                let mut engine = our_engine(&threats, depth);
                timed(|| engine.search(black_box(position)))
            }
        };
        let mut peer = || match case.comparison {
            Comparison::AlphaBeta => timed(|| negamax.choose_move(black_box(position))),
            Comparison::Engine => {
                let mut search = peer_engine(&threats, depth);
                timed(|| search.choose_move(black_box(position)))
            }
        };
        if let Comparison::AlphaBeta = case.comparison {
            let mut group = criterion.benchmark_group(format!("peer/{}/d{depth}", case.name));
            group.bench_function("khela", |b| b.iter_custom(|n| Duration::from_secs_f64(time(n, &mut ours))));
            group.bench_function("minimax", |b| b.iter_custom(|n| Duration::from_secs_f64(time(n, &mut peer))));
            group.finish();
        }
        if measuring {
            figures.push(paired(&mut ours, &mut peer));
        }
    }
    criterion.final_summary();
    if measuring {
        report(&cases, &figures);
    }
}

/// Prints the time per search of each side and the ratio, and writes them as CSV.
fn report(cases: &[Case], figures: &[Paired]) {
    let mut csv =
        String::from("search,position,moves,depth,value,khela_nodes,minimax_nodes,khela_us,minimax_us,ratio\n");
    let mut ratios = BTreeMap::<(&str, u32), Vec<f64>>::new();
    for (case, paired) in cases.iter().zip(figures) {
        let Paired { ours, peer, ratio } = *paired;
        let search = case.comparison.name();
        let peer_nodes = case.peer_nodes.map_or(String::new(), |n| n.to_string());
        ratios.entry((search, case.depth)).or_default().push(ratio);
        println!(
            "{search:>9} {:>8} d{:<2}: value {:>6}, khela {:>10.1} µs ({} nodes), minimax {:>10.1} µs ({}): \
             {ratio:.2}x",
            case.name,
            case.depth,
            case.value,
            ours * 1e6,
            case.nodes,
            peer * 1e6,
            case.peer_nodes.map_or("nodes not counted".to_string(), |n| format!("{n} nodes")),
        );
        writeln!(
            csv,
            "{search},{},{},{},{},{},{peer_nodes},{:.1},{:.1},{ratio:.3}",
            case.name,
            case.moves,
            case.depth,
            case.value,
            case.nodes,
            ours * 1e6,
            peer * 1e6
        )
        .expect("writing to a String");
    }
    for ((search, depth), ratios) in &ratios {
        let geometric = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        println!(
            "{search} depth {depth}: minimax / khela time per search, geometric mean of the medians {geometric:.2}x"
        );
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../results/heuristic-peer.csv");
    std::fs::write(&path, csv).unwrap_or_else(|err| panic!("writing {}: {err}", path.display()));
    println!("wrote {}", path.display());
}
