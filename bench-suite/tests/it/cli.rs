//! End-to-end tests: run the `bench-suite` binary and check what it prints and writes.

use crate::common::{bench, csv, refused};
use std::path::Path;

#[test]
fn ordering_reproduces_the_textbook_table() {
    let expected = "\
game,b,d,seed,rng,algorithm,ordering,value,leaves,nodes
random-tree,4,6,42,python,minimax,natural,26,4096,5461
random-tree,4,6,42,python,alphabeta,natural,26,687,1056
random-tree,4,6,42,python,alphabeta,best,26,127,268
random-tree,4,6,42,python,alphabeta,worst,26,3568,4853
tictactoe,,,,,minimax,natural,0,255168,549946
tictactoe,,,,,alphabeta,natural,0,7330,18297
tictactoe,,,,,alphabeta,center-corner-edge,0,2893,7275
tictactoe,,,,,alphabeta,edge-corner-center,0,17002,42094
tictactoe,,,,,alphabeta,best,0,781,2312
tictactoe,,,,,alphabeta,worst,0,84100,198837
tictactoe,,,,,alphabeta,reversed,0,7330,18297
";
    assert_eq!(csv(&["ordering"]), expected);
}

#[test]
fn ordering_without_arguments_writes_results_ordering_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = bench().arg("ordering").current_dir(dir.path()).output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("Knuth–Moore minimum for alpha-beta: b^⌈d/2⌉ + b^⌊d/2⌋ − 1 = 127 leaves"), "{stdout}");
    assert!(stdout.contains("| alphabeta | best     | 26    | 127    |"), "{stdout}");
    let written = std::fs::read_to_string(dir.path().join("results/ordering.csv")).unwrap();
    assert_eq!(written, csv(&["ordering"]));
}

#[test]
fn ordering_with_parameters_gives_random_tree_rows_only() {
    let rows = csv(&["ordering", "--b", "4", "--d", "6", "--seed", "42", "--rng", "python"]);
    assert_eq!(rows.lines().count(), 5);
    assert!(rows.contains("random-tree,4,6,42,python,alphabeta,natural,26,687,1056"), "{rows}");
    let pcg = csv(&["ordering", "--b", "3", "--d", "5", "--seed", "1", "--lo", "-10", "--hi", "10"]);
    let lines: Vec<&str> = pcg.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[1].starts_with("random-tree,3,5,1,pcg,minimax,natural,"), "{pcg}");
    // Every ordering finds the minimax value.
    let values: Vec<&str> = lines[1..].iter().map(|l| l.split(',').nth(7).unwrap()).collect();
    assert!(values.iter().all(|v| *v == values[0]), "{pcg}");
}

#[test]
fn solve_tictactoe_trap() {
    assert_eq!(
        csv(&["solve", "--game", "tictactoe", "--position", "X...O...X"]),
        "move,value,best\n1,0,true\n2,1,false\n3,0,true\n5,0,true\n6,1,false\n7,0,true\n"
    );
    let empty = csv(&["solve", "--game", "tictactoe"]);
    assert_eq!(empty.lines().count(), 10);
    assert!(empty.lines().skip(1).all(|l| l.ends_with(",0,true")), "{empty}");
}

#[test]
fn solve_nim_345() {
    let rows = csv(&["solve", "--game", "nim", "--heaps", "3,4,5"]);
    assert!(rows.starts_with("heap,from,to,wins\n0,3,2,false\n0,3,1,true\n"), "{rows}");
    assert_eq!(rows.lines().count(), 13);
    assert_eq!(rows.matches("true").count(), 1);
}

#[test]
fn nim_check_xor_summary() {
    let out = bench().args(["solve", "--game", "nim", "--check-xor", "--heaps-count", "3", "--max", "5"]).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("all 216 positions agree with Bouton's XOR rule"), "{stdout}");
    assert!(stdout.contains("stored 56 states"), "{stdout}");
    assert!(
        stdout.contains("(0, 0, 0), (0, 1, 1), (0, 2, 2), (0, 3, 3), (0, 4, 4), (0, 5, 5), (1, 2, 3), (1, 4, 5)"),
        "{stdout}"
    );
    let rows = csv(&["solve", "--game", "nim", "--check-xor"]);
    assert!(rows.starts_with("heaps,nim_sum,search_wins,bouton_wins\n\"0,0,0\",0,false,false\n"), "{rows}");
    assert_eq!(rows.lines().count(), 217);
}

#[test]
fn count_tictactoe() {
    assert_eq!(
        csv(&["count", "--game", "tictactoe"]),
        "games,x_wins,o_wins,draws,nodes,states\n255168,131184,77904,46080,549946,5478\n"
    );
}

#[test]
fn trace_prints_children_before_parents_and_pruned_leaves() {
    let out = bench().args(["trace", "--tree", "[[5,8,6],[3,9,7],[10,4,2]]"]).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("value 5, best move A"), "{stdout}");
    assert!(stdout.contains("nodes visited 10 of 13"), "{stdout}");
    assert!(stdout.contains("pruned leaves: 9, 7, 2"), "{stdout}");
    let rows = csv(&["trace", "--tree", "[[5,8,6],[3,9,7],[10,4,2]]", "--algorithm", "alphabeta"]);
    assert!(rows.contains("pruned,B.2 B.3,,,9 7\nbacked,B,3,upper,\n"), "{rows}");
    let min_root = bench().args(["trace", "--tree", "[[[3,5],[2,9]],[[1,7],[4,6]]]", "--root", "min"]).unwrap();
    assert!(String::from_utf8(min_root.stdout).unwrap().contains("value 3,"));
    let chance = bench().args(["trace", "--tree", "[3,{0.5:8,0.5:-1}]", "--algorithm", "minimax"]).unwrap();
    assert!(String::from_utf8(chance.stdout).unwrap().contains("value 3.5, best move B"));
}

#[test]
fn bad_input_is_refused_in_one_line_with_status_2() {
    refused(&["solve", "--game", "tictactoe", "--position", "XX......."], "\"XX.......\" has 2 X and 0 O");
    refused(&["solve", "--game", "tictactoe", "--position", "X..O"], "has 4 characters");
    refused(&["solve", "--game", "tictactoe", "--position", "XXXOO...."], "already over (X has won)");
    refused(&["solve", "--game", "nim", "--heaps", "3,x,5"], "\"x\" is not a heap size");
    refused(&["solve", "--game", "nim"], "--game nim needs --heaps");
    refused(&["solve", "--game", "nim", "--heaps", "1000,1000,1000"], "has 1,003,003,001 sub-positions");
    refused(&["solve", "--game", "nim", "--check-xor", "--heaps-count", "8", "--max", "63"], "limited to 1,000,000");
    refused(&["solve", "--game", "chess"], "invalid value 'chess'");
    refused(&["trace", "--tree", "[1,2"], "expected ',' or ']'");
    refused(&["trace", "--tree", "{0.5:1,0.4:2}"], "sum to 0.9");
    refused(&["trace", "--tree", "[99999999999999999999]"], "the leaf is beyond ±2^53");
    refused(&["trace", "--tree", "[1.5,2]"], "leaf 1.5 is not an integer");
    // A negative number reaches the option's own parser, which names the option.
    refused(&["ordering", "--seed", "-1"], "invalid value '-1' for '--seed <SEED>'");
    refused(&["mcts", "--game", "tictactoe", "--iterations", "-5"], "invalid value '-5' for '--iterations");
    refused(&["count", "--game", "tictactoe", "--threads", "-2"], "invalid value '-2' for '--threads");
    refused(&["trace", "--tree", "[1]", "--root", "middle"], "invalid value 'middle'");
    refused(&["ordering", "--b", "0"], "invalid value '0' for '--b <B>'");
    refused(&["ordering", "--b", "x"], "invalid value 'x'");
    refused(&["ordering", "--b", "10", "--d", "9"], "1,111,111,111 nodes");
    refused(&["ordering", "--lo", "5", "--hi", "4"], "leaf range 5..=4 is empty");
    refused(&["count", "--game", "tictactoe", "--position", "OOO......"], "0 X and 3 O");
    refused(&["solve"], "--game <GAME>");
    refused(&["frobnicate"], "unrecognized subcommand 'frobnicate'");
}

#[test]
fn failed_runs_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.csv");
    let target_arg = target.to_str().unwrap();
    refused(&["solve", "--game", "tictactoe", "--position", "bad", "--out", target_arg], "has 3 characters");
    assert!(!target.exists());
    // A path under a regular file cannot be written: refused, nothing left behind.
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let under = blocker.join("out.csv");
    refused(&["count", "--game", "tictactoe", "--out", under.to_str().unwrap()], "Not a directory");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // A good run writes the file whole.
    bench().args(["count", "--game", "tictactoe", "--out", target_arg]).assert().success();
    assert!(std::fs::read_to_string(&target).unwrap().starts_with("games,"));
    assert!(Path::new(&target).exists());
}

#[test]
fn help_is_available_for_every_subcommand() {
    for sub in ["ordering", "solve", "eval", "count", "trace"] {
        let out = bench().args([sub, "--help"]).unwrap();
        assert!(String::from_utf8(out.stdout).unwrap().contains("--out"), "{sub}");
    }
    let out = bench().args(["ordering", "--help"]).unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("computes leaves on demand"));
}

#[test]
fn count_connect4_per_ply_on_any_number_of_threads() {
    let rows = csv(&["count", "--game", "connect4", "--depth", "6", "--threads", "1,2"]);
    assert_eq!(
        rows,
        "ply,sequences,positions\n0,1,1\n1,7,7\n2,49,49\n3,343,238\n4,2401,1120\n5,16807,4263\n6,117649,16422\n"
    );
    let only = csv(&["count", "--game", "connect4", "--depth", "2", "--only", "positions"]);
    assert_eq!(only, "ply,sequences,positions\n0,,1\n1,,7\n2,,49\n");
    let from = csv(&["count", "--game", "connect4", "--depth", "1", "--position", "444444"]);
    assert_eq!(from, "ply,sequences,positions\n0,1,1\n1,6,6\n");
}

#[test]
fn count_writes_a_sidecar_with_machine_facts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count.csv");
    let out = bench()
        .args(["count", "--game", "connect4", "--depth", "5", "--threads", "1,2", "--out", path.to_str().unwrap()])
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("sequences: 2 thread(s), 16,807 in"), "{stdout}");
    assert!(stdout.contains("machine: "), "{stdout}");
    let meta = std::fs::read_to_string(dir.path().join("count.meta.json")).unwrap();
    for key in ["\"arguments\"", "\"git_revision\"", "\"cores\"", "\"date\"", "\"figures\"", "\"per_second\""] {
        assert!(meta.contains(key), "{key} missing from {meta}");
    }
}

/// Counts that take a second or less are not refused by their estimates, which are measured on the game (a
/// bound of every move at every ply refused them, saying thousands of minutes or millions of GiB).
#[test]
fn counts_that_take_a_second_are_run() {
    for args in [
        &["--game", "sixteen-soldiers", "--rules", "optional", "--depth", "7", "--only", "sequences"][..],
        &["--game", "sixteen-soldiers", "--rules", "optional", "--depth", "7", "--only", "positions"],
        &["--game", "bagh-chal", "--rules", "bagh-bandi", "--depth", "6", "--only", "sequences"],
        &["--game", "connect4", "--width", "4", "--height", "5", "--depth", "20", "--only", "positions"],
        &["--game", "einstein", "--depth", "5", "--only", "positions"],
    ] {
        let out = bench().arg("count").args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn count_refuses_what_will_not_finish_or_fit() {
    refused(&["count", "--game", "connect4"], "needs --depth");
    refused(&["count", "--game", "connect4", "--depth", "16", "--only", "sequences"], "minutes at");
    refused(&["count", "--game", "connect4", "--depth", "22", "--only", "positions"], "GiB budget");
    refused(&["count", "--game", "connect4", "--depth", "43"], "more plies than the 42 empty cells");
    refused(&["count", "--game", "connect4", "--depth", "3", "--position", "1111111"], "already full");
    refused(&["count", "--game", "connect4", "--depth", "3", "--width", "9", "--height", "7"], "9x7");
    refused(&["count", "--game", "connect4", "--depth", "3", "--threads", "0"], "invalid value '0'");
    refused(&["count", "--game", "tictactoe", "--only", "positions"], "--only is for counts per ply, with --depth");
    refused(&["count", "--game", "tictactoe", "--depth", "10"], "more plies than the 9 empty cells");
    refused(&["count", "--game", "nim"], "the games that have it: tictactoe");
}

#[test]
fn count_tictactoe_per_ply() {
    // Distinct positions per ply sum to the full tally's 5,478 states (up to symmetry they are OEIS A008907: 1, 3,
    // 12, 38, 108, 174, 204, 153, 57, 15); a sequence that has not ended has 9 − n moves at ply n, so ply 6 has
    // (15,120 − the 1,440 games won at ply 5) × 4 = 54,720, and ply 9's 127,872 are the games that last 9 plies.
    let rows = csv(&["count", "--game", "tictactoe", "--depth", "9", "--threads", "1,2"]);
    let positions: u64 = rows.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(positions, 5_478);
    assert_eq!(
        rows,
        "ply,sequences,positions\n0,1,1\n1,9,9\n2,72,72\n3,504,252\n4,3024,756\n5,15120,1260\n6,54720,1520\n\
         7,148176,1140\n8,200448,390\n9,127872,78\n"
    );
}

#[test]
fn the_registry_lists_every_game_and_what_it_serves() {
    let rows = csv(&["games"]);
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines[0], "game,positions,start,evaluator,commands");
    assert!(lines[1].starts_with("tictactoe,"), "{rows}");
    assert!(lines[1].contains("open lines") && lines[1].contains("count --depth"), "{rows}");
    assert!(
        lines[2].starts_with("nim,") && lines[2].contains("solve --check-xor") && !lines[2].contains("eval"),
        "{rows}"
    );
    assert!(lines[3].starts_with("connect4,") && lines[3].contains("the empty board"), "{rows}");
    assert!(lines[3].contains("mcts, play, match, zero"), "every game plays; Connect-4 trains too: {rows}");
    assert!(lines[2].contains("mcts, play, match\""), "Nim has no network: {rows}");
    assert!(lines[4].starts_with("bagh-chal,") && lines[4].contains("T...T/...../...../...../T...T g 20"), "{rows}");
    assert!(lines[5].starts_with("sixteen-soldiers,") && !lines[5].contains("solve,"), "{rows}");
    // A command refuses a game that cannot serve it, naming the games that can.
    refused(
        &["eval", "--game", "nim", "--heaps", "3"],
        "eval needs an evaluator, which nim does not have; the games that have it: tictactoe, connect4, bagh-chal, \
         sixteen-soldiers",
    );
    refused(&["solve", "--game", "tictactoe", "--check-xor"], "the games that have it: nim");
    refused(
        &["solve", "--game", "tictactoe", "--width", "4"],
        "Tic-tac-toe takes no parameter width (its parameters: none)",
    );
    refused(
        &["solve", "--game", "connect4", "--rules", "x"],
        "Connect-4 takes no parameter rules (its parameters: width, height)",
    );
    // Every game takes every position flag the same way: --heaps is --position.
    assert_eq!(
        csv(&["solve", "--game", "nim", "--position", "1,2"]),
        csv(&["solve", "--game", "nim", "--heaps", "1,2"])
    );
}

#[test]
fn inputs_that_would_panic_exhaust_memory_or_lose_precision_are_refused() {
    refused(&["solve", "--game", "nim", "--heaps", "30000"], "30,000 objects");
    let (lo, hi) = ("--lo=-9223372036854775808", "--hi=9223372036854775807");
    refused(&["ordering", "--rng", "python", lo, hi, "--b", "2", "--d", "2"], "beyond ±2^53");
    refused(&["ordering", "--b", "1", "--d", "100"], "beyond 64");
    refused(&["trace", "--tree", "[9007199254740993,9007199254740992]"], "beyond ±2^53");
}

#[test]
fn solve_to_a_depth_gives_the_textbook_two_ply_values() {
    let expected = "\
move,value,best
0,-1,false
1,-2,false
2,-1,false
3,-2,false
4,1,true
5,-2,false
6,-1,false
7,-2,false
8,-1,false
";
    assert_eq!(csv(&["solve", "--game", "tictactoe", "--depth", "2"]), expected);
    let out = bench().args(["solve", "--game", "tictactoe", "--depth", "2"]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("value 1; chosen move 4; principal variation 4 0"), "{stdout}");
}

/// The engine deepens by its evaluator's step (two plies on Connect-4) unless `--deepening-step` says otherwise;
/// the step changes the nodes, not the value, the chosen move or the moves' values.
#[test]
fn solve_deepens_by_the_evaluators_step_or_the_one_given() {
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", "--game", "connect4", "--position", "4453", "--depth", "6"];
        args.extend(extra);
        let out = bench().args(&args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let (by_default, by_one, by_three) = (run(&[]), run(&["--deepening-step", "1"]), run(&["--deepening-step", "3"]));
    assert!(by_default.contains("(iterative deepening, step 2)"), "{by_default}");
    assert!(by_one.contains("(iterative deepening, step 1)"), "{by_one}");
    assert!(by_three.contains("(iterative deepening, step 3)"), "{by_three}");
    // Everything but the search's own node count is the same.
    let without_nodes = |text: &str| text.lines().filter(|l| !l.starts_with("nodes:")).collect::<Vec<_>>().join("\n");
    assert_eq!(without_nodes(&by_default), without_nodes(&by_one));
    assert_eq!(without_nodes(&by_default), without_nodes(&by_three));
    let nodes = |text: &str| text.lines().find(|l| l.starts_with("nodes:")).unwrap().to_string();
    assert_ne!(nodes(&by_default), nodes(&by_one));
    refused(&["solve", "--game", "connect4", "--deepening-step", "2"], "--deepening-step needs --depth");
    refused(&["solve", "--game", "connect4", "--depth", "4", "--deepening-step", "0"], "0");
    refused(&["solve", "--game", "connect4", "--depth", "4", "--deepening-step", "9"], "9");
}

#[test]
fn solve_with_quiescence_sees_past_the_horizon() {
    let plain = csv(&["solve", "--game", "tictactoe", "--position", "..O..X.OX", "--depth", "2"]);
    assert_eq!(plain, "move,value,best\n0,-1,true\n1,-1,true\n3,-2,false\n4,-1,true\n6,-1,true\n");
    let quiet = csv(&["solve", "--game", "tictactoe", "--position", "..O..X.OX", "--depth", "2", "--quiescence"]);
    assert_eq!(quiet, "move,value,best\n0,-100,false\n1,-1,false\n3,-100,false\n4,100,true\n6,-100,false\n");
}

#[test]
fn solve_connect4_to_a_depth_values_every_column_from_the_side_to_move() {
    let rows = csv(&["solve", "--game", "connect4", "--position", "4453", "--depth", "6"]);
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines[0], "move,value,best");
    let columns: Vec<&str> = lines[1..].iter().map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(columns, ["1", "2", "3", "4", "5", "6", "7"]);
    // A win at once is the largest value on the evaluator's scale: 1,125 + the Pons score (22 − 4 moves by X).
    let win = csv(&["solve", "--game", "connect4", "--position", "445566", "--depth", "1"]);
    assert!(win.lines().any(|l| l == "7,1143,true"), "{win}");
}

#[test]
fn eval_lists_the_terms_and_their_total() {
    assert_eq!(
        csv(&["eval", "--game", "tictactoe", "--position", "....X...."]),
        "term,value\nx_open,8\no_open,-4\ntotal,4\n"
    );
    assert_eq!(csv(&["eval", "--game", "tictactoe", "--position", "XXXOO...."]), "term,value\nterminal,100\n");
    let connect4 = csv(&["eval", "--game", "connect4", "--position", "4"]);
    assert!(connect4.ends_with("total,7\n"), "{connect4}");
}

#[test]
fn depth_limited_solve_refuses_bad_requests() {
    refused(&["solve", "--game", "connect4", "--depth", "30"], "9,495,123,019,885 leaves");
    refused(&["solve", "--game", "connect4", "--depth", "3", "--position", "4449"], "'9'");
    refused(&["solve", "--game", "tictactoe", "--quiescence"], "--quiescence needs --depth");
    refused(&["solve", "--game", "tictactoe", "--depth", "0"], "--depth 0");
    refused(&["solve", "--game", "tictactoe", "--depth", "65"], "65");
    refused(&["solve", "--game", "tictactoe", "--depth", "3", "--position", "XXXOO...."], "already over");
    refused(&["solve", "--game", "nim", "--heaps", "3,4", "--depth", "2"], "--depth");
    refused(&["eval", "--game", "connect4", "--position", "8"], "'8'");
    // Stopped as soon as the pace of its iterations says so, or at the latest after its first move is valued:
    // either way, far from finishing in 5 s.
    refused(
        &["solve", "--game", "connect4", "--position", "44", "--depth", "22", "--time-limit", "5s"],
        "over the limit of 5s",
    );
    refused(&["solve", "--game", "connect4", "--position", "4453", "--depth", "9", "--time-limit", "1h1x"], "'1h1x'");
}

/// `--game` takes a game string with its parameters; `--width`, `--rules`, `--goal` … spell the same parameters.
#[test]
fn a_game_string_and_the_options_spell_the_same_game() {
    let count = |game: &[&str]| csv(&[&["count", "--depth", "5"], game].concat());
    let by_options = count(&["--game", "connect4", "--width", "5", "--height", "4"]);
    assert_eq!(by_options, count(&["--game", "connect4(width=5,height=4)"]));
    assert_eq!(by_options, count(&["--game", "connect4(width=5)", "--height", "4"]));
    assert_ne!(by_options, count(&["--game", "connect4"]));
    assert_eq!(
        csv(&["solve", "--game", "pig", "--goal", "12", "--position", "3 4 0 first"]),
        csv(&["solve", "--game", "pig(goal=12)", "--position", "3 4 0 first"])
    );
    assert_eq!(
        csv(&["eval", "--game", "sixteen-soldiers", "--rules", "optional", "--quiet-limit", "40"]),
        csv(&["eval", "--game", "sixteen-soldiers(rules=optional,quiet-limit=40)"])
    );
    assert_eq!(
        csv(&["count", "--game", "bagh-chal", "--rules", "size=3,tigers=b2,goats=6,captures=3", "--depth", "4"]),
        csv(&["count", "--game", "bagh-chal(size=3,tigers=b2,goats=6,captures=3)", "--depth", "4"])
    );
    refused(
        &["count", "--game", "connect4(width=5)", "--width", "6", "--depth", "1"],
        "--game connect4(width=5): the parameter width is given twice, as 5 and as 6",
    );
    refused(
        &["count", "--game", "connect4(depth=3)", "--depth", "1"],
        "Connect-4 takes no parameter depth (its parameters: width, height)",
    );
    refused(
        &["count", "--game", "chess", "--depth", "1"],
        "unknown game \"chess\"; the games: tictactoe, nim, connect4",
    );
    refused(&["count", "--game", "connect4(width=5", "--depth", "1"], "its parameters end with ')'");
    refused(&["count", "--game", "pig(goal=many)", "--depth", "1"], "goal=many: expected a whole number");
}
