//! The time limit of a depth-limited `solve`: the pace of the search's iterations, then of the valuation of its
//! moves one by one, projected to the end and compared with `--time-limit`, so that a search that would run for
//! hours stops within seconds of saying so (with what it measured), not when the user gives up on it.

use crate::interrupt;
use crate::progress::Progress;
use anyhow::{Result, bail};
use indicatif::HumanCount;
use khela_exact::{Observer, Stats};
use khela_games::{Game, Value};
use std::cell::Cell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Iterations of iterative deepening shorter than this are too noisy to extrapolate from.
const PACE_SECONDS: f64 = 0.25;

/// Why a search was stopped: the depth its last iteration reached, the seconds it had run and those the whole
/// would take by its pace.
#[derive(Clone, Copy)]
pub struct Stop {
    reached: u32,
    elapsed: f64,
    projected: f64,
}

/// The seconds a depth-limited search to `depth`, deepening by `step` plies (one or more), and the valuation of its
/// `moves` one by one after it will take in all, by the ends (seconds since the start) of its iterations so far,
/// the last of which reached `reached`: each further iteration multiplies the last one's time by the larger of
/// the last two iterations' growths (by one ply, alpha-beta's cost alternates from odd to even depths), and each
/// move, valued exactly with a full window, costs about as much as the whole search (measured: see
/// docs/src/measured-choices.md, 'The harness').
fn projected(times: &[f64], reached: u32, (depth, step): (u32, u32), moves: usize) -> f64 {
    let lengths: Vec<f64> = std::iter::once(0.0)
        .chain(times.iter().copied())
        .collect::<Vec<_>>()
        .windows(2)
        .map(|w| (w[1] - w[0]).max(1e-6))
        .collect();
    let growth = match lengths.as_slice() {
        [.., a, b, c] => (c / b).max(b / a).max(1.0),
        [.., a, b] => (b / a).max(1.0),
        _ => 1.0,
    };
    let (elapsed, last) = (times.last().copied().unwrap_or(0.0), lengths.last().copied().unwrap_or(0.0));
    let iterations = depth.saturating_sub(reached).div_ceil(step);
    (1.0 + moves as f64) * (elapsed + last * growth.powi(iterations as i32))
}

/// Reports each iteration of the engine's iterative deepening as progress, and stops the deepening once the pace
/// of the iterations says that the search and the valuation of the moves after it will take more than the limit
/// (no limit: `--force`). Extrapolated from iterations of [`PACE_SECONDS`] or more.
pub struct Pace<'a> {
    bar: &'a Progress,
    depth: u32,
    /// The plies from one iteration to the next.
    step: u32,
    moves: usize,
    limit: Option<Duration>,
    started: Instant,
    /// The seconds since the start at which each iteration ended.
    times: Vec<f64>,
    stopped: &'a Cell<Option<Stop>>,
}

impl<'a> Pace<'a> {
    /// The pace of a search to `depth`, deepening by `step` plies, of a position with `moves` moves, started now,
    /// shown on `bar`; a stop is recorded in `stopped`.
    pub fn new(
        bar: &'a Progress,
        (depth, step, moves): (u32, u32, usize),
        limit: Option<Duration>,
        stopped: &'a Cell<Option<Stop>>,
    ) -> Self {
        Pace { bar, depth, step, moves, limit, started: Instant::now(), times: Vec::new(), stopped }
    }
}

impl<G: Game> Observer<G> for Pace<'_> {
    /// Watches no node, only the iterations.
    const ACTIVE: bool = false;

    fn deepened(&mut self, reached: u32, _: Value, stats: &Stats) -> ControlFlow<()> {
        let (done, total) = (u64::from(reached.min(self.depth)), u64::from(self.depth));
        self.bar.update(done, total, || format!("depth {done}/{total}, {} nodes", HumanCount(stats.nodes)));
        if interrupt::requested() {
            return ControlFlow::Break(());
        }
        let elapsed = self.started.elapsed().as_secs_f64();
        let last = elapsed - self.times.last().copied().unwrap_or(0.0);
        self.times.push(elapsed);
        let Some(limit) = self.limit else { return ControlFlow::Continue(()) };
        let projected = projected(&self.times, reached, (self.depth, self.step), self.moves);
        if reached < self.depth && last >= PACE_SECONDS && projected > limit.as_secs_f64() {
            self.stopped.set(Some(Stop { reached, elapsed, projected }));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// The error for a search stopped by its pace: what it reached, after how long, and the time it would take.
pub fn stopped(title: &str, depth: u32, stop: Stop, limit: Duration) -> anyhow::Error {
    let Stop { reached, elapsed, projected } = stop;
    anyhow::anyhow!(
        "--depth {depth} on {title}: stopped at depth {reached} after {}: by the pace of its iterations so far, the \
         search and the valuation of its moves would take about {}, over the limit of {}; give a smaller --depth, \
         a longer --time-limit, or --force",
        seconds(elapsed),
        seconds(projected),
        humantime::format_duration(limit)
    )
}

/// Checks, once the first `valued` of `moves` moves are valued (the valuation started at `moves_started`, the
/// search at `started`), that the rest will not take the whole past the limit; the error says what was measured.
pub fn check_moves(
    (started, moves_started): (Instant, Instant),
    (valued, moves): (usize, usize),
    limit: Option<Duration>,
) -> Result<()> {
    let Some(limit) = limit else { return Ok(()) };
    let (elapsed, spent) = (started.elapsed().as_secs_f64(), moves_started.elapsed().as_secs_f64());
    let projected = elapsed + spent / valued as f64 * (moves - valued) as f64;
    if projected > limit.as_secs_f64() {
        bail!(
            "stopped after valuing {valued} of {moves} moves in {}: by their pace, the search and the valuation \
             would take about {}, over the limit of {}; give a smaller --depth, a longer --time-limit, or --force",
            seconds(spent),
            seconds(projected),
            humantime::format_duration(limit)
        );
    }
    Ok(())
}

/// Seconds for people, to the millisecond below a minute and to the second above.
fn seconds(seconds: f64) -> humantime::FormattedDuration {
    let seconds = seconds.clamp(0.0, 1e12);
    let rounded = if seconds < 60.0 {
        Duration::from_millis((seconds * 1000.0).round() as u64)
    } else {
        Duration::from_secs(seconds.round() as u64)
    };
    humantime::format_duration(rounded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projection_grows_the_last_iteration_by_the_larger_growth_of_the_last_two_iterations() {
        // Iterations of 1, 2 and 6 seconds: growths 2 and 3, so each of the 2 plies left multiplies the last
        // iteration by 3: 9 s so far + 6·3² s = 63 s for the search, times 1 + 7 for the moves.
        assert_eq!(projected(&[1.0, 3.0, 9.0], 3, (5, 1), 7), 8.0 * 63.0);
        // Alternating growths: the larger (4) counts, even after a cheaper ply.
        assert_eq!(projected(&[1.0, 5.0, 7.0], 3, (4, 1), 0), 7.0 + 2.0 * 4.0);
        // No growth assumed below 1, nothing left at the full depth.
        assert_eq!(projected(&[4.0, 5.0], 2, (6, 1), 1), 2.0 * (5.0 + 1.0));
        assert_eq!(projected(&[4.0, 5.0], 6, (6, 1), 1), 2.0 * (5.0 + 1.0));
        // Deepening by two plies, iterations 2, 4 and 6 to depth 10: two iterations left, each growing by 3;
        // to depth 9, one and a half round up to two.
        assert_eq!(projected(&[1.0, 3.0, 9.0], 6, (10, 2), 0), 9.0 + 6.0 * 9.0);
        assert_eq!(projected(&[1.0, 3.0, 9.0], 6, (9, 2), 0), 9.0 + 6.0 * 9.0);
    }

    #[test]
    fn the_moves_are_checked_by_their_pace_only_under_a_limit() {
        let long_ago = Instant::now() - Duration::from_secs(10);
        let now = Instant::now();
        // 10 s spent on one move of three: 20 s more, over a limit of 15 s, not of 60 s.
        let error = check_moves((long_ago, long_ago), (1, 3), Some(Duration::from_secs(15))).unwrap_err();
        assert!(error.to_string().contains("valuing 1 of 3 moves"), "{error}");
        assert!(error.to_string().contains("over the limit of 15s"), "{error}");
        assert!(check_moves((long_ago, long_ago), (1, 3), Some(Duration::from_secs(60))).is_ok());
        assert!(check_moves((long_ago, long_ago), (1, 3), None).is_ok());
        // The time of the search before the moves counts, the moves' pace only from their own start.
        assert!(check_moves((long_ago, now), (1, 3), Some(Duration::from_secs(15))).is_ok());
    }
}
