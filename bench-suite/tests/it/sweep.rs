//! End-to-end tests of `sweep` and `merge`: the files they write, byte for byte, on any number of threads, in
//! shards, after an interruption; the figures the sweep must show; and the grids it refuses.

use crate::common::{bench, csv, refused};
use std::path::Path;

const HEADER: &str = "model,b,k,d,seed,rng,algorithm,ordering,value,leaves,nodes,cutoffs,knuth_moore,minimax_leaves";

/// The header of `sweep-summary.csv`.
const SUMMARY_HEADER: &str = "model,b,k,d,algorithm,ordering,seeds,mean_leaves,median_leaves,min_leaves,max_leaves,\
                              ebf,knuth_moore,minimax_leaves,pearl,vs_alphabeta,mean_nodes,nodes_vs_minimax,\
                              nodes_vs_alphabeta";

/// A small grid over every model, algorithm and ordering: a few seconds in the dev profile.
const SMALL: &[&str] = &["--b", "2,3", "--d", "1..4", "--seeds", "0..3"];

/// Runs `sweep ARGS --out DIR` successfully and returns its stdout.
fn sweep(dir: &Path, args: &[&str]) -> String {
    let out = bench().arg("sweep").args(args).arg("--out").arg(dir).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

/// The CSV's rows as fields.
fn rows(csv: &str) -> Vec<Vec<String>> {
    csv.lines().skip(1).map(|l| l.split(',').map(str::to_string).collect()).collect()
}

/// The field `name` of a row of `sweep.csv` or of `sweep-summary.csv`, told apart by their numbers of columns.
fn field<'a>(row: &'a [String], name: &str) -> &'a str {
    let header = if row.len() == HEADER.split(',').count() { HEADER } else { SUMMARY_HEADER };
    let column = header.split(',').position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
    &row[column]
}

/// A field parsed as a number.
fn number(row: &[String], name: &str) -> f64 {
    field(row, name).parse().unwrap_or_else(|_| panic!("{name} of {row:?}"))
}

#[test]
fn the_textbook_tree_with_pythons_generator() {
    // The textbook's tree (b=4, d=6, seed 42, Python's randint(0, 99)): minimax 26 over 4,096 leaves;
    // alpha-beta visits 687 leaves in natural order, 127 (the Knuth–Moore minimum) best first, 3,568 worst first.
    let dir = tempfile::tempdir().unwrap();
    let args = ["--models", "iid100", "--b", "4", "--d", "6", "--seeds", "42", "--rng", "python"];
    let algorithms = ["--algorithms", "minimax,alphabeta", "--orderings", "natural,best,worst"];
    sweep(dir.path(), &[&args[..], &algorithms[..]].concat());
    assert_eq!(
        read(dir.path().join("sweep.csv")),
        format!(
            "{HEADER}\n\
             iid100,4,,6,42,python,minimax,natural,26,4096,5461,0,127,4096\n\
             iid100,4,,6,42,python,alphabeta,natural,26,687,1056,{},127,4096\n\
             iid100,4,,6,42,python,alphabeta,best,26,127,268,{},127,4096\n\
             iid100,4,,6,42,python,alphabeta,worst,26,3568,4853,{},127,4096\n",
            cutoffs(dir.path(), "natural"),
            cutoffs(dir.path(), "best"),
            cutoffs(dir.path(), "worst"),
        )
    );
    // The ordering table searches the same tree with the same library, so it counts the same leaves and nodes.
    let table = csv(&["ordering", "--b", "4", "--d", "6", "--seed", "42", "--rng", "python"]);
    for row in rows(&read(dir.path().join("sweep.csv"))) {
        let (algorithm, ordering) = (field(&row, "algorithm"), field(&row, "ordering"));
        let counts = format!(",{},{},{}\n", field(&row, "value"), field(&row, "leaves"), field(&row, "nodes"));
        let line = format!("random-tree,4,6,42,python,{algorithm},{ordering}{counts}");
        assert!(table.contains(&line), "{line:?} is not in the ordering table:\n{table}");
    }
}

/// The cutoffs column of the alpha-beta row with this ordering (not a textbook figure).
fn cutoffs(dir: &Path, ordering: &str) -> String {
    let csv = read(dir.join("sweep.csv"));
    let rows = rows(&csv);
    let row = rows.iter().find(|r| field(r, "algorithm") == "alphabeta" && field(r, "ordering") == ordering);
    field(row.unwrap(), "cutoffs").to_string()
}

#[test]
fn files_summary_and_sidecar() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = sweep(dir.path(), SMALL);
    let csv = read(dir.path().join("sweep.csv"));
    assert!(csv.starts_with(&format!("{HEADER}\niid,2,,1,0,pcg,minimax,natural,")), "{csv}");
    // Per deterministic tree (3 models × 2 b × 4 d × 4 seeds = 96): minimax once, 4 algorithms × 6 orderings (5 on
    // iid trees, which skip static). Per chance tree (2 b × 3 k × 4 d × 4 seeds = 96): minimax once, alpha-beta,
    // Star1 and Star2 under 5 orderings (static skipped).
    assert_eq!(rows(&csv).len(), 64 * (1 + 4 * 5) + 32 * (1 + 4 * 6) + 96 * (1 + 3 * 5));
    // Every search of a tree finds the same value.
    let all = rows(&csv);
    for tree in all.chunk_by(|a, b| a[..5] == b[..5]) {
        assert!(tree.iter().all(|r| field(r, "value") == field(&tree[0], "value")), "{tree:?}");
    }
    let summary = read(dir.path().join("sweep-summary.csv"));
    assert!(
        summary.starts_with(&format!(
            "{SUMMARY_HEADER}\n\
             iid,2,,1,minimax,natural,4,2.00,2,2,2,2.000000,2,2,1.618034,1.000000,3.00,1.000000,1.000000\n"
        )),
        "{summary}"
    );
    // Minimax once per shape; 4 algorithms × 5 orderings on the 2 iid models, × 6 on the incremental one; on the
    // chance model's 24 shapes 3 algorithms × 5.
    assert_eq!(summary.lines().count(), 1 + 3 * 2 * 4 + 2 * 2 * 4 * 4 * 5 + 2 * 4 * 4 * 6 + 24 * (1 + 3 * 5));
    for table in [
        "Alpha-beta: mean leaves over the seeds",
        "Leaves relative to alpha-beta with the same ordering",
        "Leaves relative to alpha-beta with natural ordering",
        "note: static ordering is skipped on iid and chance trees",
        "note: skipped on chance trees: negascout, mtdf, id",
        "note: skipped on deterministic trees: star1, star2",
        "Chance trees: nodes relative to expectiminimax",
        "nodes/s per core",
        "machine: ",
    ] {
        assert!(stdout.contains(table), "{table:?} missing from {stdout}");
    }
    let meta = read(dir.path().join("sweep.meta.json"));
    for key in [
        "\"arguments\"",
        "\"version\"",
        "\"git_revision\"",
        "\"cores\"",
        "\"date\"",
        "\"grid\"",
        "\"seeds\": \"0..3\"",
        "\"nodes_per_second\"",
        "\"nodes_per_second_per_core\"",
    ] {
        assert!(meta.contains(key), "{key} missing from {meta}");
    }
    assert!(dir.path().join("leaves-vs-depth.svg").exists());
}

#[test]
fn the_same_arguments_give_the_same_bytes_on_any_number_of_threads() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    sweep(one.path(), &[SMALL, &["--threads", "1"]].concat());
    sweep(two.path(), &[SMALL, &["--threads", "2"]].concat());
    for file in ["sweep.csv", "sweep-summary.csv", "leaves-vs-depth.svg", "ebf-vs-b.svg"] {
        assert_eq!(read(one.path().join(file)), read(two.path().join(file)), "{file}");
    }
}

#[test]
fn merged_shards_are_the_unsharded_sweep() {
    let whole = tempfile::tempdir().unwrap();
    sweep(whole.path(), SMALL);
    for n in [2, 3] {
        let shards: Vec<_> = (0..n).map(|_| tempfile::tempdir().unwrap()).collect();
        for (k, dir) in shards.iter().enumerate() {
            sweep(dir.path(), &[SMALL, &["--shard", &format!("{k}/{n}")]].concat());
        }
        let merged = tempfile::tempdir().unwrap();
        // Shards in any order.
        let out = bench()
            .args(["merge", "--out"])
            .arg(merged.path())
            .args(shards.iter().rev().map(|d| d.path()))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8(out.stdout).unwrap().contains(&format!("merged {n} shards")));
        for file in ["sweep.csv", "sweep-summary.csv", "leaves-vs-depth.svg", "ebf-vs-b.svg"] {
            assert_eq!(read(merged.path().join(file)), read(whole.path().join(file)), "{n} shards: {file}");
        }
    }
}

#[test]
fn merge_refuses_missing_duplicate_and_foreign_shards() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    let whole = tempfile::tempdir().unwrap();
    let grid = ["--b", "2", "--d", "2", "--seeds", "0..2"];
    sweep(a.path(), &[&grid[..], &["--shard", "0/2"]].concat());
    sweep(b.path(), &[&grid[..], &["--shard", "1/2"]].concat());
    sweep(other.path(), &["--b", "3", "--d", "2", "--seeds", "0..2", "--shard", "1/2"]);
    sweep(whole.path(), &grid);
    let out = tempfile::tempdir().unwrap();
    let merge = |dirs: &[&Path], expected: &str| {
        let mut args = vec!["merge", "--out", out.path().to_str().unwrap()];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        refused(&args, expected);
    };
    merge(&[a.path()], "shard 1/2 is missing");
    merge(&[a.path(), a.path()], "shard 0/2 is given twice");
    merge(&[a.path(), other.path()], "are shards of different grids");
    merge(&[a.path(), whole.path()], "holds a whole sweep, not a shard");
    let empty = tempfile::tempdir().unwrap();
    merge(&[a.path(), empty.path()], "the --out of a finished sweep --shard run?");
    merge(&[a.path(), b.path(), b.path()], "shard 1/2 is given twice");
    let a_out = ["merge", "--out", a.path().to_str().unwrap(), a.path().to_str().unwrap(), b.path().to_str().unwrap()];
    refused(&a_out, "is one of the shard directories");
    // An unfinished shard: its rows cut short.
    let csv = read(a.path().join("sweep.csv"));
    std::fs::write(a.path().join("sweep.csv"), &csv[..csv.len() / 2]).unwrap();
    merge(&[a.path(), b.path()], "is incomplete");
    refused(&["merge"], "SHARD_DIR");
}

#[test]
fn resume_after_an_interruption_gives_the_uninterrupted_files() {
    let args = ["--b", "2,3", "--d", "2..4", "--seeds", "0..2", "--algorithms", "alphabeta,mtdf", "--threads", "2"];
    let whole = tempfile::tempdir().unwrap();
    sweep(whole.path(), &args);
    let full = read(whole.path().join("sweep.csv"));
    let sums = read(whole.path().join("sweep.checksums"));
    let summary = read(whole.path().join("sweep-summary.csv"));
    let line_ends: Vec<usize> = full.match_indices('\n').map(|(i, _)| i + 1).collect();
    // Cut anywhere: nothing, a partial header, the header, mid-row, a row boundary inside a tree and between
    // trees, one byte short, and the whole file.
    let cuts = [
        0,
        10,
        HEADER.len() + 1,
        line_ends[3] + 7,
        line_ends[5],
        line_ends[line_ends.len() / 2],
        full.len() - 1,
        full.len(),
    ];
    // The checksums are written after each tree's rows: a kill leaves them whole, or one tree short.
    let sum_cuts = [sums.len(), sums.len().saturating_sub(9 * 5), 0];
    for (cut, sum_cut) in cuts.into_iter().zip(sum_cuts.into_iter().cycle()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("sweep.csv"), &full[..cut]).unwrap();
        std::fs::write(dir.path().join("sweep.checksums"), &sums[..sum_cut]).unwrap();
        let stdout = sweep(dir.path(), &[&args[..], &["--resume"]].concat());
        assert!(stdout.contains("already done"), "{stdout}");
        assert_eq!(read(dir.path().join("sweep.csv")), full, "cut at byte {cut}");
        assert_eq!(read(dir.path().join("sweep.checksums")), sums, "cut at byte {cut}");
        assert_eq!(read(dir.path().join("sweep-summary.csv")), summary, "cut at byte {cut}");
    }
    // --resume with nothing to resume starts afresh.
    let fresh = tempfile::tempdir().unwrap();
    sweep(fresh.path(), &[&args[..], &["--resume"]].concat());
    assert_eq!(read(fresh.path().join("sweep.csv")), full);
    // A file of other arguments is not continued, nor touched, nor its summary removed.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sweep.csv"), &full[..line_ends[6]]).unwrap();
    std::fs::write(dir.path().join("sweep.checksums"), &sums).unwrap();
    std::fs::write(dir.path().join("sweep-summary.csv"), &summary).unwrap();
    let out = dir.path().to_str().unwrap();
    refused(&["sweep", "--b", "3", "--d", "2..4", "--resume", "--out", out], "does not match these arguments");
    assert_eq!(read(dir.path().join("sweep.csv")), full[..line_ends[6]]);
    assert_eq!(read(dir.path().join("sweep-summary.csv")), summary);
    std::fs::write(dir.path().join("sweep.csv"), "a,b\n1,2\n").unwrap();
    refused(&["sweep", "--b", "3", "--resume", "--out", out], "does not start with the sweep header");
}

#[test]
fn resume_refuses_rows_changed_after_they_were_written() {
    // A kept row edited by hand (here its value) would make the resumed files differ from an uninterrupted run:
    // its tree's checksum no longer matches, and the sweep says which rows.
    let args = ["--b", "2,3", "--d", "2..3", "--seeds", "0..1", "--algorithms", "alphabeta,mtdf"];
    let dir = tempfile::tempdir().unwrap();
    sweep(dir.path(), &args);
    let full = read(dir.path().join("sweep.csv"));
    let mut lines: Vec<String> = full.lines().map(str::to_string).collect();
    let mut fields: Vec<String> = lines[2].split(',').map(str::to_string).collect();
    fields[8] = format!("{}1", fields[8]);
    lines[2] = fields.join(",");
    let edited = lines[..lines.len() - 1].join("\n") + "\n";
    std::fs::write(dir.path().join("sweep.csv"), &edited).unwrap();
    let out = dir.path().to_str().unwrap();
    refused(
        &[&["sweep"], &args[..], &["--resume", "--out", out]].concat(),
        "differ from the checksum written with them",
    );
    assert_eq!(read(dir.path().join("sweep.csv")), edited, "a refused resume leaves the file as it was");
    // A sweep.csv without its checksums (an older version's) is not trusted either.
    std::fs::remove_file(dir.path().join("sweep.checksums")).unwrap();
    refused(&[&["sweep"], &args[..], &["--resume", "--out", out]].concat(), "no sweep.checksums beside it");
}

#[test]
fn a_sweep_is_not_replaced_by_mistake() {
    let args = ["--b", "2", "--d", "2..3", "--seeds", "0..1", "--algorithms", "alphabeta"];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    sweep(dir.path(), &args);
    // The same grid again rewrites the same bytes.
    let first = read(dir.path().join("sweep.csv"));
    sweep(dir.path(), &args);
    assert_eq!(read(dir.path().join("sweep.csv")), first);
    // Another grid is refused, unless --force.
    refused(&["sweep", "--b", "3", "--d", "2", "--out", out], "holds a finished sweep of another grid");
    // An unfinished sweep (no sidecar yet: a run was interrupted) is refused; --resume or --force go on.
    std::fs::remove_file(dir.path().join("sweep.meta.json")).unwrap();
    refused(&[&["sweep"], &args[..], &["--out", out]].concat(), "holds an unfinished sweep");
    sweep(dir.path(), &[&args[..], &["--force"]].concat());
    assert_eq!(read(dir.path().join("sweep.csv")), first);
    // --out names a directory to create, but not its parents; - is refused, as for merge.
    let deep = dir.path().join("a/b");
    refused(&["sweep", "--b", "2", "--d", "2", "--out", deep.to_str().unwrap()], "does not exist");
    assert!(!dir.path().join("a").exists());
    refused(&["sweep", "--out", "-"], "takes a directory, not -");
    refused(&["merge", "--out", "-", out], "takes a directory, not -");
    assert!(!Path::new("-").exists());
}

#[test]
#[cfg(unix)]
fn an_interrupted_sweep_says_how_to_resume() {
    // Long enough (minimax over 2.4 million nodes a tree) to be interrupted after its first trees.
    let args =
        ["--models", "iid", "--b", "8", "--d", "7", "--seeds", "0..39", "--algorithms", "minimax", "--threads", "1"];
    let dir = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-suite"))
        .arg("sweep")
        .args(args)
        .arg("--out")
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let csv = dir.path().join("sweep.csv");
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&csv).map_or(0, |text| text.lines().count()) < 2 {
        assert!(started.elapsed().as_secs() < 120, "the sweep wrote no tree");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: continue the sweep with") && stderr.contains("--resume"), "{stderr}");
    assert!(!dir.path().join("sweep.meta.json").exists(), "an interrupted sweep has no sidecar");
}

#[test]
fn what_the_sweep_must_show() {
    // Best-first alpha-beta visits exactly the Knuth–Moore minimum, with distinct leaves (iid) and with the
    // textbook's 0..99 leaves (iid100) alike. iid100 trees are the iid trees quantized (both models map the same
    // random word monotonically into their range), so comparing them isolates the ties: with natural ordering
    // ties make pruning easier. And with natural ordering the effective branching factor on iid trees lies
    // between Pearl's R_b and b.
    let dir = tempfile::tempdir().unwrap();
    let args = ["--models", "iid,iid100", "--b", "2..5", "--d", "2..6", "--seeds", "0..9"];
    sweep(dir.path(), &[&args[..], &["--algorithms", "alphabeta", "--orderings", "natural,best"]].concat());
    let csv = read(dir.path().join("sweep.csv"));
    for row in rows(&csv).iter().filter(|r| field(r, "ordering") == "best") {
        assert_eq!(field(row, "leaves"), field(row, "knuth_moore"), "{row:?}");
    }
    let summary = read(dir.path().join("sweep-summary.csv"));
    let summary = rows(&summary);
    let natural = |model: &str| -> Vec<&Vec<String>> {
        summary.iter().filter(|r| field(r, "model") == model && field(r, "ordering") == "natural").collect()
    };
    let mean = |r: &Vec<String>| -> f64 { number(r, "mean_leaves") };
    let (iid, iid100) = (natural("iid"), natural("iid100"));
    assert_eq!(iid.len(), 4 * 5);
    for (wide, textbook) in iid.iter().zip(&iid100) {
        assert_eq!(wide[1..4], textbook[1..4]);
        assert!(mean(textbook) <= mean(wide), "{wide:?} {textbook:?}");
    }
    assert!(iid100.iter().map(|r| mean(r)).sum::<f64>() < iid.iter().map(|r| mean(r)).sum::<f64>());
    for row in iid.iter().filter(|r| number(r, "d") >= 3.0) {
        let (b, ebf, pearl) = (number(row, "b"), number(row, "ebf"), number(row, "pearl"));
        assert!(pearl < ebf && ebf < b, "{row:?}");
    }
}

#[test]
fn bad_grids_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let sweep = |args: &[&str], expected: &str| refused(&[&["sweep", "--out", out], args].concat(), expected);
    sweep(&["--b", ""], "the list is empty");
    sweep(&["--b", "2,,3"], "has an empty item");
    sweep(&["--d", "8..2"], "the range 8..2 is inverted");
    sweep(&["--seeds", "x"], "\"x\" is not a non-negative integer");
    sweep(&["--seeds", "1,2,1"], "1 appears twice");
    sweep(&["--seeds", "-1"], "invalid value '-1' for '--seeds <LIST>'");
    sweep(&["--orderings", "alphabetical"], "invalid value 'alphabetical' for '--orderings <LIST>'");
    sweep(&["--models", "chess"], "invalid value 'chess' for '--models <LIST>'");
    sweep(&["--algorithms", "sss"], "invalid value 'sss' for '--algorithms <LIST>'");
    sweep(&["--algorithms", "id,id"], "--algorithms lists id twice");
    sweep(&["--shard", "2/2"], "K must be in 0..=1");
    sweep(&["--shard", "1"], "write K/N");
    sweep(&["--b", "0"], "at least 1");
    sweep(&["--d", "0"], "depths start at 1");
    sweep(&["--models", "iid", "--b", "10", "--d", "12"], "1 models × 1 b × 1 d × 30 seeds = 30 trees and up to about");
    sweep(&["--b", "10", "--d", "12"], "chance tree b=10 k=4 d=12 has more than 2^62 nodes");
    sweep(
        &["--models", "chance", "--b", "8", "--k", "8", "--d", "7"],
        "the chance model's 1 b × 1 k × 1 d × 30 seeds = 30 trees and up to about 1.4e15 nodes",
    );
    sweep(&["--b", "10", "--d", "9"], "(3 models × 1 b × 1 d + the chance model's 1 b × 3 k × 1 d) × 30 seeds");
    sweep(&["--k", "0"], "--k 0: a chance node needs at least one outcome");
    sweep(&["--k", "70000"], "--k 70000: beyond the most chance outcomes, 65536");
    sweep(&["--models", "iid", "--k", "2"], "--k 2: chance outcomes belong to the chance model");
    sweep(&["--models", "chance", "--d", "33"], "chance tree depth d=33 is beyond 32 decision plies");
    sweep(
        &["--models", "chance", "--rng", "python"],
        "--rng python draws iid leaves only: use --rng pcg for the chance model",
    );
    sweep(&["--b", "2", "--d", "2", "--seeds", "0..999999"], "more than 1,000,000 trees");
    sweep(&["--b", "10", "--d", "40"], "more than 2^62 nodes");
    sweep(&["--rng", "python"], "--rng python draws iid leaves only");
    sweep(&["--rng", "python", "--models", "iid", "--b", "10", "--d", "8"], "limited to 16,777,216 leaves");
    sweep(&["--models", "iid", "--algorithms", "minimax", "--b", "2", "--d", "23"], "no searches");
    sweep(&["--threads", "0"], "invalid value '0'");
    // Asked for by name, a search that runs on no tree of the grid.
    sweep(&["--orderings", "static", "--models", "iid"], "--orderings static: no search of this grid uses it");
    sweep(&["--algorithms", "star1,alphabeta", "--models", "iid"], "--algorithms star1: it runs on no tree");
    refused(&["sweep", "--out", "-"], "--out takes a directory");
    // Nothing was written.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn help_describes_the_grid() {
    let out = bench().args(["sweep", "--help"]).unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for text in ["--b <LIST>", "--k <LIST>", "--shard <K/N>", "--resume", "iid100", "incremental", "chance", "history"]
    {
        assert!(help.contains(text), "{text:?} missing from {help}");
    }
    let out = bench().args(["merge", "--help"]).unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("SHARD_DIR"));
}

#[test]
fn grids_that_would_exhaust_memory_or_the_stack_are_refused() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    refused(&["sweep", "--b", "4294967295", "--d", "1", "--out", dir], "beyond the largest branching factor");
    refused(&["sweep", "--b", "1", "--d", "10000", "--out", dir], "beyond the deepest tree, 64");
    refused(&["sweep", "--b", "2", "--d", "8..2", "--out", dir], "0 trees and 0 nodes");
}

#[test]
fn the_chance_model() {
    // Regular *-minimax trees: every search of a tree finds expectiminimax's value, to the last bit (the sweep
    // compares the values as printed, shortest round-trip, so equal text is equal bits). Expectiminimax visits
    // every node; alpha-beta alone too (each decision node's children are chance nodes, searched with full
    // windows); Star1 never more; Star2, whose probes are extra searches, fewer on average.
    let dir = tempfile::tempdir().unwrap();
    let args = ["--models", "chance", "--b", "2,3", "--k", "2,3", "--d", "1..3", "--seeds", "0..9"];
    sweep(dir.path(), &[&args[..], &["--orderings", "natural,best"]].concat());
    let csv = read(dir.path().join("sweep.csv"));
    assert!(csv.starts_with(&format!("{HEADER}\nchance,2,2,1,0,pcg,minimax,natural,")), "{csv}");
    let all = rows(&csv);
    assert_eq!(all.len(), 2 * 2 * 3 * 10 * (1 + 3 * 2));
    for tree in all.chunk_by(|a, b| a[..5] == b[..5]) {
        let minimax = &tree[0];
        assert_eq!(field(minimax, "algorithm"), "minimax");
        let (b, k, d) = (number(minimax, "b"), number(minimax, "k"), number(minimax, "d"));
        let leaves = (b * k).powf(d);
        assert_eq!(number(minimax, "leaves"), leaves, "{minimax:?}");
        assert_eq!(number(minimax, "minimax_leaves"), leaves, "{minimax:?}");
        assert_eq!(field(minimax, "knuth_moore"), "", "{minimax:?}");
        for row in tree {
            assert_eq!(field(row, "value"), field(minimax, "value"), "{row:?}");
            let nodes = number(row, "nodes");
            match field(row, "algorithm") {
                "alphabeta" => assert_eq!(nodes, number(minimax, "nodes"), "{row:?}"),
                "star1" => assert!(nodes <= number(minimax, "nodes"), "{row:?}"),
                _ => {}
            }
        }
    }
    // One tree in full: b=2, k=2, d=2, seed 0 has 1 + 2 + 4 + 8 + 16 = 31 nodes, and the value 52.25.
    let tree: Vec<String> = csv
        .lines()
        .filter(|l| l.starts_with("chance,2,2,2,0,"))
        .map(|l| l.replace("chance,2,2,2,0,pcg,", ""))
        .collect();
    assert_eq!(
        tree,
        [
            "minimax,natural,52.25,16,31,0,,16",
            "alphabeta,natural,52.25,16,31,0,,16",
            "alphabeta,best,52.25,16,31,0,,16",
            "star1,natural,52.25,13,27,2,,16",
            "star1,best,52.25,13,27,2,,16",
            "star2,natural,52.25,11,24,2,,16",
            "star2,best,52.25,11,24,2,,16",
        ]
    );
    let summary = rows(&read(dir.path().join("sweep-summary.csv")));
    for row in summary.iter().filter(|r| field(r, "algorithm").starts_with("star")) {
        let (d, vs_minimax) = (number(row, "d"), number(row, "nodes_vs_minimax"));
        assert!(vs_minimax <= 1.0, "{row:?}");
        if d >= 2.0 && field(row, "algorithm") == "star1" {
            assert!(vs_minimax < 1.0, "{row:?}");
        }
        assert_eq!(field(row, "nodes_vs_alphabeta"), field(row, "nodes_vs_minimax"), "{row:?}");
    }
}
