//! The conformance suite every game runs (after OpenSpiel's basic tests).
//!
//! [`check`] plays seeded random games from the given states and checks the promises of [`Game`]: decision
//! nodes have moves and terminal nodes none, chance probabilities are positive and sum to 1, playing a move on a
//! copy leaves the original untouched, equal states have equal keys, a decision node's
//! [`Game::decision_moves`] are its moves, [`Game::move_count`] counts them and [`Game::NUMBERED_MOVES`]
//! numbers them where a game says it can, [`Game::order_moves`] only reorders them, and what [`Game::tactics`]
//! says holds two plies ahead. [`check_notation`] checks the promises
//! of [`Notation`] the same way, for the games that have one; [`check_cycles`] the rules of games whose positions
//! repeat; [`check_space`] and [`check_unmoves`] the promises of a [`Space`] and its [`Unmoves`].

use crate::{Actions, Game, Node, Notation, Player, Space, Unmoves};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The tolerance for chance probabilities summing to 1.
pub const PROBABILITY_TOLERANCE: f64 = 1e-9;

/// Plays `playouts` random games from each of `roots` (seeded by `seed`) and checks every state visited.
///
/// # Panics
///
/// Panics, naming the state, when the game breaks a promise of [`Game`]. It is a test helper.
pub fn check<G: Game>(game: &G, roots: &[G::State], playouts: usize, seed: u64) {
    let mut seen: Vec<(G::State, u64)> = Vec::new();
    walk(game, roots, playouts, seed, |state, node, moves, outcomes, _| {
        let key = game.key(state);
        assert_eq!(key, game.key(&state.clone()), "key of a copy differs: {state:?}");
        if seen.len() < 4096 {
            seen.push((state.clone(), key));
        }
        match node {
            Node::Terminal(value) => {
                assert!(value.is_finite(), "terminal value {value} of {state:?}");
                assert!(moves.is_empty(), "terminal state {state:?} has moves {moves:?}");
            }
            Node::Decision(player) => {
                assert!(!moves.is_empty(), "decision node {state:?} has no moves");
                let mut listed = Vec::new();
                game.decision_moves(state, &mut listed);
                assert_eq!(listed, moves, "decision_moves and moves of {state:?} differ");
                assert_eq!(game.move_count(state, &mut listed), moves.len(), "move_count of {state:?}");
                if let Some(number) = G::NUMBERED_MOVES {
                    let numbered: Vec<G::Move> = (0..moves.len()).map(number).collect();
                    assert_eq!(numbered, moves, "the moves of {state:?} are not their numbers");
                }
                check_order(game, state, moves);
                check_tactics(game, state, player, moves);
            }
            Node::Chance => {
                assert!(!outcomes.is_empty(), "chance node {state:?} has no outcomes");
                assert!(outcomes.iter().all(|&(_, p)| p > 0.0), "chance node {state:?}: {outcomes:?}");
                let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
                assert!(
                    (total - 1.0).abs() < PROBABILITY_TOLERANCE,
                    "chance probabilities of {state:?} sum to {total}"
                );
            }
        }
    });
    for (i, (a, key_a)) in seen.iter().enumerate() {
        for (b, key_b) in &seen[i + 1..] {
            if a == b {
                assert_eq!(key_a, key_b, "equal states {a:?} have different keys");
            }
        }
    }
}

/// Checks [`Game::order_moves`] at decision node `state`, whose moves are `moves`: it puts them, and the same
/// moves reversed, in an order of the same moves, and leaves them as they are for a game without an order.
fn check_order<G: Game>(game: &G, state: &G::State, moves: &[G::Move]) {
    let reversed: Vec<G::Move> = moves.iter().rev().copied().collect();
    for listed in [moves, reversed.as_slice()] {
        let mut ordered = listed.to_vec();
        game.order_moves(state, &mut ordered);
        if !game.has_move_order() {
            assert_eq!(ordered, listed, "{state:?}: a game without an order reordered {listed:?}");
        }
        let unmatched = ordered.iter().find(|&&mv| {
            let count = |list: &[G::Move]| list.iter().filter(|&&other| other == mv).count();
            count(&ordered) != count(listed)
        });
        assert!(unmatched.is_none(), "{state:?}: {listed:?} ordered as {ordered:?}, not the same moves");
        assert_eq!(ordered.len(), listed.len(), "{state:?}: {listed:?} ordered as {ordered:?}");
    }
}

/// Checks [`Game::tactics`] at decision node `state` of `player`, whose moves are `moves`, against the two plies
/// it looks at: a win it names is a move's payoff, and no move ends the game better; a loss it names is one the
/// opponent reaches on some reply to every move, and no line of two plies ends worse for the mover; otherwise
/// the moves it kept are some of `moves` in their order, and every move it left out lets the opponent win on the
/// reply as fast as anything can (the worst end of any line of two plies).
fn check_tactics<G: Game>(game: &G, state: &G::State, player: Player, moves: &[G::Move]) {
    let mut kept = moves.to_vec();
    let settled = game.tactics(state, &mut kept);
    let ends = |mv| match game.node(&game.child(state, mv)) {
        Node::Terminal(payoff) => Some(payoff),
        _ => None,
    };
    // The payoffs the opponent reaches on its replies to `mv` that end the game in its favour.
    let lost_on_reply = |mv| {
        let child = game.child(state, mv);
        let mut replies = Vec::new();
        if let Node::Decision(_) = game.node(&child) {
            game.moves(&child, &mut replies);
        }
        replies
            .into_iter()
            .filter_map(|reply| match game.node(&game.child(&child, reply)) {
                Node::Terminal(payoff) if player.view(payoff) < 0.0 => Some(payoff),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    // The fastest loss: the worst the mover meets, in its view, on any line of two plies that ends the game.
    let floor = moves
        .iter()
        .flat_map(|&mv| ends(mv).into_iter().chain(lost_on_reply(mv)))
        .map(|payoff| player.view(payoff))
        .fold(f64::INFINITY, f64::min);
    // The opponent's best reply to `mv` that ends the game, in the mover's view.
    let worst_reply =
        |mv| lost_on_reply(mv).into_iter().map(|payoff| player.view(payoff)).fold(f64::INFINITY, f64::min);
    match settled {
        Some(won) if player.view(won) > 0.0 => {
            assert!(moves.iter().any(|&mv| ends(mv) == Some(won)), "{state:?}: no move wins {won}");
            let best = moves.iter().filter_map(|&mv| ends(mv)).map(|v| player.view(v)).fold(f64::MIN, f64::max);
            assert_eq!(best, player.view(won), "{state:?}: a move ends the game better than {won}");
        }
        Some(lost) => {
            assert!(player.view(lost) < 0.0, "{state:?}: tactics settle at {lost}, neither a win nor a loss");
            for &mv in moves {
                assert!(lost_on_reply(mv).contains(&lost), "{state:?}: move {mv:?} does not lose {lost} on the reply");
            }
            assert!(player.view(lost) <= floor, "{state:?}: a line of two plies ends worse than {lost}");
        }
        None => {
            assert!(!kept.is_empty(), "{state:?}: tactics left no move and no value");
            let mut rest = kept.iter().peekable();
            for &mv in moves {
                if rest.peek() == Some(&&mv) {
                    rest.next();
                } else {
                    assert!(!lost_on_reply(mv).is_empty(), "{state:?}: move {mv:?} left out, but it does not lose");
                    assert_eq!(worst_reply(mv), floor, "{state:?}: move {mv:?} left out, but it loses slower");
                }
            }
            assert!(rest.next().is_none(), "{state:?}: tactics kept {kept:?}, not a subsequence of {moves:?}");
        }
    }
}

/// Checks the promises of [`Notation`] on the states of `playouts` random games from each of `roots` (seeded by
/// `seed`): the standard start, if the game has one, parses; every state has a non-empty picture, without a
/// newline after its last row; the moves of every decision node, and the outcomes of every chance node, are
/// written non-empty and pairwise distinct; and the two players have distinct, non-empty names.
///
/// # Panics
///
/// Panics, naming the state or text, when the notation breaks a promise. It is a test helper.
///
/// # Examples
///
/// ```
/// use khela_games::conformance;
/// use khela_games::nim::Nim;
///
/// conformance::check_notation(&Nim, &[Nim::parse("1,2").unwrap()], 20, 1);
/// ```
pub fn check_notation<G: Notation>(game: &G, roots: &[G::State], playouts: usize, seed: u64) {
    if let Some(start) = game.start()
        && let Err(err) = game.parse_position(start)
    {
        panic!("the standard start {start:?} does not parse: {err}");
    }
    let (max, min) = (game.player_name(Player::Max), game.player_name(Player::Min));
    assert!(!max.is_empty() && !min.is_empty() && max != min, "player names {max:?} and {min:?}");
    let mut written: Vec<String> = Vec::new();
    walk(game, roots, playouts, seed, |state, _, moves, outcomes, _| {
        let picture = game.picture(state);
        assert!(!picture.is_empty() && !picture.ends_with('\n'), "the picture of {state:?} is {picture:?}");
        written.clear();
        for &mv in moves.iter().chain(outcomes.iter().map(|(outcome, _)| outcome)) {
            let text = game.write_move(mv);
            assert!(!text.is_empty(), "move {mv:?} of {state:?} is written empty");
            assert!(!written.contains(&text), "two moves of {state:?} are written {text:?}");
            written.push(text);
        }
    });
}

/// Checks the promises of [`Actions`] on `playouts` random games from each of `roots` (seeded by `seed`): every
/// move and chance outcome has an action below [`Actions::actions`], and no two of one position share one.
///
/// ```
/// use khela_games::conformance;
/// use khela_games::tictactoe::TicTacToe;
///
/// conformance::check_actions(&TicTacToe, &[TicTacToe::parse(".........").unwrap()], 20, 1);
/// ```
///
/// # Panics
///
/// Panics, naming the state, when a promise fails. It is a test helper.
pub fn check_actions<G: Actions>(game: &G, roots: &[G::State], playouts: usize, seed: u64) {
    let mut taken = Vec::new();
    walk(game, roots, playouts, seed, |state, _, moves, outcomes, _| {
        taken.clear();
        for &mv in moves.iter().chain(outcomes.iter().map(|(outcome, _)| outcome)) {
            let action = game.action(mv);
            assert!(action < game.actions(), "move {mv:?} of {state:?} has action {action} of {}", game.actions());
            assert!(!taken.contains(&action), "two moves of {state:?} have action {action}");
            taken.push(action);
        }
    });
}

/// Checks the rules of a game whose positions repeat ([`Game::cycles`]) on `playouts` random games from each of
/// `roots` (seeded by `seed`), played under those rules: every game ends (at a terminal node, a repetition or
/// the length cap) within the declared maximum length; a position is found repeated (by key) exactly when an
/// equal state came before it on the line; and at least one game meets a repetition, so that the declaration is
/// tested at all.
///
/// # Panics
///
/// Panics, naming the state, when a rule fails, or when the game declares no cycles. It is a test helper.
pub fn check_cycles<G: Game>(game: &G, roots: &[G::State], playouts: usize, seed: u64) {
    let cycles = game.cycles().expect("check_cycles is for games that declare cycles");
    let mut states: Vec<G::State> = Vec::new();
    let mut repetitions = 0;
    walk(game, roots, playouts, seed, |state, node, _, _, before| {
        if before.is_empty() {
            states.clear();
        }
        assert!(before.len() <= cycles.max_length as usize, "a line of {} plies went on", before.len());
        let key = game.repetition_key(state);
        let by_key = before.contains(&key);
        // Where the repetition key is the whole key, a repetition is an equal state; where it leaves a count out
        // (Sixteen Soldiers' quiet plies), only the key can say.
        if key == game.key(state) {
            assert_eq!(by_key, states.contains(state), "repetition by key and by state disagree at {state:?}");
        }
        if !matches!(node, Node::Terminal(_)) {
            repetitions += usize::from(by_key);
        }
        states.push(state.clone());
    });
    assert!(repetitions > 0, "no position repeated in {playouts} random games: are the cycles real?");
}

/// Plays `playouts` random games from each of `roots`, a seeded uniform choice at every decision and chance
/// node, and shows `visit` every state on the way with its kind, its moves (decision and terminal nodes) and its
/// outcomes (chance nodes). A game stops at a terminal node, at a node with nothing to choose, or, in a game
/// whose positions repeat, at a draw by its [`crate::Cycles`] rules (shown, then left). Checks on the way that
/// playing a move on a copy leaves the original untouched.
fn walk<G: Game>(
    game: &G,
    roots: &[G::State],
    playouts: usize,
    seed: u64,
    mut visit: impl FnMut(&G::State, Node, &[G::Move], &[(G::Move, f64)], &[u64]),
) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    let mut line = Vec::new();
    for root in roots {
        for _ in 0..playouts {
            let mut state = root.clone();
            line.clear();
            loop {
                let node = game.node(&state);
                if let Node::Chance = node {
                    moves.clear();
                    game.outcomes(&state, &mut outcomes);
                } else {
                    game.moves(&state, &mut moves);
                    outcomes.clear();
                }
                visit(&state, node, &moves, &outcomes, &line);
                if let Some(cycles) = game.cycles() {
                    let key = game.repetition_key(&state);
                    if !matches!(node, Node::Terminal(_)) && cycles.draws(&line, key) {
                        break;
                    }
                    line.push(key);
                }
                let mv = match node {
                    Node::Terminal(_) => break,
                    Node::Decision(_) if moves.is_empty() => break,
                    Node::Decision(_) => moves[rng.next_u32() as usize % moves.len()],
                    Node::Chance if outcomes.is_empty() => break,
                    Node::Chance => outcomes[rng.next_u32() as usize % outcomes.len()].0,
                };
                let before = state.clone();
                let next = game.child(&state, mv);
                assert_eq!(state, before, "child() changed its parent {state:?}");
                state = next;
            }
        }
    }
}

/// The numbers [`check_space`] visits: all of them in a space of at most this many, otherwise this many spread
/// evenly over the space.
pub const SPACE_SAMPLE: u64 = 50_000;

/// The numbers of a space's positions that the checks visit: all, or [`SPACE_SAMPLE`] spread evenly.
fn sample<S: Space>(space: &S) -> impl Iterator<Item = (u64, <S::Game as Game>::State)> + '_ {
    let stride = space.len().div_ceil(SPACE_SAMPLE).max(1);
    (0..space.len()).step_by(stride as usize).filter_map(|i| space.position(i).map(|s| (i, s)))
}

/// The numbers of the positions a position's moves and chance outcomes lead to, sorted; a terminal position
/// outside the space has none.
///
/// # Panics
///
/// When a move leads out of the space to a position that is not terminal.
fn successors<S: Space>(space: &S, s: &<S::Game as Game>::State) -> Vec<Option<u64>> {
    successors_beside(space, s, &|_| false)
}

/// [`successors`], a position outside the space that `beside` accepts counted as a terminal one.
fn successors_beside<S: Space>(
    space: &S,
    s: &<S::Game as Game>::State,
    beside: &dyn Fn(&<S::Game as Game>::State) -> bool,
) -> Vec<Option<u64>> {
    let game = space.game();
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    game.moves(s, &mut moves);
    game.outcomes(s, &mut outcomes);
    let mut found: Vec<Option<u64>> = moves
        .iter()
        .chain(outcomes.iter().map(|(mv, _)| mv))
        .map(|&mv| game.child(s, mv))
        .map(|child| match (space.index(&child), game.node(&child)) {
            (None, Node::Terminal(_)) => None,
            (None, _) if beside(&child) => None,
            (None, _) => panic!("{s:?} moves out of the space to {child:?}"),
            (found, _) => found,
        })
        .collect();
    found.sort_unstable();
    found
}

/// Checks the promises of a [`Space`] on its numbers (all, or [`SPACE_SAMPLE`] of them spread evenly): a
/// number's position has that number and stands for at least one position; the side to move agrees with the
/// game; every move and chance outcome leads to a terminal position or into the space, in the same stage or
/// one of an earlier layer; the stages cover the numbers in order.
///
/// # Panics
///
/// Panics, naming the position, when a promise is broken. It is a test helper.
pub fn check_space<S: Space>(space: &S) {
    check_space_beside(space, |_| false);
}

/// [`check_space`] for a space whose moves may also lead to the positions `beside` accepts, outside it (a
/// phase of the game that follows, valued apart: Bagh-Chal's placement phase leads to its sliding phase).
///
/// # Panics
///
/// As [`check_space`].
pub fn check_space_beside<S: Space>(space: &S, beside: impl Fn(&<S::Game as Game>::State) -> bool) {
    let layers = space.stages();
    // Each stage with its layer, in the order of their numbers.
    let stages: Vec<(usize, std::ops::Range<u64>)> =
        layers.iter().enumerate().flat_map(|(layer, stages)| stages.iter().map(move |r| (layer, r.clone()))).collect();
    let ends = (stages.first().map(|s| s.1.start), stages.last().map(|s| s.1.end));
    assert!(
        stages.windows(2).all(|w| w[0].1.end == w[1].1.start) && ends == (Some(0), Some(space.len())),
        "stages that do not cover the numbers in order: {layers:?}"
    );
    let mut visited = 0;
    for (i, s) in sample(space) {
        visited += 1;
        assert_eq!(space.index(&s), Some(i), "the position numbered {i}, {s:?}, has another number");
        assert!(space.multiplicity(&s) >= 1, "{s:?} stands for no position");
        if let Node::Decision(player) = space.game().node(&s) {
            assert_eq!(space.to_move(&s), player, "the side to move in {s:?}");
        }
        let stage_of = |i: u64| &stages[stages.partition_point(|(_, range)| range.start <= i) - 1];
        let (layer, stage) = stage_of(i);
        for j in successors_beside(space, &s, &beside).into_iter().flatten() {
            assert!(space.position(j).is_some(), "{s:?} leads to number {j}, which has no position");
            let (other, _) = stage_of(j);
            assert!(stage.contains(&j) || other < layer, "{s:?} (layer {layer}) leads to {j} (layer {other})");
        }
    }
    assert!(visited > 0, "the space's numbers checked hold no position");
}

/// Checks the promise of [`Unmoves`] on a space's numbers (all, or [`SPACE_SAMPLE`] of them spread evenly):
/// the position a move leads to lists the position among its unmoves, and every unmove is a non-terminal
/// position of the space with a move to the position, up to symmetry.
///
/// # Panics
///
/// Panics, naming the position, when the promise is broken. It is a test helper.
pub fn check_unmoves<S: Unmoves>(space: &S) {
    let mut before = Vec::new();
    for (i, s) in sample(space) {
        for j in successors(space, &s).into_iter().flatten() {
            let child = space.position(j).expect("a numbered position");
            space.unmoves(&child, &mut before);
            assert!(
                before.iter().any(|q| space.index(q) == Some(i)),
                "{s:?} moves to {child:?}, whose unmoves {before:?} miss it"
            );
        }
        space.unmoves(&s, &mut before);
        for q in before.clone() {
            let k = space.index(&q).unwrap_or_else(|| panic!("the unmove {q:?} of {s:?} is outside the space"));
            let q = space.position(k).expect("a numbered position");
            assert!(successors(space, &q).contains(&Some(i)), "the unmove {q:?} of {s:?} has no move to it");
        }
    }
}

/// Move sequences of `depth` plies from `state` (perft), by plain recursion: the simplest count, which tests
/// compare faster ones and other move generators with. A ply is a decision's move: chance outcomes are not
/// plies of their own, so a sequence is the moves with the outcomes drawn before each (a turn of a dice game is
/// its roll and its move).
///
/// ```
/// use khela_games::conformance::perft;
/// use khela_games::tictactoe::{Board, TicTacToe};
/// assert_eq!(perft(&TicTacToe, &Board::EMPTY, 2), 72);
/// ```
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if let Node::Chance = game.node(state) {
        let mut outcomes = Vec::new();
        game.outcomes(state, &mut outcomes);
        return outcomes.iter().map(|&(o, _)| perft(game, &game.child(state, o), depth)).sum();
    }
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    moves.iter().map(|&mv| perft(game, &game.child(state, mv), depth - 1)).sum()
}

/// `count` seeded random lines of play from `start`, each `plies` long (drawn from the range; shorter if the
/// game ends; a chance outcome, drawn uniformly, is not a ply), kept when they end at a decision node: the keys of the positions before the last one (a history,
/// for the rules of games whose positions repeat) and the last one.
pub fn random_lines<G: Game>(
    game: &G,
    start: &G::State,
    count: usize,
    plies: std::ops::Range<usize>,
    seed: u64,
) -> Vec<(Vec<u64>, G::State)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let (mut out, mut moves, mut outcomes) = (Vec::new(), Vec::new(), Vec::new());
    while out.len() < count {
        let length = plies.start + rng.next_u32() as usize % (plies.end - plies.start);
        let (mut state, mut keys) = (start.clone(), Vec::new());
        for _ in 0..length {
            // A chance node's outcome, drawn uniformly, comes with the move after it (it is not a ply).
            if let Node::Chance = game.node(&state) {
                game.outcomes(&state, &mut outcomes);
                keys.push(game.repetition_key(&state));
                state = game.child(&state, outcomes[rng.next_u32() as usize % outcomes.len()].0);
            }
            game.moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            keys.push(game.repetition_key(&state));
            state = game.child(&state, moves[rng.next_u32() as usize % moves.len()]);
        }
        // A line that stops before a roll goes on to the decision the outcome drawn leads to.
        if let Node::Chance = game.node(&state) {
            game.outcomes(&state, &mut outcomes);
            keys.push(game.repetition_key(&state));
            state = game.child(&state, outcomes[rng.next_u32() as usize % outcomes.len()].0);
        }
        if matches!(game.node(&state), Node::Decision(_)) {
            out.push((keys, state));
        }
    }
    out
}

/// Every state reachable from `root`, one per key, in ascending key order: the whole of a small game, for
/// tests that check something on every position (tic-tac-toe: 5,478 of them).
///
/// ```
/// use khela_games::conformance::reachable;
/// use khela_games::tictactoe::{Board, TicTacToe};
/// assert_eq!(reachable(&TicTacToe, Board::EMPTY).len(), 5_478);
/// ```
pub fn reachable<G: Game>(game: &G, root: G::State) -> Vec<G::State> {
    let mut seen = std::collections::HashMap::new();
    let (mut stack, mut moves, mut outcomes) = (vec![root], Vec::new(), Vec::new());
    while let Some(state) = stack.pop() {
        let key = game.key(&state);
        if seen.contains_key(&key) {
            continue;
        }
        match game.node(&state) {
            Node::Decision(_) => {
                game.moves(&state, &mut moves);
                stack.extend(moves.iter().map(|&mv| game.child(&state, mv)));
            }
            Node::Chance => {
                game.outcomes(&state, &mut outcomes);
                stack.extend(outcomes.iter().map(|&(outcome, _)| game.child(&state, outcome)));
            }
            Node::Terminal(_) => {}
        }
        seen.insert(key, state);
    }
    let mut states: Vec<(u64, G::State)> = seen.into_iter().collect();
    states.sort_by_key(|&(key, _)| key);
    states.into_iter().map(|(_, state)| state).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nim::{Heaps, Nim, ParseError, Take};

    /// Nim with a broken notation: every move written alike.
    struct Blurred;

    impl Game for Blurred {
        type State = Heaps;
        type Move = Take;

        fn node(&self, state: &Heaps) -> Node {
            Nim.node(state)
        }

        fn moves(&self, state: &Heaps, buf: &mut Vec<Take>) {
            Nim.moves(state, buf)
        }

        fn play(&self, state: &mut Heaps, mv: Take) {
            Nim.play(state, mv)
        }

        fn key(&self, state: &Heaps) -> u64 {
            Nim.key(state)
        }
    }

    impl Notation for Blurred {
        type Error = ParseError;

        fn parse_position(&self, text: &str) -> Result<Heaps, ParseError> {
            Nim.parse_position(text)
        }

        fn start(&self) -> Option<&str> {
            None
        }

        fn write_move(&self, _: Take) -> String {
            "?".to_string()
        }

        fn picture(&self, state: &Heaps) -> String {
            Nim.picture(state)
        }

        fn player_name(&self, player: Player) -> &'static str {
            Nim.player_name(player)
        }
    }

    #[test]
    #[should_panic(expected = "are written \"?\"")]
    fn notation_check_catches_moves_written_alike() {
        check_notation(&Blurred, &[Nim::parse("2").unwrap()], 1, 0);
    }

    #[test]
    fn notation_check_passes_a_node_with_one_move() {
        check_notation(&Blurred, &[Nim::parse("1").unwrap()], 10, 0);
    }
}
