//! Nim's entry: solved by its own memoized search (an impartial game's values depend on the heaps alone) and
//! checked against Bouton's XOR rule. Nim has no standard start; `nim(heaps=1+3+5+7)` gives it one, which bounds
//! every position of the game, so that its moves are numbered (the action of `H:T` is `H · widest + T`, the
//! widest the start's largest heap) and its positions drawn as planes (one plane, a row per heap, a 1 per object
//! left), as environments need.

use crate::board::{Board as Drawn, Gesture, Kind, Point, Style};
use crate::registry::{ActionOf, Entry, Exact, Observer, Own, Spec, Theory, View};
use anyhow::{Result, anyhow, bail};
use indicatif::HumanCount;
use khela_exact::{Algorithm, Memo, Natural, Searcher};
use khela_games::nim::{Heaps, Nim, Take};
use khela_games::{Game, NoEvaluator, Notation, Value};
use std::borrow::Cow;

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

/// The most actions a start's heaps may number (heaps × the largest heap): an environment's action mask and
/// observation hold one value per action.
pub const MAX_ACTIONS: usize = 1 << 16;

/// Why Nim without a start numbers no actions.
const NO_ACTIONS: &str = "its moves are numbered from a start, whose heaps bound every move: load nim(heaps=3+4+5)";

/// Why Nim without a start has no planes.
const NO_PLANES: &str = "its planes are shaped by a start's heaps: load nim(heaps=3+4+5)";

/// Nim's entry: the start its parameter `heaps` gives, if any.
pub struct NimEntry {
    start: Option<Start>,
}

/// A start given by the parameter `heaps`: its heaps in the notation, and its largest heap.
struct Start {
    text: String,
    heaps: Vec<u32>,
    widest: u32,
}

impl Start {
    /// The start of `heaps=3+4+5`.
    fn new(param: &str) -> Result<Start> {
        let heaps = param
            .split('+')
            .map(|heap| heap.trim().parse::<u32>())
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| anyhow!("heaps={param}: expected heap sizes joined by +, like heaps=3+4+5"))?;
        let text = heaps.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let heaps = Nim::parse(&text).map_err(|e| anyhow!("heaps={param}: {e}"))?.heaps;
        let widest = heaps.iter().copied().max().unwrap_or(0);
        if widest == 0 {
            bail!("heaps={param}: a start needs at least one object");
        }
        let actions = heaps.len() as u64 * u64::from(widest);
        if actions > MAX_ACTIONS as u64 {
            bail!(
                "heaps={param} numbers {} actions (the heaps times the largest); a start may number at most {}",
                HumanCount(actions),
                HumanCount(MAX_ACTIONS as u64)
            );
        }
        Ok(Start { text, heaps, widest })
    }
}

impl Entry for NimEntry {
    type Game = Nim;
    type Evaluator = NoEvaluator;

    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("Nim", &["heaps"])?;
        Ok(NimEntry { start: spec.params.get("heaps").map(Start::new).transpose()? })
    }

    fn start(&self) -> Option<Cow<'_, str>> {
        self.start.as_ref().map(|start| Cow::Borrowed(start.text.as_str()))
    }

    /// From a start, as many heaps, none larger than the start's (the first player to move, as Nim's positions
    /// are written: the value of a position of an impartial game does not depend on who is to move).
    fn admit(&self, text: &str, heaps: &Heaps) -> Result<()> {
        let Some(start) = &self.start else { return Ok(()) };
        let fits = heaps.heaps.len() == start.heaps.len() && heaps.heaps.iter().zip(&start.heaps).all(|(h, s)| h <= s);
        if !fits {
            bail!(
                "Nim position {text:?} is outside the start {}: a position of it has its {} heaps, each no larger",
                start.text,
                start.heaps.len()
            );
        }
        Ok(())
    }

    /// From a start: `H:T` is `H · widest + T`.
    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        let start = self.start.as_ref().ok_or(NO_ACTIONS)?;
        let action: ActionOf<Self> = |entry, mv| {
            let widest = entry.start.as_ref().expect("numbered from a start").widest;
            mv.heap * widest as usize + mv.to as usize
        };
        Ok((start.heaps.len() * start.widest as usize, action))
    }

    /// From a start: one plane, a row per heap, its first cells 1 for the objects left.
    fn observer(&self) -> Result<Observer<'_, Nim>, &'static str> {
        let start = self.start.as_ref().ok_or(NO_PLANES)?;
        let widest = start.widest as usize;
        Ok(Observer {
            shape: [1, start.heaps.len(), widest],
            largest: 1.0,
            encode: Box::new(move |state: &Heaps| {
                let mut planes = vec![0.0; state.heaps.len() * widest];
                for (row, &size) in planes.chunks_mut(widest).zip(&state.heaps) {
                    row.iter_mut().take(size as usize).for_each(|x| *x = 1.0);
                }
                planes
            }),
        })
    }

    fn game(&self) -> &Nim {
        &Nim
    }

    /// `Nim`, or `Nim from 3,4,5`.
    fn title(&self) -> String {
        match &self.start {
            Some(start) => format!("Nim from {}", start.text),
            None => "Nim".to_string(),
        }
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
