//! End-to-end tests of `bench-suite zero`: a short training run, its resumption, the same bytes from the same
//! seed, an evaluation of the network it saved, and refusals; the network kept in `results/` searching as
//! `mcts --prior net:PATH`, playing in `play` and `match`; a Connect-4 network's evaluation and a Bagh-Chal
//! one's (games as each side, positions of the sliding phase's tables); a run's learning curve.

use crate::common::{bench, csv, refused};
use khela_testkit::connect4::Set;
use std::path::Path;

/// The tic-tac-toe network kept in `results/`.
const KEPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../results/zero-tictactoe.safetensors");

/// A short run's options: tic-tac-toe, tiny network, few games, random openings (whose moves the replay file
/// keeps without visits).
const RUN: [&str; 14] = [
    "--game",
    "tictactoe",
    "--games",
    "6",
    "--simulations",
    "12",
    "--blocks",
    "1",
    "--channels",
    "4",
    "--seed",
    "5",
    "--random-plies",
    "2",
];

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

/// Each iteration's games by outcome, as `train.csv`'s last three columns give them (MAX's wins, draws, MIN's
/// wins; empty cells as `None`).
fn outcome_columns(csv: &str) -> Vec<[Option<u64>; 3]> {
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",seconds,max_wins,draws,min_wins"), "{csv}");
    lines
        .map(|line| {
            let cells: Vec<&str> = line.rsplitn(4, ',').take(3).collect();
            [2, 1, 0].map(|i| (!cells[i].is_empty()).then(|| cells[i].parse().unwrap()))
        })
        .collect()
}

/// Two iterations in one run, and one then one more in a resumed run, play the same games (the second
/// iteration's by the network the first saved); the weights after the second differ only by Adam's moment
/// estimates, which a checkpoint does not keep (candle's optimizer does not expose them). The CSV has a row per
/// iteration, with its games counted by outcome as the replay file records them; a run whose CSV predates those
/// counts resumes, their cells empty in its old rows.
#[test]
fn training_resumes_and_repeats() {
    let whole = tempfile::tempdir().unwrap();
    train(whole.path(), "2");
    let csv = String::from_utf8(read(whole.path(), "train.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[0].starts_with("iteration,games,positions,window,steps,policy_loss,value_loss,l2,"), "{csv}");
    assert!(lines[1].starts_with("1,6,") && lines[2].starts_with("2,12,"), "{csv}");
    let replay = String::from_utf8(read(whole.path(), "replay.txt")).unwrap();
    let payoffs: Vec<f64> = replay.lines().map(|l| l.split('\t').next().unwrap().parse().unwrap()).collect();
    assert_eq!(payoffs.len(), 12);
    let counted: Vec<[Option<u64>; 3]> = payoffs
        .chunks(6)
        .map(|games| {
            let count = |keep: fn(f64) -> bool| Some(games.iter().filter(|&&p| keep(p)).count() as u64);
            [count(|p| p > 0.0), count(|p| p == 0.0), count(|p| p < 0.0)]
        })
        .collect();
    // The games tell MAX's wins from MIN's and one iteration from the other, so the check could fail.
    assert!(counted.iter().any(|c| c[0] != c[2]) && counted[0] != counted[1], "{counted:?}");
    assert_eq!(outcome_columns(&csv), counted, "{csv}");
    let parts = tempfile::tempdir().unwrap();
    train(parts.path(), "1");
    let old: String = String::from_utf8(read(parts.path(), "train.csv"))
        .unwrap()
        .lines()
        .map(|line| format!("{}\n", line.rsplitn(4, ',').last().unwrap()))
        .collect();
    std::fs::write(parts.path().join("train.csv"), old).unwrap();
    train(parts.path(), "2");
    let resumed = String::from_utf8(read(parts.path(), "train.csv")).unwrap();
    assert_eq!(outcome_columns(&resumed), [[None; 3], counted[1]], "{resumed}");
    for file in ["net.json", "replay.txt"] {
        assert_eq!(read(parts.path(), file), read(whole.path(), file), "{file}");
    }
    let again = tempfile::tempdir().unwrap();
    train(again.path(), "2");
    for file in ["net.safetensors", "replay.txt"] {
        assert_eq!(read(again.path(), file), read(whole.path(), file), "the same seed, the same {file}");
    }
    // Other options are refused in the run's directory, MIN's own simulations and the discount among them.
    for other in [["--learning-rate", "0.01"], ["--simulations-for-min", "30"], ["--discount", "0.98"]] {
        crate::common::refused(
            &[&["zero", "train"], &RUN[..], &other[..], &["--out", parts.path().to_str().unwrap()]].concat(),
            "holds a run with other options",
        );
    }
    // The saved network evaluates: the CSV's metrics, over the 4,520 positions in play and 2 × 2 games.
    let net = whole.path().join("net.safetensors");
    let csv = crate::common::csv(&[
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
    crate::common::refused(
        &["zero", "eval", "--game", "connect4", "--net", net.to_str().unwrap()],
        "was trained for tictactoe",
    );
}

/// A directory that holds a run's files but no `state.json` is refused, its files untouched; a CSV a row ahead
/// of the state (a kill between the two writes) resumes without the row twice; a CSV short of rows is refused.
#[test]
fn a_run_s_files_are_never_overwritten_nor_its_rows_doubled() {
    let dir = tempfile::tempdir().unwrap();
    train(dir.path(), "1");
    let out = dir.path().to_str().unwrap();
    let args =
        |iterations: &'static str| [&["zero", "train"], &RUN[..], &["--iterations", iterations, "--out", out]].concat();
    let state = read(dir.path(), "state.json");
    std::fs::remove_file(dir.path().join("state.json")).unwrap();
    let (net, csv) = (read(dir.path(), "net.safetensors"), read(dir.path(), "train.csv"));
    crate::common::refused(&args("2"), "holds a run's net.safetensors, replay.txt, train.csv but no state.json");
    assert_eq!((read(dir.path(), "net.safetensors"), read(dir.path(), "train.csv")), (net, csv.clone()));
    std::fs::write(dir.path().join("state.json"), &state).unwrap();
    // The first iteration's row again as the second's: the row a killed second iteration left.
    let text = String::from_utf8(csv.clone()).unwrap();
    let first = text.lines().nth(1).unwrap();
    std::fs::write(dir.path().join("train.csv"), format!("{text}2{}\n", &first[1..])).unwrap();
    train(dir.path(), "2");
    let resumed = String::from_utf8(read(dir.path(), "train.csv")).unwrap();
    let iterations: Vec<&str> = resumed.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(iterations, ["1", "2"], "{resumed}");
    assert_ne!(resumed.lines().nth(2).unwrap()[1..], first[1..], "the second row is the second iteration's own");
    // Rows missing: refused.
    let header = resumed.lines().next().unwrap();
    std::fs::write(dir.path().join("train.csv"), format!("{header}\n")).unwrap();
    crate::common::refused(&args("3"), "is damaged: its rows do not number the 2 iterations");
}

/// Games that all end in their random openings leave nothing to train on: the iteration takes no step (it had
/// failed inside the network library), and a refused run leaves no directory of checkpoints behind.
#[test]
fn an_iteration_with_nothing_to_train_on_takes_no_step_and_a_refusal_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let args = ["zero", "train", "--game", "tictactoe", "--random-plies", "99", "--iterations", "1", "--games", "1"];
    let done =
        bench().args(args).args(["--simulations", "5", "--keep-every", "1", "--out"]).arg(&out).output().unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let rows = String::from_utf8(read(&out, "train.csv")).unwrap();
    let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = rows.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[header.iter().position(|&c| c == "steps").unwrap()], "0", "{rows}");
    // A directory holding a network but no run: refused, and no checkpoints/ made in it.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::copy(out.join("net.safetensors"), other.join("net.safetensors")).unwrap();
    let mut again = bench();
    again.args(["zero", "train", "--game", "tictactoe", "--keep-every", "1", "--out"]).arg(&other);
    assert_eq!(again.output().unwrap().status.code(), Some(2));
    assert!(!other.join("checkpoints").exists(), "a refused run made checkpoints/");
}

/// A run that keeps its networks has a learning curve: each kept network measured, with the run's games and
/// seconds at its iteration, and the shares drawn.
#[test]
fn a_run_s_kept_networks_make_its_curve() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let out = bench()
        .args(["zero", "train"])
        .args(RUN)
        .args(["--iterations", "2", "--keep-every", "1", "--out", run.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(read(&run, "checkpoints/iter-2.safetensors"), read(&run, "net.safetensors"));
    assert_eq!(read(&run, "checkpoints/iter-1.json"), read(&run, "net.json"));
    let plot = dir.path().join("curve.svg");
    let curve = ["zero", "curve", "--game", "tictactoe", "--run", run.to_str().unwrap(), "--games", "1"];
    let rows = csv(&[&curve[..], &["--simulations", "4", "--plot", plot.to_str().unwrap()]].concat());
    let lines: Vec<Vec<&str>> = rows.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(lines[0], ["iteration", "games", "positions", "seconds", "metric", "value"]);
    assert_eq!(lines.len(), 1 + 2 * 7, "seven measurements of each of two networks: {rows}");
    let train = String::from_utf8(read(&run, "train.csv")).unwrap();
    for (i, row) in lines[1..].iter().enumerate() {
        let iteration = if i < 7 { "1" } else { "2" };
        assert_eq!(row[0], iteration, "{rows}");
        // The games, positions and seconds of that iteration's row of train.csv.
        let trained: Vec<&str> =
            train.lines().find(|l| l.starts_with(&format!("{iteration},"))).unwrap().split(',').collect();
        assert_eq!((row[1], row[2]), (trained[1], trained[2]), "{rows}");
        let seconds: f64 = trained[10].parse().unwrap();
        assert_eq!(row[3], format!("{seconds:.1}"), "{rows}");
    }
    assert!(rows.contains("\n2,12,") && rows.contains(",positions,4520\n"), "{rows}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("value_sign_accuracy") && svg.contains("policy_top1_optimal"));
    refused(&["zero", "curve", "--game", "tictactoe", "--run", dir.path().to_str().unwrap()], "--keep-every");
}

#[test]
fn bad_requests_are_refused() {
    crate::common::refused(
        &["zero", "train", "--game", "nim", "--out", "/tmp/khela-zero-never"],
        "zero train needs a network's encoding",
    );
    assert!(!Path::new("/tmp/khela-zero-never").exists());
    crate::common::refused(
        &["zero", "train", "--game", "tictactoe", "--alpha", "0", "--out", "/tmp/khela-zero-never"],
        "--alpha 0: out of range; give a number above 0, and finite",
    );
    crate::common::refused(
        &["zero", "train", "--game", "tictactoe", "--value-from-search", "1.5", "--out", "/tmp/khela-zero-never"],
        "--value-from-search 1.5: out of range; give a number from 0 to 1",
    );
    crate::common::refused(
        &["zero", "train", "--game", "tictactoe", "--discount", "0", "--out", "/tmp/khela-zero-never"],
        "--discount 0: out of range; give a number above 0, at most 1",
    );
    crate::common::refused(
        &["zero", "train", "--game", "tictactoe", "--random-plies", "1001", "--out", "/tmp/khela-zero-never"],
        "1001",
    );
    crate::common::refused(
        &["zero", "eval", "--game", "tictactoe", "--net", "/nonexistent/net.safetensors"],
        "cannot read its description",
    );
}

/// The kept network's search wins at once where it can (X takes 2 in `XX.OO....`, where O would win at 5),
/// draws against itself from the empty board (both sides play perfectly), and loses no game to random moves.
#[test]
fn the_kept_network_plays() {
    let prior = format!("net:{KEPT}");
    let rows =
        csv(&["mcts", "--game", "tictactoe", "--position", "XX.OO....", "--prior", &prior, "--iterations", "60"]);
    let visits: Vec<(u32, u64)> = rows
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect();
    // Every simulation but the first, which opens the root, passes through a move.
    assert_eq!(visits.iter().map(|v| v.1).sum::<u64>(), 59, "{rows}");
    assert_eq!(visits.iter().max_by_key(|v| v.1).unwrap().0, 2, "{rows}");
    let out = bench()
        .args(["play", "--game", "tictactoe", "--human", "none", "--engine", &format!("{prior}:50")])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success() && stdout.ends_with("a draw after 9 plies\n"), "{stdout}");
    let players = format!("{prior}:30,random");
    let rows = csv(&["match", "--game", "tictactoe", "--players", &players, "--games", "6", "--seed", "3"]);
    let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = rows.lines().nth(1).unwrap().split(',').collect();
    let field = |name: &str| row[header.iter().position(|&h| h == name).unwrap()];
    assert_eq!((field("a"), field("games"), field("b_wins")), (&format!("{prior}:30")[..], "6", "0"), "{rows}");
}

/// Networks named where none can go are refused, in one line.
#[test]
fn networks_are_refused_where_they_cannot_play() {
    fn mcts<'a>(prior: &'a str, more: &[&'a str]) -> Vec<&'a str> {
        [&["mcts", "--game", "tictactoe", "--prior", prior][..], more].concat()
    }
    refused(&mcts("net:", &[]), "net:PATH names the network's file");
    refused(&mcts("net:/nonexistent/n.safetensors", &[]), "cannot read its description");
    refused(&mcts(&format!("net:{KEPT}"), &["--algorithm", "uct"]), "is for --algorithm puct, not uct");
    refused(&mcts(&format!("net:{KEPT}"), &["--solver"]), "takes no --solver");
    refused(&mcts(&format!("net:{KEPT}"), &["--iterations", "100001"]), "the limit is 100000 simulations");
    let connect4 = format!("net:{KEPT}");
    refused(&["mcts", "--game", "connect4", "--prior", &connect4], "was trained for tictactoe");
    refused(&["mcts", "--game", "pig", "--prior", &connect4], "needs a network's encoding of the game");
    refused(&["match", "--game", "pig", "--players", &format!("{connect4},random")], "needs a network's encoding");
    refused(&["play", "--game", "tictactoe", "--engine", "net:x:0"], "from 1 to 100000");
}

/// A Connect-4 network, trained for an iteration, is evaluated: games against UCT with ten times its
/// simulations, and, where the benchmark sets are beside the checkout, positions of Middle-Easy judged against
/// the solver.
#[test]
fn a_connect4_network_is_evaluated() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = ["--blocks", "1", "--channels", "4", "--games", "2", "--simulations", "4", "--iterations", "1"];
    let out = bench()
        .args(["zero", "train", "--game", "connect4", "--out", dir.path().to_str().unwrap()])
        .args(tiny)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let net = dir.path().join("net.safetensors");
    let mut eval = vec!["zero", "eval", "--game", "connect4", "--net", net.to_str().unwrap(), "--games", "2"];
    eval.extend(["--simulations", "4"]);
    let set = Set::MiddleEasy.path();
    let with_set = !Set::MiddleEasy.missing_for("zero eval --set");
    if with_set {
        eval.extend(["--set", set.to_str().unwrap(), "--limit", "12"]);
    }
    let rows = csv(&eval);
    let value = |name: &str| -> f64 {
        let line = rows.lines().find(|l| l.starts_with(&format!("{name},"))).unwrap_or_else(|| panic!("{rows}"));
        line.split(',').nth(1).unwrap().parse().unwrap()
    };
    let (wins, draws, losses) = (value("wins_vs_uct"), value("draws_vs_uct"), value("losses_vs_uct"));
    assert_eq!(wins + draws + losses, 4.0, "{rows}");
    assert_eq!(value("winrate_vs_uct"), ((wins + draws / 2.0) / 4.0 * 1e4).round() / 1e4, "{rows}");
    assert_eq!(value("uct_iterations"), 40.0, "{rows}");
    if with_set {
        assert_eq!(value("positions"), 12.0, "{rows}");
        for share in ["value_sign_accuracy", "policy_top1_optimal", "search_value_sign_accuracy", "search_top1_optimal"]
        {
            assert!((0.0..=1.0).contains(&value(share)), "{share}: {rows}");
        }
    }
    // The same seed, the same rows.
    assert_eq!(csv(&eval), rows);
    // No games: the heads' rows only, which need --set.
    let mut heads = eval.clone();
    heads[7] = "0";
    if with_set {
        let heads = csv(&heads);
        assert!(heads.starts_with("metric,value\npositions,12\n") && heads.lines().count() == 6, "{heads}");
    }
    refused(&heads[..8], "--games 0 plays no game");
    refused(&["zero", "eval", "--game", "connect4", "--net", net.to_str().unwrap(), "--limit", "3"], "--limit counts");
    refused(
        &[
            "zero",
            "eval",
            "--game",
            "connect4",
            "--net",
            net.to_str().unwrap(),
            "--games",
            "100000",
            "--simulations",
            "5000",
        ],
        "up to 2.1e10 simulations of the network (and 2.1e11 iterations of UCT); at most 1e8",
    );
}

/// The value of `name` in a `metric,value` CSV.
fn metric(rows: &str, name: &str) -> f64 {
    let line = rows.lines().find(|l| l.starts_with(&format!("{name},"))).unwrap_or_else(|| panic!("{name}: {rows}"));
    line.split(',').nth(1).unwrap().parse().unwrap()
}

/// A tiny Bagh-Chal network (one tiger, six goats on the 3 × 3 grid) evaluated: games against UCT and the
/// engine as the goats and as the tigers, each side's win rate adding up to the whole; positions drawn from
/// each table of the sliding phase; the same rows from the same seed; the refusals.
#[test]
fn a_bagh_chal_network_is_evaluated() {
    let rules = ["--game", "bagh-chal", "--rules", "size=3,tigers=b2,goats=6,captures=3"];
    let (run, tables) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let tiny = ["--blocks", "1", "--channels", "4", "--games", "2", "--simulations", "4", "--iterations", "1"];
    let out = bench().args(["zero", "train"]).args(rules).args(tiny).arg("--out").arg(run.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = bench().arg("retro").args(rules).arg("--out").arg(tables.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let net = run.path().join("net.safetensors");
    let (net, tables) = (net.to_str().unwrap(), tables.path().to_str().unwrap());
    let mut eval = vec!["zero", "eval"];
    eval.extend(rules);
    eval.extend(["--net", net, "--games", "3", "--simulations", "4", "--depth", "2", "--tables", tables]);
    eval.extend(["--limit", "5"]);
    let rows = csv(&eval);
    for (opponent, budget, value) in [("uct", "uct_iterations", 40.0), ("engine", "engine_depth", 2.0)] {
        let named = |what: &str| metric(&rows, &format!("{what}_vs_{opponent}"));
        let (wins, draws, losses) = (named("wins"), named("draws"), named("losses"));
        assert_eq!(wins + draws + losses, 6.0, "{rows}");
        assert_eq!(named("games"), 6.0, "{rows}");
        assert_eq!(metric(&rows, budget), value, "{rows}");
        let rate = (wins + draws / 2.0) / 6.0;
        assert!((named("winrate") - rate).abs() < 1e-4, "{rows}");
        let side = |side: &str| metric(&rows, &format!("winrate_vs_{opponent}_as_{side}"));
        let sides = named("winrate") * 2.0 - side("goats") - side("tigers");
        assert!(sides.abs() < 2e-4, "{rows}");
    }
    // Tables of 0, 1 and 2 goats captured, five positions from each.
    assert_eq!(metric(&rows, "positions"), 15.0, "{rows}");
    for share in ["value_sign_accuracy", "policy_top1_optimal", "search_value_sign_accuracy", "search_top1_optimal"] {
        let share = metric(&rows, share);
        assert!((0.0..=1.0).contains(&share) && (share * 15.0 - (share * 15.0).round()).abs() < 1e-2, "{rows}");
    }
    assert_eq!(csv(&eval), rows, "the same seed, the same rows");
    // No games: the heads' rows only.
    let mut heads = eval.clone();
    heads[9] = "0";
    let depth = heads.iter().position(|&a| a == "--depth").unwrap();
    heads.drain(depth..depth + 2);
    let only = csv(&heads);
    assert!(only.starts_with("metric,value\npositions,15\n") && only.lines().count() == 6, "{only}");
    let base = ["zero", "eval", rules[0], rules[1], rules[2], rules[3], "--net", net];
    refused(&[&base[..], &["--games", "0"]].concat(), "--games 0 plays no game");
    refused(&[&base[..], &["--limit", "3"]].concat(), "--limit counts the positions drawn from each table");
    refused(&[&base[..], &["--set", "x"]].concat(), "--set is for Connect-4");
    refused(&[&base[..], &["--games", "0", "--depth", "2", "--tables", tables]].concat(), "--games 0 plays none");
    refused(&[&base[..], &["--tables", "/nonexistent"]].concat(), "/nonexistent");
}
