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
//! A line is `pairing,game,payoff from A's view,end,plies`, then with `--judge` A's five counts and B's
//! ([`Judged::fields`]); the file itself is [`crate::checkpoint`]'s.

use super::judge::Judged;
use crate::checkpoint::{self, Row};
use khela_games::line::End;

/// What a game's result needs to be kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kept {
    /// The payoff, from A's view.
    pub a_view: f64,
    /// How it ended.
    pub end: End,
    /// Its length in plies.
    pub plies: u64,
    /// A's moves and B's judged by the tables (`--judge`).
    pub judged: Option<[Judged; 2]>,
}

/// A game of a match, played: its pairing, its number within the pairing, and its result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    /// The pairing of players.
    pub pairing: usize,
    /// The game's number within the pairing.
    pub game: u64,
    /// Its result.
    pub kept: Kept,
}

/// A match's checkpoint: `FILE.games`.
pub type Checkpoint = checkpoint::Checkpoint<Played>;

/// Opens the checkpoint of the match described by `args`, for the table at `out`.
pub fn open(out: &std::path::Path, args: &str) -> anyhow::Result<Checkpoint> {
    Checkpoint::open(out, "games", "match", args)
}

impl Row for Played {
    type Key = (usize, u64);

    fn key(&self) -> (usize, u64) {
        (self.pairing, self.game)
    }

    /// `pairing,game,payoff from A's view,end,plies`.
    fn line(&self) -> String {
        let end = match self.kept.end {
            End::Over(_) => "over",
            End::Repetition => "repetition",
            End::LengthCap => "cap",
        };
        let mut line = format!("{},{},{},{end},{}", self.pairing, self.game, self.kept.a_view, self.kept.plies);
        for judged in self.kept.judged.iter().flatten() {
            for n in judged.fields() {
                line += &format!(",{n}");
            }
        }
        line
    }

    fn parse(row: &str) -> Option<Played> {
        let fields: Vec<&str> = row.split(',').collect();
        let (fields, judged) = fields.split_at_checked(5)?;
        let [p, g, a_view, end, plies] = fields[..] else { return None };
        let judged = match judged.len() {
            0 => None,
            10 => {
                let n: Vec<u64> = judged.iter().map(|n| n.parse().ok()).collect::<Option<_>>()?;
                let counts = |k: usize| Judged::from_fields(n[5 * k..5 * k + 5].try_into().expect("five counts"));
                Some([counts(0), counts(1)])
            }
            _ => return None,
        };
        let a_view: f64 = a_view.parse().ok()?;
        let end = match end {
            "over" => End::Over(a_view),
            "repetition" => End::Repetition,
            "cap" => End::LengthCap,
            _ => return None,
        };
        let kept = Kept { a_view, end, plies: plies.parse().ok()?, judged };
        Some(Played { pairing: p.parse().ok()?, game: g.parse().ok()?, kept })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumes_its_own_match_only_and_forgives_a_cut_line() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("m.csv");
        let first = open(&out, "game=x seed=1").unwrap();
        let kept = Kept { a_view: -1.0, end: End::Over(-1.0), plies: 31, judged: None };
        first.keep(&Played { pairing: 0, game: 3, kept }).unwrap();
        let judged = Some([Judged::from_fields([1, 0, 9, 2, 0]), Judged::from_fields([0, 0, 11, 0, 3])]);
        let repeated = Kept { a_view: 0.0, end: End::Repetition, plies: 12, judged };
        first.keep(&Played { pairing: 1, game: 0, kept: repeated }).unwrap();
        drop(first);
        let path = dir.path().join("m.csv.games");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("2,5,1,ov");
        std::fs::write(&path, text).unwrap();
        let again = open(&out, "game=x seed=1").unwrap();
        assert_eq!(again.done.len(), 2);
        assert_eq!(again.done[&(0, 3)].kept, kept);
        assert_eq!(again.done[&(1, 0)].kept, repeated, "the judged counts come back");
        again
            .keep(&Played {
                pairing: 2,
                game: 5,
                kept: Kept { a_view: 1.0, end: End::Over(1.0), plies: 40, judged: None },
            })
            .unwrap();
        drop(again);
        assert_eq!(open(&out, "game=x seed=1").unwrap().done.len(), 3);
        // A row's sign edited (A's loss made a win): its CRC-32 no longer matches, and the checkpoint is refused.
        let text = std::fs::read_to_string(&path).unwrap();
        let edited = text.replacen("0,3,-1,", "0,3,1,", 1);
        assert_ne!(edited, text);
        std::fs::write(&path, edited).unwrap();
        let err = open(&out, "game=x seed=1").err().unwrap().to_string();
        assert!(err.contains("line 3: ") && err.contains("fails its CRC-32"), "{err}");
        std::fs::write(&path, text).unwrap();
        let err = open(&out, "game=x seed=2").err().unwrap().to_string();
        assert!(err.contains("the checkpoint of another match (game=x seed=1)"), "{err}");
        std::fs::write(
            &path,
            "# khela match checkpoint; run the same command again to resume\n# game=x seed=1\nbad\n0,1,1,over,3\n",
        )
        .unwrap();
        let err = open(&out, "game=x seed=1").err().unwrap().to_string();
        assert!(err.contains("line 3: \"bad\" is not a row of this checkpoint"), "{err}");
        std::fs::write(&path, "# khela match checkpoint; run the same command again to resume\n# game=x seed=1\n")
            .unwrap();
        open(&out, "game=x seed=1").unwrap().remove().unwrap();
        assert!(!path.exists());
    }
}
