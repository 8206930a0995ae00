//! `retro` and `solve --tables` end to end, on a small game of the Bagh-Chal family: the summary as scripts read
//! it, the same files for 1 and 2 threads, the line of best play replayed to the end it promises, and the
//! refusals.

mod common;

use common::{bench, csv, refused};
use khela_games::bagh_chal::{BaghChal, Setup};
use khela_games::{Game, Node, Notation};
use std::path::Path;

/// One tiger, six goats, three captures to win, on the 3 × 3 grid.
const RULES: &str = "size=3,tigers=b2,goats=6,captures=3";

fn retro(dir: &Path, threads: &str) -> String {
    let out = bench()
        .args(["retro", "--game", "bagh-chal", "--rules", RULES, "--threads", threads, "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn retro_writes_the_summary_and_tables_the_same_for_any_threads() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let printed = retro(one.path(), "1");
    assert!(printed.contains("solved in"), "{printed}");
    retro(two.path(), "2");
    let summary = std::fs::read_to_string(one.path().join("summary.csv")).unwrap();
    let mut lines = summary.lines();
    assert_eq!(
        lines.next(),
        Some(
            "captured,to_move,positions,tiger_wins,goat_wins,draws,canonical_positions,canonical_tiger_wins,\
             canonical_goat_wins,canonical_draws,longest_win"
        )
    );
    // A tiger on one of 9 points, 6 − c goats on 8: 9 · C(8, 6 − c) positions for each side to move.
    let expected = [(0, 252), (0, 252), (1, 504), (1, 504), (2, 630), (2, 630)];
    for (line, (captured, positions)) in lines.zip(expected) {
        let f: Vec<u64> = line.split(',').filter_map(|x| x.parse().ok()).collect();
        assert_eq!((f[0], f[1]), (captured, positions), "{line}");
        assert_eq!(f[2] + f[3] + f[4], f[1], "{line}");
        assert_eq!(f[6] + f[7] + f[8], f[5], "{line}");
        assert!(f[5] < f[1] && f[5] * 8 >= f[1], "{line}: classes up to the 8 symmetries");
    }
    for name in ["summary.csv", "captured-0.retro", "captured-1.retro", "captured-2.retro"] {
        let (a, b) = (std::fs::read(one.path().join(name)).unwrap(), std::fs::read(two.path().join(name)).unwrap());
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
    assert!(one.path().join("summary.meta.json").exists());
}

#[test]
fn solve_from_the_tables_gives_every_move_and_a_line_that_ends_as_promised() {
    let dir = tempfile::tempdir().unwrap();
    retro(dir.path(), "2");
    let game = BaghChal::new(&Setup {
        size: 3,
        tigers: vec!["b2".into()],
        goats: 6,
        stacks: Vec::new(),
        goats_first: true,
        captures_to_win: 3,
    })
    .unwrap();
    let mut decided = 0;
    for position in ["GGG/GT./G.G t 0", "GGG/GT./G.G g 0", "G.G/GTG/.GG t 0", "GG./GT./.GG g 0"] {
        let tables = dir.path().to_str().unwrap();
        let rows = csv(&["solve", "--game", "bagh-chal", "--rules", RULES, "--position", position, "--tables", tables]);
        assert!(rows.starts_with("move,value,plies,best\n"), "{rows}");
        let state = game.parse_position(position).unwrap();
        let mut moves = Vec::new();
        game.moves(&state, &mut moves);
        assert_eq!(rows.lines().count(), moves.len() + 1, "{rows}");
        let best: Vec<&str> = rows.lines().filter(|l| l.ends_with(",true")).collect();
        let Some(plies) = best[0].split(',').nth(2).and_then(|p| p.parse::<usize>().ok()) else { continue };
        // The line printed for people: replayed, it ends the game after exactly that many plies, won by the side
        // the value names.
        let out = bench()
            .args(["solve", "--game", "bagh-chal", "--rules", RULES, "--position", position, "--tables", tables])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text.lines().find_map(|l| l.strip_prefix("best play: ")).expect("a line for a decided position");
        let mut s = state;
        let played: Vec<&str> = line.split(' ').collect();
        assert_eq!(played.len(), plies, "{text}");
        for mv in played {
            game.moves(&s, &mut moves);
            let mv = *moves.iter().find(|&&m| game.write_move(m) == mv).unwrap_or_else(|| panic!("{mv} in {text}"));
            game.play(&mut s, mv);
        }
        let value: f64 = best[0].split(',').nth(1).unwrap().parse().unwrap();
        assert_eq!(game.node(&s), Node::Terminal(value), "{text}");
        decided += 1;
    }
    assert!(decided >= 2, "too few decided positions checked");
}

#[test]
fn retro_and_tables_refuse_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    refused(&["retro", "--game", "connect4", "--out", out], "the games that have it: bagh-chal");
    refused(&["retro", "--game", "bagh-chal", "--captured", "5", "--out", out], "5 goats captured");
    refused(&["retro", "--game", "bagh-chal", "--rules", "bagh-bandi", "--out", out], "stacks");
    refused(&["retro", "--game", "bagh-chal", "--out", "-"], "not -");
    assert!(!Path::new(out).exists(), "a refused run left {out} behind");
    refused(&["solve", "--game", "bagh-chal", "--tables", out], "no table files");
    retro(dir.path(), "1");
    let tables = dir.path().to_str().unwrap();
    refused(&["solve", "--game", "bagh-chal", "--rules", RULES, "--tables", tables], "not in the tables");
    refused(
        &["solve", "--game", "bagh-chal", "--position", "GGGGG/TTGGG/TGGTG/GGGGG/.GGGG t 0", "--tables", tables],
        "size=5",
    );
}
