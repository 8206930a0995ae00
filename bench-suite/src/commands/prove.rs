//! `prove`: proves or refutes a claim about a position — "the goats hold at least a draw" — by an AND/OR search
//! to the game's endgame tables (`khela_exact::prove`), optionally with a heuristic player for the claimant (its
//! best few moves a turn by the game's evaluator), and reports the proof's size. Long proofs save the positions
//! decided to a checkpoint every minute and resume from it.

use crate::args::{self, Threads};
use crate::games::{self, Capability, Entry, GameArgs, Visit};
use crate::interrupt;
use crate::machine::{self, Sidecar};
use crate::output::{self, Metric, OutArg, Sink};
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::HumanCount;
use khela::known::Known;
use khela_exact::prove::{Claim, ProveError, Prover, Verdict};
use khela_exact::{ByValue, Estimate};
use khela_games::settled::{Settle, Settled, Through};
use khela_games::{Notation, Player};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a long proof saves its checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// The bytes a decided position takes in the search's table, about (a key, its verdict, the map's slack), as
/// measured and rounded up (see docs/src/measured-choices.md, 'The harness').
const BYTES_PER_DECIDED: u64 = 40;

/// Options of `prove`.
#[derive(Debug, Args)]
pub struct ProveArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game: GameArgs,
    /// The claim: SIDE:draw (at least a draw) or SIDE:win, the side as the game names its players (goats or
    /// tigers; X or O).
    #[arg(long)]
    pub claim: String,
    /// The endgame tables (`retro --out DIR`) whose positions end the search with their exact values.
    #[arg(long, value_name = "DIR")]
    pub tables: PathBuf,
    /// Search only the claimant's K best moves a turn, by the game's evaluator one ply ahead (a heuristic
    /// player): a claim that fails is then not refuted, only not proven [default: every move].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub moves: Option<u64>,
    /// Keep in the table of decided positions only those at least N plies before the end of the search: the
    /// many positions nearer the end are quick to search again, and the table (and the checkpoint) shrinks
    /// several times over.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub keep: u32,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: Threads,
    /// Save the positions decided to FILE every minute, and resume from it when it exists (for the same
    /// game, rules, position, claim and --moves).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub out: OutArg,
}

/// Runs `prove`.
pub fn run(args: &ProveArgs) -> Result<()> {
    games::visit(&args.game, Prove(args))?
}

struct Prove<'a>(&'a ProveArgs);

impl Visit for Prove<'_> {
    type Output = Result<()>;

    fn visit<E: Entry>(self, entry: E) -> Result<()> {
        let args = self.0;
        let claim = claim(&entry, &args.claim)?;
        let Some(scale) = entry.scale() else {
            return Err(games::refuse("prove", &args.game.game, Capability::Evaluator));
        };
        let known = Known::load(&entry, args.game.game.name.into(), &args.tables, "prove")?;
        let (text, state) = games::position(&entry, &args.game, Some("prove"))?;
        let Some(plies) = (known.endgame.plies_to)(&state) else {
            bail!(
                "prove: {} position {text:?} lies no known number of plies before the endgame the tables hold ({}): \
                 no proof search is sure to end",
                entry.title(),
                known.endgame.about
            );
        };
        let sink = Sink::new(&args.out, None)?;
        if let Some(path) = &args.checkpoint {
            output::writable(path)?;
        }
        let game = entry.game();
        let settled = Settled::new(game, Some(&known as &dyn Settle<E::Game>));
        let through = Through(&scale.evaluator);
        let order = ByValue::best_first(Estimate(&through));
        let width = args.moves.map(|k| k as usize);
        let claim_text = format!("{}:{}", game.player_name(claim.side), if claim.win { "win" } else { "draw" });
        let header =
            checkpoint_header(&args.game.game.name.to_string(), &known.endgame.rules, &text, &claim_text, width);
        let saved = match &args.checkpoint {
            Some(path) if path.exists() => read_checkpoint(path, &header)?,
            _ => Vec::new(),
        };
        let resumed = saved.len() as u64;
        let mut prover =
            Prover::new(&settled, claim, order).with_width(width).keeping_above(args.keep).with_decided(saved);
        // Half the memory for the table, leaving room for its growth and for writing the checkpoint.
        let memory = machine::memory_bytes().unwrap_or(u64::MAX) / 2;
        let threads = args.threads.count();
        let pool = args::pool(threads)?;
        let progress = Progress::stages("prove", 1);
        let started = Instant::now();
        // Every thread ticks; one at a time saves the checkpoint, and the first failure stops them all.
        let saved_at = Mutex::new(Instant::now());
        let failure = Mutex::new(None);
        let fail = |err: anyhow::Error| {
            if let Ok(mut first) = failure.lock() {
                first.get_or_insert(err);
            }
            false
        };
        // Ctrl-C stops the threads at their next tick, and the checkpoint is written below before the end.
        interrupt::stop_on_ctrl_c()?;
        let tick = |p: &Prover<_, _>| {
            if interrupt::requested() {
                return false;
            }
            let decided = p.decided_count() as u64;
            progress.update(0, 1, || {
                let rate = p.nodes() as f64 / started.elapsed().as_secs_f64().max(1e-9);
                format!("{} nodes, {} decided, {:.0} nodes/s", HumanCount(p.nodes()), HumanCount(decided), rate)
            });
            if let (Some(path), Ok(mut at)) = (args.checkpoint.as_deref(), saved_at.try_lock())
                && at.elapsed() >= CHECKPOINT_EVERY
            {
                *at = Instant::now();
                if let Err(err) = write_checkpoint(path, &header, &p.decided()) {
                    return fail(err);
                }
            }
            if decided * BYTES_PER_DECIDED > memory {
                let kept = if args.checkpoint.is_some() { "; the checkpoint keeps them" } else { "" };
                return fail(anyhow::anyhow!(
                    "prove: {} positions decided fill half this machine's memory: the proof needs a larger one{kept}",
                    HumanCount(decided)
                ));
            }
            true
        };
        // A line is at most `plies` long to the tables, and one more ply ends it.
        let verdict = pool.install(|| prover.prove(&state, plies + 1, &tick));
        progress.finish();
        let seconds = started.elapsed().as_secs_f64();
        if let Some(path) = &args.checkpoint {
            write_checkpoint(path, &header, &prover.decided())?;
        }
        let verdict = match verdict {
            // A failure recorded by a thread (memory, a checkpoint not written) comes first, Ctrl-C or not.
            Err(ProveError::Stopped) if interrupt::requested() && failure.lock().is_ok_and(|f| f.is_none()) => {
                let kept = match &args.checkpoint {
                    Some(path) => format!(
                        "{} positions decided are kept in {}: the same command resumes",
                        HumanCount(prover.decided_count() as u64),
                        path.display()
                    ),
                    None => "nothing was kept (--checkpoint FILE keeps what a proof has decided)".to_string(),
                };
                return Err(anyhow::Error::new(interrupt::Interrupted).context(format!("prove: interrupted; {kept}")));
            }
            Err(ProveError::Stopped) => {
                let failure = failure.into_inner().ok().flatten();
                return Err(failure.unwrap_or_else(|| anyhow::anyhow!("prove: stopped")));
            }
            Err(err) => bail!("prove: {err}"),
            Ok(verdict) => verdict,
        };
        let (nodes, decided) = (prover.nodes(), prover.decided_count() as u64);
        // Measuring the proof searches again the positions the table does not keep: after the counts.
        let size = (verdict != Verdict::NotProven).then(|| pool.install(|| prover.size(&state))).flatten();
        let side = game.player_name(claim.side);
        let said = match verdict {
            Verdict::Proven => "proven",
            Verdict::Refuted => "refuted",
            Verdict::NotProven => "not proven (the claimant's moves searched do not keep it; others might)",
        };
        let rows = [
            ("claim", claim_text),
            ("verdict", verdict_name(verdict).to_string()),
            ("moves", width.map_or("all".to_string(), |w| w.to_string())),
            ("plies_to_tables", plies.to_string()),
            ("nodes", nodes.to_string()),
            ("decided", decided.to_string()),
            ("resumed", resumed.to_string()),
            ("proof_positions", size.map_or(String::new(), |s| s.positions.to_string())),
            ("proof_tree", size.map_or(String::new(), |s| format!("{:.0}", s.tree))),
            ("threads", threads.to_string()),
            ("seconds", format!("{seconds:.2}")),
        ]
        .map(|(metric, value)| Metric::new(metric, value));
        let emitted = sink.emit(&rows, || {
            let what = if claim.win { "a win" } else { "at least a draw" };
            let size = size.map_or(String::new(), |s| {
                let kind = if verdict == Verdict::Proven { "proof" } else { "refutation" };
                format!("; the {kind}: {} positions, a tree of {:.3e} nodes", HumanCount(s.positions), s.tree)
            });
            format!(
                "{}\nthe {side} get {what}: {said}\n{} nodes searched in {seconds:.1} s, {} positions decided{size}",
                game.picture(&state),
                HumanCount(nodes),
                HumanCount(decided)
            )
        });
        emitted?;
        // A CSV file gets its sidecar: how it was made, and the peak memory of the search's table.
        if let Some(path) = args.out.out.as_deref().filter(|p| p.as_os_str() != "-") {
            let figures = serde_json::json!({ "seconds": seconds, "peak_memory_bytes": machine::peak_memory_bytes() });
            Sidecar::now().write(path, &figures)?;
        }
        Ok(())
    }
}

/// The verdict in the CSV.
fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Proven => "proven",
        Verdict::Refuted => "refuted",
        Verdict::NotProven => "not-proven",
    }
}

/// The claim `text` names: `SIDE:draw` or `SIDE:win`, the side by the game's name for a player.
fn claim<E: Entry>(entry: &E, text: &str) -> Result<Claim> {
    let game = entry.game();
    let names = [Player::Max, Player::Min].map(|p| game.player_name(p));
    let bad = || anyhow::anyhow!("--claim {text:?}: SIDE:draw or SIDE:win, the side one of {}", names.join(", "));
    let (side, outcome) = text.split_once(':').ok_or_else(bad)?;
    let side = [Player::Max, Player::Min].into_iter().find(|&p| game.player_name(p).eq_ignore_ascii_case(side));
    let win = match outcome {
        "draw" => false,
        "win" => true,
        _ => return Err(bad()),
    };
    Ok(Claim { side: side.ok_or_else(bad)?, win })
}

/// The first line of every checkpoint of `prove`.
const MAGIC: &str = "khela prove checkpoint 2";

/// What a checkpoint is for: the game, rules, position, claim and moves searched, one `key: value` line each.
fn checkpoint_header(game: &str, rules: &str, position: &str, claim: &str, width: Option<usize>) -> String {
    let width = width.map_or("all".to_string(), |w| w.to_string());
    format!("{MAGIC}\ngame: {game}\nrules: {rules}\nposition: {position}\nclaim: {claim}\nmoves: {width}\n\n")
}

/// Writes the decided positions after `header`, 9 bytes each (the key, little-endian, then 1 if the position
/// keeps the claim), in the order of their keys, then the CRC-32 of those entries (4 bytes, little-endian),
/// atomically.
fn write_checkpoint(path: &Path, header: &str, decided: &[(u64, bool)]) -> Result<()> {
    let mut bytes = Vec::with_capacity(header.len() + 9 * decided.len() + 4);
    bytes.extend_from_slice(header.as_bytes());
    for &(key, holds) in decided {
        bytes.extend_from_slice(&key.to_le_bytes());
        bytes.push(u8::from(holds));
    }
    let crc = crc32fast::hash(&bytes[header.len()..]);
    bytes.extend_from_slice(&crc.to_le_bytes());
    output::write_atomically(path, &bytes)
}

/// The decided positions of the checkpoint at `path`, which must be for `header`'s search.
fn read_checkpoint(path: &Path, header: &str) -> Result<Vec<(u64, bool)>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read the checkpoint {}", path.display()))?;
    let Some(body) = bytes.strip_prefix(header.as_bytes()) else {
        let end = bytes.windows(2).position(|w| w == b"\n\n").unwrap_or(bytes.len());
        let theirs = String::from_utf8_lossy(&bytes[..end]).replace('\n', "; ");
        bail!(
            "the checkpoint {} is for another proof ({theirs}), not this one ({}); remove it or give another path",
            path.display(),
            header.trim_end().replace('\n', "; ")
        );
    };
    let damaged =
        |what: &str| anyhow::anyhow!("the checkpoint {} is damaged: {what}; remove it to start again", path.display());
    let Some((body, crc)) = body.split_last_chunk::<4>() else { return Err(damaged("it ends before its CRC-32")) };
    if crc32fast::hash(body) != u32::from_le_bytes(*crc) {
        return Err(damaged("its entries fail their CRC-32"));
    }
    if body.len() % 9 != 0 || body.chunks_exact(9).any(|e| e[8] > 1) {
        return Err(damaged("its entries are not 9 bytes each, a key and 0 or 1"));
    }
    Ok(body.chunks_exact(9).map(|e| (u64::from_le_bytes(e[..8].try_into().expect("8 bytes")), e[8] == 1)).collect())
}
