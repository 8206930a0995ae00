//! Searches on games whose positions repeat (Bagh-Chal, Sixteen Soldiers) against a plain depth-limited minimax
//! written here, which applies the games' cycle rules itself: a position repeated on the line of play is a draw,
//! and so is reaching the length cap. Every algorithm, on seeded random positions after random histories (and
//! after none), at depths 1 to 4; each test also checks that the rules changed some value, so that it tests them.

use khela_exact::{Algorithm, Natural, Searcher, UNLIMITED};
use khela_games::bagh_chal::BaghChal;
use khela_games::conformance::random_lines;
use khela_games::sixteen_soldiers::{Capture, SixteenSoldiers};
use khela_games::{Game, Node, Player, Value};
use strum::VariantArray;

/// A static value of any position: a hash of its key, from −50 to 50, so that every leaf differs and a wrong
/// line rule shows.
fn noise<G: Game>(game: &G, state: &G::State) -> Value {
    (game.key(state) % 101) as Value - 50.0
}

/// Plain depth-limited minimax below the root, with the cycle rules: the terminal test first, then the rules'
/// draw on `line` (the keys before the node), then the horizon. Counts the draws it meets; with `draws` `None`,
/// it ignores the rules (to tell when they change a value).
fn reference<G: Game>(game: &G, state: &G::State, line: &mut Vec<u64>, depth: u32, draws: &mut Option<u64>) -> Value {
    let kind = game.node(state);
    if let Node::Terminal(payoff) = kind {
        return payoff * 1000.0;
    }
    let key = game.repetition_key(state);
    let rules = game.cycles().expect("a game whose positions repeat");
    if let Some(count) = draws
        && rules.draws(line, key)
    {
        *count += 1;
        return 0.0;
    }
    if depth == 0 {
        return noise(game, state);
    }
    let Node::Decision(player) = kind else { unreachable!("no chance nodes") };
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    line.push(key);
    let values = moves.iter().map(|&mv| reference(game, &game.child(state, mv), line, depth - 1, draws));
    let value = if player == Player::Max { values.fold(f64::MIN, f64::max) } else { values.fold(f64::MAX, f64::min) };
    line.pop();
    value
}

/// The game's terminal payoffs scaled beyond every noise value, as the reference sees them.
struct Scaled<'a, G>(&'a G);

impl<G: Game> Game for Scaled<'_, G> {
    type State = G::State;
    type Move = G::Move;

    fn node(&self, state: &G::State) -> Node {
        match self.0.node(state) {
            Node::Terminal(payoff) => Node::Terminal(payoff * 1000.0),
            kind => kind,
        }
    }

    fn moves(&self, state: &G::State, buf: &mut Vec<G::Move>) {
        self.0.moves(state, buf)
    }

    fn play(&self, state: &mut G::State, mv: G::Move) {
        self.0.play(state, mv)
    }

    fn key(&self, state: &G::State) -> u64 {
        self.0.key(state)
    }

    fn cycles(&self) -> Option<khela_games::Cycles> {
        self.0.cycles()
    }

    fn repetition_key(&self, state: &G::State) -> u64 {
        self.0.repetition_key(state)
    }
}

/// Every algorithm agrees with the reference at depths 1 to `max_depth` on each line, after its own history
/// and after none; returns the searches whose value the rules changed. (Without a table: with one, a value
/// stored from one line may be taken on another whose repetitions differ below it — graph–history
/// interaction, which khela bounds as engines do; see `Cycles`. The toy game's test in khela-mcts checks that
/// no value that met a draw is stored.)
fn agree<G: Game>(game: &G, lines: &[(Vec<u64>, G::State)], max_depth: u32) -> usize {
    let scaled = Scaled(game);
    let eval: fn(&Scaled<'_, G>, &G::State) -> Value = |g, s| noise(g.0, s);
    let mut changed = 0;
    let lines = lines.iter().flat_map(|(history, state)| [(history.clone(), state), (Vec::new(), state)]);
    for (i, (history, state)) in lines.enumerate() {
        for depth in 1..=max_depth {
            let expected = reference_root(game, state, &mut history.clone(), depth, &mut Some(0));
            changed += usize::from(expected != reference_root(game, state, &mut history.clone(), depth, &mut None));
            for algorithm in Algorithm::VARIANTS {
                let mut searcher = Searcher::new(&scaled, Natural).with_evaluator(eval).with_history(history.clone());
                let got = searcher.run_to_depth(*algorithm, state, depth).value;
                assert_eq!(got, expected, "line {i}, depth {depth}, {algorithm}");
            }
        }
    }
    changed
}

/// The reference at the root: its moves searched with the root on the line, never a draw itself.
fn reference_root<G: Game>(
    game: &G,
    state: &G::State,
    line: &mut Vec<u64>,
    depth: u32,
    draws: &mut Option<u64>,
) -> Value {
    let Node::Decision(player) = game.node(state) else { unreachable!("lines end at decision nodes") };
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    line.push(game.repetition_key(state));
    let values: Vec<Value> =
        moves.iter().map(|&mv| reference(game, &game.child(state, mv), line, depth - 1, draws)).collect();
    line.pop();
    let fold = if player == Player::Max { f64::max } else { f64::min };
    values.into_iter().reduce(fold).expect("a decision node has moves")
}

#[test]
fn bagh_chal_agrees_with_the_reference() {
    let game = BaghChal::standard();
    // Deep into the sliding phase (the placement takes 39 plies), where goats step back and forth.
    let lines = random_lines(&game, &game.start_position(), 40, 40..70, 1);
    let changed = agree(&game, &lines, 4);
    assert!(changed > 0, "the rules changed no value: the test checks nothing of them");
}

#[test]
fn sixteen_soldiers_agrees_with_the_reference() {
    for capture in [Capture::Compulsory, Capture::Optional] {
        let game = SixteenSoldiers::new(capture);
        let lines = random_lines(&game, &game.start_position(), 24, 10..40, 2);
        let changed = agree(&game, &lines, 4);
        assert!(changed > 0, "{capture}: the rules changed no value");
    }
}

#[test]
fn the_length_cap_is_a_draw() {
    // A cap of 44 plies, met within the search from lines 40 to 43 plies long.
    let game = BaghChal::standard().with_max_length(44);
    let lines = random_lines(&game, &game.start_position(), 8, 40..44, 3);
    let changed = agree(&game, &lines, 3);
    assert!(changed > 0, "the cap changed no value");
}

#[test]
#[should_panic(expected = "exact search of a game whose positions repeat needs a depth")]
fn exact_search_without_a_depth_is_refused() {
    let game = BaghChal::standard();
    Searcher::new(&game, Natural).run_to_depth(Algorithm::AlphaBeta, &game.start_position(), UNLIMITED);
}
