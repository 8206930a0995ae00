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
use khela_games::{Game, Node, Player, Value};
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
    #[error("a line of play passed {0} plies without ending: the proof search needs positions that near their end")]
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

/// The proof search of a claim (see the module documentation).
pub struct Prover<'a, G: Game, O> {
    game: &'a G,
    claim: Claim,
    order: O,
    width: Option<usize>,
    decided: AHashMap<u64, bool>,
    nodes: u64,
    tick: u64,
    /// Positions with fewer plies than this left before the bound are not kept in the table.
    height: u32,
    /// The bound of the search under way, in plies.
    bound: u32,
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

impl<'a, G: Game, O: Orderer<G>> Prover<'a, G, O> {
    /// A search of `claim` in `game`, children in the order `order` gives them, every claimant move searched.
    pub fn new(game: &'a G, claim: Claim, order: O) -> Self {
        Prover { game, claim, order, width: None, decided: AHashMap::new(), nodes: 0, tick: TICK, height: 0, bound: 0 }
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

    /// The positions decided so far, by key: whether each keeps the claim.
    pub fn decided(&self) -> &AHashMap<u64, bool> {
        &self.decided
    }

    /// The nodes searched so far (positions expanded, not read from the table).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `state` to at most `bound` plies, calling `tick` every [`TICK`] nodes (or as set) (which stops the search by
    /// returning `false`), and says whether the claim holds.
    pub fn prove(
        &mut self,
        state: &G::State,
        bound: u32,
        tick: &mut dyn FnMut(&Self) -> bool,
    ) -> Result<Verdict, ProveError> {
        self.bound = bound;
        let holds = self.search(state, bound, 0, tick)?;
        Ok(match (holds, self.width) {
            (true, _) => Verdict::Proven,
            (false, None) => Verdict::Refuted,
            (false, Some(_)) => Verdict::NotProven,
        })
    }

    /// Whether `state`, `ply` plies below the root, keeps the claim.
    fn search(
        &mut self,
        state: &G::State,
        bound: u32,
        ply: usize,
        tick: &mut dyn FnMut(&Self) -> bool,
    ) -> Result<bool, ProveError> {
        let player = match self.game.node(state) {
            Node::Terminal(payoff) => return Ok(self.claim.holds(payoff)),
            Node::Chance => return Err(ProveError::Chance),
            Node::Decision(player) => player,
        };
        let key = self.game.key(state);
        if let Some(&holds) = self.decided.get(&key) {
            return Ok(holds);
        }
        if ply as u32 >= bound {
            return Err(ProveError::TooDeep(bound));
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(self.tick) && !tick(self) {
            return Err(ProveError::Stopped);
        }
        let moves = self.children(state, player, ply);
        // OR at the claimant's turns (one move keeps it), AND at the opponent's (every move does).
        let any = player == self.claim.side;
        let mut holds = !any;
        for mv in moves {
            if self.search(&self.game.child(state, mv), bound, ply + 1, tick)? == any {
                holds = any;
                break;
            }
        }
        if bound - ply as u32 >= self.height {
            self.decided.insert(key, holds);
        }
        Ok(holds)
    }

    /// The moves of `state` in the order searched, the claimant's cut to the width.
    fn children(&mut self, state: &G::State, player: Player, ply: usize) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.game.moves(state, &mut moves);
        self.order.order(self.game, state, player, ply, &mut moves);
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
    /// the position only, as a static one does, for the children to come in the order searched.) `None` if the
    /// table lacks a position the proof passes through (a table resumed from another search).
    pub fn size(&mut self, state: &G::State) -> Option<Size> {
        let mut memo: AHashMap<u64, f64> = AHashMap::new();
        let tree = self.unfold(state, 0, &mut memo)?;
        Some(Size { positions: memo.len() as u64, tree })
    }

    /// The verdict of a decided or terminal position, `ply` plies below the root (one the table does not keep,
    /// searched again); `None` for one the table lacks.
    fn known(&mut self, state: &G::State, ply: usize) -> Option<bool> {
        match self.game.node(state) {
            Node::Terminal(payoff) => Some(self.claim.holds(payoff)),
            _ => match self.decided.get(&self.game.key(state)) {
                Some(&holds) => Some(holds),
                None if self.bound.saturating_sub(ply as u32) < self.height => {
                    self.search(state, self.bound, ply, &mut |_| true).ok()
                }
                None => None,
            },
        }
    }

    /// The nodes of the proof below `state` as a tree, counting it; the positions met kept in `memo`.
    fn unfold(&mut self, state: &G::State, ply: usize, memo: &mut AHashMap<u64, f64>) -> Option<f64> {
        let Node::Decision(player) = self.game.node(state) else { return Some(1.0) };
        let key = self.game.key(state);
        if let Some(&tree) = memo.get(&key) {
            return Some(tree);
        }
        let holds = self.known(state, ply)?;
        // The child that decides: the claimant's keeping move of a proof, the opponent's breaking one of a
        // refutation; elsewhere every child counts.
        let decider = (player == self.claim.side) == holds;
        let children: Vec<G::State> =
            self.children(state, player, ply).into_iter().map(|mv| self.game.child(state, mv)).collect();
        let counted: Vec<&G::State> = match decider {
            // The children before the decider were decided the other way; it is the first decided this way.
            true => {
                let mut counted = Vec::new();
                for child in &children {
                    if self.known(child, ply + 1)? == holds {
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
            tree += self.unfold(child, ply + 1, memo)?;
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

    /// Every claim, for either side, on every reachable tic-tac-toe position, against minimax's value.
    #[test]
    fn claims_agree_with_minimax_on_every_tictactoe_position() {
        for b in reachable() {
            let value = Searcher::new(&TicTacToe, Natural).run(Algorithm::Minimax, &b).value;
            for side in [Player::Max, Player::Min] {
                for win in [false, true] {
                    let claim = Claim { side, win };
                    let mut prover = Prover::new(&TicTacToe, claim, Natural);
                    let verdict = prover.prove(&b, 10, &mut |_| true).unwrap();
                    let truth = if claim.holds(value) { Verdict::Proven } else { Verdict::Refuted };
                    assert_eq!(verdict, truth, "{b} {claim:?}");
                    let size = prover.size(&b).unwrap();
                    assert!(size.tree >= size.positions as f64 && size.tree >= 1.0, "{b}");
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
        assert_eq!(full.prove(&Board::EMPTY, 10, &mut |_| true), Ok(Verdict::Proven));
        let mut one = Prover::new(&TicTacToe, claim, ByValue::best_first(oracle)).with_width(Some(1));
        assert_eq!(one.prove(&Board::EMPTY, 10, &mut |_| true), Ok(Verdict::Proven));
        assert!(one.nodes() * 2 < full.nodes(), "{} {}", one.nodes(), full.nodes());
        let (narrow, wide) = (one.size(&Board::EMPTY).unwrap(), full.size(&Board::EMPTY).unwrap());
        assert!(narrow.positions > 10 && narrow.tree >= narrow.positions as f64, "{narrow:?}");
        assert!(narrow.positions <= wide.positions, "{narrow:?} {wide:?}");
        let crude: fn(&TicTacToe, &Board) -> Value = |_, b| {
            let weights = [3.0, 2.0, 3.0, 2.0, 4.0, 2.0, 3.0, 2.0, 3.0];
            (0..9).map(|i| weights[i] * (f64::from(b.x >> i & 1) - f64::from(b.o >> i & 1))).sum()
        };
        let mut crude = Prover::new(&TicTacToe, claim, ByValue::best_first(crude)).with_width(Some(1));
        assert_eq!(crude.prove(&Board::EMPTY, 10, &mut |_| true), Ok(Verdict::NotProven));
        // O's win is false: with every O move, refuted.
        let o_wins = Claim { side: Player::Min, win: true };
        let mut refuted = Prover::new(&TicTacToe, o_wins, Natural);
        assert_eq!(refuted.prove(&Board::EMPTY, 10, &mut |_| true), Ok(Verdict::Refuted));
    }

    /// Sizes counted by hand: X to move completes the top row (a proof of one position and its winning child);
    /// X to move fills the last cell without a line (a refutation of one position and its drawn child).
    #[test]
    fn proof_sizes_count_as_documented() {
        let x_wins = Claim { side: Player::Max, win: true };
        let b = TicTacToe::parse("XX.OO....").unwrap();
        let mut prover = Prover::new(&TicTacToe, x_wins, Natural);
        assert_eq!(prover.prove(&b, 10, &mut |_| true), Ok(Verdict::Proven));
        assert_eq!(prover.size(&b), Some(Size { positions: 1, tree: 2.0 }));
        // X to move with one cell left, which gives no line: the win refuted, the refutation the root and its
        // one (terminal, drawn) child.
        let b = TicTacToe::parse("XOXXOOOX.").unwrap();
        let mut prover = Prover::new(&TicTacToe, x_wins, Natural);
        assert_eq!(prover.prove(&b, 10, &mut |_| true), Ok(Verdict::Refuted));
        assert_eq!(prover.size(&b), Some(Size { positions: 1, tree: 2.0 }));
        // A table from elsewhere that lacks the proof's positions: no size, no panic.
        let mut bare = Prover::new(&TicTacToe, x_wins, Natural).with_decided([(TicTacToe.key(&Board::EMPTY), true)]);
        assert_eq!(bare.size(&Board::EMPTY), None);
    }

    #[test]
    fn a_saved_table_resumes_and_bounds_and_stops_are_kept() {
        let claim = Claim { side: Player::Max, win: false };
        let mut first = Prover::new(&TicTacToe, claim, Natural).with_tick(100);
        // Stopped at the first tick: nothing lost but the work since.
        let mut ticks = 0;
        let stopped = first.prove(&Board::EMPTY, 10, &mut |_| {
            ticks += 1;
            false
        });
        assert_eq!((stopped, ticks), (Err(ProveError::Stopped), 1));
        let saved: Vec<(u64, bool)> = first.decided().iter().map(|(&k, &v)| (k, v)).collect();
        assert!(!saved.is_empty());
        let mut resumed = Prover::new(&TicTacToe, claim, Natural).with_decided(saved);
        assert_eq!(resumed.prove(&Board::EMPTY, 10, &mut |_| true), Ok(Verdict::Proven));
        let mut fresh = Prover::new(&TicTacToe, claim, Natural);
        assert_eq!(fresh.prove(&Board::EMPTY, 10, &mut |_| true), Ok(Verdict::Proven));
        assert!(resumed.nodes() < fresh.nodes(), "{} {}", resumed.nodes(), fresh.nodes());
        assert_eq!(
            Prover::new(&TicTacToe, claim, Natural).prove(&Board::EMPTY, 3, &mut |_| true),
            Err(ProveError::TooDeep(3))
        );
    }
}
