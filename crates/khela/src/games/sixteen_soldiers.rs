//! Sixteen Soldiers in the harness: each capture rule (`--rules`) and the quiet limit (`--quiet-limit`),
//! searched to a depth and by Monte Carlo, counted ply by ply; its positions repeat, so it is not solved exactly
//! by search.

use crate::board::{Board as Drawn, Gesture, Kind};
use crate::registry::{ActionOf, Endgame, Entry, Part, Published, Scale, Scope, Spec, Summary, View, census_row};
use crate::tables;
use anyhow::{Result, anyhow, bail};
use khela_games::alquerque;
use khela_games::sixteen_soldiers::endgame::{FewPieces, MOST};
use khela_games::sixteen_soldiers::{Capture, Move, Position, SixteenSoldiers};
use khela_heuristic::sixteen_soldiers::{MATERIAL, Soldiers};
use strum::VariantArray;

/// Sixteen Soldiers move sequences from the start with compulsory capture, plies 0..=12 (perft; our counts,
/// plies 1–4 checked by the tests against a move generator written from the rules).
const SEQUENCES: [u64; 13] =
    [1, 9, 21, 65, 323, 1_804, 9_406, 56_624, 359_122, 2_588_454, 18_670_702, 150_415_240, 1_228_097_696];

/// Distinct positions after n plies from the start with compulsory capture, n = 0..=10 (our counts).
const POSITIONS: [u64; 11] = [1, 9, 21, 65, 296, 1_534, 6_988, 32_570, 150_045, 695_200, 3_017_176];

/// Growth of the sequence count per ply beyond the table (the last ratio is 8.2).
const GROWTH: f64 = 8.5;

/// The softmax unit of the Sixteen Soldiers prior: a quarter of a piece, so that a move that wins a piece is
/// e⁴ ≈ 55 times as likely as one that does not.
const PRIOR_UNIT: f64 = MATERIAL / 4.0;

/// Sixteen Soldiers' entry: the rules of the options.
pub struct SixteenSoldiersEntry {
    game: SixteenSoldiers,
}

/// The most pieces on the board in the endgame tables by default: the "few pieces".
const ENDGAME_PIECES: u8 = 6;

/// Each side's soldiers at the start.
const SOLDIERS: u32 = 16;

/// The columns of `retro`'s summary: the pieces of the side to move and of the other side, then the outcomes
/// for the side to move.
const SUMMARY: [&str; 11] = [
    "pieces_to_move",
    "pieces_waiting",
    "positions",
    "wins",
    "losses",
    "draws",
    "canonical_positions",
    "canonical_wins",
    "canonical_losses",
    "canonical_draws",
    "longest_win",
];

/// The most pieces the table files in `dir` hold (`pieces-M-K.retro`: M + K), if it holds any.
fn most_in(dir: &std::path::Path) -> Option<u8> {
    let total = |name: String| -> Option<u8> {
        let (m, k) = name.strip_prefix("pieces-")?.split_once('-')?;
        m.parse::<u8>().ok()?.checked_add(k.parse().ok()?)
    };
    tables::parts_in(dir).into_iter().filter_map(total).filter(|n| (2..=MOST as u8).contains(n)).max()
}

/// The rules a game string gives (`rules=`, `quiet-limit=`, and `moves=`, which the registry reads first: a chain
/// a move, or a jump a decision, [`super::sixteen_soldiers_jumps`]).
pub(crate) fn rules(spec: &Spec) -> Result<SixteenSoldiers> {
    spec.params.only("Sixteen Soldiers", &["rules", "quiet-limit", "moves"])?;
    if let Some(moves) = spec.params.get("moves").filter(|&moves| moves != "chains" && moves != "jumps") {
        bail!("moves={moves}: chains (a chain of jumps a move, the default) or jumps (a jump a decision)");
    }
    let quiet_limit = spec.params.count::<u16>("quiet-limit")?;
    let capture = match spec.params.get("rules") {
        None => Capture::default(),
        Some(text) => text.parse().map_err(|_| {
            let names: Vec<&str> = Capture::VARIANTS.iter().map(|&c| c.into()).collect();
            anyhow!("--rules {text:?} is not a Sixteen Soldiers capture rule; the rules: {}", names.join(", "))
        })?,
    };
    if quiet_limit == Some(0) {
        bail!("--quiet-limit 0 would end the game before it starts; give 1 or more plies");
    }
    Ok(SixteenSoldiers::new(capture).with_quiet_limit(quiet_limit))
}

/// The board's 37 points and lines, X's soldiers (the first player's) and O's.
pub(crate) fn draw(game: &SixteenSoldiers, s: &Position) -> Drawn {
    let mut drawn = Drawn::alquerque(game.board());
    for (side, pieces) in [(0, s.x), (1, s.o)] {
        for p in alquerque::points(pieces) {
            drawn.put(usize::from(p), side, Kind::Disc);
        }
    }
    drawn
}

impl SixteenSoldiersEntry {
    /// [`Entry::endgame`]'s answer.
    fn few_pieces(&self, scope: &Scope) -> Result<Endgame<SixteenSoldiers>> {
        if scope.captured.is_some() {
            bail!(
                "retro --captured is for Bagh-Chal's sliding phase; Sixteen Soldiers' endgames are chosen by --pieces"
            );
        }
        let most = scope.pieces.or_else(|| scope.within.as_deref().and_then(most_in)).unwrap_or(ENDGAME_PIECES);
        let space = FewPieces::new(&self.game, u32::from(most)).map_err(|e| anyhow!("{}: {e}", self.title()))?;
        let parts = space
            .slices()
            .into_iter()
            .map(|(mover, waiting, numbers)| Part {
                name: format!("pieces {mover}+{waiting}"),
                file: format!("pieces-{mover}-{waiting}"),
                numbers,
                labels: vec![mover.to_string(), waiting.to_string()],
                summarised: true,
            })
            .collect();
        let game = self.game.clone();
        Ok(Endgame {
            parts,
            space: Box::new(space),
            rules: self.game.capture().to_string(),
            about: format!("every position with 2 to {most} pieces on the board"),
            write: Box::new(move |position| game.write(position)),
            // Only captures bring a game nearer its endgame, and none need ever come. (A position the tables hold
            // is read from them before anything asks; one whose part was not solved, no search reaches either.)
            plies_to: Box::new(|_: &Position| None),
            seconds_to: |_| 0.0,
            summary: Summary { columns: &SUMMARY, groups: 1, group: |_| 0, row: |_, census| census_row(census) },
        })
    }
}

impl Entry for SixteenSoldiersEntry {
    type Game = SixteenSoldiers;
    type Evaluator = Soldiers;

    fn new(spec: &Spec) -> Result<Self> {
        Ok(SixteenSoldiersEntry { game: rules(spec)? })
    }

    fn game(&self) -> &SixteenSoldiers {
        &self.game
    }

    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        Err("a chain of jumps may take any path, which no fixed list of actions names; \
             sixteen-soldiers(moves=jumps) plays a chain jump by jump, and numbers those")
    }

    fn title(&self) -> String {
        format!("Sixteen Soldiers ({} capture)", self.game.capture())
    }

    fn notation(&self) -> &'static str {
        "the 9 ranks from the top, X, O or '.', then x or o to move (and, with --quiet-limit, the plies since the \
         last capture), like OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX x"
    }

    fn view(&self) -> View {
        View::First
    }

    fn scale(&self) -> Option<Scale<Soldiers>> {
        Some(Scale { evaluator: Soldiers, about: "soldiers, X's view", prior_unit: PRIOR_UNIT })
    }

    /// 8 steps for each of 16 pieces (a position with chains of optional captures may have more).
    fn max_moves(&self) -> u32 {
        128
    }

    /// The length cap, which no search passes (nor, though perft ignores the rules, does a count).
    fn plies_left(&self, _: &Position) -> (u32, &'static str) {
        (self.game.max_length(), "plies of the length cap")
    }

    /// Each of the 37 points empty, X's or O's, and the side to move.
    fn positions_bound(&self, _: &Position) -> f64 {
        3f64.powi(37) * 2.0
    }

    /// The positions with up to `--pieces` pieces (6 by default), under the capture rule: a part per count of
    /// pieces of each side.
    fn endgame(&self, scope: &Scope) -> Option<Result<Endgame<SixteenSoldiers>>> {
        Some(self.few_pieces(scope))
    }

    /// Our counts from the standard start, with compulsory capture.
    fn per_ply(&self, position: &Position) -> Option<Option<Published>> {
        let standard = self.game.capture() == Capture::Compulsory && *position == self.game.start_position();
        Some(standard.then_some(Published { sequences: &SEQUENCES, positions: &POSITIONS, growth: GROWTH }))
    }

    /// The soldiers each side has lost: sixteen less those on the board (X, the first player's, first).
    fn losses(&self, s: &Position) -> Option<[u32; 2]> {
        Some([s.x, s.o].map(|pieces| SOLDIERS - alquerque::points(pieces).count() as u32))
    }

    /// The board's 37 points and lines, X's soldiers (the first player's) and O's.
    fn board(&self, s: &Position) -> Drawn {
        draw(&self.game, s)
    }

    /// A step from its point to the next; a chain of jumps through every landing, over the soldiers it takes.
    fn gesture(&self, _: &Position, mv: Move) -> Gesture {
        let points = |list: Vec<u8>| list.into_iter().map(usize::from).collect();
        Gesture::path(points(self.game.path(mv)), points(self.game.captures(mv)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::GameName;

    /// `--tables DIR` covers as many pieces as the directory's files hold (7 after `retro --pieces 7`).
    #[test]
    fn the_tables_say_how_many_pieces_they_hold() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(most_in(dir.path()), None);
        for name in ["pieces-1-1.retro", "pieces-4-3.retro", "pieces-3-3.retro", "pieces-9-9.retro", "summary.csv"] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        assert_eq!(most_in(dir.path()), Some(7));
        let entry = SixteenSoldiersEntry::new(&Spec::of(GameName::SixteenSoldiers)).unwrap();
        let scope = Scope { within: Some(dir.path().to_path_buf()), ..Scope::default() };
        let endgame = entry.endgame(&scope).unwrap().unwrap();
        assert_eq!(endgame.parts.last().map(|p| p.file.as_str()), Some("pieces-6-1"));
        assert_eq!(entry.endgame(&Scope::default()).unwrap().unwrap().parts.last().unwrap().file, "pieces-5-1");
    }
}
