//! What a search counts.

/// What a search counted. Plain counters, so that the harness can write them out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Nodes visited: every call of the search, terminal or not, the root included (cache hits included); over
    /// all passes of MTD(f) and all iterations of iterative deepening.
    pub nodes: u64,
    /// Leaves visited: terminal nodes, and nodes evaluated at a horizon.
    pub leaves: u64,
    /// Cutoffs: decision nodes where α ≥ β was reached with children still to search, which were pruned, and
    /// chance nodes that star pruning settled with outcomes still to search.
    pub cutoffs: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.cutoffs += other.cutoffs;
    }
}
