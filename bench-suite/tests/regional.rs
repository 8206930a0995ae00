//! The regional games through every command that serves them: perft counts, depth-limited values checked
//! against the library's engine, Monte Carlo, the evaluator, and the refusals (exact solving, unknown rules,
//! options a game does not take).

mod common;

use common::{csv, refused};
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
    assert_eq!(
        csv(&["count", "--game", "bagh-chal", "--depth", "4"]),
        "ply,sequences,positions\n0,1,1\n1,21,21\n2,252,252\n3,5052,2772\n4,68204,21113\n"
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
    // The sliding phase: every goat placed, one captured.
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
    refused(&["count", "--game", "sixteen-soldiers"], "its full tree is too large to tally");
    refused(
        &["count", "--game", "bagh-chal", "--rules", "tigers"],
        "\"tigers\" is not a Bagh-Chal variant; the variants: bagh-chal, bagh-bandi",
    );
    refused(
        &["count", "--game", "sixteen-soldiers", "--rules", "forced", "--depth", "1"],
        "\"forced\" is not a Sixteen Soldiers capture rule; the rules: compulsory, optional, continue",
    );
    refused(
        &["count", "--game", "bagh-chal", "--quiet-limit", "50", "--depth", "1"],
        "Bagh-Chal takes no --quiet-limit",
    );
    refused(&["eval", "--game", "sixteen-soldiers", "--quiet-limit", "0"], "--quiet-limit 0");
    refused(&["eval", "--game", "bagh-chal", "--position", "T...T/...../...../...../T...T g"], "expected the board");
    refused(&["eval", "--game", "sixteen-soldiers", "--position", "OOO x"], "9 ranks");
    refused(
        &["mcts", "--game", "bagh-chal", "--position", "T...T/...../...../...../T...T g 15"],
        "already over (tigers has won)",
    );
}
