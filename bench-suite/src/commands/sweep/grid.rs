//! The sweep's grid: which trees are searched, by which algorithms under which orderings, in what order, and
//! whether the whole is small enough to run.
//!
//! Grid order is the order of the CSV columns: model, b, k, d, seed (one *tree* each; k only for the chance
//! model), then within a tree the algorithms and orderings in the order they were listed. The deterministic
//! models take the lists `b` and `d`; the chance model its own `chance_b`, `k` and `chance_d`, because its
//! trees grow as (b·k)^d (`--b` and `--d` set both, their defaults differ). Trees are numbered 0, 1, 2, … in that order; shard
//! `K/N` runs the trees whose number is `K` modulo `N` (round robin, so every shard gets its share of the large
//! and the small trees).

use anyhow::{Result, bail};
use clap::ValueEnum;
use khela_exact::Algorithm;
use khela_games::chance_tree::{self, ChanceTree};
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

/// The leaf range of the `chance` model: the textbook's 0..=99, so that ties occur and the bounds star pruning
/// needs are tight.
pub const CHANCE_LEAVES: (i64, i64) = (0, 99);

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
    /// Regular *-minimax trees (khela_games::chance_tree): b moves, then k equiprobable outcomes, for d decision
    /// plies; iid leaves in 0..=99.
    Chance,
}

impl ModelName {
    /// Every model, in the default order.
    pub const ALL: [ModelName; 4] = [ModelName::Iid, ModelName::Iid100, ModelName::Incremental, ModelName::Chance];

    /// The name in CSV files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ModelName::Iid => "iid",
            ModelName::Iid100 => "iid100",
            ModelName::Incremental => "incremental",
            ModelName::Chance => "chance",
        }
    }

    /// The distribution of a deterministic model's implicit trees; `None` for the chance model.
    pub fn model(self) -> Option<Model> {
        match self {
            ModelName::Iid => Some(Model::Iid { lo: 0, hi: (1 << 31) - 1 }),
            ModelName::Iid100 => Some(Model::Iid { lo: 0, hi: 99 }),
            ModelName::Incremental => Some(Model::Incremental { spread: INCREMENTAL_SPREAD }),
            ModelName::Chance => None,
        }
    }

    /// Whether this is a deterministic model with independent leaves (Pearl's model), so that Pearl's R_b
    /// applies.
    pub fn is_iid(self) -> bool {
        matches!(self.model(), Some(Model::Iid { .. }))
    }

    /// Whether a node's static value says something about it (the incremental model's path sums); elsewhere every
    /// static value is the same, and static ordering is natural ordering under another name.
    pub fn has_static_values(self) -> bool {
        matches!(self.model(), Some(Model::Incremental { .. }))
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
    /// Alpha-beta with Ballard's Star1 pruning at chance nodes, given the leaf bounds (chance model only).
    Star1,
    /// Star1 after Star2's probing phase (chance model only).
    Star2,
}

impl AlgorithmName {
    /// Every algorithm, in the default order.
    pub const ALL: [AlgorithmName; 7] = [
        AlgorithmName::Minimax,
        AlgorithmName::Alphabeta,
        AlgorithmName::Negascout,
        AlgorithmName::Mtdf,
        AlgorithmName::Id,
        AlgorithmName::Star1,
        AlgorithmName::Star2,
    ];

    /// The search's algorithm.
    pub fn algorithm(self) -> Algorithm {
        match self {
            AlgorithmName::Minimax => Algorithm::Minimax,
            AlgorithmName::Alphabeta => Algorithm::AlphaBeta,
            AlgorithmName::Negascout => Algorithm::NegaScout,
            AlgorithmName::Mtdf => Algorithm::MtdF,
            AlgorithmName::Id => Algorithm::IterativeDeepening,
            AlgorithmName::Star1 => Algorithm::Star1,
            AlgorithmName::Star2 => Algorithm::Star2,
        }
    }

    /// The name in CSV files and on the command line.
    pub fn name(self) -> &'static str {
        self.algorithm().name()
    }

    /// Whether the sweep runs this algorithm on trees of `model`. On chance trees: minimax (expectiminimax, the
    /// reference), alpha-beta, Star1 and Star2; NegaScout, MTD(f) and iterative deepening search chance nodes as
    /// alpha-beta does (full windows), so they would measure nothing new. Star1 and Star2 on deterministic trees
    /// are alpha-beta.
    pub fn applies_to(self, model: ModelName) -> bool {
        let star = matches!(self, AlgorithmName::Star1 | AlgorithmName::Star2);
        match model {
            ModelName::Chance => star || matches!(self, AlgorithmName::Minimax | AlgorithmName::Alphabeta),
            _ => !star,
        }
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

/// The shape of the trees of the grid: model, branching, chance outcomes and depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The model.
    pub model: ModelName,
    /// Branching factor (moves at a decision node).
    pub b: u32,
    /// Outcomes at a chance node: the chance model's, `None` for the deterministic models.
    pub k: Option<u32>,
    /// Depth in decision plies.
    pub d: u32,
}

impl Shape {
    /// Leaves and nodes of a tree of this shape, or `None` if its nodes do not number in 64 bits (more than
    /// 2⁶²) or, for the chance model, the tree cannot be built (see [`ChanceTree::new`]).
    pub fn size(self) -> Option<(u64, u64)> {
        match self.k {
            None => shape(self.b, self.d),
            Some(k) => self.chance_tree(k, 0).ok().map(|tree| (tree.leaves(), tree.nodes())),
        }
    }

    /// The chance model's tree of this shape with `k` outcomes and this seed.
    fn chance_tree(self, k: u32, seed: u64) -> Result<ChanceTree, khela_games::implicit::TreeError> {
        let (lo, hi) = CHANCE_LEAVES;
        ChanceTree::new(chance_tree::Params { b: self.b, k, d: self.d, seed, lo, hi })
    }

    /// `b=2 d=3`, or `b=2 k=3 d=3` for the chance model.
    fn dimensions(self) -> String {
        match self.k {
            None => format!("b={} d={}", self.b, self.d),
            Some(k) => format!("b={} k={k} d={}", self.b, self.d),
        }
    }
}

/// One tree of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSpec {
    /// The model.
    pub model: ModelName,
    /// Branching factor.
    pub b: u32,
    /// Chance outcomes (the chance model only).
    pub k: Option<u32>,
    /// Depth in decision plies.
    pub d: u32,
    /// Seed.
    pub seed: u64,
}

impl TreeSpec {
    /// The tree's shape.
    pub fn shape(self) -> Shape {
        Shape { model: self.model, b: self.b, k: self.k, d: self.d }
    }
}

impl fmt::Display for TreeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model={} {} seed={}", self.model.name(), self.shape().dimensions(), self.seed)
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

/// The default grid's branching factors. The default grid takes every model, algorithm and ordering: 4,860
/// trees (1,080 of them chance trees), 101,700 searches, 2·10⁹ nodes, about 30 s on two otherwise idle cores in a
/// release build (60 s on one) (b=8, d=7 takes about half of it; the chance trees about 1 s).
pub const DEFAULT_B: &str = "2..8";
/// The default depths.
pub const DEFAULT_D: &str = "2..7";
/// The chance model's default branching factors.
pub const DEFAULT_CHANCE_B: &str = "2..4";
/// The chance model's default outcomes per chance node.
pub const DEFAULT_K: &str = "2..4";
/// The chance model's default depths (decision plies).
pub const DEFAULT_CHANCE_D: &str = "1..4";
/// The default seeds.
pub const DEFAULT_SEEDS: &str = "0..29";

/// The whole grid, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Tree models.
    pub models: Vec<ModelName>,
    /// Branching factors of the deterministic models.
    pub b: List<u32>,
    /// Depths of the deterministic models.
    pub d: List<u32>,
    /// Branching factors of the chance model.
    pub chance_b: List<u32>,
    /// Outcomes per chance node of the chance model.
    pub k: List<u32>,
    /// Depths (decision plies) of the chance model.
    pub chance_d: List<u32>,
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
    /// Branching factors of the deterministic models.
    pub b: String,
    /// Depths of the deterministic models.
    pub d: String,
    /// Branching factors of the chance model, if it is in the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance_b: Option<String>,
    /// Outcomes per chance node, if the chance model is in the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<String>,
    /// Depths of the chance model, if it is in the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance_d: Option<String>,
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
    /// A grid from the command line's lists (`None`: the default), checked for duplicates. `b` and `d` apply to
    /// every model; without them each takes its defaults. `k` is refused without the chance model.
    #[allow(clippy::too_many_arguments)] // One per flag of the command line.
    pub fn new(
        models: &[ModelName],
        b: Option<List<u32>>,
        d: Option<List<u32>>,
        k: Option<List<u32>>,
        seeds: Option<List<u64>>,
        algorithms: &[AlgorithmName],
        orderings: &[OrderingName],
        rng: Rng,
    ) -> Result<Grid> {
        let default = |text: &str| -> List<u32> { text.parse().expect("the default lists parse") };
        let models = names(models, &ModelName::ALL, "--models", |m| m.name())?;
        if let Some(k) = &k
            && !models.contains(&ModelName::Chance)
        {
            bail!("--k {k}: chance outcomes belong to the chance model, which --models leaves out; add chance to it");
        }
        let grid = Grid {
            models,
            chance_b: b.clone().unwrap_or_else(|| default(DEFAULT_CHANCE_B)),
            chance_d: d.clone().unwrap_or_else(|| default(DEFAULT_CHANCE_D)),
            k: k.unwrap_or_else(|| default(DEFAULT_K)),
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
        let list = |text: &str| -> Result<List<u32>> { text.parse().map_err(list_error) };
        let mut grid = Grid::new(
            &parse_names::<ModelName>(&spec.models)?,
            Some(list(&spec.b)?),
            Some(list(&spec.d)?),
            spec.k.as_deref().map(list).transpose()?,
            Some(spec.seeds.parse().map_err(list_error)?),
            &parse_names::<AlgorithmName>(&spec.algorithms)?,
            &parse_names::<OrderingName>(&spec.orderings)?,
            rng,
        )?;
        if let (Some(b), Some(d)) = (&spec.chance_b, &spec.chance_d) {
            (grid.chance_b, grid.chance_d) = (list(b)?, list(d)?);
        }
        Ok(grid)
    }

    /// The grid in canonical form.
    pub fn spec(&self) -> GridSpec {
        let join = |names: Vec<&str>| names.join(",");
        let chance = |list: &List<u32>| self.has_chance().then(|| list.to_string());
        GridSpec {
            models: join(self.models.iter().map(|m| m.name()).collect()),
            b: self.b.to_string(),
            d: self.d.to_string(),
            chance_b: chance(&self.chance_b),
            k: chance(&self.k),
            chance_d: chance(&self.chance_d),
            seeds: self.seeds.to_string(),
            algorithms: join(self.algorithms.iter().map(|a| a.name()).collect()),
            orderings: join(self.orderings.iter().map(|o| o.name()).collect()),
            rng: self.rng.name().to_string(),
        }
    }

    /// Whether the chance model is in the grid.
    pub fn has_chance(&self) -> bool {
        self.models.contains(&ModelName::Chance)
    }

    /// Whether a deterministic model is in the grid.
    fn has_deterministic(&self) -> bool {
        self.models.iter().any(|&m| m != ModelName::Chance)
    }

    /// The shapes of the grid's trees, in grid order: model, b, k, d.
    pub fn shapes(&self) -> impl Iterator<Item = Shape> + '_ {
        self.models.iter().flat_map(move |&model| {
            let (bs, ks, ds): (&[u32], Vec<Option<u32>>, &[u32]) = match model {
                ModelName::Chance => (&self.chance_b.0, self.k.0.iter().map(|&k| Some(k)).collect(), &self.chance_d.0),
                _ => (&self.b.0, vec![None], &self.d.0),
            };
            bs.iter().flat_map(move |&b| {
                ks.clone().into_iter().flat_map(move |k| ds.iter().map(move |&d| Shape { model, b, k, d }))
            })
        })
    }

    /// The number of trees in the whole grid.
    pub fn tree_count(&self) -> u128 {
        let len = |list: &List<u32>| list.0.len() as u128;
        let per_model = |model: &ModelName| match model {
            ModelName::Chance => len(&self.chance_b) * len(&self.k) * len(&self.chance_d),
            _ => len(&self.b) * len(&self.d),
        };
        self.models.iter().map(per_model).sum::<u128>() * self.seeds.0.len() as u128
    }

    /// The trees in grid order.
    pub fn trees(&self) -> impl Iterator<Item = TreeSpec> + '_ {
        self.shapes().flat_map(move |Shape { model, b, k, d }| {
            self.seeds.0.iter().map(move |&seed| TreeSpec { model, b, k, d, seed })
        })
    }

    /// The searches of a tree of this shape, in row order. Minimax runs once (ordering `natural`: it visits
    /// every node in any order), and not at all above [`MINIMAX_MAX_LEAVES`]; `static` is skipped where static
    /// values say nothing (iid and chance trees); `best` and `worst` are skipped above [`ORACLE_MAX_NODES`].
    pub fn runs(&self, shape: Shape) -> Vec<RunSpec> {
        let model = shape.model;
        let (leaves, nodes) = shape.size().unwrap_or((u64::MAX, u64::MAX));
        let mut runs = Vec::new();
        for &algorithm in self.algorithms.iter().filter(|a| a.applies_to(model)) {
            if algorithm == AlgorithmName::Minimax {
                if leaves <= MINIMAX_MAX_LEAVES {
                    runs.push(RunSpec { algorithm, ordering: OrderingName::Natural });
                }
                continue;
            }
            for &ordering in &self.orderings {
                let skipped = (ordering == OrderingName::Static && !model.has_static_values())
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
    pub fn tree_cost(&self, shape: Shape) -> u64 {
        let nodes = shape.size().map_or(u64::MAX, |(_, nodes)| nodes);
        let runs = self.runs(shape);
        let passes = runs.len() + usize::from(runs.iter().any(|r| r.ordering.is_oracle()));
        nodes.saturating_mul(passes as u64)
    }

    /// What the grid leaves out, one line each.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let above = |limit: u64, of: fn(u64, u64) -> u64| -> Vec<String> {
            let mut big = Vec::new();
            for shape in self.shapes().filter(|s| s.size().is_none_or(|(l, n)| of(l, n) > limit)) {
                let name = match shape.model {
                    ModelName::Chance => format!("chance {}", shape.dimensions()),
                    _ => shape.dimensions(),
                };
                if !big.contains(&name) {
                    big.push(name);
                }
            }
            big
        };
        if self.algorithms.contains(&AlgorithmName::Minimax) {
            let big = above(MINIMAX_MAX_LEAVES, |leaves, _| leaves);
            if !big.is_empty() {
                notes.push(format!(
                    "minimax is skipped on trees of more than 2^22 leaves ({}); minimax_leaves still says b^d \
                     ((b·k)^d)",
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
            && self.models.iter().any(|m| !m.has_static_values())
            && self.algorithms.iter().any(|&a| a != AlgorithmName::Minimax)
        {
            notes.push(
                "static ordering is skipped on iid and chance trees: every static value there is the same, so it is \
                 natural ordering under another name"
                    .to_string(),
            );
        }
        let skipped = |model: ModelName| -> Vec<&str> {
            let skipped = self.algorithms.iter().filter(|a| !a.applies_to(model));
            skipped.map(|a| a.name()).collect()
        };
        if self.has_chance() && !skipped(ModelName::Chance).is_empty() {
            notes.push(format!(
                "skipped on chance trees: {} (at chance nodes they search as alpha-beta does, with full windows)",
                skipped(ModelName::Chance).join(", ")
            ));
        }
        if self.has_deterministic() && !skipped(ModelName::Iid).is_empty() {
            notes.push(format!(
                "skipped on deterministic trees: {} (without chance nodes they are alpha-beta)",
                skipped(ModelName::Iid).join(", ")
            ));
        }
        notes
    }

    /// Checks that every tree can be built and that the grid is worth running: refuses zero branching or depth,
    /// trees too large to number, the python generator on trees it cannot hold or on the incremental model, a
    /// grid with no searches, and (unless `force`) grids above [`MAX_TREES`] trees or [`MAX_NODES`] nodes.
    pub fn check(&self, force: bool) -> Result<Estimate> {
        let mut lists = Vec::new();
        if self.has_deterministic() {
            lists.push((&self.b, &self.d));
        }
        if self.has_chance() {
            lists.push((&self.chance_b, &self.chance_d));
        }
        for (bs, ds) in lists {
            if let Some(b) = bs.0.iter().find(|&&b| b == 0) {
                bail!("--b {b}: a tree needs a branching factor of at least 1");
            }
            if ds.0.contains(&0) {
                bail!("--d 0: a tree of depth 0 is a single leaf, with nothing to search or prune; depths start at 1");
            }
            if let Some(b) = bs.0.iter().find(|&&b| b > MAX_BRANCHING) {
                bail!("--b {b}: beyond the largest branching factor, {MAX_BRANCHING} (every node lists its b moves)");
            }
            if let Some(d) = ds.0.iter().find(|&&d| d > MAX_DEPTH) {
                bail!("--d {d}: beyond the deepest tree, {MAX_DEPTH} (the searches recurse once per ply)");
            }
        }
        if self.has_chance() {
            if self.k.0.contains(&0) {
                bail!("--k 0: a chance node needs at least one outcome");
            }
            if let Some(k) = self.k.0.iter().find(|&&k| k > MAX_BRANCHING) {
                bail!(
                    "--k {k}: beyond the most chance outcomes, {MAX_BRANCHING} (every chance node lists its k outcomes)"
                );
            }
        }
        // Each list is bounded now (b and k by MAX_BRANCHING, d by MAX_DEPTH), but their product need not be.
        let shapes = self.tree_count() / self.seeds.0.len() as u128;
        if shapes > MAX_TREES {
            bail!(
                "the grid has {} shapes (b × d, and b × k × d for the chance model), more than {}: shrink it",
                thousands(shapes.min(u64::MAX as u128) as u64),
                thousands(MAX_TREES as u64)
            );
        }
        for shape in self.shapes() {
            match shape.k {
                Some(k) => {
                    if let Err(err) = shape.chance_tree(k, 0) {
                        bail!("{err}");
                    }
                }
                None if shape.size().is_none() => {
                    bail!("tree {} has more than 2^62 nodes, too many to number", shape.dimensions())
                }
                None => {}
            }
        }
        if self.rng == Rng::Python {
            if let Some(model) = self.models.iter().find(|m| !m.is_iid()) {
                bail!(
                    "--rng python draws iid leaves only: use --rng pcg for the {} model, or leave it out of --models",
                    model.name()
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
        for shape in self.shapes() {
            nodes += self.tree_cost(shape) as f64 * self.seeds.0.len() as f64;
            runs += self.runs(shape).len() as u128 * self.seeds.0.len() as u128;
        }
        let mut parts = Vec::new();
        let deterministic = self.models.iter().filter(|&&m| m != ModelName::Chance).count();
        if deterministic > 0 {
            parts.push(format!("{deterministic} models × {} b × {} d", self.b.0.len(), self.d.0.len()));
        }
        if self.has_chance() {
            let (b, k, d) = (self.chance_b.0.len(), self.k.0.len(), self.chance_d.0.len());
            parts.push(format!("the chance model's {b} b × {k} k × {d} d"));
        }
        let asked = format!(
            "{} × {} seeds = {} trees and up to about {:.1e} nodes",
            if parts.len() == 1 { parts.join("") } else { format!("({})", parts.join(" + ")) },
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

/// A tree of the grid.
pub enum Built {
    /// A deterministic model's tree.
    Implicit(ImplicitTree),
    /// The chance model's tree.
    Chance(ChanceTree),
}

/// The tree itself.
pub fn build(tree: TreeSpec, rng: Rng) -> Result<Built> {
    Ok(match (tree.model.model(), tree.k, rng) {
        (None, Some(k), Rng::Pcg) => Built::Chance(tree.shape().chance_tree(k, tree.seed)?),
        (Some(Model::Iid { lo, hi }), None, Rng::Python) => {
            Built::Implicit(ImplicitTree::python(tree.b, tree.d, tree.seed, lo, hi)?)
        }
        (Some(model), None, Rng::Pcg) => Built::Implicit(ImplicitTree::hashed(tree.b, tree.d, tree.seed, model)?),
        (_, _, Rng::Python) => bail!("--rng python draws iid leaves only"),
        _ => bail!("tree {tree}: k, the chance outcomes, belongs to the chance model and to it only"),
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
            &[ModelName::Iid, ModelName::Incremental, ModelName::Chance],
            Some("2,3".parse().unwrap()),
            Some("1".parse().unwrap()),
            Some("4,2".parse().unwrap()),
            Some("5,6".parse().unwrap()),
            &[AlgorithmName::Alphabeta, AlgorithmName::Mtdf, AlgorithmName::Minimax],
            &[OrderingName::Static, OrderingName::Natural, OrderingName::Best],
            Rng::Pcg,
        )
        .unwrap();
        let trees: Vec<String> = grid.trees().map(|t| t.to_string()).collect();
        assert_eq!(trees.len() as u128, grid.tree_count());
        assert_eq!(trees.len(), 2 * 2 * 2 + 2 * 2 * 2);
        assert_eq!(trees[0], "model=iid b=2 d=1 seed=5");
        assert_eq!(trees[1], "model=iid b=2 d=1 seed=6");
        assert_eq!(trees[2], "model=iid b=3 d=1 seed=5");
        assert_eq!(trees[7], "model=incremental b=3 d=1 seed=6");
        assert_eq!(trees[8], "model=chance b=2 k=4 d=1 seed=5");
        assert_eq!(trees[10], "model=chance b=2 k=2 d=1 seed=5");
        assert_eq!(trees[15], "model=chance b=3 k=2 d=1 seed=6");
        let names = |runs: Vec<RunSpec>| -> Vec<String> {
            runs.iter().map(|r| format!("{}/{}", r.algorithm.name(), r.ordering.name())).collect()
        };
        let runs = |model, b, k, d| names(grid.runs(Shape { model, b, k, d }));
        assert_eq!(
            runs(ModelName::Iid, 2, None, 1),
            ["alphabeta/natural", "alphabeta/best", "mtdf/natural", "mtdf/best", "minimax/natural"]
        );
        assert_eq!(
            runs(ModelName::Incremental, 2, None, 1),
            [
                "alphabeta/static",
                "alphabeta/natural",
                "alphabeta/best",
                "mtdf/static",
                "mtdf/natural",
                "mtdf/best",
                "minimax/natural"
            ]
        );
        assert_eq!(runs(ModelName::Iid, 2, None, 24), ["alphabeta/natural", "mtdf/natural"]);
        assert_eq!(runs(ModelName::Chance, 2, Some(3), 2), ["alphabeta/natural", "alphabeta/best", "minimax/natural"]);
        assert_eq!(runs(ModelName::Chance, 4, Some(4), 6), ["alphabeta/natural"]);
        assert_eq!(Grid::from_spec(&grid.spec()).unwrap(), grid);
        let notes = grid.notes().join("\n");
        assert!(notes.contains("skipped on chance trees: mtdf (at chance nodes"), "{notes}");
        // The chance model keeps its own defaults when --b and --d are not given, and the sidecar records them.
        let default = Grid::new(&[], None, None, None, None, &[], &[], Rng::Pcg).unwrap();
        assert_eq!((default.b.to_string(), default.d.to_string()), (DEFAULT_B.into(), DEFAULT_D.into()));
        assert_eq!(
            (default.chance_b.to_string(), default.k.to_string(), default.chance_d.to_string()),
            (DEFAULT_CHANCE_B.into(), DEFAULT_K.into(), DEFAULT_CHANCE_D.into())
        );
        assert_eq!(Grid::from_spec(&default.spec()).unwrap(), default);
        let deterministic = Grid::new(&[ModelName::Iid], None, None, None, None, &[], &[], Rng::Pcg).unwrap();
        assert_eq!(deterministic.spec().k, None);
        let k = Some("2".parse().unwrap());
        let err = Grid::new(&[ModelName::Iid], None, None, k, None, &[], &[], Rng::Pcg).unwrap_err().to_string();
        assert!(err.contains("--k 2: chance outcomes belong to the chance model"), "{err}");
    }

    #[test]
    fn chance_shapes() {
        let shape = |b, k, d| Shape { model: ModelName::Chance, b, k: Some(k), d };
        assert_eq!(shape(2, 3, 2).size(), Some((36, 1 + 2 + 6 + 12 + 36)));
        assert_eq!(shape(10, 10, 10).size(), None);
        assert_eq!(shape(2, 3, 2).dimensions(), "b=2 k=3 d=2");
    }
}
