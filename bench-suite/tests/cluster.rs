//! Counts in parts, as a cluster's job array runs them: `count --shard K/N` and `merge-counts`, which adds the
//! parts up to the count in one piece and refuses parts that are not the N parts of one count.

mod common;

use common::{bench, csv, refused};
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
    refused(&["count", "--game", "connect4", "--depth", "5", "--shard", "0/2"], "--shard splits move sequences");
    refused(
        &["count", "--game", "connect4", "--depth", "5", "--only", "sequences", "--shard", "2/2"],
        "K must be in 0..=1",
    );
}
