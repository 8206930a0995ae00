//! The sweep's progress on stderr: trees done, nodes per second and time left. An indicatif bar on a terminal
//! (after a second); elsewhere (CI, logs of cluster jobs) a plain line every [`LINE_EVERY`], and nothing for runs
//! shorter than that.
//!
//! Trees differ in cost by orders of magnitude, so the bar advances, and the time left is estimated, by each
//! tree's estimated cost ([`super::grid::Grid::tree_cost`]), not by the count of trees.

use crate::output::thousands;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Runs shorter than this show no bar.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// How often a plain progress line is printed when stderr is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// The sweep's progress.
pub struct SweepProgress {
    bar: Option<ProgressBar>,
    started: Instant,
    last_line: Instant,
    /// Trees: done before this run (`--resume`), done in this run, in all.
    trees: (u64, u64, u64),
    /// Estimated cost: done before this run, done in this run, in all.
    cost: (u64, u64, u64),
    nodes: u64,
}

impl SweepProgress {
    /// Progress over `trees.2` trees of estimated cost `cost.2`, of which `trees.0` trees of cost `cost.0` were done
    /// by an earlier run.
    pub fn new(trees: (u64, u64), cost: (u64, u64)) -> SweepProgress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(cost.1), ProgressDrawTarget::hidden());
            let style = ProgressStyle::with_template("sweep [{bar:30}] {msg}, eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_position(cost.0);
            bar.reset_eta();
            bar
        });
        let now = Instant::now();
        SweepProgress {
            bar,
            started: now,
            last_line: now,
            trees: (trees.0, 0, trees.1),
            cost: (cost.0, 0, cost.1),
            nodes: 0,
        }
    }

    /// Records a finished tree of estimated cost `cost` that visited `nodes` nodes.
    pub fn tree_done(&mut self, cost: u64, nodes: u64) {
        self.trees.1 += 1;
        self.cost.1 += cost;
        self.nodes += nodes;
        let elapsed = self.started.elapsed();
        let rate = self.nodes as f64 / elapsed.as_secs_f64().max(1e-9);
        let trees = format!("{}/{} trees", thousands(self.trees.0 + self.trees.1), thousands(self.trees.2));
        match &self.bar {
            Some(bar) => {
                if bar.is_hidden() && elapsed > QUIET_FOR {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(500));
                }
                bar.set_message(format!("{trees}, {rate:.2e} nodes/s"));
                bar.set_position(self.cost.0 + self.cost.1);
            }
            None if self.last_line.elapsed() >= LINE_EVERY => {
                self.last_line = Instant::now();
                let left = self.cost.2.saturating_sub(self.cost.0 + self.cost.1) as f64;
                let seconds_left = elapsed.as_secs_f64() / self.cost.1.max(1) as f64 * left;
                eprintln!(
                    "sweep: {trees}, {rate:.2e} nodes/s, about {} left",
                    humantime::format_duration(Duration::from_secs(seconds_left.round() as u64))
                );
            }
            None => {}
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
