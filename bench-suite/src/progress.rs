//! Progress on stderr for long work: an indicatif bar when stderr is a terminal and the work has lasted more
//! than a second; nothing otherwise (CI, pipes, quick runs).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Work shorter than this shows no bar.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// A progress bar that appears only when it is worth it.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    terminal: bool,
}

impl Progress {
    /// A bar for `total` steps, labelled `what`.
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(what.to_string());
        Progress { bar, started: Instant::now(), terminal: std::io::stderr().is_terminal() }
    }

    /// Records that `done` of the `total` steps are done; callable from any thread.
    pub fn set(&self, done: u64, total: u64) {
        if self.terminal && self.bar.is_hidden() && self.started.elapsed() > QUIET_FOR {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_length(total);
        self.bar.set_position(done);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
