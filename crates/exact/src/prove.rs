//! Proving a claim about a position: "this side gets at least a draw" (or a win) with best play, by an AND/OR
//! depth-first search with a table of the positions decided.
//!
//! At the claimant's turns one move must keep the claim (an OR node: the search stops at the first that does);
//! at the opponent's every move must (an AND node: it stops at the first that breaks it). A terminal position
//! keeps the claim or not by its payoff; so does a position a retrograde table settles (search the
//! [`khela_games::settled::Settled`] game). Children are searched in the order an [`Orderer`] gives, and at the
//! claimant's turns only the first `width` of them, if a width is set: a *heuristic player* for the claimant.
//! Lim and Nievergelt proved Bagh-Chal a draw this way ("Tigers and Goats is a draw", 2009): searching one good
//! goat move a goat turn halves the depth of the proof of the goats' draw. With a width, a failure refutes
//! nothing (a move left out might have kept the claim): [`Verdict::NotProven`]; without, it is a refutation.
//!
//! The table maps a position's key to whether it keeps the claim (for this search's claim and width); it is
//! the whole state of the search, so a search restarted with a table saved along the way ([`Prover::decided`],
//! [`Prover::with_decided`]) redoes only the work since.
//!
//! The search is for positions a bounded number of plies before their ends (the placement phase of Bagh-Chal
//! before its sliding phase's tables): deeper than the bound given, it stops with [`ProveError::TooDeep`].

use crate::Orderer;
use ahash::AHashMap;
use dashmap::DashMap;
use khela_games::{Game, Node, Player, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use thiserror::Error;

/// What is claimed of a position: `side` gets at least a draw, or a win, with best play by both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The side the claim is for.
    pub side: Player,
    /// A win claimed; otherwise at least a draw.
    pub win: bool,
}

impl Claim {
    /// Whether a terminal payoff (MAX's view) keeps the claim.
    #[inline]
    pub fn holds(&self, payoff: Value) -> bool {
        let view = self.side.view(payoff);
        if self.win { view > 0.0 } else { view >= 0.0 }
    }
}

/// What the search found of the claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The claim holds: a proof tree exists, all of whose leaves keep it.
    Proven,
    /// The claim is false: every claimant move was searched, and the opponent breaks each.
    Refuted,
    /// The claimant's moves searched (the first `width` a turn) do not keep the claim; others might.
    NotProven,
}

/// Why a proof search stopped without a verdict.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProveError {
    /// A line longer than the bound: the position is not that near its ends (or the tables miss a part).
    #[error(
        "a line of play passed {} without ending: the proof search needs positions that near their end",
        khela_games::notation::plies(u64::from(*.0))
    )]
    TooDeep(u32),
    /// A chance node: the claim is about a game without chance.
    #[error("a chance node: proof search is for games without chance")]
    Chance,
    /// The caller stopped it ([`Prover::prove`]'s `tick` said so).
    #[error("stopped")]
    Stopped,
}

/// How many nodes pass between two calls of the search's `tick`, unless set ([`Prover::with_tick`]).
pub const TICK: u64 = 1 << 16;

/// The opponent's turns fewer plies than this from the root search their moves on several threads: enough
/// tasks to keep the threads busy, few enough that each is worth its start.
const SPLIT: usize = 6;

/// The proof search of a claim (see the module documentation).
pub struct Prover<'a, G: Game, O> {
    game: &'a G,
    claim: Claim,
    /// The order of the children, copied for each thread.
    order: O,
    width: Option<usize>,
    decided: DashMap<u64, bool, ahash::RandomState>,
    nodes: AtomicU64,
    stopped: AtomicBool,
    tick: u64,
    /// Positions with fewer plies than this left before the bound are not kept in the table.
    height: u32,
    /// The bound of the search under way, in plies.
    bound: u32,
    /// The opponent's turns fewer plies than this from the root search their moves in parallel.
    split: usize,
}

/// The size of a proof (or a refutation): its positions, and the nodes of the tree it unfolds to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    /// Distinct non-terminal positions in it.
    pub positions: u64,
    /// Its nodes as a tree (a position reached by several lines counted on each), terminal leaves included;
    /// a float, as trees grow past 2⁶⁴.
    pub tree: f64,
}

/// What a search calls every [`TICK`] nodes (or as set), from any of its threads: `false` stops the search.
pub type Tick<'t, P> = &'t (dyn Fn(&P) -> bool + Sync);

impl<'a, G, O> Prover<'a, G, O>
where
    G: Game<State: Send + Sync, Move: Send + Sync> + Sync,
    O: Orderer<G> + Clone + Send + Sync,
{
    /// A search of `claim` in `game`, children in the order `order` gives them, every claimant move searched,
    /// on the threads of the current rayon pool.
    pub fn new(game: &'a G, claim: Claim, order: O) -> Self {
        Prover {
            game,
            claim,
            order,
            width: None,
            decided: DashMap::default(),
            nodes: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            tick: TICK,
            height: 0,
            bound: 0,
            split: SPLIT,
        }
    }

    /// The same search trying only the claimant's first `width` moves a turn (a heuristic player).
    pub fn with_width(self, width: Option<usize>) -> Self {
        Prover { width, ..self }
    }

    /// The same search starting from a table of decided positions (a saved [`Prover::decided`] of the same
    /// game, claim and width).
    pub fn with_decided(self, decided: impl IntoIterator<Item = (u64, bool)>) -> Self {
        Prover { decided: decided.into_iter().collect(), ..self }
    }

    /// The same search calling its `tick` every `nodes` nodes.
    pub fn with_tick(self, nodes: u64) -> Self {
        Prover { tick: nodes.max(1), ..self }
    }

    /// The same search keeping in its table only the positions with at least `plies` plies left before the
    /// bound: the many positions near the ends are quick to search again, and a table without them takes a
    /// fraction of the memory (and of the checkpoint).
    pub fn keeping_above(self, plies: u32) -> Self {
        Prover { height: plies, ..self }
    }

    /// The positions decided so far, by key, in the order of their keys: whether each keeps the claim. With
    /// several threads, which positions a search decides (not what it decides of them) depends on their timing.
    pub fn decided(&self) -> Vec<(u64, bool)> {
        let mut decided: Vec<(u64, bool)> = Vec::with_capacity(self.decided.len());
        decided.extend(self.decided.iter().map(|entry| (*entry.key(), *entry.value())));
        decided.sort_unstable();
        decided
    }

    /// How many positions are decided so far.
    pub fn decided_count(&self) -> usize {
        self.decided.len()
    }

    /// The nodes searched so far (positions expanded, not read from the table).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Searches `state` to at most `bound` plies, calling `tick` every [`TICK`] nodes (or as set), and says
    /// whether the claim holds. The verdict is the same for any number of threads.
    pub fn prove(&mut self, state: &G::State, bound: u32, tick: Tick<Self>) -> Result<Verdict, ProveError> {
        self.bound = bound;
        self.stopped.store(false, Relaxed);
        let holds = self.search(state, 0, &mut self.order.clone(), tick)?;
        Ok(match (holds, self.width) {
            (true, _) => Verdict::Proven,
            (false, None) => Verdict::Refuted,
            (false, Some(_)) => Verdict::NotProven,
        })
    }

    /// Whether `state`, `ply` plies below the root, keeps the claim.
    fn search(&self, state: &G::State, ply: usize, order: &mut O, tick: Tick<Self>) -> Result<bool, ProveError> {
        let player = match self.game.node(state) {
            Node::Terminal(payoff) => return Ok(self.claim.holds(payoff)),
            Node::Chance => return Err(ProveError::Chance),
            Node::Decision(player) => player,
        };
        let key = self.game.key(state);
        if let Some(holds) = self.decided.get(&key).map(|entry| *entry) {
            return Ok(holds);
        }
        if ply as u32 >= self.bound {
            return Err(ProveError::TooDeep(self.bound));
        }
        let nodes = self.nodes.fetch_add(1, Relaxed) + 1;
        if self.stopped.load(Relaxed) || (nodes.is_multiple_of(self.tick) && !tick(self)) {
            self.stopped.store(true, Relaxed);
            return Err(ProveError::Stopped);
        }
        let moves = self.children(state, player, ply, order);
        let child = |mv: G::Move| self.game.child(state, mv);
        // OR at the claimant's turns (one move keeps it), AND at the opponent's (every move does): near the
        // root, the opponent's moves in parallel, the first that breaks the claim ending the others' search.
        let holds = if player == self.claim.side {
            let mut holds = false;
            for mv in moves {
                if self.search(&child(mv), ply + 1, order, tick)? {
                    holds = true;
                    break;
                }
            }
            holds
        } else if ply < self.split && moves.len() > 1 && rayon::current_num_threads() > 1 {
            let broken = moves
                .par_iter()
                .map_init(|| self.order.clone(), |order, &mv| self.search(&child(mv), ply + 1, order, tick))
                .find_map_any(|result| if let Ok(true) = result { None } else { Some(result) });
            match broken {
                None => true,
                Some(result) => result?,
            }
        } else {
            let mut holds = true;
            for mv in moves {
                if !self.search(&child(mv), ply + 1, order, tick)? {
                    holds = false;
                    break;
                }
            }
            holds
        };
        if self.bound - ply as u32 >= self.height {
            self.decided.insert(key, holds);
        }
        Ok(holds)
    }

    /// The moves of `state` in the order searched, the claimant's cut to the width.
    fn children(&self, state: &G::State, player: Player, ply: usize, order: &mut O) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.game.moves(state, &mut moves);
        order.order(self.game, state, player, ply, &mut moves);
        if player == self.claim.side
            && let Some(width) = self.width
        {
            moves.truncate(width);
        }
        moves
    }

    /// The size of the proof (or of the refutation) of `state`, decided by [`Prover::prove`]: at a node whose
    /// verdict one child makes (a claimant's move that keeps the claim, an opponent's that breaks it), the
    /// first such child in the search's order; at the others, every child searched. (The order must depend on
    /// the position only, as a static one does, for the children to come in the order searched.) Positions the
    /// table does not hold are searched again, on one thread; `None` if that search fails (a table resumed from
    /// another search that passes the bound).
    pub fn size(&self, state: &G::State) -> Option<Size> {
        let mut memo: AHashMap<u64, f64> = AHashMap::new();
        let tree = self.unfold(state, 0, &mut self.order.clone(), &mut memo)?;
        Some(Size { positions: memo.len() as u64, tree })
    }

    /// The verdict of a terminal position, or of one `ply` plies below the root from the table, or searched.
    fn known(&self, state: &G::State, ply: usize, order: &mut O) -> Option<bool> {
        match self.game.node(state) {
            Node::Terminal(payoff) => Some(self.claim.holds(payoff)),
            _ => match self.decided.get(&self.game.key(state)).map(|entry| *entry) {
                Some(holds) => Some(holds),
                None => self.search(state, ply, order, &|_| true).ok(),
            },
        }
    }

    /// The nodes of the proof below `state` as a tree, counting it; the positions met kept in `memo`.
    fn unfold(&self, state: &G::State, ply: usize, order: &mut O, memo: &mut AHashMap<u64, f64>) -> Option<f64> {
        let Node::Decision(player) = self.game.node(state) else { return Some(1.0) };
        let key = self.game.key(state);
        if let Some(&tree) = memo.get(&key) {
            return Some(tree);
        }
        let holds = self.known(state, ply, order)?;
        // The child that decides: the claimant's keeping move of a proof, the opponent's breaking one of a
        // refutation; elsewhere every child counts.
        let decider = (player == self.claim.side) == holds;
        let children: Vec<G::State> =
            self.children(state, player, ply, order).into_iter().map(|mv| self.game.child(state, mv)).collect();
        let counted: Vec<&G::State> = match decider {
            // The children before the decider were decided the other way; it is the first decided this way.
            true => {
                let mut counted = Vec::new();
                for child in &children {
                    if self.known(child, ply + 1, order)? == holds {
                        counted.push(child);
                        break;
                    }
                }
                counted
            }
            false => children.iter().collect(),
        };
        let mut tree = 1.0;
        for child in counted {
            tree += self.unfold(child, ply + 1, order, memo)?;
        }
        memo.insert(key, tree);
        Some(tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Algorithm, ByValue, Natural, Searcher};
    use khela_games::tictactoe::{Board, TicTacToe};

    /// Every tic-tac-toe position reachable from the start.
    fn reachable() -> Vec<Board> {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![Board::EMPTY];
        let mut moves = Vec::new();
        while let Some(b) = stack.pop() {
            if seen.insert(b) {
                TicTacToe.moves(&b, &mut moves);
                stack.extend(moves.iter().map(|&m| TicTacToe.child(&b, m)));
            }
        }
        seen.into_iter().collect()
    }

    /// Every claim, for either side, on every reachable tic-tac-toe position, against minimax's value; the
    /// verdicts and the proofs' sizes the same on 2 threads as on 1 (the opponent's turns near the root split).
    #[test]
    fn claims_agree_with_minimax_on_every_tictactoe_position_on_any_threads() {
        let pools = [1, 2].map(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap());
        for b in reachable() {
            let value = Searcher::new(&TicTacToe, Natural).run(Algorithm::Minimax, &b).value;
            for side in [Player::Max, Player::Min] {
                for win in [false, true] {
                    let claim = Claim { side, win };
                    let [one, two] = pools.each_ref().map(|pool| {
                        pool.install(|| {
                            let mut prover = Prover::new(&TicTacToe, claim, Natural);
                            let verdict = prover.prove(&b, 10, &|_| true).unwrap();
                            (verdict, prover.size(&b).unwrap())
                        })
                    });
                    let truth = if claim.holds(value) { Verdict::Proven } else { Verdict::Refuted };
                    assert_eq!(one.0, truth, "{b} {claim:?}");
                    assert!(one.1.tree >= one.1.positions as f64 && one.1.tree >= 1.0, "{b}");
                    assert_eq!(one, two, "{b} {claim:?}");
                }
            }
        }
    }

    /// X's draw from the start: one X move a turn suffices when the order puts a good one first (the exact
    /// values' order), with fewer nodes than every X move in natural order; a crude static preference (centre,
    /// then corners) as the only X move a turn does not suffice — which is no refutation.
    #[test]
    fn a_heuristic_player_proves_with_less_or_not_at_all() {
        let claim = Claim { side: Player::Max, win: false };
        let oracle = crate::Oracle::new(&TicTacToe, &Board::EMPTY).shared();
        let mut full = Prover::new(&TicTacToe, claim, Natural);
        assert_eq!(full.prove(&Board::EMPTY, 10, &|_| true), Ok(Verdict::Proven));
        let mut one = Prover::new(&TicTacToe, claim, ByValue::best_first(oracle)).with_width(Some(1));
        assert_eq!(one.prove(&Board::EMPTY, 10, &|_| true), Ok(Verdict::Proven));
        assert!(one.nodes() * 2 < full.nodes(), "{} {}", one.nodes(), full.nodes());
        let (narrow, wide) = (one.size(&Board::EMPTY).unwrap(), full.size(&Board::EMPTY).unwrap());
        assert!(narrow.positions > 10 && narrow.tree >= narrow.positions as f64, "{narrow:?}");
        assert!(narrow.positions <= wide.positions, "{narrow:?} {wide:?}");
        let crude: fn(&TicTacToe, &Board) -> Value = |_, b| {
            let weights = [3.0, 2.0, 3.0, 2.0, 4.0, 2.0, 3.0, 2.0, 3.0];
            (0..9).map(|i| weights[i] * (f64::from(b.x >> i & 1) - f64::from(b.o >> i & 1))).sum()
        };
        let mut crude = Prover::new(&TicTacToe, claim, ByValue::best_first(crude)).with_width(Some(1));
        assert_eq!(crude.prove(&Board::EMPTY, 10, &|_| true), Ok(Verdict::NotProven));
        // O's win is false: with every O move, refuted.
        let o_wins = Claim { side: Player::Min, win: true };
        let mut refuted = Prover::new(&TicTacToe, o_wins, Natural);
        assert_eq!(refuted.prove(&Board::EMPTY, 10, &|_| true), Ok(Verdict::Refuted));
    }

    /// Sizes counted by hand: X to move completes the top row (a proof of one position and its winning child);
    /// X to move fills the last cell without a line (a refutation of one position and its drawn child).
    #[test]
    fn proof_sizes_count_as_documented() {
        let x_wins = Claim { side: Player::Max, win: true };
        let b = TicTacToe::parse("XX.OO....").unwrap();
        let mut prover = Prover::new(&TicTacToe, x_wins, Natural);
        assert_eq!(prover.prove(&b, 10, &|_| true), Ok(Verdict::Proven));
        assert_eq!(prover.size(&b), Some(Size { positions: 1, tree: 2.0 }));
        // X to move with one cell left, which gives no line: the win refuted, the refutation the root and its
        // one (terminal, drawn) child.
        let b = TicTacToe::parse("XOXXOOOX.").unwrap();
        let mut prover = Prover::new(&TicTacToe, x_wins, Natural);
        assert_eq!(prover.prove(&b, 10, &|_| true), Ok(Verdict::Refuted));
        assert_eq!(prover.size(&b), Some(Size { positions: 1, tree: 2.0 }));
        // A table from elsewhere, and no search run (no bound): the positions it lacks cannot be searched
        // again, so no size — and no panic.
        let bare = Prover::new(&TicTacToe, x_wins, Natural).with_decided([(TicTacToe.key(&Board::EMPTY), true)]);
        assert_eq!(bare.size(&Board::EMPTY), None);
    }

    #[test]
    fn a_saved_table_resumes_and_bounds_and_stops_are_kept() {
        let claim = Claim { side: Player::Max, win: false };
        let mut first = Prover::new(&TicTacToe, claim, Natural).with_tick(100);
        // Stopped at the first tick: nothing lost but the work since.
        let ticks = std::sync::atomic::AtomicUsize::new(0);
        let stopped = first.prove(&Board::EMPTY, 10, &|_| {
            ticks.fetch_add(1, Relaxed);
            false
        });
        assert_eq!((stopped, ticks.into_inner()), (Err(ProveError::Stopped), 1));
        let saved = first.decided();
        assert!(!saved.is_empty());
        let mut resumed = Prover::new(&TicTacToe, claim, Natural).with_decided(saved);
        assert_eq!(resumed.prove(&Board::EMPTY, 10, &|_| true), Ok(Verdict::Proven));
        let mut fresh = Prover::new(&TicTacToe, claim, Natural);
        assert_eq!(fresh.prove(&Board::EMPTY, 10, &|_| true), Ok(Verdict::Proven));
        assert!(resumed.nodes() < fresh.nodes(), "{} {}", resumed.nodes(), fresh.nodes());
        assert_eq!(
            Prover::new(&TicTacToe, claim, Natural).prove(&Board::EMPTY, 3, &|_| true),
            Err(ProveError::TooDeep(3))
        );
    }
}
