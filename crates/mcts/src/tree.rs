//! The search tree: nodes in an arena, linked by index.

use khela_games::{Game, Node as Kind, Player, Value};

/// The index of the root in the arena.
pub(crate) const ROOT: u32 = 0;

/// A node of the search tree.
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
    /// Completed visits.
    pub visits: u32,
    /// Visits under way in other threads, each counted as a loss for `owner` while it lasts (virtual loss).
    pub virtual_visits: u32,
    /// The sum of `owner`'s playout scores: win 1, draw ½, loss 0.
    pub wins: f64,
    /// The prior probability of the move into the node (the probability of the outcome, below a chance node).
    pub prior: f64,
    /// Whether the node has listed its moves or outcomes.
    pub opened: bool,
    /// Moves not yet expanded, in natural order (one-at-a-time expansion only).
    pub untried: Vec<G::Move>,
    /// The children, in the order they were expanded.
    pub children: Vec<u32>,
    /// The winner under perfect play, once the solver has proved it.
    pub proof: Option<Player>,
}

impl<G: Game> Node<G> {
    /// A fresh node: unvisited, unopened; a terminal win or loss is proved at once when `solve`.
    pub fn new(game: &G, state: G::State, mv: Option<G::Move>, owner: Player, prior: f64, solve: bool) -> Self {
        let kind = game.node(&state);
        let proof = match kind {
            Kind::Terminal(payoff) if solve => winner(payoff),
            _ => None,
        };
        Node {
            state,
            mv,
            kind,
            owner,
            visits: 0,
            virtual_visits: 0,
            wins: 0.0,
            prior,
            opened: false,
            untried: Vec::new(),
            children: Vec::new(),
            proof,
        }
    }
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

/// The nodes of a tree; the root is at [`ROOT`].
pub(crate) struct Tree<G: Game> {
    pub nodes: Vec<Node<G>>,
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
        Tree { nodes: vec![Node::new(game, state, None, owner, 1.0, solve)], refused: 0 }
    }

    /// The subtree of node `id` as a tree of its own: its nodes moved breadth first, the rest dropped.
    pub fn subtree(self, id: u32) -> Self {
        let mut old: Vec<Option<Node<G>>> = self.nodes.into_iter().map(Some).collect();
        let mut nodes = vec![old[id as usize].take().expect("a node of the tree")];
        // `nodes` is its own breadth-first queue: node `next` gets its children's new indices.
        let mut next = 0;
        while next < nodes.len() {
            let children = std::mem::take(&mut nodes[next].children);
            let first = nodes.len() as u32;
            nodes.extend(children.iter().map(|&c| old[c as usize].take().expect("each node has one parent")));
            nodes[next].children = (first..nodes.len() as u32).collect();
            next += 1;
        }
        nodes[0].mv = None;
        Tree { nodes, refused: self.refused }
    }
}
