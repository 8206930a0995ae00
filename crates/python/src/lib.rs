//! khela from Python (the `khela` package's compiled module, `khela._khela`): the textbook's searches on its
//! nested-list trees, and its random trees, at khela's speed; every game's states, typed, over the `khela`
//! library (`state`); and the harness's commands (`command`), which
//! the package's Python layer turns into functions returning rows. Bad input raises `ValueError` with the message the
//! command line gives; searches run without the GIL.

mod command;
mod search;
mod state;
mod waiting;

use std::borrow::Cow;

use khela_exact::{Algorithm, MoveOrdering, Natural, Searcher, Stats};
use khela_games::random_tree::{Params, RandomTree};
use khela_games::rng::Rng;
use khela_games::tree::{Nested, Tree};
use khela_games::{Player, Value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList};

/// What this build has beyond the default wheel's states, searches, environments and textbook harness:
/// `commands` (every harness command: `khela.run`, the game-string forms of `solve`, `count`, `mcts`, …) and
/// `networks` (`net:PATH` players, an analysis by a network); both in the full build (the feature `full`).
const FEATURES: &[&str] = if cfg!(feature = "full") { &["commands", "networks"] } else { &[] };

/// The most leaves a random tree handed to Python may have: each is a Python object.
const MAX_LEAVES: u64 = 1 << 24;

/// The deepest nesting a tree may have (each level a frame of the walk's stack).
const MAX_DEPTH: usize = 10_000;

/// A search's result: the root's value, the index of its best move and the search's counters.
#[pyclass(frozen, module = "khela")]
pub struct Result {
    /// The root's value (the leaves are integers).
    #[pyo3(get)]
    value: i64,
    /// The index of the best root move, if the root has moves.
    #[pyo3(get)]
    best: Option<u32>,
    /// Nodes visited, the root and the leaves included.
    #[pyo3(get)]
    nodes: u64,
    /// Leaves visited.
    #[pyo3(get)]
    leaves: u64,
    /// Decision nodes cut off with children left unsearched.
    #[pyo3(get)]
    cutoffs: u64,
}

#[pymethods]
impl Result {
    fn __repr__(&self) -> String {
        let best = self.best.map_or("None".to_string(), |b| b.to_string());
        format!(
            "Result(value={}, best={best}, nodes={}, leaves={}, cutoffs={})",
            self.value, self.nodes, self.leaves, self.cutoffs
        )
    }
}

/// The player `text` names.
fn player(text: &str) -> PyResult<Player> {
    text.parse().map_err(|_| PyValueError::new_err(format!("root {text:?}: max or min")))
}

/// The nested form of a nested-list tree, refusing what is not one: walked directly (no text in between), so
/// that a tree of a million nodes costs a fraction of the search's setup.
fn nested(node: &Bound<'_, PyAny>, depth: usize) -> PyResult<Nested> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!("the tree is more than {MAX_DEPTH} levels deep")));
    }
    if let Ok(list) = node.cast::<PyList>() {
        if list.is_empty() {
            return Err(PyValueError::new_err("an empty list is not a node: a decision node needs moves"));
        }
        let kids = list.iter().map(|child| nested(&child, depth + 1)).collect::<PyResult<Vec<_>>>()?;
        return Ok(Nested::Decision(kids));
    }
    if node.is_instance_of::<PyInt>() && !node.is_instance_of::<pyo3::types::PyBool>() {
        let leaf: i64 = node.extract().map_err(|_| PyValueError::new_err(format!("leaf {node}: out of 64 bits")))?;
        return Ok(Nested::Leaf(leaf));
    }
    Err(PyValueError::new_err(format!("{node}: a tree is nested lists with integer leaves")))
}

/// A nested-list tree converted once, for many searches: `khela.Tree([[3, 5], [2, 9]], root="max")`. The
/// searches take a nested list as well, but convert it at every call (about the cost of the search itself for
/// alpha-beta on a tree of a million nodes); a `Tree` costs nothing at the call.
#[pyclass(frozen, name = "Tree", module = "khela")]
pub struct PyTree {
    tree: Tree,
    root: Player,
}

#[pymethods]
impl PyTree {
    /// Converts the nested list `tree`, `root` ("max" or "min") to move at the first decision node.
    #[new]
    #[pyo3(signature = (tree, root = "max"))]
    fn new(tree: &Bound<'_, PyAny>, root: &str) -> PyResult<PyTree> {
        let root = player(root)?;
        let tree = Tree::from_nested(nested(tree, 0)?, root).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyTree { tree, root })
    }

    /// The number of nodes, leaves included.
    fn __len__(&self) -> usize {
        self.tree.len()
    }

    /// The side to move at the first decision node.
    #[getter]
    fn root(&self) -> &'static str {
        if self.root == Player::Max { "max" } else { "min" }
    }

    fn __repr__(&self) -> String {
        format!("Tree(<{} nodes>, root={:?})", self.tree.len(), self.root())
    }
}

/// The tree to search: a [`PyTree`]'s own, or a nested list's, converted; `root` defaults to the `Tree`'s, or
/// "max" for a list, and a `Tree` built for the other side is refused.
fn tree_of<'a>(tree: &'a Bound<'_, PyAny>, root: Option<&str>) -> PyResult<Cow<'a, Tree>> {
    if let Ok(built) = tree.cast::<PyTree>() {
        let built: &'a PyTree = built.get();
        if let Some(root) = root
            && player(root)? != built.root
        {
            return Err(PyValueError::new_err(format!(
                "root {root:?}: this Tree was built with root={:?}; build another with khela.Tree(tree, root={root:?})",
                built.root()
            )));
        }
        return Ok(Cow::Borrowed(&built.tree));
    }
    let root = player(root.unwrap_or("max"))?;
    let tree = Tree::from_nested(nested(tree, 0)?, root).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Cow::Owned(tree))
}

/// A search's counters and value as a [`Result`].
fn result(value: Value, best: Option<u32>, stats: Stats) -> Result {
    Result { value: value as i64, best, nodes: stats.nodes, leaves: stats.leaves, cutoffs: stats.cutoffs }
}

/// Plain minimax on a nested-list tree or a `Tree` (every node visited): the root's value, its best move's
/// index, and the counters. `root`: who moves first ("max" unless a `Tree` says otherwise).
#[pyfunction]
#[pyo3(signature = (tree, root = None))]
fn minimax(py: Python<'_>, tree: &Bound<'_, PyAny>, root: Option<&str>) -> PyResult<Result> {
    let tree = tree_of(tree, root)?;
    let tree: &Tree = &tree;
    let r = py.detach(|| Searcher::new(tree, Natural).run(Algorithm::Minimax, &0));
    Ok(result(r.value, r.best, r.stats))
}

/// Fail-soft alpha-beta on a nested-list tree or a `Tree`, children in `ordering` ("natural" or "reversed"): the root's
/// value, its best move's index, and the counters (leaves visited, cutoffs).
#[pyfunction]
#[pyo3(signature = (tree, root = None, ordering = "natural"))]
fn alphabeta(py: Python<'_>, tree: &Bound<'_, PyAny>, root: Option<&str>, ordering: &str) -> PyResult<Result> {
    let order = match ordering {
        "natural" => MoveOrdering::Natural,
        "reversed" => MoveOrdering::Reversed,
        _ => return Err(PyValueError::new_err(format!("ordering {ordering:?}: natural or reversed"))),
    };
    let tree = tree_of(tree, root)?;
    let tree: &Tree = &tree;
    let r = py.detach(|| Searcher::new(tree, order).run(Algorithm::AlphaBeta, &0));
    Ok(result(r.value, r.best, r.stats))
}

/// The uniform random tree of branching `b` and depth `d` as nested lists, its leaves drawn from `lo..=hi` as
/// Python's `random.Random(seed).randint(lo, hi)` draws them, left to right (`rng="python"`), or from khela's
/// PCG stream (`rng="pcg"`), as the command line's `--rng` does.
#[pyfunction]
#[pyo3(signature = (b, d, seed, rng = "python", lo = 0, hi = 99))]
fn random_tree(py: Python<'_>, b: u32, d: u32, seed: u64, rng: &str, lo: i64, hi: i64) -> PyResult<Py<PyAny>> {
    let rng: Rng = rng.parse().map_err(|_| PyValueError::new_err(format!("rng {rng:?}: python or pcg")))?;
    let params = Params { b, d, lo, hi, seed, rng };
    let leaves = params.leaves().filter(|&n| n <= MAX_LEAVES).ok_or_else(|| {
        PyValueError::new_err(format!("b={b}, d={d}: more than {MAX_LEAVES} leaves, each a Python object"))
    })?;
    let tree = RandomTree::new(params).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let values: Vec<i64> = (0..leaves).map(|i| tree.leaf(i)).collect();
    nest(py, &values, b as usize)
}

/// `values` as a tree of lists of `b` children, the leaves in order.
fn nest(py: Python<'_>, values: &[i64], b: usize) -> PyResult<Py<PyAny>> {
    if values.len() == 1 {
        return Ok(values[0].into_pyobject(py)?.into_any().unbind());
    }
    let part = values.len() / b;
    let children = values.chunks(part).map(|chunk| nest(py, chunk, b)).collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, children)?.into_any().unbind())
}

/// The threads rayon's pool takes by default: the cores this process may use, quotas included.
#[pyfunction]
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The compiled module.
#[pymodule]
fn _khela(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Result>()?;
    m.add_class::<PyTree>()?;
    m.add_function(wrap_pyfunction!(minimax, m)?)?;
    m.add_function(wrap_pyfunction!(alphabeta, m)?)?;
    m.add_function(wrap_pyfunction!(random_tree, m)?)?;
    m.add_function(wrap_pyfunction!(command::command, m)?)?;
    m.add_function(wrap_pyfunction!(cores, m)?)?;
    m.add_class::<state::PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_function(wrap_pyfunction!(state::load, m)?)?;
    m.add_function(wrap_pyfunction!(state::_state, m)?)?;
    m.add_class::<search::PyAnalysis>()?;
    m.add_class::<search::PyMoveValue>()?;
    m.add_class::<search::PyPlayer>()?;
    m.add_class::<search::PyThreat>()?;
    m.add_function(wrap_pyfunction!(search::threat_of, m)?)?;
    m.add_function(wrap_pyfunction!(search::analyze, m)?)?;
    m.add("CHANCE", state::CHANCE)?;
    m.add("TERMINAL", state::TERMINAL)?;
    m.add("FEATURES", pyo3::types::PyTuple::new(m.py(), FEATURES)?)?;
    m.add("DisagreedError", m.py().get_type::<command::DisagreedError>())?;
    Ok(())
}
