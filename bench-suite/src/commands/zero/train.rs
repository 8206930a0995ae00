//! `zero train`: a network trained by self-play, an iteration at a time, checkpointed after each.

use crate::games::{self, Entry, GameArgs, NetCommand};
use crate::interrupt;
use crate::output::{OutputDir, say, write_atomically, write_csv_atomically};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use clap::Args;
use khela::net::{load, save};
use khela_games::Notation;
use khela_mcts::DirichletNoise;
use khela_zero::selfplay::{Record, Settings};
use khela_zero::train::{Iteration, Outcomes, TrainConfig, Training};
use khela_zero::{Encode, Losses};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Options of `zero train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The directory of the run (created if absent; a run already there is resumed).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Stop after the iteration that ends past this many minutes of this invocation.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub minutes: Option<u64>,
    /// Stop once the run has this many iterations (earlier invocations' included) [default: 10 without
    /// --minutes].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub iterations: Option<u64>,
    /// Games of self-play per iteration.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// Simulations per move.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub simulations: u32,
    /// Simulations per move of MIN's (Bagh-Chal's tigers), when not --simulations: more for the side that would
    /// otherwise lose nearly every game of self-play, and so learn nothing [default: --simulations].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub simulations_for_min: Option<u32>,
    /// Dirichlet noise's α at the root.
    #[arg(long, default_value_t = 0.5)]
    pub alpha: f64,
    /// The moves of each game played by temperature 1.
    #[arg(long, default_value_t = 10)]
    pub temperature_moves: u32,
    /// Residual blocks.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(0..=40))]
    pub blocks: u64,
    /// Channels.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=512))]
    pub channels: u64,
    /// Positions per training batch.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=8192))]
    pub batch: u64,
    /// The replay window, in positions.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub window: u64,
    /// Times each new position is drawn into a batch, on average.
    #[arg(long, default_value_t = 4.0)]
    pub reuse: f64,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.002)]
    pub learning_rate: f64,
    /// The L2 penalty's weight.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// Each game of self-play opens with uniformly random moves, as many as drawn from 0 to this, which are no
    /// training samples: positions the network's own games would seldom reach (AlphaZero: 0).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub random_plies: u32,
    /// The share of the value head's target taken from the search's value of each position rather than the
    /// game's outcome (AlphaZero: 0; 0.5 halves the outcome's noise from moves drawn by temperature).
    #[arg(long, default_value_t = 0.5)]
    pub value_from_search: f32,
    /// The outcome's discount per ply in the value head's target: a position's outcome counts this to the power
    /// of the plies left to the game's end, so that a side that loses nearly every game of self-play still learns
    /// which moves put the loss off (AlphaZero: 1, none).
    #[arg(long, default_value_t = 1.0)]
    pub discount: f32,
    /// The seed of the weights, the games and the batches.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Self-play threads (training uses every core).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Keep the network of every Nth iteration as DIR/checkpoints/iter-N.safetensors (with its .json), for
    /// `zero curve` and for rating checkpoints against each other (`match --players net:…`); 0 keeps none.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub keep_every: u64,
}

/// A row of `train.csv`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Row {
    pub(super) iteration: u64,
    pub(super) games: u64,
    pub(super) positions: u64,
    window: usize,
    steps: usize,
    policy_loss: f32,
    value_loss: f32,
    l2: f32,
    selfplay_seconds: f64,
    train_seconds: f64,
    pub(super) seconds: f64,
    /// The iteration's games by how they ended, MAX's wins, draws and MIN's wins (empty in the rows of a run
    /// begun before the CSV had them).
    #[serde(default)]
    max_wins: Option<u64>,
    #[serde(default)]
    draws: Option<u64>,
    #[serde(default)]
    min_wins: Option<u64>,
}

/// `state.json`: the options the run depends on, and where it stands.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct State {
    options: String,
    iteration: u64,
    games: u64,
    positions: u64,
    seconds: f64,
}

/// Runs `zero train`.
pub fn run(args: &TrainArgs) -> Result<()> {
    for (name, value, ok, range) in [
        ("--alpha", args.alpha, args.alpha > 0.0 && args.alpha.is_finite(), "above 0, and finite"),
        ("--reuse", args.reuse, args.reuse > 0.0 && args.reuse <= 1000.0, "above 0, at most 1000"),
        (
            "--learning-rate",
            args.learning_rate,
            args.learning_rate > 0.0 && args.learning_rate < 1.0,
            "above 0, below 1",
        ),
        ("--l2", args.l2, (0.0..1.0).contains(&args.l2), "from 0, below 1"),
        (
            "--value-from-search",
            f64::from(args.value_from_search),
            (0.0..=1.0).contains(&args.value_from_search),
            "from 0 to 1",
        ),
        ("--discount", f64::from(args.discount), args.discount > 0.0 && args.discount <= 1.0, "above 0, at most 1"),
    ] {
        if !ok {
            bail!("{name} {value}: out of range; give a number {range}");
        }
    }
    OutputDir::check(&args.out, "zero train")?;
    games::visit_net(&args.game, "zero train", Train(args))?
}

struct Train<'a>(&'a TrainArgs);

impl NetCommand for Train<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: &E) -> Result<()>
    where
        E::Game: Encode,
    {
        let args = self.0;
        let game = entry.game();
        let (_, start) = games::position(entry, &args.game, Some("train from"))?;
        let config = TrainConfig {
            blocks: args.blocks as usize,
            channels: args.channels as usize,
            selfplay: Settings {
                simulations: args.simulations,
                simulations_for_min: args.simulations_for_min,
                noise: DirichletNoise { alpha: args.alpha, epsilon: 0.25 },
                temperature_moves: args.temperature_moves,
                in_flight: (args.games as usize).div_ceil(args.threads as usize).min(64),
                random_plies: args.random_plies,
                ..Settings::default()
            },
            games: args.games as usize,
            window: args.window as usize,
            batch: args.batch as usize,
            reuse: args.reuse,
            learning_rate: args.learning_rate,
            l2: args.l2,
            value_from_search: args.value_from_search,
            discount: args.discount,
            seed: args.seed,
            threads: args.threads as usize,
        };
        // Everything the run's numbers depend on (not how long it runs).
        let options = format!(
            "game={} position={} width={:?} height={:?} rules={:?} {config:?}",
            args.game.game,
            args.game.position.as_deref().unwrap_or("-"),
            args.game.width,
            args.game.height,
            args.game.rules
        );
        crate::args::bounded(args.threads as usize)?;
        let dir = OutputDir::check(&args.out, "zero train")?;
        dir.create()?;
        let files = Files::in_dir(&args.out);
        let (mut training, mut rows, mut seconds) = match read_state(&files.state)? {
            None => {
                files.refuse_orphans(&args.out)?;
                (Training::new(game, start.clone(), config)?, Vec::new(), 0.0)
            }
            Some(state) => {
                if state.options != options {
                    bail!(
                        "{} holds a run with other options ({}); give another --out, or the same options to resume it",
                        args.out.display(),
                        state.options
                    );
                }
                let net = load(game, args.game.game.name.into(), &files.net)?;
                let records = read_records(game, &start, &files.replay)?;
                let rows = resumed_rows(&files.csv, state.iteration)?;
                let done = Iteration {
                    iteration: state.iteration,
                    games: state.games,
                    positions: state.positions,
                    ..Iteration::default()
                };
                say(format!("resuming {} at iteration {}", args.out.display(), state.iteration))?;
                (Training::resume(game, start.clone(), config, net, records, done)?, rows, state.seconds)
            }
        };
        // Made once the directory is known to hold this run or none, so that a refusal leaves nothing behind.
        if args.keep_every > 0 {
            OutputDir::check(&args.out.join(CHECKPOINTS), "zero train")?.create()?;
        }
        let target = args.iterations.or(if args.minutes.is_none() { Some(10) } else { None });
        let deadline = args.minutes.map(|m| Instant::now() + Duration::from_secs(60 * m));
        let progress = match target {
            Some(n) => Progress::new("zero train", n * args.games, training.done().iteration * args.games),
            None => Progress::stages("zero train", u64::MAX),
        };
        let finished = AtomicU64::new(training.done().iteration * args.games);
        while target.is_none_or(|n| training.done().iteration < n) && deadline.is_none_or(|d| Instant::now() < d) {
            interrupt::check()?;
            let clock = Instant::now();
            let game_done = || {
                let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                progress.update(done, target.map_or(u64::MAX, |n| n * args.games), || {
                    format!("{done} games, iteration {}", done.div_ceil(args.games))
                });
            };
            let it = training.iterate(&game_done)?;
            seconds += clock.elapsed().as_secs_f64();
            let Losses { policy, value, l2 } = it.losses;
            let Outcomes { max_wins, draws, min_wins } = it.outcomes;
            rows.push(Row {
                iteration: it.iteration,
                games: it.games,
                positions: it.positions,
                window: it.window,
                steps: it.steps,
                policy_loss: policy,
                value_loss: value,
                l2,
                selfplay_seconds: it.selfplay_seconds,
                train_seconds: it.train_seconds,
                seconds,
                max_wins: Some(max_wins),
                draws: Some(draws),
                min_wins: Some(min_wins),
            });
            if args.keep_every > 0 && it.iteration.is_multiple_of(args.keep_every) {
                save(training.net(), args.game.game.name.into(), &checkpoint(&args.out, it.iteration))?;
            }
            files.write(
                &training,
                args,
                &rows,
                &State {
                    options: options.clone(),
                    iteration: it.iteration,
                    games: it.games,
                    positions: it.positions,
                    seconds,
                },
            )?;
        }
        progress.finish();
        let last = training.done();
        say(format!(
            "{} iterations, {} games, {} positions, {:.0} s; the network is {} ({} parameters)",
            last.iteration,
            last.games,
            last.positions,
            seconds,
            files.net.display(),
            training.net().parameters()
        ))
    }
}

/// A run's rows, one per iteration.
pub const TRAIN_CSV: &str = "train.csv";

/// The directory of a run's kept networks.
pub const CHECKPOINTS: &str = "checkpoints";

/// The network kept after `iteration` of the run in `dir`.
fn checkpoint(dir: &Path, iteration: u64) -> PathBuf {
    dir.join(CHECKPOINTS).join(format!("iter-{iteration}.safetensors"))
}

/// The files of a run's directory.
struct Files {
    net: PathBuf,
    replay: PathBuf,
    csv: PathBuf,
    state: PathBuf,
}

impl Files {
    /// Refuses a directory that holds a run's files without its `state.json`: nothing to resume from, and
    /// nothing this command may overwrite (a run's networks and rows are hours of work).
    fn refuse_orphans(&self, dir: &Path) -> Result<()> {
        let kept = dir.join(CHECKPOINTS).read_dir().is_ok_and(|mut entries| entries.next().is_some());
        let found: Vec<String> = [&self.net, &self.replay, &self.csv]
            .into_iter()
            .filter(|path| path.exists())
            .map(|path| path.file_name().unwrap_or_default().to_string_lossy().into_owned())
            .chain(kept.then(|| format!("{CHECKPOINTS}/")))
            .collect();
        if !found.is_empty() {
            bail!(
                "{} holds a run's {} but no state.json, so the run cannot be resumed, and zero train overwrites \
                 nothing it did not write: give another --out, or move those files away to start afresh",
                dir.display(),
                found.join(", ")
            );
        }
        Ok(())
    }

    fn in_dir(dir: &Path) -> Files {
        Files {
            net: dir.join("net.safetensors"),
            replay: dir.join("replay.txt"),
            csv: dir.join(TRAIN_CSV),
            state: dir.join("state.json"),
        }
    }

    /// The checkpoint of an iteration: each file written whole (a temporary file, then a rename), the state
    /// last. A kill while they are written (a fraction of a second an iteration) may leave the replay or the
    /// rows one iteration ahead of the state: the resumed run then repeats that iteration with them, as good a
    /// run but not the bytes of the uninterrupted one.
    fn write<G: Encode + Notation + Sync>(
        &self,
        training: &Training<'_, G>,
        args: &TrainArgs,
        rows: &[Row],
        state: &State,
    ) -> Result<()>
    where
        G::State: Send + Sync,
        G::Move: Send,
    {
        let replay: String = training.records().map(|r| r.to_line(training.game()) + "\n").collect();
        write_atomically(&self.replay, replay.as_bytes())?;
        write_csv_atomically(&self.csv, rows)?;
        save(training.net(), args.game.game.name.into(), &self.net)?;
        write_atomically(&self.state, serde_json::to_string_pretty(state)?.as_bytes())
    }
}

/// The state of the run in `path`, if there is one.
fn read_state(path: &Path) -> Result<Option<State>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(serde_json::from_str(&text).with_context(|| format!("{} is damaged", path.display()))?)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The records of a run's replay file.
fn read_records<G: Encode>(game: &G, start: &G::State, path: &Path) -> Result<Vec<Record<G>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            Record::from_line(game, start, line).with_context(|| format!("{} line {}", path.display(), i + 1))
        })
        .collect()
}

/// The rows of a resumed run's CSV up to `iteration`, the last its state records: a kill between the rows and
/// the state leaves a row ahead, the iteration that the resumed run plays again. Fewer rows than iterations
/// is a damaged file.
fn resumed_rows(path: &Path, iteration: u64) -> Result<Vec<Row>> {
    let mut rows = read_rows(path)?;
    rows.retain(|row| row.iteration <= iteration);
    let numbered = rows.iter().enumerate().all(|(k, row)| row.iteration == k as u64 + 1);
    if rows.len() as u64 != iteration || !numbered {
        bail!(
            "{} is damaged: its rows do not number the {iteration} iterations that state.json records; give \
             another --out to start afresh",
            path.display()
        );
    }
    Ok(rows)
}

/// The rows of a run's CSV.
pub(super) fn read_rows(path: &Path) -> Result<Vec<Row>> {
    let mut reader = csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    reader.deserialize().collect::<Result<_, _>>().with_context(|| format!("{} is damaged", path.display()))
}
