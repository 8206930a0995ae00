//! A network's size and the game's shapes: what a saved network's description holds beside its weights, and what
//! a front end reads of it without the network stack.

use crate::encode::{Encode, Shape};
use serde::{Deserialize, Serialize};

/// The units of the value head's hidden layer.
pub const VALUE_HIDDEN: usize = 64;

/// The network's size and the game's shapes: all a saved network needs beside its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Architecture {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the tower.
    pub channels: usize,
    /// Input planes.
    pub planes: usize,
    /// Board rows.
    pub height: usize,
    /// Board columns.
    pub width: usize,
    /// The action space.
    pub actions: usize,
}

impl Architecture {
    /// A tower of `blocks` blocks of `channels` channels for `game`'s encoding.
    pub fn for_game<G: Encode>(game: &G, blocks: usize, channels: usize) -> Architecture {
        let Shape { planes, height, width } = game.shape();
        Architecture { blocks, channels, planes, height, width, actions: game.actions() }
    }

    /// Whether the network fits `game`'s encoding.
    pub fn fits<G: Encode>(&self, game: &G) -> bool {
        let Shape { planes, height, width } = game.shape();
        (self.planes, self.height, self.width, self.actions) == (planes, height, width, game.actions())
    }
}
