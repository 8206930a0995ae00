//! A line of play: a game as it is played from a position, move by move, with the history that the rules of a
//! game whose positions repeat ([`crate::Cycles`]) need, and the end they give it. What a front end that plays
//! games (the command line's `play` and `match`, later the Python bindings) keeps of a game.

use crate::{Game, Node, Value};

/// How a line of play ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum End {
    /// The game says it is over, with this payoff (MAX's view).
    Over(Value),
    /// The position repeats one earlier in the line: a draw.
    Repetition,
    /// The line has reached the game's maximum length: a draw.
    LengthCap,
}

impl End {
    /// The payoff, MAX's view: the game's, or 0 for a draw by the rules.
    pub fn payoff(self) -> Value {
        match self {
            End::Over(payoff) => payoff,
            End::Repetition | End::LengthCap => 0.0,
        }
    }
}

/// The positions of a game from its first one, the moves between them, and their keys.
///
/// ```
/// use khela_games::line::{End, Line};
/// use khela_games::tictactoe::{Board, TicTacToe};
///
/// let mut line = Line::new(&TicTacToe, Board::EMPTY);
/// for cell in [0, 3, 1, 4, 2] {
///     line.play(&TicTacToe, cell);
/// }
/// assert_eq!(line.end(&TicTacToe), Some(End::Over(1.0)));
/// assert_eq!(line.undo(), Some(2));
/// assert_eq!(line.end(&TicTacToe), None);
/// ```
#[derive(Debug)]
pub struct Line<G: Game> {
    states: Vec<G::State>,
    moves: Vec<G::Move>,
    keys: Vec<u64>,
}

// By hand: a derived `Clone` would ask the game itself to be `Clone`, which a line does not hold.
impl<G: Game> Clone for Line<G> {
    fn clone(&self) -> Self {
        Line { states: self.states.clone(), moves: self.moves.clone(), keys: self.keys.clone() }
    }
}

impl<G: Game> Line<G> {
    /// A line starting at `start`.
    pub fn new(game: &G, start: G::State) -> Self {
        let keys = vec![game.repetition_key(&start)];
        Line { states: vec![start], moves: Vec::new(), keys }
    }

    /// The current position.
    pub fn state(&self) -> &G::State {
        self.states.last().expect("a line has a first position")
    }

    /// The moves played.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The keys of the positions before the current one, first first: the history a search of the current
    /// position needs ([`crate::Cycles::draws`]).
    pub fn history(&self) -> &[u64] {
        &self.keys[..self.keys.len() - 1]
    }

    /// Plays `mv` (a legal move of the current position: the caller checks).
    pub fn play(&mut self, game: &G, mv: G::Move) {
        let next = game.child(self.state(), mv);
        self.keys.push(game.repetition_key(&next));
        self.states.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        self.states.pop();
        self.keys.pop();
        Some(mv)
    }

    /// How the line has ended, if it has: the game is over, or (in a game whose positions repeat) the current
    /// position repeats an earlier one or the line has reached the maximum length.
    pub fn end(&self, game: &G) -> Option<End> {
        if let Node::Terminal(payoff) = game.node(self.state()) {
            return Some(End::Over(payoff));
        }
        let cycles = game.cycles()?;
        let (before, key) = (self.history(), self.keys[self.keys.len() - 1]);
        if before.contains(&key) {
            Some(End::Repetition)
        } else if cycles.draws(before, key) {
            Some(End::LengthCap)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bagh_chal::BaghChal;
    use crate::{Cycles, Notation};

    #[test]
    fn repetitions_and_the_cap_end_a_line() {
        let game = BaghChal::standard();
        let text = "T.GGT/GG.GG/GGTGG/G.GGG/TGG.G t 0";
        let mut line = Line::new(&game, game.parse(text).unwrap());
        let mv = |line: &Line<BaghChal>, text: &str| {
            let mut moves = Vec::new();
            game.moves(line.state(), &mut moves);
            *moves.iter().find(|&&m| game.write_move(m) == text).unwrap()
        };
        for step in ["c3-c4", "e1-d1", "c4-c3", "d1-e1"] {
            assert_eq!(line.end(&game), None, "before {step}");
            let m = mv(&line, step);
            line.play(&game, m);
        }
        assert_eq!(line.end(&game), Some(End::Repetition));
        assert_eq!(line.history().len(), 4);
        line.undo();
        assert_eq!(line.end(&game), None);
        let capped = game.clone().with_max_length(3);
        assert_eq!(capped.cycles(), Some(Cycles { max_length: 3 }));
        assert_eq!(line.end(&capped), Some(End::LengthCap));
        assert_eq!(End::LengthCap.payoff(), 0.0);
    }
}
