//! Sixteen Soldiers' endgame tables end to end, on the positions with up to 4 pieces: the summary as scripts
//! read it, the same files for 1 and 2 threads, values that do not depend on how many pieces the tables hold,
//! the line of best play replayed to the end it promises, `play` ending as the tables say, searches stopping
//! at the tables (checked against the library's tables one move down), and the refusals.

use crate::common::{bench, csv, refused};
use khela_exact::retro::{self, Outcome};
use khela_games::sixteen_soldiers::endgame::FewPieces;
use khela_games::sixteen_soldiers::{Capture, SixteenSoldiers};
use khela_games::{Game, Node, Notation, Player};
use std::path::Path;

/// Two X against one O, X to move: the longest win of its count of pieces, 41 plies (found by the 6-piece
/// tables, `results/retro-sixteen-soldiers-6-compulsory.csv`; a position's value does not depend on how many pieces the
/// tables hold).
const LONG_WIN: &str = "X.X/.../..O../...../...../...../...../.../... x";

fn retro(dir: &Path, pieces: &str, threads: &str) -> String {
    let out = bench()
        .args(["retro", "--game", "sixteen-soldiers", "--pieces", pieces, "--threads", threads, "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

#[test]
fn retro_summarises_every_count_of_pieces_the_same_for_any_threads() {
    let (one, two, three) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let printed = retro(one.path(), "4", "1");
    assert!(printed.contains("every position with 2 to 4 pieces on the board solved in"), "{printed}");
    retro(two.path(), "4", "2");
    let summary = std::fs::read_to_string(one.path().join("summary.csv")).unwrap();
    let mut lines = summary.lines();
    assert_eq!(
        lines.next(),
        Some(
            "pieces_to_move,pieces_waiting,positions,wins,losses,draws,canonical_positions,canonical_wins,\
             canonical_losses,canonical_draws,longest_win"
        )
    );
    let slices = [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (3, 1)];
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), slices.len(), "{summary}");
    for (line, (m, k)) in rows.iter().zip(slices) {
        let f: Vec<u64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        // m pieces of the side to move and k of the other on the 37 points, either colour to move.
        assert_eq!((f[0], f[1], f[2]), (m, k, binomial(37, m) * binomial(37 - m, k) * 2), "{line}");
        assert_eq!(f[3] + f[4] + f[5], f[2], "{line}");
        assert_eq!(f[7] + f[8] + f[9], f[6], "{line}");
        assert!(f[6] < f[2] && f[6] * 8 >= f[2], "{line}: classes up to the 8 symmetries");
    }
    for file in ["summary.csv", "pieces-1-1.retro", "pieces-2-2.retro", "pieces-3-1.retro"] {
        let (a, b) = (std::fs::read(one.path().join(file)).unwrap(), std::fs::read(two.path().join(file)).unwrap());
        assert!(a == b, "{file} differs between 1 and 2 threads");
    }
    // Tables of up to 3 pieces: the same files for the counts they share.
    retro(three.path(), "3", "2");
    for file in ["pieces-1-1.retro", "pieces-1-2.retro", "pieces-2-1.retro"] {
        let (a, b) = (std::fs::read(one.path().join(file)).unwrap(), std::fs::read(three.path().join(file)).unwrap());
        assert!(a == b, "{file} depends on the most pieces the tables hold");
    }
    assert!(!three.path().join("pieces-2-2.retro").exists());
}

#[test]
fn the_tables_solve_play_and_end_as_they_promise() {
    let dir = tempfile::tempdir().unwrap();
    retro(dir.path(), "4", "2");
    let tables = dir.path().to_str().unwrap();
    let rows = csv(&["solve", "--game", "sixteen-soldiers", "--position", LONG_WIN, "--tables", tables]);
    assert!(rows.starts_with("move,value,plies,best\n"), "{rows}");
    let best: Vec<&str> = rows.lines().filter(|l| l.ends_with(",true")).collect();
    assert!(
        !best.is_empty() && best.iter().all(|l| l.split(',').nth(1) == Some("1") && l.split(',').nth(2) == Some("41")),
        "{rows}"
    );
    // The line printed for people, replayed: X captures O's last piece on the 41st ply.
    let out = bench()
        .args(["solve", "--game", "sixteen-soldiers", "--position", LONG_WIN, "--tables", tables])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("X to move: X win in 41 plies (exact, from the tables)"), "{text}");
    let line = text.lines().find_map(|l| l.strip_prefix("best play: ")).expect("a line of best play");
    let game = SixteenSoldiers::new(Capture::Compulsory);
    let mut s = game.parse(LONG_WIN).unwrap();
    let mut moves = Vec::new();
    assert_eq!(line.split(' ').count(), 41, "{line}");
    for mv in line.split(' ') {
        game.moves(&s, &mut moves);
        let mv = *moves.iter().find(|&&m| game.write_move(m) == mv).unwrap_or_else(|| panic!("{mv} in {line}"));
        game.play(&mut s, mv);
    }
    assert_eq!(game.node(&s), Node::Terminal(1.0), "{line}");
    // Both sides of `play` take the tables' moves: the same 41 plies.
    let out = bench()
        .args(["play", "--game", "sixteen-soldiers", "--position", LONG_WIN, "--human", "none"])
        .args(["--engine", "engine:1", "--tables", tables])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches("(the tables: ").count(), 41, "{text}");
    assert!(text.contains("after 41 plies"), "{text}");
}

#[test]
fn searches_stop_at_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    retro(dir.path(), "4", "2");
    let tables = dir.path().to_str().unwrap();
    let game = SixteenSoldiers::new(Capture::Compulsory);
    let space = FewPieces::new(&game, 4).unwrap();
    let table = retro::solve(&space, |_| {}).unwrap();
    // Five pieces, the side to move bound to capture: every move leads into the tables, so `solve` is exact at
    // any depth; the truth is the best of the moves' outcomes, one ply above the library's tables (X's view).
    for position in
        ["X.X/.../...../..O../..X../...../...../.../..O x", "X.X/.../...../..X../..O../...../...../.../..O o"]
    {
        let s = game.parse(position).unwrap();
        let mover = if s.x_to_move { Player::Max } else { Player::Min };
        let mut moves = Vec::new();
        game.moves(&s, &mut moves);
        let truth = moves
            .iter()
            .map(|&m| {
                let child = game.child(&s, m);
                let outcome = match game.node(&child) {
                    Node::Terminal(payoff) => return payoff,
                    _ => table.outcome(&space, &child).expect("a capture leads into the tables").before(),
                };
                match outcome {
                    Outcome::Win(_) => mover.view(1.0),
                    Outcome::Loss(_) => mover.view(-1.0),
                    Outcome::Draw => 0.0,
                }
            })
            .fold(f64::NEG_INFINITY, |best, v| best.max(mover.view(v)));
        let truth = mover.view(truth);
        for depth in [None, Some("1"), Some("3")] {
            let mut args = vec!["solve", "--game", "sixteen-soldiers", "--position", position, "--tables", tables];
            args.extend(depth.iter().flat_map(|d| ["--depth", d]));
            let rows = csv(&args);
            let best: f64 =
                rows.lines().find(|l| l.ends_with(",true")).unwrap().split(',').nth(1).unwrap().parse().unwrap();
            assert_eq!(best, truth, "{position} at depth {depth:?}: {rows}");
        }
    }
    // Quiet moves outside the tables: no exact search reaches them for certain; a depth-limited one stops there.
    let quiet = "X.X/.../..O../...../..X../...../.O.../.../... x";
    refused(&["solve", "--game", "sixteen-soldiers", "--position", quiet, "--tables", tables], "no number of moves");
    let rows = csv(&["solve", "--game", "sixteen-soldiers", "--position", quiet, "--depth", "3", "--tables", tables]);
    assert!(rows.starts_with("move,value,best\n") && rows.lines().count() > 2, "{rows}");
    let rows =
        csv(&["mcts", "--game", "sixteen-soldiers", "--position", quiet, "--iterations", "300", "--tables", tables]);
    assert!(rows.starts_with("move,visits,mean\n"), "{rows}");
}

#[test]
fn endgames_refuse_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    refused(&["retro", "--game", "sixteen-soldiers", "--captured", "2", "--out", out], "chosen by --pieces");
    refused(&["retro", "--game", "bagh-chal", "--pieces", "4", "--out", out], "chosen by --captured");
    refused(&["retro", "--game", "sixteen-soldiers", "--pieces", "9", "--out", out], "9 is not in 2..=8");
    refused(&["retro", "--game", "sixteen-soldiers", "--quiet-limit", "50", "--out", out], "without the quiet limit");
    assert!(!Path::new(out).exists(), "a refused run left {out} behind");
    retro(dir.path(), "2", "1");
    let tables = dir.path().to_str().unwrap();
    refused(
        &["solve", "--game", "sixteen-soldiers", "--rules", "optional", "--position", LONG_WIN, "--tables", tables],
        "compulsory",
    );
    // A proof search needs a bound on the plies to the tables, which only captures bring nearer.
    refused(
        &["prove", "--game", "sixteen-soldiers", "--position", LONG_WIN, "--claim", "X:win", "--tables", tables],
        "no known number of plies",
    );
    // A table missing is named, not taken for the position being outside the endgame.
    let three = tempfile::tempdir().unwrap();
    retro(three.path(), "3", "1");
    std::fs::remove_file(three.path().join("pieces-1-1.retro")).unwrap();
    let tables = three.path().to_str().unwrap();
    let one_each = ".../.../...../...../..X../...../..O../.../... x";
    refused(
        &["solve", "--game", "sixteen-soldiers", "--position", one_each, "--tables", tables],
        &format!("is one the table {tables}/pieces-1-1.retro holds, which is missing (retro --out {tables} makes it)"),
    );
}
