//! The search loop: one node's search, written once and specialised at compile time for each algorithm.

use super::searcher::{Ply, Searcher};
use crate::cache::{Bound, Cache, Probe, Stored};
use crate::horizon::UNLIMITED;
use crate::orderer::{Foreknown, Orderer};
use crate::trace::Observer;
use khela_games::{Game, Node, Player, Value};

impl<G: Game, O: Orderer<G>, C: Cache<G>, V: Observer<G>> Searcher<'_, G, O, C, V> {
    /// The search loop. It returns the value of `state` from `viewer`'s view: MAX's when `NEGAMAX` is false,
    /// the side to move's (at decision nodes) when it is true. `plies` are the buffers of the node's ply and of
    /// those below (spare ones take over where they end). `kind` is `game.node(state)`, which the caller has
    /// already computed. `depth` is the number of decision plies left
    /// before the horizon ([`UNLIMITED`] for none); chance plies do not count.
    ///
    /// Contract (fail-soft alpha-beta): if the true value is ≤ `alpha` the returned value is ≤ `alpha`; if it
    /// is ≥ `beta` the returned value is ≥ `beta`; otherwise the returned value is exact. Without `PRUNE`, and
    /// at chance nodes, the value is always exact. `SCOUT` (with `NEGAMAX`) searches all but the first child
    /// with a null window first. `TEAM` (only for a cache that [`Cache::SHARES`]): the search works as one of a
    /// team of threads, which it does within the team's plies ([`Cache::team_plies`]) and hands a node beyond
    /// them to the loop's instance without `TEAM`, the code of a search alone: the team's work costs instructions
    /// at every node, and most nodes lie beyond the team's plies (measured on the Connect-4 solver: see
    /// docs/src/measured-choices.md, 'Connect-4 solver'). Below a chance node the search goes on without the team.
    // The loop's state is its arguments, kept in registers; bundling them into a struct would only move them
    // through memory on every call.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search<const PRUNE: bool, const NEGAMAX: bool, const SCOUT: bool, const TEAM: bool>(
        &mut self,
        game: &G,
        plies: &mut [Ply<G>],
        state: &G::State,
        kind: Node,
        ply: usize,
        depth: u32,
        viewer: Player,
        mut alpha: Value,
        mut beta: Value,
    ) -> Value {
        // Below the team's plies the search goes on in the loop's instance for a search alone.
        if TEAM && ply >= self.cache.team_plies() {
            return self
                .search::<PRUNE, NEGAMAX, SCOUT, false>(game, plies, state, kind, ply, depth, viewer, alpha, beta);
        }
        let Some((here, below)) = plies.split_first_mut() else {
            return self
                .search_deeper::<PRUNE, NEGAMAX, SCOUT, TEAM>(game, state, kind, ply, depth, viewer, alpha, beta);
        };
        self.track.stats.nodes += 1; // Every call, terminal or not, the root included, as the textbook counts.
        let hits_before = self.track.horizon_hits;
        let draws_before = self.track.line_draws;
        // A game whose positions repeat: a draw by its rules (a repetition on the line, or the length cap) ends the
        // line here. It depends on the line, not on the position alone: it counts as a horizon (nothing above it is
        // complete, so nothing above it is exact), and no node whose search met one is stored in a table at all, so
        // that a stored value is always the position's own. (The root is searched whatever came before it.)
        let mut line_key = None;
        if let Some(cycles) = game.cycles()
            && !matches!(kind, Node::Terminal(_))
        {
            let key = game.repetition_key(state);
            if ply > 0 && cycles.draws(&self.line, key) {
                self.track.stats.leaves += 1;
                self.track.horizon_hits += 1;
                self.track.line_draws += 1;
                return 0.0;
            }
            line_key = Some(key);
        }
        // What the ordering knows of a decision node with a ply or more left: its value, which settles it for less
        // than a table probe costs (it is asked first, and the node is neither probed nor stored), or bounds that
        // narrow the window. A value proven beyond a narrowed edge is that edge, the true value: the window's
        // contract holds for the caller's window. The moves it keeps stay in the ply's buffer for the search.
        let pruned = self.order.prunes() && depth > 0 && matches!(kind, Node::Decision(_));
        // Whether the children are known to be decision nodes of the opponent's (`Orderer::bounded_moves_go_on`).
        let mut goes_on = false;
        if let (true, Node::Decision(player)) = (pruned, kind) {
            if self.order.lists_moves() {
                here.moves.clear();
            } else {
                game.decision_moves(state, &mut here.moves);
            }
            let known = self.order.prune(game, state, player, ply, depth, &mut here.moves);
            match known {
                Foreknown::Value(v) => {
                    self.track.stats.leaves += 1;
                    return viewer.view(v);
                }
                Foreknown::Nothing => {}
                Foreknown::Bounds(lo, hi) => {
                    goes_on = self.order.bounded_moves_go_on();
                    let (lo, hi) = if viewer == Player::Max { (lo, hi) } else { (-hi, -lo) };
                    if hi <= alpha {
                        return hi;
                    }
                    if lo >= beta {
                        return lo;
                    }
                    (alpha, beta) = (alpha.max(lo), beta.min(hi));
                    if alpha >= beta {
                        return lo;
                    }
                }
            }
        }
        // A horizon leaf is not worth a table's memory traffic: evaluating it costs less than a probe and a
        // store (as engines do). Quiescence nodes, which search on, still use the table.
        let cached = C::ACTIVE && (depth > 0 || self.horizon.noisy.is_some());
        // In a team, a search another thread made moot returns at once (any value: nothing above it is stored,
        // and the driver takes the other thread's).
        if TEAM && self.cache.moot() {
            return alpha;
        }
        let probe = if cached { self.cache.probe(game, state, viewer, depth, alpha, beta) } else { Probe::MISS };
        // The root is always expanded, so that the search reports its best move even when the cache knows it.
        if ply > 0
            && let Some(value) = probe.value
        {
            if !probe.complete {
                self.track.horizon_hits += 1;
            }
            return value;
        }
        if let Some(key) = line_key {
            self.line.push(key);
        }
        let (value, bound, best) = match kind {
            Node::Terminal(payoff) => {
                self.track.stats.leaves += 1;
                (viewer.view(payoff), Bound::Exact, None)
            }
            _ if depth == 0 && !self.noisy_moves(game, state, kind, &mut here.moves) => {
                // The horizon: a leaf of this search, valued by the evaluator.
                self.track.stats.leaves += 1;
                self.track.horizon_hits += 1;
                let evaluate = self.horizon.evaluate.expect("a depth-limited search has an evaluator");
                (viewer.view(evaluate(game, state)), Bound::Exact, None)
            }
            Node::Chance => {
                self.track.met_chance = true;
                let Ply { outcomes, outcome_bounds, .. } = here;
                game.outcomes(state, outcomes);
                let (value, bound) = if PRUNE && self.track.star.is_some() {
                    self.star_chance::<NEGAMAX, SCOUT>(
                        game,
                        below,
                        state,
                        outcomes,
                        outcome_bounds,
                        ply,
                        depth,
                        viewer,
                        alpha,
                        beta,
                    )
                } else {
                    let mut mean = 0.0;
                    for &(outcome, p) in outcomes.iter() {
                        let child = game.child(state, outcome);
                        let (lo, hi) = (Value::NEG_INFINITY, Value::INFINITY);
                        let kind = game.node(&child);
                        mean += p * self.search::<PRUNE, NEGAMAX, SCOUT, false>(
                            game,
                            below,
                            &child,
                            kind,
                            ply + 1,
                            depth,
                            viewer,
                            lo,
                            hi,
                        );
                    }
                    (mean, Bound::Exact)
                };
                (value, bound, None)
            }
            Node::Decision(player) => {
                // Negamax searches a decision node from its mover's view. The caller's view differs only below a
                // chance node at the root, where the viewer is MAX whoever moves: then the window and the result
                // are negated on the way in and out.
                let flip = NEGAMAX && viewer != player;
                if flip {
                    (alpha, beta) = (-beta, -alpha);
                }
                // Past the horizon (quiescence), the children stay there.
                let child_depth = if depth == UNLIMITED { UNLIMITED } else { depth.saturating_sub(1) };
                let moves = &mut here.moves;
                // A game whose moves are their numbers (`Game::NUMBERED_MOVES`), searched in natural order with no
                // cache, observer or tactics to look at the list: the moves are counted and each is made from its
                // number, not listed.
                let numbered = G::NUMBERED_MOVES
                    .filter(|_| !C::ACTIVE && !V::ACTIVE && !self.order.reorders() && !pruned && depth > 0);
                if numbered.is_some() {
                    // Counted below.
                } else if pruned {
                    // Generated, and pruned, above.
                } else if depth > 0 {
                    game.decision_moves(state, moves);
                } else {
                    // Quiescence: the buffer holds the noisy moves `noisy_moves` found. Searching only them is a
                    // horizon all the same: the value is not exact, nor is any node's above it.
                    self.track.horizon_hits += 1;
                }
                // A slice from here on: its length, `count`, is a local value, which no call below can change.
                let count = if numbered.is_some() { game.move_count(state, moves) } else { moves.len() };
                let moves = moves.as_mut_slice();
                debug_assert!(count > 0, "decision node without moves: {state:?}");
                // Enhanced transposition cut-offs, for a cache that asks for them (below the root, where the best
                // move must come from a search), before the moves are ordered: a node they settle needs no order.
                let cut = if C::LOOKAHEAD && PRUNE && NEGAMAX && ply > 0 {
                    self.lookahead::<TEAM>(game, state, player, moves, child_depth, alpha, beta)
                } else {
                    None
                };
                // The cache's best move, from an earlier search of this state, goes first, and the others are
                // ordered only if it does not cut the node off, where the ordering allows it (`Orderer::stages`:
                // they then come in the order a sort of them all would give). Not for a cache that looks ahead
                // (the Connect-4 solver's), where it costs more than it saves.
                // Where the cache names none, the ordering's killer move, if it keeps one, goes first so.
                let hinted = |moves: &[G::Move]| probe.best.and_then(|hint| moves.iter().position(|&m| m == hint));
                let mut hint = hinted(moves).filter(|_| cut.is_none());
                let stages = !C::LOOKAHEAD && self.order.reorders() && self.order.stages();
                if stages
                    && hint.is_none()
                    && cut.is_none()
                    && self.order.keeps_killers()
                    && let Some(killer) = self.order.killer(ply, depth)
                {
                    hint = moves.iter().position(|&m| m == killer);
                }
                let staged = stages && hint.is_some();
                if self.order.reorders() && !staged && cut.is_none() {
                    self.order.order(game, state, player, ply, moves);
                    hint = hint.and_then(|_| hinted(moves));
                }
                if let Some(pos) = hint {
                    moves[..=pos].rotate_right(1);
                }
                // The children's entries, asked for together before the first child's search probes its own (a
                // cache with a lookahead has them asked for there): each probe would otherwise wait on memory in
                // turn. Not for children at the horizon, which are not probed.
                if !C::LOOKAHEAD && (child_depth > 0 || self.horizon.noisy.is_some()) {
                    self.prefetch_children(game, state, moves);
                }
                let maximise = NEGAMAX || player == Player::Max;
                let (alpha0, beta0) = (alpha, beta);
                let mut best_value = if maximise { Value::NEG_INFINITY } else { Value::INFINITY };
                // The best move is tracked by its index, a plain integer whatever the move type (a register in
                // the loop rather than an `Option<G::Move>` kept in memory).
                let mut best_index = usize::MAX;
                // In a team, a move (not the first, one of the first 64) whose child another thread is searching is
                // put off (its bit set in `deferred`) to a second pass over the moves, which searches only those.
                // Elsewhere the first pass is the only one.
                let (mut deferred, mut again) = (0u64, false);
                if let Some((i, v)) = cut {
                    (best_value, best_index) = (v, i);
                }
                let settled = cut.is_some();
                'moves: loop {
                    if settled {
                        break;
                    }
                    for i in 0..count {
                        if staged && i == 1 && !again {
                            self.order.order(game, state, player, ply, &mut moves[1..]);
                        }
                        let mv = numbered.map_or_else(|| moves[i], |number| number(i));
                        if TEAM && again && (i >= 64 || deferred & 1 << i == 0) {
                            continue;
                        }
                        let child = game.child(state, mv);
                        if TEAM && !again && i > 0 && i < 64 && self.cache.busy(game, &child) {
                            deferred |= 1 << i;
                            continue;
                        }
                        let kind = if goes_on { Node::Decision(player.opponent()) } else { game.node(&child) };
                        debug_assert!(!goes_on || kind == game.node(&child), "a bounded node's move ends the turn");
                        // The search of this child, one ply down, in a view and a window.
                        let mut down = |this: &mut Self, view: Player, lo: Value, hi: Value| {
                            this.search::<PRUNE, NEGAMAX, SCOUT, TEAM>(
                                game,
                                below,
                                &child,
                                kind,
                                ply + 1,
                                child_depth,
                                view,
                                lo,
                                hi,
                            )
                        };
                        if TEAM {
                            self.cache.enter(game, &child);
                        }
                        let v = if let (false, false, Node::Terminal(payoff)) = (C::ACTIVE, V::ACTIVE, kind) {
                            // A leaf of a plain search (no cache, no observer to tell), valued here rather than by a
                            // call; it is a visit all the same. Its value is in this node's working view.
                            self.track.stats.nodes += 1;
                            self.track.stats.leaves += 1;
                            if NEGAMAX { player.view(payoff) } else { viewer.view(payoff) }
                        } else if !NEGAMAX {
                            down(self, viewer, alpha, beta)
                        } else if SCOUT && i > 0 {
                            // A null window (α, α⁺): is this child better than α at all?
                            let opponent = player.opponent();
                            let t = -down(self, opponent, -alpha.next_up(), -alpha);
                            if t > alpha && t < beta {
                                // It is: search it again with the window (t, β) for its value.
                                -down(self, opponent, -beta, -t)
                            } else {
                                t
                            }
                        } else {
                            -down(self, player.opponent(), -beta, -alpha)
                        };
                        if TEAM {
                            self.cache.leave(game, &child);
                        }
                        // Plain comparisons, one branch per side: this is the hottest code of every search. The
                        // outcomes are data-dependent (a branch on them mispredicts often), so they are selects
                        // (conditional moves), as a C compiler makes of the same comparisons.
                        use std::hint::select_unpredictable as select;
                        if maximise {
                            let better = v > best_value;
                            best_value = select(better, v, best_value);
                            best_index = select(better, i, best_index);
                            if PRUNE {
                                alpha = select(v > alpha, v, alpha);
                            }
                        } else {
                            let better = v < best_value;
                            best_value = select(better, v, best_value);
                            best_index = select(better, i, best_index);
                            if PRUNE {
                                beta = select(v < beta, v, beta);
                            }
                        }
                        // Without pruning the window stays full, so every value is exact.
                        if PRUNE && alpha >= beta {
                            // Counted without a branch (whether children remain is as unpredictable as the cut).
                            let cut = i + 1 < count;
                            self.track.stats.cutoffs += u64::from(cut);
                            if self.order.keeps_killers() {
                                self.order.cut_by(mv, ply, depth);
                            }
                            if V::ACTIVE && cut {
                                self.observer.pruned(game, state, &moves[i + 1..]);
                            }
                            break 'moves;
                        }
                    }
                    if !TEAM || again || deferred == 0 {
                        break;
                    }
                    again = true;
                }
                let best = match numbered {
                    Some(number) => (best_index < count).then(|| number(best_index)),
                    None => moves.get(best_index).copied(),
                };
                let history = self.order.learns();
                // The bound is for the cache, the observer and the history heuristic: a plain search has no use
                // for it, and skips the comparisons (the placeholder below reaches nothing).
                let bound =
                    if C::ACTIVE || V::ACTIVE || history { Bound::of(best_value, alpha0, beta0) } else { Bound::Exact };
                // The history heuristic rewards the mover's best move unless the node failed low for the mover
                // (then no move was good enough, and "best" means nothing); the rule is the same in every view.
                let mover_bound = if maximise { bound } else { bound.flip() };
                if history
                    && let Some(mv) = best
                    && mover_bound != Bound::Upper
                {
                    self.order.reward(mv, ply, depth);
                }
                if flip { (-best_value, bound.flip(), best) } else { (best_value, bound, best) }
            }
        };
        if line_key.is_some() {
            self.line.pop();
        }
        if ply == 0 {
            self.track.root_best = best;
        }
        let max_view_bound = if viewer == Player::Max { bound } else { bound.flip() };
        self.observer.backed_up(game, state, viewer.view(value), max_view_bound);
        let complete = self.track.horizon_hits == hits_before;
        // (For a game without cycles the test is known true when compiled.) A moot search's values mean nothing.
        if cached && (game.cycles().is_none() || self.track.line_draws == draws_before) && !(TEAM && self.cache.moot())
        {
            self.cache.store(game, state, Stored { viewer, ply, depth, complete, value, bound, best });
        }
        value
    }

    /// Enhanced transposition cut-offs at a decision node of `player`'s searched in negamax with the window
    /// (`alpha`, `beta`): every child looked up, in the opponent's view and window, before any is searched; the
    /// first whose entry proves the cut-off (its move's value ≥ `beta`) settles the node, none of its moves
    /// searched: that move's index and value. The children's entries are all prefetched first, so that their
    /// misses in memory overlap.
    // The loop's state, as `search` takes it. `TEAM` is only there so that each instance of the loop calls one of
    // its own, which the compiler inlines as a function with a single caller; one shared by both instances is
    // not inlined into either.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn lookahead<const TEAM: bool>(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        child_depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Option<(usize, Value)> {
        self.prefetch_children(game, state, moves);
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.child(state, mv);
            let probe = self.cache.probe(game, &child, player.opponent(), child_depth, -beta, -alpha);
            if let Some(v) = probe.value.map(|w| -w)
                && v >= beta
            {
                if !probe.complete {
                    self.track.horizon_hits += 1;
                }
                self.track.stats.cutoffs += 1;
                self.observer.pruned(game, state, moves);
                return Some((i, v));
            }
        }
        None
    }

    /// Asks the cache to prefetch the entry of each child of `state` by `moves` ([`Cache::prefetch`]), if it
    /// prefetches at all.
    #[inline(always)]
    fn prefetch_children(&self, game: &G, state: &G::State, moves: &[G::Move]) {
        if C::PREFETCHES {
            for &mv in moves {
                self.cache.prefetch(game, &game.child(state, mv));
            }
        }
    }

    /// Whether quiescence search goes on at the horizon node `state`: a decision node with noisy moves, which
    /// are left in `moves`, the ply's move buffer, for the search of the node to use.
    #[inline]
    fn noisy_moves(&mut self, game: &G, state: &G::State, kind: Node, moves: &mut Vec<G::Move>) -> bool {
        let (Some(noisy), Node::Decision(_)) = (self.horizon.noisy, kind) else { return false };
        noisy(game, state, moves);
        !moves.is_empty()
    }

    /// [`Searcher::search`] at a node deeper than the plies it was lent: the search goes on with a block of
    /// spare plies ([`Searcher::with_spare_plies`]), out of the hot path.
    // The loop's state, as `search` takes it.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    fn search_deeper<const PRUNE: bool, const NEGAMAX: bool, const SCOUT: bool, const TEAM: bool>(
        &mut self,
        game: &G,
        state: &G::State,
        kind: Node,
        ply: usize,
        depth: u32,
        viewer: Player,
        alpha: Value,
        beta: Value,
    ) -> Value {
        self.with_spare_plies(ply, |this, plies| {
            this.search::<PRUNE, NEGAMAX, SCOUT, TEAM>(game, plies, state, kind, ply, depth, viewer, alpha, beta)
        })
    }
}
