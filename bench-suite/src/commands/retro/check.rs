//! `retro --phase placement --check N`: the placement phase's tables checked by an independent search. N
//! positions are drawn from the layers (as many from each, by a seed), and each is valued again by `prove`'s
//! AND/OR search down to the sliding phase's tables ([`khela_exact::prove`]: do the goats hold a draw? do they
//! win?), which never reads the placement tables; where the search decides within its budget of nodes, its value
//! must be the tables'. The budget is counted in nodes, not seconds, and each search runs on one thread, so the
//! same command decides the same positions on any machine and any number of threads. Each position checked is
//! kept in `placement-check.csv.positions` as it is done ([`crate::checkpoint`]): a run stopped resumes there.

use crate::checkpoint::{self, Checkpoint};
use crate::games::Entry;
use crate::interrupt;
use crate::machine::Sidecar;
use crate::output::{self, Disagreed};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use indicatif::HumanCount;
use khela::known::Known;
use khela::layers::Placement;
use khela_exact::layered::bagh_chal::{Layer, Solver};
use khela_exact::prove::{Claim, ProveError, Prover, Verdict};
use khela_exact::{ByValue, Estimate, Orderer};
use khela_games::rng::splitmix64;
use khela_games::settled::{Settle, Settled, Through};
use khela_games::{Game, Notation, Player, Space};
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The check's file in the tables' directory.
pub const CHECKED: &str = "placement-check.csv";

/// The nodes a proof search may visit for one claim about one position: about a second on the book's machine.
pub const NODES: u64 = 1 << 20;

/// One position checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Row {
    placed: u8,
    to_move: &'static str,
    position: String,
    /// Who wins with best play by the tables: goats, tigers or draw.
    tables: &'static str,
    /// Who wins by the proof search, or `undecided` where it ran out of nodes.
    prove: &'static str,
    nodes: u64,
}

/// A position checked, as the checkpoint keeps it: its place in the draw, and its row.
struct Checked(usize, Row);

impl checkpoint::Row for Checked {
    type Key = usize;

    fn key(&self) -> usize {
        self.0
    }

    fn line(&self) -> String {
        let Checked(i, r) = self;
        format!("{i},{},{},{},{},{},{}", r.placed, r.to_move, r.position, r.tables, r.prove, r.nodes)
    }

    fn parse(line: &str) -> Option<Checked> {
        let [i, placed, to_move, position, tables, prove, nodes] = line.split(',').collect::<Vec<_>>()[..] else {
            return None;
        };
        let word = |w: &str| ["goats", "tigers", "draw", UNDECIDED].into_iter().find(|&k| k == w);
        let row = Row {
            placed: placed.parse().ok()?,
            to_move: side(word(to_move)? == "goats"),
            position: position.to_string(),
            tables: word(tables)?,
            prove: word(prove)?,
            nodes: nodes.parse().ok()?,
        };
        Some(Checked(i.parse().ok()?, row))
    }
}

/// What `--check` is asked.
pub(super) struct Check<'a> {
    /// The game's name, as the tables' files give it.
    pub name: &'a str,
    /// Its rules, as the tables' files give them.
    pub rules: &'a str,
    /// The directory of the tables.
    pub dir: &'a Path,
    /// The positions to draw.
    pub positions: u64,
    /// The seed of the draw.
    pub seed: u64,
    /// The threads: searches run side by side, one thread each.
    pub threads: usize,
}

/// Runs the check (see the module documentation) on the tables of `placement`, the entry's placement phase.
pub(super) fn run<E: Entry>(entry: &E, placement: &Placement, check: &Check<'_>) -> Result<()> {
    let known = Known::load(entry, check.name, check.dir, "retro --check")?;
    if known.before.is_none() {
        bail!(
            "retro --check: {} holds no placement tables; `retro --game {} --phase placement --out {}` makes them",
            check.dir.display(),
            check.name,
            check.dir.display()
        );
    }
    let Some(scale) = entry.scale() else { bail!("retro --check: {} has no evaluator to order moves", entry.title()) };
    let game = entry.game();
    let space = &placement.space;
    // The layers' numbers cover every arrangement; play reaches only those with no more goats captured than
    // the tigers have had moves (none before the first goat), so the draw keeps to them.
    let most = |layer: &Layer| placement.game.most_captured_while_placing(layer.placed, layer.goats_to_move);
    let layers: Vec<_> = Solver::new(space).layers().iter().filter(|&l| most(l).is_some()).cloned().collect();
    // As many positions from each layer (the first layers one more, for the remainder), each number drawn
    // until it stands for a position that play reaches.
    let mut drawn = Vec::new();
    for (k, layer) in layers.iter().enumerate() {
        let count =
            check.positions / layers.len() as u64 + u64::from((k as u64) < check.positions % layers.len() as u64);
        let len = layer.numbers.end - layer.numbers.start;
        for i in 0..count {
            let mut draw = splitmix64(check.seed ^ (k as u64) << 48 ^ i);
            let position = loop {
                if let Some(position) = space.position(layer.numbers.start + draw % len)
                    && most(layer).is_some_and(|m| position.captured <= m)
                {
                    break position;
                }
                draw = splitmix64(draw);
            };
            let text = placement.game.write(&position);
            let state = game.parse_position(&text).with_context(|| format!("the position {text:?}"))?;
            drawn.push((layer.placed, layer.goats_to_move, text, state));
        }
    }
    let settled = Settled::new(game, Some(&known as &dyn Settle<E::Game>));
    let through = Through(&scale.evaluator);
    let order = ByValue::best_first(Estimate(&through));
    let total = drawn.len() as u64;

    let started = Instant::now();
    let path = check.dir.join(CHECKED);
    let kept = Checkpoint::<Checked>::open(
        &path,
        "positions",
        "retro --check",
        &format!(
            // `reached`: drawn from the positions play reaches (an older checkpoint drew others at the same seed).
            "game={} rules={} positions={} seed={} nodes={NODES} reached",
            check.name, check.rules, check.positions, check.seed
        ),
    )?;
    let before = kept.done.len() as u64;
    if before > 0 {
        eprintln!("resuming: {before} of {total} positions from {}", kept.path().display());
    }
    let progress = Progress::new("retro check", total, before);
    let done = AtomicU64::new(before);
    interrupt::on_ctrl_c(format!(
        "retro --check: interrupted; the positions checked are kept in {}, and the same command resumes",
        kept.path().display()
    ))?;
    let workers = check.threads.max(1);
    let rows: Vec<Result<Row>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (drawn, known, settled, order, done, progress, kept) =
                    (&drawn, &known, &settled, &order, &done, &progress, &kept);
                scope.spawn(move || -> Result<Vec<(usize, Row)>> {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
                    let mut rows = Vec::new();
                    for (i, (placed, goats, text, state)) in drawn.iter().enumerate().skip(w).step_by(workers) {
                        interrupt::check()?;
                        if let Some(Checked(_, row)) = kept.done.get(&i) {
                            rows.push((i, row.clone()));
                            continue;
                        }
                        let verdict = known.verdict(state)?.with_context(|| format!("the tables miss {text:?}"))?;
                        let mover = if *goats { Player::Max } else { Player::Min };
                        let tables = winner(mover.view(f64::from(verdict.sign())));
                        let plies = (known.endgame.plies_to)(state).context("a placement position")? + 1;
                        let (prove, nodes) = pool.install(|| proved(settled, order.clone(), state, plies));
                        let row = Row {
                            placed: *placed,
                            to_move: side(*goats),
                            position: text.clone(),
                            tables,
                            prove,
                            nodes,
                        };
                        kept.keep(&Checked(i, row.clone()))?;
                        rows.push((i, row));
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        progress.update(n, total, || format!("{n}/{total} positions"));
                    }
                    Ok(rows)
                })
            })
            .collect();
        let mut rows: Vec<Option<Result<Row>>> = (0..drawn.len()).map(|_| None).collect();
        for handle in handles {
            match handle.join().expect("a check worker does not panic") {
                Ok(done) => done.into_iter().for_each(|(i, row)| rows[i] = Some(Ok(row))),
                Err(err) => rows.push(Some(Err(err))),
            }
        }
        rows.into_iter().flatten().collect()
    });
    progress.finish();
    let rows: Vec<Row> = rows.into_iter().collect::<Result<_>>()?;
    let seconds = started.elapsed().as_secs_f64();
    let decided: Vec<&Row> = rows.iter().filter(|r| r.prove != UNDECIDED).collect();
    let disagree: Vec<&&Row> = decided.iter().filter(|r| r.prove != r.tables).collect();
    output::write_csv_atomically(&path, &rows)?;
    let figures = serde_json::json!({
        "positions": total, "seed": check.seed, "nodes_a_claim": NODES, "decided": decided.len(),
        "disagree": disagree.len(), "threads": workers, "seconds": seconds,
    });
    Sidecar::now().write(&path, &figures)?;
    kept.remove()?;
    if let Some(first) = disagree.first() {
        return Err(Disagreed(format!(
            "retro --check: {} of {} positions decided by the proof search disagree with the tables, the first {} \
             (tables: {}, prove: {}); see {}",
            disagree.len(),
            decided.len(),
            first.position,
            first.tables,
            first.prove,
            path.display()
        ))
        .into());
    }
    output::say(format!(
        "retro --check: {} positions drawn from the {} layers play reaches (seed {}); {} decided by the proof search within {} \
         nodes a claim, every one as the tables value it; {} undecided; {seconds:.1} s on {workers} thread(s)\nwrote {}",
        HumanCount(total),
        layers.len(),
        check.seed,
        HumanCount(decided.len() as u64),
        HumanCount(NODES),
        HumanCount((rows.len() - decided.len()) as u64),
        path.display()
    ))
}

/// The proof search's value of `state`, `plies` at most from the end, in `settled` (the game whose sliding
/// phase the tables settle): who wins, by claiming the goats' draw, then (if it holds) their win; `undecided`
/// where a search runs out of nodes. With the nodes the searches took.
fn proved<S, O>(settled: &S, order: O, state: &S::State, plies: u32) -> (&'static str, u64)
where
    S: Game<State: Send + Sync, Move: Send + Sync> + Sync,
    O: Orderer<S> + Clone + Send + Sync,
{
    let mut nodes = 0;
    let mut claim = |win: bool| -> Option<bool> {
        // The goats move first: they are the first player.
        let mut prover = Prover::new(settled, Claim { side: Player::Max, win }, order.clone()).with_tick(TICK);
        let verdict = prover.prove(state, plies, &|p: &Prover<'_, S, O>| p.nodes() < NODES);
        nodes += prover.nodes();
        match verdict {
            Ok(Verdict::Proven) => Some(true),
            Ok(Verdict::Refuted) => Some(false),
            Ok(Verdict::NotProven) | Err(ProveError::Stopped | ProveError::TooDeep(_) | ProveError::Chance) => None,
        }
    };
    let value = match claim(false) {
        None => UNDECIDED,
        Some(false) => "tigers",
        Some(true) => match claim(true) {
            None => UNDECIDED,
            Some(true) => "goats",
            Some(false) => "draw",
        },
    };
    (value, nodes)
}

/// Who wins, from the goats' view of the payoff.
fn winner(goats: f64) -> &'static str {
    match goats {
        v if v > 0.0 => "goats",
        v if v < 0.0 => "tigers",
        _ => "draw",
    }
}

/// A side to move, in words.
fn side(goats: bool) -> &'static str {
    if goats { "goats" } else { "tigers" }
}

/// A position the proof search left undecided.
const UNDECIDED: &str = "undecided";

/// How often a search checks its budget, in nodes.
const TICK: u64 = 1 << 12;
