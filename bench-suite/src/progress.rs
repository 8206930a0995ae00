//! Progress on stderr for long work, the same for every command: an indicatif bar when stderr is a terminal
//! and the work has lasted more than a second; elsewhere (CI, logs of cluster jobs) a plain line every
//! [`LINE_EVERY`]; nothing for work shorter than that.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Work shorter than this shows no bar.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// How often a plain progress line is printed when stderr is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

/// Progress through units of work (subtrees, trees weighed by their cost, …).
pub struct Progress {
    bar: ProgressBar,
    label: String,
    started: Instant,
    /// Units done before this run (a resumed sweep's), which the time left does not count as this run's pace.
    before: u64,
    terminal: bool,
    /// Whether the time left is shown: not for units of very unequal cost (the plies of a deepening search).
    eta: bool,
    last_line: Mutex<Instant>,
}

impl Progress {
    /// Progress labelled `label` through `total` units, `before` of which an earlier run did.
    pub fn new(label: &str, total: u64, before: u64) -> Progress {
        Progress::build(label, total, before, true)
    }

    /// Progress labelled `label` through `total` stages whose costs differ too much for a time left (each ply of
    /// iterative deepening costs several times the one before).
    pub fn stages(label: &str, total: u64) -> Progress {
        Progress::build(label, total, 0, false)
    }

    fn build(label: &str, total: u64, before: u64, eta: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let template =
            if eta { "{prefix} [{bar:30}] {msg}, eta {eta}" } else { "{prefix} [{bar:30}] {msg}, {elapsed}" };
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        bar.set_position(before);
        bar.reset_eta();
        let now = Instant::now();
        Progress {
            bar,
            label: label.to_string(),
            started: now,
            before,
            terminal: std::io::stderr().is_terminal(),
            eta,
            last_line: Mutex::new(now),
        }
    }

    /// Records that `done` of the `total` units are done, `status` saying what that means (like "12/40
    /// trees"); callable from any thread.
    pub fn update(&self, done: u64, total: u64, status: impl FnOnce() -> String) {
        let elapsed = self.started.elapsed();
        self.bar.set_length(total);
        self.bar.set_position(done);
        if self.terminal {
            if elapsed > QUIET_FOR {
                if self.bar.is_hidden() {
                    self.bar.set_draw_target(ProgressDrawTarget::stderr());
                    self.bar.enable_steady_tick(Duration::from_millis(500));
                }
                self.bar.set_message(status());
            }
            return;
        }
        let Ok(mut last) = self.last_line.lock() else { return };
        if last.elapsed() >= LINE_EVERY {
            *last = Instant::now();
            let line = if self.eta {
                let pace = elapsed.as_secs_f64() / done.saturating_sub(self.before).max(1) as f64;
                let left = Duration::from_secs((pace * total.saturating_sub(done) as f64).round() as u64);
                format!("{}: {}, about {} left", self.label, status(), humantime::format_duration(left))
            } else {
                let so_far = Duration::from_secs(elapsed.as_secs());
                format!("{}: {}, {} so far", self.label, status(), humantime::format_duration(so_far))
            };
            // Progress is a courtesy: a stderr that cannot take it does not stop the work.
            let _ = writeln!(std::io::stderr(), "{line}");
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
