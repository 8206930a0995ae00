//! The sweep's tree models, by name: what their trees' values are, and which searches the sweep runs on them.

use khela_exact::Algorithm;
use khela_games::implicit::TreeModel;
use strum::{Display, EnumMessage, EnumString, IntoStaticStr, VariantArray};

/// The largest absolute edge value of the `incremental` model.
pub const INCREMENTAL_SPREAD: i64 = 100;

/// The tree models of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumString, IntoStaticStr, VariantArray, EnumMessage)]
#[strum(serialize_all = "lowercase")]
pub enum ModelName {
    /// Iid leaves uniform in 0..=2^31-1: ties are rare (Pearl's model of continuous leaves).
    Iid,
    /// Iid leaves uniform in 0..=99, the textbook's: ties are common and make pruning easier.
    Iid100,
    /// Edge values uniform in -100..=100, a node's value the sum along its path (see khela_games::implicit).
    Incremental,
    /// Regular *-minimax trees (khela_games::chance_tree): b moves, then k equiprobable outcomes, for d decision
    /// plies; iid leaves in 0..=99.
    Chance,
}

impl ModelName {
    /// The distribution of a deterministic model's implicit trees; `None` for the chance model.
    pub fn model(self) -> Option<TreeModel> {
        match self {
            ModelName::Iid => Some(TreeModel::Iid { lo: 0, hi: (1 << 31) - 1 }),
            ModelName::Iid100 => Some(TreeModel::Iid { lo: 0, hi: 99 }),
            ModelName::Incremental => Some(TreeModel::Incremental { spread: INCREMENTAL_SPREAD }),
            ModelName::Chance => None,
        }
    }

    /// Whether this is a deterministic model with independent leaves (Pearl's model), so that Pearl's R_b
    /// applies.
    pub fn is_iid(self) -> bool {
        matches!(self.model(), Some(TreeModel::Iid { .. }))
    }

    /// Whether a node's static value says something about it (the incremental model's path sums); elsewhere every
    /// static value is the same, and static ordering is natural ordering under another name.
    pub fn has_static_values(self) -> bool {
        matches!(self.model(), Some(TreeModel::Incremental { .. }))
    }

    /// Whether the sweep runs `algorithm` on trees of this model. On chance trees: minimax (expectiminimax, the
    /// reference), alpha-beta, Star1 and Star2; NegaScout, MTD(f) and iterative deepening search chance nodes as
    /// alpha-beta does (full windows), so they would measure nothing new. Star1 and Star2 on deterministic trees
    /// are alpha-beta.
    pub fn runs(self, algorithm: Algorithm) -> bool {
        let star = matches!(algorithm, Algorithm::Star1 | Algorithm::Star2);
        match self {
            ModelName::Chance => star || matches!(algorithm, Algorithm::Minimax | Algorithm::AlphaBeta),
            _ => !star,
        }
    }
}
