//! Side by side with a peer: depth-limited negamax alpha-beta on Connect-4 with the threat evaluator, ours
//! (the exact crate's search loop over the heuristic game) against the `minimax` crate's `Negamax`, given the
//! same positions, depths and evaluator.
//!
//! Both sides search single-threaded, without a transposition table, children in natural order (the peer
//! shuffles the root's moves, which changes its node count a little but not its value). Before timing, every
//! case checks that both find the same root value. The peer scores a win as its `BEST_EVAL`, adjusted by one per
//! ply so that faster wins score higher, and its root value reports every win as `BEST_EVAL` exactly; ours
//! scores a win as Pons' score beyond the evaluator's bound. Both orders put every win above every estimate and
//! faster wins above slower ones, so the two searches back up the same estimate whenever the root value is one,
//! and agree on a win's side when it is a win: that is what is compared.
//!
//! Criterion times each side on its own. The machine is shared, and a load that comes and goes between the two
//! measurements would tilt their ratio, so the figures of record come from a second, paired measurement: rounds
//! of a batch of our searches and a batch of the peer's, back to back (in alternating order), the ratio taken
//! per round and its median reported. `cargo bench -p khela-heuristic --bench peer` prints them and writes
//! `results/heuristic-peer.csv` (only under `cargo bench`, not in criterion's test mode).

use criterion::Criterion;
use khela_exact::{Algorithm, Ordering, Searcher};
use khela_games::connect4::{Connect4, Position};
use khela_games::{Game, Value};
use khela_heuristic::connect4::Threats;
use khela_heuristic::{Engine, Evaluator, Heuristic, Options};
use minimax::{BEST_EVAL, Strategy, Winner};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::Instant;

/// The peer's game API has no game value (its functions take only the state), so the board lives here.
static GAME: LazyLock<Connect4> = LazyLock::new(Connect4::standard);

/// The depths compared.
const DEPTHS: [u32; 2] = [6, 8];

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

/// The evaluator at the horizon of our search.
fn estimate(h: &Heuristic<'_, Connect4, Threats>, p: &Position) -> Value {
    h.evaluator.evaluate(h.game, p)
}

/// One position and depth, and the times per search (seconds) recorded by criterion's samples.
struct Case {
    name: String,
    moves: String,
    position: Position,
    depth: u32,
    value: Value,
    nodes: u64,
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
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/connect4/Test_L2_R1");
    match std::fs::read_to_string(&path) {
        Ok(text) => out.extend(text.lines().take(MIDDLE_EASY).enumerate().map(|(i, line)| {
            let moves = line.split_once(' ').expect("`<moves> <score>`").0;
            (format!("L2R1-{}", i + 1), moves.to_string())
        })),
        Err(_) => eprintln!("NOTE: {} is absent: only our own openings are compared", path.display()),
    }
    out
}

/// Rounds of the paired measurement.
const ROUNDS: usize = 21;

/// The least time of a batch of searches in the paired measurement, in seconds.
const BATCH_SECONDS: f64 = 0.01;

/// The time of `n` calls of `search`, in seconds.
fn time(n: u32, search: &mut impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        search();
    }
    start.elapsed().as_secs_f64()
}

/// The median of `values`.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Times both sides in [`ROUNDS`] rounds of a batch each, back to back, the first to go alternating.
fn paired(ours: &mut impl FnMut(), peer: &mut impl FnMut()) -> Paired {
    let once = time(1, ours).max(time(1, peer));
    let n = (BATCH_SECONDS / once).ceil() as u32;
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
    let per_search = |pick: fn(&(f64, f64)) -> f64| median(rounds.iter().map(|r| pick(r) / f64::from(n)).collect());
    Paired {
        ours: per_search(|r| r.0),
        peer: per_search(|r| r.1),
        ratio: median(rounds.iter().map(|&(o, p)| p / o).collect()),
    }
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
        for depth in DEPTHS {
            let ours = Searcher::new(&heuristic, Ordering::Natural).with_evaluator(estimate).run_to_depth(
                Algorithm::NegamaxAlphaBeta,
                &position,
                depth,
            );
            let mut peer = minimax::Negamax::new(PeerThreats(&threats), depth as u8);
            peer.choose_move(&position).expect("an open position has a move");
            // Our value in the side to move's view, and as the peer reports it: a win or loss as ±BEST_EVAL.
            let mover_view = position.to_move().view(ours.value);
            let expected = if mover_view.abs() <= threats.bound() {
                mover_view as minimax::Evaluation
            } else {
                mover_view.signum() as minimax::Evaluation * BEST_EVAL
            };
            assert_eq!(peer.root_value(), expected, "{name} ({moves}) at depth {depth}: ours {}", ours.value);
            // The Engine (iterative deepening, a table, evaluator ordering) must agree as well.
            let engine = Engine::new(game, &threats, Options { depth, ..Options::default() }).search(&position);
            assert_eq!(engine.value, ours.value, "{name} ({moves}) at depth {depth}: the Engine");
            cases.push(Case {
                name: name.clone(),
                moves: moves.clone(),
                position,
                depth,
                value: ours.value,
                nodes: ours.stats.nodes,
            });
        }
    }

    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    // Criterion's test mode (`cargo test --benches`) runs each search once: no figures worth keeping.
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let mut figures = Vec::new();
    for case in &cases {
        let mut group = criterion.benchmark_group(format!("peer/{}/d{}", case.name, case.depth));
        let mut searcher = Searcher::new(&heuristic, Ordering::Natural).with_evaluator(estimate);
        let mut ours = || {
            black_box(searcher.run_to_depth(Algorithm::NegamaxAlphaBeta, black_box(&case.position), case.depth));
        };
        let mut negamax = minimax::Negamax::new(PeerThreats(&threats), case.depth as u8);
        let mut peer = || {
            black_box(negamax.choose_move(black_box(&case.position)));
        };
        group.bench_function("khela", |b| b.iter(&mut ours));
        group.bench_function("minimax", |b| b.iter(&mut peer));
        group.finish();
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
    let mut csv = String::from("position,moves,depth,value,khela_nodes,khela_us,minimax_us,ratio\n");
    let mut ratios = BTreeMap::<u32, Vec<f64>>::new();
    for (case, paired) in cases.iter().zip(figures) {
        let Paired { ours, peer, ratio } = *paired;
        ratios.entry(case.depth).or_default().push(ratio);
        println!(
            "{:>8} d{}: value {:>6}, khela {:>10.1} µs ({} nodes), minimax {:>10.1} µs: {ratio:.2}x",
            case.name,
            case.depth,
            case.value,
            ours * 1e6,
            case.nodes,
            peer * 1e6
        );
        writeln!(
            csv,
            "{},{},{},{},{},{:.1},{:.1},{ratio:.3}",
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
    for (depth, ratios) in &ratios {
        let geometric = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        println!("depth {depth}: minimax / khela time per search, geometric mean of the medians {geometric:.2}x");
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../results/heuristic-peer.csv");
    std::fs::write(&path, csv).unwrap_or_else(|err| panic!("writing {}: {err}", path.display()));
    println!("wrote {}", path.display());
}
