//! Sixteen Soldiers in the harness: each capture rule (`--rules`) and the quiet limit (`--quiet-limit`),
//! searched to a depth and by Monte Carlo, counted ply by ply; its positions repeat, so it is not solved exactly
//! by search.

use super::entry::{Entry, GameArgs, Published, Scale, View};
use anyhow::{Result, anyhow};
use khela_games::sixteen_soldiers::{Capture, Position, SixteenSoldiers};
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

impl Entry for SixteenSoldiersEntry {
    type Game = SixteenSoldiers;
    type Evaluator = Soldiers;

    fn new(args: &GameArgs) -> Result<Self> {
        args.refuse_options("Sixteen Soldiers", &["--rules", "--quiet-limit"])?;
        let capture = match args.rules.as_deref() {
            None => Capture::default(),
            Some(text) => text.parse().map_err(|_| {
                let names: Vec<&str> = Capture::VARIANTS.iter().map(|&c| c.into()).collect();
                anyhow!("--rules {text:?} is not a Sixteen Soldiers capture rule; the rules: {}", names.join(", "))
            })?,
        };
        if args.quiet_limit == Some(0) {
            return Err(anyhow!("--quiet-limit 0 would end the game before it starts; give 1 or more plies"));
        }
        Ok(SixteenSoldiersEntry { game: SixteenSoldiers::new(capture).with_quiet_limit(args.quiet_limit) })
    }

    fn game(&self) -> &SixteenSoldiers {
        &self.game
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

    /// Our counts from the standard start, with compulsory capture.
    fn per_ply(&self, position: &Position) -> Option<Option<Published>> {
        let standard = self.game.capture() == Capture::Compulsory && *position == self.game.start_position();
        Some(standard.then_some(Published { sequences: &SEQUENCES, positions: &POSITIONS, growth: GROWTH }))
    }
}
