//! The search tree: nodes in an arena, linked by index, their counts in a parallel array of their own.
//!
//! Selection reads the counts of every child of a node, and children are created at different times, so they
//! lie apart in the arena: keeping the counts (32 bytes a node) apart from the rest of a node (its position and
//! move lists) keeps those reads within a small, cache-friendly array.

use khela_games::{Game, Node as Kind, Player, Value};

/// The index of the root in the arena.
pub(crate) const ROOT: u32 = 0;

/// The counts of a node: what selection and backup read and write.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stats {
    /// The sum of the owner's playout scores: win 1, draw ½, loss 0.
    pub wins: f64,
    /// The prior probability of the move into the node (the probability of the outcome, below a chance node).
    pub prior: f64,
    /// Completed visits.
    pub visits: u32,
    /// Visits under way in other threads, each counted as a loss for the owner while it lasts (virtual loss).
    pub virtual_visits: u32,
    /// The winner under perfect play, once the solver has proved it.
    pub proof: Option<Player>,
}

/// A node of the search tree, but for its [`Stats`].
pub(crate) struct Node<G: Game> {
    /// The position.
    pub state: G::State,
    /// The move (or chance outcome) that led here from the parent; `None` at the root.
    pub mv: Option<G::Move>,
    /// What kind of node the position is, as the game says.
    pub kind: Kind,
    /// The player whose scores `wins` sums: the one who moved into the node (below a chance node, the player
    /// who moved into the chance node).
    pub owner: Player,
    /// Whether the node has listed its moves or outcomes.
    pub opened: bool,
    /// Moves not yet expanded, in natural order (one-at-a-time expansion only).
    pub untried: Vec<G::Move>,
    /// The children, in the order they were expanded.
    pub children: Vec<u32>,
}

/// The winner of a payoff, if it is not a draw.
pub(crate) fn winner(payoff: Value) -> Option<Player> {
    if payoff > 0.0 {
        Some(Player::Max)
    } else if payoff < 0.0 {
        Some(Player::Min)
    } else {
        None
    }
}

/// The nodes of a tree; the root is at [`ROOT`]. `stats[i]` belongs to `nodes[i]`.
pub(crate) struct Tree<G: Game> {
    pub nodes: Vec<Node<G>>,
    pub stats: Vec<Stats>,
    /// Times the node budget stopped the tree from growing.
    pub refused: u64,
}

impl<G: Game> Tree<G> {
    /// A tree of one node, `state`.
    pub fn new(game: &G, state: G::State, solve: bool) -> Self {
        // The root's owner is the player who moved into it: the opponent of its mover. A chance root's children
        // inherit its owner, so MAX's view makes its statistics read naturally.
        let owner = match game.node(&state) {
            Kind::Decision(mover) => mover.opponent(),
            _ => Player::Max,
        };
        let mut tree = Tree::empty();
        tree.push(game, state, None, owner, 1.0, solve, false);
        tree
    }

    /// A tree without nodes, a placeholder while a search lends its tree out.
    pub fn empty() -> Self {
        Tree { nodes: Vec::new(), stats: Vec::new(), refused: 0 }
    }

    /// Appends a fresh node (unvisited, unopened; a terminal win or loss proved at once when `solve`) and
    /// returns its index. `drawn`: a draw by the game's [`khela_games::Cycles`] rules on this line, a terminal
    /// node worth a draw (and never proved) whatever the game says of its position.
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        game: &G,
        state: G::State,
        mv: Option<G::Move>,
        owner: Player,
        prior: f64,
        solve: bool,
        drawn: bool,
    ) -> u32 {
        let kind = if drawn { Kind::Terminal(0.0) } else { game.node(&state) };
        let proof = match kind {
            Kind::Terminal(payoff) if solve => winner(payoff),
            _ => None,
        };
        let id = self.nodes.len() as u32;
        self.nodes.push(Node { state, mv, kind, owner, opened: false, untried: Vec::new(), children: Vec::new() });
        self.stats.push(Stats { wins: 0.0, prior, visits: 0, virtual_visits: 0, proof });
        id
    }

    /// The subtree of node `id` as a tree of its own: its nodes moved breadth first, the rest dropped.
    pub fn subtree(self, id: u32) -> Self {
        let mut old: Vec<Option<Node<G>>> = self.nodes.into_iter().map(Some).collect();
        let mut old_ids = vec![id];
        let mut nodes = vec![old[id as usize].take().expect("a node of the tree")];
        // `nodes` is its own breadth-first queue: node `next` gets its children's new indices.
        let mut next = 0;
        while next < nodes.len() {
            let children = std::mem::take(&mut nodes[next].children);
            let first = nodes.len() as u32;
            nodes.extend(children.iter().map(|&c| old[c as usize].take().expect("each node has one parent")));
            old_ids.extend(&children);
            nodes[next].children = (first..nodes.len() as u32).collect();
            next += 1;
        }
        nodes[0].mv = None;
        let stats = old_ids.iter().map(|&i| self.stats[i as usize]).collect();
        Tree { nodes, stats, refused: self.refused }
    }
}
