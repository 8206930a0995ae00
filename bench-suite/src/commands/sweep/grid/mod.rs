//! The sweep's grid: which trees are searched, by which algorithms under which orderings, and whether the whole
//! is small enough to run.
//!
//! Grid order is the order of the CSV columns: model, b, k, d, seed (one *tree* each; k only for the chance
//! model), then within a tree the algorithms and orderings in the order they were listed. The deterministic
//! models take the lists `b` and `d`; the chance model its own b, k and d ([`ChanceLists`]), because its trees
//! grow as (b·k)^d (`--b` and `--d` set both, their defaults differ). Trees are numbered 0, 1, 2, … in that
//! order; shard `K/N` runs the trees whose number is `K` modulo `N` (round robin, so every shard gets its share
//! of the large and the small trees).
//!
//! The grid is recorded in the sweep's sidecar (serde, every list in its canonical form), so that `merge` can
//! rebuild it and check that shards belong together.

use super::args::{ALGORITHMS, List, ORDERINGS, SweepArgs};
use super::model::ModelName;
use anyhow::{Result, bail};
use indicatif::HumanCount;
use khela_exact::theory::knuth_moore;
use khela_exact::{Algorithm, OrderingKind};
use khela_games::chance_tree::{self, ChanceTree};
use khela_games::implicit::{MAX_BRANCHING, MAX_DEPTH, PYTHON_MAX_LEAVES, TreeError};
use khela_games::rng::Rng;
use serde::{Deserialize, Serialize};
use serde_with::formats::CommaSeparator;
use serde_with::{DisplayFromStr, StringWithSeparator, serde_as};
use std::fmt;
use strum::VariantArray;

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

/// The leaf range of the `chance` model: the textbook's 0..=99, so that ties occur and the bounds star pruning
/// needs are tight.
pub const CHANCE_LEAVES: (i64, i64) = (0, 99);

/// A conservative search rate, nodes per second per core, for the time in the refusal message.
const RATE_PER_CORE: f64 = 2e7;

/// The default grid's branching factors. The default grid takes every model, algorithm and ordering: 4,860
/// trees (1,080 of them chance trees), 101,700 searches, 2·10⁹ nodes (its time: see the Performance chapter,
/// docs/src/performance.md).
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

/// Whether the sweep gives `algorithm` a transposition table and the static evaluator (MTD(f)'s memory and
/// first guess, iterative deepening's table and horizon).
pub fn uses_table(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::MtdF | Algorithm::IterativeDeepening)
}

/// Whether `ordering` is an oracle, which needs every node's exact value.
pub fn is_oracle(ordering: OrderingKind) -> bool {
    matches!(ordering, OrderingKind::BestFirst | OrderingKind::WorstFirst)
}

/// The shape of the trees of the grid: model, branching, chance outcomes and depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreeShape {
    /// The model.
    pub model: ModelName,
    /// Branching factor (moves at a decision node).
    pub b: u32,
    /// Outcomes at a chance node: the chance model's, `None` for the deterministic models.
    pub k: Option<u32>,
    /// Depth in decision plies.
    pub d: u32,
}

impl TreeShape {
    /// Leaves and nodes of a tree of this shape, or `None` if its nodes do not number in 64 bits (more than
    /// 2⁶²) or, for the chance model, the tree cannot be built (see [`ChanceTree::new`]).
    pub fn size(self) -> Option<(u64, u64)> {
        match self.k {
            None => uniform_size(self.b, self.d),
            Some(k) => self.chance_tree(k, 0).ok().map(|tree| (tree.leaves(), tree.nodes())),
        }
    }

    /// The chance model's tree of this shape with `k` outcomes and this seed.
    pub fn chance_tree(self, k: u32, seed: u64) -> Result<ChanceTree, TreeError> {
        let (lo, hi) = CHANCE_LEAVES;
        ChanceTree::new(chance_tree::Params { b: self.b, k, d: self.d, seed, lo, hi })
    }

    /// The Knuth–Moore minimum of a deterministic tree of this shape (`None` for the chance model, where
    /// alpha-beta's minimal tree is another). A checked grid's minimal trees fit in 64 bits.
    pub fn knuth_moore(self) -> Option<u64> {
        if self.k.is_some() { None } else { knuth_moore(self.b, self.d) }
    }

    /// `b=2 d=3`, or `b=2 k=3 d=3` for the chance model.
    pub fn dimensions(self) -> String {
        match self.k {
            None => format!("b={} d={}", self.b, self.d),
            Some(k) => format!("b={} k={k} d={}", self.b, self.d),
        }
    }
}

/// One tree of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSpec {
    /// The tree's shape.
    pub shape: TreeShape,
    /// Seed.
    pub seed: u64,
}

impl fmt::Display for TreeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model={} {} seed={}", self.shape.model, self.shape.dimensions(), self.seed)
    }
}

/// One search of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSpec {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The ordering.
    pub ordering: OrderingKind,
}

/// The chance model's own lists.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChanceLists {
    /// Branching factors.
    #[serde(rename = "chance_b")]
    #[serde_as(as = "DisplayFromStr")]
    pub b: List<u32>,
    /// Outcomes per chance node.
    #[serde_as(as = "DisplayFromStr")]
    pub k: List<u32>,
    /// Depths (decision plies).
    #[serde(rename = "chance_d")]
    #[serde_as(as = "DisplayFromStr")]
    pub d: List<u32>,
}

/// The whole grid, validated.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// Tree models.
    #[serde_as(as = "StringWithSeparator::<CommaSeparator, ModelName>")]
    pub models: Vec<ModelName>,
    /// Branching factors of the deterministic models.
    #[serde_as(as = "DisplayFromStr")]
    pub b: List<u32>,
    /// Depths of the deterministic models.
    #[serde_as(as = "DisplayFromStr")]
    pub d: List<u32>,
    /// The chance model's lists, when it is in the grid.
    #[serde(flatten)]
    pub chance: Option<ChanceLists>,
    /// Seeds.
    #[serde_as(as = "DisplayFromStr")]
    pub seeds: List<u64>,
    /// Algorithms.
    #[serde_as(as = "StringWithSeparator::<CommaSeparator, Algorithm>")]
    pub algorithms: Vec<Algorithm>,
    /// Orderings.
    #[serde_as(as = "StringWithSeparator::<CommaSeparator, OrderingKind>")]
    pub orderings: Vec<OrderingKind>,
    /// The value generator.
    #[serde_as(as = "DisplayFromStr")]
    pub rng: Rng,
}

/// What a grid asks for: the figures in refusals and notes.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSize {
    /// Trees in the whole grid (all shards).
    pub trees: u128,
    /// An upper estimate of the nodes visited, all runs of all trees, oracles included.
    pub nodes: f64,
}

impl Grid {
    /// The grid of the command line's lists (the defaults for those not given), checked for duplicates. `--b`
    /// and `--d` apply to every model; without them each takes its defaults. `--k` is refused without the
    /// chance model.
    pub fn from_args(args: &SweepArgs) -> Result<Grid> {
        let default = |text: &str| -> List<u32> { text.parse().expect("the default lists parse") };
        let models = names(&args.models, ModelName::VARIANTS, "--models")?;
        if let Some(k) = &args.k
            && !models.contains(&ModelName::Chance)
        {
            bail!("--k {k}: chance outcomes belong to the chance model, which --models leaves out; add chance to it");
        }
        let chance = models.contains(&ModelName::Chance).then(|| ChanceLists {
            b: args.b.clone().unwrap_or_else(|| default(DEFAULT_CHANCE_B)),
            k: args.k.clone().unwrap_or_else(|| default(DEFAULT_K)),
            d: args.d.clone().unwrap_or_else(|| default(DEFAULT_CHANCE_D)),
        });
        Ok(Grid {
            models,
            b: args.b.clone().unwrap_or_else(|| default(DEFAULT_B)),
            d: args.d.clone().unwrap_or_else(|| default(DEFAULT_D)),
            chance,
            seeds: args.seeds.clone().unwrap_or_else(|| DEFAULT_SEEDS.parse().expect("the default seeds parse")),
            algorithms: names(&args.algorithms, ALGORITHMS, "--algorithms")?,
            orderings: names(&args.orderings, ORDERINGS, "--orderings")?,
            rng: args.rng.unwrap_or(Rng::Pcg),
        })
    }

    /// Whether a deterministic model is in the grid.
    fn has_deterministic(&self) -> bool {
        self.models.iter().any(|&m| m != ModelName::Chance)
    }

    /// The shapes of the grid's trees, in grid order: model, b, k, d.
    pub fn shapes(&self) -> impl Iterator<Item = TreeShape> + '_ {
        self.models.iter().flat_map(move |&model| {
            let (bs, ks, ds): (&[u32], Vec<Option<u32>>, &[u32]) = match (model, &self.chance) {
                (ModelName::Chance, Some(chance)) => {
                    (&chance.b.0, chance.k.0.iter().map(|&k| Some(k)).collect(), &chance.d.0)
                }
                _ => (&self.b.0, vec![None], &self.d.0),
            };
            bs.iter().flat_map(move |&b| {
                ks.clone().into_iter().flat_map(move |k| ds.iter().map(move |&d| TreeShape { model, b, k, d }))
            })
        })
    }

    /// The number of shapes, and of trees, in the whole grid.
    pub fn counts(&self) -> (u128, u128) {
        let len = |list: &List<u32>| list.0.len() as u128;
        let per_model = |model: &ModelName| match (model, &self.chance) {
            (ModelName::Chance, Some(chance)) => len(&chance.b) * len(&chance.k) * len(&chance.d),
            _ => len(&self.b) * len(&self.d),
        };
        let shapes: u128 = self.models.iter().map(per_model).sum();
        (shapes, shapes * self.seeds.0.len() as u128)
    }

    /// The searches of a tree of this shape, in row order. Minimax runs once (ordering `natural`: it visits
    /// every node in any order), and not at all above [`MINIMAX_MAX_LEAVES`]; `static` is skipped where static
    /// values say nothing (iid and chance trees); `best` and `worst` are skipped above [`ORACLE_MAX_NODES`].
    pub fn runs(&self, shape: TreeShape) -> Vec<RunSpec> {
        let model = shape.model;
        let (leaves, nodes) = shape.size().unwrap_or((u64::MAX, u64::MAX));
        let mut runs = Vec::new();
        for &algorithm in self.algorithms.iter().filter(|&&a| model.runs(a)) {
            if algorithm == Algorithm::Minimax {
                if leaves <= MINIMAX_MAX_LEAVES {
                    runs.push(RunSpec { algorithm, ordering: OrderingKind::Natural });
                }
                continue;
            }
            for &ordering in &self.orderings {
                let skipped = (ordering == OrderingKind::Static && !model.has_static_values())
                    || (is_oracle(ordering) && nodes > ORACLE_MAX_NODES);
                if !skipped {
                    runs.push(RunSpec { algorithm, ordering });
                }
            }
        }
        runs
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
        if self.algorithms.contains(&Algorithm::Minimax) {
            let big = above(MINIMAX_MAX_LEAVES, |leaves, _| leaves);
            if !big.is_empty() {
                notes.push(format!(
                    "minimax is skipped on trees of more than 2^22 leaves ({}); minimax_leaves still says b^d \
                     ((b·k)^d)",
                    big.join(", ")
                ));
            }
        }
        if self.orderings.iter().any(|&o| is_oracle(o)) {
            let big = above(ORACLE_MAX_NODES, |_, nodes| nodes);
            if !big.is_empty() {
                notes.push(format!(
                    "best and worst are skipped on trees of more than 2^24 nodes ({}): their oracle holds every node's \
                     value",
                    big.join(", ")
                ));
            }
        }
        if self.orderings.contains(&OrderingKind::Static)
            && self.models.iter().any(|m| !m.has_static_values())
            && self.algorithms.iter().any(|&a| a != Algorithm::Minimax)
        {
            notes.push(
                "static ordering is skipped on iid and chance trees: every static value there is the same, so it is \
                 natural ordering under another name"
                    .to_string(),
            );
        }
        let skipped = |model: ModelName| -> Vec<&str> {
            self.algorithms.iter().filter(|&&a| !model.runs(a)).map(|&a| a.name()).collect()
        };
        if self.chance.is_some() && !skipped(ModelName::Chance).is_empty() {
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

    /// Checks that every tree can be built and every search run: refuses algorithms and orderings the sweep does
    /// not run, zero branching or depth, trees too large to number, the python generator on trees it cannot
    /// hold or on models it does not draw, and grids of more shapes than [`MAX_TREES`] (which no shard could
    /// hold either).
    pub fn validate(&self) -> Result<()> {
        // The command line takes only these; a sidecar's grid (for merge) is checked here.
        if let Some(algorithm) = self.algorithms.iter().find(|a| !ALGORITHMS.contains(a)) {
            bail!("the sweep does not run {algorithm}: it runs {}", names_of(ALGORITHMS));
        }
        if let Some(ordering) = self.orderings.iter().find(|o| !ORDERINGS.contains(o)) {
            bail!("the sweep does not order by {ordering}: it orders by {}", names_of(ORDERINGS));
        }
        let mut lists = Vec::new();
        if self.has_deterministic() {
            lists.push((&self.b, &self.d));
        }
        if let Some(chance) = &self.chance {
            lists.push((&chance.b, &chance.d));
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
        if let Some(chance) = &self.chance {
            if chance.k.0.contains(&0) {
                bail!("--k 0: a chance node needs at least one outcome");
            }
            if let Some(k) = chance.k.0.iter().find(|&&k| k > MAX_BRANCHING) {
                bail!(
                    "--k {k}: beyond the most chance outcomes, {MAX_BRANCHING} (every chance node lists its k outcomes)"
                );
            }
        }
        // Each list is bounded now (b and k by MAX_BRANCHING, d by MAX_DEPTH), but their product need not be.
        let (shapes, _) = self.counts();
        if shapes > MAX_TREES {
            bail!(
                "the grid has {} shapes (b × d, and b × k × d for the chance model), more than {}: shrink it",
                HumanCount(shapes.min(u64::MAX as u128) as u64),
                HumanCount(MAX_TREES as u64)
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
                    "--rng python draws iid leaves only: use --rng pcg for the {model} model, or leave it out of \
                     --models"
                );
            }
            for &b in &self.b.0 {
                for &d in &self.d.0 {
                    let (leaves, _) = uniform_size(b, d).expect("checked above");
                    if leaves > PYTHON_MAX_LEAVES {
                        bail!(
                            "tree b={b} d={d} has {} leaves; --rng python holds every leaf in memory and is limited \
                             to {} leaves: use --rng pcg, which derives values on demand",
                            HumanCount(leaves),
                            HumanCount(PYTHON_MAX_LEAVES)
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// Refuses a grid with no searches, and (unless `force`) grids above [`MAX_TREES`] trees or [`MAX_NODES`]
    /// nodes; `runs` and `nodes` are the searches and the estimated nodes of all the grid's trees.
    pub fn check_size(&self, runs: u128, nodes: f64, force: bool) -> Result<GridSize> {
        let (_, trees) = self.counts();
        let mut parts = Vec::new();
        let deterministic = self.models.iter().filter(|&&m| m != ModelName::Chance).count();
        if deterministic > 0 {
            parts.push(format!("{deterministic} models × {} b × {} d", self.b.0.len(), self.d.0.len()));
        }
        if let Some(chance) = &self.chance {
            let (b, k, d) = (chance.b.0.len(), chance.k.0.len(), chance.d.0.len());
            parts.push(format!("the chance model's {b} b × {k} k × {d} d"));
        }
        let asked = format!(
            "{} × {} seeds = {} trees and up to about {:.1e} nodes",
            if parts.len() == 1 { parts.join("") } else { format!("({})", parts.join(" + ")) },
            self.seeds.0.len(),
            HumanCount(trees.min(u64::MAX as u128) as u64),
            nodes
        );
        if runs == 0 {
            bail!(
                "the grid asks for {asked}, but no searches: every algorithm and ordering asked for is skipped on \
                 these trees"
            );
        }
        if !force && trees > MAX_TREES {
            bail!(
                "the grid asks for {asked}: more than {} trees; shrink it, or run it in shards (--shard K/N), or pass \
                 --force",
                HumanCount(MAX_TREES as u64)
            );
        }
        if !force && nodes > MAX_NODES {
            bail!(
                "the grid asks for {asked}, more than the limit of {MAX_NODES:.0e} (about {:.0} hours on one core at \
                 {RATE_PER_CORE:.0e} nodes per second); shrink it, run it in shards (--shard K/N), or pass --force",
                nodes / RATE_PER_CORE / 3600.0
            );
        }
        Ok(GridSize { trees, nodes })
    }

    /// The grid in one line, as its flags (the chance model's lists after it, when it is in the grid).
    pub fn describe(&self) -> String {
        let join = |names: Vec<&str>| names.join(",");
        let mut text = format!("--models {}", join(self.models.iter().map(|&m| m.into()).collect()));
        if self.has_deterministic() {
            text.push_str(&format!(" --b {} --d {}", self.b, self.d));
        }
        if let Some(chance) = &self.chance {
            text.push_str(&format!(" (chance: --b {} --k {} --d {})", chance.b, chance.k, chance.d));
        }
        text.push_str(&format!(
            " --seeds {} --algorithms {} --orderings {} --rng {}",
            self.seeds,
            join(self.algorithms.iter().map(|&a| a.into()).collect()),
            join(self.orderings.iter().map(|&o| o.into()).collect()),
            self.rng
        ));
        text
    }
}

/// A name list from the command line: the default when absent, duplicates refused.
fn names<T: Copy + PartialEq + fmt::Display>(given: &[T], all: &[T], flag: &str) -> Result<Vec<T>> {
    if given.is_empty() {
        return Ok(all.to_vec());
    }
    crate::args::once(given, flag)?;
    Ok(given.to_vec())
}

/// The names of `values`, comma-separated.
fn names_of<T: fmt::Display>(values: &[T]) -> String {
    values.iter().map(T::to_string).collect::<Vec<_>>().join(", ")
}

/// Leaves b^d and nodes 1 + b + … + b^d of a uniform tree that the implicit trees can number (at most 2^62
/// nodes).
pub fn uniform_size(b: u32, d: u32) -> Option<(u64, u64)> {
    let (mut level, mut total) = (1u64, 1u64);
    for _ in 0..d {
        level = level.checked_mul(u64::from(b))?;
        total = total.checked_add(level).filter(|&t| t <= 1 << 62)?;
    }
    Some((level, total))
}

#[cfg(test)]
pub(crate) mod tests;
