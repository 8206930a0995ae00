//! Self-play: games of a network against itself, each move chosen by PUCT guided by the network, many games
//! in flight so that every forward pass sees a batch of leaves.
//!
//! Each thread plays its share of the games (game `i` on thread `i mod threads`), `in_flight` at a time: it
//! begins one iteration in every game in flight ([`khela_mcts::Search::begin`]), values their leaves in one
//! batch, completes them, and when a game has had its simulations for the move, plays the move and keeps the
//! subtree below it. Game `i` draws its random numbers (root noise, the temperature) from a generator seeded by
//! (seed, `i`); so with a given number of threads the same seed gives the same games, and a thread's batches
//! do not depend on the others' pace.

use crate::encode::Encode;
use crate::model::{Leaves, Model};
use khela_games::line::{End, Line};
use khela_games::rng::splitmix64;
use khela_games::{Game, Node, Player};
use khela_mcts::random::{Pcg, Random};
use khela_mcts::{Begun, DirichletNoise, FinalMove, MctsConfig, Pending, Puct, Search, Uniform, choose};
use std::fmt;

/// The settings of self-play, AlphaZero's (as the textbook gives them) by default.
#[derive(Clone, Copy, PartialEq)]
pub struct Settings {
    /// Simulations (iterations of the search) per move.
    pub simulations: u32,
    /// Simulations per move of MIN's, where they differ from MAX's (`simulations`): a longer search for the side
    /// of an asymmetric game that would otherwise lose nearly every game and so learn nothing. `None`,
    /// AlphaZero's: the same for both.
    pub simulations_for_min: Option<u32>,
    /// PUCT's exploration constant.
    pub c_puct: f64,
    /// Dirichlet noise mixed into the root's priors.
    pub noise: DirichletNoise,
    /// The moves of each game played by temperature 1 (in proportion to the visits); the most visited move
    /// after them.
    pub temperature_moves: u32,
    /// Games a thread plays at once: the batch of each forward pass.
    pub in_flight: usize,
    /// Each game opens with uniformly random moves, as many as drawn uniformly from 0 to this, searched by
    /// nobody (their positions have no visits and are no samples): positions a strong player's games would
    /// never reach, for the network to learn too. 0, AlphaZero's: none.
    pub random_plies: u32,
}

impl Default for Settings {
    /// 200 simulations, c_puct 1.5, noise α = 0.5 and ε = 0.25, temperature 1 for the first 10 moves, 32 games
    /// in flight, no random opening.
    fn default() -> Settings {
        Settings {
            simulations: 200,
            simulations_for_min: None,
            c_puct: 1.5,
            noise: DirichletNoise { alpha: 0.5, epsilon: 0.25 },
            temperature_moves: 10,
            in_flight: 32,
            random_plies: 0,
        }
    }
}

impl Settings {
    /// The simulations of a move of `mover`'s.
    pub fn simulations_of(&self, mover: Player) -> u32 {
        match mover {
            Player::Min => self.simulations_for_min.unwrap_or(self.simulations),
            Player::Max => self.simulations,
        }
    }
}

impl fmt::Debug for Settings {
    /// As derived, except that `simulations_for_min` is left out when `None`: the string is a training run's
    /// record of its options (`zero train`'s state.json), and runs begun before the field existed still resume.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("Settings");
        out.field("simulations", &self.simulations);
        if let Some(min) = &self.simulations_for_min {
            out.field("simulations_for_min", min);
        }
        out.field("c_puct", &self.c_puct)
            .field("noise", &self.noise)
            .field("temperature_moves", &self.temperature_moves)
            .field("in_flight", &self.in_flight)
            .field("random_plies", &self.random_plies)
            .finish()
    }
}

/// A game of self-play: its moves, the share of the root's visits each move of each position had (as
/// actions), and how it ended.
#[derive(Clone, Debug)]
pub struct Record<G: Game> {
    /// The moves played, from the start.
    pub moves: Vec<G::Move>,
    /// For the position before each move: (action, share of the visits) of every move the search visited; none
    /// for the random opening's moves.
    pub visits: Vec<Vec<(usize, f32)>>,
    /// For the position before each move: the search's value of it for the side to move, in [−1, 1] (the mean
    /// score of the root's children over their visits).
    pub values: Vec<f32>,
    /// The payoff (MAX's view): the game's, or 0 for a draw by repetition or length.
    pub payoff: f64,
}

impl<G: Game> PartialEq for Record<G> {
    fn eq(&self, other: &Self) -> bool {
        (&self.moves, &self.visits, &self.values, self.payoff)
            == (&other.moves, &other.visits, &other.values, other.payoff)
    }
}

/// Which games to play: how many, from which seed, on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The games.
    pub games: usize,
    /// The seed: game `i` draws from a generator seeded by (seed, `i`).
    pub seed: u64,
    /// The threads.
    pub threads: usize,
}

/// Plays the games of `schedule` from `start`, each thread in a rayon pool of its own, so that the model's own
/// parallel loops stay on it; `done` is called as each game ends. The records come in game order.
pub fn play<G, M>(
    game: &G,
    start: &G::State,
    model: &M,
    settings: &Settings,
    schedule: Schedule,
    done: &(dyn Fn() + Sync),
) -> Vec<Record<G>>
where
    G: Encode + Sync,
    G::State: Send + Sync,
    G::Move: Send,
    M: Model<G>,
{
    let Schedule { games, seed, threads } = schedule;
    let threads = threads.max(1);
    let mut parts: Vec<Vec<(usize, Record<G>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread pool");
                    let mine: Vec<usize> = (t..games).step_by(threads).collect();
                    pool.install(|| Worker { game, start, model, settings, seed, done }.run(&mine))
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a self-play thread")).collect()
    });
    let mut all: Vec<(usize, Record<G>)> = parts.drain(..).flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, record)| record).collect()
}

/// One thread's self-play.
struct Worker<'a, G: Game, M> {
    game: &'a G,
    start: &'a G::State,
    model: &'a M,
    settings: &'a Settings,
    seed: u64,
    done: &'a (dyn Fn() + Sync),
}

/// A game in flight.
struct Active<'a, G: Game> {
    index: usize,
    line: Line<G>,
    search: Search<'a, G, Puct<Uniform>, Pcg>,
    rng: Pcg,
    record: Record<G>,
    /// Simulations run for the current move.
    simulations: u32,
    /// Simulations the current move gets (its mover's).
    budget: u32,
}

impl<'a, G: Encode, M: Model<G>> Worker<'a, G, M> {
    /// Plays the games numbered `indices`; returns their records with their numbers.
    fn run(&self, indices: &[usize]) -> Vec<(usize, Record<G>)> {
        let mut queue = indices.iter().copied();
        let mut active: Vec<Active<'a, G>> = Vec::new();
        let mut finished = Vec::new();
        let mut leaves = Leaves::new();
        loop {
            while active.len() < self.settings.in_flight.max(1) {
                let Some(index) = queue.next() else { break };
                active.push(self.new_game(index));
            }
            if active.is_empty() {
                return finished;
            }
            // One leaf from each game in flight (moves played where the simulations are done).
            let mut pending: Vec<(usize, Pending<G>)> = Vec::new();
            let mut i = 0;
            while i < active.len() {
                match self.next_leaf(&mut active[i]) {
                    Some(leaf) => {
                        pending.push((i, leaf));
                        i += 1;
                    }
                    None => {
                        let over = active.swap_remove(i);
                        finished.push((over.index, over.record));
                        (self.done)();
                    }
                }
            }
            leaves.value(self.game, self.model, pending, |i, leaf, score, priors| {
                let game = &mut active[i];
                game.search.complete(leaf, score, priors);
                game.simulations += 1;
            });
        }
    }

    /// Game `index` at its start, after its random opening.
    fn new_game(&self, index: usize) -> Active<'a, G> {
        let seed = splitmix64(self.seed ^ splitmix64(index as u64));
        let config = MctsConfig {
            seed,
            noise: Some(self.settings.noise),
            virtual_loss: 1,
            choice: FinalMove::MostVisits,
            ..MctsConfig::default()
        };
        let mut rng = Pcg::from_seed(splitmix64(seed));
        let mut record = Record { moves: Vec::new(), visits: Vec::new(), values: Vec::new(), payoff: 0.0 };
        let mut line = Line::new(self.game, self.start.clone());
        let mut moves = Vec::new();
        for _ in 0..rng.below(self.settings.random_plies as usize + 1) {
            if line.end(self.game).is_some() {
                break;
            }
            self.game.moves(line.state(), &mut moves);
            let mv = moves[rng.below(moves.len())];
            record.moves.push(mv);
            record.visits.push(Vec::new());
            record.values.push(0.0);
            line.play(self.game, mv);
        }
        let puct = Puct { c: self.settings.c_puct, ..Puct::new(Uniform) };
        let search = Search::new(self.game, line.state().clone(), puct, config).with_history(line.history().to_vec());
        let budget = self.budget(line.state());
        Active { index, line, search, rng, record, simulations: 0, budget }
    }

    /// Runs game `a` on to the next leaf its search wants valued, playing moves whose simulations are done;
    /// `None` once the game is over (its record complete).
    fn next_leaf(&self, a: &mut Active<'a, G>) -> Option<Pending<G>> {
        loop {
            if let Some(end) = a.line.end(self.game) {
                a.record.payoff = End::payoff(end);
                return None;
            }
            if a.simulations >= a.budget {
                self.play_move(a);
                continue;
            }
            match a.search.begin() {
                Begun::Leaf(leaf) => return Some(leaf),
                Begun::Done => a.simulations += 1,
                // Never without the solver at a root that is not terminal; played on as if searched.
                Begun::Over => a.simulations = a.budget,
            }
        }
    }

    /// Plays the move of game `a` that its search chose (by temperature early in the game), recording the
    /// visits, and keeps the subtree below it.
    fn play_move(&self, a: &mut Active<'a, G>) {
        let stats = a.search.stats();
        let total: u64 = stats.iter().map(|s| s.visits).sum();
        let share = |visits: u64| visits as f32 / total.max(1) as f32;
        a.record.visits.push(stats.iter().map(|s| (self.game.action(s.mv), share(s.visits))).collect());
        let wins: f64 = stats.iter().map(|s| s.wins).sum();
        a.record.values.push((2.0 * wins / total.max(1) as f64 - 1.0) as f32);
        let early = (a.line.moves().len() as u32) < self.settings.temperature_moves;
        let choice = if early { FinalMove::Temperature(1.0) } else { FinalMove::MostVisits };
        let mv = choose(&stats, choice, &mut a.rng).expect("a searched root has visited moves");
        a.record.moves.push(mv);
        a.line.play(self.game, mv);
        a.search.advance(mv);
        a.simulations = 0;
        a.budget = self.budget(a.line.state());
    }

    /// The simulations of a move from `state`: its mover's.
    fn budget(&self, state: &G::State) -> u32 {
        match self.game.node(state) {
            Node::Decision(mover) => self.settings.simulations_of(mover),
            _ => self.settings.simulations,
        }
    }
}

/// The target value of each position of a record, from its side to move's view: +1 if that side won, −1 if it
/// lost, 0 for a draw.
pub fn outcome_for(mover: Player, payoff: f64) -> f32 {
    let max = if payoff > 0.0 {
        1.0
    } else if payoff < 0.0 {
        -1.0
    } else {
        0.0
    };
    if mover == Player::Max { max } else { -max }
}
