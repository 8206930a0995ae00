//! `match --judge FILE`: each player's moves held against the exact tables of the whole game — of the positions
//! it chose a move in itself (the tables play every player's move in the endgame), how many were won, drawn or
//! lost, and how many wins and draws its move threw away — a row per player and side, over the match's games.

use anyhow::{Context, Result};
use khela::known::Known;
use khela_games::{Game, Node, Player};
use serde::Serialize;

/// One player's moves in one game, judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// Moves made in won positions.
    pub won: u64,
    /// Of those, moves to a draw or a loss.
    pub wins_thrown: u64,
    /// Moves made in drawn positions.
    pub drawn: u64,
    /// Of those, moves to a loss.
    pub draws_thrown: u64,
    /// Moves made in lost positions.
    pub lost: u64,
}

impl Judged {
    /// The five counts, in the order of the checkpoint's fields.
    pub fn fields(&self) -> [u64; 5] {
        [self.won, self.wins_thrown, self.drawn, self.draws_thrown, self.lost]
    }

    /// The counts from [`Judged::fields`]' order.
    pub fn from_fields([won, wins_thrown, drawn, draws_thrown, lost]: [u64; 5]) -> Judged {
        Judged { won, wins_thrown, drawn, draws_thrown, lost }
    }

    fn add(&mut self, other: &Judged) {
        for (mine, theirs) in [
            (&mut self.won, other.won),
            (&mut self.wins_thrown, other.wins_thrown),
            (&mut self.drawn, other.drawn),
            (&mut self.draws_thrown, other.draws_thrown),
            (&mut self.lost, other.lost),
        ] {
            *mine += theirs;
        }
    }
}

/// Judges the moves `moves` played from `from`, the first player's by `seat[0]` (0: A, 1: B) and the second's by
/// `seat[1]`: each decision the player made itself (where the endgame's tables did not choose for it), by the
/// value of the position and of the position its move leads to. Counts for A, then B.
///
/// # Errors
///
/// The tables cannot be read, or do not value a position of the game.
pub fn judge<G: Game>(
    game: &G,
    known: &Known<G>,
    from: &G::State,
    moves: &[G::Move],
    seat: [usize; 2],
) -> Result<[Judged; 2]> {
    let mut judged = [Judged::default(); 2];
    let mut state = from.clone();
    for &mv in moves {
        if let Node::Decision(mover) = game.node(&state)
            && known.best(&state).is_none()
        {
            let unheld = || format!("the tables do not value every move of {state:?}");
            let verdicts = known.verdicts(&state)?.with_context(unheld)?;
            let best = verdicts.iter().map(|(_, v)| v.sign()).max().with_context(unheld)?;
            let chosen = verdicts.iter().find(|(m, _)| *m == mv).map(|(_, v)| v.sign()).with_context(unheld)?;
            let j = &mut judged[seat[usize::from(mover == Player::Min)]];
            match best {
                1 => (j.won, j.wins_thrown) = (j.won + 1, j.wins_thrown + u64::from(chosen < 1)),
                0 => (j.drawn, j.draws_thrown) = (j.drawn + 1, j.draws_thrown + u64::from(chosen < 0)),
                _ => j.lost += 1,
            }
        }
        game.play(&mut state, mv);
    }
    Ok(judged)
}

/// A game's players (A, B, by their places among the players), whether A moved first, and A's and B's moves
/// judged.
pub type JudgedGame<'a> = ([usize; 2], bool, Option<&'a [Judged; 2]>);

/// A row of `--judge`: one player on one side, over the games of every pairing it played.
#[derive(Debug, Serialize)]
pub struct Row {
    player: String,
    side: String,
    games: u64,
    judged_moves: u64,
    won: u64,
    wins_thrown: u64,
    drawn: u64,
    draws_thrown: u64,
    lost: u64,
    /// The moves that threw a value away, of those that could (in won and drawn positions).
    thrown_share: String,
}

/// The rows of `--judge`: for each player (by name) and side (by name, the first player's first), its games'
/// counts summed; `games` gives each game's players (A, B), whether A moved first, and its moves judged (A's,
/// B's).
pub fn rows(players: &[String], sides: [&str; 2], games: &[JudgedGame<'_>]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (i, player) in players.iter().enumerate() {
        for (s, side) in sides.iter().enumerate() {
            let (mut total, mut count) = (Judged::default(), 0);
            for &(pair, a_first, judged) in games {
                let Some(judged) = judged else { continue };
                // The seat (A 0, B 1) player i held, if it played this game on side s.
                let seat = (0..2).find(|&k| pair[k] == i && (k == 0) == (a_first == (s == 0)));
                if let Some(k) = seat {
                    total.add(&judged[k]);
                    count += 1;
                }
            }
            let could = total.won + total.drawn;
            let share = (total.wins_thrown + total.draws_thrown) as f64 / could.max(1) as f64;
            rows.push(Row {
                player: player.clone(),
                side: (*side).to_string(),
                games: count,
                judged_moves: could + total.lost,
                won: total.won,
                wins_thrown: total.wins_thrown,
                drawn: total.drawn,
                draws_thrown: total.draws_thrown,
                lost: total.lost,
                thrown_share: if could == 0 { String::new() } else { format!("{share:.4}") },
            });
        }
    }
    rows
}

/// The rows as a table, for the terminal.
pub fn table(rows: &[Row]) -> String {
    let mut table = crate::output::table(&[
        "player",
        "side",
        "games",
        "moves judged",
        "won",
        "wins thrown",
        "drawn",
        "draws thrown",
        "lost",
        "thrown",
    ]);
    for r in rows {
        table.add_row(vec![
            r.player.clone(),
            r.side.clone(),
            r.games.to_string(),
            r.judged_moves.to_string(),
            r.won.to_string(),
            r.wins_thrown.to_string(),
            r.drawn.to_string(),
            r.draws_thrown.to_string(),
            r.lost.to_string(),
            r.thrown_share.clone(),
        ]);
    }
    table.to_string()
}
