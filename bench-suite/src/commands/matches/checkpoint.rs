//! The checkpoint of a match written to a file: each game's result appended as it finishes, in
//! `FILE.games` beside the table, so that a match stopped part way (killed, interrupted) resumes where it stopped
//! when the same command runs again. Games are seeded one by one, so a resumed match gives the same table.
//!
//! ```text
//! # khela match checkpoint; run the same command again to resume
//! # game=bagh-chal rules=- quiet-limit=- position=- players=engine:2,random games=200 opening=2 seed=0
//! 0,17,1,over,31
//! ```
//!
//! A line is `pairing,game,payoff from A's view,end,plies`; a last line cut short by a kill is ignored.

use anyhow::{Context, Result, bail};
use khela_games::line::End;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What a game's result needs to be kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kept {
    /// The payoff, from A's view.
    pub a_view: f64,
    /// How it ended.
    pub end: End,
    /// Its length in plies.
    pub plies: u64,
}

/// An open checkpoint: the games it held when opened, and the file new ones are appended to.
pub struct Checkpoint {
    path: PathBuf,
    file: Mutex<File>,
    /// The games done before, by (pairing, game).
    pub done: BTreeMap<(usize, u64), Kept>,
}

impl Checkpoint {
    /// The checkpoint of the match described by `args` (a line naming everything its games depend on), for the
    /// table at `out`: resumed if it exists and is this match's, created otherwise.
    pub fn open(out: &Path, args: &str) -> Result<Checkpoint> {
        let mut name = out.file_name().unwrap_or_default().to_os_string();
        name.push(".games");
        let path = out.with_file_name(name);
        let header = format!("# khela match checkpoint; run the same command again to resume\n# {args}\n");
        let mut done = BTreeMap::new();
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let mut lines = text.lines();
                let (_, ours) = (lines.next(), lines.next());
                if ours != Some(&format!("# {args}")) {
                    bail!(
                        "{} is the checkpoint of another match ({}); delete it, or run that match again",
                        path.display(),
                        ours.unwrap_or("empty").trim_start_matches("# ")
                    );
                }
                let rows: Vec<&str> = lines.collect();
                for (i, row) in rows.iter().enumerate() {
                    match parse(row) {
                        Some((key, kept)) => {
                            done.insert(key, kept);
                        }
                        // A kill may cut the last line short; anything else is damage.
                        None if i + 1 == rows.len() => {}
                        None => bail!("{} line {}: {row:?} is not a game's result", path.display(), i + 3),
                    }
                }
                // Rewrite it without a cut line, so that appends start on a line of their own.
                let mut text = header;
                for (&(p, g), kept) in &done {
                    text.push_str(&line(p, g, kept));
                }
                std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                std::fs::write(&path, header).with_context(|| format!("cannot write {}", path.display()))?;
            }
            Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
        }
        let file =
            OpenOptions::new().append(true).open(&path).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Checkpoint { path, file: Mutex::new(file), done })
    }

    /// Appends a game's result.
    pub fn keep(&self, pairing: usize, game: u64, kept: &Kept) -> Result<()> {
        let mut file = self.file.lock().map_err(|_| anyhow::anyhow!("a thread panicked writing the checkpoint"))?;
        file.write_all(line(pairing, game, kept).as_bytes())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// Removes the checkpoint, once the table is written.
    pub fn remove(self) -> Result<()> {
        std::fs::remove_file(&self.path).with_context(|| format!("cannot remove {}", self.path.display()))
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A game's line.
fn line(pairing: usize, game: u64, kept: &Kept) -> String {
    let end = match kept.end {
        End::Over(_) => "over",
        End::Repetition => "repetition",
        End::LengthCap => "cap",
    };
    format!("{pairing},{game},{},{end},{}\n", kept.a_view, kept.plies)
}

/// A game's result from its line, if the line is whole.
fn parse(row: &str) -> Option<((usize, u64), Kept)> {
    let fields: Vec<&str> = row.split(',').collect();
    let [p, g, a_view, end, plies] = fields[..] else { return None };
    let a_view: f64 = a_view.parse().ok()?;
    let end = match end {
        "over" => End::Over(a_view),
        "repetition" => End::Repetition,
        "cap" => End::LengthCap,
        _ => return None,
    };
    Some(((p.parse().ok()?, g.parse().ok()?), Kept { a_view, end, plies: plies.parse().ok()? }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumes_its_own_match_only_and_forgives_a_cut_line() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("m.csv");
        let first = Checkpoint::open(&out, "game=x seed=1").unwrap();
        let kept = Kept { a_view: -1.0, end: End::Over(-1.0), plies: 31 };
        first.keep(0, 3, &kept).unwrap();
        first.keep(1, 0, &Kept { a_view: 0.0, end: End::Repetition, plies: 12 }).unwrap();
        drop(first);
        let path = dir.path().join("m.csv.games");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("2,5,1,ov");
        std::fs::write(&path, text).unwrap();
        let again = Checkpoint::open(&out, "game=x seed=1").unwrap();
        assert_eq!(again.done.len(), 2);
        assert_eq!(again.done[&(0, 3)], kept);
        again.keep(2, 5, &Kept { a_view: 1.0, end: End::Over(1.0), plies: 40 }).unwrap();
        drop(again);
        assert_eq!(Checkpoint::open(&out, "game=x seed=1").unwrap().done.len(), 3);
        let err = Checkpoint::open(&out, "game=x seed=2").err().unwrap().to_string();
        assert!(err.contains("the checkpoint of another match (game=x seed=1)"), "{err}");
        Checkpoint::open(&out, "game=x seed=1").unwrap().remove().unwrap();
        assert!(!path.exists());
    }
}
