//! The whole game's tables read by the commands and the library: Bagh-Chal's placement phase from the layer tables
//! `retro --phase placement` writes, beside its sliding phase's. Every move's value read from the files (two bits
//! a position, the fast path) is the value the generic solver gives in memory (with distances) along many random
//! games; `solve --tables` values a placement position's moves; the perfect player keeps the start's value and
//! throws nothing away, as `match --judge` finds, on any number of threads; damaged and partial tables are refused.

use crate::common::{bench, csv, refused};
use crate::placement::placement;
use khela::dynamic::Turn;
use khela::{Analyser, Source};
use khela_games::rng::splitmix64;
use std::collections::BTreeMap;
use std::path::Path;

/// Nine points, a tiger in the middle, six goats, three captures to win: wins for both sides in its placement.
const RULES: &str = "size=3,tigers=b2,goats=6,captures=3";

fn game(tables: Option<&Path>) -> khela::Game {
    khela::load(&format!("bagh-chal({RULES})")).unwrap().with_tables(tables).unwrap()
}

#[test]
fn the_files_value_every_move_as_the_solver_in_memory_does() {
    let dir = tempfile::tempdir().unwrap();
    placement(dir.path(), RULES, "2");
    let (disk, memory) = (game(Some(dir.path())), game(None));
    let (mut compared, mut signs) = (0, BTreeMap::new());
    for walk in 0..60u64 {
        let (mut on_disk, mut in_memory) = (disk.start().unwrap(), memory.start().unwrap());
        let mut seed = walk;
        while let Turn::Decision(_) = on_disk.turn() {
            let (a, b) = (on_disk.analyse(&Analyser::Exact).unwrap(), in_memory.analyse(&Analyser::Exact).unwrap());
            assert_eq!((a.source, b.source), (Source::Exact, Source::Exact), "{:?}", on_disk.history());
            assert!(a.complete && b.complete);
            for (x, y) in a.moves.iter().zip(&b.moves) {
                assert_eq!((x.index, x.value), (y.index, y.value), "{:?} {}", on_disk.history(), x.text);
                // The files keep the sliding phase's distances; the placement phase's are the memory's only.
                if x.plies.is_some() {
                    assert_eq!(x.plies, y.plies, "{:?} {}", on_disk.history(), x.text);
                }
                *signs.entry(x.value.unwrap() as i64).or_insert(0) += 1;
                compared += 1;
            }
            assert_eq!(a.best().first().map(|&k| a.moves[k].value), b.best().first().map(|&k| b.moves[k].value));
            let legal = on_disk.legal_moves();
            seed = splitmix64(seed);
            let mv = legal[(seed % legal.len() as u64) as usize];
            on_disk.play(mv).unwrap();
            in_memory.play(mv).unwrap();
        }
    }
    assert!(compared > 1_000, "{compared} moves compared");
    assert!(signs.len() == 3, "goat wins, draws and tiger wins among the moves: {signs:?}");
}

#[test]
fn solve_values_a_placement_position_s_moves_from_the_files() {
    let dir = tempfile::tempdir().unwrap();
    placement(dir.path(), RULES, "1");
    let tables = dir.path().to_str().unwrap();
    // Three goats placed, three in hand, the tiger to move.
    let position = "G.G/.T./G.. t 3";
    let expected = game(None).state(position).unwrap().analyse(&Analyser::Exact).unwrap();
    let rows = csv(&["solve", "--game", "bagh-chal", "--rules", RULES, "--tables", tables, "--position", position]);
    let mut lines = rows.lines();
    assert_eq!(lines.next(), Some("move,value,plies,best"));
    let best = expected.best();
    for (line, m) in lines.zip(&expected.moves) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[0], m.text);
        assert_eq!(fields[1].parse::<f64>().unwrap(), m.value.unwrap(), "{line}");
        assert_eq!(fields[3] == "true", expected.moves.iter().any(|n| best.contains(&n.index) && n.value == m.value));
    }
    // Damage: the layer the start's moves lead to, one bit flipped, is refused by its checksum when read.
    let path = dir.path().join("placement-01-tigers.wdl");
    let mut bytes = std::fs::read(&path).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&path, bytes).unwrap();
    refused(
        &["solve", "--game", "bagh-chal", "--rules", RULES, "--tables", tables, "--out", "-"],
        "placement-01-tigers.wdl is damaged",
    );
    std::fs::remove_file(&path).unwrap();
    refused(
        &["solve", "--game", "bagh-chal", "--rules", RULES, "--tables", tables, "--out", "-"],
        "11 of the placement phase's 12 layer tables",
    );
}

#[test]
fn the_perfect_player_keeps_the_start_s_value_and_the_judge_finds_the_others_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    placement(dir.path(), RULES, "2");
    let tables = dir.path().to_str().unwrap();
    let run = |threads: &str| {
        let (out, judged) = (dir.path().join(format!("m{threads}.csv")), dir.path().join(format!("j{threads}.csv")));
        let status = bench()
            .args(["match", "--game", "bagh-chal", "--rules", RULES, "--tables", tables])
            .args(["--players", "perfect,random,engine:1", "--games", "20", "--opening", "0", "--threads", threads])
            .arg("--out")
            .arg(&out)
            .arg("--judge")
            .arg(&judged)
            .output()
            .unwrap();
        assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
        (std::fs::read_to_string(out).unwrap(), std::fs::read_to_string(judged).unwrap())
    };
    let (table, judged) = run("1");
    assert_eq!(run("2"), (table.clone(), judged.clone()), "the same tables on 1 and 2 threads");
    // From the start (no random opening): perfect play gets at least the start's value on either side, every game.
    let start = game(None).start().unwrap().analyse(&Analyser::Exact).unwrap();
    let value = start.best().iter().map(|&k| start.moves[k].value.unwrap() as i64).max().unwrap();
    for line in table.lines().skip(1).filter(|line| line.starts_with("perfect,")) {
        let f: Vec<u64> = line.split(',').skip(2).take(8).map(|n| n.parse().unwrap()).collect();
        let (games, wins, draws, [won_first, won_second, lost_first, lost_second]) =
            (f[0], f[1], f[2], [f[4], f[5], f[6], f[7]]);
        match value {
            1 => assert_eq!((won_first, lost_second), (games / 2, 0), "{line}"),
            -1 => assert_eq!((won_second, lost_first), (games / 2, 0), "{line}"),
            _ => assert_eq!(wins + draws, games, "{line}"),
        }
    }
    let mut lines = judged.lines();
    assert_eq!(
        lines.next(),
        Some("player,side,games,judged_moves,won,wins_thrown,drawn,draws_thrown,lost,thrown_share")
    );
    let mut thrown = BTreeMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let n = |k: usize| f[k].parse::<u64>().unwrap();
        assert_eq!(n(2), 20, "20 games a side against two opponents: {line}");
        assert_eq!(n(3), n(4) + n(6) + n(8), "{line}");
        assert!(n(5) <= n(4) && n(7) <= n(6), "{line}");
        *thrown.entry(f[0].to_string()).or_insert(0) += n(5) + n(7);
    }
    assert_eq!(thrown["perfect"], 0, "{judged}");
    assert!(thrown["random"] > 0, "random moves throw values away: {judged}");
}

#[test]
fn perfect_play_and_the_judge_need_tables_of_the_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let sliding = dir.path().to_str().unwrap();
    let status = bench().args(["retro", "--game", "bagh-chal", "--rules", RULES, "--out", sliding]).output().unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let judge = dir.path().join("j.csv");
    let judge = judge.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["match", "--game", "bagh-chal", "--players", "perfect,random", "--games", "2"],
            "match with a perfect player needs the game's exact tables: --tables DIR",
        ),
        (
            vec!["match", "--game", "bagh-chal", "--rules", RULES, "--players", "random,engine:1", "--judge", judge],
            "match --judge needs the game's exact tables",
        ),
        (
            vec!["match", "--game", "bagh-chal", "--rules", RULES, "--tables", sliding, "--players", "perfect,random"],
            "not the position the games start from (Bagh-Chal's placement phase: retro --phase placement)",
        ),
        (vec!["play", "--game", "tictactoe", "--engine", "perfect"], "play --engine perfect needs"),
        (vec!["match", "--game", "nim", "--players", "perfect:3,random"], "random or perfect"),
    ] {
        refused(&args, expected);
    }
    assert!(!dir.path().join("j.csv").exists(), "no partial --judge file");
}

/// `retro --phase placement --check N` in `dir` on `threads`: its output and its file.
fn check(dir: &Path, threads: &str) -> (std::process::Output, String) {
    let out = bench()
        .args(["retro", "--game", "bagh-chal", "--rules", RULES, "--phase", "placement", "--check", "480"])
        .args(["--seed", "3", "--threads", threads, "--out"])
        .arg(dir)
        .output()
        .unwrap();
    (out, std::fs::read_to_string(dir.join("placement-check.csv")).unwrap_or_default())
}

#[test]
fn the_proof_search_values_drawn_positions_as_the_tables_do_and_catches_a_forged_layer() {
    let dir = tempfile::tempdir().unwrap();
    placement(dir.path(), RULES, "2");
    let (out, one) = check(dir.path(), "1");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("480 positions drawn from the 11 layers play reaches (seed 3)"), "{said}");
    assert!(said.contains("every one as the tables value it"), "{said}");
    assert_eq!(check(dir.path(), "2").1, one, "the same file on 1 and 2 threads");
    let mut values = BTreeMap::new();
    for line in one.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[3], f[4], "{line}");
        *values.entry(f[3].to_string()).or_insert(0) += 1;
    }
    assert_eq!(values.len(), 3, "goat wins, tiger wins and draws drawn: {values:?}");
    // A layer forged with its checksum made good again — wins and losses swapped — is caught by the search.
    let path = dir.path().join("placement-03-goats.wdl");
    let bytes = std::fs::read(&path).unwrap();
    let at = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    let swap = |b: u8| (0..4).map(|k| (b >> (2 * k) & 3, k)).map(|(c, k)| [0, 3, 2, 1][c as usize] << (2 * k)).sum();
    let values: Vec<u8> = bytes[at..].iter().map(|&b| swap(b)).collect();
    let header = String::from_utf8(bytes[..at].to_vec()).unwrap();
    let old = header.lines().find(|line| line.starts_with("crc32: ")).unwrap();
    let header = header.replace(old, &format!("crc32: {:08x}", crc32fast::hash(&values)));
    std::fs::write(&path, [header.as_bytes(), &values].concat()).unwrap();
    let (out, _) = check(dir.path(), "2");
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(message.contains("disagree with the tables"), "{message}");
}
