//! `retro --phase placement` end to end, on small games of the Bagh-Chal family: the summary's counts, the
//! fragile draws and the start's value are the generic layered solver's (in memory, over the whole phase, from the library's sliding
//! tables); the same files on 1 and 2 threads; a run cut short resumes to the same files; a damaged layer is
//! refused; and the refusals.

use crate::common::{bench, refused};
use khela_exact::layered::{self, Wdl};
use khela_exact::retro;
use khela_games::bagh_chal::placement::PlacementPhase;
use khela_games::bagh_chal::sliding::SlidingPhase;
use khela_games::bagh_chal::{BaghChal, Position, Setup};
use khela_games::{Game, Node, Player, Space};
use std::collections::BTreeMap;
use std::path::Path;

/// The header: scripts depend on it.
const HEADER: &str = "placed,captured,to_move,positions,tiger_wins,goat_wins,draws,canonical_positions,\
canonical_tiger_wins,canonical_goat_wins,canonical_draws";

/// Two variants: one tiger in the middle of the 3 × 3 grid, and two tigers on the 5 × 5 board's diagonal (whose
/// tiger sets a symmetry keeps).
const VARIANTS: [(&str, u8, &[&str], u8, u8); 2] = [
    ("size=3,tigers=b2,goats=6,captures=3", 3, &["b2"], 6, 3),
    ("size=5,tigers=a1+c3,goats=4,captures=2", 5, &["a1", "c3"], 4, 2),
];

/// The header of the fragile draws.
const FRAGILE_HEADER: &str =
    "placed,captured,draws,fragile_draws,fragile_share,canonical_draws,canonical_fragile_draws";

/// The summary's rows by (goats placed, goats captured, side to move): positions, tiger wins, goat wins, draws,
/// in full then up to symmetry.
type Rows = BTreeMap<(String, String, String), Vec<u64>>;

/// The fragile draws' rows by (goats placed, goats captured): draws, fragile draws, in full then up to
/// symmetry.
type Fragile = BTreeMap<(String, String), Vec<u64>>;

fn run(dir: &Path, rules: &str, threads: &str) -> std::process::Output {
    bench()
        .args(["retro", "--game", "bagh-chal", "--rules", rules, "--phase", "placement", "--threads", threads])
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap()
}

/// `retro --phase placement` into `dir`: what it printed, and its progress.
pub(crate) fn placement(dir: &Path, rules: &str, threads: &str) -> (String, String) {
    let out = run(dir, rules, threads);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Every file `retro` wrote in `dir` (but the sidecars, which record times), by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let entries = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap());
    entries
        .filter(|e| !e.file_name().to_string_lossy().ends_with(".json"))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// The summary's rows the generic solver gives: by (placed, captured, to move), the positions in full and up
/// to symmetry, by who wins; the fragile draws, found by looking at every placement of every drawn position;
/// and the start's value for the goats.
fn expected(game: &BaghChal) -> (Rows, Fragile, Wdl) {
    let sliding = SlidingPhase::new(game, 0).unwrap();
    let slid = retro::solve(&sliding, |_| {}).unwrap();
    let space = PlacementPhase::new(game).unwrap();
    let table = layered::solve(&space, |s| slid.outcome(&sliding, s), |_| {}).unwrap();
    // Whether the tigers win the position `c`, which a goat placement leads to.
    let tigers_win = |c: &Position| match game.node(c) {
        Node::Terminal(payoff) => payoff < 0.0,
        _ if c.in_hand == 0 => matches!(slid.outcome(&sliding, c), Some(retro::Outcome::Win(_))),
        _ => matches!(table.outcome(&space, c), Some(retro::Outcome::Win(_))),
    };
    let (mut rows, mut fragile) = (Rows::new(), Fragile::new());
    for i in 0..space.len() {
        let Some(s) = space.position(i) else { continue };
        let placed = game.goats() - s.in_hand;
        let side = if s.goats_to_move { "goats" } else { "tigers" };
        let key = (placed.to_string(), s.captured.to_string(), side.to_string());
        let row = rows.entry(key).or_insert_with(|| vec![0; 8]);
        // Wins for the tigers, the goats, draws: the side to move's value turned to who wins.
        let value = Wdl::of(table.get(i).unwrap());
        let slot = match (value, space.to_move(&s)) {
            (Wdl::Draw, _) => 2,
            (Wdl::Win, Player::Min) | (Wdl::Loss, Player::Max) => 0,
            _ => 1,
        };
        let images = space.multiplicity(&s);
        row[0] += images;
        row[1 + slot] += images;
        row[4] += 1;
        row[5 + slot] += 1;
        if s.goats_to_move {
            let row = fragile.entry((placed.to_string(), s.captured.to_string())).or_insert_with(|| vec![0; 4]);
            let mut moves = Vec::new();
            game.moves(&s, &mut moves);
            let lost = value == Wdl::Draw && moves.iter().any(|&mv| tigers_win(&game.child(&s, mv)));
            row[0] += if value == Wdl::Draw { images } else { 0 };
            row[1] += if lost { images } else { 0 };
            row[2] += u64::from(value == Wdl::Draw);
            row[3] += u64::from(lost);
        }
    }
    let start = Wdl::of(table.outcome(&space, &game.start_position()).unwrap());
    (rows, fragile, start)
}

#[test]
fn the_summary_and_the_start_are_the_generic_solver_s_on_any_threads() {
    for (rules, size, tigers, goats, captures_to_win) in VARIANTS {
        let tigers = tigers.iter().map(|t| t.to_string()).collect();
        let game = BaghChal::new(&Setup { size, tigers, goats, captures_to_win, ..Setup::bagh_chal() }).unwrap();
        let (rows, fragile, start) = expected(&game);
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (printed, progress) = placement(one.path(), rules, "1");
        assert!(progress.contains("the sliding phase's tables first"), "{progress}");
        let said = match start {
            Wdl::Win => "a goat win",
            Wdl::Draw => "a draw",
            Wdl::Loss => "a tiger win",
        };
        assert!(printed.contains(&format!("the start is {said} with best play")), "{printed}");
        let summary = std::fs::read_to_string(one.path().join("placement-summary.csv")).unwrap();
        assert_eq!(summary.lines().next(), Some(HEADER));
        let written: Rows = summary
            .lines()
            .skip(1)
            .map(|line| {
                let r: Vec<&str> = line.split(',').collect();
                ((r[0].into(), r[1].into(), r[2].into()), r[3..].iter().map(|n| n.parse().unwrap()).collect())
            })
            .collect();
        assert_eq!(written, rows, "{rules}");
        let text = std::fs::read_to_string(one.path().join("placement-fragile.csv")).unwrap();
        assert_eq!(text.lines().next(), Some(FRAGILE_HEADER));
        let written: Fragile = text
            .lines()
            .skip(1)
            .map(|line| {
                let r: Vec<&str> = line.split(',').collect();
                let share: f64 = r[4].parse().unwrap();
                let (draws, lost): (u64, u64) = (r[2].parse().unwrap(), r[3].parse().unwrap());
                assert_eq!(share, if draws == 0 { 0.0 } else { lost as f64 / draws as f64 }, "{line}");
                ((r[0].into(), r[1].into()), [2, 3, 5, 6].iter().map(|&k| r[k].parse().unwrap()).collect())
            })
            .collect();
        assert_eq!(written, fragile, "{rules}");
        let placed: Vec<u8> =
            fragile.iter().filter(|(_, row)| row[1] > 0).map(|((placed, _), _)| placed.parse().unwrap()).collect();
        let (earliest, latest) = (placed.iter().min().unwrap(), placed.iter().max().unwrap());
        let said = format!("from the goats' placement {} to their placement {}", earliest + 1, latest + 1);
        assert!(printed.contains(&said), "{printed}");
        placement(two.path(), rules, "2");
        assert_eq!(files(one.path()), files(two.path()), "{rules}: 1 and 2 threads");
    }
}

#[test]
fn a_run_cut_short_resumes_to_the_same_files_and_a_damaged_layer_is_refused() {
    let rules = VARIANTS[0].0;
    let dir = tempfile::tempdir().unwrap();
    placement(dir.path(), rules, "2");
    let whole = files(dir.path());
    // The last three layers and the summary lost, as a kill between layers leaves them.
    let layers: Vec<String> = whole.keys().filter(|name| name.ends_with(".wdl")).cloned().collect();
    assert_eq!(layers.len(), 12, "a goats' and a tigers' layer for 0 to 5 goats placed");
    for name in
        ["placement-00-goats.wdl", "placement-00-tigers.wdl", "placement-01-tigers.wdl", "placement-summary.csv"]
    {
        std::fs::remove_file(dir.path().join(name)).unwrap();
    }
    let (_, progress) = placement(dir.path(), rules, "1");
    assert!(progress.contains("9 layers on disk already"), "{progress}");
    assert_eq!(files(dir.path()), whole);
    // The layer a resumed run reads, damaged: refused by its checksum.
    std::fs::remove_file(dir.path().join("placement-00-tigers.wdl")).unwrap();
    let path = dir.path().join("placement-00-goats.wdl");
    let mut bytes = std::fs::read(&path).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let out = run(dir.path(), rules, "1");
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("placement-00-goats.wdl is damaged"), "{message}");
    // A layer of other rules is refused by its header.
    let other = tempfile::tempdir().unwrap();
    std::fs::copy(dir.path().join("placement-05-goats.wdl"), other.path().join("placement-05-goats.wdl")).unwrap();
    let out = run(other.path(), "size=3,tigers=b2,goats=6,captures=2", "1");
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("is for rules"), "{message}");
    // A layer of the first format, whose counts lack the fragile draws: refused, with what to do.
    let path = dir.path().join("placement-05-goats.wdl");
    let text = std::fs::read(&path).unwrap();
    let older = [b"khela layer table 1".as_slice(), &text["khela layer table 2".len()..]].concat();
    std::fs::write(&path, older).unwrap();
    let out = run(dir.path(), rules, "1");
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("placement-05-goats.wdl was made by an older khela"), "{message}");
    assert!(message.contains("delete it to remake it"), "{message}");
}

#[test]
fn placement_refuses_what_it_cannot_solve() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    refused(
        &["retro", "--game", "connect4", "--phase", "placement", "--out", out],
        "the games that have it: bagh-chal",
    );
    refused(&["retro", "--game", "bagh-chal", "--rules", "bagh-bandi", "--phase", "placement", "--out", out], "stacks");
    refused(
        &["retro", "--game", "bagh-chal", "--phase", "placement", "--captured", "1", "--out", out],
        "takes no --captured",
    );
    refused(&["retro", "--game", "bagh-chal", "--phase", "layers", "--out", out], "placement");
    assert!(!Path::new(out).exists(), "a refused run left {out} behind");
}
