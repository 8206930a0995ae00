//! `solve --game connect4` without `--depth`: a position's every move scored exactly or weakly, and `--set`,
//! the benchmark files solved and checked — a wrong score exits with status 1 after the whole file, a bad line
//! with status 2 before any work. The files used are written here from the first lines of Pons' sets when
//! `../shared/connect4/` is there (the library's tests check the sets themselves), and from positions whose
//! scores follow from the rules by hand otherwise.

use crate::common::{bench, csv, refused};
use khela_testkit::connect4::Set;
use std::io::Write;

/// X has three on the bottom row, O three above: X wins at once in column 3 or 7 (22 − 4 stones = 18), and
/// with any other move still wins with the 5th stone (17): O can block only one end.
const TWO_ENDS: &str = "445566";

#[test]
fn a_position_scored_exactly_and_weakly() {
    assert_eq!(
        csv(&["solve", "--game", "connect4", "--position", TWO_ENDS]),
        "move,value,best\n1,17,false\n2,17,false\n3,18,true\n4,17,false\n5,17,false\n6,17,false\n7,18,true\n"
    );
    let weak = csv(&["solve", "--game", "connect4", "--position", TWO_ENDS, "--weak"]);
    assert_eq!(weak, "move,value,best\n1,1,true\n2,1,true\n3,1,true\n4,1,true\n5,1,true\n6,1,true\n7,1,true\n");
    // The table for people names the side to move and prints the search's counters.
    let out = bench().args(["solve", "--game", "connect4", "--position", TWO_ENDS]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("exact scores, for the side to move (X); best: 3, 7"), "{text}");
    assert!(text.contains("nodes/s; table hit rate"), "{text}");
}

/// A file of `moves score` lines.
fn file(lines: &[String]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    for line in lines {
        writeln!(f, "{line}").unwrap();
    }
    f
}

/// Lines with their true scores: the End-Easy set's first ones if present, else positions scored by hand.
fn true_lines() -> Vec<String> {
    match Set::EndEasy.read() {
        Ok(set) => set.iter().take(30).map(|s| format!("{} {}", s.moves, s.score)).collect(),
        Err(err) => {
            eprintln!("NOTE: the End-Easy set is absent ({err}); positions scored by hand instead");
            // TWO_ENDS: X wins at once (18). After X adds a stone in column 1, O faces two open threats and
            // loses to X's 5th stone (−17).
            vec![format!("{TWO_ENDS} 18"), format!("{TWO_ENDS}1 -17")]
        }
    }
}

#[test]
fn a_set_solved_and_checked() {
    let lines = true_lines();
    let good = file(&lines);
    let path = good.path().to_str().unwrap();
    for weak in [false, true] {
        let mut args = vec!["solve", "--game", "connect4", "--set", path];
        if weak {
            args.push("--weak");
        }
        let rows = csv(&args);
        let mut rows = rows.lines();
        assert_eq!(rows.next(), Some("position,expected,score,nodes,micros"));
        let rows: Vec<&str> = rows.collect();
        assert_eq!(rows.len(), lines.len());
        for (row, line) in rows.iter().zip(&lines) {
            let fields: Vec<&str> = row.split(',').collect();
            let (moves, score) = line.split_once(' ').unwrap();
            let score: i32 = score.parse().unwrap();
            let expected = if weak { score.signum() } else { score };
            assert_eq!(fields[..3], [moves, &expected.to_string(), &expected.to_string()], "{row}");
        }
    }
    // --limit, and the summary with its sidecar.
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.csv");
    let args = ["solve", "--game", "connect4", "--set", path, "--limit", "2", "--summary", summary.to_str().unwrap()];
    assert_eq!(csv(&args).lines().count(), 3);
    let written = std::fs::read_to_string(&summary).unwrap();
    assert!(written.starts_with("set,solver,positions,mismatches,mean_micros,mean_nodes,positions_per_second,"));
    assert!(written.lines().nth(1).unwrap().contains(",strong,2,0,"), "{written}");
    assert!(dir.path().join("summary.meta.json").is_file());
}

#[test]
fn a_stopped_set_resumes_from_its_checkpoint() {
    let lines = true_lines();
    let set = file(&lines);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("solved.csv");
    let set_path = set.path().to_str().unwrap();
    let args = ["solve", "--game", "connect4", "--set", set_path, "--out", out.to_str().unwrap(), "--threads", "1"];
    let run = || bench().args(args).output().unwrap();
    assert!(run().status.success());
    let checkpoint = dir.path().join("solved.csv.solved");
    assert!(!checkpoint.exists(), "a finished run leaves no checkpoint");
    // A run stopped after its first position (a recognisable node count), its last line cut by the kill.
    let (moves, score) = lines[0].split_once(' ').unwrap();
    let header = format!(
        "# khela solve --set checkpoint; run the same command again to resume\n# game=connect4 board=7x6 weak=false \
         limit=- sets={} table=32 threads=1\n",
        set.path().display()
    );
    let row = format!("0,1,{score},12345,7.5");
    std::fs::write(&checkpoint, format!("{header}{row}\t{:08x}\n0,2,1", crc32fast::hash(row.as_bytes()))).unwrap();
    let resumed = run();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert!(String::from_utf8_lossy(&resumed.stderr).contains(&format!("resuming: 1 of {} positions", lines.len())));
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(csv.lines().nth(1), Some(format!("{moves},{score},{score},12345,7.5").as_str()), "{csv}");
    assert_eq!(csv.lines().count(), lines.len() + 1);
    assert!(!checkpoint.exists());
    // Another run's checkpoint is not taken.
    std::fs::write(&checkpoint, "# khela solve --set checkpoint; run the same command again to resume\n# other\n")
        .unwrap();
    let refused = run();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is the checkpoint of another solve --set (other)"));
}

/// Positions empty enough to be solved on two threads: the Begin-Easy set's first ones and two of Begin-Medium,
/// if present, else positions scored by hand.
fn open_lines() -> Vec<String> {
    match (Set::BeginEasy.read(), Set::BeginMedium.read()) {
        (Ok(easy), Ok(medium)) => {
            easy.iter().take(8).chain(medium.iter().take(2)).map(|s| format!("{} {}", s.moves, s.score)).collect()
        }
        (Err(err), _) | (_, Err(err)) => {
            eprintln!("NOTE: a Begin set is absent ({err}); positions scored by hand instead");
            vec![format!("{TWO_ENDS} 18"), format!("{TWO_ENDS}1 -17")]
        }
    }
}

#[test]
fn one_and_two_threads_and_a_small_table_find_the_same_scores() {
    let lines = open_lines();
    let set = file(&lines);
    let path = set.path().to_str().unwrap();
    for weak in [false, true] {
        let scores = |extra: &[&str]| -> Vec<String> {
            let mut args = vec!["solve", "--game", "connect4", "--set", path];
            args.extend_from_slice(extra);
            if weak {
                args.push("--weak");
            }
            // position,expected,score: the nodes and the times differ from run to run on two threads.
            csv(&args).lines().map(|row| row.splitn(4, ',').take(3).collect::<Vec<_>>().join(",")).collect()
        };
        let one = scores(&["--threads", "1"]);
        assert_eq!(one.len(), lines.len() + 1);
        for (row, line) in one.iter().skip(1).zip(&lines) {
            let (moves, score) = line.split_once(' ').unwrap();
            let score: i32 = score.parse().unwrap();
            let expected = if weak { score.signum() } else { score };
            assert_eq!(*row, format!("{moves},{expected},{expected}"));
        }
        assert_eq!(scores(&["--threads", "2"]), one, "weak: {weak}");
        // The smallest table (2 MiB) finds the same scores, with more nodes.
        assert_eq!(scores(&["--table-mib", "2"]), one, "weak: {weak}");
    }
    // Every move of a position, each solved on two threads.
    let moves = lines[0].split_once(' ').unwrap().0;
    let position = |threads| csv(&["solve", "--game", "connect4", "--position", moves, "--threads", threads]);
    assert_eq!(position("2"), position("1"));
}

#[test]
fn a_wrong_score_exits_1_after_the_whole_file() {
    let mut lines = true_lines();
    let (moves, score) = lines[0].split_once(' ').map(|(m, s)| (m.to_string(), s.to_string())).unwrap();
    let wrong = score.parse::<i32>().unwrap() + 1;
    lines[0] = format!("{moves} {wrong}");
    let bad = file(&lines);
    let args = ["solve", "--game", "connect4", "--set", bad.path().to_str().unwrap(), "--out", "-"];
    let out = bench().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("line 1 ({moves}): expected {wrong}")), "{stderr}");
    assert!(stderr.contains(&format!("1 of {} positions disagree", lines.len())), "{stderr}");
    // Every position was solved and written all the same.
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), lines.len() + 1);
}

/// A line of a score after a space, Pons' format with no moves, is the empty board's: its score is the best of
/// its moves' (from `--position`'s analysis, the start by default), strong and weak.
#[test]
fn the_empty_board_in_a_set() {
    let board = ["--width", "5", "--height", "4"];
    let analysis = csv(&[&["solve", "--game", "connect4"][..], &board].concat());
    let best = analysis.lines().skip(1).map(|row| row.split(',').nth(1).unwrap().parse::<i32>().unwrap()).max();
    let best = best.expect("the empty board has moves");
    let f = file(&[format!(" {best}")]);
    for weak in [false, true] {
        let mut args = [&["solve", "--game", "connect4", "--set", f.path().to_str().unwrap()][..], &board].concat();
        if weak {
            args.push("--weak");
        }
        let expected = if weak { best.signum() } else { best };
        let rows = csv(&args);
        let row = rows.lines().nth(1).expect("a row");
        assert!(row.starts_with(&format!(",{expected},{expected},")), "{row}");
    }
}

#[test]
fn bad_sets_and_options_are_refused() {
    let set = |lines: &[&str]| file(&lines.iter().map(|l| l.to_string()).collect::<Vec<_>>());
    let refuse = |lines: &[&str], expected: &str| {
        let f = set(lines);
        refused(&["solve", "--game", "connect4", "--set", f.path().to_str().unwrap()], expected);
    };
    refuse(&["4453 1", "44x 2"], "line 2: Connect-4 moves \"44x\": bad character 'x'");
    refuse(&["4453"], "line 1: \"4453\" is not `moves score`");
    refuse(&["4453 one"], "score \"one\" is not a whole number");
    refuse(&["1122334 0"], "1122334 is over");
    refuse(&[""], "no position in it");
    refused(&["solve", "--game", "connect4", "--set", "/nonexistent/set"], "--set /nonexistent/set: cannot read it");
    refused(&["solve", "--game", "connect4", "--set", "x", "--position", "4"], "either --set or a position");
    refused(&["solve", "--game", "connect4", "--limit", "3"], "--limit and --summary go with --set");
    refused(&["solve", "--game", "connect4", "--weak", "--depth", "3"], "--weak is for exact solving");
    refused(&["solve", "--game", "tictactoe", "--weak"], "--weak is for exact solving");
    refused(&["solve", "--game", "connect4", "--threads", "2", "--depth", "3"], "--threads is for exact solving");
    refused(&["solve", "--game", "tictactoe", "--threads", "2"], "--threads is for exact solving");
    refused(&["solve", "--game", "connect4", "--threads", "0", "--position", "4"], "--threads");
    refused(&["solve", "--game", "tictactoe", "--table-mib", "8"], "--table-mib is for exact solving");
    refused(&["solve", "--game", "connect4", "--table-mib", "1", "--position", "4"], "--table-mib");
    refused(
        &["solve", "--game", "connect4", "--table-mib", "1073741824", "--position", "4"],
        "--table-mib 1073741824: more than this machine's memory",
    );
    refused(&["solve", "--game", "tictactoe", "--set", "x"], "Tic-tac-toe has no benchmark sets");
    refused(&["solve", "--game", "nim", "--heaps", "3,4", "--weak"], "Nim's values are wins and losses already");
    refused(&["solve", "--game", "connect4", "--position", "1122334"], "over");
    // A line of a hundred thousand characters is not echoed whole; options --set does not use are refused.
    refuse(&[&format!("{} 0", "4".repeat(100_000))], "(100,000 characters): more than the board's 42 cells take");
    let one = set(&["4453 0"]);
    let one = one.path().to_str().unwrap();
    refused(&["solve", "--game", "connect4", "--set", one, "--tables", "x"], "--tables does not go with --set");
    refused(&["solve", "--game", "connect4", "--set", one, "--plot", "x.svg"], "--plot does not go with --set");
    refused(&["solve", "--game", "nim", "--check-xor", "--weak"], "--weak does not go with --check-xor");
    // A table too small for the board's keys names the option and the size that does.
    refused(
        &["solve", "--game", "connect4", "--width", "8", "--height", "6", "--position", "4", "--table-mib", "32"],
        "--table-mib 32: a compact table of 4194301 entries tells keys of at most 53 bits apart, not 56: keys that \
         long take a table of 129 MiB or more",
    );
}
