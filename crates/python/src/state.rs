//! Games and their states from Python, typed, over the `khela` library's dynamic face ([`khela::load`]): a game
//! chosen by the same game string as every front end (`khela.load("connect4(width=8)")`), its states played in
//! the game's notation, taken back, copied, written out and read back, and their moves valued by the library's
//! analysis or chosen by its players. Bad input raises `ValueError` with the library's message; searches run
//! without the GIL.

use khela::dynamic::{Record, Turn};
use khela_games::Player;
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};

/// `current_player()` at a chance node (OpenSpiel's number).
pub const CHANCE: i32 = -1;

/// `current_player()` once the game is over (OpenSpiel's number).
pub const TERMINAL: i32 = -4;

/// What `__reduce__` returns for pickling: the function that rebuilds an object, and its arguments.
type Reduced<'py, A> = (Bound<'py, PyAny>, A);

/// A library error as Python's `ValueError`, with the library's one-line message.
pub(crate) fn refused(err: anyhow::Error) -> PyErr {
    PyValueError::new_err(format!("{err:#}").replace('\n', " "))
}

/// A game, from a game string: `khela.load("bagh-chal(rules=bagh-bandi)")`.
#[pyclass(frozen, name = "Game", module = "khela")]
pub struct PyGame {
    game: khela::Game,
    /// The directory of the tables it reads, if given.
    tables: Option<PathBuf>,
}

/// The game of the game string `text` (`khela.games()` lists the games; `connect4(width=8,height=7)`), with the
/// exact tables in `tables` (`retro`'s: Bagh-Chal's whole game, Sixteen Soldiers' endgames) when given: its
/// exact analysis and `perfect` player then read them.
#[pyfunction]
#[pyo3(signature = (text, tables = None))]
pub fn load(text: &str, tables: Option<PathBuf>) -> PyResult<PyGame> {
    let game = khela::load(text).map_err(refused)?;
    // Kept absolute, so that a pickled game or state finds its tables from any working directory.
    let tables = tables.map(|dir| std::path::absolute(&dir).unwrap_or(dir));
    let game = match &tables {
        Some(dir) => game.with_tables(Some(dir)).map_err(refused)?,
        None => game,
    };
    Ok(PyGame { game, tables })
}

#[pymethods]
impl PyGame {
    /// The game string, every parameter given written out: `connect4(width=8,height=7)`.
    #[getter]
    fn name(&self) -> String {
        self.game.spec().to_string()
    }

    /// The game's title: `Connect-4 8x7`.
    #[getter]
    fn title(&self) -> String {
        self.game.title()
    }

    /// How its positions are written.
    #[getter]
    fn notation(&self) -> &'static str {
        self.game.notation()
    }

    /// The players' names in the notation, the first player's first: `["X", "O"]`, `["goats", "tigers"]`.
    #[getter]
    fn players(&self) -> [&'static str; 2] {
        [Player::Max, Player::Min].map(|p| self.game.player_name(p))
    }

    /// The game's start.
    fn new_initial_state(&self) -> PyResult<PyState> {
        self.game.start().map(|state| self.holding(state)).map_err(refused)
    }

    /// The position written `position` in the game's notation.
    fn state(&self, position: &str) -> PyResult<PyState> {
        self.game.state(position).map(|state| self.holding(state)).map_err(refused)
    }

    /// The state `State.serialize()` wrote, its moves replayed (of this game only).
    fn deserialize(&self, text: &str) -> PyResult<PyState> {
        let record: Record =
            serde_json::from_str(text).map_err(|e| PyValueError::new_err(format!("not a serialized state: {e}")))?;
        self.game.replay(&record).map(|state| self.holding(state)).map_err(refused)
    }

    /// The size of the action space (OpenSpiel's name): every legal action is below it. A game that numbers no
    /// actions raises `ValueError` saying why (Nim without a start: `nim(heaps=1+3+5+7)` has one; Sixteen
    /// Soldiers a chain a move: a chain may take any path, and `sixteen-soldiers(moves=jumps)` numbers its jumps).
    fn num_distinct_actions(&self) -> PyResult<usize> {
        self.game.action_count().map_err(refused)
    }

    /// The shape of `State.observation_tensor()`: planes, height, width (a game without an encoding, Sixteen
    /// Soldiers a chain a move or Nim without a start, raises `ValueError`).
    fn observation_tensor_shape(&self) -> PyResult<[usize; 3]> {
        self.game.observation_shape().map_err(refused)
    }

    /// The directory of the tables it reads, if any.
    #[getter]
    fn tables(&self) -> Option<&Path> {
        self.tables.as_deref()
    }

    /// The largest value of `State.observation_tensor()` (every value is from 0 to it): 1 for marks and
    /// fractions, the tallest stack where goats stack (Bagh-Bandi: 5), a little over 1 in Pig (a winning score
    /// overshoots the goal); a game without an encoding raises `ValueError`.
    fn observation_tensor_high(&self) -> PyResult<f32> {
        self.game.observation_largest().map_err(refused)
    }

    /// Pickled as its game string and its tables' directory.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, (String, Option<PathBuf>)>> {
        Ok((py.import("khela._khela")?.getattr("load")?, (self.name(), self.tables.clone())))
    }

    fn __repr__(&self) -> String {
        match &self.tables {
            Some(dir) => format!("khela.load({:?}, tables={:?})", self.name(), dir.display().to_string()),
            None => format!("khela.load({:?})", self.name()),
        }
    }
}

impl PyGame {
    /// `state`, a state of this game, for Python.
    fn holding(&self, state: khela::State) -> PyState {
        PyState { state, tables: self.tables.clone() }
    }
}

/// The state `text` (`State.serialize()`) of the game `game` with the tables in `tables`: what unpickling a state
/// calls.
#[pyfunction]
#[pyo3(signature = (game, text, tables = None))]
pub fn _state(game: &str, text: &str, tables: Option<PathBuf>) -> PyResult<PyState> {
    load(game, tables)?.deserialize(text)
}

/// `values` as a NumPy array of `dtype` and `shape`.
fn array<'py, T: IntoPyObject<'py>>(
    py: Python<'py>,
    values: Vec<T>,
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy").map_err(|e| PyImportError::new_err(format!("NumPy is needed here: {e}")))?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("dtype", dtype)?;
    numpy.getattr("asarray")?.call((values,), Some(&kwargs))?.call_method1("reshape", (shape.to_vec(),))
}

/// A state of a game, with the line of play that led to it.
#[pyclass(name = "State", module = "khela")]
#[derive(Clone)]
pub struct PyState {
    pub(crate) state: khela::State,
    /// Its game's tables' directory, if given.
    tables: Option<PathBuf>,
}

#[pymethods]
impl PyState {
    /// Its game.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { game: self.state.game().clone(), tables: self.tables.clone() }
    }

    /// Who moves: 0 the first player, 1 the second, `khela.CHANCE` (-1) at a chance node, `khela.TERMINAL` (-4)
    /// once the game is over.
    fn current_player(&self) -> i32 {
        match self.state.turn() {
            Turn::Decision(Player::Max) => 0,
            Turn::Decision(Player::Min) => 1,
            Turn::Chance => CHANCE,
            Turn::Over(_) => TERMINAL,
        }
    }

    /// Whether nature draws next (EinStein's die, Pig's).
    fn is_chance_node(&self) -> bool {
        self.state.turn() == Turn::Chance
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.state.outcome().is_some()
    }

    /// Each player's payoff, the first player's first: the game's payoff and its negation once it is over (a
    /// draw by repetition or by the length cap is 0), zeros before.
    fn returns(&self) -> [f64; 2] {
        let payoff = self.state.outcome().unwrap_or(0.0);
        // 0 − payoff, not −payoff: a draw is 0.0 for both, not −0.0 for the second player.
        [payoff, 0.0 - payoff]
    }

    /// The legal moves (at a chance node, the chance outcomes) in the game's notation, in the game's order; none
    /// once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.state.move_texts()
    }

    /// The chance outcomes in the game's notation with their probabilities, at a chance node (none elsewhere).
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        let texts = self.state.move_texts();
        self.state.chance_outcomes().into_iter().map(|(k, p)| (texts[k].clone(), p)).collect()
    }

    /// Plays the move (or chance outcome) written `text`; the state is unchanged when it is not legal.
    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        self.state.play_text(text).map_err(refused)
    }

    /// The legal moves' actions (at a chance node, the chance outcomes'), in the order of `legal_moves()`: the
    /// integers of the game's fixed action space (`Game.num_distinct_actions()`), each meaning the same move in
    /// every position — Connect-4 a column from 0 on the left, tic-tac-toe a cell 0–8, Bagh-Chal a placement's
    /// point (reading order from the top left) or `points + from × points + to`, EinStein `3 × square +
    /// direction` (a roll its face less one), Pig 0 roll and 1 hold (an outcome its face less one), Dots and
    /// Boxes an edge.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        self.state.legal_actions().map_err(refused)
    }

    /// A NumPy array of booleans over the action space, true at each legal action.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mask = self.state.legal_action_mask().map_err(refused)?;
        let len = mask.len();
        array(py, mask, "bool", &[len])
    }

    /// Plays the move (or chance outcome) whose action is `action`; the state is unchanged when it is no legal
    /// move's.
    fn apply_action(&mut self, action: usize) -> PyResult<()> {
        self.state.play_action(action).map_err(refused)
    }

    /// The legal move whose action is `action`, in the game's notation.
    fn action_to_string(&self, action: usize) -> PyResult<String> {
        let actions = self.state.legal_actions().map_err(refused)?;
        let index = actions.iter().position(|&a| a == action);
        let index = index.ok_or_else(|| PyValueError::new_err(format!("action {action} is no legal move's here")))?;
        self.state.move_text(index).map_err(refused)
    }

    /// The action of the legal move written `text`.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        let index = self.state.parse_move(text).map_err(refused)?;
        Ok(self.state.legal_actions().map_err(refused)?[index])
    }

    /// The position as planes, a NumPy float32 array of `Game.observation_tensor_shape()` (khela-zero's
    /// encodings, a network's input where the game has one): in tic-tac-toe and Connect-4 the side to move's
    /// pieces, the other side's, and a plane of ones when the first player is to move; in the Bagh-Chal family
    /// the tigers, the goats (a stack's height), a plane of ones when the goats move, and the goats in hand,
    /// captured and still to capture; in Pig the scores and the turn total as fractions of the goal, the die in
    /// the air, the first player to move; in EinStein each cube a plane, the die's face a plane each, the first
    /// player to move; in Dots and Boxes, on the grid of dots, the edges drawn, the mover's boxes, the
    /// opponent's, the first player to move.
    fn observation_tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let planes = self.state.observation().map_err(refused)?;
        let shape = self.state.game().observation_shape().map_err(refused)?;
        array(py, planes, "float32", &shape)
    }

    /// `count` games played to their end from here by uniformly random moves (chance outcomes by their
    /// probabilities), seeded by `seed` (the same seed, the same games), without the GIL: a dict of the games
    /// won by the first player (`first`), drawn (`draws`) and won by the second (`second`), and the plies
    /// played in all (`plies`). The state is unchanged.
    #[pyo3(signature = (count, seed = 0))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        count: u64,
        seed: u64,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let state = &self.state;
        let done = py.detach(|| state.random_playouts(count, seed));
        let row = pyo3::types::PyDict::new(py);
        for (key, value) in
            [("first", done.first), ("draws", done.draws), ("second", done.second), ("plies", done.plies)]
        {
            row.set_item(key, value)?;
        }
        Ok(row)
    }

    /// Takes back the last move (or chance outcome); `False` at the start, where there is none.
    fn undo(&mut self) -> bool {
        self.state.undo()
    }

    /// The moves (and chance outcomes) played since the start, in the game's notation.
    fn history(&self) -> Vec<String> {
        self.state.history()
    }

    /// A copy: the Rust state copied, which later moves on either leave the other alone.
    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        Clone::clone(self)
    }

    /// The state written out (JSON: the game string, its start and the moves since), for `Game.deserialize`.
    fn serialize(&self) -> String {
        serde_json::to_string(&self.state.record()).expect("a record is JSON")
    }

    /// Pickled as its game string, `serialize()` and its tables' directory: unpickling replays the moves.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, (String, String, Option<PathBuf>)>> {
        let restore = py.import("khela._khela")?.getattr("_state")?;
        Ok((restore, (self.state.game().spec().to_string(), self.serialize(), self.tables.clone())))
    }

    /// The picture of the position.
    fn __str__(&self) -> String {
        self.state.picture()
    }

    fn __repr__(&self) -> String {
        let record = self.state.record();
        format!("<khela.State of {}: {:?} then {:?}>", record.game, record.start, record.moves.join(" "))
    }
}
