//! `retro` and `--tables` end to end, on a small game of the Bagh-Chal family: the summary as scripts read it,
//! the same files for 1 and 2 threads, the line of best play replayed to the end it promises, depth-limited
//! search and Monte Carlo stopping at the tables (checked against minimax down to them), `play` ending as the
//! tables say, and the refusals.

use crate::common::{bench, csv, refused};
use khela_exact::retro::OutcomeTable;
use khela_games::bagh_chal::sliding::SlidingPhase;
use khela_games::bagh_chal::{BaghChal, Setup};
use khela_games::{Game, Node, Notation, Space};
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
    // A range of captured goats: those solved and summarised, the tables of more captured written too.
    let part = tempfile::tempdir().unwrap();
    let out = bench()
        .args(["retro", "--game", "bagh-chal", "--rules", RULES, "--captured", "1..1", "--out"])
        .arg(part.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = std::fs::read_to_string(part.path().join("summary.csv")).unwrap();
    assert_eq!(rows.lines().skip(1).map(|l| &l[..2]).collect::<Vec<_>>(), ["1,", "1,"], "{rows}");
    for (name, written) in [("captured-0.retro", false), ("captured-1.retro", true), ("captured-2.retro", true)] {
        assert_eq!(part.path().join(name).exists(), written, "{name}");
    }
    let (a, b) = (
        std::fs::read(one.path().join("captured-2.retro")).unwrap(),
        std::fs::read(part.path().join("captured-2.retro")).unwrap(),
    );
    assert!(a == b, "the table of 2 captured depends on where the solve started");
}

#[test]
fn solve_from_the_tables_gives_every_move_and_a_line_that_ends_as_promised() {
    let dir = tempfile::tempdir().unwrap();
    retro(dir.path(), "2");
    let game = variant();
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
    // Before the tables, a search to them is stopped at the time limit, or refused at once where its estimate is
    // past a thousand times the limit; and runs to the end without one.
    let tables = dir.path().to_str().unwrap();
    let before = |position: &'static str, limit: &'static str| -> Vec<&str> {
        let args = ["solve", "--game", "bagh-chal", "--rules", RULES, "--position", position, "--tables", tables];
        args.into_iter().chain(["--time-limit", limit]).collect()
    };
    refused(&before(".../.T./... g 6", "1ns"), "was stopped at the limit of 1ns");
    // The start is 11 plies before the tables here, estimated under a microsecond; where the tigers move first it
    // is 12, estimated past a thousand nanoseconds.
    let first = tempfile::tempdir().unwrap();
    let rules = format!("{RULES},first=tigers");
    let made = bench().args(["retro", "--game", "bagh-chal", "--rules", &rules, "--out"]).arg(first.path()).output();
    assert!(made.unwrap().status.success());
    let tables = first.path().to_str().unwrap();
    let args = ["solve", "--game", "bagh-chal", "--rules", &rules, "--position", "T../.../... t 6", "--tables", tables];
    refused(&[&args[..], &["--time-limit", "1ns"]].concat(), "would take about 1us 400ns here, past the limit");
    assert!(csv(&before(".../.T./... g 6", "15m")).starts_with("move,value,best\n"));
    // A limit past what the clock counts is none (it overflowed the deadline).
    assert!(csv(&before(".../.T./... g 6", "300000000000y")).starts_with("move,value,best\n"));
    // A table missing: a position whose captures lead into it is refused, naming the fix (it overflowed).
    std::fs::remove_file(dir.path().join("captured-2.retro")).unwrap();
    let tables = dir.path().to_str().unwrap();
    let args = ["solve", "--game", "bagh-chal", "--rules", RULES, "--position", "TG./GGG/.G. t 0", "--tables", tables];
    refused(&args, "some of its moves lead to positions no table there holds: captured-2.retro missing (retro --out");
}

#[test]
fn retro_and_tables_refuse_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    refused(
        &["retro", "--game", "connect4", "--out", out],
        "the games that have it: tictactoe, bagh-chal, sixteen-soldiers",
    );
    refused(&["retro", "--game", "bagh-chal", "--captured", "5", "--out", out], "the tigers win at 5 goats captured");
    refused(&["retro", "--game", "bagh-chal", "--captured", "0..99", "--out", out], "--captured 0..99: ");
    refused(&["retro", "--game", "bagh-chal", "--rules", "bagh-bandi", "--out", out], "stacks");
    refused(&["retro", "--game", "bagh-chal", "--out", "-"], "not -");
    refused(&["retro", "--game", "bagh-chal", "--captured", "3..1", "--out", out], "from the smaller number");
    refused(&["retro", "--game", "bagh-chal", "--captured", "all", "--out", out], "a range like 0..4");
    assert!(!Path::new(out).exists(), "a refused run left {out} behind");
    refused(&["solve", "--game", "bagh-chal", "--tables", out], "no table files");
    retro(dir.path(), "1");
    let tables = dir.path().to_str().unwrap();
    refused(
        &["solve", "--game", "bagh-chal", "--position", "GGGGG/TTGGG/TGGTG/GGGGG/.GGGG t 0", "--tables", tables],
        "size=5",
    );
    // Another variant's tables are not replaced in that directory.
    let before = std::fs::read(dir.path().join("captured-0.retro")).unwrap();
    let other = ["retro", "--game", "bagh-chal", "--rules", "size=3,tigers=b2,goats=5,captures=3", "--out", tables];
    refused(&other, "holds the tables of bagh-chal with rules \"size=3,tigers=b2,goats=6,first=goats,captures=3\"");
    assert_eq!(std::fs::read(dir.path().join("captured-0.retro")).unwrap(), before);
}

/// The variant of [`RULES`].
fn variant() -> BaghChal {
    let tigers = vec!["b2".into()];
    BaghChal::new(&Setup { size: 3, tigers, goats: 6, stacks: Vec::new(), goats_first: true, captures_to_win: 3 })
        .unwrap()
}

/// The variant's sliding phase solved by the library, for the checks below.
fn library_tables() -> (BaghChal, SlidingPhase, OutcomeTable) {
    let game = variant();
    let space = SlidingPhase::new(&game, 0).unwrap();
    let table = khela_exact::retro::solve(&space, |_| {}).unwrap();
    (game, space, table)
}

/// The variant's tables written by `retro` to a directory, and solved by the library.
fn solved_variant() -> (tempfile::TempDir, BaghChal, SlidingPhase, OutcomeTable) {
    let dir = tempfile::tempdir().unwrap();
    retro(dir.path(), "2");
    let (game, space, table) = library_tables();
    (dir, game, space, table)
}

/// The variant's longest forced win: its length in plies, and its first position.
fn longest_win() -> (u32, String) {
    let (game, space, table) = library_tables();
    let (plies, i) = (0..space.len())
        .filter_map(|i| match table.get(i) {
            Some(khela_exact::retro::Outcome::Win(d)) => Some((d, i)),
            _ => None,
        })
        .max_by_key(|&(d, i)| (d, std::cmp::Reverse(i)))
        .unwrap();
    (plies, game.write(&space.position(i).unwrap()))
}

/// The exact value (goats' view: +1, 0, −1) of a position by plain minimax over the game down to the tables.
fn down_to_the_tables(
    game: &BaghChal,
    space: &SlidingPhase,
    table: &OutcomeTable,
    s: &khela_games::bagh_chal::Position,
) -> f64 {
    use khela_exact::retro::Outcome;
    if let Node::Terminal(payoff) = game.node(s) {
        return payoff;
    }
    let mover = if s.goats_to_move { khela_games::Player::Max } else { khela_games::Player::Min };
    if let Some(outcome) = table.outcome(space, s) {
        return match outcome {
            Outcome::Win(_) => mover.view(1.0),
            Outcome::Loss(_) => mover.view(-1.0),
            Outcome::Draw => 0.0,
        };
    }
    let mut moves = Vec::new();
    game.moves(s, &mut moves);
    let values = moves.iter().map(|&m| mover.view(down_to_the_tables(game, space, table, &game.child(s, m))));
    mover.view(values.fold(f64::NEG_INFINITY, f64::max))
}

/// The variant's placement positions with `in_hand` goats in hand and the sides to move given, every
/// decision among them with its exact value down to the tables.
fn placements(
    game: &BaghChal,
    space: &SlidingPhase,
    table: &OutcomeTable,
    in_hand: u8,
    sides: &[bool],
) -> Vec<(String, f64)> {
    let mut found = Vec::new();
    for tiger in 0..9 {
        for goats in (0u64..512).filter(|g| g.count_ones() == 6 - u32::from(in_hand) && g & 1 << tiger == 0) {
            for &goats_to_move in sides {
                let s = khela_games::bagh_chal::Position {
                    tigers: 1 << tiger,
                    goats,
                    in_hand,
                    goats_to_move,
                    ..Default::default()
                };
                if matches!(game.node(&s), Node::Decision(_)) {
                    found.push((game.write(&s), down_to_the_tables(game, space, table, &s)));
                }
            }
        }
    }
    found
}

#[test]
fn searches_stop_at_the_tables_and_take_their_values() {
    let (dir, game, space, table) = solved_variant();
    let tables = dir.path().to_str().unwrap();
    // Two goats in hand: three plies to the tables. A depth-3 search that stops there has the exact value. The
    // positions with the goats to move, 4 on the board and 2 in hand: the first three decided, the first two drawn.
    let positions = placements(&game, &space, &table, 2, &[true]);
    let decided = positions.iter().filter(|p| p.1 != 0.0).take(3);
    let drawn = positions.iter().filter(|p| p.1 == 0.0).take(2);
    let chosen: Vec<&(String, f64)> = decided.chain(drawn).collect();
    assert_eq!(chosen.len(), 5, "too few decided or drawn positions");
    for (position, truth) in chosen {
        let rows = csv(&[
            "solve",
            "--game",
            "bagh-chal",
            "--rules",
            RULES,
            "--position",
            position,
            "--depth",
            "3",
            "--tables",
            tables,
        ]);
        let best: f64 = rows
            .lines()
            .filter(|l| l.ends_with(",true"))
            .map(|l| l.split(',').nth(1).unwrap().parse::<f64>().unwrap())
            .next()
            .unwrap();
        assert_eq!(best.signum(), truth.signum(), "{position}: {rows}");
        // Without a depth: an exact search to the tables, values +1, 0, −1.
        let rows = csv(&["solve", "--game", "bagh-chal", "--rules", RULES, "--position", position, "--tables", tables]);
        assert!(
            rows.lines().any(|l| l.ends_with(",true") && l.split(',').nth(1) == Some(&truth.to_string())),
            "{position}: {rows}"
        );
    }
    // One placement before the tables, the answer is exact whatever the depth.
    let rows = csv(&[
        "solve",
        "--game",
        "bagh-chal",
        "--rules",
        RULES,
        "--position",
        "GG./.T./G.G g 1",
        "--depth",
        "1",
        "--tables",
        tables,
    ]);
    assert!(rows.starts_with("move,value,plies,best\n"), "{rows}");
    // Monte Carlo stops there too; where every move leads into the tables it sends the user to solve.
    let rows = csv(&[
        "mcts",
        "--game",
        "bagh-chal",
        "--rules",
        RULES,
        "--position",
        "G../.T./G.G g 2",
        "--iterations",
        "500",
        "--tables",
        tables,
    ]);
    assert!(rows.starts_with("move,visits,mean\n"), "{rows}");
    refused(
        &["mcts", "--game", "bagh-chal", "--rules", RULES, "--position", "GG./.T./G.G g 1", "--tables", tables],
        "solve --tables",
    );
}

#[test]
fn play_with_the_tables_ends_as_they_say() {
    let dir = tempfile::tempdir().unwrap();
    retro(dir.path(), "2");
    // The longest win of the variant: both sides play the tables' moves, and the game ends after that many plies.
    let (plies, position) = longest_win();
    let out = bench()
        .args(["play", "--game", "bagh-chal", "--rules", RULES, "--position", &position, "--human", "none"])
        .args(["--engine", "engine:1", "--tables", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches("(the tables: ").count() as u32, plies, "{text}");
    assert!(text.contains(&format!("after {plies} plies")), "{text}");
}

#[test]
fn a_match_with_the_tables_plays_them_out() {
    let dir = tempfile::tempdir().unwrap();
    retro(dir.path(), "2");
    let (plies, position) = longest_win();
    let tables = dir.path().to_str().unwrap();
    let rows = csv(&[
        "match",
        "--game",
        "bagh-chal",
        "--rules",
        RULES,
        "--position",
        &position,
        "--players",
        "random,mcts:10",
        "--games",
        "4",
        "--opening",
        "0",
        "--tables",
        tables,
    ]);
    // Both play the tables' moves: every game is the same forced win, as long as the tables say.
    let row: Vec<&str> = rows.lines().nth(1).unwrap().split(',').collect();
    assert_eq!((row[2], row[4], row[12]), ("4", "0", format!("{:.1}", f64::from(plies)).as_str()), "{rows}");
}

/// Runs `prove` on the variant and returns its rows as (metric, value) pairs.
fn prove(position: &str, claim: &str, tables: &str, extra: &[&str]) -> Vec<(String, String)> {
    let mut args = vec!["prove", "--game", "bagh-chal", "--rules", RULES, "--position", position, "--claim", claim];
    args.extend(["--tables", tables]);
    args.extend(extra);
    let rows = csv(&args);
    assert!(rows.starts_with("metric,value\n"), "{rows}");
    rows.lines().skip(1).map(|l| l.split_once(',').unwrap()).map(|(m, v)| (m.into(), v.into())).collect()
}

fn metric<'a>(rows: &'a [(String, String)], name: &str) -> &'a str {
    &rows.iter().find(|(m, _)| m == name).unwrap_or_else(|| panic!("no {name} in {rows:?}")).1
}

#[test]
fn prove_agrees_with_minimax_down_to_the_tables_and_resumes_from_its_checkpoint() {
    let (dir, game, space, table) = solved_variant();
    let tables = dir.path().to_str().unwrap();
    // Placement positions, 1 to 3 goats in hand, either side to move: two of each value found, every claim
    // against the truth.
    let mut chosen: Vec<(String, f64)> = Vec::new();
    for (position, truth) in [3, 2, 1].into_iter().flat_map(|h| placements(&game, &space, &table, h, &[true, false])) {
        if chosen.iter().filter(|c| c.1 == truth).count() < 2 {
            chosen.push((position, truth));
        }
    }
    assert!(chosen.len() >= 4, "positions of two values at least: {chosen:?}");
    for (position, truth) in &chosen {
        for (claim, holds) in [("goats:draw", *truth >= 0.0), ("goats:win", *truth > 0.0), ("tigers:win", *truth < 0.0)]
        {
            let rows = prove(position, claim, tables, &[]);
            let expected = if holds { "proven" } else { "refuted" };
            assert_eq!(metric(&rows, "verdict"), expected, "{position} {claim}: {rows:?}");
            assert!(metric(&rows, "proof_positions").parse::<u64>().unwrap() >= 1, "{rows:?}");
        }
    }
    // One goat move a turn: proven or not proven, never refuted.
    let position = "G.G/.T./G.G g 2";
    let narrow = prove(position, "goats:draw", tables, &["--moves", "1"]);
    assert!(["proven", "not-proven"].contains(&metric(&narrow, "verdict")), "{narrow:?}");
    // A checkpoint: written at the end, resumed by the same proof (nothing left to search), refused by another.
    let checkpoint = dir.path().join("proof.ckpt");
    let checkpoint = checkpoint.to_str().unwrap();
    let first = prove(position, "goats:draw", tables, &["--checkpoint", checkpoint]);
    let again = prove(position, "goats:draw", tables, &["--checkpoint", checkpoint]);
    assert_eq!(metric(&again, "verdict"), metric(&first, "verdict"));
    assert_eq!(metric(&again, "resumed"), metric(&first, "decided"), "{again:?}");
    assert_eq!(metric(&again, "nodes"), "0", "{again:?}");
    // One stored value inverted (a position that keeps the claim made one that does not): refused by its CRC-32.
    let saved = std::fs::read(checkpoint).unwrap();
    let mut damaged = saved.clone();
    let first_entry = saved.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    damaged[first_entry + 8] ^= 1;
    std::fs::write(checkpoint, &damaged).unwrap();
    let mut same = vec!["prove", "--game", "bagh-chal", "--rules", RULES, "--position", position];
    same.extend(["--claim", "goats:draw", "--tables", tables, "--checkpoint", checkpoint]);
    refused(&same, "is damaged: its entries fail their CRC-32");
    std::fs::write(checkpoint, &saved).unwrap();
    let mut args = vec!["prove", "--game", "bagh-chal", "--rules", RULES, "--position", position];
    args.extend(["--claim", "tigers:win", "--tables", tables, "--checkpoint", checkpoint]);
    refused(&args, "is for another proof");
    refused(
        &[
            "prove",
            "--game",
            "bagh-chal",
            "--rules",
            RULES,
            "--position",
            position,
            "--claim",
            "goats",
            "--tables",
            tables,
        ],
        "SIDE:draw or SIDE:win, the side one of goats, tigers",
    );
}

/// `retro --game tictactoe` solves the whole game: the 5,478 legal positions (765 up to the board's symmetries),
/// each side to move's wins, losses and draws equal to a count by plain minimax over every position a game
/// reaches; and `solve --tables` from its tables gives the empty board's every move a draw.
#[test]
fn tictactoe_is_solved_whole_by_retrograde_analysis() {
    use khela_games::tictactoe::{Board, TicTacToe};
    use std::collections::HashMap;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ttt");
    let status = bench().args(["retro", "--game", "tictactoe", "--out"]).arg(&out).output().unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    // Plain minimax, memoized by board: the value for the side to move of every position a game reaches.
    fn value(board: &Board, memo: &mut HashMap<Board, i8>) -> i8 {
        if let Some(&v) = memo.get(board) {
            return v;
        }
        let v = match TicTacToe.node(board) {
            Node::Terminal(payoff) => {
                let mover = if board.to_move() == khela_games::Player::Max { 1.0 } else { -1.0 };
                // Not `f64::signum`, which gives a draw's +0.0 the sign 1.
                i8::from(payoff * mover > 0.0) - i8::from(payoff * mover < 0.0)
            }
            _ => {
                let mut moves = Vec::new();
                TicTacToe.moves(board, &mut moves);
                moves.iter().map(|&mv| -value(&TicTacToe.child(board, mv), memo)).max().unwrap()
            }
        };
        memo.insert(*board, v);
        v
    }
    let mut memo = HashMap::new();
    value(&Board::EMPTY, &mut memo);
    assert_eq!(memo.len(), 5_478);
    let mut expected = vec!["to_move,positions,wins,losses,draws".to_string()];
    for side in ["X", "O"] {
        let here: Vec<i8> =
            memo.iter().filter(|(b, _)| TicTacToe.player_name(b.to_move()) == side).map(|(_, &v)| v).collect();
        let count = |v: i8| here.iter().filter(|&&w| w == v).count();
        expected.push(format!("{side},{},{},{},{}", here.len(), count(1), count(-1), count(0)));
    }
    let got: Vec<String> = summary.lines().map(|l| l.split(',').take(5).collect::<Vec<_>>().join(",")).collect();
    assert_eq!(got, expected);
    let classes: u64 = summary.lines().skip(1).map(|l| l.split(',').nth(5).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(classes, 765);
    let rows = csv(&["solve", "--game", "tictactoe", "--tables", out.to_str().unwrap()]);
    assert_eq!(rows.lines().count(), 10, "{rows}");
    assert!(rows.lines().skip(1).all(|l| l.split(',').nth(1) == Some("0")), "every first move draws: {rows}");
}
