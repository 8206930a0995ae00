//! End-to-end tests of `bench-suite zero`: a short training run, its resumption, the same bytes from the same
//! seed, an evaluation of the network it saved, and refusals.

mod common;

use common::bench;
use std::path::Path;

/// A short run's options: tic-tac-toe, tiny network, few games.
const RUN: [&str; 12] =
    ["--game", "tictactoe", "--games", "6", "--simulations", "12", "--blocks", "1", "--channels", "4", "--seed", "5"];

fn train(dir: &Path, iterations: &str) {
    let out = bench()
        .args(["zero", "train"])
        .args(RUN)
        .args(["--iterations", iterations, "--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn read(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap()
}

/// Two iterations in one run, and one then one more in a resumed run, play the same games (the second
/// iteration's by the network the first saved); the weights after the second differ only by Adam's moment
/// estimates, which a checkpoint does not keep (candle's optimizer does not expose them). The CSV has a row per
/// iteration.
#[test]
fn training_resumes_and_repeats() {
    let whole = tempfile::tempdir().unwrap();
    train(whole.path(), "2");
    let csv = String::from_utf8(read(whole.path(), "train.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[0].starts_with("iteration,games,positions,window,steps,policy_loss,value_loss,l2,"), "{csv}");
    assert!(lines[1].starts_with("1,6,") && lines[2].starts_with("2,12,"), "{csv}");
    let parts = tempfile::tempdir().unwrap();
    train(parts.path(), "1");
    train(parts.path(), "2");
    for file in ["net.json", "replay.txt"] {
        assert_eq!(read(parts.path(), file), read(whole.path(), file), "{file}");
    }
    let again = tempfile::tempdir().unwrap();
    train(again.path(), "2");
    for file in ["net.safetensors", "replay.txt"] {
        assert_eq!(read(again.path(), file), read(whole.path(), file), "the same seed, the same {file}");
    }
    // Other options are refused in the run's directory.
    common::refused(
        &[&["zero", "train"], &RUN[..], &["--learning-rate", "0.01", "--out", parts.path().to_str().unwrap()]].concat(),
        "holds a run with other options",
    );
    // The saved network evaluates: the CSV's metrics, over the 4,520 positions in play and 2 × 2 games.
    let net = whole.path().join("net.safetensors");
    let csv = common::csv(&[
        "zero",
        "eval",
        "--game",
        "tictactoe",
        "--net",
        net.to_str().unwrap(),
        "--games",
        "2",
        "--simulations",
        "8",
    ]);
    let metrics: Vec<&str> = csv.lines().map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(
        metrics,
        [
            "metric",
            "losses_vs_perfect",
            "draws_vs_perfect",
            "wins_vs_perfect",
            "games_vs_perfect",
            "value_sign_accuracy",
            "policy_top1_optimal",
            "positions"
        ]
    );
    assert!(
        csv.contains("\nwins_vs_perfect,0\n")
            && csv.contains("\ngames_vs_perfect,4\n")
            && csv.ends_with("positions,4520\n"),
        "{csv}"
    );
    // A network of another game is refused, naming it.
    common::refused(&["zero", "eval", "--game", "connect4", "--net", net.to_str().unwrap()], "tic-tac-toe");
}

#[test]
fn bad_requests_are_refused() {
    common::refused(
        &["zero", "train", "--game", "nim", "--out", "/tmp/khela-zero-never"],
        "zero train needs a network's encoding",
    );
    assert!(!Path::new("/tmp/khela-zero-never").exists());
    common::refused(
        &["zero", "train", "--game", "tictactoe", "--alpha", "0", "--out", "/tmp/khela-zero-never"],
        "--alpha 0",
    );
    common::refused(
        &["zero", "eval", "--game", "tictactoe", "--net", "/nonexistent/net.safetensors"],
        "cannot read its description",
    );
}
