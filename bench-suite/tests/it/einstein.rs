//! EinStein würfelt nicht! through every command: `count` by turns (against the plain recursive count),
//! `solve` exactly (against the library's memoized expectiminimax) and to a depth, `star`'s table, `match` with
//! dice and dealt setups, `play` rolling the die — and the refusals.

use crate::common::{bench, csv, refused};
use khela_exact::{Algorithm, Memo, Natural, Searcher};
use khela_games::Game;
use khela_games::conformance::perft;
use khela_games::einstein::{Einstein, Setup};

#[test]
fn count_counts_turns() {
    let rows = csv(&["count", "--game", "einstein", "--setup", "123456/123456", "--depth", "4", "--only", "sequences"]);
    let setup = Setup::parse("123456/123456").unwrap();
    let game = Einstein::new(setup);
    let expected: String = (0..=4).map(|d| format!("{d},{},\n", perft(&game, &setup.state(), d))).collect();
    assert_eq!(rows, format!("ply,sequences,positions\n{expected}"));
    assert!(rows.contains("\n1,18,\n"), "six rolls, three moves each: {rows}");
}

#[test]
fn solve_values_small_endgames_exactly() {
    let position = "1..../2..../...../....b/....a first 1";
    let rows = csv(&["solve", "--game", "einstein", "--position", position]);
    let s = Einstein::parse(position).unwrap();
    let game = Einstein::new(Setup::random(0));
    let mut memo = Searcher::new(&game, Natural).with_cache(Memo::new());
    let mut moves = Vec::new();
    game.moves(&s, &mut moves);
    let values: Vec<f64> = moves.iter().map(|&m| memo.run(Algorithm::Minimax, &game.child(&s, m)).value).collect();
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let expected: String =
        ["a1b1", "a1a2", "a1b2"].iter().zip(&values).map(|(mv, v)| format!("{mv},{v},{}\n", *v == best)).collect();
    assert_eq!(rows, format!("move,value,best\n{expected}"));
    // The whole setup is far too big to value exactly: refused with the estimate, before any search.
    refused(
        &["solve", "--game", "einstein", "--position", "124../35.../6...d/...eb/..fca first 1"],
        "positions below it to value exactly, over the limit",
    );
    // Before the roll: a row a face, none chosen, each the value once that face is rolled.
    let before = "12.../...../...../....b/....a first";
    let faces = csv(&["solve", "--game", "einstein", "--position", before]);
    let s = Einstein::parse(before).unwrap();
    let expected: String = (1..=6)
        .map(|face| {
            let mut rolled = s;
            rolled.die = face;
            format!("{face},{},false\n", memo.run(Algorithm::Minimax, &rolled).value)
        })
        .collect();
    assert_eq!(faces, format!("move,value,best\n{expected}"));
    // Depth-limited search at a rolled position; a chance node is refused.
    let start = "124../35.../6...d/...eb/..fca";
    let depth = csv(&["solve", "--game", "einstein", "--depth", "2", "--position", &format!("{start} first 4")]);
    assert!(depth.starts_with("move,value,best\nc1d1,") && depth.lines().count() == 4, "{depth}");
    refused(&["solve", "--game", "einstein", "--depth", "2", "--position", &format!("{start} first")], "chance node");
}

#[test]
fn options_are_checked() {
    refused(&["count", "--game", "einstein", "--setup", "12345/123456", "--depth", "2"], "setup \"12345/123456\"");
    refused(&["count", "--game", "einstein", "--setup", "random:x", "--depth", "2"], "random:N takes a seed");
    refused(&["count", "--game", "tictactoe", "--setup", "123456/123456", "--depth", "2"], "takes no parameter setup");
    refused(
        &[
            "count",
            "--game",
            "einstein",
            "--setup",
            "123456/123456",
            "--position",
            "1..../...../...../...../....a first",
            "--depth",
            "2",
        ],
        "give either setup or --position",
    );
    refused(&["solve", "--game", "einstein", "--position", "1..../...../...../....a first"], "five rows");
    refused(&["star", "--game", "einstein", "--depths", "0..2"], "depth 0 is out of range");
    refused(
        &["star", "--game", "einstein", "--orderings", "best"],
        "[possible values: natural, reversed, random, static, shallow, history]",
    );
    refused(&["star", "--game", "einstein", "--orderings", "natural,natural"], "--orderings lists natural twice");
    refused(&["star", "--game", "nim", "--heaps", "3"], "star needs an evaluator");
    refused(
        &["mcts", "--game", "einstein", "--algorithm", "uct", "--iterations", "10"],
        "the position is a chance node",
    );
    let rolled = csv(&[
        "mcts",
        "--game",
        "einstein",
        "--position",
        "1..../...../...../...../....a first 2",
        "--iterations",
        "50",
    ]);
    assert!(rolled.starts_with("move,visits,mean\na1b1,"), "{rolled}");
}

#[test]
fn star_keeps_every_value_and_prunes() {
    let args = ["star", "--game", "einstein", "--positions", "12", "--depths", "1..3", "--orderings", "natural,static"];
    let one = csv(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(one, csv(&[&args[..], &["--threads", "2"]].concat()));
    let rows: Vec<Vec<&str>> = one.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3 * 2 * 4);
    // Every value identical; expectiminimax is the reference; star pruning never searches more than it.
    assert!(rows.iter().all(|r| r[3] == "12" && r[8] == "12"), "{one}");
    for cell in rows.chunks(4) {
        assert_eq!(cell[0][2], "expectiminimax");
        let nodes: Vec<u64> = cell.iter().map(|r| r[4].parse().unwrap()).collect();
        assert!(nodes[2] <= nodes[0] && nodes[3] <= nodes[0], "{cell:?}");
    }
    assert!(rows.iter().any(|r| r[2] == "star2" && r[0] == "3" && r[6] != "1.0000"), "no pruning at depth 3: {one}");
}

#[test]
fn matches_roll_dice_and_deal_setups() {
    let args = ["match", "--game", "einstein", "--players", "engine:2,mcts:50,random", "--games", "20"];
    let one = csv(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(one, csv(&[&args[..], &["--threads", "2"]].concat()));
    assert!(one.starts_with(
        "a,b,games,a_wins,draws,b_wins,a_wins_first,a_wins_second,b_wins_first,b_wins_second,repetitions,capped,\
         mean_plies,a_score,a_score_low,a_score_high\n"
    ));
    for line in one.lines().skip(1) {
        let r: Vec<&str> = line.split(',').collect();
        let n: Vec<u64> = r[2..12].iter().map(|v| v.parse().unwrap()).collect();
        assert_eq!((n[1] + n[3], n[2]), (20, 0), "no draws in EinStein: {line}");
        let [score, low, high] = [13, 14, 15].map(|i| r[i].parse::<f64>().unwrap());
        assert!(low < score && score < high && 0.0 <= low && high <= 1.0, "{line}");
        assert_eq!(format!("{:.4}", n[1] as f64 / 20.0), r[13]);
    }
    // A fixed setup plays every game from it; the seed changes the dice.
    let fixed =
        ["match", "--game", "einstein", "--setup", "123456/123456", "--players", "random,random", "--games", "10"];
    let other = csv(&[&fixed[..], &["--seed", "5"]].concat());
    let fixed = csv(&fixed);
    assert_ne!(fixed, other);
}

/// `play` as the first player against random moves, with `input` typed; its standard output.
fn play(input: &str) -> String {
    let out = bench()
        .args(["play", "--game", "einstein", "--setup", "123456/123456", "--human", "first", "--engine", "random"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn undo_keeps_the_roll_before_the_move() {
    let first = play("quit\n");
    let offered = first.lines().find(|l| l.starts_with("first to move: ")).expect("a prompt").to_string();
    let mv = offered.trim_start_matches("first to move: ").split(' ').next().unwrap().to_string();
    // The move, the opponent's roll and reply, the next roll; undo goes back to the same roll's choice.
    let replayed = play(&format!("{mv}\nundo\nquit\n"));
    let prompts: Vec<&str> = replayed.lines().filter(|l| l.starts_with("first to move: ")).collect();
    assert_eq!(prompts.len(), 3, "{replayed}");
    assert_eq!((prompts[0], prompts[2]), (offered.as_str(), offered.as_str()), "{replayed}");
}

#[test]
fn play_rolls_the_die() {
    let out = bench()
        .args(["play", "--game", "einstein", "--setup", "123456/123456", "--human", "first", "--engine", "random"])
        .write_stdin("nonsense\nquit\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("the die shows "), "{stdout}");
    assert!(stdout.contains("\"nonsense\" is not a legal move here"), "{stdout}");
}
