//! Every move's exact value as `solve` shows it, whichever search found the values: the CSV rows
//! (`move,value,best`) and the table for people.

use crate::output;
use comfy_table::Table;
use khela_games::{Notation, Player, Value};
use serde::Serialize;

/// One move's value.
#[derive(Serialize)]
pub struct MoveRow {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value, from the first player's view.
    pub value: String,
    /// Whether it is a best move for the side to move.
    pub best: bool,
}

/// The rows of `values` (each move's value, MAX's view) for `mover`, the best marked, and the best value from
/// the mover's view.
pub fn rows<G: Notation>(game: &G, mover: Player, values: &[(G::Move, Value)]) -> (Vec<MoveRow>, Value) {
    let best = values.iter().map(|&(_, v)| mover.view(v)).fold(Value::NEG_INFINITY, Value::max);
    let rows = values
        .iter()
        .map(|&(mv, v)| MoveRow { mv: game.write_move(mv), value: output::value(v), best: mover.view(v) == best })
        .collect();
    (rows, best)
}

/// The rows as a table: move, value from the first player's view, best.
pub fn table<G: Notation>(game: &G, rows: &[MoveRow]) -> Table {
    let first = output::view_of(game.player_name(Player::Max));
    let mut table = output::table(&["move", &format!("value ({first})"), "best"]);
    for row in rows {
        table.add_row(vec![row.mv.clone(), row.value.clone(), if row.best { "best" } else { "" }.into()]);
    }
    table
}
