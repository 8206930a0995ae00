//! Searches and players on a game's state from Python, as small typed objects: `khela.analyze(state, …)` values
//! every legal move (exactly, to a depth, by Monte Carlo or by a trained network, with an optional time budget)
//! and `khela.Player("engine:6").move(state)` chooses one, as the command line's players do. Both run over the
//! `khela` library's analysis and players, the same as the web app's and the CLI's, on a thread of their own
//! without the GIL. Ctrl-C raises `KeyboardInterrupt` at once: Monte Carlo and a network's search (an analysis's
//! or a player's) stop within milliseconds; an exact search and the engine's search to a depth, which cannot stop
//! midway, end in the background, their result dropped.

use crate::state::{PyState, refused};
use crate::waiting::{AfterStop, interruptibly, panicked};
use khela::analysis::{Analyser, Limit, Source};
use khela::players::Contender;
use khela_games::Player;
use khela_games::rng::splitmix64;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long Ctrl-C waits for an analysis to stop (Monte Carlo and a network's search stop within milliseconds)
/// before leaving it to end in the background (an exact search or a search to one depth, which cannot stop
/// midway).
const GRACE: Duration = Duration::from_millis(500);

/// `value` as Python's `repr` writes it: `None`, an integer, a float with its point (`0.0`).
fn python<T: std::fmt::Debug>(value: Option<T>) -> String {
    value.map_or_else(|| "None".to_string(), |v| format!("{v:?}"))
}

/// One legal move's value.
#[pyclass(frozen, get_all, name = "MoveValue", module = "khela")]
pub struct PyMoveValue {
    /// The move in the game's notation.
    #[pyo3(name = "move")]
    text: String,
    /// Its action (`State.legal_actions()`), for a game that numbers its actions.
    action: Option<usize>,
    /// Its value, the first player's view: the game's payoff when exact, the evaluator's scale to a depth,
    /// `2 × mean − 1` of the mover's mean score by Monte Carlo or a network; `None` for a move a Monte Carlo
    /// search never tried.
    value: Option<f64>,
    /// The iterations (or simulations) through the move, by Monte Carlo or a network.
    visits: Option<u64>,
    /// For an exact win or loss, the plies to the end under best play (the move itself the first), where the
    /// source knows them.
    plies: Option<u32>,
    /// Whether it is among the best moves for the side to move.
    best: bool,
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        format!(
            "MoveValue(move='{}', action={}, value={}, visits={}, plies={}, best={})",
            self.text,
            python(self.action),
            python(self.value),
            python(self.visits),
            python(self.plies),
            if self.best { "True" } else { "False" }
        )
    }
}

/// Every legal move of a position valued, and where the values come from.
#[pyclass(frozen, get_all, name = "Analysis", module = "khela")]
pub struct PyAnalysis {
    /// Where the values come from: `"exact"`, `"depth"` (the engine to `depth` plies), `"monte-carlo"` or
    /// `"network"`.
    source: &'static str,
    /// The depth searched, for `"depth"` (with a budget, the deepest the time allowed).
    depth: Option<u32>,
    /// Whether the search did all it was asked (false when the budget cut it short).
    complete: bool,
    /// The side to move: 0 the first player, 1 the second.
    mover: u8,
    /// Every legal move, in the game's order.
    moves: Vec<Py<PyMoveValue>>,
}

#[pymethods]
impl PyAnalysis {
    /// The best moves for the side to move, in the game's notation: the highest value (by Monte Carlo or a
    /// network, the most visited); of exact wins the quickest, of exact losses the slowest.
    #[getter]
    fn best(&self, py: Python<'_>) -> Vec<String> {
        self.moves.iter().map(|m| m.bind(py).get()).filter(|m| m.best).map(|m| m.text.clone()).collect()
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let depth = self.depth.map_or(String::new(), |d| format!(", depth={d}"));
        format!("Analysis(source={:?}{depth}, complete={}, best={:?})", self.source, self.complete, self.best(py))
    }
}

/// Every legal move of `state` valued: exactly by default (the game's own solver, alpha-beta, memoized
/// expectiminimax or the tables `khela.load(…, tables=DIR)` read), with `depth` by the engine to that depth, with
/// `iterations` by Monte Carlo tree search (UCT) from `seed`, with `net` by that network's search of
/// `simulations`. `budget` (seconds) answers with what the search found by then: a shallower depth, fewer
/// iterations (`Analysis.complete` says so); an exact search that would take longer is refused up front.
#[pyfunction]
#[pyo3(signature = (state, *, depth = None, iterations = None, net = None, simulations = 800, seed = 0, budget = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, each optional.
pub fn analyze(
    py: Python<'_>,
    state: &PyState,
    depth: Option<u32>,
    iterations: Option<u64>,
    net: Option<PathBuf>,
    simulations: u32,
    seed: u64,
    budget: Option<f64>,
) -> PyResult<PyAnalysis> {
    let analyser = match (depth, iterations, net) {
        (None, None, None) => Analyser::Exact,
        (Some(depth), None, None) => Analyser::Depth(depth),
        (None, Some(iterations), None) => Analyser::Mcts { iterations, seed },
        (None, None, Some(path)) => Analyser::Net { path, simulations },
        _ => return Err(PyValueError::new_err("give one of depth, iterations and net, or none for exact values")),
    };
    let until = match budget {
        None => None,
        Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= 1e6 => {
            Some(Instant::now() + Duration::from_secs_f64(seconds))
        }
        Some(seconds) => return Err(PyValueError::new_err(format!("budget {seconds}: seconds above 0, at most 1e6"))),
    };
    let state = &state.state;
    let stop = Arc::new(AtomicBool::new(false));
    let limit = Limit { until, stop: Some(Arc::clone(&stop)) };
    let searched = state.clone();
    let analysis = interruptibly(
        py,
        move || searched.analyse_within(&analyser, &limit),
        || stop.store(true, Ordering::Relaxed),
        AfterStop::AtMost(GRACE),
    )?
    .map_err(panicked)?
    .map_err(refused)?;
    let actions = state.legal_actions().ok();
    let best = analysis.best();
    let moves = analysis
        .moves
        .iter()
        .map(|m| {
            let value = PyMoveValue {
                text: m.text.clone(),
                action: actions.as_ref().map(|a| a[m.index]),
                value: m.value,
                visits: m.visits,
                plies: m.plies,
                best: best.contains(&m.index),
            };
            Py::new(py, value)
        })
        .collect::<PyResult<_>>()?;
    let (source, depth) = match analysis.source {
        Source::Exact => ("exact", None),
        Source::Depth(depth) => ("depth", Some(depth)),
        Source::MonteCarlo => ("monte-carlo", None),
        Source::Network => ("network", None),
    };
    let mover = u8::from(analysis.mover == Player::Min);
    Ok(PyAnalysis { source, depth, complete: analysis.complete, mover, moves })
}

/// What a move lets happen to the pieces within a few moves of each side (games with captures: the Bagh-Chal
/// family, Sixteen Soldiers), as the web app shows beside its best move.
#[pyclass(frozen, get_all, name = "Threat", module = "khela")]
pub struct PyThreat {
    /// The fewest of the opponent's moves within which it takes one of the mover's pieces after the move,
    /// whatever the mover does; `None` if it cannot force one within 3.
    loses_within: Option<u32>,
    /// The fewest of the mover's own moves, this one the first, within which it takes one of the opponent's
    /// pieces, whatever the reply; `None` if it cannot force one within 3.
    captures_within: Option<u32>,
}

#[pymethods]
impl PyThreat {
    fn __repr__(&self) -> String {
        format!("Threat(loses_within={}, captures_within={})", python(self.loses_within), python(self.captures_within))
    }
}

/// The captures the legal move `move` (the game's notation) of `state` lets the opponent force, or itself forces,
/// within 3 moves of each side (an exhaustive search, the repetition rules included); `None` for a game without
/// captures.
#[pyfunction]
#[pyo3(name = "threat")]
pub fn threat_of(py: Python<'_>, state: &PyState, r#move: &str) -> PyResult<Option<PyThreat>> {
    let mv = state.state.parse_move(r#move).map_err(refused)?;
    let state = &state.state;
    let threat = py.detach(|| state.threat(mv));
    Ok(threat.map(|t| PyThreat { loses_within: t.loses_within, captures_within: t.captures_within }))
}

/// A player as the command line names it — `engine:D`, `mcts:N`, `net:PATH[:N]`, `random`, `perfect` — whose
/// random choices come from `seed`: the same seed and the same positions asked in the same order, the same moves.
#[pyclass(frozen, name = "Player", module = "khela")]
pub struct PyPlayer {
    contender: Contender,
    spec: String,
    seed: u64,
    /// The positions it was asked so far: each choice's seed is the player's mixed with it.
    asked: AtomicU64,
}

#[pymethods]
impl PyPlayer {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<PyPlayer> {
        let contender: Contender = spec.parse().map_err(refused)?;
        Ok(PyPlayer { contender, spec: spec.to_string(), seed, asked: AtomicU64::new(0) })
    }

    /// The player's name, as given.
    #[getter]
    fn name(&self) -> &str {
        &self.spec
    }

    /// The move the player chooses in `state`, in the game's notation (`perfect` needs the game's tables or
    /// its solver).
    #[pyo3(name = "move")]
    fn choose_move(&self, py: Python<'_>, state: &PyState) -> PyResult<String> {
        let mv = self.choose(py, state)?;
        state.state.move_text(mv).map_err(refused)
    }

    /// The action of the move the player chooses in `state` (`State.legal_actions()`).
    fn action(&self, py: Python<'_>, state: &PyState) -> PyResult<usize> {
        let mv = self.choose(py, state)?;
        Ok(state.state.legal_actions().map_err(refused)?[mv])
    }

    fn __repr__(&self) -> String {
        format!("khela.Player({:?}, seed={})", self.spec, self.seed)
    }
}

impl PyPlayer {
    /// The number of the move chosen in `state`, the seed of its random choices the player's own mixed with the
    /// count of positions it was asked before. On Ctrl-C, Monte Carlo and a network's search stop; the engine's,
    /// which cannot stop midway, ends in the background.
    fn choose(&self, py: Python<'_>, state: &PyState) -> PyResult<usize> {
        let asked = self.asked.fetch_add(1, Ordering::Relaxed);
        let seed = splitmix64(self.seed ^ splitmix64(asked));
        let (contender, state) = (self.contender.clone(), state.state.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let limit = Limit { until: None, stop: Some(Arc::clone(&stop)) };
        let chosen = interruptibly(
            py,
            move || state.choose_within(&contender, seed, &limit),
            || stop.store(true, Ordering::Relaxed),
            AfterStop::AtMost(GRACE),
        )?;
        chosen.map_err(panicked)?.map_err(refused)
    }
}
