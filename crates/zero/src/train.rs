//! Training by self-play: iterations of games played by the current network, their positions added to a
//! replay window, and steps of Adam on batches drawn from it. Training is continuous, as AlphaZero's (no
//! arena gate between networks): every iteration's games are played by the latest weights.
//!
//! Everything random is drawn from the run's seed and the iteration's number, so a run resumed from the
//! checkpoint of iteration k goes on as the run that was not interrupted — but for Adam's moment estimates,
//! which the checkpoint does not keep (they restart from zero, as after a warm start).

use crate::architecture::Architecture;
use crate::encode::Encode;
use crate::net::{Losses, Net, NetError, Trainer};
use crate::selfplay::{Record, Schedule, Settings, outcome_for, play};
use khela_games::line::Line;
use khela_games::rng::splitmix64;
use khela_games::{Game, Node};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::VecDeque;
use std::fmt;
use std::time::Instant;
use thiserror::Error;

/// The settings of a training run.
#[derive(Clone, Copy, PartialEq)]
pub struct TrainConfig {
    /// The network's residual blocks.
    pub blocks: usize,
    /// The network's channels.
    pub channels: usize,
    /// Self-play.
    pub selfplay: Settings,
    /// Games of self-play per iteration.
    pub games: usize,
    /// The replay window: the positions of the latest games, at most this many.
    pub window: usize,
    /// Positions per training batch.
    pub batch: usize,
    /// How many times, on average, each new position is drawn into a batch: the iteration's steps are
    /// its new positions × `reuse` / `batch`.
    pub reuse: f64,
    /// Adam's learning rate.
    pub learning_rate: f64,
    /// The L2 penalty's weight.
    pub l2: f64,
    /// The share of the value target taken from the search's value of the position rather than the game's
    /// outcome (AlphaZero: 0, the outcome alone).
    pub value_from_search: f32,
    /// The outcome's discount per ply: a position's outcome counts `discount`^k in its value target when the
    /// game ended k plies after it, so that a side that loses nearly every game still learns which moves put the
    /// loss off (AlphaZero: 1, none).
    pub discount: f32,
    /// The seed of the weights, the games and the batches.
    pub seed: u64,
    /// Self-play threads.
    pub threads: usize,
}

impl fmt::Debug for TrainConfig {
    /// As derived, except that `discount` is left out when it is 1, and that the name written is `Config`, the
    /// type's name before it was `TrainConfig`: the string is a training run's record of its options (`zero
    /// train`'s state.json), and runs begun before the field existed, or before the rename, still resume.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("Config");
        out.field("blocks", &self.blocks)
            .field("channels", &self.channels)
            .field("selfplay", &self.selfplay)
            .field("games", &self.games)
            .field("window", &self.window)
            .field("batch", &self.batch)
            .field("reuse", &self.reuse)
            .field("learning_rate", &self.learning_rate)
            .field("l2", &self.l2)
            .field("value_from_search", &self.value_from_search);
        if self.discount != 1.0 {
            out.field("discount", &self.discount);
        }
        out.field("seed", &self.seed).field("threads", &self.threads).finish()
    }
}

/// A position of a game of self-play, with its training targets.
#[derive(Clone, Debug)]
pub struct Sample<G: Game> {
    /// The position.
    pub state: G::State,
    /// The search's visit shares, by action.
    pub visits: Vec<(usize, f32)>,
    /// The game's outcome from the side to move's view: 1 won, 0 drawn, −1 lost.
    pub outcome: f32,
    /// The plies from the position to the game's end.
    pub to_end: u32,
    /// The search's value of the position for the side to move, in [−1, 1].
    pub searched: f32,
}

impl<G: Game> Sample<G> {
    /// The value head's target: the outcome, discounted by `discount` a ply to the end, and the search's value
    /// mixed, `from_search` of the latter.
    pub fn value_target(&self, from_search: f32, discount: f32) -> f32 {
        (1.0 - from_search) * self.outcome * discount.powf(self.to_end as f32) + from_search * self.searched
    }
}

/// The searched positions of a record of a game from `start` (not its random opening's), each with its targets.
pub fn samples<G: Encode>(game: &G, start: &G::State, record: &Record<G>) -> Vec<Sample<G>> {
    let mut state = start.clone();
    let mut out = Vec::with_capacity(record.moves.len());
    let plies = record.moves.len();
    for (i, ((&mv, visits), &searched)) in record.moves.iter().zip(&record.visits).zip(&record.values).enumerate() {
        let Node::Decision(mover) = game.node(&state) else { unreachable!("a record's moves are legal") };
        // The random opening's positions were not searched.
        if !visits.is_empty() {
            let outcome = outcome_for(mover, record.payoff);
            let to_end = (plies - i) as u32;
            out.push(Sample { state: state.clone(), visits: visits.clone(), outcome, to_end, searched });
        }
        game.play(&mut state, mv);
    }
    out
}

/// A record that does not read back.
#[derive(Debug, Error, PartialEq)]
#[error("a game record: {0}")]
pub struct RecordError(String);

impl<G: Encode> Record<G> {
    /// The record as one line: the payoff, the moves' actions, per move the visit shares (`action:share,…`,
    /// nothing for a random opening's move), and per move the search's value, separated by tabs (the moves and
    /// values by spaces, the positions by `;`).
    pub fn to_line(&self, game: &G) -> String {
        let moves: Vec<String> = self.moves.iter().map(|&mv| game.action(mv).to_string()).collect();
        let visits: Vec<String> = self
            .visits
            .iter()
            .map(|v| v.iter().map(|(a, s)| format!("{a}:{s}")).collect::<Vec<_>>().join(","))
            .collect();
        let values: Vec<String> = self.values.iter().map(f32::to_string).collect();
        format!("{}\t{}\t{}\t{}", self.payoff, moves.join(" "), visits.join(";"), values.join(" "))
    }

    /// Reads a line of [`Record::to_line`] back, the moves replayed from `start` (each action must be a legal
    /// move's, the line must not go on past the game's end).
    pub fn from_line(game: &G, start: &G::State, text: &str) -> Result<Record<G>, RecordError> {
        let bad = |why: String| RecordError(why);
        let fields: Vec<&str> = text.split('\t').collect();
        let [payoff, actions, visits, values] = fields[..] else {
            return Err(bad(format!("4 fields, not {}", fields.len())));
        };
        let payoff: f64 = payoff.parse().map_err(|_| bad(format!("payoff {payoff:?}")))?;
        let mut line = Line::new(game, start.clone());
        let (mut moves, mut legal) = (Vec::new(), Vec::new());
        for action in actions.split_whitespace() {
            let action: usize = action.parse().map_err(|_| bad(format!("action {action:?}")))?;
            if line.end(game).is_some() {
                return Err(bad("a move after the game's end".to_string()));
            }
            game.moves(line.state(), &mut legal);
            let mv = *legal
                .iter()
                .find(|&&m| game.action(m) == action)
                .ok_or_else(|| bad(format!("illegal action {action}")))?;
            line.play(game, mv);
            moves.push(mv);
        }
        let share = |pair: &str| -> Result<(usize, f32), RecordError> {
            let (a, s) = pair.split_once(':').ok_or_else(|| bad(format!("visits {pair:?}")))?;
            Ok((
                a.parse().map_err(|_| bad(format!("action {a:?}")))?,
                s.parse().map_err(|_| bad(format!("share {s:?}")))?,
            ))
        };
        let visits: Vec<Vec<(usize, f32)>> = if moves.is_empty() {
            Vec::new()
        } else {
            let shares = |v: &str| if v.is_empty() { Ok(Vec::new()) } else { v.split(',').map(share).collect() };
            visits.split(';').map(shares).collect::<Result<_, _>>()?
        };
        let values: Vec<f32> = values
            .split_whitespace()
            .map(|v| {
                v.parse().ok().filter(|v: &f32| (-1.0..=1.0).contains(v)).ok_or_else(|| bad(format!("value {v:?}")))
            })
            .collect::<Result<_, _>>()?;
        if visits.len() != moves.len() || values.len() != moves.len() {
            return Err(bad(format!("{} moves, {} visit lists, {} values", moves.len(), visits.len(), values.len())));
        }
        Ok(Record { moves, visits, values, payoff })
    }
}

/// The replay window: the latest games and their positions.
struct Replay<G: Game> {
    records: VecDeque<Record<G>>,
    samples: VecDeque<Vec<Sample<G>>>,
    positions: usize,
}

/// One iteration's figures.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Iteration {
    /// The iteration's number, from 1.
    pub iteration: u64,
    /// Games played so far.
    pub games: u64,
    /// Positions played so far.
    pub positions: u64,
    /// Positions in the replay window.
    pub window: usize,
    /// Training steps this iteration.
    pub steps: usize,
    /// The mean losses of those steps.
    pub losses: Losses,
    /// Seconds of self-play this iteration.
    pub selfplay_seconds: f64,
    /// Seconds of training this iteration.
    pub train_seconds: f64,
    /// This iteration's games by how they ended.
    pub outcomes: Outcomes,
}

/// Games counted by how they ended, from MAX's view (the side that moves first in the symmetric games, the
/// goats in Bagh-Chal): a draw is a payoff of 0, by the rules or by repetition or length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Outcomes {
    /// Games MAX won.
    pub max_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games MIN won.
    pub min_wins: u64,
}

impl Outcomes {
    /// The games of `records`, counted by the sign of their payoffs.
    pub fn of<'a, G: Game + 'a>(records: impl IntoIterator<Item = &'a Record<G>>) -> Outcomes {
        let mut outcomes = Outcomes::default();
        for record in records {
            let count = if record.payoff > 0.0 {
                &mut outcomes.max_wins
            } else if record.payoff < 0.0 {
                &mut outcomes.min_wins
            } else {
                &mut outcomes.draws
            };
            *count += 1;
        }
        outcomes
    }
}

/// A training run.
pub struct Training<'g, G: Game> {
    game: &'g G,
    start: G::State,
    config: TrainConfig,
    trainer: Trainer,
    replay: Replay<G>,
    done: Iteration,
}

impl<'g, G: Encode + Sync> Training<'g, G>
where
    G::State: Send + Sync,
    G::Move: Send,
{
    /// A new run: weights drawn from the seed, an empty window.
    pub fn new(game: &'g G, start: G::State, config: TrainConfig) -> Result<Self, NetError> {
        let net = Net::new(Architecture::for_game(game, config.blocks, config.channels), config.seed)?;
        Training::resume(game, start, config, net, Vec::new(), Iteration::default())
    }

    /// A run resumed from a checkpoint: its network, the records of its window (oldest first) and its last
    /// iteration's figures.
    pub fn resume(
        game: &'g G,
        start: G::State,
        config: TrainConfig,
        net: Net,
        records: Vec<Record<G>>,
        done: Iteration,
    ) -> Result<Self, NetError> {
        let trainer = Trainer::new(net, config.learning_rate, config.l2)?;
        let replay = Replay { records: VecDeque::new(), samples: VecDeque::new(), positions: 0 };
        let mut training = Training { game, start, config, trainer, replay, done };
        training.add(records);
        Ok(training)
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The network.
    pub fn net(&self) -> &Net {
        self.trainer.net()
    }

    /// The records in the window, oldest first.
    pub fn records(&self) -> impl Iterator<Item = &Record<G>> {
        self.replay.records.iter()
    }

    /// The last iteration's figures.
    pub fn done(&self) -> Iteration {
        self.done
    }

    /// Adds records to the window and drops the oldest games beyond it.
    fn add(&mut self, records: Vec<Record<G>>) {
        for record in records {
            let samples = samples(self.game, &self.start, &record);
            self.replay.positions += samples.len();
            self.replay.samples.push_back(samples);
            self.replay.records.push_back(record);
        }
        while self.replay.positions > self.config.window && self.replay.records.len() > 1 {
            self.replay.records.pop_front();
            self.replay.positions -= self.replay.samples.pop_front().map_or(0, |s| s.len());
        }
    }

    /// One iteration: the games of self-play, then the training steps; `game_done` is called as each game
    /// ends.
    pub fn iterate(&mut self, game_done: &(dyn Fn() + Sync)) -> Result<Iteration, NetError> {
        let iteration = self.done.iteration + 1;
        let seed = splitmix64(self.config.seed ^ splitmix64(iteration));
        let clock = Instant::now();
        let schedule = Schedule { games: self.config.games, seed, threads: self.config.threads };
        let records = play(self.game, &self.start, self.trainer.net(), &self.config.selfplay, schedule, game_done);
        let selfplay_seconds = clock.elapsed().as_secs_f64();
        let new_positions: usize = records.iter().map(|r| r.moves.len()).sum();
        let outcomes = Outcomes::of(&records);
        self.add(records);
        let clock = Instant::now();
        let flat: Vec<&Sample<G>> = self.replay.samples.iter().flatten().collect();
        // No step while the window holds no searched position (every game so far ended in its random opening).
        let steps = if flat.is_empty() {
            0
        } else {
            (new_positions as f64 * self.config.reuse / self.config.batch as f64).ceil() as usize
        };
        let mut rng = Pcg64Mcg::seed_from_u64(splitmix64(seed));
        let mut total = Losses::default();
        let (mut input, mut policy, mut value) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..steps {
            let batch = self.config.batch.min(flat.len());
            self.fill(&flat, batch, &mut rng, &mut input, &mut policy, &mut value);
            let losses = self.trainer.step(&input, &policy, &value, batch)?;
            total.policy += losses.policy;
            total.value += losses.value;
            total.l2 += losses.l2;
        }
        let n = steps.max(1) as f32;
        self.done = Iteration {
            iteration,
            games: self.done.games + self.config.games as u64,
            positions: self.done.positions + new_positions as u64,
            window: self.replay.positions,
            steps,
            losses: Losses { policy: total.policy / n, value: total.value / n, l2: total.l2 / n },
            selfplay_seconds,
            train_seconds: clock.elapsed().as_secs_f64(),
            outcomes,
        };
        Ok(self.done)
    }

    /// A batch of `batch` positions drawn uniformly from `flat`, each under a symmetry drawn uniformly: the
    /// encoded inputs, the visit shares spread over the action space, and the outcomes.
    fn fill(
        &self,
        flat: &[&Sample<G>],
        batch: usize,
        rng: &mut Pcg64Mcg,
        input: &mut Vec<f32>,
        policy: &mut Vec<f32>,
        value: &mut Vec<f32>,
    ) {
        let (len, actions) = (self.game.shape().len(), self.game.actions());
        input.clear();
        input.resize(batch * len, 0.0);
        policy.clear();
        policy.resize(batch * actions, 0.0);
        value.clear();
        for k in 0..batch {
            let sample = flat[rng.random_range(0..flat.len())];
            let symmetry = rng.random_range(0..self.game.symmetry_count());
            self.game.encode(&self.game.image(&sample.state, symmetry), &mut input[k * len..(k + 1) * len]);
            for &(action, share) in &sample.visits {
                policy[k * actions + self.game.image_action(action, symmetry)] = share;
            }
            value.push(sample.value_target(self.config.value_from_search, self.config.discount));
        }
    }
}
