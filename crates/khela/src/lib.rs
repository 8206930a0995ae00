//! khela for front ends: the part of khela that the command line, the Python package and the browser app share.
//!
//! - [`registry`]: the games by name, each built from a game string with its parameters
//!   (`connect4(width=8,height=7)`, [`Spec`]), and what khela knows of each ([`registry::Entry`]): its notation,
//!   evaluator, published counts, exact solver, endgame and network.
//! - [`load`] and the [`dynamic`] face: a game chosen at run time, its states with their moves as numbers and as
//!   notation, play and undo, the outcome and the chance outcomes, the picture, the analysis of every move
//!   ([`analysis`]) and a player's move ([`players`]).
//! - [`players`]: who plays a game — the engine, Monte Carlo, a network, random moves — and the loop that plays
//!   a game between two of them.
//! - [`board`]: a position drawn as a board for people (points, lines, pieces, counters) and each move's gesture
//!   on it, for the browser app.
//! - [`tables`], [`layers`], [`known`] and [`net`]: endgame tables, the placement phase's layer tables and
//!   trained networks, loaded from paths.
//!
//! The generic, monomorphised path ([`registry::visit`] with a [`registry::Visit`]) is for bulk work, where it
//! earns its speed; the dynamic face is written once over it, for interactive front ends.
//!
//! # Examples
//!
//! Load a game by its string, play two moves, value every move, and ask a player for its move:
//!
//! ```
//! # fn main() -> anyhow::Result<()> {
//! let game = khela::load("connect4(width=5,height=4)")?;
//! let mut state = game.start()?;
//! state.play_text("3")?;
//! state.play_text("3")?;
//! assert_eq!(state.history(), ["3", "3"]);
//!
//! // Every move's exact value, by the Connect-4 solver, from the first player's view.
//! let analysis = state.analyse(&khela::Analyser::Exact)?;
//! let values: Vec<_> = analysis.moves.iter().map(|m| (m.text.as_str(), m.value)).collect();
//! assert_eq!(values.len(), 5);
//! let best: Vec<&str> = analysis.best().iter().map(|&i| analysis.moves[i].text.as_str()).collect();
//!
//! // The engine, searching 8 plies with the threat evaluator, plays one of them here.
//! let mv = state.choose(&"engine:8".parse()?, 0)?;
//! assert!(best.contains(&state.move_text(mv)?.as_str()));
//! # Ok(())
//! # }
//! ```
//!
//! # Adding a game
//!
//! A game that every command and front end serves is, in the workspace:
//!
//! 1. its file in `crates/games` (the [`khela_games::Game`] and [`khela_games::Notation`] implementations; call
//!    the conformance suite, `khela_games::conformance`, from its tests);
//! 2. its entry here, one file in `src/games/` implementing [`registry::Entry`] (it reads its parameters from the
//!    [`Spec`] and refuses the others, and draws its board for the browser app: [`registry::Entry::board`] and
//!    [`registry::Entry::gesture`], checked on random lines by `tests/dynamic.rs`), declared in `src/games/mod.rs`;
//! 3. one line in the registry's list ([`registry::GameName`]'s variant) and its arm in [`registry::visit`];
//! 4. only if it has them: an evaluator in `crates/heuristic` (the entry's `scale`), a network's encoding in
//!    `crates/zero` (the entry's `with_net`; or `observer` for an encoding kept for observations and
//!    environments alone), numbered actions (`actions`), an endgame (`endgame`), an own solver
//!    ([`registry::Own`]).
//!
//! Each capability brings the commands that use it with no other change: a network's encoding brings
//! `zero train`, `zero eval` (against UCT and the engine, by the sides the entry names, and on positions drawn
//! from its endgame's tables) and the `net:` players; an endgame brings `retro`, `--tables` and `prove`; an
//! endgame that holds the whole game (tic-tac-toe's) brings `zero eval`'s games against perfect play.
//!
//! The test `every_game_keeps_the_promises_of_its_capabilities` fails when a game is registered without the
//! parts its capabilities promise.
//!
//! Dots and Boxes came in by this list alone: six places in two crates — its file in `crates/games` and its
//! `pub mod` line, its entry file here and its `pub mod` line, its `GameName` variant and its `visit` arm — and
//! every command (`solve`, `count`, `mcts`, `play`, `match`) and the dynamic face served it, with no command
//! touched. It has no evaluator and no network's encoding: the engine and `net:` players refuse it, naming the
//! games they serve.

/// Files written whole or not at all (the `khela-files` crate, which front ends that need no game share too).
pub use khela_files as files;

pub mod analysis;
pub mod board;
pub mod dynamic;
pub mod games;
pub mod known;
pub mod layers;
pub mod net;
pub mod players;
pub mod record;
pub mod registry;
pub mod tables;
pub mod threat;
pub mod verdict;

pub use analysis::{Analyser, Analysis, Limit, MoveValue, Source};
pub use dynamic::{Game, State, load};
pub use registry::{GameName, Spec};
pub use threat::Threat;

/// The README's Rust example, compiled and run as a documentation test.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExample;

/// The book's chapter "From Rust", whose examples are compiled and run as documentation tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/src/rust.md")]
struct BookRustChapter;
