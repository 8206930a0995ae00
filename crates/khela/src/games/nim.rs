//! Nim's entry: solved by its own memoized search (an impartial game's values depend on the heaps alone) and
//! checked against Bouton's XOR rule.

use crate::board::{Board as Drawn, Gesture, Kind, Point, Style};
use crate::registry::{Entry, Exact, Own, Spec, Theory, View};
use anyhow::{Result, bail};
use indicatif::HumanCount;
use khela_exact::{Algorithm, Memo, Natural, Searcher};
use khela_games::nim::{Heaps, Nim, Take};
use khela_games::{Game, NoEvaluator, Notation, Value};

/// The largest Nim search the solver runs, in sub-positions (the product of heap size + 1).
pub const MAX_POSITIONS: u64 = 1 << 26;

/// The most objects the solver takes in all heaps: the search goes one ply per object taken, and each ply keeps
/// its move list, so time and memory grow with the square of the total.
pub const MAX_OBJECTS: u64 = 5_000;

/// Memoized negamax over heap multisets: sound because Nim is impartial.
pub fn searcher() -> Searcher<'static, Nim, Natural, Memo<Nim>> {
    Searcher::new(&Nim, Natural).with_cache(Memo::impartial(|_, s| Nim::impartial_key(s)))
}

/// Refuses a position (written `text`) too large for the solver, naming its size and the limit.
pub fn check_size(text: &str, heaps: &Heaps) -> Result<()> {
    let objects: u64 = heaps.heaps.iter().map(|&h| u64::from(h)).sum();
    if objects > MAX_OBJECTS {
        bail!(
            "Nim position {text:?} has {} objects; the exact search goes one ply per object and is limited to {}",
            HumanCount(objects),
            HumanCount(MAX_OBJECTS)
        );
    }
    let positions = heaps.heaps.iter().try_fold(1u64, |acc, &h| acc.checked_mul(u64::from(h) + 1));
    if positions.is_none_or(|p| p > MAX_POSITIONS) {
        bail!(
            "Nim position {text:?} has {} sub-positions; the exact search is limited to {}",
            positions.map_or("more than 2^64".into(), |p| HumanCount(p).to_string()),
            HumanCount(MAX_POSITIONS)
        );
    }
    Ok(())
}

/// Nim's entry.
pub struct NimEntry;

impl Entry for NimEntry {
    type Game = Nim;
    type Evaluator = NoEvaluator;

    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("Nim", &[])?;
        Ok(NimEntry)
    }

    fn game(&self) -> &Nim {
        &Nim
    }

    fn title(&self) -> String {
        "Nim".to_string()
    }

    fn position_flag(&self) -> &'static str {
        "--heaps"
    }

    fn notation(&self) -> &'static str {
        "the heap sizes, like --heaps 3,4,5"
    }

    fn view(&self) -> View {
        View::First
    }

    fn max_moves(&self) -> u32 {
        u32::MAX
    }

    fn plies_left(&self, heaps: &Heaps) -> (u32, &'static str) {
        (heaps.heaps.iter().fold(0u32, |sum, &h| sum.saturating_add(h)), "objects in the heaps")
    }

    /// Its own memoized search over heap multisets.
    fn exact(&self) -> Exact {
        Exact::Own(Own::Nim)
    }

    /// Each move's win (+1) or loss (−1), the first player's view.
    fn own_values(&self, heaps: &Heaps) -> Option<Result<Vec<(Take, Value)>>> {
        let text = heaps.heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        Some(check_size(&text, heaps).map(|()| {
            let mut searcher = searcher();
            let mut moves = Vec::new();
            Nim.moves(heaps, &mut moves);
            moves.into_iter().map(|mv| (mv, searcher.run(Algorithm::Negamax, &Nim.child(heaps, mv)).value)).collect()
        }))
    }

    fn theory(&self) -> Option<Theory> {
        Some(Theory::Bouton)
    }

    /// Each heap a row of tokens, each token named by the move that takes the heap down to the tokens before it.
    fn board(&self, s: &Heaps) -> Drawn {
        let mut points = Vec::new();
        for (heap, &size) in s.heaps.iter().enumerate() {
            for to in 0..size {
                let name = Nim.write_move(Take { heap, from: size, to });
                points.push(Point { name, x: to as f32, y: heap as f32 });
            }
        }
        let mut drawn = Drawn::new(Style::Heaps, points);
        for token in 0..drawn.points.len() {
            drawn.put(token, 0, Kind::Token);
        }
        drawn
    }

    /// A click on the first token taken: it and every token after it go.
    fn gesture(&self, s: &Heaps, mv: Take) -> Gesture {
        let before: u32 = s.heaps[..mv.heap].iter().sum();
        Gesture::at((before + mv.to) as usize)
    }
}
