//! Hostile input, table-driven, for every command: malformed positions of every game through every command
//! that takes them, numbers out of range or not numbers at all, files missing, of the wrong kind or damaged.
//! Each is refused with exit status 2 and one line naming the bad value, before anything is written: a
//! command added to these tables inherits the checks.

use crate::common::bench;
use std::path::Path;

/// Every game with positions that are not positions of it: each malformed in another way (its form, a piece
/// or character that is not one, counts that cannot be, a move that cannot be played).
const BAD_POSITIONS: &[(&str, &[&str])] = &[
    ("tictactoe", &["XX", "XXXO.....", "ABCDEFGHI"]),
    ("nim", &["3,x", "3,,4", "-1"]),
    ("connect4", &["48", "11111111", "0"]),
    (
        "bagh-chal",
        &[
            "T...T g 20",
            "T...T/...../...../...../T...T x 20",
            "T...T/...../..X../...../T...T g 20",
            "T...T/...../...../...../T...T g 99",
            // Positions no game reaches: the tigers to move before the first goat, captures past the tigers' moves.
            "T...T/...../...../...../T...T t 20",
            "T...T/...../...../...../T...T t 19",
        ],
    ),
    (
        "sixteen-soldiers",
        &[
            "OOO x",
            "OOO/OOO/OOOOO/OOOOO/...../XXXXX/XXXXX/XXX/XXX z",
            ".../.../...../...../...../...../...../.../... x",
        ],
    ),
    ("pig", &["0 0 0 third", "200 0 0 first", "0 0"]),
    ("einstein", &["124../35.../6...d/...eb/..fca first 7", "A24../35.../6...d/...eb/..fca first 3", "124.. first"]),
    ("dots-and-boxes", &["1,99", "1,1", "x"]),
];

/// The commands that take a position, each as a quick run on the game's start (`{game}` and `{position}` filled
/// in); a command that does not serve a game is skipped for it (its run on the start is refused).
const WITH_POSITION: &[&[&str]] = &[
    &["solve", "--game", "{game}", "--depth", "1", "--position", "{position}"],
    &["eval", "--game", "{game}", "--position", "{position}"],
    &["mcts", "--game", "{game}", "--iterations", "20", "--position", "{position}"],
    &["count", "--game", "{game}", "--depth", "1", "--position", "{position}"],
    &["match", "--game", "{game}", "--players", "random,random", "--games", "2", "--position", "{position}"],
];

/// The directory's entries: what a run left in it.
fn left_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

/// What the standard library and clap say of a value they cannot read, which names no fix.
const LIBRARY_WORDING: &[&str] = &["invalid digit", "too large to fit", "cannot parse", "unexpected argument '-"];

/// Runs `args` writing its rows to a file in a directory of its own; expects a refusal, exit status 2, of one
/// line that contains `naming`, no panic, and nothing written.
fn refused_writing_nothing(args: &[String], naming: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = bench().args(args).arg("--out").arg(dir.path().join("out.csv")).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: not one line: {stderr}");
    assert!(stderr.starts_with("error: ") && !stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(stderr.contains(naming), "{args:?}: {stderr:?} does not name {naming:?}");
    for wording in LIBRARY_WORDING {
        assert!(!stderr.contains(wording), "{args:?}: {stderr:?} speaks a library's words");
    }
    assert!(left_in(dir.path()).is_empty(), "{args:?} left {:?}", left_in(dir.path()));
}

/// `template` with the game and position filled in.
fn filled(template: &[&str], game: &str, position: Option<&str>) -> Vec<String> {
    let mut args = Vec::new();
    for &arg in template {
        match arg {
            "{game}" => args.push(game.to_string()),
            // The start: the option left out.
            "{position}" if position.is_none() => {
                args.pop();
            }
            "{position}" => args.push(position.unwrap_or_default().to_string()),
            _ => args.push(arg.to_string()),
        }
    }
    args
}

#[test]
fn malformed_positions_are_refused_by_every_command_naming_them() {
    let mut refusals = 0;
    for &(game, positions) in BAD_POSITIONS {
        for &template in WITH_POSITION {
            let start = filled(template, game, None);
            if !bench().args(&start).output().unwrap().status.success() {
                continue;
            }
            for &position in positions {
                refused_writing_nothing(&filled(template, game, Some(position)), &format!("{position:?}"));
                refusals += 1;
            }
        }
    }
    assert!(refusals >= 60, "only {refusals} refusals checked: commands stopped serving the games");
}

/// A match whose openings no game survives (tic-tac-toe lasts nine plies at most) is refused before its first
/// game, leaving no checkpoint.
#[test]
fn an_opening_no_game_survives_is_refused_before_the_first_game() {
    let args = ["match", "--game", "tictactoe", "--players", "random,random", "--games", "4", "--opening", "100"];
    refused_writing_nothing(&args.map(String::from), "--opening 100: 100 random openings of 100 plies in a row ended");
}

/// Numbers that are not: negative, past every integer type, not numbers, and zero where a count must be one
/// or more; each refused naming its option.
#[test]
fn numbers_out_of_range_are_refused_naming_their_option() {
    let runs: &[(&[&str], &str, &[&str])] = &[
        (&["solve", "--game", "tictactoe"], "--depth", &["-1", "99999999999999999999", "x", "0"]),
        (&["mcts", "--game", "tictactoe"], "--iterations", &["-1", "99999999999999999999", "x", "0"]),
        (&["mcts", "--game", "tictactoe", "--iterations", "10"], "--seed", &["-1", "99999999999999999999", "x"]),
        (&["mcts", "--game", "tictactoe", "--iterations", "10"], "--threads", &["-1", "0", "100000"]),
        (&["count", "--game", "connect4"], "--depth", &["-1", "99999999999999999999", "x", "43"]),
        (&["ordering"], "--b", &["-2", "x", "0"]),
        (&["ordering"], "--d", &["-2", "x"]),
        (&["match", "--game", "tictactoe", "--players", "random,random"], "--games", &["-2", "x", "0", "3"]),
        (&["match", "--game", "tictactoe", "--players", "random,random", "--games", "2"], "--opening", &["-1", "x"]),
        (&["star", "--game", "einstein"], "--depths", &["-1", "x", "0"]),
        (&["star", "--game", "einstein"], "--positions", &["-1", "x", "0"]),
        (&["solve", "--game", "pig"], "--goal", &["-1", "x", "0", "100000"]),
        (&["solve", "--game", "connect4", "--position", "4"], "--width", &["-1", "x", "0", "99"]),
        (&["solve", "--game", "nim"], "--heaps", &["4294967296", "1000001", "-1"]),
        (&["count", "--game", "tictactoe", "--depth", "2"], "--shard", &["-1/2", "2/2", "x"]),
        (&["count", "--depth", "2"], "--game", &["connect4(width=-1)", "connect4(height=x)"]),
        (
            &["count", "--game", "connect4", "--depth", "2", "--only", "positions", "--shard", "0/1", "--ply", "0"],
            "--exchange",
            &["-"],
        ),
        (&["star", "--game", "einstein"], "--orderings", &["foo", "best"]),
        (&["solve", "--game", "tictactoe"], "--time-limit", &["-5s", "soon"]),
        // Options the command would not use here are refused, not ignored.
        (&["solve", "--game", "nim", "--heaps", "3,4"], "--heaps-count", &["3"]),
        (&["solve", "--game", "nim", "--heaps", "3,4"], "--max", &["5"]),
        (&["solve", "--game", "pig(goal=10)"], "--threads", &["2"]),
        (&["zero", "train", "--game", "tictactoe", "--iterations", "1"], "--threads", &["4096"]),
        (&["match", "--game", "tictactoe", "--players", "random,random", "--games", "2"], "--seed", &["-5", "x"]),
        // An option of a command's subcommand takes a negative number to its own parser too.
        (&["zero", "eval", "--game", "tictactoe", "--net", "x"], "--simulations", &["-1", "x", "0"]),
    ];
    for &(base, option, values) in runs {
        for value in values {
            let mut args: Vec<String> = base.iter().map(|a| a.to_string()).collect();
            args.extend([option.to_string(), value.to_string()]);
            // A heap or a game parameter is named by itself.
            let naming = match option {
                "--heaps" => value,
                "--game" => value.trim_start_matches("connect4(").trim_end_matches(')'),
                _ => option,
            };
            refused_writing_nothing(&args, naming);
        }
    }
}

/// Files that are not what an option reads: missing, a directory, empty, binary garbage, a damaged copy of a
/// good one; each refused naming the file.
#[test]
fn files_missing_or_damaged_are_refused_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("empty"), "").unwrap();
    std::fs::write(path("garbage"), [0xff, 0xfe, 0x00, 0x9f, b'\n']).unwrap();
    std::fs::write(path("words"), "not a file of this kind\n").unwrap();
    let kinds = ["missing", "empty", "garbage", "words"];
    let runs: &[&[&str]] = &[
        &["solve", "--game", "connect4", "--set"],
        &["play", "--game", "tictactoe", "--load"],
        &["zero", "eval", "--game", "tictactoe", "--net"],
        &["solve", "--game", "bagh-chal", "--tables"],
        &["merge-counts", "--out", "-"],
    ];
    for &base in runs {
        for kind in kinds {
            let file = path(kind);
            let mut args: Vec<&str> = base.to_vec();
            args.push(&file);
            let out = bench().args(&args).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: not one line: {stderr}");
            assert!(stderr.starts_with("error: ") && !stderr.contains("panicked"), "{args:?}: {stderr}");
            assert!(stderr.contains(&file), "{args:?}: {stderr:?} does not name the file");
        }
    }
    let mut left = left_in(dir.path());
    left.sort();
    assert_eq!(left, ["empty", "garbage", "words"], "a refused run wrote beside its input");
}
