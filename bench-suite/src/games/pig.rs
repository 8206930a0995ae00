//! Pig's and Piglet's solver on the command line: every position valued by value iteration
//! (`khela_exact::iterate` over `khela_games::pig::PigSpace`), with the figures Pig's texts quote and the
//! optimal policy's hold boundary drawn: `solve --game pig --goal N`.

use super::runs::OwnSolve;
use crate::machine::Sidecar;
use crate::output::{self, Metric, Sink};
use crate::plot::hold::{HoldLine, hold_svg};
use anyhow::{Result, bail};
use indicatif::HumanCount;
use khela_exact::iterate::{self, DecisionRule, Values, best_move, win_probability};
use khela_games::pig::{HOLD, Pig, PigSpace, ROLL, State};
use khela_games::{Notation, Space};
use serde::Serialize;
use std::time::Instant;

/// Value iteration stops when no value changes by more than this in a sweep.
const TOLERANCE: f64 = 1e-12;

/// A stage that has not converged after this many sweeps is reported (far more sweeps than a stage takes).
const MAX_SWEEPS: u32 = 1_000_000;

/// The goals `solve` values whole: goal³ positions, each visited at every sweep of its stage (the time that
/// takes: see docs/src/measured-choices.md, 'The harness').
const MAX_SOLVED_GOAL: u32 = 300;

/// The fixed policy every Pig text compares with: roll until the turn total reaches this, then hold.
const HOLD_AT: u16 = 20;

/// The opponent's scores the hold boundary is drawn for, as fractions of the goal.
const PLOTTED: [f64; 6] = [0.0, 0.2, 0.4, 0.6, 0.8, 0.95];

/// Every position valued by value iteration; the rows are figures, not moves: the first player's winning
/// chance with optimal play from the start and from the position, the position's best move, and the first player's chance when both hold
/// at a turn total of 20.
pub fn solve(game: Pig, title: &str, text: &str, state: &State, own: &OwnSolve) -> Result<()> {
    if own.weak {
        bail!("--weak is for Connect-4; Pig's values are winning chances");
    }
    let goal = u32::from(game.goal());
    if goal > MAX_SOLVED_GOAL {
        bail!(
            "--goal {goal}: value iteration over {} positions; solve takes goals up to {MAX_SOLVED_GOAL}",
            HumanCount(u64::from(goal).pow(3))
        );
    }
    let started = Instant::now();
    let space = PigSpace::new(game);
    let optimal = iterate::iterate(&space, &DecisionRule::Best, TOLERANCE, MAX_SWEEPS, |_| {});
    let start = game.parse(game.start().expect("a start"))?;
    let chance = |values: &Values, s: &State| win_probability(values.of(&space, s).expect("in the space"));
    let mut rows = vec![
        Metric::new("goal", goal),
        Metric::new("first_player_win", format!("{:.12}", chance(&optimal, &start))),
        Metric::new("position", text),
        // The values are the mover's; every figure printed is the first player's, as everywhere in khela.
        Metric::new("position_first_player_win", {
            let mover = chance(&optimal, state);
            format!("{:.12}", if state.second_to_move { 1.0 - mover } else { mover })
        }),
    ];
    if let Some(mv) = best_move(&space, &optimal, state) {
        rows.push(Metric::new("best_move", game.write_move(mv)));
    }
    if !game.is_piglet() {
        let policy = |s: &State| if s.turn < HOLD_AT { ROLL } else { HOLD };
        let fixed = iterate::iterate(&space, &DecisionRule::Policy(&policy), TOLERANCE, MAX_SWEEPS, |_| {});
        rows.push(Metric::new("hold_at_20_first_player_win", format!("{:.12}", chance(&fixed, &start))));
    }
    rows.extend([
        Metric::new("positions", space.len() * 2),
        Metric::new("sweeps", optimal.sweeps),
        Metric::new("residual", format!("{:.1e}", optimal.residual)),
    ]);
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = own.plot {
        let title = format!("{}: the optimal policy holds at the turn totals drawn", title);
        output::write_atomically(path, hold_svg(&title, game.goal(), &boundary(&space, &optimal))?.as_bytes())?;
    }
    let sink = Sink::new(own.out, None)?;
    sink.emit(&rows, || {
        let table = output::metric_table(&rows);
        let plot = own.plot.map_or(String::new(), |p| format!("\nwrote the hold boundary to {}", p.display()));
        format!("{}, solved by value iteration to {TOLERANCE:e} in {seconds:.1} s\n{table}{plot}", title)
    })?;
    if let Sink::TableAndFile(path) = sink {
        Sidecar::now().write(&path, &Timing { seconds, threads: rayon::current_num_threads() })?;
    }
    Ok(())
}

/// For a few opponent's scores, the turn total from which the optimal player holds at each of her scores
/// (the first at which holding is best; the rest of the way to the goal where she never holds).
fn boundary(space: &PigSpace, values: &Values) -> Vec<HoldLine> {
    let goal = space.game().goal();
    let mut opponents: Vec<u16> = PLOTTED.iter().map(|f| (f * f64::from(goal - 1)).round() as u16).collect();
    opponents.dedup();
    opponents
        .into_iter()
        .map(|j| {
            let points = (0..goal)
                .map(|i| {
                    let holds = |k: u16| {
                        let s = State { scores: [i, j], turn: k, ..State::default() };
                        best_move(space, values, &s) == Some(HOLD)
                    };
                    (i, (1..goal - i).find(|&k| holds(k)).unwrap_or(goal - i))
                })
                .collect();
            (j, points)
        })
        .collect()
}

/// The sidecar's figures: the time, which the CSV leaves out so that it is the same on every run.
#[derive(Serialize)]
struct Timing {
    seconds: f64,
    threads: usize,
}
