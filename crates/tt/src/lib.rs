//! Transposition tables for game-tree search: entries that carry their bound, fixed-size tables with key
//! verification and replacement policies, tables that threads share, and Zobrist hashing.
//!
//! The crate knows nothing of any game: keys are `u64` (a game's own key, or one built with [`Zobrist`]) and the
//! move type is a type parameter.
//!
//! - [`TableEntry`]: the value, its [`Bound`] (exact, lower, upper), the depth searched and the best move. Its value
//!   comes out only through [`TableEntry::cutoff`], the one place that decides whether a stored result may stand in
//!   for a search, so a cut-off node's bound cannot be taken for its exact value.
//! - [`Table`]: a fixed-size table for one thread, sized in MiB, with counters ([`TableStats`]) and a replacement
//!   policy ([`Replacement`]: always replace, depth-preferred, two-tier).
//! - [`ConcurrentTable`]: what a parallel search probes and stores through a shared reference, implemented by
//!   [`DashTable`] (on dashmap, exact entries, stops inserting when full) and [`AtomicTable`] (lock-free, Hyatt's
//!   XOR trick, entries packed into 64 bits, moves through [`PackedMove`]).
//! - [`CompactTable`]: one 64-bit word an entry for games with small keys and small whole values (Connect-4's
//!   solver), telling keys apart by the Chinese remainder theorem, shared by threads without locks.
//!
//! Which to use: [`AtomicTable`] is the fastest on one thread and on two (`cargo bench -p khela-tt`; the
//! figures: see docs/src/measured-choices.md, 'Transposition tables'), so it is the table for parallel search.
//! [`DashTable`] is the one to use when values must stay exact `f64` (an [`AtomicTable`] keeps them as `f32`,
//! rounded outward) or moves do not fit in 16 bits. A `Mutex<Table>` collapses on two threads and is not offered.
//!
//! # Examples
//!
//! ```
//! use khela_tt::{Bound, Replacement, Table, TableEntry, Zobrist};
//!
//! let zobrist = Zobrist::new(18, 1);
//! let key = zobrist.key_of([4, 9]);
//! let mut table = Table::with_mib(1, Replacement::DepthPreferred);
//! // A search of this node with the window (-1, 1) failed high with 1 after 5 plies; move 3 caused the cutoff.
//! let value = 1.0;
//! table.store(key, TableEntry::new(value, Bound::of(value, -1.0, 1.0), 5, Some(3u8)));
//!
//! let entry = table.probe(key).unwrap();
//! assert_eq!(entry.cutoff(5, -1.0, 1.0), Some(1.0)); // The same window: the same cutoff.
//! assert_eq!(entry.cutoff(5, -1.0, 2.0), None); // A wider window needs a search,
//! assert_eq!(entry.best(), Some(3)); // which tries move 3 first.
//! ```

mod atomic;
mod compact;
mod concurrent;
mod packed;
mod pages;
mod prefetch;
mod primes;
mod replacement;
mod table;
mod table_entry;
mod zobrist;

pub use atomic::AtomicTable;
pub use compact::{CompactEntry, CompactTable, Region, TooSmall};
pub use concurrent::{ConcurrentTable, DashTable};
pub use packed::{MAX_PACKED_DEPTH, PackedMove};
pub use replacement::Replacement;
pub use table::{Table, TableStats};
pub use table_entry::{Bound, TableEntry, Value};
pub use zobrist::Zobrist;
