//! Trained networks: their files (the weights, and their description beside them), and the [`Guide`] that lets
//! a player or a Monte Carlo search play with one.

use crate::registry::{Entry, VisitNet, no_network};
use anyhow::Result;
#[cfg(feature = "nets")]
use anyhow::{Context, bail};
#[cfg(feature = "nets")]
use khela_files::write_atomically;
use khela_games::Game;
use khela_mcts::MctsResult;
use khela_zero::player::Guided;
use khela_zero::{Architecture, Encode};
#[cfg(feature = "nets")]
use khela_zero::{Net, player::search};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
#[cfg(feature = "nets")]
pub fn save(net: &Net, game: &str, path: &Path) -> Result<()> {
    let file = NetFile { game: game.to_string(), architecture: *net.architecture() };
    write_atomically(&description_of(path), serde_json::to_string_pretty(&file)?.as_bytes())?;
    write_atomically(path, &net.to_safetensors()?)
}

/// Loads the network at `path` for `game` (`name` its `--game` name), checking that it was trained for it.
#[cfg(feature = "nets")]
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
    fn search(&self, state: &S, history: &[u64], guided: &Guided, seed: u64) -> MctsResult<M>;
}

/// A network with the game it was loaded for.
#[cfg(feature = "nets")]
struct Loaded<'g, G> {
    game: &'g G,
    net: Net,
}

#[cfg(feature = "nets")]
impl<G: Encode + Sync> Guide<G::State, G::Move> for Loaded<'_, G> {
    fn search(&self, state: &G::State, history: &[u64], guided: &Guided, seed: u64) -> MctsResult<G::Move> {
        search(self.game, &self.net, state, history, guided, seed)
    }
}

/// The network at `path` loaded for the entry's game (`name` its name, as the network's description gives it)
/// as a [`Guide`]; `command` names the refusal of a game no network plays.
///
/// # Errors
///
/// A game no network plays; a network that cannot be read, or was trained for another game.
pub fn guide<'e, E: Entry>(entry: &'e E, name: &str, path: &Path, command: &str) -> Result<GuideOf<'e, E::Game>> {
    entry.with_net(LoadGuide { name, path }).unwrap_or_else(|| Err(no_network(command, &entry.title())))
}

/// Loads a network for the game of the entry it visits.
struct LoadGuide<'p> {
    name: &'p str,
    path: &'p Path,
}

impl VisitNet for LoadGuide<'_> {
    type Output<'e, G: Game + 'e> = Result<GuideOf<'e, G>>;

    fn visit<'e, E: Entry>(self, entry: &'e E) -> Result<GuideOf<'e, E::Game>>
    where
        E::Game: Encode,
    {
        #[cfg(feature = "nets")]
        {
            let game = entry.game();
            Ok(Box::new(Loaded { game, net: load(game, self.name, self.path)? }))
        }
        #[cfg(not(feature = "nets"))]
        {
            let _ = (entry, self.name);
            anyhow::bail!(
                "--net {}: this build of khela reads no networks (it was built without its feature `nets`)",
                self.path.display()
            )
        }
    }
}

/// A [`Guide`] of the positions and moves of `G`, as entries return it.
pub type GuideOf<'g, G> = Box<dyn Guide<<G as Game>::State, <G as Game>::Move> + 'g>;
