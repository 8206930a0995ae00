//! Value iteration: the exact values of every position of a [`Space`] of a game with chance *and* cycles, where
//! expectiminimax never ends and retrograde analysis has no levels to go by.
//!
//! Each position's value, from the side to move's view, is its payoff when terminal, the best of its moves'
//! values at a decision and the probability-weighted mean of its outcomes' at a chance node (a successor's
//! value negated when the other side moves there). [`iterate`] takes the space's stages ([`Space::stages`]) in
//! order; in each, it starts from 0 everywhere and sweeps the stage's numbers in order, replacing each value by
//! what its successors' values say, in place (Gauss–Seidel: a sweep already uses the values it has just
//! updated), until no value changes by more than the tolerance in a sweep. On a game whose every line ends
//! with probability 1 (Pig: every turn may bust) the sweeps converge to the unique fixed point. A [`DecisionRule`]
//! may fix the moves (a policy) instead of taking the best: the same sweeps then evaluate the policy.
//!
//! Stages matter: a stage's sweeps converge sooner than those of the whole game, so that Pig to 100 in its 5,050
//! stages (a pair of scores each) takes far less work than in one stage (measured: see
//! docs/src/measured-choices.md, 'Counting and value iteration'). Within a stage the sweeps run on one thread —
//! in place, each update depends on the one before, which is what makes them converge — and the stages of a layer
//! (Pig: the pairs with one total score) run in parallel.

use khela_games::{Game, Node, Player, Space};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// How the moves of a decision are chosen.
pub enum DecisionRule<'a, G: Game> {
    /// The best move for the side to move: optimal play.
    Best,
    /// The move a policy picks (for both sides).
    Policy(&'a (dyn Fn(&G::State) -> G::Move + Sync)),
}

/// The values [`iterate`] finds.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    values: Vec<f64>,
    /// The sweeps it took, over all stages (a sweep covers one stage).
    pub sweeps: u64,
    /// The largest change of a value in the last sweep of a stage, over all stages.
    pub residual: f64,
}

impl Values {
    /// The value of the position numbered `index`, from the side to move's view (+1 a sure win, −1 a sure
    /// loss).
    pub fn get(&self, index: u64) -> f64 {
        self.values[index as usize]
    }

    /// The value of a position of `space` from the side to move's view; `None` outside the space.
    pub fn of<S: Space + ?Sized>(&self, space: &S, state: &<S::Game as Game>::State) -> Option<f64> {
        space.index(state).map(|i| self.get(i))
    }
}

/// Values every position of `space` by value iteration (see the module documentation) to `tolerance`, taking
/// moves by `choice`; a stage that has not converged after `max_sweeps` is left as its last sweep left it (and
/// [`Values::residual`] says how far from converged). The stages of a layer run in parallel, in the current
/// rayon pool; the values are the same for any number of threads (a stage reads only itself and earlier
/// layers). `on_layer` sees each layer's number after it is done.
pub fn iterate<S: Space + ?Sized>(
    space: &S,
    choice: &DecisionRule<'_, S::Game>,
    tolerance: f64,
    max_sweeps: u32,
    mut on_layer: impl FnMut(usize),
) -> Values {
    // f64 bits, so that the stages of a layer may write their own values side by side.
    let values: Vec<AtomicU64> = (0..space.len()).map(|_| AtomicU64::new(0.0f64.to_bits())).collect();
    let (mut sweeps, mut residual) = (0u64, 0.0f64);
    for (layer, stages) in space.stages().into_iter().enumerate() {
        let (s, r) = stages
            .into_par_iter()
            .map(|numbers| solve_stage(space, choice, &values, numbers, tolerance, max_sweeps))
            .reduce(|| (0, 0.0), |a, b| (a.0 + b.0, a.1.max(b.1)));
        sweeps += s;
        residual = residual.max(r);
        on_layer(layer);
    }
    Values { values: values.into_iter().map(|v| f64::from_bits(v.into_inner())).collect(), sweeps, residual }
}

/// Sweeps one stage until it converges (or `max_sweeps`); returns the sweeps and the last one's residual.
fn solve_stage<S: Space + ?Sized>(
    space: &S,
    choice: &DecisionRule<'_, S::Game>,
    values: &[AtomicU64],
    numbers: Range<u64>,
    tolerance: f64,
    max_sweeps: u32,
) -> (u64, f64) {
    let game = space.game();
    let get = |i: u64| f64::from_bits(values[i as usize].load(Relaxed));
    let positions: Vec<(u64, <S::Game as Game>::State)> =
        numbers.filter_map(|i| space.position(i).map(|s| (i, s))).collect();
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let (mut residual, mut sweeps) = (if positions.is_empty() { 0.0 } else { f64::INFINITY }, 0);
    while residual > tolerance && sweeps < max_sweeps {
        residual = 0.0;
        for (i, s) in &positions {
            let player = space.to_move(s);
            // A successor's value from `player`'s view.
            let after = |mv: <S::Game as Game>::Move| -> f64 {
                let child = game.child(s, mv);
                match game.node(&child) {
                    Node::Terminal(payoff) => player.view(payoff),
                    _ => {
                        let v = get(space.index(&child).expect("a space is closed under moves"));
                        if space.to_move(&child) == player { v } else { -v }
                    }
                }
            };
            let value = match game.node(s) {
                Node::Terminal(payoff) => player.view(payoff),
                Node::Chance => {
                    game.outcomes(s, &mut outcomes);
                    outcomes.iter().map(|&(mv, p)| p * after(mv)).sum()
                }
                Node::Decision(_) => match choice {
                    DecisionRule::Best => {
                        game.moves(s, &mut moves);
                        moves.iter().map(|&mv| after(mv)).fold(f64::NEG_INFINITY, f64::max)
                    }
                    DecisionRule::Policy(policy) => after(policy(s)),
                },
            };
            residual = residual.max((value - get(*i)).abs());
            values[*i as usize].store(value.to_bits(), Relaxed);
        }
        sweeps += 1;
    }
    (u64::from(sweeps), residual)
}

/// The probability that the side to move wins, from its value in a game whose payoffs are +1 and −1.
pub fn win_probability(value: f64) -> f64 {
    (1.0 + value) / 2.0
}

/// The best move of a decision by `values` (the first of equals, in natural order), for the side to move.
pub fn best_move<S: Space + ?Sized>(
    space: &S,
    values: &Values,
    state: &<S::Game as Game>::State,
) -> Option<<S::Game as Game>::Move> {
    let game = space.game();
    let player: Player = space.to_move(state);
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    let value = |mv| {
        let child = game.child(state, mv);
        match game.node(&child) {
            Node::Terminal(payoff) => player.view(payoff),
            _ => {
                let v = values.of(space, &child).expect("a space is closed under moves");
                if space.to_move(&child) == player { v } else { -v }
            }
        }
    };
    moves.iter().copied().map(|mv| (mv, value(mv))).reduce(|a, b| if b.1 > a.1 { b } else { a }).map(|(mv, _)| mv)
}
