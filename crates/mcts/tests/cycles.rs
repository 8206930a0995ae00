//! Searches on games whose positions repeat: two toy games whose values the cycle rules alone decide — Retreat
//! (the only escape from a loss is to repeat the position) and Climb (positions never repeat, but the game never
//! ends: only the length cap does) — for Monte Carlo and for the exact crate's depth-limited search and its
//! table; then Monte Carlo on Bagh-Chal and Sixteen Soldiers, whose playouts must end.

use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::bagh_chal::BaghChal;
use khela_games::sixteen_soldiers::{Capture, SixteenSoldiers};
use khela_games::{Cycles, Game, Node, Player, Value};
use khela_mcts::random::Pcg;
use khela_mcts::{MctsConfig, Proof, Search, Uct};
use khela_tt::{Replacement, Table};

/// Retreat: at the root MAX may fight (MIN then wins) or retreat (MIN's only move then returns to the root: a
/// repetition). Under the rules the root is a draw, won by retreating.
struct Retreat;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Spot {
    Root,
    Retreated,
    Fought,
    Lost,
}

const FIGHT: u8 = 0;
const RETREAT: u8 = 1;

impl Game for Retreat {
    type State = Spot;
    type Move = u8;

    fn node(&self, spot: &Spot) -> Node {
        match spot {
            Spot::Root => Node::Decision(Player::Max),
            Spot::Retreated | Spot::Fought => Node::Decision(Player::Min),
            Spot::Lost => Node::Terminal(-1.0),
        }
    }

    fn moves(&self, spot: &Spot, buf: &mut Vec<u8>) {
        buf.clear();
        match spot {
            Spot::Root => buf.extend([FIGHT, RETREAT]),
            Spot::Retreated | Spot::Fought => buf.push(0),
            Spot::Lost => {}
        }
    }

    fn play(&self, spot: &mut Spot, mv: u8) {
        *spot = match (*spot, mv) {
            (Spot::Root, FIGHT) => Spot::Fought,
            (Spot::Root, _) => Spot::Retreated,
            (Spot::Retreated, _) => Spot::Root,
            _ => Spot::Lost,
        };
    }

    fn key(&self, spot: &Spot) -> u64 {
        *spot as u64 + 1
    }

    fn cycles(&self) -> Option<Cycles> {
        Some(Cycles { max_length: 100 })
    }
}

/// Climb: a counter that each move raises by one, MAX and MIN in turn; no position repeats and none is
/// terminal, so only the length cap (10 plies) ends a game, in a draw.
struct Climb;

impl Game for Climb {
    type State = u32;
    type Move = u8;

    fn node(&self, n: &u32) -> Node {
        Node::Decision(if n.is_multiple_of(2) { Player::Max } else { Player::Min })
    }

    fn moves(&self, _: &u32, buf: &mut Vec<u8>) {
        buf.clear();
        buf.extend([0, 1]);
    }

    fn play(&self, n: &mut u32, _: u8) {
        *n += 1;
    }

    fn key(&self, n: &u32) -> u64 {
        u64::from(*n)
    }

    fn cycles(&self) -> Option<Cycles> {
        Some(Cycles { max_length: 10 })
    }
}

/// An evaluator that thinks every open position a win for MAX: only the rules can say otherwise.
fn hopeful<G: Game>(_: &G, _: &G::State) -> Value {
    0.5
}

#[test]
fn depth_limited_search_retreats_and_stores_no_draw() {
    for depth in 2..8 {
        let table: Table<u8> = Table::with_entries(1 << 8, Replacement::TwoTier);
        let mut searcher = Searcher::new(&Retreat, Natural).with_evaluator(hopeful).with_cache(table);
        let result = searcher.run_to_depth(Algorithm::IterativeDeepening, &Spot::Root, depth);
        assert_eq!((result.value, result.best), (0.0, Some(RETREAT)), "depth {depth}");
        let mut table = searcher.into_cache();
        // The fight's loss is the position's own value, stored; the retreat met the repetition, so neither it nor
        // the root (whose value it made) is stored from a search that reached it: the root keeps only its first
        // iteration, one ply deep, which ended at the horizon before any repetition.
        assert!(table.probe(Retreat.key(&Spot::Fought)).is_some(), "depth {depth}");
        assert!(table.probe(Retreat.key(&Spot::Retreated)).is_none(), "depth {depth}");
        let root = table.probe(Retreat.key(&Spot::Root)).expect("the first iteration's root");
        assert_eq!(root.depth(), 1, "depth {depth}");
    }
}

#[test]
fn a_history_makes_the_first_move_back_a_draw() {
    // After Root → Retreated, MIN's only move returns to the root: a draw at once (the evaluator would say 0.5).
    let mut searcher =
        Searcher::new(&Retreat, Natural).with_evaluator(hopeful).with_history(vec![Retreat.key(&Spot::Root)]);
    assert_eq!(searcher.run_to_depth(Algorithm::AlphaBeta, &Spot::Retreated, 3).value, 0.0);
    let mut fresh = Searcher::new(&Retreat, Natural).with_evaluator(hopeful);
    assert_eq!(fresh.run_to_depth(Algorithm::AlphaBeta, &Spot::Retreated, 1).value, 0.5);
}

#[test]
fn the_length_cap_ends_every_search() {
    // Ten plies from the start the game is drawn; a horizon nearer than the cap sees the evaluator's 0.5.
    let mut searcher = Searcher::new(&Climb, Natural).with_evaluator(hopeful);
    assert_eq!(searcher.run_to_depth(Algorithm::AlphaBeta, &0, 12).value, 0.0);
    assert_eq!(searcher.run_to_depth(Algorithm::AlphaBeta, &0, 9).value, 0.5);
    assert_eq!(searcher.with_history(vec![0; 5]).run_to_depth(Algorithm::AlphaBeta, &0, 6).value, 0.0);
    // Monte Carlo: every playout is a draw at the cap.
    let mut search: Search<_, _, Pcg> = Search::new(&Climb, 0, Uct::default(), MctsConfig::default());
    let summary = search.run(500);
    assert_eq!(summary.iterations, 500);
    let stats = search.stats();
    assert!(stats.iter().all(|s| s.wins * 2.0 == s.visits as f64), "{stats:?}");
}

#[test]
fn monte_carlo_retreats() {
    for solver in [false, true] {
        let config = MctsConfig { solver, ..MctsConfig::default() };
        let mut search: Search<_, _, Pcg> = Search::new(&Retreat, Spot::Root, Uct::default(), config);
        search.run(1000);
        assert_eq!(search.best(), Some(RETREAT), "solver {solver}");
        let stats = search.stats();
        let retreat = stats.iter().find(|s| s.mv == RETREAT).unwrap();
        assert_eq!(retreat.wins * 2.0, retreat.visits as f64, "every retreat is a draw");
        let fight = stats.iter().find(|s| s.mv == FIGHT).unwrap();
        assert_eq!(fight.wins, 0.0);
        assert_eq!(fight.proof, solver.then_some(Proof::Loss));
        // A draw by repetition is no proof: the root stays open.
        assert_eq!(search.proof(), None);
    }
}

#[test]
fn monte_carlo_on_the_regional_games_ends_and_repeats_itself() {
    let bagh = BaghChal::standard();
    let soldiers = SixteenSoldiers::new(Capture::Optional);
    fn twice<G: Game>(game: &G, state: G::State)
    where
        G::State: Clone,
    {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                let mut search: Search<_, _, Pcg> =
                    Search::new(game, state.clone(), Uct::default(), MctsConfig::default());
                let summary = search.run(300);
                assert_eq!(summary.iterations, 300);
                search.stats()
            })
            .collect();
        assert_eq!(runs[0], runs[1], "the same seed, the same search");
    }
    twice(&bagh, bagh.start_position());
    twice(&soldiers, soldiers.start_position());
}

#[test]
fn monte_carlo_takes_the_history_and_keeps_it_when_advancing() {
    // After Root → Retreated, MIN's only move returns to the root: with the history, a draw; without it, MAX
    // then fights or retreats again, and the search sees more than a draw.
    let history = vec![Retreat.key(&Spot::Root)];
    let mut told: Search<_, _, Pcg> =
        Search::new(&Retreat, Spot::Retreated, Uct::default(), MctsConfig::default()).with_history(history);
    told.run(200);
    let stats = told.stats();
    assert_eq!(stats.len(), 1);
    assert_eq!(stats[0].wins * 2.0, stats[0].visits as f64, "every iteration a draw: {stats:?}");
    // The same from the root: advancing to Retreated puts the root in the history.
    let mut search: Search<_, _, Pcg> = Search::new(&Retreat, Spot::Root, Uct::default(), MctsConfig::default());
    search.run(200);
    search.advance(RETREAT);
    search.run(200);
    let stats = search.stats();
    assert_eq!(stats[0].wins * 2.0, stats[0].visits as f64, "{stats:?}");
}
