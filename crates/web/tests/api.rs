//! The JSON API, through the router (no socket but in the last test): the textbook's figures, every value
//! cross-checked against a simpler solver (Bouton's rule for Nim, plain minimax for Connect-4 endgames), and every
//! kind of bad input answered with a 4xx and a JSON message naming the problem.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::connect4::Connect4;
use khela_games::{Game, Node, Notation};
use khela_web::{AnalysisView, ChoiceView, GameView, Limits, StateView, StepView, TraceView, router};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use tower::ServiceExt;

/// Sends a request to a router with `limits`; returns the status, the `Retry-After` header and the JSON body.
async fn send_with(
    limits: Limits,
    method: &str,
    path: &str,
    body: Option<String>,
) -> (StatusCode, Option<String>, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if body.is_some() {
        request = request.header(header::CONTENT_TYPE, "application/json");
    }
    let request = request.body(body.map_or_else(Body::empty, Body::from)).unwrap();
    let response = router(limits).oneshot(request).await.unwrap();
    let status = response.status();
    let retry = response.headers().get(header::RETRY_AFTER).map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value =
        serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, retry, value)
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    let (status, _, value) = send_with(Limits::default(), "POST", path, Some(body.to_string())).await;
    (status, value)
}

async fn ok<T: serde::de::DeserializeOwned>(path: &str, body: Value) -> T {
    let (status, value) = post(path, body).await;
    assert_eq!(status, StatusCode::OK, "{path}: {value}");
    serde_json::from_value(value).unwrap()
}

/// Expects `status` and an error message containing `expected`.
async fn refused(path: &str, body: &str, status: StatusCode, expected: &str) {
    let (got, _, value) = send_with(Limits::default(), "POST", path, Some(body.to_string())).await;
    assert_eq!(got, status, "{path} {body}: {value}");
    let message = value["error"].as_str().unwrap_or_else(|| panic!("{path} {body}: no JSON error: {value}"));
    assert!(message.contains(expected), "{path} {body}: {message:?} lacks {expected:?}");
}

#[tokio::test]
async fn the_games_are_the_registrys() {
    let (status, _, value) = send_with(Limits::default(), "GET", "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let games: Vec<GameView> = serde_json::from_value(value).unwrap();
    let names: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
    let registry = <khela::registry::GameName as strum::VariantArray>::VARIANTS.iter().map(ToString::to_string);
    let offered: Vec<String> = registry.chain(khela_web::VARIANTS.map(String::from)).collect();
    assert_eq!(names, offered);
    let nim = games.iter().find(|g| g.name == "nim").unwrap();
    assert_eq!(nim.start, "3,4,5", "Nim, with no standard start, starts from heaps the app offers");
    let tictactoe = &games[0];
    assert_eq!((tictactoe.start.as_str(), &tictactoe.players), (".........", &["X".to_string(), "O".to_string()]));
}

#[tokio::test]
async fn the_textbooks_position_is_valued_as_the_textbook_says() {
    let analysis: AnalysisView =
        ok("/api/analyse", json!({"game": "tictactoe", "start": "X...O...X", "analyser": {"kind": "exact"}})).await;
    assert_eq!((analysis.source.as_str(), analysis.to_move.as_str()), ("exact", "O"));
    let values: BTreeMap<&str, f64> = analysis.moves.iter().map(|m| (m.mv.as_str(), m.value.unwrap())).collect();
    let expected = BTreeMap::from([("1", 0.0), ("2", 1.0), ("3", 0.0), ("5", 0.0), ("6", 1.0), ("7", 0.0)]);
    assert_eq!(values, expected);
    let best: Vec<&str> = analysis.moves.iter().filter(|m| m.best).map(|m| m.mv.as_str()).collect();
    assert_eq!(best, ["1", "3", "5", "7"]);
}

#[tokio::test]
async fn nim_is_valued_as_boutons_rule_says_on_every_position_of_three_heaps_of_up_to_three() {
    let mut checked = 0;
    for heaps in (0..64).map(|i| [i / 16, i / 4 % 4, i % 4]) {
        if heaps == [0, 0, 0] {
            continue;
        }
        let start = heaps.map(|h| h.to_string()).join(",");
        let analysis: AnalysisView =
            ok("/api/analyse", json!({"game": "nim", "start": start, "analyser": {"kind": "exact"}})).await;
        let nim_sum = heaps[0] ^ heaps[1] ^ heaps[2];
        for m in &analysis.moves {
            let (heap, to) = m.mv.split_once(':').unwrap();
            let (heap, to): (usize, u32) = (heap.parse().unwrap(), to.parse().unwrap());
            let child_sum = nim_sum ^ heaps[heap] ^ to;
            // A move is best where it leaves a nim-sum of 0, or, where none does, every move is as bad.
            assert_eq!(m.best, child_sum == 0 || nim_sum == 0, "{start}: {}", m.mv);
            checked += 1;
        }
    }
    assert!(checked > 200);
}

/// A Connect-4 line of `stones` moves that ends no game, chosen by a seeded generator.
fn connect4_line(game: &Connect4, seed: u64, stones: usize) -> Option<Vec<String>> {
    let mut state = game.parse_position("").unwrap();
    let (mut line, mut moves, mut x) = (Vec::new(), Vec::new(), seed.wrapping_mul(6364136223846793005).wrapping_add(1));
    for _ in 0..stones {
        game.moves(&state, &mut moves);
        let safe: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&mv| matches!(game.node(&game.child(&state, mv)), Node::Decision(_)))
            .collect();
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mv = *safe.get((x >> 33) as usize % safe.len().max(1))?;
        line.push(game.write_move(mv));
        game.play(&mut state, mv);
    }
    Some(line)
}

#[tokio::test]
async fn connect4_endgames_are_valued_as_plain_minimax_values_them() {
    let game = Connect4::standard();
    let mut checked = 0;
    for seed in 0..6 {
        let Some(line) = connect4_line(&game, seed, 33) else { continue };
        let analysis: AnalysisView =
            ok("/api/analyse", json!({"game": "connect4", "moves": line, "analyser": {"kind": "exact"}})).await;
        let state = game.parse_position(&line.concat()).unwrap();
        let mut moves = Vec::new();
        game.moves(&state, &mut moves);
        for (m, &mv) in analysis.moves.iter().zip(&moves) {
            assert_eq!(m.mv, game.write_move(mv));
            let child = game.child(&state, mv);
            let minimax = Searcher::new(&game, Natural).run(Algorithm::Minimax, &child).value;
            assert_eq!(m.value, Some(minimax), "{}: move {}", line.concat(), m.mv);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} moves checked");
}

#[tokio::test]
async fn a_move_played_gives_the_next_position_and_moves_replay() {
    let state: StateView = ok("/api/play", json!({"game": "tictactoe", "moves": ["4"], "move": "0"})).await;
    assert_eq!((state.turn.as_str(), state.to_move.as_deref()), ("decision", Some("X")));
    assert_eq!(state.moves, ["4", "0"]);
    assert_eq!(state.legal, ["1", "2", "3", "5", "6", "7", "8"]);
    let won: StateView = ok("/api/state", json!({"game": "tictactoe", "start": "XX.OO....", "moves": ["2"]})).await;
    assert_eq!((won.turn.as_str(), won.outcome, won.legal.len()), ("over", Some(1.0), 0));
    let pig: StateView = ok("/api/play", json!({"game": "pig", "move": "roll"})).await;
    assert_eq!((pig.turn.as_str(), pig.probabilities.len()), ("chance", 6));
}

#[tokio::test]
async fn players_choose_legal_moves_the_same_for_the_same_seed() {
    let body =
        |player: &str, seed: u64| json!({"game": "tictactoe", "start": "X...O...X", "player": player, "seed": seed});
    let engine: ChoiceView = ok("/api/choose", body("engine:4", 0)).await;
    assert!(["1", "3", "5", "7"].contains(&engine.mv.as_str()), "{}", engine.mv);
    for seed in 0..5 {
        let a: ChoiceView = ok("/api/choose", body("random", seed)).await;
        let b: ChoiceView = ok("/api/choose", body("random", seed)).await;
        assert_eq!(a.mv, b.mv);
    }
    let mcts: ChoiceView = ok("/api/choose", body("mcts:3000", 1)).await;
    assert!(["1", "3", "5", "7"].contains(&mcts.mv.as_str()), "{}", mcts.mv);
}

#[tokio::test]
async fn bad_input_is_a_4xx_naming_the_problem() {
    let bad = StatusCode::BAD_REQUEST;
    refused("/api/state", r#"{"game": "chess"}"#, bad, "chess").await;
    refused("/api/state", r#"{"game": "tictactoe", "start": "XXXX"}"#, bad, "XXXX").await;
    refused("/api/state", r#"{"game": "tictactoe", "moves": ["4", "4"]}"#, bad, "move 2").await;
    refused("/api/play", r#"{"game": "tictactoe", "move": "9"}"#, bad, "9").await;
    refused("/api/play", r#"{"game": "tictactoe", "start": "XXXOO....", "move": "5"}"#, bad, "over").await;
    let analyse = |analyser: &str| format!(r#"{{"game": "connect4", "analyser": {analyser}}}"#);
    refused("/api/analyse", &analyse(r#"{"kind": "depth", "depth": 0}"#), bad, "depth 0").await;
    refused("/api/analyse", &analyse(r#"{"kind": "depth", "depth": 11}"#), bad, "depth 11").await;
    refused("/api/analyse", &analyse(r#"{"kind": "mcts", "iterations": 0}"#), bad, "0 iterations").await;
    refused("/api/analyse", &analyse(r#"{"kind": "mcts", "iterations": 1000000000}"#), bad, "1000000000").await;
    refused(
        "/api/analyse",
        r#"{"game": "nim", "start": "3,4", "analyser": {"kind": "depth", "depth": 2}}"#,
        bad,
        "evaluator",
    )
    .await;
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    refused("/api/analyse", &analyse(r#"{"kind": "oracle"}"#), unprocessable, "oracle").await;
    refused("/api/analyse", &analyse(r#"{"kind": "net"}"#), unprocessable, "missing field `name`").await;
    refused("/api/analyse", &analyse(r#"{"kind": "depth", "depth": -3}"#), unprocessable, "-3").await;
    refused("/api/analyse", r#"{"game": "connect4"}"#, unprocessable, "analyser").await;
    refused("/api/state", r#"{"game": "connect4", "colour": "red"}"#, unprocessable, "colour").await;
    refused("/api/state", r#"{"game": "connect4""#, bad, "EOF").await;
    refused("/api/choose", r#"{"game": "tictactoe", "player": "net:/etc/passwd:10"}"#, bad, "network").await;
    refused("/api/choose", r#"{"game": "tictactoe", "player": "engine:11"}"#, bad, "depth 10").await;
    refused("/api/choose", r#"{"game": "tictactoe", "player": "wizard"}"#, bad, "wizard").await;
    let moves = vec!["1"; 1001];
    let many = json!({"game": "nim", "start": "3", "moves": moves}).to_string();
    refused("/api/state", &many, bad, "1001 moves").await;
    let huge = format!(r#"{{"game": "tictactoe", "start": "{}"}}"#, "X".repeat(100_000));
    refused("/api/state", &huge, StatusCode::PAYLOAD_TOO_LARGE, "length limit").await;
    let (status, _, value) = send_with(Limits::default(), "GET", "/api/nowhere", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{value}");
    assert!(value["error"].as_str().unwrap().contains("/api/nowhere"));
    let (status, _, value) = send_with(Limits::default(), "GET", "/api/analyse", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{value}");
    assert!(value["error"].as_str().unwrap().contains("GET"));
}

#[tokio::test]
async fn a_server_with_no_free_slot_says_busy() {
    let body = json!({"game": "tictactoe", "analyser": {"kind": "exact"}}).to_string();
    let none = Limits { max_searches: 0, ..Limits::default() };
    let (status, retry, value) = send_with(none, "POST", "/api/analyse", Some(body)).await;
    assert_eq!((status, retry.as_deref()), (StatusCode::SERVICE_UNAVAILABLE, Some("1")), "{value}");
    assert!(value["error"].as_str().unwrap().contains("busy"));
}

/// Searches with a time budget answer with what they have when it runs out, and say so; one with time enough
/// does all it was asked.
#[tokio::test]
async fn a_search_out_of_time_answers_with_what_it_has_and_says_so() {
    let game = "connect4";
    let hurried = |analyser: Value| json!({"game": game, "analyser": analyser, "millis": 1});
    let deep: AnalysisView = ok("/api/analyse", hurried(json!({"kind": "depth", "depth": 10}))).await;
    assert!(!deep.complete, "depth 10 of Connect-4's start in a millisecond");
    assert_eq!(deep.depth, Some(2), "the shallowest depth of the deepening, by steps of 2 to 10");
    assert!(deep.moves.iter().all(|m| m.value.is_some()), "every move valued at the depth reached");
    let shallow: AnalysisView =
        ok("/api/analyse", json!({"game": game, "analyser": {"kind": "depth", "depth": 2}})).await;
    let values = |a: &AnalysisView| a.moves.iter().map(|m| m.value).collect::<Vec<_>>();
    assert_eq!(values(&deep), values(&shallow), "the depth reached gives that depth's own values");
    assert!(shallow.complete);
    let many = json!({"kind": "mcts", "iterations": 200_000, "seed": 3});
    let cut: AnalysisView = ok("/api/analyse", hurried(many.clone())).await;
    let visits: u64 = cut.moves.iter().filter_map(|m| m.visits).sum();
    assert!(!cut.complete && (1..200_000).contains(&visits), "{visits} iterations in a millisecond");
    let few = json!({"kind": "mcts", "iterations": 5_000, "seed": 3});
    let whole: AnalysisView = ok("/api/analyse", json!({"game": game, "analyser": few, "millis": 60_000})).await;
    assert!(whole.complete);
    assert_eq!(whole.moves.iter().filter_map(|m| m.visits).sum::<u64>(), 5_000);
}

/// An exact analysis that the solver would not finish in time is refused at once with its estimate; `millis`
/// of none is refused.
#[tokio::test]
async fn an_exact_analysis_past_its_time_is_refused_up_front_with_the_estimate() {
    let start = json!({"game": "connect4", "analyser": {"kind": "exact"}, "millis": 10_000});
    let clock = std::time::Instant::now();
    let (status, value) = post("/api/analyse", start).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    let message = value["error"].as_str().unwrap();
    assert!(message.contains("takes about 11 min on one core"), "{message}");
    assert!(clock.elapsed().as_secs() < 2, "refused at once");
    let body = json!({"game": "tictactoe", "analyser": {"kind": "exact"}, "millis": 0}).to_string();
    refused("/api/analyse", &body, StatusCode::BAD_REQUEST, "millis 0").await;
}

/// The best move's threats in a game with captures: a tiger beside a goat with the point behind it empty takes
/// it at once; a game without captures has none.
#[tokio::test]
async fn the_best_move_s_threats_come_with_the_analysis() {
    let body = json!({"game": "bagh-chal", "start": "TG..T/...../...../...../T...T t 19",
        "analyser": {"kind": "depth", "depth": 2}});
    let analysis: AnalysisView = ok("/api/analyse", body).await;
    let best = analysis.moves.iter().find(|m| m.best).unwrap();
    assert_eq!(best.mv, "a5xc5");
    let threat = analysis.threat.expect("Bagh-Chal has captures");
    assert_eq!(threat.captures_within, Some(1));
    let body = json!({"game": "tictactoe", "analyser": {"kind": "exact"}});
    let analysis: AnalysisView = ok("/api/analyse", body).await;
    assert!(analysis.threat.is_none());
}

#[test]
fn the_server_answers_on_a_socket_of_its_own() {
    use std::io::{Read, Write};
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        khela_web::run(
            "127.0.0.1:0".parse().unwrap(),
            router(Limits::default()),
            move |addr| addr_tx.send(addr).unwrap(),
            async move {
                let _ = stop_rx.await;
            },
        )
    });
    let addr = addr_rx.recv().unwrap();
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"name\":\"tictactoe\""), "{answer}");
    stop_tx.send(()).unwrap();
    server.join().unwrap().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let err = khela_web::run(taken.local_addr().unwrap(), router(Limits::default()), |_| {}, async {}).unwrap_err();
    assert!(err.to_string().contains("cannot listen on"), "{err}");
}

#[tokio::test]
async fn the_textbooks_trees_trace_as_the_textbook_traces_them() {
    let traced: TraceView = ok("/api/trace", json!({"tree": "[[5,8,6],[3,9,7],[10,4,2]]"})).await;
    assert_eq!((traced.value, traced.best.as_deref(), traced.nodes, traced.tree_nodes), (5.0, Some("A"), 10, 13));
    assert_eq!(traced.pruned_leaves, [9, 7, 2]);
    let cutoffs: Vec<&Vec<String>> = traced
        .steps
        .iter()
        .filter_map(|s| if let StepView::Pruned { nodes, .. } = s { Some(nodes) } else { None })
        .collect();
    assert_eq!(cutoffs, [&vec!["B.2".to_string(), "B.3".to_string()], &vec!["C.3".to_string()]]);
    let min: TraceView = ok("/api/trace", json!({"tree": "[[[3,5],[2,9]],[[1,7],[4,6]]]", "root": "min"})).await;
    assert_eq!(min.value, 3.0);
    let chance: TraceView = ok("/api/trace", json!({"tree": "[3,{0.5:8,0.5:-1}]", "algorithm": "minimax"})).await;
    assert_eq!((chance.value, chance.best.as_deref()), (3.5, Some("B")));
}

/// A random tree in nested-list notation: `depth` levels of 2 or 3 children, leaves 0..=99, from a seeded generator.
fn random_tree(x: &mut u64, depth: u32) -> String {
    *x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    if depth == 0 {
        return ((*x >> 33) % 100).to_string();
    }
    let children = 2 + (*x >> 40) % 2;
    let kids: Vec<String> = (0..children).map(|_| random_tree(x, depth - 1)).collect();
    format!("[{}]", kids.join(","))
}

#[tokio::test]
async fn every_traced_search_finds_minimaxs_value_on_random_trees() {
    for seed in 0..40u64 {
        let mut x = seed;
        let tree = random_tree(&mut x, 2 + (seed % 3) as u32);
        let root = if seed % 2 == 0 { "max" } else { "min" };
        let minimax: TraceView = ok("/api/trace", json!({"tree": tree, "root": root, "algorithm": "minimax"})).await;
        assert!(minimax.pruned_leaves.is_empty(), "{tree}");
        for algorithm in ["alphabeta", "negamax", "negamax-alphabeta"] {
            let traced: TraceView = ok("/api/trace", json!({"tree": tree, "root": root, "algorithm": algorithm})).await;
            assert_eq!(traced.value, minimax.value, "{algorithm} on {tree}");
            assert!(traced.nodes <= minimax.nodes, "{algorithm} on {tree}");
        }
    }
}

#[tokio::test]
async fn a_bad_trace_request_is_refused_naming_the_problem() {
    let bad = StatusCode::BAD_REQUEST;
    refused("/api/trace", r#"{"tree": "[1,"}"#, bad, "tree").await;
    refused("/api/trace", r#"{"tree": "[1,2]", "root": "middle"}"#, bad, "middle").await;
    refused("/api/trace", r#"{"tree": "[1,2]", "algorithm": "mtdf"}"#, bad, "mtdf").await;
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    refused("/api/trace", &json!({"tree": deep}).to_string(), bad, "nesting").await;
}

/// The textbook's move-ordering table (results/ordering.csv, the README's first table): the random tree b=4, d=6,
/// seed 42, leaves 0..=99 from Python's generator; minimax visits all 4,096 leaves, alpha-beta 687 in the natural
/// order, 127 best first (Knuth and Moore's minimum) and 3,568 worst first, every search finding 26.
#[tokio::test]
async fn the_ordering_table_has_the_textbooks_figures() {
    let table: khela_web::OrderingView =
        ok("/api/ordering", json!({"branching": 4, "depth": 6, "seed": 42, "generator": "python"})).await;
    let rows: Vec<(&str, &str, f64, u64, u64)> =
        table.rows.iter().map(|r| (r.algorithm.as_str(), r.ordering.as_str(), r.value, r.leaves, r.nodes)).collect();
    assert_eq!(
        rows,
        [
            ("minimax", "natural", 26.0, 4096, 5461),
            ("alphabeta", "natural", 26.0, 687, 1056),
            ("alphabeta", "best", 26.0, 127, 268),
            ("alphabeta", "worst", 26.0, 3568, 4853),
        ]
    );
    assert_eq!((table.tree_nodes, table.tree_leaves, table.knuth_moore), (5461, 4096, Some(127)));
    let default: khela_web::OrderingView = ok("/api/ordering", json!({"branching": 4, "depth": 6, "seed": 42})).await;
    assert_eq!(default.rows.iter().map(|r| r.leaves).collect::<Vec<_>>(), [4096, 687, 127, 3568]);
    let pcg: khela_web::OrderingView =
        ok("/api/ordering", json!({"branching": 3, "depth": 4, "seed": 1, "generator": "pcg"})).await;
    assert_eq!((pcg.rows.len(), pcg.rows[0].leaves), (4, 81));
    assert!(pcg.rows.iter().all(|r| r.value == pcg.rows[0].value));
}

#[tokio::test]
async fn an_ordering_table_over_the_limit_or_badly_asked_is_refused_naming_the_problem() {
    let bad = StatusCode::BAD_REQUEST;
    // 5^0 + … + 5^11 = 61,035,156 nodes, over the command's 2^24 = 16,777,216.
    let big = r#"{"branching": 5, "depth": 11, "seed": 42}"#;
    refused("/api/ordering", big, bad, "61035156 nodes").await;
    refused("/api/ordering", big, bad, "limited to 16777216 nodes").await;
    refused("/api/ordering", r#"{"branching": 2, "depth": 100, "seed": 1}"#, bad, "more than 2^62").await;
    refused("/api/ordering", r#"{"branching": 0, "depth": 3, "seed": 1}"#, bad, "b=0").await;
    refused("/api/ordering", r#"{"branching": 2, "depth": 3, "seed": 1, "generator": "mt"}"#, bad, "\"mt\"").await;
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    refused("/api/ordering", r#"{"branching": 2, "depth": 3}"#, unprocessable, "seed").await;
    refused("/api/ordering", r#"{"branching": -2, "depth": 3, "seed": 1}"#, unprocessable, "-2").await;
}

#[tokio::test]
async fn a_position_goes_out_as_a_game_record_and_comes_back() {
    let position = json!({"game": "bagh-chal(rules=bagh-bandi)", "moves": ["c5-c4", "b4-b5"]});
    let (status, record) = post("/api/record", position).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    let text = record["text"].as_str().unwrap();
    assert!(
        text.contains("game bagh-chal(rules=bagh-bandi)\nstart ") && text.ends_with("1. c5-c4\n2. b4-b5\n"),
        "{text}"
    );
    let state: StateView = ok("/api/load", json!({"text": text})).await;
    assert_eq!(
        (state.game.as_str(), state.moves.as_slice()),
        ("bagh-chal(rules=bagh-bandi)", &["c5-c4".to_string(), "b4-b5".to_string()][..])
    );
    refused("/api/load", r#"{"text": "game nim\nstart 1,2\n1. 9:0\n"}"#, StatusCode::BAD_REQUEST, "move 1").await;
    refused("/api/load", r#"{"text": "hello"}"#, StatusCode::BAD_REQUEST, "line 1").await;
    refused("/api/record", r#"{"game": "nim", "start": "3", "moves": ["0:5"]}"#, StatusCode::BAD_REQUEST, "move 1")
        .await;
}

/// A small Bagh-Chal whose endgame, the sliding phase, is solved in memory in a moment.
const SMALL_BAGH_CHAL: &str = "bagh-chal(size=3,tigers=a1,goats=4,captures=2)";

#[tokio::test]
async fn a_game_served_with_its_tables_values_the_sliding_phase_from_them() {
    let with_tables = khela::load(SMALL_BAGH_CHAL).unwrap().with_tables(None).unwrap();
    // The goats placed (a line with no capture), then a position of the sliding phase.
    let moves = ["b2", "a1-a2", "c3", "a2-a1", "c1", "a1-a2", "c2"];
    let body = json!({"game": SMALL_BAGH_CHAL, "moves": moves, "analyser": {"kind": "exact"}});
    // Without the tables, a game whose positions repeat is not analysed exactly.
    refused_with(router(Limits::default()), "/api/analyse", &body, "positions repeat").await;
    let app = khela_web::router_with(
        Limits::default(),
        khela_web::Served { tables: vec![with_tables.clone()], nets: Vec::new() },
    );
    let (status, value) = send_to(app, "/api/analyse", &body).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let analysis: AnalysisView = serde_json::from_value(value).unwrap();
    assert_eq!(analysis.source, "exact");
    // The values are the tables': the library's game with its tables, and the tables' own move outcomes.
    let mut state = with_tables.start().unwrap();
    for mv in moves {
        state.play_text(mv).unwrap();
    }
    let expected = state.analyse(&khela::Analyser::Exact).unwrap();
    assert_eq!(analysis.moves.len(), expected.moves.len());
    for (shown, m) in analysis.moves.iter().zip(&expected.moves) {
        assert_eq!((shown.mv.as_str(), shown.value, shown.plies), (m.text.as_str(), m.value, m.plies));
        // A win or a loss has its distance; a draw has none.
        assert_eq!(shown.plies.is_some(), shown.value != Some(0.0), "{}", shown.mv);
    }
}

async fn send_to(app: axum::Router, path: &str, body: &Value) -> (StatusCode, Value) {
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

async fn refused_with(app: axum::Router, path: &str, body: &Value, expected: &str) {
    let (status, value) = send_to(app, path, body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    assert!(value["error"].as_str().unwrap().contains(expected), "{value}");
}

#[tokio::test]
async fn a_network_is_played_by_its_name_never_by_a_path() {
    let results = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let nets = khela_web::nets_in(&results).unwrap();
    let names: Vec<(&str, &str)> = nets.iter().map(|n| (n.name.as_str(), n.game.as_str())).collect();
    assert!(
        names.contains(&("zero-tictactoe", "tictactoe")) && names.contains(&("zero-connect4", "connect4")),
        "{names:?}"
    );
    let app =
        || khela_web::router_with(Limits::default(), khela_web::Served { tables: Vec::new(), nets: nets.clone() });
    let request = Request::get("/api/games").body(Body::empty()).unwrap();
    let response = app().oneshot(request).await.unwrap();
    let games: Vec<GameView> =
        serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(games.iter().find(|g| g.name == "tictactoe").unwrap().nets, ["zero-tictactoe"]);
    assert!(games.iter().find(|g| g.name == "nim").unwrap().nets.is_empty());
    // The network plays a legal move, the same one from the same seed; and the move it plays from X...O...X is
    // one of the exact best (it holds the draw).
    let body = json!({"game": "tictactoe", "start": "X...O...X", "player": "net:zero-tictactoe:100", "seed": 3});
    let (status, first) = send_to(app(), "/api/choose", &body).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (_, again) = send_to(app(), "/api/choose", &body).await;
    assert_eq!(first, again);
    assert!(["1", "3", "5", "7"].contains(&first["move"].as_str().unwrap()), "{first}");
    // The network's search as an analysis: every move's visits, from its simulations.
    let body = json!({"game": "tictactoe", "start": "X...O...X", "analyser": {"kind": "net", "name": "zero-tictactoe", "simulations": 200}});
    let (status, analysis) = send_to(app(), "/api/analyse", &body).await;
    assert_eq!(status, StatusCode::OK, "{analysis}");
    let analysis: AnalysisView = serde_json::from_value(analysis).unwrap();
    let visits: u64 = analysis.moves.iter().map(|m| m.visits.unwrap()).sum();
    assert_eq!(analysis.source, "net");
    assert!((100..=200).contains(&visits), "{visits} visits from 200 simulations");
    let body = json!({"game": "tictactoe", "analyser": {"kind": "net", "name": "zero-connect4", "simulations": 10}});
    refused_with(app(), "/api/analyse", &body, "no network").await;
    for (player, expected) in [
        ("net:zero-connect4", "no network \"zero-connect4\" for tictactoe; it has zero-tictactoe"),
        ("net:/etc/passwd", "no network \"/etc/passwd\""),
        ("net:zero-tictactoe:0", "takes N from 1 to"),
    ] {
        let body = json!({"game": "tictactoe", "player": player});
        refused_with(app(), "/api/choose", &body, expected).await;
    }
}
