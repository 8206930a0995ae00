//! A network's files (its weights, and its description beside them), and the process `zero` runs in.

use crate::games::GameName;
use crate::output::write_atomically;
use anyhow::{Context, Result, bail};
use khela_zero::{Architecture, Encode, Net};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// On the command line, runs `zero` again as a new process with `RAYON_NUM_THREADS` set (to rayon's own default,
/// the available parallelism), if the environment does not set it; returns only if it cannot (then the command
/// runs as it is, slower).
///
/// Why: candle asks for the thread count at every matrix product, and without the variable works it out by
/// reading files under /proc — tens of thousands of reads a minute of self-play, half its time in the kernel
/// (tic-tac-toe, one thread: 9.9 s of self-play an iteration without the variable, 3.5 s with it). Setting a
/// variable in a running program is `unsafe` (another thread may read the environment meanwhile), which the
/// workspace forbids; a new process is the safe way. The Python package runs commands in its own process and
/// cannot do this: set the variable before starting Python.
pub fn with_thread_count() {
    const VARIABLE: &str = "RAYON_NUM_THREADS";
    if std::env::var_os(VARIABLE).is_some() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if let Ok(exe) = std::env::current_exe() {
            // `exec` returns only on failure.
            let _ = std::process::Command::new(exe)
                .args(std::env::args_os().skip(1))
                .env(VARIABLE, threads.to_string())
                .exec();
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
pub fn save(net: &Net, game: GameName, path: &Path) -> Result<()> {
    let file = NetFile { game: game.to_string(), architecture: *net.architecture() };
    write_atomically(&description_of(path), serde_json::to_string_pretty(&file)?.as_bytes())?;
    write_atomically(path, &net.to_safetensors()?)
}

/// Loads the network at `path` for `game` (`name` its `--game` name), checking that it was trained for it.
pub fn load<G: Encode>(game: &G, name: GameName, path: &Path) -> Result<Net> {
    let description = description_of(path);
    let text = std::fs::read_to_string(&description)
        .with_context(|| format!("--net {}: cannot read its description {}", path.display(), description.display()))?;
    let file: NetFile = serde_json::from_str(&text).with_context(|| {
        format!("--net {}: {} is not a network's description", path.display(), description.display())
    })?;
    if file.game != name.to_string() || !file.architecture.fits(game) {
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
