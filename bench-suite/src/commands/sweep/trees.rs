//! The sweep's trees: built from a [`TreeSpec`], implicit (every value hashed from the seed and the node
//! number, so a tree of any size takes no memory) or, for the chance model, Ballard's regular *-minimax trees.

use super::grid::TreeSpec;
use super::model::ModelName;
use anyhow::{Result, bail};
use khela_games::chance_tree::ChanceTree;
use khela_games::implicit::{ImplicitTree, Position, TreeModel};
use khela_games::rng::Rng;
use khela_games::{Game, Value};

/// What the sweep needs of a tree besides the game: its size and its nodes' static values. Its nodes are
/// [`Position`]s numbered `0..nodes()` by [`Game::key`], and the moves of a node are `0..move_count`.
pub trait SweepTree: Game<State = Position, Move = u32> + Sync {
    /// The root.
    const ROOT: Position;

    /// The number of nodes.
    fn nodes(&self) -> u64;

    /// The static value of a node, from MAX's view: MTD(f)'s first guess, iterative deepening's horizon and
    /// `static` ordering.
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

/// A tree of the grid.
pub enum Built {
    /// A deterministic model's tree.
    Implicit(ImplicitTree),
    /// The chance model's tree.
    Chance(ChanceTree),
}

/// The tree itself.
pub fn build(tree: TreeSpec, rng: Rng) -> Result<Built> {
    let TreeSpec { shape, seed } = tree;
    Ok(match (shape.model.model(), shape.k, rng) {
        (None, Some(k), Rng::Pcg) => Built::Chance(shape.chance_tree(k, seed)?),
        (Some(TreeModel::Iid { lo, hi }), None, Rng::Python) => {
            Built::Implicit(ImplicitTree::python(shape.b, shape.d, seed, lo, hi)?)
        }
        (Some(model), None, Rng::Pcg) => Built::Implicit(ImplicitTree::hashed(shape.b, shape.d, seed, model)?),
        (_, _, Rng::Python) => bail!("--rng python draws iid leaves only"),
        _ if shape.model == ModelName::Chance => bail!("tree {tree}: the chance model needs k, its chance outcomes"),
        _ => bail!("tree {tree}: k, the chance outcomes, belongs to the chance model and to it only"),
    })
}
