//! The placement phase's tables on disk (`retro --phase placement`): a file a layer — one count of goats placed,
//! one side to move — of two-bit values ([`Packed`]), with its slices' counts in its header, beside the
//! sliding phase's tables ([`crate::tables`]) that its last placements lead to.
//!
//! # The format
//!
//! A header of text lines, `key: value`, ended by an empty line, then the layer's values, four numbers a byte
//! ([`Packed::bytes`]):
//!
//! ```text
//! khela layer table 1
//! game: bagh-chal
//! rules: size=5,tigers=a5+e5+a1+e1,goats=20,first=goats,captures=5
//! layer: 19 placed, goats to move
//! numbers: 136841908
//! captured 0: 1 2 3 4 5 6
//! …
//! crc32: 1a2b3c4d
//!
//! <numbers / 4 bytes of values>
//! ```
//!
//! A value is 1 a win for the side to move, 2 a draw, 3 a loss, 0 a number that stands for no position. Each
//! `captured C` line counts the layer's positions with C goats captured: wins, draws and losses for the side
//! to move up to symmetry, then the same in full; `crc32` is the CRC-32 (IEEE) of the value bytes.

use anyhow::{Context, Result, bail};
use khela_exact::layered::Packed;
use khela_exact::layered::bagh_chal::{Layer, LayerValues, SliceCount};
use khela_files as files;
use khela_games::bagh_chal::BaghChal;
use khela_games::bagh_chal::placement::PlacementPhase;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The first line of every layer file.
const MAGIC: &str = "khela layer table 1";

/// A game's placement phase, for its layer tables.
pub struct Placement {
    /// The game.
    pub game: BaghChal,
    /// Its placement phase, numbered.
    pub space: PlacementPhase,
    /// The rules, as `--rules` takes them, every key given: the files must be for these.
    pub rules: String,
}

/// The header of a layer's file: whose it is, and which layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game's name, as `--game` takes it.
    pub game: String,
    /// Its rules.
    pub rules: String,
    /// The layer, in words (`19 placed, goats to move`).
    pub layer: String,
}

impl Header {
    /// The header of `layer`'s file for the game named `game` with these rules.
    pub fn of(game: &str, rules: &str, layer: &Layer) -> Header {
        let side = if layer.goats_to_move { "goats" } else { "tigers" };
        Header { game: game.into(), rules: rules.into(), layer: format!("{} placed, {side} to move", layer.placed) }
    }
}

/// The file of `layer` in `dir`: `placement-19-goats.wdl`.
pub fn path(dir: &Path, layer: &Layer) -> PathBuf {
    let side = if layer.goats_to_move { "goats" } else { "tigers" };
    dir.join(format!("placement-{:02}-{side}.wdl", layer.placed))
}

/// Writes a layer's values and counts to `path`, atomically.
pub fn write(path: &Path, header: &Header, values: &LayerValues) -> Result<()> {
    let mut text = format!(
        "{MAGIC}\ngame: {}\nrules: {}\nlayer: {}\nnumbers: {}\n",
        header.game,
        header.rules,
        header.layer,
        values.table.len()
    );
    for (slice, count) in &values.slices {
        let [w, d, l] = count.canonical;
        let [fw, fd, fl] = count.full;
        text += &format!("captured {}: {w} {d} {l} {fw} {fd} {fl}\n", slice.captured);
    }
    text += &format!("crc32: {:08x}\n\n", crc32fast::hash(values.table.bytes()));
    files::write_parts_atomically(path, &[text.as_bytes(), values.table.bytes()])
}

/// The counts a layer's file holds, by goats captured, from its header alone (the values are not read, nor
/// their checksum checked): the header must be `header`'s and the layer `numbers` long.
pub fn counts(path: &Path, header: &Header, numbers: u64) -> Result<Vec<(u8, SliceCount)>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read the table {}", path.display()))?;
    let (counts, _) = read_header(path, &mut BufReader::new(file), header, numbers)?;
    Ok(counts)
}

/// A layer's values and counts from its file: the header must be `header`'s, the layer `numbers` long, and the
/// checksum must hold.
pub fn read(path: &Path, header: &Header, numbers: u64) -> Result<(Packed, Vec<(u8, SliceCount)>)> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read the table {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let (counts, crc) = read_header(path, &mut reader, header, numbers)?;
    let mut bytes = Vec::with_capacity(Packed::bytes_for(numbers) as usize);
    reader.read_to_end(&mut bytes).with_context(|| format!("cannot read the table {}", path.display()))?;
    let bad = |why: &str| anyhow::anyhow!("the table {} {why}", path.display());
    let table = Packed::from_bytes(bytes, numbers).ok_or_else(|| bad("is cut short or too long"))?;
    if format!("{:08x}", crc32fast::hash(table.bytes())) != crc {
        bail!(bad("is damaged: its checksum does not match its contents"));
    }
    Ok((table, counts))
}

/// Reads and checks a layer file's header, up to the empty line: its counts and its checksum.
fn read_header(
    path: &Path,
    reader: &mut impl BufRead,
    header: &Header,
    numbers: u64,
) -> Result<(Vec<(u8, SliceCount)>, String)> {
    let bad = |why: String| anyhow::anyhow!("the table {} {why}", path.display());
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        let read = reader.by_ref().take(1 << 12).read_line(&mut line).map_err(|_| bad("has no header".into()))?;
        if read == 0 || lines.len() > 64 || !line.ends_with('\n') {
            bail!(bad("has no header".into()));
        }
        if line == "\n" {
            break;
        }
        lines.push(line.trim_end().to_string());
    }
    if lines.first().map(String::as_str) != Some(MAGIC) {
        bail!(bad(format!("does not start with {MAGIC:?}")));
    }
    let fields: BTreeMap<&str, &str> = lines[1..].iter().filter_map(|line| line.split_once(": ")).collect();
    let field = |key: &str| fields.get(key).copied().ok_or_else(|| bad(format!("has no {key:?} in its header")));
    for (key, expected) in [("game", &header.game), ("rules", &header.rules), ("layer", &header.layer)] {
        if field(key)? != expected {
            bail!(bad(format!("is for {key} {:?}, not {expected:?}", field(key)?)));
        }
    }
    if field("numbers")? != numbers.to_string() {
        bail!(bad(format!("holds {} numbers, not the {numbers} of {}", field("numbers")?, header.layer)));
    }
    let mut counts = Vec::new();
    for (key, value) in &fields {
        let Some(captured) = key.strip_prefix("captured ") else { continue };
        let figures: Vec<u64> = value.split(' ').filter_map(|n| n.parse().ok()).collect();
        let (Ok(captured), &[w, d, l, fw, fd, fl]) = (captured.parse::<u8>(), figures.as_slice()) else {
            bail!(bad(format!("has a damaged line {key:?}")));
        };
        counts.push((captured, SliceCount { canonical: [w, d, l], full: [fw, fd, fl] }));
    }
    counts.sort_by_key(|(captured, _)| *captured);
    Ok((counts, field("crc32")?.to_string()))
}
