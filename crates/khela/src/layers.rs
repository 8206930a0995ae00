//! The placement phase's tables on disk (`retro --phase placement`): a file a layer — one count of goats placed,
//! one side to move — of two-bit values ([`Packed`]), with its slices' counts in its header, beside the
//! sliding phase's tables ([`crate::tables`]) that its last placements lead to; and the tables opened to look
//! positions up ([`Tables`]).
//!
//! # The format
//!
//! A header of text lines, `key: value`, ended by an empty line, then the layer's values, four numbers a byte
//! ([`Packed::bytes`]):
//!
//! ```text
//! khela layer table 2
//! game: bagh-chal
//! rules: size=5,tigers=a5+e5+a1+e1,goats=20,first=goats,captures=5
//! layer: 19 placed, goats to move
//! numbers: 136841908
//! captured 0: 1 2 3 4 5 6 7 8
//! …
//! crc32: 1a2b3c4d
//!
//! <numbers / 4 bytes of values>
//! ```
//!
//! A value is 1 a win for the side to move, 2 a draw, 3 a loss, 0 a number that stands for no position. Each
//! `captured C` line counts the layer's positions with C goats captured: wins, draws and losses for the side
//! to move up to symmetry, then the same in full, then the fragile draws up to symmetry and in full (drawn
//! positions of the goats to move with a placement that loses; 0 where the tigers are to move); `crc32` is the CRC-32 (IEEE) of the value bytes.

use crate::verdict::{Before, Verdict};
use anyhow::{Context, Result, bail};
use khela_exact::layered::bagh_chal::{Layer, LayerValues, SliceCount, Solver};
use khela_exact::layered::{Packed, Wdl};
use khela_files as files;
use khela_games::Space;
use khela_games::bagh_chal::placement::PlacementPhase;
use khela_games::bagh_chal::{BaghChal, Position};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The first line of every layer file.
const MAGIC: &str = "khela layer table 2";

/// The first line of the files of the first format, whose counts lack the fragile draws.
const OLDER: &str = "khela layer table 1";

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
        let [f, ff] = count.fragile;
        text += &format!("captured {}: {w} {d} {l} {fw} {fd} {fl} {f} {ff}\n", slice.captured);
    }
    text += &format!("crc32: {:08x}\n\n", crc32fast::hash(values.table.bytes()));
    files::write_parts_atomically(path, &[text.as_bytes(), values.table.bytes()])
}

/// The counts a layer's file holds, by goats captured, from its header alone (the values are not read, nor
/// their checksum checked): the header must be `header`'s and the layer `numbers` long.
pub fn counts(path: &Path, header: &Header, numbers: u64) -> Result<Counts> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read the table {}", path.display()))?;
    let (counts, ..) = read_header(path, &mut BufReader::new(file), header, numbers)?;
    Ok(counts)
}

/// A layer's values and counts from its file: the header must be `header`'s, the layer `numbers` long, and the
/// checksum must hold.
pub fn read(path: &Path, header: &Header, numbers: u64) -> Result<(Packed, Counts)> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read the table {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let (counts, crc, _) = read_header(path, &mut reader, header, numbers)?;
    let mut bytes = Vec::with_capacity(Packed::bytes_for(numbers) as usize);
    reader.read_to_end(&mut bytes).with_context(|| format!("cannot read the table {}", path.display()))?;
    let bad = |why: &str| anyhow::anyhow!("the table {} {why}", path.display());
    let table = Packed::from_bytes(bytes, numbers).ok_or_else(|| bad("is cut short or too long"))?;
    if format!("{:08x}", crc32fast::hash(table.bytes())) != crc {
        bail!(bad("is damaged: its checksum does not match its contents"));
    }
    Ok((table, counts))
}

/// The placement phase's layer tables in a directory, opened to look positions up one at a time: each file's
/// header and length checked when opened, its checksum the first time one of its positions is read (a layer
/// is read whole once for that, a few hundred MB at most; a position's value is then one byte read).
pub struct Tables {
    space: PlacementPhase,
    layers: Vec<Opened>,
}

/// A layer's file, open.
struct Opened {
    path: PathBuf,
    numbers: Range<u64>,
    file: Mutex<File>,
    /// Where its values start: the header's length.
    values_at: u64,
    crc: String,
    /// Whether its checksum holds, once read.
    checked: OnceLock<Result<(), String>>,
}

impl Tables {
    /// The tables of `placement` in `dir`, for the game named `name`; `None` where `dir` holds none of them.
    ///
    /// # Errors
    ///
    /// Some layers' files but not all, and files that are unreadable, cut short, or for another game, rules or
    /// layer.
    pub fn open(dir: &Path, name: &str, placement: Placement) -> Result<Option<Tables>> {
        let Placement { space, rules, .. } = placement;
        let all = Solver::new(&space).layers().to_vec();
        let present = all.iter().filter(|layer| path(dir, layer).exists()).count();
        if present == 0 {
            return Ok(None);
        }
        if present < all.len() {
            bail!(
                "--tables {}: {present} of the placement phase's {} layer tables; `retro --game {name} --phase placement \
                 --out {}` makes the rest",
                dir.display(),
                all.len(),
                dir.display()
            );
        }
        let mut layers = Vec::with_capacity(all.len());
        for layer in &all {
            let path = path(dir, layer);
            let numbers = layer.numbers.end - layer.numbers.start;
            let file = File::open(&path).with_context(|| format!("cannot read the table {}", path.display()))?;
            let mut reader = BufReader::new(&file);
            let (_, crc, values_at) = read_header(&path, &mut reader, &Header::of(name, &rules, layer), numbers)?;
            let length = file.metadata().with_context(|| format!("cannot read the table {}", path.display()))?.len();
            if length != values_at + Packed::bytes_for(numbers) {
                bail!("the table {} is cut short or too long", path.display());
            }
            layers.push(Opened {
                path,
                numbers: layer.numbers.clone(),
                file: Mutex::new(file),
                values_at,
                crc,
                checked: OnceLock::new(),
            });
        }
        Ok(Some(Tables { space, layers }))
    }

    /// The value of `position` for its side to move; `None` for a position outside the placement phase.
    ///
    /// # Errors
    ///
    /// Its layer's file cannot be read, or its checksum does not match its contents.
    pub fn value(&self, position: &Position) -> Result<Option<Wdl>> {
        let Some(number) = self.space.index(position) else { return Ok(None) };
        let layer = &self.layers[self.layers.partition_point(|layer| layer.numbers.end <= number)];
        layer.check()?;
        let i = number - layer.numbers.start;
        let mut byte = [0u8];
        let mut file = layer.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        file.seek(SeekFrom::Start(layer.values_at + i / 4))
            .and_then(|_| file.read_exact(&mut byte))
            .with_context(|| format!("cannot read the table {}", layer.path.display()))?;
        Ok(Wdl::from_code(byte[0] >> (2 * (i % 4))))
    }
}

impl Before<BaghChal> for Tables {
    fn verdict(&self, state: &Position) -> Result<Option<Verdict>> {
        Ok(self.value(state)?.map(Verdict::of))
    }
}

impl Opened {
    /// Checks the layer's checksum, the first time only.
    fn check(&self) -> Result<()> {
        let checked = self.checked.get_or_init(|| {
            let mut reader =
                File::open(&self.path).map_err(|e| format!("cannot read the table {}: {e}", self.path.display()))?;
            let damaged =
                || format!("the table {} is damaged: its checksum does not match its contents", self.path.display());
            reader.seek(SeekFrom::Start(self.values_at)).map_err(|_| damaged())?;
            let mut hasher = crc32fast::Hasher::new();
            let mut buffer = vec![0u8; 1 << 22];
            loop {
                match reader.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(n) => hasher.update(&buffer[..n]),
                    Err(e) => return Err(format!("cannot read the table {}: {e}", self.path.display())),
                }
            }
            if format!("{:08x}", hasher.finalize()) != self.crc {
                return Err(damaged());
            }
            Ok(())
        });
        checked.clone().map_err(anyhow::Error::msg)
    }
}

/// A layer's counts by goats captured.
pub type Counts = Vec<(u8, SliceCount)>;

/// Reads and checks a layer file's header, up to the empty line: its counts, its checksum and its length in
/// bytes.
fn read_header(path: &Path, reader: &mut impl BufRead, header: &Header, numbers: u64) -> Result<(Counts, String, u64)> {
    let bad = |why: String| anyhow::anyhow!("the table {} {why}", path.display());
    let mut lines = Vec::new();
    let mut length = 0;
    loop {
        let mut line = String::new();
        let read = reader.by_ref().take(1 << 12).read_line(&mut line).map_err(|_| bad("has no header".into()))?;
        if read == 0 || lines.len() > 64 || !line.ends_with('\n') {
            bail!(bad("has no header".into()));
        }
        length += read as u64;
        if line == "\n" {
            break;
        }
        lines.push(line.trim_end().to_string());
    }
    if lines.first().map(String::as_str) == Some(OLDER) {
        bail!(bad("was made by an older khela, which did not count the fragile draws: delete it to remake it".into()));
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
        let (Ok(captured), &[w, d, l, fw, fd, fl, f, ff]) = (captured.parse::<u8>(), figures.as_slice()) else {
            bail!(bad(format!("has a damaged line {key:?}")));
        };
        counts.push((captured, SliceCount { canonical: [w, d, l], full: [fw, fd, fl], fragile: [f, ff] }));
    }
    counts.sort_by_key(|(captured, _)| *captured);
    Ok((counts, field("crc32")?.to_string(), length))
}
