//! Actions and observations on the dynamic face: a game's moves as the integers of its fixed action space
//! ([`khela_games::Actions`]), a position as a network's input planes ([`khela_zero::Encode`]) and random
//! playouts in one call, what OpenSpiel-style interfaces (`legal_actions`, `apply_action`,
//! `observation_tensor`) and environments take.

use super::{Game, Playouts, State};
use anyhow::{Result, anyhow, bail};

impl Game {
    /// The size of the game's action space: every move's action ([`State::legal_actions`]) is below it.
    ///
    /// # Errors
    ///
    /// A game that numbers no actions, saying why: Nim without a start (`nim(heaps=3+4+5)` has one; the start's
    /// heaps bound every move) and Sixteen Soldiers (a chain of jumps may take any path).
    pub fn action_count(&self) -> Result<usize> {
        self.face.action_count().map_err(|why| self.no_actions(why))
    }

    /// The shape (planes, height, width) of [`State::observation`], for a game whose positions are encoded as
    /// planes (every game but Sixteen Soldiers, and Nim without a start).
    ///
    /// # Errors
    ///
    /// A game without an encoding, saying why.
    pub fn observation_shape(&self) -> Result<[usize; 3]> {
        self.face.observation_shape().map(|(shape, _)| shape).map_err(|why| self.no_planes(why))
    }

    /// The largest value of [`State::observation`]'s planes (every value is from 0 to it): 1 for marks and
    /// fractions, the tallest stack where goats stack (Bagh-Bandi: 5), a little over 1 in Pig (a winning score
    /// overshoots the goal).
    ///
    /// # Errors
    ///
    /// A game without an encoding.
    pub fn observation_largest(&self) -> Result<f32> {
        self.face.observation_shape().map(|(_, largest)| largest).map_err(|why| self.no_planes(why))
    }

    fn no_planes(&self, why: &str) -> anyhow::Error {
        anyhow!("{} has no encoding of its positions as planes: {why}", self.title())
    }

    fn no_actions(&self, why: &str) -> anyhow::Error {
        anyhow!("{} numbers no actions: {why}", self.title())
    }
}

impl State {
    /// The legal moves' actions (at a chance node, the outcomes'), in the order of [`State::legal_moves`]; none
    /// once the game is over. An action means the same move in every position of the game (a column, a point; in
    /// EinStein a square and a direction as the side to move sees it).
    ///
    /// # Errors
    ///
    /// A game that numbers no actions ([`Game::action_count`]).
    pub fn legal_actions(&self) -> Result<Vec<usize>> {
        self.game.action_count()?;
        Ok(self.line.actions().expect("a game with an action count numbers its moves"))
    }

    /// The legal actions as a mask over the action space: `true` at each legal move's action.
    ///
    /// # Errors
    ///
    /// As [`State::legal_actions`].
    pub fn legal_action_mask(&self) -> Result<Vec<bool>> {
        let count = self.game.action_count()?;
        let mut mask = vec![false; count];
        for action in self.legal_actions()? {
            mask[action] = true;
        }
        Ok(mask)
    }

    /// Plays the move (or chance outcome) whose action is `action`.
    ///
    /// # Errors
    ///
    /// A game that numbers no actions, or an action of no legal move here (the message lists those that are);
    /// the state is unchanged.
    pub fn play_action(&mut self, action: usize) -> Result<()> {
        let actions = self.legal_actions()?;
        let Some(mv) = actions.iter().position(|&a| a == action) else {
            if actions.is_empty() {
                bail!("action {action}: the game is over");
            }
            let legal: Vec<String> = actions.iter().map(ToString::to_string).collect();
            bail!("action {action} is no legal move's here; the legal actions: {}", legal.join(", "));
        };
        self.play(mv)
    }

    /// The position as input planes ([`Game::observation_shape`]), plane by plane, each row by row from the top
    /// of the board (khela-zero's encodings, a network's input where the game has one): in tic-tac-toe and
    /// Connect-4 the side to move's pieces, the other side's, and a plane of ones when the first player is to
    /// move; in the Bagh-Chal family the tigers, the goats (a stack's height), a plane of ones when the goats
    /// move, and the goats in hand, captured and still to capture; in Pig the mover's score, the opponent's and
    /// the turn total as fractions of the goal, the die in the air, the first player to move; in EinStein the
    /// mover's cubes 1–6 and the opponent's a plane each, the die's face a plane each, the first player to move;
    /// in Dots and Boxes, on the grid of dots, edges and boxes, the edges drawn, the mover's boxes, the
    /// opponent's, the first player to move.
    ///
    /// # Errors
    ///
    /// A game without an encoding.
    pub fn observation(&self) -> Result<Vec<f32>> {
        self.game.observation_shape()?;
        Ok(self.line.observation().expect("a game with an observation's shape encodes its positions"))
    }

    /// `count` games played to their end from here by uniformly random moves (chance outcomes by their
    /// probabilities), seeded by `seed`, counted by who won; the state itself is unchanged.
    pub fn random_playouts(&self, count: u64, seed: u64) -> Playouts {
        self.line.playouts(count, seed)
    }
}
