//! A game written out whole ([`Record`]): the game record that `play --record` writes, `play --load` resumes and
//! the browser app downloads and opens.

use crate::registry::{self, Entry, Spec, Visit};
use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

/// A state written out whole: its game string, its start, the moves played since, in the game's notation. As
/// text ([`Record::text`], [`Record::parse`]) it is the game record that `play --record` writes, `play --load`
/// resumes and the browser app downloads and uploads: plain text, one move a line, readable by people.
///
/// ```text
/// # khela game record; bench-suite play --load FILE resumes it
/// game bagh-chal(rules=bagh-bandi)
/// start ..T../.5.5./..T../.5.5./..... t 0
/// 1. c5-c4
/// 2. b4-b5
/// ```
///
/// Lines starting with `#` are comments; the moves are numbered by ply. Records written before the game string
/// carried its parameters give them on lines of their own, `rules R` and `quiet-limit N`, which are read still.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The game string.
    pub game: String,
    /// The starting position.
    pub start: String,
    /// The moves (and chance outcomes) played since.
    pub moves: Vec<String>,
}

impl Record {
    /// The record as text.
    pub fn text(&self) -> String {
        let mut text = String::from("# khela game record; bench-suite play --load FILE resumes it\n");
        text.push_str(&format!("game {}\nstart {}\n", self.game, self.start));
        for (i, mv) in self.moves.iter().enumerate() {
            text.push_str(&format!("{}. {mv}\n", i + 1));
        }
        text
    }

    /// The record written `text`; `origin` names where it comes from in messages (a file's path).
    ///
    /// # Errors
    ///
    /// A line that is none of the record's, a move out of its number's order, a game string that is not one or
    /// parameters its game refuses, or a record without its game or its start: the message names the line.
    pub fn parse(origin: &str, text: &str) -> Result<Record> {
        let (mut game, mut start, mut moves) = (None::<Spec>, None, Vec::new());
        let mut options = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            let at = || format!("{origin} line {}", n + 1);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').map_or((line, ""), |(k, v)| (k, v.trim()));
            match key {
                "game" => game = Some(value.parse().map_err(|e| anyhow!("{}: {e:#}", at()))?),
                "rules" | "quiet-limit" => options.push((key, value.to_string(), at())),
                "start" => start = Some(value.to_string()),
                _ if key.strip_suffix('.').and_then(|k| k.parse::<usize>().ok()) == Some(moves.len() + 1) => {
                    moves.push(value.to_string())
                }
                _ => bail!("{}: {line:?} is not `game`, `start` or move {}", at(), moves.len() + 1),
            }
        }
        let (Some(mut game), Some(start)) = (game, start) else {
            bail!("{origin}: a game record names its game and its start");
        };
        for (key, value, at) in options {
            game.params.set(key, &value).map_err(|e| anyhow!("{at}: {e:#}"))?;
        }
        // The game must be one, with parameters it takes.
        struct Takes;
        impl Visit for Takes {
            type Output = ();
            fn visit<E: Entry>(self, _: E) {}
        }
        registry::visit(&game, Takes).map_err(|e| anyhow!("{origin}: {e:#}"))?;
        Ok(Record { game: game.to_string(), start, moves })
    }
}
