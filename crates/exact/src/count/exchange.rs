//! A count of distinct positions split among tasks that exchange each ply's positions (a cluster's job array):
//! positions travel as lines of play ([`Lines`]), rebuilt by [`replay`]; [`expand`] gives each task's children
//! by owner ([`super::owner`]).

use super::{Progress, owner, turn_children};
use khela_games::{Game, Node};
use rayon::prelude::*;

/// The most children a position may have in one ply for [`expand`]: a line of play holds a byte a ply.
pub const MAX_TURN_CHILDREN: usize = 256;

/// Parents expanded at once by [`expand`], between which the children found so far may be deduplicated.
const EXPAND_BATCH: usize = 1 << 16;

/// Positions of one ply, each written as its line of play from the root: for every ply, the index of the
/// position among its parent's children one ply on ([`turn_child`]), one byte a ply. A line rebuilds its
/// position with [`replay`], so it travels between the tasks of a sharded count as bytes, whatever the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    ply: usize,
    len: usize,
    bytes: Vec<u8>,
}

impl Lines {
    /// No positions yet, of ply `ply` (lines of `ply` bytes).
    pub fn new(ply: usize) -> Lines {
        Lines { ply, len: 0, bytes: Vec::new() }
    }

    /// Adds the position reached by `line`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `line` is not `ply` bytes long.
    pub fn push(&mut self, line: &[u8]) {
        debug_assert_eq!(line.len(), self.ply, "a line of ply {}", self.ply);
        self.bytes.extend_from_slice(line);
        self.len += 1;
    }

    /// The ply of the positions, the length of every line.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The line of position `i`.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[i * self.ply..(i + 1) * self.ply]
    }
}

/// A position one ply after one of the [`Lines`] given to [`expand`]: its key, and the line that reaches it,
/// its parent's line followed by `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// The position's key ([`Game::key`]).
    pub key: u64,
    /// The parent's index in the lines expanded.
    pub parent: u32,
    /// The position's index among the parent's children one ply on.
    pub index: u8,
}

/// Why [`expand`] could not expand lines of play.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExpandError {
    /// A position has more children in one ply than a line's byte can number.
    #[error("a position has {0} children in one ply, more than the {MAX_TURN_CHILDREN} a line of play can number")]
    TooManyChildren(usize),
    /// A line names a child its position does not have: it is not a line of this game from this root.
    #[error("a line of play names child {index} at ply {ply}, which its position does not have")]
    NoSuchChild {
        /// The ply of the missing child.
        ply: usize,
        /// The child's index.
        index: u8,
    },
    /// More lines than a [`Child`] can name a parent of.
    #[error("{0} positions are more than one part of a count may expand (2^32)")]
    TooManyParents(usize),
}

/// The child `index` of `state` one ply (a decision's move) on, in the order `turn_children` lists them: a
/// decision node's moves in natural order; a chance node's outcomes in order, each followed by the moves after
/// it. `None` when there are not that many.
///
/// ```
/// use khela_exact::count::exchange::turn_child;
/// use khela_games::{Game, connect4::{Connect4, Position}};
/// let game = Connect4::standard();
/// assert_eq!(turn_child(&game, &Position::EMPTY, 3), Some(game.child(&Position::EMPTY, 3)));
/// assert_eq!(turn_child(&game, &Position::EMPTY, 7), None);
/// ```
pub fn turn_child<G: Game>(game: &G, state: &G::State, index: usize) -> Option<G::State> {
    nth_turn_child(game, state, index, &mut Vec::new(), &mut Vec::new()).ok()
}

/// The child `index` of `state` one ply on, or how far past its last child `index` is.
fn nth_turn_child<G: Game>(
    game: &G,
    state: &G::State,
    index: usize,
    buf: &mut Vec<G::Move>,
    outcomes: &mut Vec<(G::Move, f64)>,
) -> Result<G::State, usize> {
    match game.node(state) {
        Node::Terminal(_) => Err(index),
        Node::Decision(_) => {
            game.moves(state, buf);
            buf.get(index).map(|&mv| game.child(state, mv)).ok_or_else(|| index - buf.len())
        }
        Node::Chance => {
            game.outcomes(state, outcomes);
            let drawn: Vec<G::State> = outcomes.iter().map(|&(o, _)| game.child(state, o)).collect();
            drawn
                .iter()
                .try_fold(index, |rest, s| match nth_turn_child(game, s, rest, buf, outcomes) {
                    Ok(child) => Err(Ok(child)),
                    Err(rest) => Ok(rest),
                })
                .map_or_else(|found| found, Err)
        }
    }
}

/// The position `line` reaches from `root` ([`Lines`]), or why it reaches none.
///
/// ```
/// use khela_exact::count::exchange::replay;
/// use khela_games::connect4::{Connect4, Position};
/// let game = Connect4::standard();
/// assert_eq!(replay(&game, &Position::EMPTY, &[3, 3]), Ok(game.parse("44").unwrap()));
/// ```
pub fn replay<G: Game>(game: &G, root: &G::State, line: &[u8]) -> Result<G::State, ExpandError> {
    let (mut buf, mut outcomes) = (Vec::new(), Vec::new());
    let mut state = root.clone();
    for (ply, &index) in line.iter().enumerate() {
        state = nth_turn_child(game, &state, usize::from(index), &mut buf, &mut outcomes)
            .map_err(|_| ExpandError::NoSuchChild { ply: ply + 1, index })?;
    }
    Ok(state)
}

/// The children one ply after the positions `lines` reach from `root`, split among `shards` owners by
/// [`owner`] of their key: `parts[k]` holds owner `k`'s, sorted by key and deduplicated, each position once,
/// reached from the first of its parents in the order of `lines` (by the first of its indices there). The
/// parts depend only on `lines`, not on the threads.
///
/// This is one step of a count of distinct positions split among tasks that exchange each ply's positions:
/// every task expands the positions it owns and sends each owner its part; an owner merges what it receives
/// from every task, keeps each key once, and counts them. Its peak memory is the lines (`ply` bytes each) and
/// 16 bytes for every distinct child (and those of the last `EXPAND_BATCH` parents before they are
/// deduplicated). `progress(done, total)` is called as parents are expanded.
///
/// ```
/// use khela_exact::count::exchange::{Lines, expand};
/// use khela_exact::count::{distinct_positions, quiet};
/// use khela_games::connect4::{Connect4, Position};
/// let game = Connect4::standard();
/// let mut root = Lines::new(0);
/// root.push(&[]);
/// let parts = expand(&game, &Position::EMPTY, &root, 2, &quiet).unwrap();
/// assert_eq!(parts[0].len() + parts[1].len(), 7);
/// ```
pub fn expand<G>(
    game: &G,
    root: &G::State,
    lines: &Lines,
    shards: u64,
    progress: Progress<'_>,
) -> Result<Vec<Vec<Child>>, ExpandError>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
{
    assert!(shards > 0, "no shards");
    if lines.len() > u32::MAX as usize + 1 {
        return Err(ExpandError::TooManyParents(lines.len()));
    }
    let mut parts: Vec<Vec<Child>> = (0..shards).map(|_| Vec::new()).collect();
    let mut deduplicated = vec![0usize; shards as usize];
    for start in (0..lines.len()).step_by(EXPAND_BATCH) {
        let end = (start + EXPAND_BATCH).min(lines.len());
        let found: Vec<Child> = (start..end)
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(buf, outcomes), parent| -> Result<Vec<Child>, ExpandError> {
                    let state = replay(game, root, lines.get(parent))?;
                    let children = turn_children(game, &state, buf, outcomes);
                    if children.len() > MAX_TURN_CHILDREN {
                        return Err(ExpandError::TooManyChildren(children.len()));
                    }
                    Ok(children
                        .iter()
                        .enumerate()
                        .map(|(i, child)| Child { key: game.key(child), parent: parent as u32, index: i as u8 })
                        .collect())
                },
            )
            .collect::<Result<Vec<Vec<Child>>, ExpandError>>()?
            .into_iter()
            .flatten()
            .collect();
        for child in found {
            parts[owner(child.key, shards) as usize].push(child);
        }
        // A part is deduplicated whenever it has doubled since it last was, which bounds its memory by about
        // twice its distinct children.
        for (part, done) in parts.iter_mut().zip(&mut deduplicated) {
            if part.len() >= 2 * *done + EXPAND_BATCH {
                sort_children(part);
                *done = part.len();
            }
        }
        if progress(end as u64, lines.len() as u64).is_break() {
            break;
        }
    }
    for part in &mut parts {
        sort_children(part);
    }
    Ok(parts)
}

/// Sorts children by key, then parent and index, and keeps the first of each key.
fn sort_children(children: &mut Vec<Child>) {
    children.par_sort_unstable_by_key(|c| (c.key, c.parent, c.index));
    children.dedup_by_key(|c| c.key);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{distinct_positions, quiet};
    use khela_games::connect4::{Connect4, Position};
    use khela_games::einstein::{Einstein, Setup};
    use khela_games::tictactoe::{Board, TicTacToe};

    /// Distinct positions per ply counted in `shards` parts that exchange their positions ply by ply, as the
    /// tasks of a cluster do through files: each ply's counts, per part.
    fn exchanged<G>(game: &G, root: &G::State, depth: usize, shards: u64) -> Vec<Vec<u64>>
    where
        G: Game + Sync,
        G::State: Send + Sync,
        G::Move: Send,
    {
        let mut counts = Vec::new();
        // What each part receives: (key, line) from every part.
        let mut inboxes: Vec<Vec<(u64, Vec<u8>)>> = vec![Vec::new(); shards as usize];
        inboxes[owner(game.key(root), shards) as usize].push((game.key(root), Vec::new()));
        for ply in 0..=depth {
            let mut row = vec![0u64; shards as usize];
            let mut next: Vec<Vec<(u64, Vec<u8>)>> = vec![Vec::new(); shards as usize];
            for (k, inbox) in inboxes.iter_mut().enumerate() {
                // Stable: the first sender's line of a key is kept, as the tasks keep it.
                inbox.sort_by_key(|(key, _)| *key);
                inbox.dedup_by_key(|(key, _)| *key);
                row[k] = inbox.len() as u64;
                let mut lines = Lines::new(ply);
                for (_, line) in inbox.iter() {
                    lines.push(line);
                }
                for (owner, part) in expand(game, root, &lines, shards, &quiet).unwrap().into_iter().enumerate() {
                    assert!(part.windows(2).all(|w| w[0].key < w[1].key));
                    for c in part {
                        assert_eq!(owner as u64, super::owner(c.key, shards));
                        let mut line = lines.get(c.parent as usize).to_vec();
                        line.push(c.index);
                        assert_eq!(game.key(&replay(game, root, &line).unwrap()), c.key);
                        next[owner].push((c.key, line));
                    }
                }
            }
            inboxes = next;
            counts.push(row);
        }
        counts
    }

    fn check<G>(game: &G, root: &G::State, depth: u32)
    where
        G: Game + Sync,
        G::State: Send + Sync,
        G::Move: Send,
    {
        let whole = distinct_positions(game, root, depth, &quiet);
        for shards in 1..=4 {
            let parts = exchanged(game, root, depth as usize, shards);
            let sum: Vec<u64> = parts.iter().map(|row| row.iter().sum()).collect();
            assert_eq!(sum, whole, "{shards} shards");
        }
    }

    #[test]
    fn parts_that_exchange_positions_count_them_all() {
        check(&Connect4::standard(), &Position::EMPTY, 6);
        check(&TicTacToe, &Board::EMPTY, 9);
        let setup = Setup::random(0);
        check(&Einstein::new(setup), &setup.state(), 3);
    }

    #[test]
    fn a_line_of_a_missing_child_is_refused() {
        let game = Connect4::standard();
        assert_eq!(replay(&game, &Position::EMPTY, &[1, 9]), Err(ExpandError::NoSuchChild { ply: 2, index: 9 }));
    }
}
