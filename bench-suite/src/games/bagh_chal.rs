//! Bagh-Chal in the harness: the standard game or the two-tiger Bagh-Bandi (`--rules`), searched to a depth and
//! by Monte Carlo, counted ply by ply; its positions repeat, so it is not solved exactly by search.

use super::entry::{Entry, GameArgs, Published, Scale, View};
use anyhow::{Result, bail};
use khela_games::bagh_chal::{BaghChal, Position, Setup};
use khela_heuristic::bagh_chal::Crowding;

/// Bagh-Chal move sequences from the start, plies 0..=8 (perft; our counts, plies 1–4 checked by the tests
/// against a move generator written from the rules).
const SEQUENCES: [u64; 9] = [1, 21, 252, 5_052, 68_204, 1_304_788, 18_592_000, 339_123_476, 4_933_406_760];

/// Distinct Bagh-Chal positions after n plies from the start, n = 0..=8 (our counts).
const POSITIONS: [u64; 9] = [1, 21, 252, 2_772, 21_113, 149_751, 747_485, 3_850_406, 13_398_905];

/// Growth of the sequence count per ply beyond the table (the last ratio is 14.5).
const GROWTH: f64 = 15.0;

/// The softmax unit of the Bagh-Chal prior: a tiger move (1) is a small difference, a goat exposed (6) a large
/// one, so the prior leans away from hanging goats without ruling out the rest.
const PRIOR_UNIT: f64 = 3.0;

/// Bagh-Chal's entry: the setup of the options.
pub struct BaghChalEntry {
    game: BaghChal,
    bagh_bandi: bool,
}

impl Entry for BaghChalEntry {
    type Game = BaghChal;
    type Evaluator = Crowding;

    fn new(args: &GameArgs) -> Result<Self> {
        args.refuse_options("Bagh-Chal", &["--rules"])?;
        let bagh_bandi = match args.rules.as_deref() {
            None | Some("bagh-chal") => false,
            Some("bagh-bandi") => true,
            Some(other) => bail!("--rules {other:?} is not a Bagh-Chal variant; the variants: bagh-chal, bagh-bandi"),
        };
        let setup = if bagh_bandi { Setup::bagh_bandi() } else { Setup::bagh_chal() };
        Ok(BaghChalEntry { game: BaghChal::new(&setup)?, bagh_bandi })
    }

    fn game(&self) -> &BaghChal {
        &self.game
    }

    fn title(&self) -> String {
        if self.bagh_bandi { "Bagh-Bandi".to_string() } else { "Bagh-Chal".to_string() }
    }

    fn notation(&self) -> &'static str {
        "the ranks from the top, T, G or '.', then g or t to move and the goats in hand, like \
         T...T/...../...../...../T...T g 20"
    }

    fn view(&self) -> View {
        View::First
    }

    fn scale(&self) -> Option<Scale<Crowding>> {
        Some(Scale { evaluator: Crowding::new(&self.game), about: "crowding, the goats' view", prior_unit: PRIOR_UNIT })
    }

    fn max_moves(&self) -> u32 {
        self.game.max_moves()
    }

    /// The length cap, which no search passes (nor, though perft ignores the rules, does a count).
    fn plies_left(&self, _: &Position) -> (u32, &'static str) {
        (self.game.max_length(), "plies of the length cap")
    }

    /// Each point empty, a tiger's or a goat's, times the goats in hand and the side to move.
    fn positions_bound(&self, position: &Position) -> f64 {
        3f64.powi(self.game.board().len() as i32) * f64::from(position.in_hand + 1) * 2.0
    }

    /// Our counts from the standard start.
    fn per_ply(&self, position: &Position) -> Option<Option<Published>> {
        let standard = !self.bagh_bandi && *position == self.game.start_position();
        Some(standard.then_some(Published { sequences: &SEQUENCES, positions: &POSITIONS, growth: GROWTH }))
    }
}
