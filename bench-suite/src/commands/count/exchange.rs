//! One step of a count of distinct positions split among N tasks: `count --depth D --only positions --shard
//! K/N --ply L --exchange DIR`. Task K owns the positions whose key [`owner`] gives K. At ply L it reads the
//! positions every task sent it for ply L, keeps each once, counts them (its part of ply L's count), and, below
//! the last ply, expands them and sends each task the children it owns, for ply L + 1.
//!
//! The exchange directory holds, for each ply, what the tasks sent and what each step did:
//!
//! ```text
//! DIR/ply-L/to-K-from-J-of-N   the positions task J sent task K for ply L: records of an 8-byte key
//!                              (little-endian) and the position's line of play from the root (L bytes,
//!                              khela_exact::count::exchange::Lines), sorted by key, each key once
//! DIR/ply-L/done-K-of-N        task K's step at ply L, finished: the count it belongs to, its positions,
//!                              the records it sent each task for ply L + 1 (none at the last ply), and
//!                              the CRC-32 of each file it sent, which the receiving step checks
//! ```
//!
//! Every file is written to a temporary file and renamed, the `done` file last, so a step killed part way
//! leaves nothing a later step takes for finished; a step run again rewrites its own files, the same bytes. A
//! step refuses to start while an input is missing or belongs to another count.

use crate::output;
use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use khela_exact::count::exchange::{Lines, MAX_TURN_CHILDREN, expand};
use khela_exact::count::owner;
use khela_games::Game;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most tasks a count of positions is split into: each step writes a file for every task, N² a ply.
pub const MAX_TASKS: u64 = 1024;

/// A conservative rate for the estimate: distinct positions of a ply a step takes in, expands and sends on,
/// per second per thread, below the rate measured (see docs/src/measured-choices.md, 'The harness').
pub const POSITIONS_PER_SECOND_PER_THREAD: f64 = 5e5;

/// Bytes a child takes while a step sorts and deduplicates them ([`khela_exact::count::Child`]).
const CHILD_BYTES: f64 = 16.0;

/// Parents a step expands at once before it deduplicates the children found (the library's batch).
const BATCH: f64 = 65536.0;

/// One step: which task, which ply, of which count.
pub struct Step<'a> {
    /// The exchange directory.
    pub dir: &'a Path,
    /// This task, `0..n`.
    pub k: u64,
    /// The tasks.
    pub n: u64,
    /// The ply this step counts.
    pub ply: u32,
    /// The count's last ply: the step at it sends nothing on.
    pub depth: u32,
}

impl Step<'_> {
    fn ply_dir(&self, ply: u32) -> PathBuf {
        self.dir.join(format!("ply-{ply}"))
    }

    /// What task `from` sent task `to` for ply `ply`.
    fn inbox(&self, ply: u32, to: u64, from: u64) -> PathBuf {
        self.ply_dir(ply).join(format!("to-{to}-from-{from}-of-{}", self.n))
    }

    /// The record of task `k`'s finished step at ply `ply`.
    fn done(&self, ply: u32, k: u64) -> PathBuf {
        self.ply_dir(ply).join(format!("done-{k}-of-{}", self.n))
    }
}

/// What a finished step wrote of itself.
#[derive(Debug, PartialEq)]
struct Done {
    /// The positions of its ply it owns.
    positions: u64,
    /// The records it sent each task for the next ply, if it expanded its positions.
    sent: Option<Vec<u64>>,
    /// The CRC-32 of each file it sent (absent from the records of steps that predate it).
    crcs: Option<Vec<u32>>,
}

/// The first line of a `done` file.
const DONE_HEADER: &str = "# khela count exchange: a finished step of a count of distinct positions";

fn write_done(path: &Path, count: &str, done: &Done) -> Result<()> {
    let sent =
        done.sent.as_ref().map_or("-".to_string(), |s| s.iter().map(u64::to_string).collect::<Vec<_>>().join(" "));
    let crcs = done.crcs.as_ref().map(|c| c.iter().map(|c| format!("{c:08x}")).collect::<Vec<_>>().join(" "));
    let crcs = crcs.map_or(String::new(), |c| format!("crc32 {c}\n"));
    let text = format!("{DONE_HEADER}\ncount {count}\npositions {}\nsent {sent}\n{crcs}", done.positions);
    output::write_atomically(path, text.as_bytes())
}

/// Reads a `done` file of this count (`count`, naming its tasks); an error names the file and what is wrong.
fn read_done(path: &Path, count: &str, what: &str) -> Result<Done> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => bail!("{} is missing: {what} has not finished", path.display()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let damaged = || anyhow::anyhow!("{} is not the record of a finished step (damaged?)", path.display());
    let mut lines = text.lines();
    if lines.next() != Some(DONE_HEADER) {
        return Err(damaged());
    }
    let theirs = lines.next().and_then(|l| l.strip_prefix("count ")).ok_or_else(damaged)?;
    if theirs != count {
        bail!("{} belongs to another count ({theirs}), not {count}: use another --exchange directory", path.display());
    }
    let positions = lines.next().and_then(|l| l.strip_prefix("positions ")?.parse().ok()).ok_or_else(damaged)?;
    let sent = match lines.next().and_then(|l| l.strip_prefix("sent ")).ok_or_else(damaged)? {
        "-" => None,
        list => Some(list.split(' ').map(str::parse).collect::<Result<Vec<u64>, _>>().map_err(|_| damaged())?),
    };
    let crcs = match lines.next().map(|l| l.strip_prefix("crc32 ").ok_or_else(damaged)) {
        None => None,
        Some(list) => Some(
            list?
                .split(' ')
                .map(|c| u32::from_str_radix(c, 16))
                .collect::<Result<Vec<u32>, _>>()
                .map_err(|_| damaged())?,
        ),
    };
    if crcs.as_ref().is_some_and(|c| Some(c.len()) != sent.as_ref().map(Vec::len)) {
        return Err(damaged());
    }
    Ok(Done { positions, sent, crcs })
}

/// Creates `dir` if it is missing (not its parents: a typo must not create directory trees).
fn make_dir(dir: &Path) -> Result<()> {
    match std::fs::create_dir(dir) {
        Err(e) if e.kind() != ErrorKind::AlreadyExists => {
            Err(e).with_context(|| format!("cannot create the directory {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// A file a step reads: its path, its records and the CRC-32 its sender recorded.
type Input = (PathBuf, u64, Option<u32>);

/// The inputs of a step, checked before any work: for each task, the file it sent this task, how many records
/// it holds, and its CRC-32.
fn inputs(step: &Step, count: &str) -> Result<Vec<Input>> {
    let mut inputs = Vec::new();
    if step.ply == 0 {
        return Ok(inputs);
    }
    let before = step.ply - 1;
    for j in 0..step.n {
        let done = read_done(&step.done(before, j), count, &format!("task {j}'s step at ply {before}"))?;
        let Some(sent) = done.sent else {
            bail!(
                "{} sent nothing on: its step ran as a count's last ply; run it again with --depth {} or more",
                step.done(before, j).display(),
                step.ply
            );
        };
        let records =
            *sent.get(step.k as usize).with_context(|| format!("{} is damaged", step.done(before, j).display()))?;
        let path = step.inbox(step.ply, step.k, j);
        let bytes = match std::fs::metadata(&path) {
            Ok(meta) => meta.len(),
            Err(e) if e.kind() == ErrorKind::NotFound => {
                bail!("{} is missing (task {j} sent it at ply {before})", path.display())
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        if bytes != records * (8 + u64::from(step.ply)) {
            bail!("{} holds {bytes} bytes, not the {records} records its sender wrote (damaged?)", path.display());
        }
        let crc = done.crcs.as_ref().and_then(|c| c.get(step.k as usize).copied());
        inputs.push((path, records, crc));
    }
    Ok(inputs)
}

/// One task's sorted file of records, read one record at a time.
struct Source {
    path: PathBuf,
    reader: BufReader<File>,
    left: u64,
    key: u64,
    line: Vec<u8>,
    /// The CRC-32 of the records read so far.
    crc: crc32fast::Hasher,
}

impl Source {
    /// Reads the next record; false at the end. Keys must increase (each key once).
    fn advance(&mut self, first: bool) -> Result<bool> {
        if self.left == 0 {
            return Ok(false);
        }
        self.left -= 1;
        let mut key = [0u8; 8];
        self.reader.read_exact(&mut key).with_context(|| format!("cannot read {}", self.path.display()))?;
        self.reader.read_exact(&mut self.line).with_context(|| format!("cannot read {}", self.path.display()))?;
        self.crc.update(&key);
        self.crc.update(&self.line);
        let key = u64::from_le_bytes(key);
        if !first && key <= self.key {
            bail!("{} is not sorted by key (damaged?)", self.path.display());
        }
        self.key = key;
        Ok(true)
    }
}

/// The positions sent to this step, each key once, with the line of the first task that sent it: a merge of the
/// sorted inputs; with `keep` false only their number, for the last ply (the lines stay empty).
fn merge(inputs: &[Input], ply: usize, keep: bool) -> Result<(Lines, u64)> {
    let mut sources = Vec::new();
    let mut heap = BinaryHeap::new();
    for (i, (path, records, _)) in inputs.iter().enumerate() {
        let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut source = Source {
            path: path.clone(),
            reader: BufReader::with_capacity(1 << 16, file),
            left: *records,
            key: 0,
            line: vec![0; ply],
            crc: crc32fast::Hasher::new(),
        };
        if source.advance(true)? {
            heap.push(Reverse((source.key, i)));
        }
        sources.push(source);
    }
    let (mut lines, mut count) = (Lines::new(ply), 0);
    let mut last = None;
    // The heap gives equal keys in the order of the tasks that sent them.
    while let Some(Reverse((key, i))) = heap.pop() {
        if last != Some(key) {
            if keep {
                lines.push(&sources[i].line);
            }
            count += 1;
            last = Some(key);
        }
        if sources[i].advance(false)? {
            heap.push(Reverse((sources[i].key, i)));
        }
    }
    // Every record read: each file's CRC-32 against its sender's record of it.
    for (source, (path, _, expected)) in sources.into_iter().zip(inputs) {
        let crc = source.crc.finalize();
        if let Some(expected) = expected.filter(|&e| e != crc) {
            bail!(
                "{} has CRC-32 {crc:08x}, not the {expected:08x} its sender recorded (damaged?): run the sender's \
                 step again",
                path.display()
            );
        }
    }
    Ok((lines, count))
}

/// Writes records through a temporary file in `path`'s directory, renamed when whole; their CRC-32.
fn write_records(path: &Path, write: impl FnOnce(&mut Summed<'_>) -> std::io::Result<()>) -> Result<u32> {
    let dir = path.parent().expect("an exchange file has a directory");
    let temp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("cannot write in {}", dir.display()))?;
    let crc = {
        let mut writer = Summed { inner: BufWriter::with_capacity(1 << 16, temp.as_file()), crc: Default::default() };
        write(&mut writer).and_then(|()| writer.flush()).with_context(|| format!("cannot write {}", path.display()))?;
        writer.crc.clone().finalize()
    };
    temp.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path).map_err(|e| e.error).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(crc)
}

/// A buffered writer that sums what passes through it (CRC-32).
struct Summed<'f> {
    inner: BufWriter<&'f File>,
    crc: crc32fast::Hasher,
}

impl Write for Summed<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.crc.update(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// What a step costs, estimated before it starts: its memory and the bytes it writes, from a ply's positions
/// (as the count's estimate gives them: published, or counted for real and carried on) and `branching`.
pub fn cost(positions: impl Fn(u32) -> f64, branching: f64, step: &Step) -> (f64, f64) {
    if step.ply >= step.depth {
        // The last ply's step counts what it merges, keeping nothing.
        return (0.0, 0.0);
    }
    let mine = positions(step.ply) / step.n as f64;
    let lines = mine * f64::from(step.ply);
    // The distinct children of its positions, which it sorts and deduplicates once they have doubled.
    let children = (mine * branching).min(positions(step.ply + 1));
    let memory = lines + CHILD_BYTES * (2.0 * children + BATCH * branching);
    (memory, children * (9.0 + f64::from(step.ply)))
}

/// What a step did: the task's positions at plies 0..=L, the positions it sent on, and its time in seconds.
pub struct StepReport {
    /// The task's positions at each ply up to the step's.
    pub counts: Vec<u64>,
    /// The positions it sent on for the next ply (0 at the last ply).
    pub sent: u64,
    /// The step's time.
    pub seconds: f64,
}

/// Runs the step on `pool`: checks its inputs, counts its positions, sends their children on and records
/// itself; `count` names the count its files belong to (the game, its options, the position and the tasks).
pub fn run<G>(game: &G, root: &G::State, step: &Step, count: &str, pool: &rayon::ThreadPool) -> Result<StepReport>
where
    G: Game + Sync,
    G::State: Send + Sync,
    G::Move: Send,
{
    // Every input is checked before any work, and so are this task's own records of the plies before.
    let inputs = inputs(step, count)?;
    let mut counts = Vec::new();
    for ply in 0..step.ply {
        counts.push(read_done(&step.done(ply, step.k), count, &format!("this task's step at ply {ply}"))?.positions);
    }
    make_dir(step.dir)?;
    make_dir(&step.ply_dir(step.ply))?;
    let started = Instant::now();
    let bar = Progress::new(&format!("positions, ply {}, part {}/{}", step.ply, step.k, step.n), 1, 0);
    let done = pool.install(|| -> Result<Done> {
        let (lines, positions) = if step.ply == 0 {
            let mut lines = Lines::new(0);
            if owner(game.key(root), step.n) == step.k {
                lines.push(&[]);
            }
            let positions = lines.len() as u64;
            (lines, positions)
        } else {
            merge(&inputs, step.ply as usize, step.ply < step.depth)?
        };
        if step.ply == step.depth {
            return Ok(Done { positions, sent: None, crcs: None });
        }
        let parts = expand(game, root, &lines, step.n, &|done, total| {
            bar.update(done, total, || format!("{done}/{total} positions expanded"));
            if crate::interrupt::requested() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .map_err(|e| anyhow::anyhow!("ply {}: {e} (at most {MAX_TURN_CHILDREN})", step.ply))?;
        // Stopped part way, the children are partial: nothing is sent.
        crate::interrupt::check()?;
        make_dir(&step.ply_dir(step.ply + 1))?;
        let (mut sent, mut crcs) = (Vec::with_capacity(parts.len()), Vec::with_capacity(parts.len()));
        for (to, part) in parts.iter().enumerate() {
            let crc = write_records(&step.inbox(step.ply + 1, to as u64, step.k), |w| {
                for child in part {
                    w.write_all(&child.key.to_le_bytes())?;
                    w.write_all(lines.get(child.parent as usize))?;
                    w.write_all(&[child.index])?;
                }
                Ok(())
            })?;
            sent.push(part.len() as u64);
            crcs.push(crc);
        }
        Ok(Done { positions, sent: Some(sent), crcs: Some(crcs) })
    })?;
    bar.finish();
    let seconds = started.elapsed().as_secs_f64();
    write_done(&step.done(step.ply, step.k), count, &done)?;
    counts.push(done.positions);
    Ok(StepReport { counts, sent: done.sent.iter().flatten().sum(), seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_done_file_reads_back_and_names_its_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("done-0-of-2");
        let done = [
            Done { positions: 7, sent: Some(vec![3, 4]), crcs: Some(vec![0xdead_beef, 7]) },
            Done { positions: 7, sent: Some(vec![3, 4]), crcs: None },
            Done { positions: 0, sent: None, crcs: None },
        ];
        for done in done {
            write_done(&path, "game=connect4 parts=2", &done).unwrap();
            assert_eq!(read_done(&path, "game=connect4 parts=2", "it").unwrap(), done);
        }
        let err = read_done(&path, "game=tictactoe parts=2", "it").unwrap_err().to_string();
        assert!(err.contains("belongs to another count"), "{err}");
        let err = read_done(&dir.path().join("nothing"), "x", "task 3's step").unwrap_err().to_string();
        assert!(err.contains("is missing: task 3's step has not finished"), "{err}");
    }
}
