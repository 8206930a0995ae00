//! One module per subcommand; each declares its options (clap `Args`) and turns them into rows, a table and
//! CSV. [`crate::cli`] assembles them.

pub mod count;
pub mod eval;
pub mod games;
pub mod matches;
pub mod mcts;
pub mod merge_counts;
pub mod ordering;
pub mod play;
pub mod prove;
pub mod retro;
pub mod solve;
pub mod star;
pub mod sweep;
pub mod trace;
pub mod zero;
