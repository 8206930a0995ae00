//! The game record `play` saves and `play --load` resumes: plain text, one move a line, readable by people.
//!
//! ```text
//! # khela game record; bench-suite play --load FILE resumes it
//! game bagh-chal
//! rules bagh-chal
//! start T...T/...../...../...../T...T g 20
//! 1. c3
//! 2. a1-b2
//! ```
//!
//! `rules` and `quiet-limit` lines appear when the game was played with those options; lines starting with `#`
//! are comments. Moves are numbered by ply and written in the game's notation.

use anyhow::{Context, Result, bail};
use std::path::Path;

/// A game record: the game and its options as the command line names them, the start, the moves as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's name (`bagh-chal`).
    pub game: String,
    /// `--rules`, if given.
    pub rules: Option<String>,
    /// `--quiet-limit`, if given.
    pub quiet_limit: Option<u16>,
    /// The start, in the game's notation.
    pub start: String,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
}

impl Record {
    /// The record as text.
    pub fn text(&self) -> String {
        let mut text = String::from("# khela game record; bench-suite play --load FILE resumes it\n");
        text.push_str(&format!("game {}\n", self.game));
        if let Some(rules) = &self.rules {
            text.push_str(&format!("rules {rules}\n"));
        }
        if let Some(limit) = self.quiet_limit {
            text.push_str(&format!("quiet-limit {limit}\n"));
        }
        text.push_str(&format!("start {}\n", self.start));
        for (i, mv) in self.moves.iter().enumerate() {
            text.push_str(&format!("{}. {mv}\n", i + 1));
        }
        text
    }

    /// The record in `text`, read from `path` (named in errors).
    pub fn parse(path: &Path, text: &str) -> Result<Record> {
        let mut record =
            Record { game: String::new(), rules: None, quiet_limit: None, start: String::new(), moves: Vec::new() };
        let mut seen_start = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            let at = || format!("{} line {}", path.display(), n + 1);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "game" => record.game = value.trim().to_string(),
                "rules" => record.rules = Some(value.trim().to_string()),
                "quiet-limit" => {
                    record.quiet_limit =
                        Some(value.trim().parse().with_context(|| format!("{}: quiet-limit {value:?}", at()))?)
                }
                "start" => {
                    record.start = value.trim().to_string();
                    seen_start = true;
                }
                _ if key.ends_with('.') && key[..key.len() - 1].parse::<usize>() == Ok(record.moves.len() + 1) => {
                    record.moves.push(value.trim().to_string())
                }
                _ => bail!(
                    "{}: {line:?} is not `game`, `rules`, `quiet-limit`, `start` or move {}",
                    at(),
                    record.moves.len() + 1
                ),
            }
        }
        if record.game.is_empty() || !seen_start {
            bail!("{}: a game record names its game and its start", path.display());
        }
        Ok(record)
    }

    /// The record saved in `path`.
    pub fn load(path: &Path) -> Result<Record> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        Record::parse(path, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_bad_ones_are_named() {
        let record = Record {
            game: "sixteen-soldiers".into(),
            rules: Some("optional".into()),
            quiet_limit: Some(40),
            start: "OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x 0".into(),
            moves: vec!["c4-c5".into(), "c6xc4".into()],
        };
        let path = Path::new("game.txt");
        assert_eq!(Record::parse(path, &record.text()).unwrap(), record);
        let err = |text: &str| Record::parse(path, text).unwrap_err().to_string();
        assert!(err("game nim\nstart 1,2\n2. x\n").contains("game.txt line 3: \"2. x\" is not"));
        assert!(err("game nim\n").contains("names its game and its start"));
        assert!(err("game nim\nquiet-limit many\nstart 1\n").contains("line 2: quiet-limit"));
    }
}
