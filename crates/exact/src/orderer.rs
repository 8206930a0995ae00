//! Move orderings: the order in which the search loop tries a decision node's children.
//!
//! An ordering is a type implementing [`Orderer`], plugged into the loop as [`crate::Cache`] and
//! [`crate::Observer`] are: the loop asks it to order each node's moves and, if it learns, rewards it with each
//! node's best move. Orderings change how much alpha-beta prunes, never the value it returns. The orderings
//! here are the textbook's and the engines': [`Natural`], [`Reversed`], [`Preference`], [`Shuffled`],
//! [`ByValue`] (best or worst first by a [`Valuation`]: a static evaluation, or the exact values of an
//! [`crate::Oracle`]), [`History`] and [`Shallow`]; [`crate::MoveOrdering`] chooses among them at run time, by
//! name.

use crate::horizon::{EvalFn, UNLIMITED};
use ahash::AHashMap;
use khela_games::{Evaluator, Game, Node, Player, Value};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;
use std::hash::Hash;

/// What an ordering knows of a decision node before its moves are searched ([`Orderer::prune`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Foreknown {
    /// The node's value, from MAX's view, known without searching any move.
    Value(Value),
    /// Bounds `(lo, hi)` on the node's value, from MAX's view; the moves left to search reach it.
    Bounds(Value, Value),
    /// Nothing: the node is searched as it is, its moves as the ordering left them.
    Nothing,
}

/// A move ordering, as the search loop uses it.
///
/// An ordering may also bring knowledge of the game that settles or bounds a node before its moves are
/// searched ([`Orderer::prune`]: a win on the move, moves that lose at once left out, the score still in
/// reach). Like the order, it changes how much the search prunes, never the value it returns.
pub trait Orderer<G: Game> {
    /// Whether [`Orderer::order`] may change the natural order. `false` lets the loop skip ordering, so that
    /// the natural order costs nothing.
    #[inline(always)]
    fn reorders(&self) -> bool {
        true
    }

    /// Puts `moves`, the moves of `state` where `player` is to move, `ply` moves from the root, in the order to
    /// search them.
    fn order(&mut self, game: &G, state: &G::State, player: Player, ply: usize, moves: &mut [G::Move]);

    /// Whether the loop may order a node's moves in two steps where its cache names the best move of an earlier
    /// search of it (and asks for no lookahead, [`crate::Cache::LOOKAHEAD`]): that move first, searched alone, and
    /// the others ordered only if it does not cut the node off. The search visits the same nodes for less work if
    /// ordering the other moves alone gives them in the order that ordering all of them gives, and if nothing the
    /// first move's search changes affects the order: true of a stable sort by something of each move and the
    /// node, and of reversal. By default, `true` for an ordering that does not learn ([`Orderer::learns`]: one that
    /// does would count the first move's rewards). An ordering that does not meet the condition otherwise (a
    /// seeded shuffle, [`Shuffled`], draws differently from fewer moves) says `false`; staged or not, the values
    /// are the same.
    #[inline(always)]
    fn stages(&self) -> bool {
        !self.learns()
    }

    /// Whether [`Orderer::prune`] knows anything. `false` (the default) lets the loop skip it.
    #[inline(always)]
    fn prunes(&self) -> bool {
        false
    }

    /// Whether [`Orderer::prune`] can list the moves it keeps itself: the loop then hands it an empty buffer
    /// rather than the game's list ([`Game::decision_moves`]) to filter. For knowledge that finds the moves it
    /// keeps for less than listing them all costs (Connect-4's safe cells, a mask). Such a `prune` still filters
    /// a list it is given (an ordering that wraps it may pass one on).
    #[inline(always)]
    fn lists_moves(&self) -> bool {
        false
    }

    /// Whether every move that [`Orderer::prune`] keeps at a node it bounds ([`Foreknown::Bounds`]) leads to a
    /// decision node of the opponent's (the game goes on, the turn passes): the loop then does not ask the game
    /// what each child is ([`Game::node`]). Connect-4's knowledge keeps no move that wins or fills the board.
    #[inline(always)]
    fn bounded_moves_go_on(&self) -> bool {
        false
    }

    /// Before the moves of `state` (a decision node of `player`, `ply` moves from the root, searched with
    /// `depth` decision plies left, [`UNLIMITED`] to the end of the game) are searched: its value in a search of
    /// that depth, if known without search, or bounds on it, having removed from `moves` any move whose value is
    /// no better for `player` than the best of those kept, so that the best of those kept is the node's value.
    /// `moves` stays non-empty unless the value is known. Called only if [`Orderer::prunes`], at the decision
    /// nodes with a ply or more left that the loop expands, in the order it meets them (not at a draw by the
    /// game's repetition rules, nor in Star2's probes or the lookahead's).
    fn prune(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        ply: usize,
        depth: u32,
        moves: &mut Vec<G::Move>,
    ) -> Foreknown {
        let _ = (game, state, player, ply, depth, moves);
        Foreknown::Nothing
    }

    /// Whether the ordering learns from results ([`Orderer::reward`]); the loop works out what a reward needs
    /// only for those that do.
    #[inline(always)]
    fn learns(&self) -> bool {
        false
    }

    /// Records that `mv` was the best move (or caused a cutoff) at a node `ply` moves deep with `depth` decision
    /// plies left ([`UNLIMITED`] without a horizon). Called only if [`Orderer::learns`].
    fn reward(&mut self, mv: G::Move, ply: usize, depth: u32) {
        let _ = (mv, ply, depth);
    }

    /// Whether the ordering keeps killer moves ([`Orderer::killer`]): the loop tells it of each cutoff
    /// ([`Orderer::cut_by`]) only if so. `false` by default.
    #[inline(always)]
    fn keeps_killers(&self) -> bool {
        false
    }

    /// The killer move for a node `ply` moves from the root with `depth` decision plies left, if the ordering
    /// keeps one: a move that cut off another node of that ply, to be searched first where the cache names no
    /// best move, alone, as the cache's would be (the loop does so only where the ordering stages,
    /// [`Orderer::stages`]: the others are ordered only if it does not cut the node off). Asked only if
    /// [`Orderer::keeps_killers`].
    fn killer(&self, ply: usize, depth: u32) -> Option<G::Move> {
        let _ = (ply, depth);
        None
    }

    /// Records that `mv` cut off a node `ply` moves from the root with `depth` decision plies left. Called only
    /// if [`Orderer::keeps_killers`].
    fn cut_by(&mut self, mv: G::Move, ply: usize, depth: u32) {
        let _ = (mv, ply, depth);
    }
}

/// The game's natural order: the loop does no ordering at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Natural;

impl<G: Game> Orderer<G> for Natural {
    #[inline(always)]
    fn reorders(&self) -> bool {
        false
    }

    #[inline(always)]
    fn order(&mut self, _: &G, _: &G::State, _: Player, _: usize, _: &mut [G::Move]) {}
}

/// The natural order backwards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reversed;

impl<G: Game> Orderer<G> for Reversed {
    fn order(&mut self, _: &G, _: &G::State, _: Player, _: usize, moves: &mut [G::Move]) {
        moves.reverse();
    }
}

/// Moves in the order of a preference list; moves not in it come last, in natural order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preference<M>(pub Vec<M>);

impl<G: Game> Orderer<G> for Preference<G::Move> {
    fn order(&mut self, _: &G, _: &G::State, _: Player, _: usize, moves: &mut [G::Move]) {
        let list = &self.0;
        moves.sort_by_key(|m| list.iter().position(|p| p == m).unwrap_or(list.len()));
    }
}

/// A random shuffle at every node, from a generator seeded once.
#[derive(Clone, Debug)]
pub struct Shuffled {
    rng: Pcg64Mcg,
}

impl Shuffled {
    /// Shuffles from the generator seeded with `seed`: the same seed shuffles a search the same way.
    pub fn new(seed: u64) -> Shuffled {
        Shuffled { rng: Pcg64Mcg::seed_from_u64(seed) }
    }
}

impl<G: Game> Orderer<G> for Shuffled {
    fn order(&mut self, _: &G, _: &G::State, _: Player, _: usize, moves: &mut [G::Move]) {
        moves.shuffle(&mut self.rng);
    }

    /// Never: a shuffle of fewer moves draws differently, and the search would not be the unstaged one.
    #[inline(always)]
    fn stages(&self) -> bool {
        false
    }
}

/// A value of each child that a [`ByValue`] ordering sorts by, from MAX's view.
pub trait Valuation<G: Game> {
    /// The value of `state`.
    fn value(&self, game: &G, state: &G::State) -> Value;
}

/// A static evaluation, as an ordering's valuation.
impl<G: Game> Valuation<G> for fn(&G, &G::State) -> Value {
    #[inline]
    fn value(&self, game: &G, state: &G::State) -> Value {
        self(game, state)
    }
}

/// An evaluator's estimate as an ordering's valuation: a terminal child by its payoff, beyond every estimate
/// ([`Evaluator::terminal`]), the others by [`Evaluator::evaluate`].
#[derive(Clone, Copy, Debug)]
pub struct Estimate<'a, E>(pub &'a E);

impl<G: Game, E: Evaluator<G>> Valuation<G> for Estimate<'_, E> {
    #[inline]
    fn value(&self, game: &G, state: &G::State) -> Value {
        match game.node(state) {
            Node::Terminal(payoff) => self.0.terminal(payoff),
            _ => self.0.evaluate(game, state),
        }
    }
}

/// Children sorted by a [`Valuation`] of the child, best first (or worst first) for the side to move, ties in
/// natural order (a stable sort). Sorted by a static evaluation, this is the textbook's *static ordering*; by
/// the exact values of an [`crate::Oracle`], the oracle orderings.
#[derive(Clone, Debug)]
pub struct ByValue<V, M> {
    valuation: V,
    worst_first: bool,
    scratch: Vec<(Value, M)>,
}

impl<V, M> ByValue<V, M> {
    /// The best child first by `valuation`.
    pub fn best_first(valuation: V) -> Self {
        ByValue { valuation, worst_first: false, scratch: Vec::new() }
    }

    /// The worst child first by `valuation`.
    pub fn worst_first(valuation: V) -> Self {
        ByValue { valuation, worst_first: true, scratch: Vec::new() }
    }

    /// The valuation.
    pub fn valuation(&self) -> &V {
        &self.valuation
    }
}

impl<G: Game, V: Valuation<G>> Orderer<G> for ByValue<V, G::Move> {
    fn order(&mut self, game: &G, state: &G::State, player: Player, _: usize, moves: &mut [G::Move]) {
        self.scratch.clear();
        for &mv in moves.iter() {
            let mover = player.view(self.valuation.value(game, &game.child(state, mv)));
            // Ascending keys put the mover's values best first (or worst first).
            self.scratch.push((if self.worst_first { mover } else { -mover }, mv));
        }
        sort_by_key(&mut self.scratch, moves);
    }
}

/// The history heuristic: moves sorted by how often (weighted by the height of the subtree) they were the best
/// move or caused a cutoff earlier in the search, ties in natural order.
#[derive(Clone, Debug)]
pub struct History<M> {
    scores: Scores<M>,
    /// Scratch space of [`Orderer::order`]: each move with its score.
    scratch: Vec<(u64, M)>,
}

impl<M> Default for History<M> {
    fn default() -> Self {
        History { scores: Scores::Few(Vec::new()), scratch: Vec::new() }
    }
}

/// A history's scores by move: in a list while few moves have one, in a hash map beyond. Most games have few
/// distinct moves (Connect-4 seven, tic-tac-toe nine), and a scan of a few entries costs less than hashing the
/// move at every child of every node.
#[derive(Clone, Debug)]
enum Scores<M> {
    Few(Vec<(M, u64)>),
    Many(AHashMap<M, u64>),
}

/// The most moves a history keeps in its list.
const FEW_MOVES: usize = 16;

impl<M: Copy + Eq + Hash> Scores<M> {
    /// The score of `mv` (0 for a move never rewarded).
    #[inline]
    fn get(&self, mv: M) -> u64 {
        match self {
            Scores::Few(list) => list.iter().find(|entry| entry.0 == mv).map_or(0, |entry| entry.1),
            Scores::Many(map) => map.get(&mv).copied().unwrap_or(0),
        }
    }

    /// Adds `reward` to the score of `mv`.
    #[inline]
    fn add(&mut self, mv: M, reward: u64) {
        match self {
            Scores::Few(list) => match list.iter().position(|entry| entry.0 == mv) {
                Some(i) => list[i].1 += reward,
                None if list.len() < FEW_MOVES => list.push((mv, reward)),
                None => {
                    let mut map: AHashMap<M, u64> = list.drain(..).collect();
                    map.insert(mv, reward);
                    *self = Scores::Many(map);
                }
            },
            Scores::Many(map) => *map.entry(mv).or_insert(0) += reward,
        }
    }
}

impl<G: Game> Orderer<G> for History<G::Move> {
    fn order(&mut self, _: &G, _: &G::State, _: Player, _: usize, moves: &mut [G::Move]) {
        // Each move's score looked up once; the highest first, ties kept in order (a stable sort).
        let scores = &self.scores;
        self.scratch.clear();
        self.scratch.extend(moves.iter().map(|&mv| (scores.get(mv), mv)));
        self.scratch.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        for (slot, &(_, mv)) in moves.iter_mut().zip(&self.scratch) {
            *slot = mv;
        }
    }

    #[inline(always)]
    fn learns(&self) -> bool {
        true
    }

    /// The history heuristic's reward: depth², or, without a horizon, the square of 64 − ply, so that moves
    /// near the root, over larger subtrees, weigh more.
    #[inline]
    fn reward(&mut self, mv: G::Move, ply: usize, depth: u32) {
        let height = if depth == UNLIMITED { 64u64.saturating_sub(ply as u64).max(1) } else { u64::from(depth) };
        self.scores.add(mv, height * height);
    }
}

/// A static evaluation of the children at the nodes fewer than `plies` moves from the root, where subtrees are
/// large and a sort by evaluation pays; below, where evaluating every child would cost more than it saves, the
/// history heuristic, or the game's own order ([`Game::order_moves`]) if it is asked for and the game has one.
/// (The best move a cache remembers goes first at every depth.) With the game's order, a parent of the horizon's
/// leaves that the cache names no best move for tries a killer move first ([`Orderer::killer`]).
pub struct Shallow<G: Game> {
    sorted: ByValue<EvalFn<G>, G::Move>,
    history: History<G::Move>,
    plies: usize,
    /// Whether the game's order stands in for the history below the sorted plies.
    game_order: bool,
    /// The move that last cut off a parent of the horizon's leaves, by ply (with the game's order).
    killers: Vec<Option<G::Move>>,
}

impl<G: Game> Shallow<G> {
    /// Children sorted best first by `evaluate` (MAX's view) at the first `plies` plies, by history below.
    pub fn new(evaluate: EvalFn<G>, plies: usize) -> Self {
        Shallow {
            sorted: ByValue::best_first(evaluate),
            history: History::default(),
            plies,
            game_order: false,
            killers: Vec::new(),
        }
    }

    /// The same ordering with `game`'s own order below the sorted plies in place of the history heuristic, if
    /// it has one ([`Game::has_move_order`]). On Connect-4, with the game's tactics ([`Tactical`]), as the
    /// heuristic engine searches, ordering by threats visits fewer nodes than the history (measured: see
    /// docs/src/measured-choices.md, 'Search loop and orderings').
    ///
    /// With it, a parent of the horizon's leaves (a node with one ply left) that the cache names no best move
    /// for first searches the move that last cut off such a node of its ply, if it is legal there (the killer
    /// heuristic), and orders the others only if that move does not cut the node off. The game's order costs
    /// more than a leaf's evaluation (on Connect-4, about twice the threat evaluator's), and a parent of leaves
    /// is cut off by its first move most of the time, so that the killer saves more work than its extra nodes
    /// cost; killers at every depth visit more nodes still, for less gain (measured: see
    /// docs/src/measured-choices.md, 'Search loop and orderings').
    pub fn with_game_order(self, game: &G) -> Self {
        Shallow { game_order: game.has_move_order(), ..self }
    }

    /// The plies, from the root, at which children are sorted by the evaluation.
    pub fn plies(&self) -> usize {
        self.plies
    }
}

impl<G: Game> Clone for Shallow<G> {
    fn clone(&self) -> Self {
        let Shallow { plies, game_order, .. } = *self;
        let (sorted, history, killers) = (self.sorted.clone(), self.history.clone(), self.killers.clone());
        Shallow { sorted, history, plies, game_order, killers }
    }
}

impl<G: Game> std::fmt::Debug for Shallow<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shallow")
            .field("plies", &self.plies)
            .field("game_order", &self.game_order)
            .field("history", &self.history)
            .field("killers", &self.killers)
            .finish()
    }
}

impl<G: Game> Orderer<G> for Shallow<G> {
    fn order(&mut self, game: &G, state: &G::State, player: Player, ply: usize, moves: &mut [G::Move]) {
        if ply < self.plies {
            self.sorted.order(game, state, player, ply, moves);
        } else if self.game_order {
            game.order_moves(state, moves);
        } else {
            self.history.order(game, state, player, ply, moves);
        }
    }

    /// Whether the history learns: not when the game's order stands in for it.
    #[inline(always)]
    fn learns(&self) -> bool {
        !self.game_order
    }

    #[inline]
    fn reward(&mut self, mv: G::Move, ply: usize, depth: u32) {
        Orderer::<G>::reward(&mut self.history, mv, ply, depth);
    }

    /// With the game's order (see [`Shallow::with_game_order`]).
    #[inline(always)]
    fn keeps_killers(&self) -> bool {
        self.game_order
    }

    #[inline]
    fn killer(&self, ply: usize, depth: u32) -> Option<G::Move> {
        if depth == 1 { self.killers.get(ply).copied().flatten() } else { None }
    }

    #[inline]
    fn cut_by(&mut self, mv: G::Move, ply: usize, depth: u32) {
        if depth == 1 {
            if ply >= self.killers.len() {
                self.killers.resize(ply + 1, None);
            }
            self.killers[ply] = Some(mv);
        }
    }
}

/// Another ordering, with the game's tactics ([`Game::tactics`]) added to its knowledge: below the root, at a
/// node searched two decision plies deep or more, a win on the move or a loss on every reply settles the node,
/// and the moves that lose on the reply are left out. The two plies the tactics look at are within the search's
/// horizon there, so the values are those of the search without them (a position one ply from the horizon is
/// left alone: its search would not see the reply). The root is left alone too, so that its search names a
/// best move. Where the tactics say nothing, the other ordering's own knowledge ([`Orderer::prune`]) is asked.
///
/// For a game that has no tactics ([`Game::has_tactics`]), or whose positions repeat (a repetition could make
/// a move that loses on the reply a draw), it is the other ordering alone: the loop then lists no node's moves
/// before its table probe for nothing.
#[derive(Clone, Debug, Default)]
pub struct Tactical<O> {
    inner: O,
    on: bool,
}

impl<O> Tactical<O> {
    /// `inner`, with the tactics of `game` if it has any and its positions do not repeat.
    pub fn new<G: Game>(inner: O, game: &G) -> Tactical<O> {
        Tactical { inner, on: game.has_tactics() && game.cycles().is_none() }
    }
}

impl<G: Game, O: Orderer<G>> Orderer<G> for Tactical<O> {
    #[inline(always)]
    fn reorders(&self) -> bool {
        self.inner.reorders()
    }

    #[inline]
    fn order(&mut self, game: &G, state: &G::State, player: Player, ply: usize, moves: &mut [G::Move]) {
        self.inner.order(game, state, player, ply, moves);
    }

    #[inline(always)]
    fn stages(&self) -> bool {
        self.inner.stages()
    }

    #[inline(always)]
    fn prunes(&self) -> bool {
        self.on || self.inner.prunes()
    }

    #[inline(always)]
    fn bounded_moves_go_on(&self) -> bool {
        self.inner.bounded_moves_go_on()
    }

    #[inline(always)]
    fn keeps_killers(&self) -> bool {
        self.inner.keeps_killers()
    }

    #[inline]
    fn killer(&self, ply: usize, depth: u32) -> Option<G::Move> {
        self.inner.killer(ply, depth)
    }

    #[inline]
    fn cut_by(&mut self, mv: G::Move, ply: usize, depth: u32) {
        self.inner.cut_by(mv, ply, depth);
    }

    #[inline]
    fn prune(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        ply: usize,
        depth: u32,
        moves: &mut Vec<G::Move>,
    ) -> Foreknown {
        if self.on
            && ply > 0
            && depth >= 2
            && let Some(value) = game.tactics(state, moves)
        {
            return Foreknown::Value(value);
        }
        if self.inner.prunes() { self.inner.prune(game, state, player, ply, depth, moves) } else { Foreknown::Nothing }
    }

    #[inline(always)]
    fn learns(&self) -> bool {
        self.inner.learns()
    }

    #[inline]
    fn reward(&mut self, mv: G::Move, ply: usize, depth: u32) {
        self.inner.reward(mv, ply, depth);
    }
}

/// Puts `moves` in the order of their keys in `keyed` (ascending, stable), which holds one (key, move) pair per
/// move.
fn sort_by_key<M: Copy>(keyed: &mut [(Value, M)], moves: &mut [M]) {
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (slot, &(_, mv)) in moves.iter_mut().zip(keyed.iter()) {
        *slot = mv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use khela_games::implicit::{ImplicitTree, TreeModel};

    /// The history's scores, in a list and then in a hash map once more than [`FEW_MOVES`] moves have one,
    /// order moves as a stable sort by the scores of a plain hash map does, after each of 400 seeded rewards to
    /// 40 moves.
    #[test]
    fn history_orders_by_its_rewards_past_the_list() {
        let tree = ImplicitTree::hashed(40, 2, 1, TreeModel::Iid { lo: 0, hi: 9 }).expect("a small tree");
        let mut history = History::<u32>::default();
        let mut reference = AHashMap::<u32, u64>::new();
        let mut rng = 0x4157_u64;
        for step in 0..400 {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let (mv, depth) = ((rng >> 33) as u32 % 40, (rng >> 20) as u32 % 5 + 1);
            Orderer::<ImplicitTree>::reward(&mut history, mv, 1, depth);
            *reference.entry(mv).or_insert(0) += u64::from(depth * depth);
            // Natural order backwards, so that ties keep an order the sort must not disturb.
            let mut moves: Vec<u32> = (0..40).rev().collect();
            let mut expected = moves.clone();
            expected.sort_by_key(|mv| std::cmp::Reverse(reference.get(mv).copied().unwrap_or(0)));
            history.order(&tree, &ImplicitTree::ROOT, Player::Max, 1, &mut moves);
            assert_eq!(moves, expected, "after {} rewards", step + 1);
        }
        assert!(matches!(history.scores, Scores::Many(_)), "40 moves rewarded, yet the scores stayed a list");
    }
}
