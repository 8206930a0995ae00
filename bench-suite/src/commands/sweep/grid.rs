//! The sweep's grid: which trees are searched, by which algorithms under which orderings, in what order, and
//! whether the whole is small enough to run.
//!
//! Grid order is the order of the CSV columns: model, b, d, seed (one *tree* each), then within a tree the
//! algorithms and orderings in the order they were listed. Trees are numbered 0, 1, 2, … in that order; shard
//! `K/N` runs the trees whose number is `K` modulo `N` (round robin, so every shard gets its share of the large
//! and the small trees).

use anyhow::{Result, bail};
use clap::ValueEnum;
use khela_exact::Algorithm;
use khela_games::implicit::{ImplicitTree, MAX_BRANCHING, MAX_DEPTH, Model, PYTHON_MAX_LEAVES};
use khela_games::random_tree::Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use crate::output::thousands;

/// Lists and ranges longer than this are refused while parsing.
pub const MAX_LIST: u64 = 1_000_000;

/// Trees with more leaves than this get no minimax row (minimax visits every node; the column
/// `minimax_leaves` still holds b^d).
pub const MINIMAX_MAX_LEAVES: u64 = 1 << 22;

/// Trees with more nodes than this get no `best` or `worst` rows: the oracle behind those orderings holds the
/// exact value of every node (8 bytes each).
pub const ORACLE_MAX_NODES: u64 = 1 << 24;

/// Grids estimated to visit more nodes than this are refused unless `--force`.
pub const MAX_NODES: f64 = 1e12;

/// Grids of more trees than this are refused unless `--force` (the summary holds every row's leaf count).
pub const MAX_TREES: u128 = 1_000_000;

/// The largest absolute edge value of the `incremental` model.
pub const INCREMENTAL_SPREAD: i64 = 100;

/// A conservative search rate, nodes per second per core, for the time in the refusal message.
const RATE_PER_CORE: f64 = 2e7;

/// A comma list of non-negative integers and inclusive ranges: `2,4,8`, `2..8`, `0..99`, `1,3..5`.
///
/// Values keep the order given; duplicates, empty items, inverted ranges and lists longer than [`MAX_LIST`] are
/// refused. [`fmt::Display`] writes the canonical form (runs of three or more consecutive values as ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List<T>(pub Vec<T>);

impl<T> FromStr for List<T>
where
    T: TryFrom<u64> + Into<u64> + Copy,
{
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text.trim().is_empty() {
            return Err(
                "the list is empty, so the grid asks for 0 trees and 0 nodes: give values like 2,4,8 or an inclusive \
                 range like 2..8"
                    .into(),
            );
        }
        let mut values = Vec::new();
        let mut seen = HashSet::new();
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                return Err(format!("the list {text:?} has an empty item"));
            }
            let (lo, hi) = match item.split_once("..") {
                Some((lo, hi)) => (number(lo)?, number(hi.strip_prefix('=').unwrap_or(hi))?),
                None => (number(item)?, number(item)?),
            };
            if lo > hi {
                return Err(format!(
                    "the range {item} is inverted, so it asks for 0 values (0 trees and 0 nodes): ranges are \
                     inclusive and ascending, like {hi}..{lo}"
                ));
            }
            let count = (hi - lo).saturating_add(1).saturating_add(values.len() as u64);
            if count > MAX_LIST {
                return Err(format!("{text:?} has more than {} values", thousands(MAX_LIST)));
            }
            for v in lo..=hi {
                let value = T::try_from(v).map_err(|_| format!("{v} is too large"))?;
                if !seen.insert(v) {
                    return Err(format!("{v} appears twice in {text:?}"));
                }
                values.push(value);
            }
        }
        Ok(List(values))
    }
}

fn number(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| format!("{:?} is not a non-negative integer", text.trim()))
}

impl<T: Into<u64> + Copy> fmt::Display for List<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<u64> = self.0.iter().map(|&v| v.into()).collect();
        let mut parts = Vec::new();
        let mut i = 0;
        while i < values.len() {
            let mut j = i;
            while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
                j += 1;
            }
            if j >= i + 2 {
                parts.push(format!("{}..{}", values[i], values[j]));
            } else {
                parts.extend(values[i..=j].iter().map(u64::to_string));
            }
            i = j + 1;
        }
        f.write_str(&parts.join(","))
    }
}

/// `--shard K/N`: the `K`-th of `N` shards, `K` in `0..N` like a Slurm array task id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..n`.
    pub k: u64,
    /// The number of shards.
    pub n: u64,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad =
            || format!("{text:?} is not a shard: write K/N, such as 0/4 (K = 0..N-1, like Slurm's array task ids)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if n == 0 {
            return Err(format!("shard {text}: N must be at least 1"));
        }
        if k >= n {
            return Err(format!(
                "shard {text}: K must be in 0..={} (shards count from 0, like Slurm's array task ids)",
                n - 1
            ));
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// The tree models of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum ModelName {
    /// Iid leaves uniform in 0..=2^31-1: ties are rare (Pearl's model of continuous leaves).
    Iid,
    /// Iid leaves uniform in 0..=99, the textbook's: ties are common and make pruning easier.
    #[value(name = "iid100")]
    Iid100,
    /// Edge values uniform in -100..=100, a node's value the sum along its path (see khela_games::implicit).
    Incremental,
}

impl ModelName {
    /// Every model, in the default order.
    pub const ALL: [ModelName; 3] = [ModelName::Iid, ModelName::Iid100, ModelName::Incremental];

    /// The name in CSV files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ModelName::Iid => "iid",
            ModelName::Iid100 => "iid100",
            ModelName::Incremental => "incremental",
        }
    }

    /// The model's distribution.
    pub fn model(self) -> Model {
        match self {
            ModelName::Iid => Model::Iid { lo: 0, hi: (1 << 31) - 1 },
            ModelName::Iid100 => Model::Iid { lo: 0, hi: 99 },
            ModelName::Incremental => Model::Incremental { spread: INCREMENTAL_SPREAD },
        }
    }

    /// Whether leaves are independent (Pearl's model), so that Pearl's R_b applies and static values say
    /// nothing.
    pub fn is_iid(self) -> bool {
        matches!(self.model(), Model::Iid { .. })
    }
}

/// The algorithms of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum AlgorithmName {
    /// Plain minimax: every node; one row per tree (ordering `natural`), none above 2^22 leaves.
    Minimax,
    /// Alpha-beta.
    Alphabeta,
    /// NegaScout (principal variation search).
    Negascout,
    /// MTD(f) with a transposition table, first guess the root's static value.
    Mtdf,
    /// Iterative deepening alpha-beta with a transposition table, static values at the horizon.
    Id,
}

impl AlgorithmName {
    /// Every algorithm, in the default order.
    pub const ALL: [AlgorithmName; 5] = [
        AlgorithmName::Minimax,
        AlgorithmName::Alphabeta,
        AlgorithmName::Negascout,
        AlgorithmName::Mtdf,
        AlgorithmName::Id,
    ];

    /// The search's algorithm.
    pub fn algorithm(self) -> Algorithm {
        match self {
            AlgorithmName::Minimax => Algorithm::Minimax,
            AlgorithmName::Alphabeta => Algorithm::AlphaBeta,
            AlgorithmName::Negascout => Algorithm::NegaScout,
            AlgorithmName::Mtdf => Algorithm::MtdF,
            AlgorithmName::Id => Algorithm::IterativeDeepening,
        }
    }

    /// The name in CSV files and on the command line.
    pub fn name(self) -> &'static str {
        self.algorithm().name()
    }

    /// Whether the search keeps a transposition table and uses the static evaluator.
    pub fn uses_table(self) -> bool {
        matches!(self, AlgorithmName::Mtdf | AlgorithmName::Id)
    }
}

/// The move orderings of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum OrderingName {
    /// Moves in their natural order.
    Natural,
    /// A shuffle at every node, seeded by the tree's seed.
    Random,
    /// Oracle: best child first, by exact minimax values (not counted).
    Best,
    /// Oracle: worst child first.
    Worst,
    /// Children by their static value (path sum), best first; incremental model only (on iid trees every static
    /// value is the same, so it would be natural ordering under another name: skipped).
    Static,
    /// The history heuristic.
    History,
}

impl OrderingName {
    /// Every ordering, in the default order.
    pub const ALL: [OrderingName; 6] = [
        OrderingName::Natural,
        OrderingName::Random,
        OrderingName::Best,
        OrderingName::Worst,
        OrderingName::Static,
        OrderingName::History,
    ];

    /// The name in CSV files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OrderingName::Natural => "natural",
            OrderingName::Random => "random",
            OrderingName::Best => "best",
            OrderingName::Worst => "worst",
            OrderingName::Static => "static",
            OrderingName::History => "history",
        }
    }

    fn is_oracle(self) -> bool {
        matches!(self, OrderingName::Best | OrderingName::Worst)
    }
}

/// One tree of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSpec {
    /// The model.
    pub model: ModelName,
    /// Branching factor.
    pub b: u32,
    /// Depth.
    pub d: u32,
    /// Seed.
    pub seed: u64,
}

impl fmt::Display for TreeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model={} b={} d={} seed={}", self.model.name(), self.b, self.d, self.seed)
    }
}

/// One search of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSpec {
    /// The algorithm.
    pub algorithm: AlgorithmName,
    /// The ordering.
    pub ordering: OrderingName,
}

/// The default grid's branching factors. The default grid takes every model, algorithm and ordering: 3,780
/// trees, 84,420 searches, 2·10⁹ nodes, 29 s on two otherwise idle cores in a release build (60 s on one) (b=8, d=7 takes
/// about half of it).
pub const DEFAULT_B: &str = "2..8";
/// The default depths.
pub const DEFAULT_D: &str = "2..7";
/// The default seeds.
pub const DEFAULT_SEEDS: &str = "0..29";

/// The whole grid, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Tree models.
    pub models: Vec<ModelName>,
    /// Branching factors.
    pub b: List<u32>,
    /// Depths.
    pub d: List<u32>,
    /// Seeds.
    pub seeds: List<u64>,
    /// Algorithms.
    pub algorithms: Vec<AlgorithmName>,
    /// Orderings.
    pub orderings: Vec<OrderingName>,
    /// The leaf generator.
    pub rng: Rng,
}

/// The grid as it is recorded in the sidecar, every list in canonical form, so that `merge` can rebuild it
/// and check that shards belong together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridSpec {
    /// Models, comma-separated.
    pub models: String,
    /// Branching factors.
    pub b: String,
    /// Depths.
    pub d: String,
    /// Seeds.
    pub seeds: String,
    /// Algorithms, comma-separated.
    pub algorithms: String,
    /// Orderings, comma-separated.
    pub orderings: String,
    /// `pcg` or `python`.
    pub rng: String,
}

/// What a grid asks for: the figures in refusals and notes.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Trees in the whole grid (all shards).
    pub trees: u128,
    /// An upper estimate of the nodes visited, all runs of all trees, oracles included.
    pub nodes: f64,
}

impl Grid {
    /// A grid from the command line's lists (`None`: the default), checked for duplicates.
    pub fn new(
        models: &[ModelName],
        b: Option<List<u32>>,
        d: Option<List<u32>>,
        seeds: Option<List<u64>>,
        algorithms: &[AlgorithmName],
        orderings: &[OrderingName],
        rng: Rng,
    ) -> Result<Grid> {
        let default = |text: &str| -> List<u32> { text.parse().expect("the default lists parse") };
        let grid = Grid {
            models: names(models, &ModelName::ALL, "--models", |m| m.name())?,
            b: b.unwrap_or_else(|| default(DEFAULT_B)),
            d: d.unwrap_or_else(|| default(DEFAULT_D)),
            seeds: seeds.unwrap_or_else(|| DEFAULT_SEEDS.parse().expect("the default seeds parse")),
            algorithms: names(algorithms, &AlgorithmName::ALL, "--algorithms", |a| a.name())?,
            orderings: names(orderings, &OrderingName::ALL, "--orderings", |o| o.name())?,
            rng,
        };
        Ok(grid)
    }

    /// The grid recorded in a sidecar.
    pub fn from_spec(spec: &GridSpec) -> Result<Grid> {
        fn parse_names<T: ValueEnum>(text: &str) -> Result<Vec<T>> {
            text.split(',').map(|n| T::from_str(n, false).map_err(|e| anyhow::anyhow!("{n:?}: {e}"))).collect()
        }
        let list_error = |e: String| anyhow::anyhow!(e);
        let rng = match spec.rng.as_str() {
            "pcg" => Rng::Pcg,
            "python" => Rng::Python,
            other => bail!("unknown generator {other:?}"),
        };
        Grid::new(
            &parse_names::<ModelName>(&spec.models)?,
            Some(spec.b.parse().map_err(list_error)?),
            Some(spec.d.parse().map_err(list_error)?),
            Some(spec.seeds.parse().map_err(list_error)?),
            &parse_names::<AlgorithmName>(&spec.algorithms)?,
            &parse_names::<OrderingName>(&spec.orderings)?,
            rng,
        )
    }

    /// The grid in canonical form.
    pub fn spec(&self) -> GridSpec {
        let join = |names: Vec<&str>| names.join(",");
        GridSpec {
            models: join(self.models.iter().map(|m| m.name()).collect()),
            b: self.b.to_string(),
            d: self.d.to_string(),
            seeds: self.seeds.to_string(),
            algorithms: join(self.algorithms.iter().map(|a| a.name()).collect()),
            orderings: join(self.orderings.iter().map(|o| o.name()).collect()),
            rng: self.rng.name().to_string(),
        }
    }

    /// The number of trees in the whole grid.
    pub fn tree_count(&self) -> u128 {
        [self.models.len(), self.b.0.len(), self.d.0.len(), self.seeds.0.len()].iter().map(|&n| n as u128).product()
    }

    /// The trees in grid order, each with its number.
    pub fn trees(&self) -> impl Iterator<Item = TreeSpec> + '_ {
        self.models.iter().flat_map(move |&model| {
            self.b.0.iter().flat_map(move |&b| {
                self.d.0.iter().flat_map(move |&d| self.seeds.0.iter().map(move |&seed| TreeSpec { model, b, d, seed }))
            })
        })
    }

    /// The searches of a tree of this model and shape, in row order. Minimax runs once (ordering `natural`: it
    /// visits every node in any order), and not at all above [`MINIMAX_MAX_LEAVES`]; `static` is skipped on iid
    /// trees; `best` and `worst` are skipped above [`ORACLE_MAX_NODES`].
    pub fn runs(&self, model: ModelName, b: u32, d: u32) -> Vec<RunSpec> {
        let (leaves, nodes) = shape(b, d).unwrap_or((u64::MAX, u64::MAX));
        let mut runs = Vec::new();
        for &algorithm in &self.algorithms {
            if algorithm == AlgorithmName::Minimax {
                if leaves <= MINIMAX_MAX_LEAVES {
                    runs.push(RunSpec { algorithm, ordering: OrderingName::Natural });
                }
                continue;
            }
            for &ordering in &self.orderings {
                let skipped = (ordering == OrderingName::Static && model.is_iid())
                    || (ordering.is_oracle() && nodes > ORACLE_MAX_NODES);
                if !skipped {
                    runs.push(RunSpec { algorithm, ordering });
                }
            }
        }
        runs
    }

    /// An upper estimate of the nodes a tree of this model and shape costs: every search visits at most about
    /// the whole tree (iterative deepening a little more), and the oracle orderings add one minimax over it.
    /// It weighs the trees in the progress bar's estimate of the time left.
    pub fn tree_cost(&self, model: ModelName, b: u32, d: u32) -> u64 {
        let nodes = shape(b, d).map_or(u64::MAX, |(_, nodes)| nodes);
        let runs = self.runs(model, b, d);
        let passes = runs.len() + usize::from(runs.iter().any(|r| r.ordering.is_oracle()));
        nodes.saturating_mul(passes as u64)
    }

    /// What the grid leaves out, one line each.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let shapes: Vec<(u32, u32)> = self.b.0.iter().flat_map(|&b| self.d.0.iter().map(move |&d| (b, d))).collect();
        let above = |limit: u64, of: fn(u64, u64) -> u64| -> Vec<String> {
            shapes
                .iter()
                .filter(|&&(b, d)| shape(b, d).is_none_or(|(l, n)| of(l, n) > limit))
                .map(|&(b, d)| format!("b={b} d={d}"))
                .collect()
        };
        if self.algorithms.contains(&AlgorithmName::Minimax) {
            let big = above(MINIMAX_MAX_LEAVES, |leaves, _| leaves);
            if !big.is_empty() {
                notes.push(format!(
                    "minimax is skipped on trees of more than 2^22 leaves ({}); minimax_leaves still says b^d",
                    big.join(", ")
                ));
            }
        }
        if self.orderings.iter().any(|o| o.is_oracle()) {
            let big = above(ORACLE_MAX_NODES, |_, nodes| nodes);
            if !big.is_empty() {
                notes.push(format!(
                    "best and worst are skipped on trees of more than 2^24 nodes ({}): their oracle holds every node's value",
                    big.join(", ")
                ));
            }
        }
        if self.orderings.contains(&OrderingName::Static)
            && self.models.iter().any(|m| m.is_iid())
            && self.algorithms.iter().any(|&a| a != AlgorithmName::Minimax)
        {
            notes.push(
                "static ordering is skipped on iid trees: every static value there is the same, so it is natural \
                 ordering under another name"
                    .to_string(),
            );
        }
        notes
    }

    /// Checks that every tree can be built and that the grid is worth running: refuses zero branching or depth,
    /// trees too large to number, the python generator on trees it cannot hold or on the incremental model, a
    /// grid with no searches, and (unless `force`) grids above [`MAX_TREES`] trees or [`MAX_NODES`] nodes.
    pub fn check(&self, force: bool) -> Result<Estimate> {
        if let Some(b) = self.b.0.iter().find(|&&b| b == 0) {
            bail!("--b {b}: a tree needs a branching factor of at least 1");
        }
        if self.d.0.contains(&0) {
            bail!("--d 0: a tree of depth 0 is a single leaf, with nothing to search or prune; depths start at 1");
        }
        if let Some(b) = self.b.0.iter().find(|&&b| b > MAX_BRANCHING) {
            bail!("--b {b}: beyond the largest branching factor, {MAX_BRANCHING} (every node lists its b moves)");
        }
        if let Some(d) = self.d.0.iter().find(|&&d| d > MAX_DEPTH) {
            bail!("--d {d}: beyond the deepest tree, {MAX_DEPTH} (the searches recurse once per ply)");
        }
        for &b in &self.b.0 {
            for &d in &self.d.0 {
                if shape(b, d).is_none() {
                    bail!("tree b={b} d={d} has more than 2^62 nodes, too many to number");
                }
            }
        }
        if self.rng == Rng::Python {
            if self.models.contains(&ModelName::Incremental) {
                bail!(
                    "--rng python draws iid leaves only: use --rng pcg for the incremental model, or leave it out of --models"
                );
            }
            for &b in &self.b.0 {
                for &d in &self.d.0 {
                    let (leaves, _) = shape(b, d).expect("checked above");
                    if leaves > PYTHON_MAX_LEAVES {
                        bail!(
                            "tree b={b} d={d} has {} leaves; --rng python holds every leaf in memory and is limited \
                             to {} leaves: use --rng pcg, which derives values on demand",
                            thousands(leaves),
                            thousands(PYTHON_MAX_LEAVES)
                        );
                    }
                }
            }
        }
        let trees = self.tree_count();
        let mut nodes = 0.0;
        let mut runs = 0u128;
        for &model in &self.models {
            for &b in &self.b.0 {
                for &d in &self.d.0 {
                    nodes += self.tree_cost(model, b, d) as f64 * self.seeds.0.len() as f64;
                    runs += self.runs(model, b, d).len() as u128 * self.seeds.0.len() as u128;
                }
            }
        }
        let asked = format!(
            "{} models × {} b × {} d × {} seeds = {} trees and up to about {:.1e} nodes",
            self.models.len(),
            self.b.0.len(),
            self.d.0.len(),
            self.seeds.0.len(),
            thousands(trees.min(u64::MAX as u128) as u64),
            nodes
        );
        if runs == 0 {
            bail!(
                "the grid asks for {asked}, but no searches: every algorithm and ordering asked for is skipped on these trees"
            );
        }
        if !force && trees > MAX_TREES {
            bail!(
                "the grid asks for {asked}: more than {} trees; shrink it, or run it in shards (--shard K/N), or pass --force",
                thousands(MAX_TREES as u64)
            );
        }
        if !force && nodes > MAX_NODES {
            bail!(
                "the grid asks for {asked}, more than the limit of {MAX_NODES:.0e} (about {:.0} hours on one core at \
                 {RATE_PER_CORE:.0e} nodes per second); shrink it, run it in shards (--shard K/N), or pass --force",
                nodes / RATE_PER_CORE / 3600.0
            );
        }
        Ok(Estimate { trees, nodes })
    }
}

/// A name list from the command line: the default when absent, duplicates refused.
fn names<T: Copy + PartialEq>(given: &[T], all: &[T], flag: &str, name: fn(T) -> &'static str) -> Result<Vec<T>> {
    if given.is_empty() {
        return Ok(all.to_vec());
    }
    for (i, &x) in given.iter().enumerate() {
        if given[..i].contains(&x) {
            bail!("{flag} lists {} twice", name(x));
        }
    }
    Ok(given.to_vec())
}

/// Leaves b^d and nodes 1 + b + … + b^d of a tree that [`ImplicitTree`] can number (at most 2^62 nodes).
pub fn shape(b: u32, d: u32) -> Option<(u64, u64)> {
    let (mut level, mut total) = (1u64, 1u64);
    for _ in 0..d {
        level = level.checked_mul(u64::from(b))?;
        total = total.checked_add(level).filter(|&t| t <= 1 << 62)?;
    }
    Some((level, total))
}

/// The Knuth–Moore minimum of a tree [`Grid::check`] accepted (whose nodes number within 64 bits).
pub fn knuth_moore(b: u32, d: u32) -> u64 {
    khela_exact::knuth_moore(b, d).expect("a checked tree's minimal tree fits in 64 bits")
}

/// The tree itself.
pub fn build(tree: TreeSpec, rng: Rng) -> Result<ImplicitTree> {
    Ok(match (rng, tree.model.model()) {
        (Rng::Python, Model::Iid { lo, hi }) => ImplicitTree::python(tree.b, tree.d, tree.seed, lo, hi)?,
        (Rng::Python, Model::Incremental { .. }) => bail!("--rng python draws iid leaves only"),
        (Rng::Pcg, model) => ImplicitTree::hashed(tree.b, tree.d, tree.seed, model)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<&[u64], &str>) {
        let parsed: Result<List<u64>, String> = text.parse();
        match (parsed, expected) {
            (Ok(list), Ok(values)) => assert_eq!(list.0, values, "{text}"),
            (Err(err), Err(part)) => assert!(err.contains(part), "{text}: {err:?} lacks {part:?}"),
            (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn lists_and_ranges() {
        check("4", Ok(&[4]));
        check("2,4,8", Ok(&[2, 4, 8]));
        check("2..5", Ok(&[2, 3, 4, 5]));
        check("2..=4", Ok(&[2, 3, 4]));
        check("0..0", Ok(&[0]));
        check("8,1..3", Ok(&[8, 1, 2, 3]));
        check(" 1, 2 ", Ok(&[1, 2]));
        check("", Err("the list is empty"));
        check("1,,2", Err("has an empty item"));
        check("8..2", Err("the range 8..2 is inverted"));
        check("x", Err("\"x\" is not a non-negative integer"));
        check("-1", Err("is not a non-negative integer"));
        check("1..x", Err("\"x\" is not"));
        check("1,2,1", Err("1 appears twice"));
        check("0..1000000", Err("more than 1,000,000 values"));
        check("0..18446744073709551615", Err("more than 1,000,000 values"));
        let narrow: Result<List<u32>, String> = "4294967296".parse();
        assert_eq!(narrow.unwrap_err(), "4294967296 is too large");
    }

    #[test]
    fn lists_print_canonically() {
        let canonical = |text: &str| text.parse::<List<u64>>().unwrap().to_string();
        assert_eq!(canonical("0..99"), "0..99");
        assert_eq!(canonical("0,1,2,3"), "0..3");
        assert_eq!(canonical("1,2,4"), "1,2,4");
        assert_eq!(canonical("9,1..3,5"), "9,1..3,5");
        assert_eq!(canonical("3,2,1"), "3,2,1");
    }

    #[test]
    fn shards() {
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard { k: 0, n: 1 }));
        assert_eq!("3/4".parse::<Shard>(), Ok(Shard { k: 3, n: 4 }));
        assert!("2/2".parse::<Shard>().unwrap_err().contains("K must be in 0..=1"));
        assert!("0/0".parse::<Shard>().unwrap_err().contains("N must be at least 1"));
        assert!("1".parse::<Shard>().unwrap_err().contains("write K/N"));
    }

    #[test]
    fn knuth_moore_and_shapes() {
        assert_eq!(knuth_moore(4, 6), 127);
        assert_eq!(knuth_moore(3, 5), 27 + 9 - 1);
        assert_eq!(knuth_moore(10, 1), 10);
        assert_eq!(shape(4, 6), Some((4096, 5461)));
        assert_eq!(shape(10, 40), None);
    }

    #[test]
    fn grid_order_and_runs() {
        let grid = Grid::new(
            &[ModelName::Iid, ModelName::Incremental],
            Some("2,3".parse().unwrap()),
            Some("1".parse().unwrap()),
            Some("5,6".parse().unwrap()),
            &[AlgorithmName::Alphabeta, AlgorithmName::Minimax],
            &[OrderingName::Static, OrderingName::Natural, OrderingName::Best],
            Rng::Pcg,
        )
        .unwrap();
        let trees: Vec<String> = grid.trees().map(|t| t.to_string()).collect();
        assert_eq!(trees[0], "model=iid b=2 d=1 seed=5");
        assert_eq!(trees[1], "model=iid b=2 d=1 seed=6");
        assert_eq!(trees[2], "model=iid b=3 d=1 seed=5");
        assert_eq!(trees[7], "model=incremental b=3 d=1 seed=6");
        let names = |runs: Vec<RunSpec>| -> Vec<String> {
            runs.iter().map(|r| format!("{}/{}", r.algorithm.name(), r.ordering.name())).collect()
        };
        assert_eq!(names(grid.runs(ModelName::Iid, 2, 1)), ["alphabeta/natural", "alphabeta/best", "minimax/natural"]);
        assert_eq!(
            names(grid.runs(ModelName::Incremental, 2, 1)),
            ["alphabeta/static", "alphabeta/natural", "alphabeta/best", "minimax/natural"]
        );
        assert_eq!(names(grid.runs(ModelName::Iid, 2, 24)), ["alphabeta/natural"]);
        assert_eq!(Grid::from_spec(&grid.spec()).unwrap(), grid);
    }
}
