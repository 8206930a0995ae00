//! The plan: the grid's searches worked out once — per shape its runs and cost, per tree of this shard a job —
//! which the search, the rows' checks, the progress bar and `merge` all read.

use super::args::Shard;
use super::grid::{Grid, GridSize, RunSpec, TreeShape, TreeSpec, is_oracle};
use anyhow::Result;
use std::sync::Arc;

/// One tree to search: which, its searches and their estimated cost.
#[derive(Clone, Debug)]
pub struct TreeJob {
    /// The tree.
    pub tree: TreeSpec,
    /// Its searches, in row order.
    pub runs: Arc<[RunSpec]>,
    /// An upper estimate of the nodes its searches visit (see [`cost`]).
    pub cost: u64,
}

/// The trees of one shard (all of them without `--shard`), in grid order, and what the whole grid asks for.
pub struct Plan {
    /// This shard's trees.
    pub jobs: Vec<TreeJob>,
    /// The whole grid's trees and estimated nodes.
    pub estimate: GridSize,
}

impl Plan {
    /// The plan of `shard` of `grid` (the whole grid for `None`). The grid is validated, then refused if it
    /// has no searches or, unless `force`, is too large (see [`Grid::check_size`]); its trees are listed only
    /// after that.
    pub fn new(grid: &Grid, shard: Option<Shard>, force: bool) -> Result<Plan> {
        grid.validate()?;
        let shapes: Vec<(TreeShape, Arc<[RunSpec]>, u64)> = grid
            .shapes()
            .map(|shape| {
                let runs: Arc<[RunSpec]> = grid.runs(shape).into();
                let cost = cost(shape, &runs);
                (shape, runs, cost)
            })
            .collect();
        let seeds = grid.seeds.0.len() as u128;
        let runs = shapes.iter().map(|(_, runs, _)| runs.len() as u128 * seeds).sum();
        let nodes = shapes.iter().map(|&(_, _, cost)| cost as f64 * seeds as f64).sum();
        let estimate = grid.check_size(runs, nodes, force)?;
        let Shard { k, n } = shard.unwrap_or(Shard { k: 0, n: 1 });
        let jobs = shapes
            .iter()
            .flat_map(|(shape, runs, cost)| {
                grid.seeds.0.iter().map(|&seed| TreeJob {
                    tree: TreeSpec { shape: *shape, seed },
                    runs: runs.clone(),
                    cost: *cost,
                })
            })
            .enumerate()
            .filter(|(i, _)| *i as u64 % n == k)
            .map(|(_, job)| job)
            .collect();
        Ok(Plan { jobs, estimate })
    }

    /// The summed cost of `jobs`.
    pub fn cost(jobs: &[TreeJob]) -> u64 {
        jobs.iter().fold(0u64, |sum, job| sum.saturating_add(job.cost))
    }
}

/// An upper estimate of the nodes the searches `runs` of a tree of `shape` cost: every search visits at most
/// about the whole tree (iterative deepening a little more), and the oracle orderings add one minimax over it.
/// It weighs the trees in the progress bar's estimate of the time left.
fn cost(shape: TreeShape, runs: &[RunSpec]) -> u64 {
    let nodes = shape.size().map_or(u64::MAX, |(_, nodes)| nodes);
    let passes = runs.len() + usize::from(runs.iter().any(|r| is_oracle(r.ordering)));
    nodes.saturating_mul(passes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::sweep::grid::tests::grid;

    #[test]
    fn trees_in_grid_order_and_shards_round_robin() {
        let grid =
            grid(&["--models", "iid,incremental,chance", "--b", "2,3", "--d", "1", "--k", "4,2", "--seeds", "5,6"])
                .unwrap();
        let plan = Plan::new(&grid, None, false).unwrap();
        let trees: Vec<String> = plan.jobs.iter().map(|job| job.tree.to_string()).collect();
        assert_eq!(plan.estimate.trees, trees.len() as u128);
        assert_eq!(trees.len(), 2 * 2 * 2 + 2 * 2 * 2);
        assert_eq!(trees[0], "model=iid b=2 d=1 seed=5");
        assert_eq!(trees[1], "model=iid b=2 d=1 seed=6");
        assert_eq!(trees[2], "model=iid b=3 d=1 seed=5");
        assert_eq!(trees[7], "model=incremental b=3 d=1 seed=6");
        assert_eq!(trees[8], "model=chance b=2 k=4 d=1 seed=5");
        assert_eq!(trees[10], "model=chance b=2 k=2 d=1 seed=5");
        assert_eq!(trees[15], "model=chance b=3 k=2 d=1 seed=6");
        // A tree's runs and cost are its shape's; shard K of N takes trees K, K + N, …
        assert!(plan.jobs.iter().all(|job| *job.runs == *grid.runs(job.tree.shape)));
        assert_eq!(plan.jobs[0].cost, 3 * (grid.runs(plan.jobs[0].tree.shape).len() as u64 + 1));
        let shard = Plan::new(&grid, Some(Shard { k: 1, n: 3 }), false).unwrap();
        let sharded: Vec<String> = shard.jobs.iter().map(|job| job.tree.to_string()).collect();
        assert_eq!(sharded, trees.iter().skip(1).step_by(3).cloned().collect::<Vec<_>>());
        assert_eq!(Plan::cost(&plan.jobs), plan.jobs.iter().map(|job| job.cost).sum::<u64>());
    }
}
