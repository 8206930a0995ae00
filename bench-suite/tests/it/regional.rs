//! The regional games through every command that serves them: perft counts, depth-limited values checked
//! against the library's engine, Monte Carlo, the evaluator, and the refusals (exact solving, unknown rules,
//! options a game does not take).

use crate::common::{csv, refused};
use khela_exact::SearchConfig;
use khela_games::bagh_chal::BaghChal;
use khela_games::sixteen_soldiers::{Capture, SixteenSoldiers};
use khela_games::{Game, Notation};
use khela_heuristic::Engine;
use khela_heuristic::bagh_chal::Crowding;
use khela_heuristic::sixteen_soldiers::Soldiers;

#[test]
fn perft_as_scripts_read_it() {
    assert_eq!(
        csv(&["count", "--game", "bagh-chal", "--depth", "3", "--only", "sequences"]),
        "ply,sequences,positions\n0,1,\n1,21,\n2,252,\n3,5052,\n"
    );
    // The counts the registry holds for its estimates, as far as a test runs in seconds.
    assert_eq!(
        csv(&["count", "--game", "bagh-chal", "--depth", "6"]),
        "ply,sequences,positions\n0,1,1\n1,21,21\n2,252,252\n3,5052,2772\n4,68204,21113\n5,1304788,149751\n\
         6,18592000,747485\n"
    );
    assert_eq!(
        csv(&["count", "--game", "sixteen-soldiers", "--depth", "8"]),
        "ply,sequences,positions\n0,1,1\n1,9,9\n2,21,21\n3,65,65\n4,323,296\n5,1804,1534\n6,9406,6988\n\
         7,56624,32570\n8,359122,150045\n"
    );
    for (rules, second) in [("compulsory", "21"), ("optional", "69"), ("continue", "69")] {
        let counts =
            csv(&["count", "--game", "sixteen-soldiers", "--rules", rules, "--depth", "2", "--only", "sequences"]);
        assert_eq!(counts, format!("ply,sequences,positions\n0,1,\n1,9,\n2,{second},\n"), "{rules}");
    }
    // Perft counts move generation, without the quiet limit (as without the cycle rules): it refuses one.
    refused(&["count", "--game", "sixteen-soldiers", "--quiet-limit", "2", "--depth", "4"], "drop --quiet-limit");
}

/// The CSV rows `move,value` of `solve --depth`, from the library's engine.
fn engine_rows<G: Notation, E: khela_games::Evaluator<G>>(game: &G, evaluator: &E, text: &str, depth: u32) -> String {
    let state = game.parse_position(text).unwrap();
    let mut engine = Engine::new(game, evaluator, SearchConfig::depth_limited(depth));
    let values = engine.analyse(&state);
    values.iter().map(|v| format!("{},{}", game.write_move(v.mv), v.value)).collect::<Vec<_>>().join("\n")
}

/// The `move,value` columns of `solve --depth`'s CSV.
fn solve_rows(args: &[&str]) -> String {
    csv(args).lines().skip(1).map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn solve_to_a_depth_is_the_engine() {
    let bagh = BaghChal::standard();
    // The sliding phase: every goat placed, three captured.
    let sliding = "T.GGT/GG.GG/GGTGG/G.GGG/TGG.G t 0";
    for (text, depth) in [(bagh.start().unwrap().to_string(), 3), (sliding.to_string(), 4)] {
        let rows = solve_rows(&["solve", "--game", "bagh-chal", "--position", &text, "--depth", &depth.to_string()]);
        assert_eq!(rows, engine_rows(&bagh, &Crowding::new(&bagh), &text, depth), "{text}");
    }
    let soldiers = SixteenSoldiers::new(Capture::Optional);
    let text = "OOO/OOO/OOOOO/OO.OO/..O../XXXXX/XX.XX/XXX/XXX x";
    let rows =
        solve_rows(&["solve", "--game", "sixteen-soldiers", "--rules", "optional", "--position", text, "--depth", "3"]);
    assert_eq!(rows, engine_rows(&soldiers, &Soldiers, text, 3));
    assert!(rows.contains("c4xc6"), "{rows}");
}

#[test]
fn monte_carlo_and_the_evaluator() {
    let args = ["mcts", "--game", "sixteen-soldiers", "--iterations", "2000", "--seed", "3"];
    let first = csv(&args);
    assert_eq!(first, csv(&args), "the same seed, the same table");
    assert_eq!(first.lines().count(), 1 + 9, "{first}");
    let solver = csv(&[
        "mcts",
        "--game",
        "bagh-chal",
        "--iterations",
        "500",
        "--solver",
        "--algorithm",
        "puct",
        "--prior",
        "evaluator",
    ]);
    assert_eq!(solver.lines().count(), 1 + 21, "{solver}");
    assert_eq!(
        csv(&["eval", "--game", "bagh-chal"]),
        "term,value\ncaptured,0\ntrapped,0\nmobility,-12\nexposed,0\ntotal,-12\n"
    );
    let game = SixteenSoldiers::new(Capture::Compulsory);
    let start = game.start_position();
    let moved = game.write(&game.child(&start, {
        let mut moves = Vec::new();
        game.moves(&start, &mut moves);
        moves[0]
    }));
    assert!(csv(&["eval", "--game", "sixteen-soldiers", "--position", &moved]).starts_with("term,value\nmaterial,0\n"));
}

#[test]
fn what_the_regional_games_refuse() {
    refused(&["solve", "--game", "bagh-chal"], "its positions repeat: exact values come from retrograde analysis");
    refused(&["count", "--game", "sixteen-soldiers"], "its positions repeat, so its full tree is infinite");
    refused(&["count", "--game", "bagh-chal", "--rules", "tigers"], "\"tigers\" is not key=value");
    refused(&["count", "--game", "bagh-chal", "--rules", "size=4", "--depth", "1"], "odd number of points wide");
    refused(&["count", "--game", "bagh-chal", "--rules", "lions=2", "--depth", "1"], "no key \"lions\"");
    refused(&["count", "--game", "bagh-chal", "--rules", "goats=x", "--depth", "1"], "goats=\"x\" is not a number");
    // A small setup from the command line: one tiger on a 3 × 3 board against four goats.
    let small = ["--game", "bagh-chal", "--rules", "size=3,tigers=a1,goats=4,captures=2"];
    let count = csv(&[&["count"], &small[..], &["--depth", "1", "--only", "sequences"]].concat());
    assert_eq!(count, "ply,sequences,positions\n0,1,\n1,8,\n");
    assert!(csv(&[&["solve"], &small[..], &["--depth", "3"]].concat()).starts_with("move,value,best\n"));
    // Bagh-Bandi: its stacks from the command line, alone or changed by keys.
    let bandi = csv(&["count", "--game", "bagh-chal", "--rules", "bagh-bandi", "--depth", "2", "--only", "sequences"]);
    assert_eq!(bandi, "ply,sequences,positions\n0,1,\n1,13,\n2,360,\n");
    let goats_first = ["--game", "bagh-chal", "--rules", "bagh-bandi,first=goats,stacks=b2:5+d2:5+b4:5+d4:5"];
    let count = csv(&[&["count"], &goats_first[..], &["--depth", "1", "--only", "sequences"]].concat());
    assert_eq!(count, "ply,sequences,positions\n0,1,\n1,26,\n", "goats first: 7 + 7 + 6 + 6 steps off the stacks");
    refused(
        &["count", "--game", "bagh-chal", "--rules", "bagh-bandi,stacks=b2", "--depth", "1"],
        "\"b2\" is not point:goats",
    );
    refused(&["count", "--game", "bagh-chal", "--rules", "first=lions", "--depth", "1"], "first=\"lions\"");
    refused(
        &["count", "--game", "bagh-chal", "--rules", "bagh-bandi,stacks=c3:5", "--depth", "1"],
        "c3 holds two pieces or stacks",
    );
    refused(
        &["count", "--game", "sixteen-soldiers", "--rules", "forced", "--depth", "1"],
        "\"forced\" is not a Sixteen Soldiers capture rule; the rules: compulsory, optional, continue",
    );
    refused(
        &["count", "--game", "bagh-chal", "--quiet-limit", "50", "--depth", "1"],
        "Bagh-Chal takes no parameter quiet-limit",
    );
    refused(&["eval", "--game", "sixteen-soldiers", "--quiet-limit", "0"], "--quiet-limit 0");
    refused(&["eval", "--game", "bagh-chal", "--position", "T...T/...../...../...../T...T g"], "expected the board");
    refused(&["eval", "--game", "sixteen-soldiers", "--position", "OOO x"], "9 ranks expected, 1 given");
    refused(
        &["mcts", "--game", "bagh-chal", "--position", "T...T/...../...../...../T...T g 15"],
        "already over (tigers has won)",
    );
}

/// The rows of a `match` CSV, as (a, b, numbers…).
fn match_rows(args: &[&str]) -> Vec<Vec<String>> {
    csv(&[&["match"], args].concat()).lines().skip(1).map(|l| l.split(',').map(String::from).collect()).collect()
}

#[test]
fn matches_add_up_and_do_not_depend_on_threads() {
    // No opening: from a random one a perfect player may be lost already. One ply for the weak engine: at two,
    // deepening by two plies as tic-tac-toe's evaluator asks (one iteration, no first ply's order to follow), it
    // draws every game against the perfect player.
    let args = ["--game", "tictactoe", "--players", "engine:9,engine:1,random", "--games", "20", "--opening", "0"];
    let dir = tempfile::tempdir().unwrap();
    let ratings = dir.path().join("ratings.csv");
    let one = match_rows(&[&args[..], &["--threads", "1", "--ratings", ratings.to_str().unwrap()]].concat());
    assert_eq!(one, match_rows(&[&args[..], &["--threads", "2"]].concat()));
    // The ratings: the first player at 0, the perfect player above the others, random below engine:1.
    let rated = std::fs::read_to_string(&ratings).unwrap();
    let elo: Vec<(String, f64)> = rated
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f[2], "40", "each player plays two pairings of 20: {rated}");
            (f[0].to_string(), f[1].parse().unwrap())
        })
        .collect();
    assert!(rated.starts_with("player,elo,games,score\nengine:9,0.0,40,"), "{rated}");
    assert_eq!(elo.iter().map(|e| e.0.as_str()).collect::<Vec<_>>(), ["engine:9", "engine:1", "random"]);
    assert!(elo[1].1 < 0.0 && elo[2].1 < elo[1].1, "{rated}");
    let same = ratings.to_str().unwrap();
    refused(&[&["match"], &args[..], &["--ratings", same, "--out", same]].concat(), "is the file of --out as well");
    // `-` is standard output, which only --out writes to: no file named `-` is made.
    refused(&[&["match"], &args[..], &["--ratings", "-"]].concat(), "- stands for standard output");
    assert_eq!(one.len(), 3);
    for row in &one {
        let n: Vec<u64> = row[2..12].iter().map(|v| v.parse().unwrap()).collect();
        let [games, a_wins, draws, b_wins, a_first, a_second, b_first, b_second, repetitions, capped] = n[..] else {
            unreachable!()
        };
        assert_eq!(a_wins + draws + b_wins, games, "{row:?}");
        assert_eq!((a_first + a_second, b_first + b_second), (a_wins, b_wins), "{row:?}");
        assert_eq!(repetitions + capped, 0, "tic-tac-toe has no cycles: {row:?}");
    }
    // The perfect player (nine plies see every tic-tac-toe game to its end) never loses.
    assert!(one.iter().filter(|r| r[0] == "engine:9").all(|r| r[5] == "0"), "{one:?}");
    assert!(one.iter().filter(|r| r[1] == "engine:9").all(|r| r[3] == "0"), "{one:?}");
    // Bagh-Chal's games end by the rules as well as by wins.
    let bagh = match_rows(&["--game", "bagh-chal", "--players", "engine:1,random", "--games", "40", "--seed", "1"]);
    let n: Vec<u64> = bagh[0][2..12].iter().map(|v| v.parse().unwrap()).collect();
    assert_eq!(n[1] + n[2] + n[3], 40, "{bagh:?}");
    assert!(n[8] + n[9] > 0, "no game ended by the rules: {bagh:?}");
    refused(&["match", "--game", "tictactoe", "--games", "3"], "--games 3: an even number");
    refused(&["match", "--game", "tictactoe", "--players", "random"], "a match needs two or more");
    refused(
        &["match", "--game", "nim", "--heaps", "3,4", "--players", "engine:2,random"],
        "match with an engine needs an evaluator",
    );
    refused(
        &["match", "--game", "tictactoe", "--players", "engine:2,chess"],
        "engine:DEPTH, mcts:ITERATIONS, net:PATH[:SIMULATIONS], random or perfect",
    );
}

#[test]
fn a_match_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.csv");
    let out = out.to_str().unwrap();
    let args = ["match", "--game", "bagh-chal", "--players", "random,engine:1", "--games", "4", "--out", out];
    // A checkpoint left by a stopped run of this match, holding its first game (as this test makes it up, to see
    // it taken): a draw by repetition after 1,000 plies.
    let header = "# khela match checkpoint; run the same command again to resume\n# game=bagh-chal rules=- \
                  quiet-limit=- position=- players=random,engine:1 games=4 opening=2 seed=0\n";
    let row = "0,0,0,repetition,1000"; // with its CRC-32, as the checkpoint writes each row
    std::fs::write(format!("{out}.games"), format!("{header}{row}\t{:08x}\n0,1,1,ov", crc32fast::hash(row.as_bytes())))
        .unwrap();
    let status = crate::common::bench().args(args).output().unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    assert!(String::from_utf8_lossy(&status.stderr).contains("resuming: 1 of 4 games"));
    let row = std::fs::read_to_string(out).unwrap();
    let fields: Vec<&str> = row.lines().nth(1).unwrap().split(',').collect();
    // No real game passes the 200-ply cap: only the checkpoint's game brings the mean of four past 250.
    assert!(fields[12].parse::<f64>().unwrap() > 250.0, "its 1,000 plies in the mean: {row}");
    assert!(
        !std::path::Path::new(&format!("{out}.games")).exists(),
        "the checkpoint is removed once the table is written"
    );
    // Another match's checkpoint is not taken for this one's.
    std::fs::write(format!("{out}.games"), header.replace("seed=0", "seed=9")).unwrap();
    refused(&args, "is the checkpoint of another match");
}
