//! The dynamic face on every game: random lines of play through `khela::load`, each step checked against what
//! the face promises (moves by number and by notation, undo, clones, records, chance outcomes), and players'
//! moves reproducible from their seed.

use khela::board::{Board, Style};
use khela::dynamic::{Record, Turn};
use khela::players::Contender;
use khela::{Game, GameName, Spec, State};
use khela_mcts::random::{Pcg, Random};
use strum::VariantArray;

/// Every registered game in a form with a start (Nim's heaps given), and a few with parameters.
fn games() -> Vec<(Game, Option<&'static str>)> {
    let mut games: Vec<_> = GameName::VARIANTS
        .iter()
        .map(|&name| {
            let game = Game::new(&Spec::of(name)).unwrap();
            (game, (name == GameName::Nim).then_some("3,4,5"))
        })
        .collect();
    for text in [
        "connect4(width=5,height=4)",
        "bagh-chal(rules=bagh-bandi)",
        "sixteen-soldiers(rules=optional,quiet-limit=20)",
        "pig(goal=12)",
        "einstein(setup=123456/654321)",
        "nim(heaps=1+3+5+7)",
        "sixteen-soldiers(moves=jumps)",
        "sixteen-soldiers(moves=jumps,rules=optional,quiet-limit=20)",
    ] {
        games.push((khela::load(text).unwrap(), None));
    }
    games
}

fn start(game: &Game, position: Option<&str>) -> State {
    match position {
        Some(text) => game.state(text).unwrap(),
        None => game.start().unwrap(),
    }
}

/// Checks what one state promises, then plays a random move.
fn step(state: &mut State, rng: &mut Pcg) -> bool {
    let (moves, texts) = (state.legal_moves(), state.move_texts());
    assert_eq!(moves.len(), texts.len());
    match state.turn() {
        Turn::Over(payoff) => {
            assert!(moves.is_empty(), "{state:?}: over, yet moves");
            assert_eq!(state.outcome(), Some(payoff));
            assert!(state.play(0).is_err(), "a move after the end is refused");
            assert!(state.analyse(&khela::Analyser::Mcts { iterations: 10, seed: 0 }).is_err());
            return false;
        }
        Turn::Chance => {
            let chances = state.chance_outcomes();
            assert_eq!(chances.len(), moves.len());
            let total: f64 = chances.iter().map(|&(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-9, "{state:?}: chance outcomes sum to {total}");
        }
        Turn::Decision(_) => assert!(state.chance_outcomes().is_empty()),
    }
    assert!(!moves.is_empty(), "{state:?}: a game that goes on has moves");
    for (&mv, text) in moves.iter().zip(&texts) {
        assert_eq!(&state.move_text(mv).unwrap(), text);
        assert_eq!(state.parse_move(text).unwrap(), mv, "{text} is the move numbered {mv}");
    }
    assert!(state.move_text(moves.len()).is_err());
    assert!(state.parse_move("no such move").unwrap_err().to_string().contains("the legal moves:"));
    check_board(state);
    check_actions(state);
    // Play and undo come back to the same state; a clone goes its own way.
    let before = state.record();
    let picture = state.picture();
    let mv = moves[rng.below(moves.len())];
    let mut clone = state.clone();
    clone.play(mv).unwrap();
    assert_eq!(state.record(), before, "playing on a clone leaves the state as it was");
    assert!(clone.undo());
    assert_eq!(clone.record(), before);
    assert_eq!(clone.picture(), picture);
    state.play_text(&texts[mv]).unwrap();
    true
}

/// The legal moves' actions: one a move, within the action space, the mask theirs, each playing its move, an
/// action of no legal move refused; for a game that numbers none, a refusal naming it. The observation fills the
/// game's shape with values from 0 to its largest, or is refused.
fn check_actions(state: &State) {
    match state.game().observation_shape() {
        Ok([planes, height, width]) => {
            let observation = state.observation().unwrap();
            assert_eq!(observation.len(), planes * height * width);
            let largest = state.game().observation_largest().unwrap();
            assert!(
                observation.iter().all(|&x| (0.0..=largest).contains(&x)),
                "{state:?}: a plane beyond 0..={largest}"
            );
        }
        Err(err) => {
            assert!(err.to_string().contains("has no encoding of its positions as planes"), "{err}");
            assert_eq!(state.observation().unwrap_err().to_string(), err.to_string());
        }
    }
    let Ok(count) = state.game().action_count() else {
        let err = state.legal_actions().unwrap_err().to_string();
        assert!(err.contains(" numbers no actions: "), "{err}");
        assert_eq!(err, state.game().action_count().unwrap_err().to_string());
        assert!(state.clone().play_action(0).is_err() && state.legal_action_mask().is_err());
        return;
    };
    let actions = state.legal_actions().unwrap();
    assert_eq!(actions.len(), state.legal_moves().len());
    let mask = state.legal_action_mask().unwrap();
    assert_eq!(mask.len(), count);
    assert_eq!(mask.iter().filter(|&&legal| legal).count(), actions.len(), "{state:?}: two moves share an action");
    for (mv, &action) in actions.iter().enumerate() {
        assert!(mask[action]);
        let (mut by_action, mut by_number) = (state.clone(), state.clone());
        by_action.play_action(action).unwrap();
        by_number.play(mv).unwrap();
        assert_eq!(by_action.record(), by_number.record(), "action {action} plays move {mv}");
    }
    if let Some(unused) = (0..count).find(|&a| !mask[a]) {
        let err = state.clone().play_action(unused).unwrap_err().to_string();
        assert!(err.contains("is no legal move's here; the legal actions: "), "{err}");
    }
}

/// The side of the piece on `point` and how many stand there, if any.
fn piece_at(board: &Board, point: usize) -> Option<(u8, u32)> {
    board.pieces.iter().find(|piece| piece.point == point).map(|piece| (piece.side, piece.count))
}

/// Checks the board and the gestures of `state`: everything drawn on a point of the board, the moves told apart
/// by their gestures, and each move doing on the board what its gesture shows (the piece on its first point on
/// its last after it; a one-point move's piece, token or edge where it was made; the captured pieces fewer).
fn check_board(state: &State) {
    let board = state.board();
    let points = board.points.len();
    assert!(
        board.pieces.iter().all(|piece| piece.point < points && piece.count >= 1),
        "{state:?}: a piece off the board"
    );
    assert!(board.links.iter().all(|link| link.from < points && link.to < points), "{state:?}: a line off the board");
    let gestures = state.gestures();
    assert_eq!(gestures.len(), state.legal_moves().len(), "{state:?}: a gesture a move");
    let mut seen = std::collections::HashSet::new();
    for (mv, gesture) in gestures.iter().enumerate() {
        let on_board = gesture.path.iter().chain(&gesture.also).chain(&gesture.captures);
        assert!(on_board.into_iter().all(|&p| p < points), "{state:?}: move {mv}'s gesture is off the board");
        if gesture.path.is_empty() {
            continue;
        }
        for clicks in std::iter::once(gesture.path.clone()).chain(gesture.also.iter().map(|&p| vec![p])) {
            assert!(seen.insert(clicks.clone()), "{state:?}: two moves are made by the clicks {clicks:?}");
        }
        let mut after = state.clone();
        after.play(mv).unwrap();
        let drawn = after.board();
        let (first, last) = (gesture.path[0], gesture.path[gesture.path.len() - 1]);
        if gesture.path.len() > 1 {
            let (side, _) =
                piece_at(&board, first).unwrap_or_else(|| panic!("{state:?}: move {mv} starts on no piece"));
            assert_eq!(piece_at(&drawn, last).map(|(s, _)| s), Some(side), "{state:?}: move {mv} ends elsewhere");
        } else {
            match board.style {
                Style::Cells | Style::Lines => {
                    assert!(piece_at(&drawn, first).is_some(), "{state:?}: move {mv} put nothing")
                }
                Style::Heaps => assert!(drawn.pieces.len() < board.pieces.len(), "{state:?}: move {mv} took nothing"),
                Style::Dots => {
                    let link = drawn.links.iter().find(|l| !board.links.contains(l)).expect("an edge drawn");
                    let (a, b, at) = (&drawn.points[link.from], &drawn.points[link.to], &board.points[first]);
                    assert_eq!(
                        ((a.x + b.x) / 2.0, (a.y + b.y) / 2.0),
                        (at.x, at.y),
                        "{state:?}: edge {mv} drawn elsewhere"
                    );
                }
                Style::Plain => panic!("{state:?}: a move on a board without points"),
            }
        }
        for &captured in gesture.captures.iter().filter(|&&p| p != last) {
            let count = |board: &Board| piece_at(board, captured).map_or(0, |(_, n)| n);
            assert!(count(&drawn) < count(&board), "{state:?}: move {mv} captures nothing on point {captured}");
        }
    }
}

#[test]
fn random_lines_of_every_game_keep_the_face_s_promises() {
    let mut rng = Pcg::from_seed(7);
    for (game, position) in games() {
        for _ in 0..3 {
            let mut state = start(&game, position);
            let first = state.record();
            let mut plies = 0;
            while plies < 300 && step(&mut state, &mut rng) {
                plies += 1;
            }
            // The record replays to the same state, and undo walks back to the start.
            let record = state.record();
            assert_eq!(record.moves.len(), plies);
            let replayed = game.replay(&record).unwrap();
            assert_eq!(replayed.record(), record);
            assert_eq!(replayed.turn(), state.turn());
            assert_eq!(replayed.picture(), state.picture());
            let json = serde_json::to_string(&record).unwrap();
            assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), record);
            while state.undo() {}
            assert_eq!(state.record(), first, "{}", game.title());
            assert!(!state.undo(), "nothing to undo at the start");
        }
    }
}

#[test]
fn a_record_of_another_game_or_with_a_bad_move_is_refused() {
    let game = khela::load("connect4(width=5,height=4)").unwrap();
    let mut state = game.start().unwrap();
    state.play_text("3").unwrap();
    let record = state.record();
    assert_eq!(
        record,
        Record { game: "connect4(width=5,height=4)".into(), start: String::new(), moves: vec!["3".into()] }
    );
    let other = khela::load("connect4").unwrap();
    let err = other.replay(&record).unwrap_err().to_string();
    assert_eq!(err, "the record is of connect4(width=5,height=4), not of connect4");
    let bad = Record { moves: vec!["3".into(), "9".into()], ..record };
    let err = game.replay(&bad).unwrap_err().to_string();
    assert_eq!(err, "move \"9\" is not legal here; the legal moves: 1, 2, 3, 4, 5");
    assert_eq!(state.play(5).unwrap_err().to_string(), "move 5 is not legal here; the moves are numbered 0 to 4");
}

#[test]
fn bad_game_strings_and_positions_are_refused_with_a_message() {
    for (text, message) in [
        ("chess", "unknown game \"chess\"; the games: tictactoe, nim, connect4, bagh-chal"),
        ("connect4(width=3,height=40)", "Connect-4 board 3x40 needs width x (height + 1) = 123 bits"),
        ("connect4(width=seven)", "width=seven: expected a whole number"),
        ("connect4(depth=3)", "Connect-4 takes no parameter depth (its parameters: width, height)"),
        ("pig(goal=0)", "goal=0"),
        ("sixteen-soldiers(quiet-limit=0)", "quiet-limit"),
        ("sixteen-soldiers(moves=steps)", "moves=steps: chains (a chain of jumps a move, the default) or jumps"),
        ("einstein(setup=12)", "setup"),
    ] {
        let err = khela::load(text).unwrap_err().to_string();
        assert!(err.contains(message), "{text}: {err}");
    }
    let nim = khela::load("nim").unwrap();
    assert!(nim.start().unwrap_err().to_string().contains("Nim needs --heaps"));
    let err =
        khela::load("einstein(setup=123456/123456)").unwrap().state("6.../...../...../...../....a first").unwrap_err();
    assert!(err.to_string().contains("give either setup or --position, not both"), "{err}");
    assert!(khela::load("tictactoe").unwrap().state("XX").is_err());
}

#[test]
fn players_choose_legal_moves_and_the_same_seed_the_same_move() {
    let players: Vec<Contender> = ["engine:3", "mcts:200", "random"].iter().map(|p| p.parse().unwrap()).collect();
    for (game, position) in games() {
        let state = start(&game, position);
        if !matches!(state.turn(), Turn::Decision(_)) {
            continue;
        }
        for player in &players {
            let chosen = state.choose(player, 5);
            if let (Contender::Engine(_), Err(err)) = (player, &chosen) {
                assert!(err.to_string().contains("needs an evaluator"), "{}: {err}", game.title());
                continue;
            }
            let mv = chosen.unwrap();
            assert!(state.legal_moves().contains(&mv));
            assert_eq!(state.choose(player, 5).unwrap(), mv, "{} {player}: the same seed, the same move", game.title());
        }
    }
    // A network for a game no network plays is refused, naming the games a network plays.
    let nim = khela::load("nim").unwrap().state("1,2").unwrap();
    let err = nim.choose(&"net:x.safetensors".parse().unwrap(), 0).unwrap_err().to_string();
    assert!(err.ends_with("the games that have it: tictactoe, connect4, bagh-chal"), "{err}");
}

#[test]
fn records_as_text_round_trip_read_the_old_option_lines_and_name_bad_lines() {
    let game = khela::load("sixteen-soldiers(rules=optional,quiet-limit=40)").unwrap();
    let mut state = game.start().unwrap();
    state.play_text("c4-c5").unwrap();
    let record = state.record();
    let text = record.text();
    assert!(text.contains("game sixteen-soldiers(rules=optional,quiet-limit=40)\nstart "), "{text}");
    assert_eq!(Record::parse("game.txt", &text).unwrap(), record);
    assert_eq!(game.replay(&Record::parse("game.txt", &text).unwrap()).unwrap().history(), ["c4-c5"]);
    // A record of the command line's older form: the options on lines of their own.
    let old = format!(
        "# a comment\ngame sixteen-soldiers\nrules optional\nquiet-limit 40\nstart {}\n1. c4-c5\n",
        record.start
    );
    assert_eq!(Record::parse("old.txt", &old).unwrap(), record);
    let err = |text: &str| Record::parse("game.txt", text).unwrap_err().to_string();
    assert!(err("game nim\nstart 1,2\n2. x\n").contains("game.txt line 3: \"2. x\" is not"));
    assert!(err("game nim\n").contains("names its game and its start"));
    assert!(err("game chess\nstart x\n").contains("game.txt line 1"));
    assert!(err("game nim\nquiet-limit many\nstart 1\n").contains("quiet-limit"));
}

#[test]
fn an_action_is_the_same_move_in_every_position_and_observations_are_the_networks_planes() {
    // Connect-4's action is its column less one, tic-tac-toe's its cell, along random lines.
    let mut rng = Pcg::from_seed(3);
    for (text, offset) in [("connect4(width=6,height=5)", 1), ("tictactoe", 0)] {
        let game = khela::load(text).unwrap();
        assert_eq!(game.action_count().unwrap(), if offset == 1 { 6 } else { 9 });
        for _ in 0..20 {
            let mut state = game.start().unwrap();
            while !state.legal_moves().is_empty() {
                let named: Vec<usize> =
                    state.move_texts().iter().map(|t| t.parse::<usize>().unwrap() - offset).collect();
                assert_eq!(state.legal_actions().unwrap(), named, "{}", state.picture());
                let moves = state.legal_moves();
                state.play(moves[rng.below(moves.len())]).unwrap();
            }
            assert_eq!(state.legal_actions().unwrap(), Vec::<usize>::new(), "none once over");
        }
    }
    // X...O...X, O to move: O's cell, then X's, then a plane of zeros (X is not to move).
    let game = khela::load("tictactoe").unwrap();
    assert_eq!(game.observation_shape().unwrap(), [3, 3, 3]);
    let planes = game.state("X...O...X").unwrap().observation().unwrap();
    let cells = |plane: usize| -> Vec<usize> { (0..9).filter(|&c| planes[plane * 9 + c] == 1.0).collect() };
    assert_eq!((cells(0), cells(1), cells(2)), (vec![4], vec![0, 8], vec![]));
    // Bagh-Chal: a placement is its point; a step is after the 25 placements, from × 25 + to.
    let mut state = khela::load("bagh-chal").unwrap().start().unwrap();
    assert_eq!(state.game().action_count().unwrap(), 25 + 25 * 25);
    state.play_text("c3").unwrap();
    let (texts, actions) = (state.move_texts(), state.legal_actions().unwrap());
    let step = texts.iter().position(|t| t == "a5-b5").unwrap();
    assert_eq!(actions[step], 26, "a5 is point 0 and b5 point 1: 25 + 0 × 25 + 1");
    for (game, why) in [
        (
            "nim",
            "Nim numbers no actions: its moves are numbered from a start, whose heaps bound every move: load \
          nim(heaps=3+4+5)",
        ),
        (
            "sixteen-soldiers",
            "Sixteen Soldiers (compulsory capture) numbers no actions: a chain of jumps may take any path",
        ),
    ] {
        let err = khela::load(game).unwrap().action_count().unwrap_err().to_string();
        assert!(err.starts_with(why), "{err}");
    }
}

#[test]
fn sixteen_soldiers_jump_by_jump_numbers_its_steps_jumps_and_stops() {
    let game = khela::load("sixteen-soldiers(moves=jumps,rules=optional)").unwrap();
    assert_eq!(game.title(), "Sixteen Soldiers (optional capture, jump by jump)");
    assert_eq!((game.action_count().unwrap(), game.observation_shape().unwrap()), (297, [5, 9, 5]));
    // X's piece on c3 takes d4's and may go on over d6's or stop. Points are numbered as the notation reads them,
    // from the top: the top triangle's 6, then 5 a rank, so c3 is 6 + 4 × 5 + 2 = 28 and e5 is 20; directions
    // from north (0) clockwise: north-east 1, north-west 7.
    let mut state = game.state(".../.../...../...O./...../...O./..X../.../... x").unwrap();
    let jump = state.move_texts().iter().position(|t| t == "c3xe5").unwrap();
    assert_eq!(state.legal_actions().unwrap()[jump], 28 * 8 + 1);
    state.play(jump).unwrap();
    assert_eq!(state.move_texts(), ["e5xc7", "stop"]);
    assert_eq!(state.legal_actions().unwrap(), [20 * 8 + 7, 296]);
    assert_eq!(state.turn(), Turn::Decision(khela_games::Player::Max), "X goes on deciding");
}

#[test]
fn nim_from_a_start_numbers_its_moves_by_heap_and_size_left_and_draws_a_row_per_heap() {
    let game = khela::load("nim(heaps=1+3+5+7)").unwrap();
    assert_eq!(game.title(), "Nim from 1,3,5,7");
    assert_eq!((game.action_count().unwrap(), game.observation_shape().unwrap()), (4 * 7, [1, 4, 7]));
    let mut state = game.start().unwrap();
    assert_eq!(state.picture(), "1,3,5,7");
    // H:T is H × 7 + T: every move of the start, heap by heap, each from its largest take down.
    let expected: Vec<usize> = [(0, 1), (1, 3), (2, 5), (3, 7)]
        .iter()
        .flat_map(|&(heap, size)| (0..size).rev().map(move |to| heap * 7 + to))
        .collect();
    assert_eq!(state.legal_actions().unwrap(), expected);
    state.play_action(3 * 7 + 2).unwrap();
    assert_eq!(state.move_texts().len(), 1 + 3 + 5 + 2);
    assert_eq!(state.history(), ["3:2"]);
    let rows: Vec<f32> = [[1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0, 0], [1, 1, 0, 0, 0, 0, 0]]
        .iter()
        .flatten()
        .map(|&x| x as f32)
        .collect();
    assert_eq!(state.observation().unwrap(), rows);
    // A position of the game: as many heaps, none larger than the start's.
    assert_eq!(game.state("0,3,2,7").unwrap().legal_actions().unwrap().len(), 3 + 2 + 7);
    for (position, why) in
        [("1,3,5", "\"1,3,5\" is outside the start 1,3,5,7: a position of it has its 4 heaps"), ("1,3,6,7", "outside")]
    {
        let err = game.state(position).unwrap_err().to_string();
        assert!(err.contains(why), "{position}: {err}");
    }
    for (text, why) in [
        ("nim(heaps=3+x)", "heaps=3+x: expected heap sizes joined by +, like heaps=3+4+5"),
        ("nim(heaps=0+0)", "heaps=0+0: a start needs at least one object"),
        (
            "nim(heaps=1+70000)",
            "heaps=1+70000 numbers 140,000 actions (the heaps times the largest); a start may number \
          at most 65,536",
        ),
        ("nim(piles=3)", "Nim takes no parameter piles (its parameters: heaps)"),
    ] {
        let err = khela::load(text).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
}

/// The chance that the first player wins when both play uniformly at random (chance nodes by their
/// probabilities), by enumerating every line: what random playouts estimate.
fn first_wins_at_random(state: &State) -> f64 {
    match state.turn() {
        Turn::Over(payoff) => f64::from(u8::from(payoff > 0.0)),
        turn => {
            let moves = state.legal_moves();
            let weights: Vec<f64> = match turn {
                Turn::Chance => state.chance_outcomes().into_iter().map(|(_, p)| p).collect(),
                _ => vec![1.0 / moves.len() as f64; moves.len()],
            };
            moves
                .iter()
                .zip(weights)
                .map(|(&mv, weight)| {
                    let mut child = state.clone();
                    child.play(mv).unwrap();
                    weight * first_wins_at_random(&child)
                })
                .sum()
        }
    }
}

#[test]
fn random_playouts_estimate_the_chance_of_a_win_at_random_play() {
    for (game, position) in
        [("tictactoe", "X...O...."), ("tictactoe", "XX.OO...."), ("connect4(width=4,height=4)", "1234123")]
    {
        let state = khela::load(game).unwrap().state(position).unwrap();
        let exact = first_wins_at_random(&state);
        let games = 20_000;
        let done = state.random_playouts(games, 9);
        assert_eq!(done.first + done.draws + done.second, games);
        assert_eq!(done, state.random_playouts(games, 9), "the same seed, the same games");
        // Within five standard deviations of the binomial.
        let sigma = (exact * (1.0 - exact) / games as f64).sqrt();
        let share = done.first as f64 / games as f64;
        assert!((share - exact).abs() < 5.0 * sigma + 1e-9, "{game} {position}: {share} against {exact}");
    }
    // A game whose positions repeat ends each playout by its rules (a repetition or the length cap is a draw).
    let bagh = khela::load("bagh-chal(rules=size=3,tigers=b2,goats=2,captures=1)").unwrap().start().unwrap();
    let done = bagh.random_playouts(200, 1);
    assert_eq!(done.first + done.draws + done.second, 200);
    assert!(done.draws > 0 && done.plies > 200, "{done:?}");
}
