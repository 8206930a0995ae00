//! Bagh-Chal in the harness: the standard game, Bagh-Bandi or any setup of the family (`--rules`),
//! searched to a depth and by Monte Carlo, counted ply by ply; its positions repeat, so it is not solved exactly
//! by search.

use crate::board::{Board as Drawn, Gesture, Kind};
use crate::layers::{self, Placement};
use crate::registry::{
    ActionOf, Endgame, Entry, Part, Published, Scale, Scope, Spec, Summary, View, VisitNet, numbered,
};
use crate::verdict::{Before, Solved};
use anyhow::{Result, anyhow, bail};
use khela_exact::layered;
use khela_exact::retro::{Census, Outcome};
use khela_games::bagh_chal::placement::PlacementPhase;
use khela_games::bagh_chal::sliding::SlidingPhase;
use khela_games::bagh_chal::{BaghChal, Move, Position, Setup, ends};
use khela_games::{Space, alquerque};
use khela_heuristic::bagh_chal::Crowding;
use std::path::Path;

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

/// Bagh-Chal's entry: the setup of the options, and its name.
pub struct BaghChalEntry {
    game: BaghChal,
    title: String,
    standard: bool,
    setup: Setup,
}

/// The parameters Bagh-Chal takes: a preset of rules, or a list of keys, and the keys one by one.
const PARAMETERS: [&str; 7] = ["rules", "size", "tigers", "goats", "stacks", "first", "captures"];

/// What `--rules` takes.
const RULES: &str = "bagh-chal or bagh-bandi, then (or alone, on bagh-chal) keys like \
                     size=5,tigers=a5+e5+a1+e1,goats=20,stacks=b2:5+d2:5,first=goats,captures=5";

/// A setup written as `--rules` takes it, every key given (the stacks only when there are some).
fn rules_text(setup: &Setup) -> String {
    let mut text = format!("size={},tigers={},goats={}", setup.size, setup.tigers.join("+"), setup.goats);
    if !setup.stacks.is_empty() {
        let stacks: Vec<String> = setup.stacks.iter().map(|(point, n)| format!("{point}:{n}")).collect();
        text += &format!(",stacks={}", stacks.join("+"));
    }
    let first = if setup.goats_first { "goats" } else { "tigers" };
    text + &format!(",first={first},captures={}", setup.captures_to_win)
}

/// The setup `--rules` names: a variant, then keys that change it.
fn setup(rules: &str) -> Result<Setup> {
    let mut pairs = rules.split(',').peekable();
    let mut setup = match pairs.peek() {
        Some(&"bagh-chal") => Setup::bagh_chal(),
        Some(&"bagh-bandi") => Setup::bagh_bandi(),
        _ => Setup::bagh_chal(),
    };
    if matches!(pairs.peek(), Some(&("bagh-chal" | "bagh-bandi"))) {
        pairs.next();
    }
    let bad = |why: String| anyhow::anyhow!("--rules {rules:?}: {why}; --rules takes {RULES}");
    let mut given: Vec<&str> = Vec::new();
    for pair in pairs {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(bad(format!("{pair:?} is not key=value")));
        };
        if given.contains(&key) {
            return Err(bad(format!("{key} is given twice")));
        }
        given.push(key);
        let number = |text: &str| text.parse::<u8>().map_err(|_| bad(format!("{key}={text:?} is not a number")));
        match key {
            "size" => setup.size = number(value)?,
            "goats" => setup.goats = number(value)?,
            "captures" => setup.captures_to_win = number(value)?,
            "tigers" => setup.tigers = value.split('+').map(String::from).collect(),
            "stacks" => {
                setup.stacks = Vec::new();
                for stack in value.split('+').filter(|s| !s.is_empty()) {
                    let Some((point, height)) = stack.split_once(':') else {
                        return Err(bad(format!("stack {stack:?} is not point:goats")));
                    };
                    setup.stacks.push((point.to_string(), number(height)?));
                }
            }
            "first" => {
                setup.goats_first = match value {
                    "goats" => true,
                    "tigers" => false,
                    _ => return Err(bad(format!("first={value:?} is not goats or tigers"))),
                }
            }
            _ => return Err(bad(format!("no key {key:?}"))),
        }
    }
    Ok(setup)
}

impl BaghChalEntry {
    /// [`Entry::endgame`]'s answer.
    fn sliding_phase(&self, scope: &Scope) -> Result<Endgame<BaghChal>> {
        if scope.pieces.is_some() {
            bail!("retro --pieces is for Sixteen Soldiers' endgames; {}'s are chosen by --captured", self.title);
        }
        let last = self.game.captures_to_win().saturating_sub(1);
        let captured = scope.captured.clone().unwrap_or(0..=last);
        if *captured.end() > last {
            let asked = if captured.start() == captured.end() {
                captured.start().to_string()
            } else {
                format!("{}..{}", captured.start(), captured.end())
            };
            bail!(
                "--captured {asked}: the tigers win at {} goats captured, so {}'s sliding phase has 0 to {last} \
                 captured; give a number or a range within 0..{last}",
                last + 1,
                self.title
            );
        }
        let space = SlidingPhase::new(&self.game, *captured.start()).map_err(|e| anyhow!("{}: {e}", self.title))?;
        let parts = space
            .slices()
            .into_iter()
            .map(|(c, numbers)| Part {
                name: format!("captured {c}"),
                file: format!("captured-{c}"),
                numbers,
                labels: vec![c.to_string()],
                summarised: captured.contains(&c),
            })
            .collect();
        let game = self.game.clone();
        Ok(Endgame {
            parts,
            space: Box::new(space),
            rules: rules_text(&self.setup),
            about: "the sliding phase, every goat placed, fewer captured than the tigers need".into(),
            write: Box::new(move |position| game.write(position)),
            // The goats place one a turn: with h in hand, the goats to move place the last in 2h − 1 plies.
            plies_to: Box::new(|p: &Position| {
                Some((2 * u32::from(p.in_hand)).saturating_sub(u32::from(p.goats_to_move)))
            }),
            // 14 s at 19 plies before the tables, and ten times as long for each ply more: from solves of
            // middle-game positions, whose cost varies widely from one to the next, so the estimate errs long
            // (measured: see docs/src/measured-choices.md, 'Bagh-Chal').
            seconds_to: |plies| 14.0 * 10f64.powf(f64::from(plies) - 19.0),
            summary: Summary {
                columns: &SUMMARY,
                groups: 2,
                group: |p| usize::from(p.goats_to_move),
                row: summary_row,
            },
        })
    }
}

/// The columns of `retro`'s summary (scripts depend on them).
const SUMMARY: [&str; 11] = [
    "captured",
    "to_move",
    "positions",
    "tiger_wins",
    "goat_wins",
    "draws",
    "canonical_positions",
    "canonical_tiger_wins",
    "canonical_goat_wins",
    "canonical_draws",
    "longest_win",
];

/// The summary row of one side to move (group 1: the goats), after the goats captured.
fn summary_row(goats_to_move: usize, census: &Census) -> Vec<String> {
    let [won, lost, drawn] = census.positions;
    let [c_won, c_lost, c_drawn] = census.classes;
    let (tiger_wins, goat_wins, c_tiger, c_goat) =
        if goats_to_move == 1 { (lost, won, c_lost, c_won) } else { (won, lost, c_won, c_lost) };
    let side = if goats_to_move == 1 { "goats" } else { "tigers" };
    let longest = census.longest_win.map_or(0, |(plies, _)| plies);
    let numbers =
        [won + lost + drawn, tiger_wins, goat_wins, drawn, c_won + c_lost + c_drawn, c_tiger, c_goat, c_drawn];
    std::iter::once(side.to_string()).chain(numbers.map(|n| n.to_string())).chain([longest.to_string()]).collect()
}

impl Entry for BaghChalEntry {
    type Game = BaghChal;
    type Evaluator = Crowding;

    /// The rules are `rules` (a preset, or a list of keys, as `--rules` takes them) followed by any of the keys
    /// given as parameters of their own: `bagh-chal(rules=bagh-bandi,captures=3)`, `bagh-chal(size=3,goats=6)`.
    fn new(spec: &Spec) -> Result<Self> {
        spec.params.only("Bagh-Chal", &PARAMETERS)?;
        let keys = spec.params.iter().filter(|&(key, _)| key != "rules").map(|(key, value)| format!("{key}={value}"));
        let rules: Vec<String> = spec.params.get("rules").map(String::from).into_iter().chain(keys).collect();
        let rules = if rules.is_empty() { "bagh-chal".to_string() } else { rules.join(",") };
        let rules = rules.as_str();
        let setup = setup(rules)?;
        let game = BaghChal::new(&setup).map_err(|e| anyhow::anyhow!("--rules {rules:?}: {e}"))?;
        let title = match rules {
            "bagh-chal" => "Bagh-Chal".to_string(),
            "bagh-bandi" => "Bagh-Bandi".to_string(),
            _ => format!("Bagh-Chal ({rules})"),
        };
        Ok(BaghChalEntry { game, title, standard: setup == Setup::bagh_chal(), setup })
    }

    fn game(&self) -> &BaghChal {
        &self.game
    }

    fn actions(&self) -> Result<(usize, ActionOf<Self>), &'static str> {
        numbered(self)
    }

    fn with_net<V: VisitNet>(&self, visitor: V) -> Option<V::Output<'_, BaghChal>> {
        Some(visitor.visit(self))
    }

    fn title(&self) -> String {
        self.title.clone()
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

    /// Each point empty, a tiger's or a goat's, times the goats in hand, the side to move and the stacks' heights.
    fn positions_bound(&self, position: &Position) -> f64 {
        3f64.powi(self.game.board().len() as i32) * f64::from(position.in_hand + 1) * 2.0 * self.game.stack_states()
    }

    /// The sliding phase, all goats placed, from the fewest goats captured that `--captured` asks for (0 by
    /// default): a part per number captured, those `--captured` names summarised.
    fn endgame(&self, scope: &Scope) -> Option<Result<Endgame<BaghChal>>> {
        Some(self.sliding_phase(scope))
    }

    /// The placement phase, every position with goats in hand (refused for a game with stacks).
    fn placement(&self) -> Option<Result<Placement>> {
        let space = PlacementPhase::new(&self.game).map_err(|e| anyhow!("{}: {e}", self.title));
        Some(space.map(|space| Placement { game: self.game.clone(), space, rules: rules_text(&self.setup) }))
    }

    /// The placement phase's layer tables in `dir`, where `retro --phase placement` wrote them.
    fn before_endgame(&self, name: &str, dir: &Path) -> Option<Result<Box<dyn Before<BaghChal>>>> {
        let placement = self.placement()?.ok()?; // a game with stacks has no placement tables
        let tables = layers::Tables::open(dir, name, placement).transpose()?;
        Some(tables.map(|tables| Box::new(tables) as Box<dyn Before<BaghChal>>))
    }

    /// The placement phase solved by layers in memory, with its distances, where it is small.
    fn solve_before_endgame(
        &self,
        endgame: &(dyn Fn(&Position) -> Option<Outcome> + Sync),
        most: u64,
    ) -> Option<Result<Box<dyn Before<BaghChal>>>> {
        let Placement { space, .. } = self.placement()?.ok()?;
        if space.len() > most {
            return None;
        }
        let table = layered::solve(&space, endgame, |_| {}).map_err(|e| anyhow!("{}: {e}", self.title));
        Some(table.map(|table| Box::new(Solved { space, table }) as Box<dyn Before<BaghChal>>))
    }

    /// Our counts from the standard start.
    fn per_ply(&self, position: &Position) -> Option<Option<Published>> {
        let standard = self.standard && *position == self.game.start_position();
        Some(standard.then_some(Published { sequences: &SEQUENCES, positions: &POSITIONS, growth: GROWTH }))
    }

    /// The goats captured (the first player's losses); a tiger is never taken.
    fn losses(&self, s: &Position) -> Option<[u32; 2]> {
        Some([u32::from(s.captured), 0])
    }

    /// The board's points and lines, a stack drawn with its height, the goats in hand and captured beside it.
    fn board(&self, s: &Position) -> Drawn {
        let game = &self.game;
        let mut drawn = Drawn::alquerque(game.board());
        for p in alquerque::points(s.tigers) {
            drawn.put(usize::from(p), 1, Kind::Tiger);
        }
        for p in alquerque::points(s.goats) {
            drawn.put(usize::from(p), 0, Kind::Goat);
            drawn.pieces.last_mut().expect("a goat put").count = game.height(s, p);
        }
        drawn.count("in_hand", Some(0), s.in_hand);
        drawn.count("captured", Some(0), s.captured);
        drawn
    }

    /// A placement on its point; a step from its point to the next; a capture over the goat it takes.
    fn gesture(&self, _: &Position, mv: Move) -> Gesture {
        let board = self.game.board();
        match ends(mv) {
            (None, to) => Gesture::at(usize::from(to)),
            (Some(from), to) => {
                let over =
                    board.jumps(from).iter().find(|&&(_, _, land)| land == to).map(|&(_, over, _)| usize::from(over));
                Gesture::path(vec![usize::from(from), usize::from(to)], over.into_iter().collect())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_written_out_read_back_the_same() {
        for rules in ["bagh-chal", "bagh-bandi", "size=3,tigers=b2,goats=4,captures=2,first=tigers"] {
            let given = setup(rules).unwrap();
            assert_eq!(setup(&rules_text(&given)).unwrap(), given, "{rules}");
        }
        assert_eq!(rules_text(&Setup::bagh_chal()), "size=5,tigers=a5+e5+a1+e1,goats=20,first=goats,captures=5");
        // A key given twice was read as its last value.
        let err = setup("size=3,size=5").unwrap_err().to_string();
        assert!(err.starts_with("--rules \"size=3,size=5\": size is given twice;"), "{err}");
    }

    /// The rules given whole (`--rules`), as a preset with keys, or key by key are the same game.
    #[test]
    fn rules_by_parameters() {
        let entry = |text: &str| BaghChalEntry::new(&text.parse().unwrap());
        let whole = entry("bagh-chal(rules=size=3,tigers=b2,goats=6,captures=3)").unwrap();
        let keys = entry("bagh-chal(size=3,tigers=b2,goats=6,captures=3)").unwrap();
        assert_eq!(whole.setup, keys.setup);
        assert_eq!(keys.setup.size, 3);
        let bandi = entry("bagh-chal(rules=bagh-bandi,captures=3)").unwrap();
        assert_eq!(bandi.setup, Setup { captures_to_win: 3, ..Setup::bagh_bandi() });
        assert_eq!(entry("bagh-chal(rules=bagh-bandi)").unwrap().title, "Bagh-Bandi");
        let err = entry("bagh-chal(width=3)").err().unwrap().to_string();
        assert_eq!(
            err,
            "Bagh-Chal takes no parameter width (its parameters: rules, size, tigers, goats, stacks, first, captures)"
        );
    }
}
