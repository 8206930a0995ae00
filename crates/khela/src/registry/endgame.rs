//! What a game's entry tells the commands about its endgame, for retrograde analysis (`retro`) and the tables'
//! users (`--tables`): the positions numbered, in parts written to a file each, how `retro` summarises them,
//! and how far a position lies before them.

use khela_exact::retro::Census;
use khela_games::{Game, Unmoves};
use std::ops::{Range, RangeInclusive};

/// Writes a position of `G` in its notation.
pub type WritePosition<G> = Box<dyn Fn(&<G as Game>::State) -> String + Send + Sync>;

/// The most plies before a position of `G` reaches an endgame, whatever is played; `None` where nothing bounds
/// them.
pub type PliesTo<G> = Box<dyn Fn(&<G as Game>::State) -> Option<u32> + Send + Sync>;

/// Which endgame `retro` solves, as its options choose it; a game takes one of them and refuses the other.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// `--captured`: the goats captured whose positions are summarised (Bagh-Chal).
    pub captured: Option<RangeInclusive<u8>>,
    /// `--pieces`: the most pieces on the board (Sixteen Soldiers).
    pub pieces: Option<u8>,
    /// A directory of tables the endgame must cover, for `--tables` (Sixteen Soldiers: as many pieces as its
    /// files hold; the parts' numbers do not depend on the most).
    pub within: Option<std::path::PathBuf>,
}

/// A part of an endgame: solved with the others, written to a table file of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Its name in its table file's header and in messages: `captured 4`, `pieces 3+2`.
    pub name: String,
    /// Its table file's name, without the extension: `captured-4`.
    pub file: String,
    /// Its numbers in the endgame's space.
    pub numbers: Range<u64>,
    /// Its leading columns in the summary: the goats captured; the pieces of each side.
    pub labels: Vec<String>,
    /// Whether `retro` summarises it (the parts the options ask for; the others are solved because the asked
    /// ones lead there, and written).
    pub summarised: bool,
}

/// A game's endgame, for retrograde analysis: its positions numbered, with their moves backwards ([`Unmoves`]),
/// in parts that are solved together and written to a table file each.
pub struct Endgame<G: Game> {
    /// The positions.
    pub space: Box<dyn Unmoves<Game = G> + Send + Sync>,
    /// The parts, in the order of their numbers.
    pub parts: Vec<Part>,
    /// The rules, as `--rules` takes them, every key given: table files must be for these.
    pub rules: String,
    /// Which positions it holds, in words.
    pub about: String,
    /// A position in the game's notation.
    pub write: WritePosition<G>,
    /// The most plies before a position's game reaches the endgame, whatever is played (Bagh-Chal: until the
    /// last goat is placed; 0 in the endgame); `None` where nothing bounds them (Sixteen Soldiers: captures).
    pub plies_to: PliesTo<G>,
    /// About how long an exact search to the tables takes from a position that many plies before them, in
    /// seconds on the machine of the book's figures (docs/src/endgames.md), for refusing the searches that would
    /// not end.
    pub seconds_to: fn(u32) -> f64,
    /// How `retro` summarises each part.
    pub summary: Summary<G>,
}

/// How `retro` summarises an endgame's parts in `summary.csv`: a row for each group of each part's positions,
/// its part's labels, then what the census of the group says.
pub struct Summary<G: Game> {
    /// The CSV header: the parts' label columns, then the rows' own.
    pub columns: &'static [&'static str],
    /// The groups of a part's positions (Bagh-Chal: by the side to move).
    pub groups: usize,
    /// The group of a position (below `groups`).
    pub group: fn(&G::State) -> usize,
    /// A group's columns, after its part's labels, from its census.
    pub row: fn(usize, &Census) -> Vec<String>,
}

/// A group's census as the summary's columns for the side to move: positions, wins, losses, draws, the same for
/// the classes up to symmetry, and the longest win in plies (0 where none).
pub fn census_row(census: &Census) -> Vec<String> {
    let ([won, lost, drawn], [c_won, c_lost, c_drawn]) = (census.positions, census.classes);
    let longest = census.longest_win.map_or(0, |(plies, _)| plies);
    [won + lost + drawn, won, lost, drawn, c_won + c_lost + c_drawn, c_won, c_lost, c_drawn, u64::from(longest)]
        .map(|n| n.to_string())
        .to_vec()
}
