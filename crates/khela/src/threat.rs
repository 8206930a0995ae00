//! Captures in sight: whether a move lets the opponent force the capture of one of the mover's pieces within a
//! few of its moves, or itself forces the capture of one of the opponent's — what a player of Bagh-Chal or
//! Sixteen Soldiers asks of a move ("the goats lose a goat within 3 moves"). An AND-OR search to a fixed number
//! of moves over the game's own rules, its cycle rules included (a position repeated, or the length cap, is a
//! draw, which no capture follows), exact within that horizon.

use crate::registry::Entry;
use khela_games::line::Line;
use khela_games::{Game, Node, Player};

/// The most moves of one side a threat is looked for within.
pub const MOST_MOVES: u32 = 3;

/// What a move lets happen to the pieces within [`MOST_MOVES`] moves of each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threat {
    /// The fewest of the opponent's moves within which it captures one of the mover's pieces after this move,
    /// whatever the mover replies; `None` if it cannot force one within [`MOST_MOVES`].
    pub loses_within: Option<u32>,
    /// The fewest of the mover's own moves, this one the first, within which it captures one of the opponent's
    /// pieces, whatever the opponent replies; `None` if it cannot force one within [`MOST_MOVES`].
    pub captures_within: Option<u32>,
}

/// The threats of move `mv` at the end of `line`, a decision node of `mover`, for a game with captures
/// ([`Entry::losses`]); `None` for a game without.
pub fn threat<E: Entry>(entry: &E, line: &Line<E::Game>, mover: Player, mv: <E::Game as Game>::Move) -> Option<Threat> {
    let (game, state) = (entry.game(), line.state());
    let before = entry.losses(state)?;
    let child = game.child(state, mv);
    let mut keys = line.history().to_vec();
    keys.push(game.repetition_key(state));
    let within = |attacker: Player, plies: &dyn Fn(u32) -> u32| {
        let victim = side(attacker.opponent());
        let watch = Watch { entry, attacker, victim, before: before[victim] };
        (1..=MOST_MOVES).find(|&moves| watch.forces(&child, &mut keys.clone(), plies(moves)))
    };
    Some(Threat {
        // The opponent's moves and the mover's replies between them: 2k − 1 plies after this move.
        loses_within: within(mover.opponent(), &|moves| 2 * moves - 1),
        // This move was the first of the mover's k: 2k − 2 plies after it.
        captures_within: within(mover, &|moves| 2 * moves - 2),
    })
}

/// The index of `player`'s losses in [`Entry::losses`].
fn side(player: Player) -> usize {
    usize::from(player == Player::Min)
}

/// A capture looked for: `attacker` taking one more of side `victim`'s pieces than its `before`.
struct Watch<'e, E> {
    entry: &'e E,
    attacker: Player,
    victim: usize,
    before: u32,
}

impl<E: Entry> Watch<'_, E> {
    /// Whether the attacker makes the capture within `plies` plies of `state`, reached after the positions
    /// `keys`, whatever the other side plays.
    fn forces(&self, state: &<E::Game as Game>::State, keys: &mut Vec<u64>, plies: u32) -> bool {
        let (entry, game) = (self.entry, self.entry.game());
        if entry.losses(state).is_some_and(|lost| lost[self.victim] > self.before) {
            return true;
        }
        let Node::Decision(player) = game.node(state) else { return false };
        let key = game.repetition_key(state);
        if plies == 0 || game.cycles().is_some_and(|cycles| cycles.draws(keys, key)) {
            return false;
        }
        let mut moves = Vec::new();
        game.moves(state, &mut moves);
        keys.push(key);
        let mut reply = |mv| self.forces(&game.child(state, mv), keys, plies - 1);
        let forced = if player == self.attacker {
            moves.into_iter().any(&mut reply)
        } else {
            !moves.is_empty() && moves.into_iter().all(reply)
        };
        keys.pop();
        forced
    }
}
