//! `solve --tables DIR`: exact values from a game's endgame tables — a position they hold, or one whose every
//! move leads into them, read from them; a position a few moves before them searched exactly to them, every
//! position they hold a leaf with its exact value (rows `move,value,best`, as every exact solve writes them).

use super::moves;
use crate::games::Entry;
use crate::output::{self, OutArg, Sink};
use anyhow::{Result, bail};
use indicatif::HumanCount;
use khela::known::Known;
use khela_exact::retro::{self, Outcome};
use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::settled::{Settle, Settled};
use khela_games::{Game, Node, Notation, Player, Value};
use khela_tt::{Replacement, Table};
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

/// One move's outcome from the tables.
#[derive(Serialize)]
struct TableRow {
    #[serde(rename = "move")]
    mv: String,
    value: String,
    plies: Option<u32>,
    best: bool,
}

/// `solve --tables`: every move's exact outcome from the tables of the game's endgame in `dir`, and the line of
/// best play to the end.
pub fn solve<E: Entry>(
    entry: &E,
    known: &Known<E::Game>,
    dir: &Path,
    (text, state): (&str, &<E::Game as Game>::State),
    (out, limit): (&OutArg, Option<Duration>),
) -> Result<()> {
    let game = entry.game();
    let (endgame, table) = (&known.endgame, &known.table);
    let space = &*endgame.space;
    let (Some(outcomes), Some((_, outcome))) = (known.moves(state), known.best(state)) else {
        return search(entry, known, dir, (text, state), (out, limit));
    };
    let mover = space.to_move(state);
    let max_view = |o: Outcome| match o {
        Outcome::Win(_) => mover.view(1.0),
        Outcome::Loss(_) => mover.view(-1.0),
        Outcome::Draw => 0.0,
    };
    let plies = |o: Outcome| match o {
        Outcome::Win(d) | Outcome::Loss(d) => Some(d),
        Outcome::Draw => None,
    };
    let rows: Vec<TableRow> = outcomes
        .iter()
        .map(|&(mv, o)| TableRow {
            mv: game.write_move(mv),
            value: output::value(max_view(o)),
            plies: plies(o),
            best: o == outcome,
        })
        .collect();
    let line: Vec<String> = retro::line(space, table, state).into_iter().map(|mv| game.write_move(mv)).collect();
    Sink::new(out, None)?.emit(&rows, || {
        let (side, first) = (game.player_name(mover), output::view_of(game.player_name(Player::Max)));
        let mut table = output::table(&["move", &format!("value ({first})"), "plies to the end", "best"]);
        for row in &rows {
            let plies = row.plies.map_or("never".to_string(), |d| d.to_string());
            table.add_row(vec![row.mv.clone(), row.value.clone(), plies, if row.best { "best" } else { "" }.into()]);
        }
        let verdict = match outcome {
            Outcome::Win(d) => format!("{side} win in {d} plies"),
            Outcome::Loss(d) => format!("{side} lose in {d} plies"),
            Outcome::Draw => "a draw: neither side can force an end".to_string(),
        };
        let line = if line.is_empty() { String::new() } else { format!("\nbest play: {}", line.join(" ")) };
        format!("{}\n{side} to move: {verdict} (exact, from the tables){line}\n{table}", game.picture(state))
    })
}

/// The table for the exact search to the tables, in MiB.
const TABLE_MIB: usize = 256;

/// `solve --tables` a few plies before the tables: every move's exact value by alpha-beta (with a
/// transposition table) through the game whose positions the tables hold are settled.
fn search<E: Entry>(
    entry: &E,
    known: &Known<E::Game>,
    dir: &Path,
    (text, state): (&str, &<E::Game as Game>::State),
    (out, limit): (&OutArg, Option<Duration>),
) -> Result<()> {
    let game = entry.game();
    let Some(plies) = (known.endgame.plies_to)(state) else {
        bail!(
            "{} position {text:?} is outside the endgame the tables in {} hold ({}), and no number of moves is sure \
             to reach it: an exact search cannot end (--depth D searches to a depth, stopping at the tables)",
            entry.title(),
            dir.display(),
            known.endgame.about
        );
    };
    let estimate = (known.endgame.seconds_to)(plies);
    if let Some(limit) = limit.filter(|limit| estimate > limit.as_secs_f64()) {
        bail!(
            "{} position {text:?} lies up to {plies} plies before the endgame the tables in {} hold ({}): an exact \
             search to them would take about {} here, over the limit of {} (a longer --time-limit or --force runs it; --depth D searches to \
             a depth, stopping at the tables)",
            entry.title(),
            dir.display(),
            known.endgame.about,
            humantime::format_duration(Duration::from_secs(estimate.min(1e12) as u64)),
            humantime::format_duration(limit)
        );
    }
    let Node::Decision(mover) = game.node(state) else { bail!("the position is a chance node; solve values moves") };
    let settled = Settled::new(game, Some(known as &dyn Settle<E::Game>));
    let mut searcher = Searcher::new(&settled, Natural).with_cache(Table::with_mib(TABLE_MIB, Replacement::TwoTier));
    let started = Instant::now();
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    let mut nodes = 0;
    let values: Vec<(_, Value)> = moves
        .iter()
        .map(|&mv| {
            // Every line reaches the tables (or ends) within `plies`: no leaf at this depth is left unsettled.
            let result = searcher.run_to_depth(Algorithm::AlphaBeta, &game.child(state, mv), plies - 1);
            nodes += result.stats.nodes;
            (mv, result.value)
        })
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    let (rows, best) = moves::rows(game, mover, &values);
    Sink::new(out, None)?.emit(&rows, || {
        let side = game.player_name(mover);
        let table = moves::table(game, &rows);
        let verdict = match best {
            b if b > 0.0 => format!("{side} win"),
            b if b < 0.0 => format!("{side} lose"),
            _ => "a draw".to_string(),
        };
        format!(
            "{}\n{side} to move: {verdict} (exact: searched {plies} plies to the tables, {} nodes, {seconds:.2} s)\n{table}",
            game.picture(state),
            HumanCount(nodes)
        )
    })
}
