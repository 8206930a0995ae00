//! Pascal Pons' Connect-4 benchmark sets: six files of 1,000 positions with exact scores, the standard test of
//! Connect-4 solvers ("Solving Connect 4", part 2). The project does not ship them: a checkout of this workspace
//! finds them in `../shared/connect4/` beside it ([`dir`]), where the tests and benchmarks that use them look, and
//! those tests say when they are absent.
//!
//! A file holds one position a line, `<moves> <score>`: the columns played, 1-based digits, and the score for the
//! side to move (0 a draw; positive a win, 22 minus the stones the winner has played when it wins; negative a
//! loss).

use std::path::{Path, PathBuf};
use strum::{Display, EnumIter, IntoStaticStr};
use thiserror::Error;

/// The six sets, by the tutorial's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Display, EnumIter, IntoStaticStr)]
pub enum Set {
    /// `Test_L3_R1`: more than 28 moves played, fewer than 14 left with best play.
    #[strum(serialize = "End-Easy")]
    EndEasy,
    /// `Test_L2_R1`: 15 to 28 moves played, fewer than 14 left.
    #[strum(serialize = "Middle-Easy")]
    MiddleEasy,
    /// `Test_L2_R2`: 15 to 28 moves played, 14 to 27 left.
    #[strum(serialize = "Middle-Medium")]
    MiddleMedium,
    /// `Test_L1_R1`: 14 or fewer moves played, fewer than 14 left.
    #[strum(serialize = "Begin-Easy")]
    BeginEasy,
    /// `Test_L1_R2`: 14 or fewer moves played, 14 to 27 left.
    #[strum(serialize = "Begin-Medium")]
    BeginMedium,
    /// `Test_L1_R3`: 14 or fewer moves played, 28 or more left.
    #[strum(serialize = "Begin-Hard")]
    BeginHard,
}

/// The positions each set holds.
pub const POSITIONS_PER_SET: usize = 1_000;

impl Set {
    /// The set's file name, like `Test_L3_R1`.
    pub fn file_name(self) -> &'static str {
        match self {
            Set::EndEasy => "Test_L3_R1",
            Set::MiddleEasy => "Test_L2_R1",
            Set::MiddleMedium => "Test_L2_R2",
            Set::BeginEasy => "Test_L1_R1",
            Set::BeginMedium => "Test_L1_R2",
            Set::BeginHard => "Test_L1_R3",
        }
    }

    /// Where a checkout of this workspace finds the set: in [`dir`].
    pub fn path(self) -> PathBuf {
        dir().join(self.file_name())
    }

    /// Whether the set's file is there.
    pub fn is_present(self) -> bool {
        self.path().is_file()
    }

    /// Whether the set is missing, saying so on stderr, with where to put it, for `what` (a test that is then
    /// reported as ignored, say).
    pub fn missing_for(self, what: &str) -> bool {
        let missing = !self.is_present();
        if missing {
            eprintln!(
                "note: {} ({}) is absent (a fresh clone has no ../shared; see the book, docs/src/connect4.md): {what}",
                self.path().display(),
                self
            );
        }
        missing
    }

    /// The set's positions, read from [`Set::path`].
    ///
    /// # Errors
    ///
    /// Those of [`read`].
    pub fn read(self) -> Result<Vec<Scored>, ReadError> {
        read(&self.path())
    }
}

/// `../shared/connect4/` beside the workspace this crate was built in (the sets are not part of the project).
pub fn dir() -> PathBuf {
    // This crate sits in `<checkout>/crates/testkit`.
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(3).unwrap_or(Path::new("/"));
    beside.join("shared/connect4")
}

/// A position of a set with its exact score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The columns played from the empty board, 1-based digits, as `khela_games::connect4::Connect4::parse` reads them.
    pub moves: String,
    /// The score for the side to move.
    pub score: i32,
}

/// Why a set could not be read.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The file could not be read (absent, as in a fresh clone, or unreadable).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line is not `<moves> <score>`.
    #[error("{}:{line}: {text:?} is not `<moves> <score>`", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
}

/// The positions of the benchmark file at `path`, in file order.
///
/// # Errors
///
/// [`ReadError::Io`] if the file cannot be read, [`ReadError::Line`] naming the first line that is not
/// `<moves> <score>` with an integer score.
pub fn read(path: &Path) -> Result<Vec<Scored>, ReadError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io { path: path.to_path_buf(), source })?;
    text.lines()
        .enumerate()
        .map(|(number, line)| {
            let bad = || ReadError::Line { path: path.to_path_buf(), line: number + 1, text: line.to_string() };
            let (moves, score) = line.split_once(' ').ok_or_else(bad)?;
            let score = score.parse().map_err(|_| bad())?;
            Ok(Scored { moves: moves.to_string(), score })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_and_names_the_bad_one() {
        let dir = std::env::temp_dir().join(format!("khela-benchmark-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good");
        std::fs::write(&good, "4453 -2\n1 0\n").unwrap();
        let read_back = read(&good).unwrap();
        assert_eq!(read_back, [Scored { moves: "4453".into(), score: -2 }, Scored { moves: "1".into(), score: 0 }]);
        let bad = dir.join("bad");
        std::fs::write(&bad, "4453 -2\n12 x\n").unwrap();
        let err = read(&bad).unwrap_err().to_string();
        assert!(err.ends_with("bad:2: \"12 x\" is not `<moves> <score>`"), "{err}");
        let err = read(&dir.join("absent")).unwrap_err().to_string();
        assert!(err.contains("absent: No such file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_and_files() {
        assert_eq!(Set::EndEasy.to_string(), "End-Easy");
        assert_eq!(Set::BeginHard.file_name(), "Test_L1_R3");
        assert!(Set::MiddleEasy.path().ends_with("shared/connect4/Test_L2_R1"));
    }
}
