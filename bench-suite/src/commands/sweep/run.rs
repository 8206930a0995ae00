//! Searching the trees: every search of a tree, checked against the others, and the trees on every thread,
//! handed to the writer in grid order.

use super::grid::{Built, Grid, OrderingName, RunSpec, TreeSpec, build};
use super::rows::Row;
use crate::output;
use anyhow::{Context, Result, bail};
use khela_exact::{Config, Ordering, search};
use khela_games::chance_tree::ChanceTree;
use khela_games::implicit::{ImplicitTree, Position};
use khela_games::{Game, Node, Player, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The largest transposition table MTD(f) and iterative deepening get, in MiB (one per search in flight).
const MAX_TABLE_MIB: usize = 16;

/// Bytes of table per tree node, up to [`MAX_TABLE_MIB`]: room for a quarter of the nodes, more than these
/// searches visit except under worst-first ordering.
const TABLE_BYTES_PER_NODE: u64 = 8;

/// A tree's rows and what they cost.
pub struct TreeResult {
    /// One row per search, in run order.
    pub rows: Vec<Row>,
    /// Nodes visited by all its searches.
    pub nodes: u64,
    /// Time spent in its searches (and in its oracle), summed over threads.
    pub busy: Duration,
}

/// What the sweep needs of a tree besides the game: its size and its nodes' static values. Its nodes are
/// [`Position`]s numbered `0..nodes()` by [`Game::key`], and the moves of a node are `0..move_count`.
pub trait SweepTree: Game<State = Position, Move = u32> + Sync {
    /// The root.
    const ROOT: Position;

    /// The number of nodes.
    fn nodes(&self) -> u64;

    /// The static value of a node, from MAX's view.
    fn static_value(&self, p: &Position) -> Value;

    /// Bounds on every leaf value, for star pruning, if the tree has chance nodes to prune.
    fn star_bounds(&self) -> Option<(Value, Value)>;
}

impl SweepTree for ImplicitTree {
    const ROOT: Position = ImplicitTree::ROOT;

    fn nodes(&self) -> u64 {
        ImplicitTree::nodes(self)
    }

    fn static_value(&self, p: &Position) -> Value {
        ImplicitTree::static_value(self, p)
    }

    /// None: there are no chance nodes.
    fn star_bounds(&self) -> Option<(Value, Value)> {
        None
    }
}

impl SweepTree for ChanceTree {
    const ROOT: Position = ChanceTree::ROOT;

    fn nodes(&self) -> u64 {
        ChanceTree::nodes(self)
    }

    /// The middle of the leaf range, as on iid trees: there is nothing to see before the leaves.
    fn static_value(&self, _: &Position) -> Value {
        let (lo, hi) = self.bounds();
        (lo + hi) / 2.0
    }

    fn star_bounds(&self) -> Option<(Value, Value)> {
        Some(self.bounds())
    }
}

/// A sweep tree with the exact (expecti)minimax value of every node, by node number, for the oracle orderings.
///
/// `best` and `worst` are run as [`Ordering::Static`] by these exact values (negated for worst first): the
/// same stable sort of the children as [`Ordering::BestFirst`] and [`Ordering::WorstFirst`], so the same
/// search, node for node (`oracle_orderings_are_the_librarys` checks it), but the values are computed once per
/// tree, bottom-up into a flat array, instead of by a memoized minimax in every search.
pub struct Oracled<'t, T> {
    tree: &'t T,
    exact: Vec<Value>,
}

impl<'t, T: SweepTree> Oracled<'t, T> {
    /// The tree, with exact values if `oracle`.
    pub fn new(tree: &'t T, oracle: bool) -> Oracled<'t, T> {
        let mut exact = Vec::new();
        if oracle {
            exact = vec![0.0; tree.nodes() as usize];
            fill(tree, &T::ROOT, &mut exact);
        }
        Oracled { tree, exact }
    }
}

/// Stores the (expecti)minimax value of `p` and of every node below it in `exact`, and returns it. A chance
/// node's value is summed as the searches sum it (`mean += p · value`, in outcome order), so it is the same
/// number, bit for bit.
fn fill<T: SweepTree>(tree: &T, p: &Position, exact: &mut [Value]) -> Value {
    let value = match tree.node(p) {
        Node::Terminal(value) => value,
        Node::Decision(player) => {
            let count = tree.move_count(p, &mut Vec::new()) as u32;
            let children = (0..count).map(|mv| fill(tree, &tree.child(p, mv), exact));
            match player {
                Player::Max => children.fold(Value::NEG_INFINITY, Value::max),
                Player::Min => children.fold(Value::INFINITY, Value::min),
            }
        }
        Node::Chance => {
            let mut outcomes = Vec::new();
            tree.outcomes(p, &mut outcomes);
            let mut mean = 0.0;
            for (outcome, probability) in outcomes {
                mean += probability * fill(tree, &tree.child(p, outcome), exact);
            }
            mean
        }
    };
    exact[tree.key(p) as usize] = value;
    value
}

impl<T: SweepTree> Game for Oracled<'_, T> {
    type State = Position;
    type Move = u32;

    #[inline]
    fn node(&self, p: &Position) -> Node {
        self.tree.node(p)
    }

    #[inline]
    fn moves(&self, p: &Position, buf: &mut Vec<u32>) {
        self.tree.moves(p, buf);
    }

    #[inline]
    fn move_count(&self, p: &Position, buf: &mut Vec<u32>) -> usize {
        self.tree.move_count(p, buf)
    }

    #[inline]
    fn outcomes(&self, p: &Position, buf: &mut Vec<(u32, f64)>) {
        self.tree.outcomes(p, buf);
    }

    #[inline]
    fn play(&self, p: &mut Position, mv: u32) {
        self.tree.play(p, mv);
    }

    #[inline]
    fn key(&self, p: &Position) -> u64 {
        self.tree.key(p)
    }
}

/// The static value of a node: the evaluator of MTD(f)'s first guess, iterative deepening's horizon and
/// `static` ordering.
fn static_value<T: SweepTree>(game: &Oracled<T>, p: &Position) -> Value {
    game.tree.static_value(p)
}

/// The exact value: sorted best first, the oracle's best-first order.
fn exact_value<T: SweepTree>(game: &Oracled<T>, p: &Position) -> Value {
    game.exact[game.tree.key(p) as usize]
}

/// The exact value negated: sorted best first, the oracle's worst-first order (`0.0 −`, so never −0).
fn negated_exact_value<T: SweepTree>(game: &Oracled<T>, p: &Position) -> Value {
    0.0 - game.exact[game.tree.key(p) as usize]
}

/// The transposition table's size for a tree of `nodes` nodes (see [`TABLE_BYTES_PER_NODE`]): at least 1 MiB,
/// at most [`MAX_TABLE_MIB`].
fn table_mib(nodes: u64) -> usize {
    (nodes.saturating_mul(TABLE_BYTES_PER_NODE).div_ceil(1 << 20) as usize).clamp(1, MAX_TABLE_MIB)
}

/// The search configuration of a run on `game`. `random` is seeded by the tree's seed, so the shuffles do not
/// depend on which thread runs the search, or when.
fn config<'t, T: SweepTree>(game: &Oracled<'t, T>, tree: TreeSpec, run: RunSpec) -> Config<Oracled<'t, T>> {
    let ordering = match run.ordering {
        OrderingName::Natural => Ordering::Natural,
        OrderingName::Random => Ordering::Random { seed: tree.seed },
        OrderingName::Best => Ordering::Static(exact_value),
        OrderingName::Worst => Ordering::Static(negated_exact_value),
        OrderingName::Static => Ordering::Static(static_value),
        OrderingName::History => Ordering::History,
    };
    let uses_table = run.algorithm.uses_table();
    Config {
        algorithm: run.algorithm.algorithm(),
        ordering,
        evaluator: uses_table.then_some(static_value as fn(&Oracled<'t, T>, &Position) -> Value),
        table_mib: if uses_table { table_mib(game.tree.nodes()) } else { 0 },
        bounds: game.tree.star_bounds(),
    }
}

/// Every search of one tree, its runs spread over the pool's idle threads. All of them must find the same
/// value: if two disagree, the error names the tree and both rows.
pub fn search_tree(grid: &Grid, tree: TreeSpec) -> Result<TreeResult> {
    let started = Instant::now();
    match build(tree, grid.rng).with_context(|| format!("tree {tree}"))? {
        Built::Implicit(implicit) => search_built(grid, tree, &implicit, started),
        Built::Chance(chance) => search_built(grid, tree, &chance, started),
    }
}

/// [`search_tree`] once the tree is built (at `started`).
fn search_built<T: SweepTree>(grid: &Grid, tree: TreeSpec, built: &T, started: Instant) -> Result<TreeResult> {
    let runs = grid.runs(tree.shape());
    let game = Oracled::new(built, runs.iter().any(|r| matches!(r.ordering, OrderingName::Best | OrderingName::Worst)));
    let preparation = started.elapsed();
    let results: Vec<(Row, Value, Duration)> = runs
        .par_iter()
        .map(|&run| {
            let started = Instant::now();
            let result = search(&game, &T::ROOT, &config(&game, tree, run));
            let busy = started.elapsed();
            let mut row = Row::new(tree, grid, run);
            row.value = output::value(result.value);
            row.leaves = result.stats.leaves;
            row.nodes = result.stats.nodes;
            row.cutoffs = result.stats.cutoffs;
            (row, result.value, busy)
        })
        .collect();
    check_values(tree, &results.iter().map(|(row, value, _)| (row, *value)).collect::<Vec<_>>())?;
    Ok(TreeResult {
        nodes: results.iter().map(|(row, _, _)| row.nodes).sum(),
        busy: preparation + results.iter().map(|(_, _, busy)| *busy).sum::<Duration>(),
        rows: results.into_iter().map(|(row, _, _)| row).collect(),
    })
}

/// Every row of a tree must hold the same value; the first that differs from the first row is reported.
pub fn check_values(tree: TreeSpec, rows: &[(&Row, Value)]) -> Result<()> {
    let Some(&(first, value)) = rows.first() else { return Ok(()) };
    if let Some(&(other, _)) = rows.iter().find(|(_, v)| *v != value) {
        bail!(
            "the searches of tree {tree} disagree: {}/{} finds {} but {}/{} finds {} (rows {:?} and {:?}); every \
             algorithm and ordering must find the same value, so one of these searches is wrong",
            first.algorithm,
            first.ordering,
            first.value,
            other.algorithm,
            other.ordering,
            other.value,
            first.line(),
            other.line()
        );
    }
    Ok(())
}

/// What a run of [`search_all`] cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    /// Trees searched.
    pub trees: usize,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent searching, summed over threads.
    pub busy: Duration,
    /// Time from start to finish.
    pub wall: Duration,
}

/// Searches `trees` on `threads` threads and hands each tree's result to `done`, in order, on this thread.
/// Threads take trees in order from a shared counter, so finished trees come back nearly in order and only a
/// few wait in a buffer for those before them. The first error stops the sweep: trees not yet started are not
/// started, and the error is returned after the trees in flight finish.
pub fn search_all(
    grid: &Grid,
    trees: &[TreeSpec],
    threads: usize,
    mut done: impl FnMut(TreeResult) -> Result<()>,
) -> Result<Cost> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the thread pool")?;
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, Result<TreeResult>)>();
    let mut cost = Cost::default();
    let outcome = std::thread::scope(|scope| -> Result<()> {
        let (next, stop) = (&next, &stop);
        scope.spawn(move || {
            pool.scope(|workers| {
                for _ in 0..threads {
                    let sender = sender.clone();
                    workers.spawn(move |_| {
                        while !stop.load(AtomicOrdering::Relaxed) {
                            let i = next.fetch_add(1, AtomicOrdering::Relaxed);
                            let Some(&tree) = trees.get(i) else { break };
                            if sender.send((i, search_tree(grid, tree))).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(sender);
        });
        let mut waiting = BTreeMap::new();
        let mut written = 0;
        let result = (|| {
            for (i, result) in &receiver {
                waiting.insert(i, result?);
                while let Some(tree) = waiting.remove(&written) {
                    cost.trees += 1;
                    cost.nodes += tree.nodes;
                    cost.busy += tree.busy;
                    done(tree)?;
                    written += 1;
                }
            }
            Ok(())
        })();
        if result.is_err() {
            stop.store(true, AtomicOrdering::Relaxed);
        }
        drop(receiver);
        result
    });
    cost.wall = started.elapsed();
    outcome.map(|()| cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::sweep::grid::{AlgorithmName, ModelName};

    #[test]
    fn disagreeing_rows_name_the_tree_and_both_rows() {
        let tree = TreeSpec { model: ModelName::Iid, b: 2, k: None, d: 3, seed: 7 };
        let grid = Grid::new(&[], None, None, None, None, &[], &[], khela_games::random_tree::Rng::Pcg).unwrap();
        let row = |algorithm, ordering, value: &str| {
            let mut row = Row::new(tree, &grid, RunSpec { algorithm, ordering });
            row.value = value.to_string();
            row
        };
        let a = row(AlgorithmName::Alphabeta, OrderingName::Natural, "26");
        let b = row(AlgorithmName::Negascout, OrderingName::Best, "26");
        let c = row(AlgorithmName::Mtdf, OrderingName::History, "25");
        assert!(check_values(tree, &[(&a, 26.0), (&b, 26.0)]).is_ok());
        let err = check_values(tree, &[(&a, 26.0), (&b, 26.0), (&c, 25.0)]).unwrap_err().to_string();
        assert!(err.contains("tree model=iid b=2 d=3 seed=7"), "{err}");
        assert!(err.contains("alphabeta/natural finds 26 but mtdf/history finds 25"), "{err}");
        assert!(err.contains("iid,2,,3,7,pcg,mtdf,history,25,"), "{err}");
    }

    #[test]
    fn tables_fit_the_tree() {
        assert_eq!(table_mib(15), 1);
        assert_eq!(table_mib(1_111_111), 9);
        assert_eq!(table_mib(1_111_111_111), MAX_TABLE_MIB);
    }

    /// Searches `built` with every algorithm the grid runs on its model under the precomputed oracle and under
    /// the library's BestFirst and WorstFirst, and checks that they search alike.
    fn same_as_the_library<T: SweepTree>(built: &T, spec: TreeSpec) {
        let game = Oracled::new(built, true);
        for algorithm in AlgorithmName::ALL.into_iter().filter(|a| a.applies_to(spec.model)) {
            for (ordering, library) in
                [(OrderingName::Best, Ordering::BestFirst), (OrderingName::Worst, Ordering::WorstFirst)]
            {
                let ours = search(&game, &T::ROOT, &config(&game, spec, RunSpec { algorithm, ordering }));
                let mut theirs = config(&game, spec, RunSpec { algorithm, ordering });
                theirs.ordering = library;
                let theirs = search(&game, &T::ROOT, &theirs);
                assert_eq!((ours.value, ours.stats), (theirs.value, theirs.stats), "{spec} {algorithm:?} {ordering:?}");
            }
        }
    }

    #[test]
    fn oracle_orderings_are_the_librarys() {
        // The precomputed oracle must search exactly as the library's BestFirst and WorstFirst: same value, same
        // counts, for every algorithm, on trees with ties (iid100, small b, chance) and without.
        for (model, b, k, d) in [
            (ModelName::Iid, 3, None, 5),
            (ModelName::Iid100, 4, None, 4),
            (ModelName::Incremental, 3, None, 5),
            (ModelName::Iid100, 2, None, 7),
            (ModelName::Chance, 3, Some(2), 3),
            (ModelName::Chance, 2, Some(3), 3),
        ] {
            for seed in 0..4 {
                let spec = TreeSpec { model, b, k, d, seed };
                match build(spec, khela_games::random_tree::Rng::Pcg).unwrap() {
                    Built::Implicit(tree) => same_as_the_library(&tree, spec),
                    Built::Chance(tree) => same_as_the_library(&tree, spec),
                }
            }
        }
    }
}
