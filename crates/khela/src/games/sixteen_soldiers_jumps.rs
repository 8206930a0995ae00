//! Sixteen Soldiers played jump by jump (`sixteen-soldiers(moves=jumps)`, [`JumpByJump`]): the same rules, a
//! chain of jumps made one jump a decision, so that its decisions are numbered once for the whole game — what
//! environments and networks need. Searched to a depth and by Monte Carlo with the soldiers' evaluator; its
//! positions repeat, so no search solves it. It has no endgame tables of its own (`retro` and `--tables` serve
//! the chain-a-move game).

use super::sixteen_soldiers::{draw, rules};
use crate::board::{Board as Drawn, Gesture};
use crate::registry::{ActionOf, Entry, Observe, Observer, Scale, Spec, View, VisitNet, numbered};
use anyhow::Result;
use khela_games::sixteen_soldiers::jumps::{Decision, JumpByJump, State};
use khela_heuristic::sixteen_soldiers::{MATERIAL, Soldiers};

/// The entry of Sixteen Soldiers played jump by jump: the rules of the game string.
pub struct JumpsEntry {
    game: JumpByJump,
}

impl Entry for JumpsEntry {
    type Game = JumpByJump;
    type Evaluator = Soldiers;

    fn new(spec: &Spec) -> Result<Self> {
        Ok(JumpsEntry { game: JumpByJump::new(rules(spec)?) })
    }

    fn game(&self) -> &JumpByJump {
        &self.game
    }

    fn title(&self) -> String {
        format!("Sixteen Soldiers ({} capture, jump by jump)", self.game.rules().capture())
    }

    fn notation(&self) -> &'static str {
        "the 9 ranks from the top, X, O or '.', then x or o to move (and, with --quiet-limit, the plies since the \
         last capture), then in the middle of a chain jumping and its piece's point, like \
         .../.../...../...O./...../...../..X../.../... x jumping c3"
    }

    fn view(&self) -> View {
        View::First
    }

    /// The soldiers' evaluator on the position, a quarter of a piece the prior's unit, as in the chain-a-move
    /// game.
    fn scale(&self) -> Option<Scale<Soldiers>> {
        Some(Scale { evaluator: Soldiers, about: "soldiers, X's view", prior_unit: MATERIAL / 4.0 })
    }

    /// 8 steps or jumps for each of 16 pieces.
    fn max_moves(&self) -> u32 {
        128
    }

    /// The length cap, which counts decisions.
    fn plies_left(&self, _: &State) -> (u32, &'static str) {
        (self.game.rules().max_length(), "decisions of the length cap")
    }

    /// 37 points × 8 directions, and the end of a chain.
    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        numbered(self)
    }

    /// khela-zero's planes of the game played jump by jump.
    fn observer(&self) -> Result<Observer<'_, JumpByJump>, &'static str> {
        Ok(Observe.visit(self))
    }

    /// The chain-a-move game's board: the chain's piece stands where its last jump landed.
    fn board(&self, s: &State) -> Drawn {
        draw(self.game.rules(), &s.position)
    }

    /// A step or a jump from its point to the next; the end of a chain, a button.
    fn gesture(&self, _: &State, decision: Decision) -> Gesture {
        match self.game.points(decision) {
            Some((from, to, taken)) => {
                Gesture::path(vec![usize::from(from), usize::from(to)], taken.into_iter().map(usize::from).collect())
            }
            None => Gesture::button(),
        }
    }
}
