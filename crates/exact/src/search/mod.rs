//! The search loop, split by job: the searcher and how it is built ([`searcher`]), the loop itself
//! ([`node`]), its chance arm under star pruning ([`star`]), the drivers that start it at the root and run it
//! more than once ([`drivers`]: MTD(f), iterative deepening), and the configuration searches are built from
//! ([`config`]).

mod config;
mod drivers;
mod node;
mod searcher;
mod star;

pub use config::{SearchConfig, move_values, search};
pub use searcher::{SearchResult, Searcher};
