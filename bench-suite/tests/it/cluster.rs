//! Counts in parts, as a cluster's job array runs them: `count --shard K/N` and `merge-counts`, which adds the
//! parts up to the count in one piece and refuses parts that are not the N parts of one count.

use crate::common::{bench, csv, refused};
use std::path::Path;

/// Runs part `k` of `n` of a count into `dir`; its path.
fn part(dir: &Path, args: &[&str], k: u64, n: u64) -> String {
    let path = dir.join(format!("part-{k}-of-{n}.csv")).to_string_lossy().into_owned();
    let shard = format!("{k}/{n}");
    let out = bench()
        .args(["count"])
        .args(args)
        .args(["--only", "sequences", "--shard", &shard, "--out", &path])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    path
}

#[test]
fn the_parts_of_a_count_add_up() {
    let dir = tempfile::tempdir().unwrap();
    for (args, n) in
        [(&["--game", "connect4", "--depth", "8"][..], 4), (&["--game", "einstein", "--depth", "4"][..], 3)]
    {
        let parts: Vec<String> = (0..n).map(|k| part(dir.path(), args, k, n)).collect();
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        let merged = csv(&[&["merge-counts"], &parts[..]].concat());
        assert_eq!(merged, csv(&[&["count"], args, &["--only", "sequences"]].concat()), "{args:?}");
    }
}

#[test]
fn merge_counts_refuses_what_is_not_one_count() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--game", "connect4", "--depth", "6"];
    let [a, b, c] = [0, 1, 2].map(|k| part(dir.path(), &args, k, 3));
    refused(&["merge-counts", &a, &b], "the parts 2/3 are missing");
    // A count edited after count wrote it (one more sequence at the last ply) is refused by its sidecar's CRC.
    let edited = dir.path().join("edited");
    std::fs::create_dir(&edited).unwrap();
    let c_edited = edited.join("part-2-of-3.csv");
    let text = std::fs::read_to_string(&c).unwrap();
    let last = text.lines().last().unwrap();
    let cells: Vec<&str> = last.split(',').collect();
    let bumped = format!("{},{},{}", cells[0], cells[1].parse::<u64>().unwrap() + 1, cells[2]);
    std::fs::write(&c_edited, text.replace(last, &bumped)).unwrap();
    std::fs::copy(format!("{}.meta.json", c.trim_end_matches(".csv")), edited.join("part-2-of-3.meta.json")).unwrap();
    refused(&["merge-counts", &a, &b, c_edited.to_str().unwrap()], "not the");
    refused(&["merge-counts", &a, &b, &c, &b], "are both part 1/3");
    let other = tempfile::tempdir().unwrap();
    let deeper = part(other.path(), &["--game", "connect4", "--depth", "7"], 2, 3);
    refused(&["merge-counts", &a, &b, &deeper], "is a part of another count");
    let whole = dir.path().join("whole.csv").to_string_lossy().into_owned();
    let out = bench()
        .args(["count", "--game", "connect4", "--depth", "5", "--only", "sequences", "--out", &whole])
        .output()
        .unwrap();
    assert!(out.status.success());
    refused(&["merge-counts", &a, &whole], "is not a part of a sharded count");
    refused(&["count", "--game", "connect4", "--depth", "5", "--shard", "0/2"], "--shard splits one count per ply");
    refused(
        &["count", "--game", "connect4", "--depth", "5", "--only", "sequences", "--shard", "2/2"],
        "K must be in 0..=1",
    );
}

/// Runs step `ply` of task `k` of `n` of a count of positions through the exchange `dir/exchange`, writing the
/// task's part to `dir/positions-K-of-N.csv`; its output.
fn step(dir: &Path, args: &[&str], k: u64, n: u64, ply: u32) -> std::process::Output {
    let exchange = dir.join("exchange").to_string_lossy().into_owned();
    let (shard, ply) = (format!("{k}/{n}"), ply.to_string());
    bench()
        .args(["count"])
        .args(args)
        .args(["--only", "positions", "--shard", &shard, "--ply", &ply, "--exchange", &exchange, "--threads", "2"])
        .args(["--out", &positions_part(dir, k, n)])
        .output()
        .unwrap()
}

fn positions_part(dir: &Path, k: u64, n: u64) -> String {
    dir.join(format!("positions-{k}-of-{n}.csv")).to_string_lossy().into_owned()
}

/// Runs every step of a count of positions in `n` tasks by hand, ply by ply, as the job arrays would, and
/// merges the parts: the merged CSV.
fn positions_in_parts(dir: &Path, args: &[&str], depth: u32, n: u64) -> String {
    for ply in 0..=depth {
        // The tasks of a ply in reverse, so that no task relies on running after another of its ply.
        for k in (0..n).rev() {
            let out = step(dir, args, k, n, ply);
            assert!(out.status.success(), "{args:?} {k}/{n} ply {ply}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let parts: Vec<String> = (0..n).map(|k| positions_part(dir, k, n)).collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    csv(&[&["merge-counts"], &parts[..]].concat())
}

#[test]
fn tasks_that_exchange_positions_count_them_all() {
    // Depths where the in-memory count's plies are not all the same, each game's positions sent as lines.
    let counts: [(&[&str], u32); 4] = [
        (&["--game", "connect4"], 7),
        (&["--game", "tictactoe"], 9),
        (&["--game", "bagh-chal"], 5),
        (&["--game", "einstein"], 3),
    ];
    for (game, depth) in counts {
        let depth_text = depth.to_string();
        let args = [game, &["--depth", &depth_text]].concat();
        let whole = csv(&[&["count"], &args[..], &["--only", "positions"]].concat());
        for n in 1..=3 {
            let dir = tempfile::tempdir().unwrap();
            assert_eq!(positions_in_parts(dir.path(), &args, depth, n), whole, "{args:?} in {n} parts");
        }
    }
}

/// One bit flipped in a file a task sent is refused by the receiving step, naming the file, by the CRC-32 its
/// sender recorded (it counted 120 positions at ply 3 where 119 are right).
#[test]
fn a_damaged_exchange_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--game", "connect4", "--depth", "4"];
    for ply in 0..3 {
        for k in 0..2 {
            assert!(step(dir.path(), &args, k, 2, ply).status.success());
        }
    }
    let sent = dir.path().join("exchange/ply-3/to-0-from-1-of-2");
    let mut bytes = std::fs::read(&sent).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&sent, bytes).unwrap();
    let out = step(dir.path(), &args, 0, 2, 3);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("to-0-from-1-of-2 has CRC-32") && stderr.contains("its sender recorded"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_step_waits_for_its_inputs_and_runs_again_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--game", "connect4", "--depth", "5"];
    // Ply 1 of task 0 needs ply 0 of both tasks.
    assert!(step(dir.path(), &args, 0, 2, 0).status.success());
    let out = step(dir.path(), &args, 0, 2, 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("done-1-of-2 is missing: task 1's step at ply 0 has not finished"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let whole = csv(&["count", "--game", "connect4", "--depth", "5", "--only", "positions"]);
    assert_eq!(positions_in_parts(dir.path(), &args, 5, 2), whole);
    // A step run again rewrites its files with the same bytes, and the parts still add up.
    let exchange = dir.path().join("exchange");
    let snapshot = || -> Vec<(String, Vec<u8>)> {
        let mut files = Vec::new();
        for ply in std::fs::read_dir(&exchange).unwrap() {
            for file in std::fs::read_dir(ply.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                files.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
        files.sort();
        files
    };
    let before = snapshot();
    assert!(step(dir.path(), &args, 1, 2, 3).status.success());
    assert_eq!(snapshot(), before);
    // A missing input, and a part that is not finished, are refused.
    let inbox = exchange.join("ply-4/to-1-from-0-of-2");
    std::fs::remove_file(&inbox).unwrap();
    let out = step(dir.path(), &args, 1, 2, 4);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("to-1-from-0-of-2 is missing"), "{stderr}");
    assert!(step(dir.path(), &args, 0, 2, 3).status.success());
    assert!(step(dir.path(), &args, 1, 2, 4).status.success());
    let (a, b) = (positions_part(dir.path(), 0, 2), positions_part(dir.path(), 1, 2));
    refused(&["merge-counts", &a, &b], "the part is not finished (run its steps to --ply 5)");
    // Another count in the same exchange.
    let exchange = exchange.to_string_lossy().into_owned();
    refused(
        &[
            "count",
            "--game",
            "connect4",
            "--position",
            "4",
            "--depth",
            "5",
            "--only",
            "positions",
            "--shard",
            "0/2",
            "--ply",
            "1",
            "--exchange",
            &exchange,
        ],
        "belongs to another count",
    );
    refused(
        &["count", "--game", "connect4", "--depth", "5", "--only", "positions", "--shard", "0/2"],
        "give --ply L (0..=DEPTH) and --exchange DIR",
    );
    refused(
        &[
            "count",
            "--game",
            "connect4",
            "--depth",
            "5",
            "--only",
            "positions",
            "--shard",
            "0/2",
            "--ply",
            "6",
            "--exchange",
            &exchange,
        ],
        "--ply 6 is past --depth 5",
    );
}
