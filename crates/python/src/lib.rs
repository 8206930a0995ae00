//! khela from Python (the `khela` package's compiled module, `khela._khela`): the textbook's searches on its
//! nested-list trees, and its random trees, at khela's speed. Bad input raises `ValueError` with the message the
//! command line gives; searches run without the GIL.

use khela_exact::{Algorithm, MoveOrdering, Natural, Searcher, Stats};
use khela_games::random_tree::{Params, RandomTree};
use khela_games::rng::Rng;
use khela_games::tree::Tree;
use khela_games::{Player, Value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList};

/// The most leaves a random tree handed to Python may have: each is a Python object.
const MAX_LEAVES: u64 = 1 << 24;

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

/// Writes a nested-list tree in khela's tree notation (`[[3,5],[2,9]]`), refusing what is not one.
fn write_tree(node: &Bound<'_, PyAny>, text: &mut String, depth: usize) -> PyResult<()> {
    if depth > 10_000 {
        return Err(PyValueError::new_err("the tree is more than 10,000 levels deep"));
    }
    if let Ok(list) = node.cast::<PyList>() {
        if list.is_empty() {
            return Err(PyValueError::new_err("an empty list is not a node: a decision node needs moves"));
        }
        text.push('[');
        for (i, child) in list.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            write_tree(&child, text, depth + 1)?;
        }
        text.push(']');
        return Ok(());
    }
    if node.is_instance_of::<PyInt>() && !node.is_instance_of::<pyo3::types::PyBool>() {
        let leaf: i64 = node.extract().map_err(|_| PyValueError::new_err(format!("leaf {node}: out of 64 bits")))?;
        text.push_str(&leaf.to_string());
        return Ok(());
    }
    Err(PyValueError::new_err(format!("{node}: a tree is nested lists with integer leaves")))
}

/// The tree a nested list describes, with `root` to move first.
fn tree_of(tree: &Bound<'_, PyAny>, root: &str) -> PyResult<Tree> {
    let mut text = String::new();
    write_tree(tree, &mut text, 0)?;
    Tree::parse(&text, player(root)?).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A search's counters and value as a [`Result`].
fn result(value: Value, best: Option<u32>, stats: Stats) -> Result {
    Result { value: value as i64, best, nodes: stats.nodes, leaves: stats.leaves, cutoffs: stats.cutoffs }
}

/// Plain minimax on a nested-list tree (every node visited): the root's value, its best move's index, and
/// the counters.
#[pyfunction]
#[pyo3(signature = (tree, root = "max"))]
fn minimax(py: Python<'_>, tree: &Bound<'_, PyAny>, root: &str) -> PyResult<Result> {
    let tree = tree_of(tree, root)?;
    let r = py.detach(|| Searcher::new(&tree, Natural).run(Algorithm::Minimax, &0));
    Ok(result(r.value, r.best, r.stats))
}

/// Fail-soft alpha-beta on a nested-list tree, children in `ordering` ("natural" or "reversed"): the root's
/// value, its best move's index, and the counters (leaves visited, cutoffs).
#[pyfunction]
#[pyo3(signature = (tree, root = "max", ordering = "natural"))]
fn alphabeta(py: Python<'_>, tree: &Bound<'_, PyAny>, root: &str, ordering: &str) -> PyResult<Result> {
    let order = match ordering {
        "natural" => MoveOrdering::Natural,
        "reversed" => MoveOrdering::Reversed,
        _ => return Err(PyValueError::new_err(format!("ordering {ordering:?}: natural or reversed"))),
    };
    let tree = tree_of(tree, root)?;
    let r = py.detach(|| Searcher::new(&tree, order).run(Algorithm::AlphaBeta, &0));
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

/// The compiled module.
#[pymodule]
fn _khela(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Result>()?;
    m.add_function(wrap_pyfunction!(minimax, m)?)?;
    m.add_function(wrap_pyfunction!(alphabeta, m)?)?;
    m.add_function(wrap_pyfunction!(random_tree, m)?)?;
    Ok(())
}
