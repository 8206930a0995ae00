//! `sweep.csv`: its rows, written a tree at a time so that an interrupted sweep keeps what it finished, read
//! back and checked against the plan for `--resume`, `merge` and the summary.

use super::grid::{RunSpec, TreeSpec};
use super::model::ModelName;
use super::plan::TreeJob;
use crate::output;
use anyhow::{Context, Result, bail};
use khela_exact::{Algorithm, OrderingKind};
use khela_games::Value;
use khela_games::rng::Rng;
use serde::{Deserialize, Serialize};
use serde_with::{DisplayFromStr, serde_as};
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One row of `sweep.csv`: one search of one tree. The file's header is its fields' names, in this order.
#[serde_as]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Tree model.
    #[serde_as(as = "DisplayFromStr")]
    pub model: ModelName,
    /// Branching factor.
    pub b: u32,
    /// Chance outcomes (the chance model; empty for the others).
    pub k: Option<u32>,
    /// Depth (decision plies).
    pub d: u32,
    /// Tree seed.
    pub seed: u64,
    /// Generator.
    #[serde_as(as = "DisplayFromStr")]
    pub rng: Rng,
    /// Algorithm.
    #[serde_as(as = "DisplayFromStr")]
    pub algorithm: Algorithm,
    /// Ordering.
    #[serde_as(as = "DisplayFromStr")]
    pub ordering: OrderingKind,
    /// The root's value, from MAX's view (never −0, so it prints as the tables print values).
    #[serde_as(as = "DisplayFromStr")]
    pub value: Value,
    /// Leaves visited.
    pub leaves: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// Cutoffs.
    pub cutoffs: u64,
    /// b^⌈d/2⌉ + b^⌊d/2⌋ − 1 (empty for the chance model, where alpha-beta's minimal tree is another).
    pub knuth_moore: Option<u64>,
    /// b^d, or (b·k)^d for the chance model.
    pub minimax_leaves: u64,
}

impl Row {
    /// A row of `tree` (its values drawn by `rng`) searched as `run` says, without the search's figures.
    pub fn new(tree: TreeSpec, rng: Rng, run: RunSpec) -> Row {
        let shape = tree.shape;
        Row {
            model: shape.model,
            b: shape.b,
            k: shape.k,
            d: shape.d,
            seed: tree.seed,
            rng,
            algorithm: run.algorithm,
            ordering: run.ordering,
            value: 0.0,
            leaves: 0,
            nodes: 0,
            cutoffs: 0,
            knuth_moore: shape.knuth_moore(),
            minimax_leaves: shape.size().map_or(0, |(leaves, _)| leaves),
        }
    }

    /// Whether this row is the search `expected` describes (same tree, generator, algorithm and ordering).
    fn is(&self, expected: &Row) -> bool {
        (self.model, self.b, self.k, self.d, self.seed, self.rng, self.algorithm, self.ordering)
            == (
                expected.model,
                expected.b,
                expected.k,
                expected.d,
                expected.seed,
                expected.rng,
                expected.algorithm,
                expected.ordering,
            )
    }

    /// The row as a CSV line, without the newline (for messages).
    pub fn line(&self) -> String {
        String::from_utf8_lossy(&to_csv(std::slice::from_ref(self), false)).trim_end().to_string()
    }
}

/// The header of `sweep.csv`: the names of [`Row`]'s fields.
pub fn header() -> String {
    serde_aux::serde_introspection::serde_introspect::<Row>().join(",")
}

/// Rows as CSV lines, after the header if `header`.
pub fn to_csv(rows: &[Row], header: bool) -> Vec<u8> {
    let start = if header { format!("{}\n", self::header()).into_bytes() } else { Vec::new() };
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(start);
    for row in rows {
        writer.serialize(row).expect("rows serialize to memory");
    }
    writer.into_inner().expect("rows serialize to memory")
}

/// The rows a tree's searches will produce, figures empty: what a file is checked against.
pub fn expected_rows(job: &TreeJob, rng: Rng) -> Vec<Row> {
    job.runs.iter().map(|&run| Row::new(job.tree, rng, run)).collect()
}

/// Parses a sweep CSV whose text ends with a whole line, checking the header; `name` is for messages.
pub fn parse(text: &str, name: &Path) -> Result<Vec<Row>> {
    let header = header();
    let first = text.lines().next().unwrap_or("");
    if first != header {
        bail!("{} does not start with the sweep header {header:?} (it starts {first:?})", name.display());
    }
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(text.as_bytes());
    reader
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.with_context(|| format!("line {} of {} is not a sweep row", i + 2, name.display())))
        .collect()
}

/// Matches `rows` against the trees they should hold, in order: returns how many trees are complete and how
/// many rows they take. A tree at the end with only some of its rows counts as not done; rows that do not match
/// the grid are an error.
pub fn match_trees(rows: &[Row], jobs: &[TreeJob], rng: Rng, name: &Path) -> Result<(usize, usize)> {
    let mut used = 0;
    for (done, job) in jobs.iter().enumerate() {
        let expected = expected_rows(job, rng);
        for (i, want) in expected.iter().enumerate() {
            match rows.get(used + i) {
                None => return Ok((done, used)),
                Some(row) if row.is(want) => {}
                Some(row) => bail!(
                    "{} does not match these arguments: row {} is {:?} where the grid has {} {}/{}; give the \
                     arguments of the run that wrote it, or another --out",
                    name.display(),
                    used + i + 1,
                    row.line(),
                    job.tree,
                    want.algorithm,
                    want.ordering
                ),
            }
        }
        used += expected.len();
    }
    if used < rows.len() {
        bail!(
            "{} has {} rows more than these arguments' grid: {:?}",
            name.display(),
            rows.len() - used,
            rows[used].line()
        );
    }
    Ok((jobs.len(), used))
}

/// The checksums beside `sweep.csv`: one line per whole tree, the CRC-32 of the tree's rows as written, so
/// that `--resume` and `merge` keep only rows that are as they were written.
pub const CHECKSUMS: &str = "sweep.checksums";

/// The checksum line of a tree's rows, as written in CSV.
fn checksum(bytes: &[u8]) -> String {
    format!("{:08x}\n", crc32fast::hash(bytes))
}

/// The checksums of `rows`, tree after tree (`jobs` says how many rows each tree has).
pub fn checksums(rows: &[Row], jobs: &[TreeJob]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = rows;
    for job in jobs {
        let (tree, after) = rest.split_at(job.runs.len().min(rest.len()));
        out.extend(checksum(&to_csv(tree, false)).into_bytes());
        rest = after;
    }
    out
}

/// The whole trees of a sweep file's `text` (ending with a whole line) that its `sums` vouch for: checks the rows
/// against the plan and each tree's rows against its checksum, and returns how many trees are whole and the byte
/// length of the header and their rows. A tree with only some of its rows, or with no checksum yet (a kill
/// between the two writes), is not whole; a tree whose rows differ from its checksum is an error naming them.
pub fn verify(text: &str, sums: &str, jobs: &[TreeJob], rng: Rng, name: &Path) -> Result<(usize, usize)> {
    let rows = parse(text, name)?;
    let (done, _) = match_trees(&rows, jobs, rng, name)?;
    let sums: Vec<&str> = sums.split_inclusive('\n').filter(|line| line.ends_with('\n')).collect();
    let whole = done.min(sums.len());
    let mut lines = text.split_inclusive('\n');
    let mut keep = lines.next().map_or(0, str::len);
    let mut row = 0;
    for (tree, (job, sum)) in jobs.iter().zip(&sums).take(whole).enumerate() {
        let bytes: String = lines.by_ref().take(job.runs.len()).collect();
        if checksum(bytes.as_bytes()) != *sum {
            bail!(
                "rows {}..={} of {} (tree {}) differ from the checksum written with them in {CHECKSUMS}: the file \
                 was changed after the sweep wrote it; restore it, or start over with --force",
                row + 2,
                row + job.runs.len() + 1,
                name.display(),
                jobs[tree].tree
            );
        }
        keep += bytes.len();
        row += job.runs.len();
    }
    Ok((whole, keep))
}

/// `sweep.csv` and its checksums, open for appending whole trees.
pub struct SweepFile {
    csv: File,
    sums: File,
    path: PathBuf,
}

impl SweepFile {
    /// Starts `path` afresh: the header only, and no checksums.
    pub fn create(path: &Path) -> Result<SweepFile> {
        let path = output::writable(path)?;
        let mut csv = File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
        csv.write_all(format!("{}\n", header()).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        let sums_path = output::writable(&path.with_file_name(CHECKSUMS))?;
        let sums = File::create(&sums_path).with_context(|| format!("cannot write {}", sums_path.display()))?;
        Ok(SweepFile { csv, sums, path })
    }

    /// Reopens `path` to continue an interrupted sweep of `jobs`: drops a torn last line and the rows of a tree
    /// left incomplete or without its checksum, checks the rest against the plan and their checksums, and
    /// returns the file (positioned after the last whole tree) with the number of trees already done. A missing
    /// or header-less file starts afresh.
    pub fn resume(path: &Path, jobs: &[TreeJob], rng: Rng) -> Result<(SweepFile, usize)> {
        let path = output::writable(path)?;
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok((SweepFile::create(&path)?, 0)),
            Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
        };
        // Whole lines only: a kill can leave a partial last line.
        let whole = bytes.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        if whole == 0 && header().as_bytes().starts_with(&bytes) {
            // Killed before the header was whole.
            return Ok((SweepFile::create(&path)?, 0));
        }
        let text = std::str::from_utf8(&bytes[..whole]).with_context(|| format!("{} is not text", path.display()))?;
        let sums_path = output::writable(&path.with_file_name(CHECKSUMS))?;
        let sums = match std::fs::read_to_string(&sums_path) {
            Ok(sums) => sums,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound && text.lines().count() > 1 => bail!(
                "{} has rows but no {CHECKSUMS} beside it to check them by (an older version wrote it?): start \
                 over with --force",
                path.display()
            ),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(err) => return Err(err).with_context(|| format!("cannot read {}", sums_path.display())),
        };
        let (done, keep) = verify(text, &sums, jobs, rng, &path)?;
        let open = |path: &Path| OpenOptions::new().create(true).truncate(false).write(true).open(path);
        let mut csv = open(&path).with_context(|| format!("cannot write {}", path.display()))?;
        csv.set_len(keep as u64).with_context(|| format!("cannot truncate {}", path.display()))?;
        csv.seek(SeekFrom::End(0)).with_context(|| format!("cannot write {}", path.display()))?;
        let mut sums_file = open(&sums_path).with_context(|| format!("cannot write {}", sums_path.display()))?;
        sums_file.set_len(9 * done as u64).with_context(|| format!("cannot truncate {}", sums_path.display()))?;
        sums_file.seek(SeekFrom::End(0)).with_context(|| format!("cannot write {}", sums_path.display()))?;
        Ok((SweepFile { csv, sums: sums_file, path }, done))
    }

    /// Appends a tree's rows in one write, then their checksum, flushing both to the operating system: a kill
    /// leaves at most a partial last line or a tree without its checksum, which `--resume` drops.
    pub fn append(&mut self, rows: &[Row]) -> Result<()> {
        let bytes = to_csv(rows, false);
        self.csv.write_all(&bytes).and_then(|()| self.csv.flush()).with_context(|| self.error())?;
        self.sums.write_all(checksum(&bytes).as_bytes()).and_then(|()| self.sums.flush()).with_context(|| self.error())
    }

    /// What a failed write says.
    fn error(&self) -> String {
        format!("cannot write {}", self.path.display())
    }

    /// Makes the files durable.
    pub fn finish(self) -> Result<()> {
        self.csv.sync_all().and_then(|()| self.sums.sync_all()).with_context(|| self.error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::sweep::grid::TreeShape;

    #[test]
    fn the_header_is_the_rows_fields() {
        assert_eq!(
            header(),
            "model,b,k,d,seed,rng,algorithm,ordering,value,leaves,nodes,cutoffs,knuth_moore,minimax_leaves"
        );
        let shape = TreeShape { model: ModelName::Iid, b: 2, k: None, d: 2 };
        let run = RunSpec { algorithm: Algorithm::AlphaBeta, ordering: OrderingKind::Natural };
        let row =
            Row { value: 5.0, leaves: 3, nodes: 6, cutoffs: 1, ..Row::new(TreeSpec { shape, seed: 0 }, Rng::Pcg, run) };
        let chance_shape = TreeShape { model: ModelName::Chance, b: 2, k: Some(3), d: 2 };
        let chance = Row { value: 12.5, ..Row::new(TreeSpec { shape: chance_shape, seed: 0 }, Rng::Pcg, run) };
        let text = String::from_utf8(to_csv(&[row.clone(), chance.clone()], true)).unwrap();
        assert_eq!(
            text,
            format!(
                "{}\niid,2,,2,0,pcg,alphabeta,natural,5,3,6,1,3,4\n\
                 chance,2,3,2,0,pcg,alphabeta,natural,12.5,0,0,0,,36\n",
                header()
            )
        );
        assert_eq!(parse(&text, Path::new("x")).unwrap(), [row, chance]);
    }
}
