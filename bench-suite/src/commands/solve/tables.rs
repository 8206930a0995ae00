//! `solve --tables DIR`: exact values from a game's tables — a position they hold (the endgame's, and Bagh-Chal's
//! placement phase where its layer tables are there too), or one whose every move leads into them, read from
//! them; a position a few moves before them searched exactly to them, every
//! position they hold a leaf with its exact value (rows `move,value,best`, as every exact solve writes them).

use super::moves;
use crate::games::Entry;
use crate::output::{self, OutArg, Sink};
use anyhow::{Result, anyhow, bail};
use indicatif::HumanCount;
use khela::known::Known;
use khela::verdict::Verdict;
use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::notation::plies as in_words;
use khela_games::settled::{Settle, Settled};
use khela_games::{Game, Node, Notation, Player, Value};
use khela_tt::{Replacement, Table};
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

/// `solve --tables`: every move's exact value from the tables in `dir` (the endgame's, and the placement phase's
/// where they are there), and the line of best play to the end.
pub fn solve<E: Entry>(
    entry: &E,
    known: &Known<E::Game>,
    dir: &Path,
    (text, state): (&str, &<E::Game as Game>::State),
    (out, limit): (&OutArg, Option<Duration>),
) -> Result<()> {
    let game = entry.game();
    let (Some(verdicts), Some((_, verdict))) = (known.verdicts(state)?, known.choice(state)?) else {
        return search(entry, known, dir, (text, state), (out, limit));
    };
    let mover = known.endgame.space.to_move(state);
    let rows: Vec<TableRow> = verdicts
        .iter()
        .map(|&(mv, v)| TableRow {
            mv: game.write_move(mv),
            value: output::value(mover.view(f64::from(v.sign()))),
            plies: v.plies(),
            best: v == verdict,
        })
        .collect();
    let (line, whole) = known.line(state)?;
    let line: Vec<String> = line.into_iter().map(|mv| game.write_move(mv)).collect();
    let unknown = verdicts.iter().any(|(_, v)| v.sign() != 0 && v.plies().is_none());
    Sink::new(out, None)?.emit(&rows, || {
        let (side, first) = (game.player_name(mover), output::view_of(game.player_name(Player::Max)));
        let mut table = output::table(&["move", &format!("value ({first})"), "plies to the end", "best"]);
        for (row, (_, v)) in rows.iter().zip(&verdicts) {
            let plies = match (v.plies(), v) {
                (Some(d), _) => d.to_string(),
                (None, Verdict::Draw) => "never".to_string(),
                (None, _) => "-".to_string(),
            };
            table.add_row(vec![row.mv.clone(), row.value.clone(), plies, if row.best { "best" } else { "" }.into()]);
        }
        let verdict = match verdict {
            Verdict::Win(Some(d)) => format!("{side} win in {}", in_words(u64::from(d))),
            Verdict::Loss(Some(d)) => format!("{side} lose in {}", in_words(u64::from(d))),
            Verdict::Win(None) => format!("{side} win"),
            Verdict::Loss(None) => format!("{side} lose"),
            Verdict::Draw => "a draw: neither side can force an end".to_string(),
        };
        let line = match (line.is_empty(), whole) {
            (true, true) => String::new(),
            (false, true) => format!("\nbest play: {}", line.join(" ")),
            (_, false) => format!(
                "\nbest play: {}… cut short: the tables in {} do not hold every move after it ({} missing: retro \
                 makes it)",
                line.iter().map(|mv| format!("{mv} ")).collect::<String>(),
                dir.display(),
                missing(known)
            ),
        };
        let note = if unknown {
            "\n(-: the placement phase's tables keep win, draw or loss, not the plies to the end)"
        } else {
            ""
        };
        format!("{}\n{side} to move: {verdict} (exact, from the tables){line}\n{table}{note}", game.picture(state))
    })
}

/// The table files `known` lacks, for a message: `captured-2.retro`, or `a table` where none is named.
fn missing<G: Game>(known: &Known<G>) -> String {
    let names: Vec<String> =
        known.missing.iter().filter_map(|f| f.file_name()).map(|n| n.to_string_lossy().into_owned()).collect();
    if names.is_empty() { "a table".to_string() } else { names.join(", ") }
}

/// How far past the time limit an estimate must be for the search to be refused up front rather than begun
/// under the limit: the estimates err long, by up to a hundred times on a variant of a smaller board, where the
/// search ends in seconds.
const HOPELESS: f64 = 1000.0;

/// The tables' values for a search, until a deadline: past it every position reads as settled (a draw), so that
/// the search unwinds at once and its values, thrown away, are not taken for the position's.
struct Until<'a, G: Game> {
    known: &'a Known<G>,
    until: Option<Instant>,
    /// Positions looked at since the clock was last read.
    looked: AtomicU64,
    /// Whether the deadline has passed.
    passed: AtomicBool,
}

impl<'a, G: Game> Until<'a, G> {
    /// Positions looked at between two readings of the clock (well under a millisecond's work).
    const BETWEEN_CLOCKS: u64 = 4_096;

    fn new(known: &'a Known<G>, until: Option<Instant>) -> Self {
        Until { known, until, looked: AtomicU64::new(0), passed: AtomicBool::new(false) }
    }
}

impl<G: Game> Settle<G> for Until<'_, G> {
    fn payoff(&self, state: &G::State) -> Option<Value> {
        if let Some(until) = self.until
            && self.looked.fetch_add(1, Ordering::Relaxed).is_multiple_of(Self::BETWEEN_CLOCKS)
            && Instant::now() >= until
        {
            self.passed.store(true, Ordering::Relaxed);
        }
        if self.passed.load(Ordering::Relaxed) { Some(0.0) } else { self.known.payoff(state) }
    }
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
    if let Some(file) = known.missing_file(state) {
        bail!(
            "{} position {text:?} is one the table {} holds, which is missing (retro --out {} makes it)",
            entry.title(),
            file.display(),
            dir.display()
        );
    }
    let Some(plies) = (known.endgame.plies_to)(state) else {
        bail!(
            "{} position {text:?} is outside the endgame the tables in {} hold ({}), and no number of moves is sure \
             to reach it: an exact search cannot end (--depth D searches to a depth, stopping at the tables)",
            entry.title(),
            dir.display(),
            known.endgame.about
        );
    };
    if plies == 0 {
        bail!(
            "{} position {text:?} is in the endgame the tables in {} hold ({}), but some of its moves lead to \
             positions no table there holds: {} missing (retro --out {} makes it)",
            entry.title(),
            dir.display(),
            known.endgame.about,
            missing(known),
            dir.display()
        );
    }
    let estimate = (known.endgame.seconds_to)(plies);
    let before = |took: String| {
        anyhow!(
            "{} position {text:?} lies up to {} before the endgame the tables in {} hold ({}): an exact \
             search to them {took} (a longer --time-limit or --force runs it; --depth D searches to a depth, \
             stopping at the tables)",
            entry.title(),
            in_words(u64::from(plies)),
            dir.display(),
            known.endgame.about,
        )
    };
    let shown = |limit: Duration| humantime::format_duration(limit);
    if let Some(limit) = limit.filter(|limit| estimate > HOPELESS * limit.as_secs_f64()) {
        let about = shown(Duration::from_secs_f64(estimate.min(1e12)));
        return Err(before(format!("would take about {about} here, past the limit of {}", shown(limit))));
    }
    let Node::Decision(mover) = game.node(state) else { bail!("the position is a chance node; solve values moves") };
    // A limit past what the clock can count is none.
    let until = Until::new(known, limit.and_then(|limit| Instant::now().checked_add(limit)));
    let settled = Settled::new(game, Some(&until as &dyn Settle<E::Game>));
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
    if let Some(limit) = limit.filter(|_| until.passed.load(Ordering::Relaxed)) {
        let (limit, nodes) = (shown(limit), HumanCount(nodes));
        return Err(before(format!("was stopped at the limit of {limit}, {nodes} nodes searched")));
    }
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
            "{}\n{side} to move: {verdict} (exact: searched {} to the tables, {} nodes, {seconds:.2} s)\n{table}",
            game.picture(state),
            in_words(u64::from(plies)),
            HumanCount(nodes)
        )
    })
}
