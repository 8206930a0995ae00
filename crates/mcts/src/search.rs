//! The one search loop, and the searches built on it.
//!
//! An iteration has three phases: *descend* from the root, selecting children by the policy's score and
//! expanding where the policy says, until a node to play out from (a fresh one, one at the policy's depth limit,
//! or one the node budget does not let grow), a terminal or a proven node; *play out* uniformly random moves
//! (chance outcomes by their probabilities) to the end; *back up* the score along the path, each node credited
//! from the view of the player who moved into it, and, for the solver, proofs. Serial search runs the phases
//! on a tree of its own; tree parallelism runs the same phases in every thread on a shared tree behind a lock,
//! the playout outside it, with virtual losses keeping threads apart.

use crate::meter::Meter;
use crate::policy::{Child, Expansion, Policy, select};
use crate::random::{Bits, Random, pick};
use crate::stats::{FinalMove, MoveStats, Proof, RunSummary, choose};
use crate::tree::{ROOT, Tree, winner};
use khela_games::{Game, Node as Kind, Player, Value};
use rand_distr::multi::{Dirichlet, MultiDistribution};
use std::cell::RefCell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) mod valued;

/// Dirichlet noise mixed into the root's priors: P ← (1 − ε)·P + ε·η, η ~ Dir(α, …, α) (AlphaZero: α = 0.3 for
/// chess, ε = 0.25). Only policies with priors ([`crate::Puct`]) feel it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirichletNoise {
    /// The concentration α.
    pub alpha: f64,
    /// The weight ε of the noise.
    pub epsilon: f64,
}

/// The settings of a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The seed of every random choice.
    pub seed: u64,
    /// MCTS-Solver: prove wins and losses, back them up, never select a move proven lost unless all are, play a
    /// proven win at once, and stop searching once the root is proven.
    pub solver: bool,
    /// The node budget: the tree never holds more nodes; once full it stops growing, and iterations play out
    /// from the deepest node they reach.
    pub max_nodes: usize,
    /// How [`Search::best`] chooses the move.
    pub choice: FinalMove,
    /// Dirichlet noise at the root, if any.
    pub noise: Option<DirichletNoise>,
    /// The virtual losses a thread of a tree-parallel search adds to each node of its path until it backs up.
    pub virtual_loss: u32,
}

impl Default for MctsConfig {
    /// Seed 0, no solver, 2²² nodes, the most visited move, no noise, a virtual loss of 1.
    fn default() -> MctsConfig {
        MctsConfig {
            seed: 0,
            solver: false,
            max_nodes: 1 << 22,
            choice: FinalMove::MostVisits,
            noise: None,
            virtual_loss: 1,
        }
    }
}

/// A search from one position: a tree, a policy, a random generator and the settings.
///
/// ```
/// use khela_games::tictactoe::TicTacToe;
/// use khela_mcts::{MctsConfig, Search, Uct, random::Pcg};
///
/// // X...O...X, O to move: the corners 2 and 6 lose; UCT finds a drawing edge.
/// let board = TicTacToe::parse("X...O...X").unwrap();
/// let mut search: Search<_, _, Pcg> = Search::new(&TicTacToe, board, Uct::default(), MctsConfig::default());
/// search.run(3000);
/// assert!([1, 3, 5, 7].contains(&search.best().unwrap()));
/// ```
pub struct Search<'g, G: Game, P, R> {
    game: &'g G,
    policy: P,
    config: MctsConfig,
    rng: R,
    tree: Tree<G>,
    scratch: Scratch<G>,
    meter: Option<&'g Meter>,
    /// In a game whose positions repeat, the keys of the positions played before the root.
    history: Vec<u64>,
}

impl<'g, G: Game, P: Policy<G>, R: Random> Search<'g, G, P, R> {
    /// A search from `state`, with its generator seeded from `config.seed`.
    pub fn new(game: &'g G, state: G::State, policy: P, config: MctsConfig) -> Self {
        let tree = Tree::new(game, state, config.solver);
        let rng = R::from_seed(config.seed);
        Search { game, policy, config, rng, tree, scratch: Scratch::default(), meter: None, history: Vec::new() }
    }

    /// The same search told the game's history before the root: the keys of the positions played, from the
    /// game's start. In a game whose positions repeat ([`Game::cycles`]) a move back to one of them is a draw
    /// and the plies played count towards the length cap; other games ignore it. [`Search::advance`] adds the
    /// old root to it.
    pub fn with_history(self, keys: Vec<u64>) -> Self {
        Search { history: keys, ..self }
    }

    /// The same search, counting each iteration it runs on `meter` as it runs it (on any thread), for a progress
    /// display on another thread, and stopping when the meter is stopped.
    pub fn metered(self, meter: &'g Meter) -> Self {
        Search { meter: Some(meter), ..self }
    }

    /// The search split in two: the phases with what they read, and what they change (the tree, the generator,
    /// the buffers).
    fn parts(&mut self) -> (Steps<'_, G, P>, &mut Tree<G>, &mut R, &mut Scratch<G>) {
        let (game, meter) = (self.game, self.meter);
        let steps = Steps { game, policy: &self.policy, config: &self.config, meter, history: &self.history };
        (steps, &mut self.tree, &mut self.rng, &mut self.scratch)
    }

    /// Runs `iterations` more iterations (fewer if the root is proved or terminal).
    pub fn run(&mut self, iterations: u64) -> RunSummary {
        let (steps, tree, rng, scratch) = self.parts();
        let shared = RefCell::new(std::mem::replace(tree, Tree::empty()));
        let ran = steps.work(&shared, &AtomicU64::new(0), iterations, rng, scratch, 0);
        *tree = shared.into_inner();
        self.summary(ran)
    }

    /// Runs `iterations` more iterations on `threads` threads of the current rayon pool sharing the tree (tree
    /// parallelism with virtual loss). The first thread draws from the search's generator, the others from
    /// generators seeded by it; with one thread the search is the serial one, and with more the order of
    /// the threads' updates (hence the result) varies from run to run.
    pub fn run_parallel(&mut self, iterations: u64, threads: usize) -> RunSummary
    where
        G: Sync,
        G::State: Send,
        G::Move: Send,
        P: Sync,
        R: Send,
    {
        // Alone, a thread has no one to keep away: the serial search exactly.
        let virtual_loss = if threads > 1 { self.config.virtual_loss } else { 0 };
        let (steps, slot, rng, scratch) = self.parts();
        let tree = Mutex::new(std::mem::replace(slot, Tree::empty()));
        let done = AtomicU64::new(0);
        let seeds: Vec<u64> = (1..threads).map(|_| rng.bits()).collect();
        let ran = AtomicU64::new(0);
        rayon::scope(|scope| {
            for seed in seeds {
                let (steps, tree, done, ran) = (&steps, &tree, &done, &ran);
                scope.spawn(move |_| {
                    let mut rng = R::from_seed(seed);
                    let n = steps.work(tree, done, iterations, &mut rng, &mut Scratch::default(), virtual_loss);
                    ran.fetch_add(n, Ordering::Relaxed);
                });
            }
            let n = steps.work(&tree, &done, iterations, rng, scratch, virtual_loss);
            ran.fetch_add(n, Ordering::Relaxed);
        });
        *slot = tree.into_inner().expect("no thread panics holding the tree");
        self.summary(ran.into_inner())
    }

    /// What the search did, `iterations` the iterations it ran (which the caller counts).
    pub fn summary(&self, iterations: u64) -> RunSummary {
        RunSummary { iterations, nodes: self.tree.nodes.len(), refused: self.tree.refused }
    }

    /// The root's children, in natural move order (outcome order at a chance root, with MAX's scores); moves
    /// not yet expanded are absent.
    pub fn stats(&self) -> Vec<MoveStats<G::Move>> {
        let root = &self.tree.nodes[ROOT as usize];
        let mut moves = Vec::new();
        let mover = match root.kind {
            Kind::Decision(mover) => {
                self.game.moves(&root.state, &mut moves);
                mover
            }
            _ => {
                moves.extend(root.children.iter().filter_map(|&c| self.tree.nodes[c as usize].mv));
                root.owner
            }
        };
        moves
            .iter()
            .filter_map(|&mv| {
                let c = *root.children.iter().find(|&&c| self.tree.nodes[c as usize].mv == Some(mv))?;
                let child = &self.tree.stats[c as usize];
                let proof = child.proof.map(|w| if w == mover { Proof::Win } else { Proof::Loss });
                Some(MoveStats { mv, visits: u64::from(child.visits), wins: child.wins, proof })
            })
            .collect()
    }

    /// The move to play, chosen by `config.choice` (a move proved won first, moves proved lost last); `None`
    /// when the root has no expanded child.
    pub fn best(&mut self) -> Option<G::Move> {
        choose(&self.stats(), self.config.choice, &mut self.rng)
    }

    /// The winner, if the solver proved one at the root.
    pub fn proof(&self) -> Option<Player> {
        self.tree.stats[ROOT as usize].proof
    }

    /// The position at the root.
    pub fn state(&self) -> &G::State {
        &self.tree.nodes[ROOT as usize].state
    }

    /// Plays `mv` (a move or a chance outcome) at the root and keeps what the search learned below it (tree
    /// reuse): the child becomes the root, the rest of the tree is dropped. Root noise, if any, is mixed into
    /// the new root's priors.
    pub fn advance(&mut self, mv: G::Move) {
        let root = &self.tree.nodes[ROOT as usize];
        if self.game.cycles().is_some() {
            self.history.push(self.game.repetition_key(&root.state));
        }
        let child = root.children.iter().copied().find(|&c| self.tree.nodes[c as usize].mv == Some(mv));
        let state = self.game.child(&root.state, mv);
        let old = std::mem::replace(&mut self.tree, Tree::empty());
        self.tree = match child {
            Some(child) => old.subtree(child),
            None => Tree::new(self.game, state, self.config.solver),
        };
        let (steps, tree, rng, _) = self.parts();
        steps.noise(tree, rng);
    }
}

/// A playout's score for MAX: win 1, draw ½, loss 0.
fn max_score(payoff: Value) -> f64 {
    match winner(payoff) {
        Some(Player::Max) => 1.0,
        Some(Player::Min) => 0.0,
        None => 0.5,
    }
}

/// `player`'s share of a score for MAX.
fn credit(player: Player, max_score: f64) -> f64 {
    match player {
        Player::Max => max_score,
        Player::Min => 1.0 - max_score,
    }
}

/// Buffers reused from iteration to iteration.
struct Scratch<G: Game> {
    path: Vec<u32>,
    moves: Vec<G::Move>,
    outcomes: Vec<(G::Move, f64)>,
    priors: Vec<f64>,
    /// In a game whose positions repeat: the keys of the line of play, the history first, then the path's
    /// nodes, then the playout's positions.
    line: Vec<u64>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch { path: Vec::new(), moves: Vec::new(), outcomes: Vec::new(), priors: Vec::new(), line: Vec::new() }
    }
}

/// Where a descent ended.
enum Leaf<S> {
    /// At a terminal or proven node: its score for MAX.
    Score(f64),
    /// At a node to play out from.
    Playout(S),
}

/// A tree that a loop may update: behind a `RefCell` for one thread, a `Mutex` for several.
trait Shared<G: Game> {
    fn with<T>(&self, f: impl FnOnce(&mut Tree<G>) -> T) -> T;
}

impl<G: Game> Shared<G> for RefCell<Tree<G>> {
    fn with<T>(&self, f: impl FnOnce(&mut Tree<G>) -> T) -> T {
        f(&mut self.borrow_mut())
    }
}

impl<G: Game> Shared<G> for Mutex<Tree<G>> {
    fn with<T>(&self, f: impl FnOnce(&mut Tree<G>) -> T) -> T {
        f(&mut self.lock().expect("no thread panics holding the tree"))
    }
}

/// The phases of an iteration, with what they need.
struct Steps<'a, G, P> {
    game: &'a G,
    policy: &'a P,
    config: &'a MctsConfig,
    /// Where every iteration run is also counted, and a stop asked for, if anywhere.
    meter: Option<&'a Meter>,
    /// The keys of the positions played before the root (games whose positions repeat).
    history: &'a [u64],
}

impl<G: Game, P: Policy<G>> Steps<'_, G, P> {
    /// The search loop: iterations until `done` reaches `iterations`, the root is proven or terminal, or the
    /// meter is stopped.
    /// Returns the iterations this caller ran.
    fn work<R: Random>(
        &self,
        tree: &impl Shared<G>,
        done: &AtomicU64,
        iterations: u64,
        rng: &mut R,
        scratch: &mut Scratch<G>,
        virtual_loss: u32,
    ) -> u64 {
        let mut ran = 0;
        while done.fetch_add(1, Ordering::Relaxed) < iterations {
            let leaf = tree.with(|tree| {
                let over = matches!(tree.nodes[ROOT as usize].kind, Kind::Terminal(_))
                    || tree.stats[ROOT as usize].proof.is_some();
                (!over).then(|| self.descend(tree, rng, scratch, virtual_loss, false))
            });
            let score = match leaf {
                None => break,
                Some(Leaf::Score(score)) => score,
                Some(Leaf::Playout(state)) => self.playout(state, rng, scratch),
            };
            tree.with(|tree| self.backup(tree, &scratch.path, score, virtual_loss));
            ran += 1;
            if self.meter.is_some_and(|meter| !meter.tick()) {
                break;
            }
        }
        ran
    }

    /// Selection and expansion: from the root to the node the iteration ends at, recorded in `scratch.path`.
    /// `valued`: the leaves are valued by the caller, who opens them with priors of its own
    /// ([`Search::complete`]), so a decision node not yet opened (the root included) ends the descent.
    fn descend<R: Random>(
        &self,
        tree: &mut Tree<G>,
        rng: &mut R,
        scratch: &mut Scratch<G>,
        virtual_loss: u32,
        valued: bool,
    ) -> Leaf<G::State> {
        scratch.path.clear();
        let cycles = self.game.cycles().is_some();
        if cycles {
            scratch.line.clear();
            scratch.line.extend_from_slice(self.history);
        }
        let mut id = ROOT;
        let mut depth = 0;
        loop {
            scratch.path.push(id);
            if cycles {
                scratch.line.push(self.game.repetition_key(&tree.nodes[id as usize].state));
            }
            let stats = &mut tree.stats[id as usize];
            stats.virtual_visits += virtual_loss;
            if let Some(winner) = stats.proof {
                return Leaf::Score(credit(winner, 1.0));
            }
            let fresh = id != ROOT && stats.visits == 0;
            let node = &tree.nodes[id as usize];
            if let Kind::Terminal(payoff) = node.kind {
                return Leaf::Score(max_score(payoff));
            }
            let valued_leaf = valued && !node.opened && matches!(node.kind, Kind::Decision(_));
            if fresh
                || valued_leaf
                || depth >= self.policy.max_depth()
                || (!node.opened && !self.open(tree, id, rng, scratch))
            {
                return Leaf::Playout(tree.nodes[id as usize].state.clone());
            }
            let node = &tree.nodes[id as usize];
            id = match node.kind {
                Kind::Chance => {
                    let probabilities = node.children.iter().map(|&c| tree.stats[c as usize].prior);
                    node.children[pick(rng.unit(), probabilities)]
                }
                Kind::Decision(mover) if !node.untried.is_empty() => {
                    if tree.nodes.len() >= self.config.max_nodes {
                        tree.refused += 1;
                        return Leaf::Playout(node.state.clone());
                    }
                    let index = rng.below(node.untried.len());
                    let mv = tree.nodes[id as usize].untried.remove(index);
                    self.add_child(tree, id, mv, mover, 1.0, &scratch.line)
                }
                Kind::Decision(mover) => self.select(tree, id, mover),
                Kind::Terminal(_) => unreachable!("terminal nodes end the descent"),
            };
            depth += 1;
        }
    }

    /// The child of decision node `id` that the policy selects, skipping children proven lost for `mover`
    /// unless all are.
    fn select(&self, tree: &Tree<G>, id: u32, mover: Player) -> u32 {
        let node = &tree.nodes[id as usize];
        let stats = |skip_lost: bool| {
            node.children.iter().map(move |&c| {
                let child = &tree.stats[c as usize];
                let lost = skip_lost && child.proof == Some(mover.opponent());
                let visits = f64::from(child.visits + child.virtual_visits);
                (!lost).then_some(Child { visits, wins: child.wins, prior: child.prior })
            })
        };
        let visits = f64::from(tree.stats[id as usize].visits + tree.stats[id as usize].virtual_visits);
        let index = select(self.policy, visits, stats(true))
            .or_else(|| select(self.policy, visits, stats(false)))
            .expect("an opened decision node without untried moves has children");
        node.children[index]
    }

    /// Lists the moves (or outcomes) of node `id`; for [`Expansion::All`] and chance nodes, creates every
    /// child. Returns false, leaving the node unopened, if the children would not fit in the node budget.
    fn open<R: Random>(&self, tree: &mut Tree<G>, id: u32, rng: &mut R, scratch: &mut Scratch<G>) -> bool {
        let node = &tree.nodes[id as usize];
        let owner = match node.kind {
            Kind::Decision(mover) => {
                self.game.moves(&node.state, &mut scratch.moves);
                if self.policy.expansion() == Expansion::OneAtRandom {
                    let node = &mut tree.nodes[id as usize];
                    // One allocation each, of the final size.
                    node.untried = scratch.moves.clone();
                    node.children.reserve_exact(scratch.moves.len());
                    node.opened = true;
                    return true;
                }
                self.policy.priors(self.game, &node.state, &scratch.moves, &mut scratch.priors);
                mover
            }
            Kind::Chance => {
                self.game.outcomes(&node.state, &mut scratch.outcomes);
                scratch.moves.clear();
                scratch.priors.clear();
                for &(outcome, probability) in &scratch.outcomes {
                    scratch.moves.push(outcome);
                    scratch.priors.push(probability);
                }
                node.owner
            }
            Kind::Terminal(_) => unreachable!("terminal nodes are not opened"),
        };
        self.open_with(tree, id, owner, &scratch.moves, &scratch.priors, &scratch.line, rng)
    }

    /// Opens node `id` with a child for each of `moves` (its moves or outcomes), owned by `owner`, with the
    /// priors (or probabilities) `priors`; `line` as [`Steps::add_child`] takes it. Returns false, leaving the node
    /// unopened, if the children would not fit in the node budget.
    #[allow(clippy::too_many_arguments)]
    fn open_with<R: Random>(
        &self,
        tree: &mut Tree<G>,
        id: u32,
        owner: Player,
        moves: &[G::Move],
        priors: &[f64],
        line: &[u64],
        rng: &mut R,
    ) -> bool {
        if tree.nodes.len() + moves.len() > self.config.max_nodes {
            tree.refused += 1;
            return false;
        }
        tree.nodes[id as usize].children.reserve_exact(moves.len());
        for (&mv, &prior) in moves.iter().zip(priors) {
            self.add_child(tree, id, mv, owner, prior, line);
        }
        tree.nodes[id as usize].opened = true;
        if id == ROOT {
            self.noise(tree, rng);
        }
        true
    }

    /// Appends the child of `parent` after `mv` and returns its index. `line` is the keys of the line of play to
    /// the parent, in a game whose positions repeat: a child that its rules make a draw is a terminal draw.
    #[allow(clippy::too_many_arguments)]
    fn add_child(&self, tree: &mut Tree<G>, parent: u32, mv: G::Move, owner: Player, prior: f64, line: &[u64]) -> u32 {
        let state = self.game.child(&tree.nodes[parent as usize].state, mv);
        let drawn = self.game.cycles().is_some_and(|cycles| {
            !matches!(self.game.node(&state), Kind::Terminal(_)) && cycles.draws(line, self.game.repetition_key(&state))
        });
        let id = tree.push(self.game, state, Some(mv), owner, prior, self.config.solver, drawn);
        tree.nodes[parent as usize].children.push(id);
        id
    }

    /// Mixes Dirichlet noise into the priors of the root's children, if the config asks for it and the root is a
    /// decision node with two or more children.
    fn noise<R: Random>(&self, tree: &mut Tree<G>, rng: &mut R) {
        let Some(DirichletNoise { alpha, epsilon }) = self.config.noise else { return };
        let root = &tree.nodes[ROOT as usize];
        if !matches!(root.kind, Kind::Decision(_)) || root.children.len() < 2 {
            return;
        }
        let Ok(dirichlet) = Dirichlet::new(&vec![alpha; root.children.len()]) else { return };
        let mut eta = vec![0.0; root.children.len()];
        dirichlet.sample_to_slice(&mut Bits(rng), &mut eta);
        for (c, eta) in root.children.clone().into_iter().zip(eta) {
            let prior = &mut tree.stats[c as usize].prior;
            *prior = (1.0 - epsilon) * *prior + epsilon * eta;
        }
    }

    /// Uniformly random moves (and chance outcomes by their probabilities) from `state` to the end; the score
    /// for MAX. A terminal state draws nothing. In a game whose positions repeat, a draw by its rules ends the
    /// playout too (a repetition of the line, which `scratch.line` holds to `state`, or the length cap).
    ///
    /// The moves are listed first and the kind of node asked only when there are none (a terminal or a chance
    /// node), which saves games like Connect-4 a second test for a win at every ply; so a game searched by
    /// Monte Carlo must list no moves at its chance nodes (debug builds check it).
    fn playout<R: Random>(&self, mut state: G::State, rng: &mut R, scratch: &mut Scratch<G>) -> f64 {
        let cycles = self.game.cycles();
        let mut first = true;
        loop {
            self.game.moves(&state, &mut scratch.moves);
            if let Some(cycles) = cycles
                && !std::mem::take(&mut first)
                && !scratch.moves.is_empty()
            {
                let key = self.game.repetition_key(&state);
                if cycles.draws(&scratch.line, key) {
                    return 0.5;
                }
                scratch.line.push(key);
            }
            let mv = if scratch.moves.is_empty() {
                match self.game.node(&state) {
                    Kind::Terminal(payoff) => return max_score(payoff),
                    Kind::Chance => {
                        self.game.outcomes(&state, &mut scratch.outcomes);
                        let index = pick(rng.unit(), scratch.outcomes.iter().map(|&(_, p)| p));
                        scratch.outcomes[index].0
                    }
                    Kind::Decision(_) => unreachable!("a decision node lists its moves"),
                }
            } else {
                debug_assert!(matches!(self.game.node(&state), Kind::Decision(_)), "moves listed at a chance node");
                scratch.moves[rng.below(scratch.moves.len())]
            };
            self.game.play(&mut state, mv);
        }
    }

    /// Credits the score to every node of `path` (each from its owner's view), removes the path's virtual
    /// losses, and for the solver backs proofs up from the end of the path as far as they go.
    fn backup(&self, tree: &mut Tree<G>, path: &[u32], max_score: f64, virtual_loss: u32) {
        for &id in path {
            let stats = &mut tree.stats[id as usize];
            stats.visits += 1;
            stats.virtual_visits -= virtual_loss;
            stats.wins += credit(tree.nodes[id as usize].owner, max_score);
        }
        if self.config.solver {
            for &id in path.iter().rev().skip(1) {
                if !prove(tree, id) {
                    break;
                }
            }
        }
    }
}

/// Proves node `id` from its children if it can: a decision node is won for its mover if one child is, and
/// lost if every move is expanded and lost; a chance node is proven when all its outcomes are, for one winner.
/// Returns whether it newly proved the node.
fn prove<G: Game>(tree: &mut Tree<G>, id: u32) -> bool {
    let node = &tree.nodes[id as usize];
    if tree.stats[id as usize].proof.is_some() || !node.opened || node.children.is_empty() {
        return false;
    }
    let mut proofs = node.children.iter().map(|&c| tree.stats[c as usize].proof);
    let proof = match node.kind {
        Kind::Decision(mover) if proofs.clone().any(|p| p == Some(mover)) => Some(mover),
        Kind::Decision(mover) if node.untried.is_empty() && proofs.all(|p| p == Some(mover.opponent())) => {
            Some(mover.opponent())
        }
        Kind::Chance => {
            let first = tree.stats[node.children[0] as usize].proof;
            if proofs.all(|p| p == first) { first } else { None }
        }
        _ => None,
    };
    tree.stats[id as usize].proof = proof;
    proof.is_some()
}
