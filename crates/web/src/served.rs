//! What a server serves beyond the library's games as they load: games with their endgame tables, and the trained
//! networks it plays by name (a request never names a path on the server).

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// A trained network the server plays by name.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedNet {
    /// Its name in requests: the file's stem (`zero-connect4` for `zero-connect4.safetensors`).
    pub name: String,
    /// The game string it plays (its description's game).
    pub game: String,
    /// Its weights.
    pub path: PathBuf,
}

/// Games with their tables, and networks by name.
#[derive(Clone, Default)]
pub struct Served {
    /// Games served with their endgame tables ([`khela::Game::with_tables`]): a request naming one of their game
    /// strings plays it, its positions valued from the tables.
    pub tables: Vec<khela::Game>,
    /// The networks, by name.
    pub nets: Vec<NamedNet>,
}

/// Every network in `dir`: each `NAME.safetensors` with its description beside it (`NAME.json`, as `zero train`
/// writes them), in the order of their names.
///
/// # Errors
///
/// A directory that cannot be read, or a description that cannot be.
pub fn nets_in(dir: &Path) -> Result<Vec<NamedNet>> {
    let mut nets = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        let description = khela::net::description_of(&path);
        if path.extension().is_none_or(|e| e != "safetensors") || !description.exists() {
            continue;
        }
        let text =
            std::fs::read_to_string(&description).with_context(|| format!("cannot read {}", description.display()))?;
        let file: khela::net::NetFile = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a network's description", description.display()))?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        nets.push(NamedNet { name, game: file.game, path });
    }
    nets.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(nets)
}
