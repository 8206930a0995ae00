//! A search's meter: how many iterations have run, read by another thread (a progress display), and a switch
//! that thread may turn to stop the search between two iterations (Ctrl-C in a front end).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Counts a search's iterations as they run, on whichever thread runs them, and stops them when asked.
///
/// # Examples
///
/// ```
/// use khela_games::tictactoe::TicTacToe;
/// use khela_mcts::{MctsConfig, Meter, Search, Uct, random::Pcg};
///
/// let meter = Meter::new();
/// let mut search: Search<_, _, Pcg> =
///     Search::new(&TicTacToe, TicTacToe::parse(".........").unwrap(), Uct::default(), MctsConfig::default())
///         .metered(&meter);
/// search.run(100);
/// assert_eq!(meter.iterations(), 100);
/// meter.stop();
/// assert_eq!(search.run(100).iterations, 1, "the iteration under way when the stop is seen ends it");
/// ```
#[derive(Debug, Default)]
pub struct Meter {
    iterations: AtomicU64,
    stopped: AtomicBool,
}

impl Meter {
    /// A meter at zero, not stopped.
    pub fn new() -> Meter {
        Meter::default()
    }

    /// The iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations.load(Ordering::Relaxed)
    }

    /// Asks the searches this meter watches to stop after the iteration each is running.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether [`Meter::stop`] has been called.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Counts one iteration; whether the search should go on.
    pub(crate) fn tick(&self) -> bool {
        self.iterations.fetch_add(1, Ordering::Relaxed);
        !self.stopped()
    }
}
