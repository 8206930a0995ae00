//! `play` as a person plays it: moves typed in a pseudo-terminal (expectrl), bad input asked again, undo, the
//! record saved and resumed; and as a script plays it, moves piped into standard input, to the end of a game —
//! a win, or a draw by repetition.

use crate::common::{bench, csv, refused};
use expectrl::{Eof, Session};
use std::time::Duration;

/// The standard start of Bagh-Chal.
const START: &str = "T...T/...../...../...../T...T g 20";

/// The sliding phase: every goat placed, three captured, the tigers to move.
const SLIDING: &str = "T.GGT/GG.GG/GGTGG/G.GGG/TGG.G t 0";

/// Runs `play` with `args`, `input` on its standard input; its standard output.
fn piped(args: &[&str], input: &str) -> String {
    let out = bench().arg("play").args(args).write_stdin(input).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_person_at_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-suite"));
    command.args(["play", "--game", "bagh-chal", "--engine", "engine:2", "--record"]).arg(&record);
    let mut session = Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    session.expect("goats> ").unwrap();
    // A typo, then a point that is taken: asked again each time, nothing played.
    session.send_line("c9").unwrap();
    session.expect("\"c9\" is not a legal move here").unwrap();
    session.send_line("a1").unwrap();
    session.expect("\"a1\" is not a legal move here").unwrap();
    session.send_line("C3").unwrap(); // Any case.
    session.expect("tigers: ").unwrap();
    session.expect("value ").unwrap();
    session.expect("principal variation").unwrap();
    session.expect("goats> ").unwrap();
    session.send_line("undo").unwrap();
    session.expect("goats in hand 20, captured 0; goats to move").unwrap();
    session.expect("goats> ").unwrap();
    session.send_line("b2").unwrap();
    session.expect("tigers: ").unwrap();
    session.expect("goats> ").unwrap();
    session.send_line("quit").unwrap();
    session.expect(Eof).unwrap();
    let text = std::fs::read_to_string(&record).unwrap();
    // The record starts where the registry says the game starts.
    assert!(csv(&["games"]).lines().any(|l| l.starts_with("bagh-chal,") && l.contains(&format!(",{START},"))));
    assert!(text.contains(&format!("game bagh-chal\nstart {START}\n1. b2\n2. ")), "{text}");
    assert_eq!(text.lines().count(), 5, "{text}");
}

#[test]
fn scripts_pipe_moves_and_records_resume() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("saved.txt");
    let out = piped(&["--game", "bagh-chal", "--engine", "mcts:200"], &format!("zz\nc3\nsave {}\n", saved.display()));
    assert!(out.contains("\"zz\" is not a legal move here"), "{out}");
    assert!(out.contains("(end of input: the game is left unfinished)"), "{out}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("1. c3\n2. "), "{text}");
    // Resumed, the goats to move after the two plies of the record.
    let load = saved.to_str().unwrap();
    let out = piped(&["--game", "bagh-chal", "--engine", "mcts:200", "--load", load], "quit\n");
    assert!(out.contains("goats in hand 19, captured 0; goats to move"), "{out}");
    refused(&["play", "--game", "bagh-chal", "--rules", "bagh-bandi", "--load", load], "is a record of bagh-chal");
    refused(&["play", "--game", "bagh-chal", "--load", load, "--position", START], "drop --position");
    std::fs::write(&saved, text.replace("1. c3", "1. c9")).unwrap();
    refused(&["play", "--game", "bagh-chal", "--load", load], "move 1 \"c9\" is not legal there");
    refused(&["play", "--game", "bagh-chal", "--human", "lions"], "--human \"lions\": first, second, goats, tigers");
    refused(&["play", "--game", "bagh-chal", "--engine", "engine:40"], "engine:N takes N from 1 to 12");
}

#[test]
fn games_end_by_the_rules() {
    // Both sides typed: the tigers step out and back, the goats too — the position repeats, a draw.
    let out = piped(&["--game", "bagh-chal", "--position", SLIDING, "--human", "both"], "c3-c4\ne1-d1\nc4-c3\nd1-e1\n");
    assert!(out.ends_with("a draw by repetition after 4 plies\n"), "{out}");
    // The opponent against itself, to the end: the same seed, the same game.
    let args = ["--game", "sixteen-soldiers", "--human", "none", "--engine", "random", "--seed", "5"];
    let game = piped(&args, "");
    assert_eq!(game, piped(&args, ""));
    assert!(game.trim_end().lines().last().unwrap().contains(" has won after "), "{game}");
    let out = piped(&["--game", "tictactoe", "--human", "X", "--engine", "engine:9"], "4\n0\n");
    assert!(out.contains("O: "), "{out}");
}
