//! Trained networks in the harness: their files (the weights, and their description beside them), the
//! [`Guide`] that lets a player or `mcts` search with one, and the process a command using one runs in.

use crate::output::write_atomically;
use anyhow::{Context, Result, bail};
use khela_games::Game;
use khela_mcts::Outcome;
use khela_zero::player::{Guided, search};
use khela_zero::{Architecture, Encode, Net};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// On the command line, runs the command again as a new process with candle's thread counts set, where the
/// environment does not set them: `RAYON_NUM_THREADS` to rayon's own default (the available parallelism) and
/// `CANDLE_NUM_THREADS` to 1; returns only if it cannot (then the command runs as it is, slower).
///
/// Why: candle asks for the thread count at every matrix product, and without `RAYON_NUM_THREADS` works it out
/// by reading files under /proc — tens of thousands of reads a minute of self-play, half its time in the kernel
/// (tic-tac-toe, one thread: 9.9 s of self-play an iteration without the variable, 3.5 s with it). And candle
/// splits each element-wise operation among `CANDLE_NUM_THREADS` threads of its own that spin while they wait:
/// where self-play's threads already keep every core busy, the spinning threads take the cores from them, and
/// each operation waits for a thread that is not running (half of a run's time, measured with perf). With 1, the
/// operations run on the thread that asks for them; the games in flight on each thread are the parallelism.
/// Setting a variable in a running program is `unsafe` (another thread may read the environment meanwhile), which
/// the workspace forbids; a new process is the safe way. The Python package runs commands in its own process:
/// its `__init__.py` sets the variables when the native module loads, before any command runs.
pub fn with_thread_count() {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let variables = [("RAYON_NUM_THREADS", cores.to_string()), ("CANDLE_NUM_THREADS", "1".into())];
        let unset: Vec<_> = variables.into_iter().filter(|(name, _)| std::env::var_os(name).is_none()).collect();
        if !unset.is_empty()
            && let Ok(exe) = std::env::current_exe()
        {
            // `exec` returns only on failure.
            let _ = std::process::Command::new(exe).args(std::env::args_os().skip(1)).envs(unset).exec();
        }
    }
}

/// What is saved beside a network's weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetFile {
    /// The game it plays (`--game`'s name).
    pub game: String,
    /// Its architecture.
    pub architecture: Architecture,
}

/// The description file of the weights at `path`: the same name with `.json`.
pub fn description_of(path: &Path) -> PathBuf {
    path.with_extension("json")
}

/// Saves `net` (for `game`) at `path` and its description beside it, each written whole.
pub fn save(net: &Net, game: &str, path: &Path) -> Result<()> {
    let file = NetFile { game: game.to_string(), architecture: *net.architecture() };
    write_atomically(&description_of(path), serde_json::to_string_pretty(&file)?.as_bytes())?;
    write_atomically(path, &net.to_safetensors()?)
}

/// Loads the network at `path` for `game` (`name` its `--game` name), checking that it was trained for it.
pub fn load<G: Encode>(game: &G, name: &str, path: &Path) -> Result<Net> {
    let description = description_of(path);
    let text = std::fs::read_to_string(&description)
        .with_context(|| format!("--net {}: cannot read its description {}", path.display(), description.display()))?;
    let file: NetFile = serde_json::from_str(&text).with_context(|| {
        format!("--net {}: {} is not a network's description", path.display(), description.display())
    })?;
    if file.game != name || !file.architecture.fits(game) {
        bail!(
            "--net {} was trained for {} ({:?}), not for this --game {name}",
            path.display(),
            file.game,
            file.architecture
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("--net {}: cannot read it", path.display()))?;
    Net::from_safetensors(file.architecture, &bytes).with_context(|| format!("--net {}", path.display()))
}

/// A network loaded for a game, searching its positions: PUCT with the network's priors and its value at the
/// leaves ([`khela_zero::player`]), for a player (`net:PATH`) and `mcts --prior net:PATH`. A trait over the
/// game's positions and moves, so that a player seated at a game that wraps another (endgame tables that settle
/// positions) can use the network of the game inside.
pub trait Guide<S, M>: Sync {
    /// `guided`'s search of `state` (a decision node), `history` the keys of the positions played before it;
    /// `seed` breaks ties.
    fn search(&self, state: &S, history: &[u64], guided: &Guided, seed: u64) -> Outcome<M>;
}

/// A network with the game it was loaded for.
struct Loaded<'g, G> {
    game: &'g G,
    net: Net,
}

impl<G: Encode + Sync> Guide<G::State, G::Move> for Loaded<'_, G> {
    fn search(&self, state: &G::State, history: &[u64], guided: &Guided, seed: u64) -> Outcome<G::Move> {
        search(self.game, &self.net, state, history, guided, seed)
    }
}

/// The network at `path`, loaded for `game` (`name` its `--game` name) as a [`Guide`].
pub fn guide<'g, G: Encode + Sync>(game: &'g G, name: &str, path: &Path) -> Result<GuideOf<'g, G>> {
    Ok(Box::new(Loaded { game, net: load(game, name, path)? }))
}

/// A [`Guide`] of the positions and moves of `G`, as entries return it.
pub type GuideOf<'g, G> = Box<dyn Guide<<G as Game>::State, <G as Game>::Move> + 'g>;
