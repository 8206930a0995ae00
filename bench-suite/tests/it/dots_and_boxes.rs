//! Dots and Boxes, the game added through the checklist of the `khela` crate alone, served by every command
//! that plays a game: solved, counted, searched by Monte Carlo, played and matched.

use crate::common::{bench, csv, refused};

#[test]
fn solve_gives_the_published_values_of_the_first_edges() {
    // The 2 x 2 game is the first player's: an outside edge wins, an inside one (4, 6, 7, 9) draws (Winning Ways).
    let rows = csv(&["solve", "--game", "dots-and-boxes"]);
    let expected: String = (1..=12)
        .map(|edge| {
            let inside = [4, 6, 7, 9].contains(&edge);
            format!("{edge},{},{}\n", if inside { "0" } else { "1" }, !inside)
        })
        .collect();
    assert_eq!(rows, format!("move,value,best\n{expected}"));
    refused(
        &["solve", "--game", "dots-and-boxes(rows=3,cols=3)"],
        "Dots and Boxes 3x3 position \"\": up to 6.2e23 lines of play below it to search exactly",
    );
    refused(&["solve", "--game", "dots-and-boxes(rows=5)"], "a board of 5 x 2 boxes: each side is from 1 to 4 boxes");
    refused(&["solve", "--game", "dots-and-boxes", "--position", "1,1"], "\"1\" is not an edge still to draw");
}

#[test]
fn count_mcts_play_and_match_serve_it() {
    // 12 edges, then 11 each, and so on: no box can close before the fourth edge.
    let count = csv(&["count", "--game", "dots-and-boxes", "--depth", "3", "--only", "sequences"]);
    let sequences: Vec<&str> = count.lines().skip(1).map(|line| line.split(',').nth(1).unwrap()).collect();
    assert_eq!(sequences, ["1", "12", "132", "1320"], "{count}");
    let mcts = csv(&["mcts", "--game", "dots-and-boxes", "--iterations", "500", "--seed", "3"]);
    assert_eq!(mcts.lines().count(), 13, "{mcts}");
    assert_eq!(mcts, csv(&["mcts", "--game", "dots-and-boxes", "--iterations", "500", "--seed", "3"]));
    let out = bench()
        .args(["play", "--game", "dots-and-boxes", "--human", "first", "--engine", "mcts:200"])
        .write_stdin("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("has won") || shown.contains("a draw"), "{shown}");
    let args = ["match", "--game", "dots-and-boxes", "--players", "mcts:100,random", "--games", "6"];
    let one = csv(&[&args[..], &["--threads", "1"]].concat());
    assert_eq!(one, csv(&[&args[..], &["--threads", "2"]].concat()));
    let row: Vec<&str> = one.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(&row[..3], ["mcts:100", "random", "6"]);
    refused(&["eval", "--game", "dots-and-boxes"], "eval needs an evaluator, which dots-and-boxes does not have");
}
