//! Searching the trees: every search of a tree, checked against the others, and the trees on every thread,
//! handed to the writer in grid order.

use super::grid::{TreeSpec, is_oracle, uses_table};
use super::plan::TreeJob;
use super::rows::Row;
use super::trees::{Built, SweepTree, build};
use crate::args;
use anyhow::{Context, Result, bail};
use khela_exact::{Algorithm, EvalFn, Horizon, MoveOrdering, Oracle, OrderingParts, SearchConfig, search};
use khela_games::rng::Rng;
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

/// The transposition table's size for a tree of `nodes` nodes (see [`TABLE_BYTES_PER_NODE`]): at least 1 MiB,
/// at most [`MAX_TABLE_MIB`].
fn table_mib(nodes: u64) -> usize {
    (nodes.saturating_mul(TABLE_BYTES_PER_NODE).div_ceil(1 << 20) as usize).clamp(1, MAX_TABLE_MIB)
}

/// How the sweep searches with `algorithm` on `built`: MTD(f) and iterative deepening with a table sized to the
/// tree and the static value as evaluator, the star searches with the tree's bounds.
fn config<T: SweepTree>(built: &T, algorithm: Algorithm) -> (Horizon<T>, SearchConfig) {
    let table = uses_table(algorithm);
    let horizon = Horizon { evaluate: table.then_some(T::static_value as EvalFn<T>), ..Horizon::default() };
    let config = SearchConfig {
        algorithm,
        bounds: built.star_bounds(),
        table_mib: table.then(|| table_mib(built.nodes())),
        ..SearchConfig::default()
    };
    (horizon, config)
}

/// Every search of one tree, its runs spread over the pool's idle threads. All of them must find the same
/// value: if two disagree, the error names the tree and both rows.
pub fn search_tree(job: &TreeJob, rng: Rng) -> Result<TreeResult> {
    let started = Instant::now();
    match build(job.tree, rng).with_context(|| format!("tree {}", job.tree))? {
        Built::Implicit(implicit) => search_built(job, rng, &implicit, started),
        Built::Chance(chance) => search_built(job, rng, &chance, started),
    }
}

/// [`search_tree`] once the tree is built (at `started`).
fn search_built<T: SweepTree>(job: &TreeJob, rng: Rng, built: &T, started: Instant) -> Result<TreeResult> {
    let tree = job.tree;
    let oracle = job.runs.iter().any(|r| is_oracle(r.ordering));
    let oracle = oracle.then(|| Oracle::dense(built, &T::ROOT, built.nodes() as usize).shared());
    let preparation = started.elapsed();
    let results: Vec<(Row, Duration)> = job
        .runs
        .par_iter()
        .map(|&run| -> Result<(Row, Duration)> {
            let started = Instant::now();
            let (horizon, config) = config(built, run.algorithm);
            // Random orderings are seeded by the tree's seed, so the shuffles do not depend on which thread runs
            // the search, or when; best and worst sort by the tree's oracle; static by the static value.
            let parts = OrderingParts {
                seed: tree.seed,
                oracle: oracle.as_ref(),
                estimate: Some(T::static_value as EvalFn<T>),
                ..OrderingParts::default()
            };
            let ordering = MoveOrdering::named(run.ordering, &parts)?;
            let result = search(built, &T::ROOT, ordering, horizon, &config);
            let busy = started.elapsed();
            let stats = result.stats;
            let row = Row {
                value: result.value + 0.0,
                leaves: stats.leaves,
                nodes: stats.nodes,
                cutoffs: stats.cutoffs,
                ..Row::new(tree, rng, run)
            };
            Ok((row, busy))
        })
        .collect::<Result<_>>()?;
    check_values(tree, &results.iter().map(|(row, _)| row).collect::<Vec<_>>())?;
    Ok(TreeResult {
        nodes: results.iter().map(|(row, _)| row.nodes).sum(),
        busy: preparation + results.iter().map(|(_, busy)| *busy).sum::<Duration>(),
        rows: results.into_iter().map(|(row, _)| row).collect(),
    })
}

/// Every row of a tree must hold the same value, to the last bit; the first that differs from the first row is
/// reported.
pub fn check_values(tree: TreeSpec, rows: &[&Row]) -> Result<()> {
    let Some(&first) = rows.first() else { return Ok(()) };
    if let Some(&other) = rows.iter().find(|row| row.value.to_bits() != first.value.to_bits()) {
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
    jobs: &[TreeJob],
    rng: Rng,
    threads: usize,
    mut done: impl FnMut(TreeResult) -> Result<()>,
) -> Result<Cost> {
    let pool = args::pool(threads)?;
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
                            let Some(job) = jobs.get(i) else { break };
                            if sender.send((i, search_tree(job, rng))).is_err() {
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
    use crate::commands::sweep::grid::RunSpec;
    use crate::commands::sweep::grid::TreeShape;
    use crate::commands::sweep::model::ModelName;
    use khela_exact::OrderingKind;

    #[test]
    fn disagreeing_rows_name_the_tree_and_both_rows() {
        let tree = TreeSpec { shape: TreeShape { model: ModelName::Iid, b: 2, k: None, d: 3 }, seed: 7 };
        let row =
            |algorithm, ordering, value| Row { value, ..Row::new(tree, Rng::Pcg, RunSpec { algorithm, ordering }) };
        let a = row(Algorithm::AlphaBeta, OrderingKind::Natural, 26.0);
        let b = row(Algorithm::NegaScout, OrderingKind::BestFirst, 26.0);
        let c = row(Algorithm::MtdF, OrderingKind::History, 25.0);
        assert!(check_values(tree, &[&a, &b]).is_ok());
        let err = check_values(tree, &[&a, &b, &c]).unwrap_err().to_string();
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
}
