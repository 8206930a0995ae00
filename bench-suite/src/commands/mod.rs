//! One module per subcommand; each declares its options (clap `Args`) and turns them into rows, a table and
//! CSV. [`crate::cli`] assembles them.

#[cfg(feature = "games")]
pub mod count;
#[cfg(feature = "games")]
pub mod eval;
#[cfg(feature = "games")]
pub mod games;
#[cfg(feature = "games")]
pub mod matches;
#[cfg(feature = "games")]
pub mod mcts;
#[cfg(feature = "games")]
pub mod merge_counts;
pub mod ordering;
#[cfg(feature = "games")]
pub mod play;
#[cfg(feature = "games")]
pub mod prove;
#[cfg(feature = "games")]
pub mod retro;
#[cfg(feature = "games")]
pub mod serve;
#[cfg(feature = "games")]
pub mod solve;
#[cfg(feature = "games")]
pub mod star;
pub mod sweep;
pub mod trace;
#[cfg(feature = "games")]
pub mod zero;
