//! End-to-end tests of `bench-suite mcts`.

use crate::common::bench;

/// Runs `mcts` with `--out -` and returns its CSV.
fn csv(args: &[&str]) -> String {
    crate::common::csv(&[&["mcts"], args].concat())
}

/// Runs `mcts` with `--out PATH`, expects [`crate::common::refused`]'s one-line error containing `expected`,
/// and no file at PATH.
fn refused(args: &[&str], expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    let out = path.to_str().unwrap();
    crate::common::refused(&[&["mcts"], args, &["--out", out]].concat(), expected);
    assert!(!path.exists(), "{args:?} left {}", path.display());
}

const TRAP: [&str; 6] = ["--game", "tictactoe", "--position", "X...O...X", "--rng", "python"];

/// Runs `mcts` on the trap with Python's generator, seed 1, and checks the CSV and the chosen move.
fn textbook(algorithm: &str, iterations: &str, expected: &str, chosen: &str) {
    let args = [&TRAP[..], &["--algorithm", algorithm, "--iterations", iterations, "--seed", "1"]].concat();
    assert_eq!(csv(&args), expected);
    let out = bench().arg("mcts").args(&args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains(&format!("chosen move: {chosen}")), "{stdout}");
}

/// The textbook's flat Monte Carlo table: 1,000 playouts per move, choosing the losing corner 2.
#[test]
fn flat_textbook_table() {
    let expected =
        "move,visits,mean\n1,1000,0.553\n2,1000,0.589\n3,1000,0.563\n5,1000,0.546\n6,1000,0.544\n7,1000,0.528\n";
    textbook("flat", "1000", expected, "2");
}

/// The textbook's UCT visits, 3,000 iterations, choosing the drawing edge 1 (means: the mover's, O's).
#[test]
fn uct_textbook_table() {
    let expected = "move,visits,mean\n1,698,0.543\n2,143,0.360\n3,671,0.541\n5,662,0.539\n6,147,0.364\n7,679,0.541\n";
    textbook("uct", "3000", expected, "1");
}

/// The same arguments give the same bytes: one thread, and root parallelism on two; the file written with
/// `--out PATH` is the CSV of `--out -`.
#[test]
fn output_is_reproducible() {
    let args =
        ["--game", "connect4", "--position", "4453", "--algorithm", "puct", "--iterations", "2000", "--seed", "9"];
    let one = csv(&args);
    assert_eq!(one, csv(&args));
    assert_eq!(one.lines().next(), Some("move,visits,mean"));
    assert_eq!(one.lines().count(), 8, "{one}");
    let two = [&args[..], &["--threads", "2"]].concat();
    assert_eq!(csv(&two), csv(&two));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcts.csv");
    let out = bench().arg("mcts").args(&two).arg("--out").arg(&path).output().unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), csv(&two));
}

/// PUCT with the evaluator prior puts every visit on an immediate win, where the uniform prior lets the
/// other moves have some.
#[test]
fn puct_with_the_evaluator_prior() {
    let win = ["--game", "tictactoe", "--position", "XX.OO....", "--algorithm", "puct", "--iterations", "30"];
    let visits = |prior: &str| csv(&[&win[..], &["--prior", prior]].concat());
    assert_eq!(visits("evaluator"), "move,visits,mean\n2,30,1.000\n5,0,\n6,0,\n7,0,\n8,0,\n");
    assert_eq!(visits("uniform"), csv(&win));
    assert!(!csv(&win).contains("2,30,"), "{}", csv(&win));
    let out = bench().arg("mcts").args(win).args(["--prior", "evaluator"]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("puct (evaluator prior) on 1 thread(s)"), "{stdout}");
    assert!(stdout.contains("chosen move: 2"), "{stdout}");
    // A prior without --algorithm is PUCT's.
    let implied: Vec<&str> = win.iter().copied().filter(|&a| a != "--algorithm" && a != "puct").collect();
    assert_eq!(csv(&[&implied[..], &["--prior", "evaluator"]].concat()), visits("evaluator"));
}

/// The solver proves the trap's corners lost; tree parallelism runs.
#[test]
fn solver_and_tree_parallelism() {
    let out = bench().arg("mcts").args(TRAP).args(["--solver", "--iterations", "10000"]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.matches("| loss").count(), 2, "{stdout}");
    let rows = csv(&["--game", "tictactoe", "--parallel", "tree", "--threads", "2", "--iterations", "5000"]);
    let visits: u64 = rows.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(visits, 5000);
    // Flat Monte Carlo stopped by a proof before it played the other moves: their means are empty, not NaN.
    let rows = csv(&["--game", "tictactoe", "--position", "XX.OO....", "--algorithm", "flat", "--solver"]);
    assert_eq!(rows, "move,visits,mean\n2,1,1.000\n5,0,\n6,0,\n7,0,\n8,0,\n");
}

#[test]
fn bad_input_is_refused() {
    refused(&["--game", "chess"], "chess");
    // Four billion moves from one position aborted on allocation; every command that takes Nim refuses it.
    refused(&["--game", "nim", "--heaps", "4294967295", "--iterations", "10"], "holds 4294967295 objects");
    refused(&["--game", "nim", "--heaps", "600000,400001"], "at most 1000000 objects in all heaps");
    refused(&["--game", "tictactoe", "--iterations", "0"], "'0'");
    refused(&["--game", "tictactoe", "--threads", "0"], "'0'");
    refused(&["--game", "tictactoe", "--iterations", "1", "--threads", "4096"], "--threads 4096: this machine has");
    refused(&["--game", "tictactoe", "--rng", "mt"], "'mt'");
    refused(&["--game", "tictactoe", "--position", "XXX.OO..."], "\"XXX.OO...\" is already over");
    refused(&["--game", "tictactoe", "--position", "XQ......."], "'Q'");
    refused(&["--game", "connect4", "--position", "44444445"], "44444445");
    refused(&["--game", "connect4", "--iterations", "100000001"], "100000001");
    refused(&["--game", "tictactoe", "--algorithm", "flat", "--iterations", "20000000"], "--iterations 20000000");
    refused(
        &["--game", "tictactoe", "--algorithm", "uct", "--prior", "evaluator"],
        "--prior evaluator is for --algorithm puct, not uct",
    );
    refused(&["--game", "connect4", "--algorithm", "flat", "--prior", "uniform"], "--prior uniform is for");
    refused(&["--game", "tictactoe", "--algorithm", "puct", "--prior", "neural"], "uniform, evaluator, or net:PATH");
}
