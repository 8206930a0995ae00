//! Pig's and Piglet's entry: dice (a coin) and cycles, solved exactly by value iteration
//! (`khela_exact::iterate` over `khela_games::pig::PigSpace`).

use crate::board::{Board as Drawn, Gesture, Style};
use crate::registry::{ActionOf, Entry, Exact, GameName, Observe, Observer, Own, Spec, View, VisitNet, numbered};
use anyhow::Result;
use khela_games::NoEvaluator;
use khela_games::pig::{Pig, State};

/// Pig's or Piglet's entry.
pub struct PigEntry {
    game: Pig,
    title: String,
}

impl Entry for PigEntry {
    type Game = Pig;
    type Evaluator = NoEvaluator;

    fn new(spec: &Spec) -> Result<Self> {
        let piglet = spec.name == GameName::Piglet;
        let name = if piglet { "Piglet" } else { "Pig" };
        spec.params.only(name, &["goal"])?;
        let goal = spec.params.count("goal")?.unwrap_or(if piglet { 10 } else { 100 });
        let game = if piglet { Pig::piglet(goal) } else { Pig::with_die(goal) };
        let game = game.map_err(|e| anyhow::anyhow!("{e} (goal= in the game string, or --goal)"))?;
        Ok(PigEntry { game, title: format!("{name} to {goal}") })
    }

    fn game(&self) -> &Pig {
        &self.game
    }

    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        numbered(self)
    }

    fn observer(&self) -> Result<Observer<'_, Self::Game>, &'static str> {
        Ok(Observe.visit(self))
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

    /// Value iteration over every position.
    fn exact(&self) -> Exact {
        Exact::Own(Own::Pig(self.game))
    }

    /// No board: the scores, the turn's total and the goal.
    fn board(&self, s: &State) -> Drawn {
        let mut drawn = Drawn::new(Style::Plain, Vec::new());
        for side in 0..2 {
            drawn.count("score", Some(side), s.scores[usize::from(side)]);
        }
        drawn.count("turn_total", None, s.turn);
        drawn.count("goal", None, self.game.goal());
        drawn
    }

    /// Rolling, holding and the die's faces are buttons.
    fn gesture(&self, _: &State, _: khela_games::pig::Move) -> Gesture {
        Gesture::button()
    }
}
