//! A tally of the full game tree: complete games by outcome, and nodes.

use crate::count::children;
use ahash::AHashMap;
use khela_games::{Game, Node};
use rayon::prelude::*;

/// Counts over the full tree below a state (every path, not every distinct state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Complete games: paths from the state to a terminal node.
    pub games: u64,
    /// Games MAX wins (positive payoff).
    pub max_wins: u64,
    /// Games MIN wins (negative payoff).
    pub min_wins: u64,
    /// Drawn games (payoff 0).
    pub draws: u64,
    /// Nodes of the tree, the state itself included.
    pub nodes: u64,
    /// Distinct states (by [`Game::key`], or the key given to [`tally_by`]) in the tree.
    pub states: u64,
    /// How many of the distinct states are terminal.
    pub terminal_states: u64,
}

impl std::ops::AddAssign for Tally {
    /// Adds the path counts (the state counts are not additive and are left alone).
    fn add_assign(&mut self, o: Tally) {
        self.games += o.games;
        self.max_wins += o.max_wins;
        self.min_wins += o.min_wins;
        self.draws += o.draws;
        self.nodes += o.nodes;
    }
}

/// Tallies the full tree below `state`, memoized by [`Game::key`] so that each distinct state is expanded once
/// per subtree. Every outcome of a chance node counts as a branch. The subtrees of the root's children are
/// tallied in parallel on the current rayon pool, each with its own memo; the path counts are summed and the
/// distinct states are the union of the memos' keys, so the result is the same for any number of threads.
///
/// ```
/// use khela_exact::tally;
/// use khela_games::tictactoe::{Board, TicTacToe};
/// let t = tally(&TicTacToe, &Board::EMPTY);
/// assert_eq!((t.games, t.nodes, t.states), (255_168, 549_946, 5_478));
/// ```
pub fn tally<G>(game: &G, state: &G::State) -> Tally
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    tally_by(game, state, |game, state| game.key(state))
}

/// [`tally`] with memo keys from `key`, which may merge states whose subtrees are alike, such as
/// [`khela_games::tictactoe::TicTacToe::symmetric_key`]: the path counts are unchanged (symmetric subtrees have
/// equal counts), and `states` counts the distinct keys.
///
/// # Panics
///
/// If the game's positions repeat ([`Game::cycles`]): its tree is infinite.
///
/// ```
/// use khela_exact::tally_by;
/// use khela_games::tictactoe::{Board, TicTacToe};
/// let t = tally_by(&TicTacToe, &Board::EMPTY, |_, b| TicTacToe::symmetric_key(b));
/// assert_eq!((t.games, t.states, t.terminal_states), (255_168, 765, 138));
/// ```
pub fn tally_by<G>(game: &G, state: &G::State, key: fn(&G, &G::State) -> u64) -> Tally
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    assert!(game.cycles().is_none(), "a game whose positions repeat has no finite tree to tally");
    let kids = children(game, state, &mut Vec::new(), &mut Vec::new());
    let parts: Vec<(Tally, AHashMap<u64, Tally>)> = if kids.is_empty() {
        vec![(Tally::default(), AHashMap::new())]
    } else {
        kids.par_iter()
            .map(|child| {
                let mut memo = AHashMap::new();
                let t = subtree(game, child, key, &mut memo, &mut Vec::new());
                (t, memo)
            })
            .collect()
    };
    let mut root_memo = AHashMap::new();
    let mut total = if kids.is_empty() {
        subtree(game, state, key, &mut root_memo, &mut Vec::new())
    } else {
        Tally { nodes: 1, ..Tally::default() }
    };
    // The distinct states: the union of the memos, and the root.
    let mut states: AHashMap<u64, bool> = AHashMap::from_iter([(key(game, state), kids.is_empty())]);
    for (t, memo) in parts {
        total += t;
        states.extend(memo.into_iter().map(|(k, t)| (k, t.nodes == 1)));
    }
    total.states = states.len() as u64;
    total.terminal_states = states.values().filter(|&&terminal| terminal).count() as u64;
    total
}

fn subtree<G: Game>(
    game: &G,
    state: &G::State,
    key: fn(&G, &G::State) -> u64,
    memo: &mut AHashMap<u64, Tally>,
    moves: &mut Vec<Vec<G::Move>>,
) -> Tally {
    let key_of_state = key(game, state);
    if let Some(&t) = memo.get(&key_of_state) {
        return t;
    }
    let mut t = Tally { nodes: 1, ..Tally::default() };
    match game.node(state) {
        Node::Terminal(v) => {
            t.games = 1;
            match v.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => t.max_wins = 1,
                Some(std::cmp::Ordering::Less) => t.min_wins = 1,
                _ => t.draws = 1,
            }
        }
        Node::Decision(_) => {
            let mut buf = moves.pop().unwrap_or_default();
            game.moves(state, &mut buf);
            for &mv in &buf {
                t += subtree(game, &game.child(state, mv), key, memo, moves);
            }
            moves.push(buf);
        }
        Node::Chance => {
            let mut outcomes = Vec::new();
            game.outcomes(state, &mut outcomes);
            for (outcome, _) in outcomes {
                t += subtree(game, &game.child(state, outcome), key, memo, moves);
            }
        }
    }
    memo.insert(key_of_state, t);
    t
}
