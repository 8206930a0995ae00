//! Bagh-Chal's notation (see the module documentation of [`super`]): positions read and written as one line,
//! moves named by their points, the board drawn for people, and the [`Notation`] the front ends use.

use super::{BaghChal, Move, ParseError, Position, ends};
use crate::{Notation, Player};

/// The notation's characters for a tiger and a goat.
const PIECES: [char; 2] = ['T', 'G'];

impl BaghChal {
    /// The position written `text` (see the module documentation).
    pub fn parse(&self, text: &str) -> Result<Position, ParseError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let example = self.write(&self.start);
        let [board, side, in_hand] = fields[..] else { return Err(ParseError::Fields(text.into(), example)) };
        let singles: String = board.chars().map(|c| if matches!(c, '2'..='9') { 'G' } else { c }).collect();
        let (tigers, goats) =
            self.board.read_pieces(&singles, PIECES).map_err(|e| ParseError::Board(text.into(), e))?;
        let mut position = Position { tigers, goats, ..Position::default() };
        let counts = |why: String| Err(ParseError::Counts(text.into(), why));
        let mut on_board = goats.count_ones();
        // The board was read, so its characters, without the `/`, are the points in order.
        for (c, p) in board.chars().filter(|&c| c != '/').zip(0u8..) {
            let Some(height) = c.to_digit(10) else { continue };
            let start = self.height(&self.start, p);
            if height > start {
                let most = if start > 1 { format!("the stack of {start} it starts with") } else { "one".to_string() };
                return counts(format!("{height} goats on {}: more than {most}", self.board.name(p)));
            }
            position.under |= (height - 1) << self.shift(p);
            on_board += height - 1;
        }
        position.goats_to_move = match side {
            "g" => true,
            "t" => false,
            _ => return Err(ParseError::Side(text.into(), side.into())),
        };
        position.in_hand = in_hand.parse().map_err(|_| ParseError::InHand(text.into(), in_hand.into()))?;
        if position.in_hand > self.hand {
            return counts(format!(
                "{} goats in hand, more than the {} the game starts with",
                position.in_hand, self.hand
            ));
        }
        let tigers = position.tigers.count_ones();
        if tigers != self.start.tigers.count_ones() {
            return counts(format!("{tigers} tigers, not {}", self.start.tigers.count_ones()));
        }
        let placed = on_board + u32::from(position.in_hand);
        if placed > u32::from(self.goats) {
            return counts(format!("{placed} goats on the board and in hand, more than {}", self.goats));
        }
        position.captured = self.goats - placed as u8;
        if position.captured > self.captures_to_win {
            return counts(format!("{} goats captured, past the {} that win", position.captured, self.captures_to_win));
        }
        if position.in_hand > 0 {
            let placed = self.hand - position.in_hand;
            let Some(most) = self.most_captured_while_placing(placed, position.goats_to_move) else {
                return counts("tigers to move before the first goat is placed: the goats move first".into());
            };
            if position.captured > most {
                let side = if position.goats_to_move { "goats" } else { "tigers" };
                let plural = if position.captured == 1 { "" } else { "s" };
                return counts(format!(
                    "{} goat{plural} captured, but with {placed} placed and {side} to move the tigers can have taken \
                     only {most}",
                    position.captured
                ));
            }
        }
        Ok(position)
    }

    /// The position in the notation.
    pub fn write(&self, position: &Position) -> String {
        let side = if position.goats_to_move { 'g' } else { 't' };
        let board = self.board.write_with(|p| self.symbol(position, p, '.'));
        format!("{board} {side} {}", position.in_hand)
    }

    /// The notation's character for point `p`: `T`, `G`, a stack's height, or `empty`.
    fn symbol(&self, s: &Position, p: u8, empty: char) -> char {
        match self.height(s, p) {
            _ if s.tigers & 1 << p != 0 => PIECES[0],
            0 => empty,
            1 => PIECES[1],
            n => char::from_digit(n, 10).expect("stacks of at most 9"),
        }
    }
}

impl Notation for BaghChal {
    type Error = ParseError;

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        self.parse(text)
    }

    /// The setup's start: `T...T/...../...../...../T...T g 20` for the standard game.
    fn start(&self) -> Option<&str> {
        Some(&self.start_text)
    }

    fn write_move(&self, mv: Move) -> String {
        let (from, to) = ends(mv);
        let Some(from) = from else { return self.board.name(to) };
        let sep = if self.board.adjacent(from) & 1 << to != 0 { '-' } else { 'x' };
        format!("{}{sep}{}", self.board.name(from), self.board.name(to))
    }

    /// The board with its lines (a stack drawn as its height), then the goats in hand and captured and the side
    /// to move.
    fn picture(&self, s: &Position) -> String {
        let side = if s.goats_to_move { "goats" } else { "tigers" };
        format!(
            "{}\ngoats in hand {}, captured {}; {side} to move",
            self.board.draw(|p| self.symbol(s, p, '·')),
            s.in_hand,
            s.captured
        )
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::Max => "goats",
            Player::Min => "tigers",
        }
    }
}
