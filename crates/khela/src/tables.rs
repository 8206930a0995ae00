//! Retrograde tables on disk: one file a part of a space (Bagh-Chal: a number of goats captured,
//! `captured-C.retro`), written by `retro` and loaded back ([`load`]) by the commands that take `--tables`.
//!
//! # The format
//!
//! A header of text lines, `key: value`, ended by an empty line, then the outcomes, one or two bytes a number
//! of the part (its numbers counted from the part's first), little-endian:
//!
//! ```text
//! khela retrograde table 1
//! game: bagh-chal
//! rules: size=5,tigers=a5+e5+a1+e1,goats=20,first=goats,captures=5
//! part: captured 4
//! numbers: 67782876
//! bytes: 1
//! wins: …
//! losses: …
//! draws: …
//! longest: 89
//! crc32: 1a2b3c4d
//!
//! <numbers × bytes of outcomes>
//! ```
//!
//! An outcome is `khela_exact::retro::Outcome::code`: 0 a draw, `1 + 2d` a loss in `d` plies for the side to
//! move, `2 + 2d` a win in `d`; the largest value of the width (255 or 65535) is a number that stands for no
//! position. One byte a number when every distance is below 127, two otherwise. `wins`, `losses` and `draws`
//! count the numbers with each outcome (classes of positions, not positions); `crc32` is the CRC-32 (IEEE) of
//! the outcome bytes, in hexadecimal.

use crate::registry::Endgame;
use anyhow::{Context, Result, bail};
use khela_exact::retro::{Census, Outcome, OutcomeTable, UNUSED};
use khela_files as files;
use khela_games::Game;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The first line of every table file.
const MAGIC: &str = "khela retrograde table 1";

/// What a table file says of itself, beyond its outcomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game's name, as `--game` takes it.
    pub game: String,
    /// Its rules, as `--rules` takes them.
    pub rules: String,
    /// Which part of the space, in words (`captured 4`).
    pub part: String,
}

/// The table file of a part, named `file` (the part's `file`), in `dir`.
pub fn path(dir: &Path, file: &str) -> PathBuf {
    dir.join(format!("{file}.retro"))
}

/// The game and rules the table file at `path` says it holds, from its header alone; `None` where there is no
/// such file or it has no readable header.
pub fn held_by(path: &Path) -> Option<(String, String)> {
    use std::io::Read;
    let mut start = Vec::new();
    std::fs::File::open(path).ok()?.take(4096).read_to_end(&mut start).ok()?;
    let text = String::from_utf8_lossy(&start);
    let mut lines = text.lines();
    (lines.next() == Some(MAGIC)).then_some(())?;
    let fields: BTreeMap<&str, &str> = lines.take_while(|l| !l.is_empty()).filter_map(|l| l.split_once(": ")).collect();
    Some((fields.get("game")?.to_string(), fields.get("rules")?.to_string()))
}

/// The parts whose table files are in `dir`, by their file names without the extension (`captured-4`); none
/// where `dir` cannot be read.
pub fn parts_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let names = entries.filter_map(|e| e.ok()?.file_name().into_string().ok());
    names.filter_map(|name| name.strip_suffix(".retro").map(String::from)).collect()
}

/// The table of a whole endgame (from its first part) from the files in `dir` that `retro` wrote for the game
/// named `game`: a part whose file is absent (`retro --captured` solved fewer) is left out, its positions not
/// in the table; no file at all is an error.
pub fn load<G: Game>(dir: &Path, game: &str, endgame: &Endgame<G>) -> Result<OutcomeTable> {
    let mut codes = vec![UNUSED; endgame.space.len() as usize];
    let mut found = 0;
    for part in &endgame.parts {
        let (file, numbers) = (path(dir, &part.file), &part.numbers);
        if !file.exists() {
            continue;
        }
        let header = Header { game: game.to_string(), rules: endgame.rules.clone(), part: part.name.clone() };
        let part = read(&file, &header, numbers.end - numbers.start)?;
        codes[numbers.start as usize..numbers.end as usize].copy_from_slice(&part);
        found += 1;
    }
    if found == 0 {
        bail!(
            "--tables {}: no table files there ({}; `retro --out DIR` writes them)",
            dir.display(),
            endgame.parts.first().map_or(String::new(), |part| path(dir, &part.file).display().to_string())
        );
    }
    Ok(OutcomeTable::from_codes(codes))
}

/// Writes the outcome codes of a part (one a number of the part) to `path`, atomically.
pub fn write(path: &Path, header: &Header, codes: &[u16]) -> Result<()> {
    let wide = codes.iter().any(|&c| c != UNUSED && c >= u16::from(u8::MAX));
    let data: Vec<u8> = if wide {
        codes.iter().flat_map(|c| c.to_le_bytes()).collect()
    } else {
        codes.iter().map(|&c| if c == UNUSED { u8::MAX } else { c as u8 }).collect()
    };
    let mut count = [0u64; 3];
    for outcome in codes.iter().filter_map(|&c| Outcome::from_code(c)) {
        count[Census::slot(outcome)] += 1;
    }
    let longest = codes.iter().filter(|&&c| c != UNUSED && c != 0).map(|&c| (c - 1) / 2).max().unwrap_or(0);
    let mut file = format!(
        "{MAGIC}\ngame: {}\nrules: {}\npart: {}\nnumbers: {}\nbytes: {}\nwins: {}\nlosses: {}\ndraws: {}\nlongest: {longest}\ncrc32: {:08x}\n\n",
        header.game,
        header.rules,
        header.part,
        codes.len(),
        if wide { 2 } else { 1 },
        count[0],
        count[1],
        count[2],
        crc32fast::hash(&data),
    )
    .into_bytes();
    file.extend_from_slice(&data);
    files::write_atomically(path, &file)
}

/// Reads the outcome codes of the part `header` names from `path`: the header must match it, the number count
/// must be `numbers`, and the checksum must hold.
pub fn read(path: &Path, header: &Header, numbers: u64) -> Result<Vec<u16>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read the table {}", path.display()))?;
    let bad = |why: String| anyhow::anyhow!("the table {} {why}", path.display());
    let end = bytes.windows(2).position(|w| w == b"\n\n").ok_or_else(|| bad("has no header".into()))?;
    let text = std::str::from_utf8(&bytes[..end]).map_err(|_| bad("has no header".into()))?;
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        bail!(bad(format!("does not start with {MAGIC:?}")));
    }
    let fields: BTreeMap<&str, &str> = lines.filter_map(|line| line.split_once(": ")).collect();
    let field = |key: &str| fields.get(key).copied().ok_or_else(|| bad(format!("has no {key:?} in its header")));
    for (key, expected) in [("game", &header.game), ("rules", &header.rules), ("part", &header.part)] {
        if field(key)? != expected {
            bail!(bad(format!("is for {key} {:?}, not {expected:?}", field(key)?)));
        }
    }
    let data = &bytes[end + 2..];
    let width: usize = match field("bytes")? {
        "1" => 1,
        "2" => 2,
        other => bail!(bad(format!("has {other:?} bytes a number; 1 or 2 expected"))),
    };
    if field("numbers")? != numbers.to_string() || data.len() as u64 != numbers * width as u64 {
        bail!(bad(format!("holds {} bytes, not the {numbers} numbers of {}", data.len(), header.part)));
    }
    if field("crc32")? != format!("{:08x}", crc32fast::hash(data)) {
        bail!(bad("is damaged: its checksum does not match its contents".into()));
    }
    Ok(if width == 1 {
        data.iter().map(|&b| if b == u8::MAX { UNUSED } else { u16::from(b) }).collect()
    } else {
        data.chunks_exact(2).map(|pair| u16::from_le_bytes([pair[0], pair[1]])).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_come_back_as_written_and_damage_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.retro");
        let header = Header { game: "bagh-chal".into(), rules: "size=3".into(), part: "captured 1".into() };
        for codes in [vec![0, 1, 2, UNUSED, 7, 254], vec![0, UNUSED, 300, 3]] {
            write(&path, &header, &codes).unwrap();
            assert_eq!(read(&path, &header, codes.len() as u64).unwrap(), codes);
            let other = Header { part: "captured 2".into(), ..header.clone() };
            assert!(read(&path, &other, codes.len() as u64).unwrap_err().to_string().contains("captured 1"));
            assert!(read(&path, &header, 99).is_err());
            let mut bytes = std::fs::read(&path).unwrap();
            *bytes.last_mut().unwrap() ^= 1;
            std::fs::write(&path, bytes).unwrap();
            assert!(read(&path, &header, codes.len() as u64).unwrap_err().to_string().contains("checksum"));
        }
    }
}
