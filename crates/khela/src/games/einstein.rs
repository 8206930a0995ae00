//! EinStein würfelt nicht! in the harness: a setup (`--setup FIRST/SECOND`, or one drawn from a seed), searched
//! under chance to a depth with the race evaluator, by Monte Carlo, counted turn by turn, and its small endgames
//! solved exactly by memoized expectiminimax.

use crate::board::{Board as Drawn, Gesture, Kind, Style};
use crate::registry::{ActionOf, Entry, Exact, Observe, Observer, Published, Scale, Spec, View, VisitNet, numbered};
use anyhow::{Result, anyhow};
use khela_games::einstein::{Einstein, GONE, Move, SIDE, Setup, State, square_name};
use khela_heuristic::einstein::Race;

/// The softmax unit of the EinStein prior: ten points of the race estimate (about ten points of winning chance).
const PRIOR_UNIT: f64 = 10.0;

/// The largest bound on the positions below a position that `solve` values exactly (a memo of about 40 bytes a
/// position: 1.2 GB at most); two cubes a side anywhere are within it, three a side near their corners are not.
const MAX_EXACT_POSITIONS: u64 = 30_000_000;

/// EinStein's entry: its setup.
pub struct EinsteinEntry {
    game: Einstein,
    setup: Option<Setup>,
}

/// The setup `--setup` gives: `FIRST/SECOND`, or `random:N`, drawn from seed N (`random` alone: seed 0).
fn setup_of(text: &str) -> Result<Setup> {
    if text == "random" {
        return Ok(Setup::random(0));
    }
    if text.starts_with("random") {
        // An empty seed (`random:`) is a seed forgotten, not seed 0.
        let seed = text.strip_prefix("random:").and_then(|seed| seed.parse::<u64>().ok());
        return seed.map(Setup::random).ok_or_else(|| anyhow!("--setup {text:?}: random:N takes a seed N, 0 or more"));
    }
    Setup::parse(text).map_err(|e| anyhow!("--setup: {e}"))
}

/// The moves a cube on `square` of player `p` (0: first) can still make: each one brings its row and column
/// distances to the goal down by one or two in all.
fn moves_left(p: usize, square: u8) -> u32 {
    let (row, col) = (u32::from(square / SIDE), u32::from(square % SIDE));
    let side = u32::from(SIDE) - 1;
    if p == 0 { (side - row) + (side - col) } else { row + col }
}

impl Entry for EinsteinEntry {
    type Game = Einstein;
    type Evaluator = Race;

    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("EinStein würfelt nicht!", &["setup"])?;
        let setup = spec.params.get("setup").map(setup_of).transpose()?;
        Ok(EinsteinEntry { game: Einstein::new(setup.unwrap_or_else(|| Setup::random(0))), setup })
    }

    /// A setup places every cube: a position may not be given beside it.
    fn start_fixed_by(&self) -> Option<&'static str> {
        self.setup.map(|_| "setup")
    }

    fn game(&self) -> &Einstein {
        &self.game
    }

    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        numbered(self)
    }

    fn observer(&self) -> Result<Observer<'_, Self::Game>, &'static str> {
        Ok(Observe.visit(self))
    }

    fn title(&self) -> String {
        match self.setup {
            Some(setup) => format!("EinStein würfelt nicht! (setup {setup})"),
            None => "EinStein würfelt nicht!".to_string(),
        }
    }

    fn notation(&self) -> &'static str {
        "the rows from the top separated by '/', five squares each ('.', the first player's cubes 1-6, the \
         second's a-f), then first or second to move, then the die's face once rolled, like \
         124../35.../6...d/...eb/..fca first"
    }

    fn view(&self) -> View {
        View::First
    }

    fn scale(&self) -> Option<Scale<Race>> {
        Some(Scale { evaluator: Race, about: "race, first player's view", prior_unit: PRIOR_UNIT })
    }

    /// A ply is a turn: six faces, each allowing up to two cubes (a missing number's neighbours) three moves.
    fn max_moves(&self) -> u32 {
        36
    }

    fn plies_left(&self, state: &State) -> (u32, &'static str) {
        let left = (0..2)
            .flat_map(|p| state.cubes[p].iter().filter(|&&sq| sq != GONE).map(move |&sq| moves_left(p, sq)))
            .sum();
        (left, "moves the cubes can still make")
    }

    /// Each cube on one of the squares it can still reach or gone, either side to move, the die down or showing
    /// a face.
    fn positions_bound(&self, state: &State) -> f64 {
        let mut bound = 2.0 * 7.0;
        for p in 0..2 {
            for &square in state.cubes[p].iter().filter(|&&sq| sq != GONE) {
                let (row, col) = (f64::from(square / SIDE), f64::from(square % SIDE));
                let side = f64::from(SIDE);
                let reach = if p == 0 { (side - row) * (side - col) } else { (row + 1.0) * (col + 1.0) };
                bound *= reach + 1.0;
            }
        }
        bound
    }

    fn exact(&self) -> Exact {
        Exact::Memoized(MAX_EXACT_POSITIONS)
    }

    /// No published counts: ours, checked by the tests against a move generator written from the rules.
    fn per_ply(&self, _: &State) -> Option<Option<Published>> {
        Some(None)
    }

    fn deal(&self, seed: u64) -> Option<String> {
        self.setup.is_none().then(|| Einstein::write(&Setup::random(seed).state()))
    }

    /// The 5 × 5 grid, `a5` at the top left, each cube with its number, the die's face once rolled.
    fn board(&self, s: &State) -> Drawn {
        let side = u32::from(SIDE);
        let mut drawn = Drawn::grid(Style::Cells, side, side, |column, row| square_name(square_at(column, row)));
        for (player, cubes) in s.cubes.iter().enumerate() {
            for (number, &square) in cubes.iter().enumerate() {
                if square != GONE {
                    drawn.put(point(square), player as u8, Kind::Cube);
                    drawn.pieces.last_mut().expect("a cube put").label = Some((number + 1).to_string());
                }
            }
        }
        if s.die > 0 {
            drawn.count("die", None, s.die);
        }
        drawn
    }

    /// A cube's step from its square to the next, taking any cube there; the die's faces are buttons.
    fn gesture(&self, s: &State, mv: Move) -> Gesture {
        match mv {
            Move::Roll(_) => Gesture::button(),
            Move::Step(from, to) => {
                let taken = s.cubes.iter().flatten().any(|&square| square == to);
                Gesture::path(vec![point(from), point(to)], if taken { vec![point(to)] } else { Vec::new() })
            }
        }
    }
}

/// The square in `column` (a = 0) at `row` from the top of the drawn board.
fn square_at(column: u32, row: u32) -> u8 {
    ((u32::from(SIDE) - 1 - row) * u32::from(SIDE) + column) as u8
}

/// The drawn board's point of `square` (the board is drawn rank 5 first).
fn point(square: u8) -> usize {
    usize::from((SIDE - 1 - square / SIDE) * SIDE + square % SIDE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `random` alone is seed 0; `random:` with no seed, or a seed run into the word, is refused.
    #[test]
    fn a_random_setup_names_its_seed() {
        assert_eq!(setup_of("random").unwrap(), Setup::random(0));
        assert_eq!(setup_of("random:7").unwrap(), Setup::random(7));
        for bad in ["random:", "random7", "random:-1"] {
            let err = setup_of(bad).unwrap_err().to_string();
            assert!(err.contains("random:N takes a seed N"), "{bad}: {err}");
        }
    }
}
