//! Checkpoints of long commands: each finished unit of work appended as a row to `FILE.<suffix>` beside the
//! output file, so that a run stopped part way (killed, interrupted) resumes where it stopped when the same
//! command runs again (`match`'s games, `solve --set`'s positions).
//!
//! ```text
//! # khela match checkpoint; run the same command again to resume
//! # game=bagh-chal rules=- quiet-limit=- position=- players=engine:2,random games=200 opening=2 seed=0
//! 0,17,1,over,31\t5b3c91e0
//! ```
//!
//! The second line names everything the rows depend on: a checkpoint whose line differs belongs to another run
//! and is refused. Each row ends with a tab and the CRC-32 of the row before it (hex), so that a row edited or
//! damaged is found. A last row cut short by a kill is ignored; any other row that does not parse or does not
//! match its CRC-32 is damage, an error naming its line.

use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A finished unit of work, as a checkpoint keeps it: one line of text, and the key it is found by.
pub trait Row: Sized {
    /// What identifies the unit of work.
    type Key: Ord;
    /// The unit's key.
    fn key(&self) -> Self::Key;
    /// The row's line, without its newline.
    fn line(&self) -> String;
    /// The row of a line, if the line is whole.
    fn parse(line: &str) -> Option<Self>;
}

/// An open checkpoint: the rows it held when opened, and the file new ones are appended to (created with the
/// first row kept, so that a run refused or failed before it finished anything leaves no file behind).
pub struct Checkpoint<R: Row> {
    path: PathBuf,
    header: String,
    file: Mutex<Option<File>>,
    /// The rows kept before, by key.
    pub done: BTreeMap<R::Key, R>,
}

impl<R: Row> Checkpoint<R> {
    /// The checkpoint `FILE.<suffix>` of the `what` (`match`) described by `args` (a line naming everything its
    /// rows depend on), for the output file `out`: resumed if it exists and is this run's, created with its first
    /// row otherwise.
    pub fn open(out: &Path, suffix: &str, what: &str, args: &str) -> Result<Checkpoint<R>> {
        let mut name = out.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".{suffix}"));
        let path = out.with_file_name(name);
        let header = format!("# khela {what} checkpoint; run the same command again to resume\n# {args}\n");
        let mut done = BTreeMap::new();
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let mut lines = text.lines();
                let (_, ours) = (lines.next(), lines.next());
                if ours != Some(&format!("# {args}")) {
                    bail!(
                        "{} is the checkpoint of another {what} ({}); delete it, or run that {what} again",
                        path.display(),
                        ours.unwrap_or("empty").trim_start_matches("# ")
                    );
                }
                let rows: Vec<&str> = lines.collect();
                for (i, line) in rows.iter().enumerate() {
                    match checked(line).and_then(R::parse) {
                        Some(row) => {
                            done.insert(row.key(), row);
                        }
                        // A kill may cut the last line short; anything else is damage.
                        None if i + 1 == rows.len() => {}
                        None => bail!(
                            "{} line {}: {line:?} is not a row of this checkpoint, or fails its CRC-32 (damaged or \
                             edited): delete the checkpoint to start again",
                            path.display(),
                            i + 3
                        ),
                    }
                }
                // Rewrite it without a cut line, so that appends start on a line of their own.
                let mut text = header.clone();
                for row in done.values() {
                    text.push_str(&summed(&row.line()));
                }
                std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
                let file = OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                Ok(Checkpoint { path, header, file: Mutex::new(Some(file)), done })
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                Ok(Checkpoint { path, header, file: Mutex::new(None), done })
            }
            Err(err) => Err(err).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    /// Appends a finished unit's row (the first one creates the file, with its header).
    pub fn keep(&self, row: &R) -> Result<()> {
        let mut file = self.file.lock().map_err(|_| anyhow::anyhow!("a thread panicked writing the checkpoint"))?;
        let cannot = || format!("cannot write {}", self.path.display());
        if file.is_none() {
            let mut created = OpenOptions::new().append(true).create(true).open(&self.path).with_context(cannot)?;
            created.write_all(self.header.as_bytes()).with_context(cannot)?;
            *file = Some(created);
        }
        let file = file.as_mut().expect("the checkpoint's file, just created");
        file.write_all(summed(&row.line()).as_bytes()).with_context(cannot)
    }

    /// Removes the checkpoint, once the output is written (if a row was ever kept).
    pub fn remove(self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                Err(err).with_context(|| format!("cannot remove {}", self.path.display()))
            }
            _ => Ok(()),
        }
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A row's line with its CRC-32 and the newline: `LINE\tCRC`.
fn summed(line: &str) -> String {
    format!("{line}\t{:08x}\n", crc32fast::hash(line.as_bytes()))
}

/// The row of a checkpoint's line, if its CRC-32 is the row's.
fn checked(line: &str) -> Option<&str> {
    let (row, crc) = line.rsplit_once('\t')?;
    (u32::from_str_radix(crc, 16).ok()? == crc32fast::hash(row.as_bytes())).then_some(row)
}
