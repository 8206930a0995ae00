//! `sweep.csv`: its rows, written a tree at a time so that an interrupted sweep keeps what it finished, read
//! back and checked against the grid for `--resume`, `merge` and the summary.

use super::grid::{Grid, RunSpec, Shard, TreeSpec, knuth_moore};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The header of `sweep.csv`, exactly.
pub const HEADER: &str =
    "model,b,k,d,seed,rng,algorithm,ordering,value,leaves,nodes,cutoffs,knuth_moore,minimax_leaves";

/// One row of `sweep.csv`: one search of one tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Tree model.
    pub model: String,
    /// Branching factor.
    pub b: u32,
    /// Chance outcomes (the chance model; empty for the others).
    pub k: Option<u32>,
    /// Depth (decision plies).
    pub d: u32,
    /// Tree seed.
    pub seed: u64,
    /// Generator.
    pub rng: String,
    /// Algorithm.
    pub algorithm: String,
    /// Ordering.
    pub ordering: String,
    /// The root's value, from MAX's view, as `output::value` prints it.
    pub value: String,
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
    /// A row of `tree` searched as `run` says, without the search's figures.
    pub fn new(tree: TreeSpec, grid: &Grid, run: RunSpec) -> Row {
        Row {
            model: tree.model.name().to_string(),
            b: tree.b,
            k: tree.k,
            d: tree.d,
            seed: tree.seed,
            rng: grid.rng.name().to_string(),
            algorithm: run.algorithm.name().to_string(),
            ordering: run.ordering.name().to_string(),
            value: String::new(),
            leaves: 0,
            nodes: 0,
            cutoffs: 0,
            knuth_moore: tree.k.is_none().then(|| knuth_moore(tree.b, tree.d)),
            minimax_leaves: tree.shape().size().map_or(0, |(leaves, _)| leaves),
        }
    }

    /// Whether this row is the search `expected` describes (same tree, generator, algorithm and ordering).
    fn is(&self, expected: &Row) -> bool {
        (&self.model, self.b, self.k, self.d, self.seed, &self.rng, &self.algorithm, &self.ordering)
            == (
                &expected.model,
                expected.b,
                expected.k,
                expected.d,
                expected.seed,
                &expected.rng,
                &expected.algorithm,
                &expected.ordering,
            )
    }

    /// The row as a CSV line, without the newline (for messages).
    pub fn line(&self) -> String {
        String::from_utf8_lossy(&to_csv(std::slice::from_ref(self))).trim_end().to_string()
    }
}

/// Rows as CSV lines, without a header.
pub fn to_csv(rows: &[Row]) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    for row in rows {
        writer.serialize(row).expect("rows serialize to memory");
    }
    writer.into_inner().expect("rows serialize to memory")
}

/// Rows as a whole CSV file, header first.
pub fn to_csv_file(rows: &[Row]) -> Vec<u8> {
    let mut bytes = format!("{HEADER}\n").into_bytes();
    bytes.extend(to_csv(rows));
    bytes
}

/// The trees of this shard (all of them without `--shard`), in grid order.
pub fn shard_trees(grid: &Grid, shard: Option<Shard>) -> Vec<TreeSpec> {
    let Shard { k, n } = shard.unwrap_or(Shard { k: 0, n: 1 });
    grid.trees().enumerate().filter(|(i, _)| *i as u64 % n == k).map(|(_, tree)| tree).collect()
}

/// The rows a tree's searches will produce, figures empty: what a file is checked against.
pub fn expected_rows(grid: &Grid, tree: TreeSpec) -> Vec<Row> {
    grid.runs(tree.shape()).into_iter().map(|run| Row::new(tree, grid, run)).collect()
}

/// Parses a sweep CSV whose text ends with a whole line, checking the header; `name` is for messages.
pub fn parse(text: &str, name: &Path) -> Result<Vec<Row>> {
    let header = text.lines().next().unwrap_or("");
    if header != HEADER {
        bail!("{} does not start with the sweep header {HEADER:?} (it starts {header:?})", name.display());
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
pub fn match_trees(rows: &[Row], grid: &Grid, trees: &[TreeSpec], name: &Path) -> Result<(usize, usize)> {
    let mut used = 0;
    for (done, &tree) in trees.iter().enumerate() {
        let expected = expected_rows(grid, tree);
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
                    tree,
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
    Ok((trees.len(), used))
}

/// `sweep.csv` open for appending whole trees.
pub struct SweepFile {
    file: File,
    path: PathBuf,
}

impl SweepFile {
    /// Starts `path` afresh: the header only.
    pub fn create(path: &Path) -> Result<SweepFile> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create directory {}", dir.display()))?;
        }
        let mut file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        file.write_all(format!("{HEADER}\n").as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(SweepFile { file, path: path.to_path_buf() })
    }

    /// Reopens `path` to continue an interrupted sweep of `trees`: drops a torn last line and the rows of a
    /// tree left incomplete, checks the rest against the grid, and returns the file (positioned after the last
    /// whole tree) with the number of trees already done. A missing or header-less file starts afresh.
    pub fn resume(path: &Path, grid: &Grid, trees: &[TreeSpec]) -> Result<(SweepFile, usize)> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok((SweepFile::create(path)?, 0)),
            Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
        };
        // Whole lines only: a kill can leave a partial last line.
        let whole = bytes.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        if whole == 0 && HEADER.as_bytes().starts_with(&bytes) {
            // Killed before the header was whole.
            return Ok((SweepFile::create(path)?, 0));
        }
        let text = std::str::from_utf8(&bytes[..whole]).with_context(|| format!("{} is not text", path.display()))?;
        let rows = parse(text, path)?;
        let (done, used) = match_trees(&rows, grid, trees, path)?;
        // The byte length of the header and the rows of the whole trees.
        let keep: usize = text.split_inclusive('\n').take(used + 1).map(str::len).sum();
        let file =
            OpenOptions::new().write(true).open(path).with_context(|| format!("cannot write {}", path.display()))?;
        file.set_len(keep as u64).with_context(|| format!("cannot truncate {}", path.display()))?;
        let mut file = SweepFile { file, path: path.to_path_buf() };
        use std::io::Seek;
        file.file.seek(std::io::SeekFrom::End(0)).with_context(|| format!("cannot write {}", path.display()))?;
        Ok((file, done))
    }

    /// Appends a tree's rows in one write and flushes them to the operating system: a kill leaves at most a
    /// partial last line, which `--resume` drops.
    pub fn append(&mut self, rows: &[Row]) -> Result<()> {
        self.file.write_all(&to_csv(rows)).with_context(|| format!("cannot write {}", self.path.display()))?;
        self.file.flush().with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// Makes the file durable.
    pub fn finish(self) -> Result<()> {
        self.file.sync_all().with_context(|| format!("cannot write {}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_the_rows_fields() {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let row = Row {
            model: "iid".into(),
            b: 2,
            k: None,
            d: 2,
            seed: 0,
            rng: "pcg".into(),
            algorithm: "alphabeta".into(),
            ordering: "natural".into(),
            value: "5".into(),
            leaves: 3,
            nodes: 6,
            cutoffs: 1,
            knuth_moore: Some(3),
            minimax_leaves: 4,
        };
        let chance = Row {
            model: "chance".into(),
            k: Some(3),
            value: "12.5".into(),
            knuth_moore: None,
            minimax_leaves: 36,
            ..row.clone()
        };
        writer.serialize(&row).unwrap();
        writer.serialize(&chance).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            format!(
                "{HEADER}\niid,2,,2,0,pcg,alphabeta,natural,5,3,6,1,3,4\n\
                 chance,2,3,2,0,pcg,alphabeta,natural,12.5,3,6,1,,36\n"
            )
        );
        assert_eq!(parse(&text, Path::new("x")).unwrap(), [row, chance]);
    }
}
