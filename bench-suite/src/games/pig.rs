//! Pig and Piglet in the harness: dice (a coin) and cycles, solved exactly by value iteration
//! (`khela_exact::iterate` over `khela_games::pig::PigSpace`): `solve --game pig --goal N`.

use super::entry::{Entry, Exact, GameArgs, GameName, OwnSolve, View};
use crate::machine::Sidecar;
use crate::output::{self, Metric, Sink};
use crate::plot::hold::{HoldLine, hold_svg};
use anyhow::{Result, bail};
use indicatif::HumanCount;
use khela_exact::iterate::{self, Choice, Values, best_move, win_probability};
use khela_games::pig::{HOLD, Pig, PigSpace, ROLL, State};
use khela_games::{NoEvaluator, Notation, Space};
use serde::Serialize;
use std::time::Instant;

/// Value iteration stops when no value changes by more than this in a sweep.
const TOLERANCE: f64 = 1e-12;

/// A stage that has not converged after this many sweeps is reported (never seen: a stage takes hundreds).
const MAX_SWEEPS: u32 = 1_000_000;

/// The goals `solve` values whole: goal³ positions, about 1 µs each a sweep.
const MAX_SOLVED_GOAL: u32 = 300;

/// The fixed policy every Pig text compares with: roll until the turn total reaches this, then hold.
const HOLD_AT: u16 = 20;

/// The opponent's scores the hold boundary is drawn for, as fractions of the goal.
const PLOTTED: [f64; 6] = [0.0, 0.2, 0.4, 0.6, 0.8, 0.95];

/// Pig's or Piglet's entry.
pub struct PigEntry {
    game: Pig,
    title: String,
}

impl Entry for PigEntry {
    type Game = Pig;
    type Evaluator = NoEvaluator;

    fn new(args: &GameArgs) -> Result<Self> {
        let piglet = args.game == GameName::Piglet;
        let name = if piglet { "Piglet" } else { "Pig" };
        args.refuse_options(name, &["--goal"])?;
        let goal = args.goal.unwrap_or(if piglet { 10 } else { 100 });
        let game = if piglet { Pig::piglet(goal) } else { Pig::with_die(goal) };
        let game = game.map_err(|e| anyhow::anyhow!("--goal {goal}: {e}"))?;
        Ok(PigEntry { game, title: format!("{name} to {goal}") })
    }

    fn game(&self) -> &Pig {
        &self.game
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn notation(&self) -> &'static str {
        "the first player's score, the second's, the turn total, first or second to move, and rolled while the \
         die is in the air, like 0 0 0 first"
    }

    fn view(&self) -> View {
        View::Mover
    }

    fn max_moves(&self) -> u32 {
        6
    }

    /// No line of Pig is bounded (every roll of 1 undoes a turn); the goal is the scale of a game's length.
    fn plies_left(&self, _: &State) -> (u32, &'static str) {
        (u32::from(self.game.goal()), "points to the goal (a game may last longer)")
    }

    fn exact(&self) -> Exact {
        Exact::Own
    }

    fn solve_plot(&self) -> Option<&'static str> {
        Some("the optimal policy's hold boundary")
    }

    /// Every position valued by value iteration; the rows are figures, not moves: the first player's winning
    /// chance with optimal play, the position's, its best move, and the first player's chance when both hold
    /// at a turn total of 20.
    fn solve_own(&self, text: &str, state: &State, own: &OwnSolve) -> Result<()> {
        if own.weak {
            bail!("--weak is for Connect-4; Pig's values are winning chances");
        }
        let goal = u32::from(self.game.goal());
        if goal > MAX_SOLVED_GOAL {
            bail!(
                "--goal {goal}: value iteration over {} positions; solve takes goals up to {MAX_SOLVED_GOAL}",
                HumanCount(u64::from(goal).pow(3))
            );
        }
        let started = Instant::now();
        let space = PigSpace::new(self.game);
        let optimal = iterate::iterate(&space, &Choice::Best, TOLERANCE, MAX_SWEEPS, |_| {});
        let start = self.game.parse(self.game.start().expect("a start"))?;
        let chance = |values: &Values, s: &State| win_probability(values.of(&space, s).expect("in the space"));
        let mut rows = vec![
            Metric::new("goal", goal),
            Metric::new("first_player_win", format!("{:.12}", chance(&optimal, &start))),
            Metric::new("position", text),
            Metric::new("position_win", format!("{:.12}", chance(&optimal, state))),
        ];
        if let Some(mv) = best_move(&space, &optimal, state) {
            rows.push(Metric::new("best_move", self.game.write_move(mv)));
        }
        if !self.game.is_piglet() {
            let policy = |s: &State| if s.turn < HOLD_AT { ROLL } else { HOLD };
            let fixed = iterate::iterate(&space, &Choice::Policy(&policy), TOLERANCE, MAX_SWEEPS, |_| {});
            rows.push(Metric::new("hold_at_20_first_player_win", format!("{:.12}", chance(&fixed, &start))));
        }
        rows.extend([
            Metric::new("positions", space.len() * 2),
            Metric::new("sweeps", optimal.sweeps),
            Metric::new("residual", format!("{:.1e}", optimal.residual)),
        ]);
        let seconds = started.elapsed().as_secs_f64();
        if let Some(path) = own.plot {
            let title = format!("{}: the optimal policy holds at the turn totals drawn", self.title);
            output::write_atomically(
                path,
                hold_svg(&title, self.game.goal(), &self.boundary(&space, &optimal))?.as_bytes(),
            )?;
        }
        let sink = Sink::new(own.out, None)?;
        sink.emit(&rows, || {
            let table = output::metric_table(&rows);
            let plot = own.plot.map_or(String::new(), |p| format!("\nwrote the hold boundary to {}", p.display()));
            format!("{}, solved by value iteration to {TOLERANCE:e} in {seconds:.1} s\n{table}{plot}", self.title)
        })?;
        if let Sink::TableAndFile(path) = sink {
            Sidecar::now().write(&path, &Timing { seconds, threads: rayon::current_num_threads() })?;
        }
        Ok(())
    }
}

impl PigEntry {
    /// For a few opponent's scores, the turn total from which the optimal player holds at each of her scores
    /// (the first at which holding is best; the rest of the way to the goal where she never holds).
    fn boundary(&self, space: &PigSpace, values: &Values) -> Vec<HoldLine> {
        let goal = self.game.goal();
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
}

/// The sidecar's figures: the time, which the CSV leaves out so that it is the same on every run.
#[derive(Serialize)]
struct Timing {
    seconds: f64,
    threads: usize,
}
