//! The output layer, end to end, for every command: a reader that goes away ends the run quietly; a full disk,
//! a socket, a missing directory or a directory where a file is wanted is one line of error with status 2 and
//! nothing written; a symbolic link is written through to its target, and a stream (a named pipe, `/dev/null`,
//! `/dev/stdout`) written into.

use crate::common::{bench, csv, refused};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// One run of every command that writes a table or rows, with what it needs.
const COMMANDS: &[&[&str]] = &[
    &["solve", "--game", "tictactoe", "--position", "X...O...X"],
    &["solve", "--game", "tictactoe", "--position", "X...O...X", "--depth", "3"],
    &["eval", "--game", "connect4", "--position", "4453"],
    &["count", "--game", "tictactoe"],
    &["count", "--game", "connect4", "--depth", "4"],
    &["trace", "--tree", "[[3,5],[2,9]]"],
    &["ordering", "--b", "2", "--d", "3"],
    &["mcts", "--game", "tictactoe", "--iterations", "500"],
    &["games"],
];

/// The same runs with `--out -`: the rows as CSV on stdout.
fn with_csv_on_stdout(args: &[&str]) -> Vec<String> {
    args.iter().chain(&["--out", "-"]).map(|a| a.to_string()).collect()
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let big_tree = format!("[{}]", (0..20_000).map(|i| i.to_string()).collect::<Vec<_>>().join(","));
    let mut runs: Vec<Vec<String>> = COMMANDS.iter().map(|args| args.iter().map(|a| a.to_string()).collect()).collect();
    runs.extend(COMMANDS.iter().map(|args| with_csv_on_stdout(args)));
    runs.push(vec!["trace".into(), "--tree".into(), big_tree]);
    let dir = tempfile::tempdir().unwrap();
    runs.push(small_sweep(&dir.path().join("sweep")));
    for args in runs {
        // The pipe's reading end is closed before the command writes a byte: like `| head -0`.
        let mut child = Command::new(env!("CARGO_BIN_EXE_bench-suite"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(stderr.is_empty(), "{args:?} complained: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_one_line_of_error_with_status_2() {
    let runs = COMMANDS
        .iter()
        .map(|args| args.iter().map(|a| a.to_string()).collect())
        .chain(COMMANDS.iter().map(|args| with_csv_on_stdout(args)));
    for args in runs.collect::<Vec<Vec<String>>>() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_bench-suite")).args(&args).stdout(full).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: cannot write to stdout: No space left on device"), "{args:?}: {stderr}");
    }
    // The sweep says what it will do before it writes a file: nothing is left behind.
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let sweep = small_sweep(&dir.path().join("sweep"));
    let out = Command::new(env!("CARGO_BIN_EXE_bench-suite")).args(&sweep).stdout(full).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.path().join("sweep").exists());
}

/// A sweep of one tree into `dir`.
fn small_sweep(dir: &Path) -> Vec<String> {
    let args = ["sweep", "--models", "iid", "--b", "2", "--d", "2", "--seeds", "0", "--out"];
    args.iter().map(|a| a.to_string()).chain([dir.display().to_string()]).collect()
}

/// Every command with `--out FILE`, writing to `target`.
fn writing_to(target: &Path) -> Vec<Vec<String>> {
    COMMANDS
        .iter()
        .map(|args| args.iter().map(|a| a.to_string()).chain(["--out".into(), target.display().to_string()]).collect())
        .collect()
}

/// A stream cannot be replaced and is written into, as every Unix tool does: a named pipe gets what `--out -`
/// prints, `/dev/null` swallows it, `/dev/stdout` carries it beside the table; no checkpoint or sidecar is left
/// beside any of them. A socket (which cannot be opened) is refused and left alone.
#[test]
fn streams_are_written_into_and_sockets_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for (args, command) in writing_to(&fifo).into_iter().zip(COMMANDS) {
        let reading = fifo.clone();
        let reader = std::thread::spawn(move || std::fs::read_to_string(reading).unwrap());
        bench().args(&args).assert().success();
        assert_eq!(reader.join().unwrap(), csv(command), "{args:?}");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "{args:?} replaced the pipe");
    }
    for args in writing_to(Path::new("/dev/null")) {
        bench().args(&args).assert().success();
    }
    let out = bench().args(["count", "--game", "tictactoe", "--out", "/dev/stdout"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success() && text.contains(&csv(COMMANDS[3])) && text.contains("| games"), "{text}");
    // Standard output redirected to a file, named directly or through a link: the CSV and the table both kept
    // (opened again by name, the file was written at another offset and the table overwrote the CSV).
    let to_stdout = dir.path().join("to-stdout");
    std::os::unix::fs::symlink("/dev/stdout", &to_stdout).unwrap();
    for target in [Path::new("/dev/stdout"), to_stdout.as_path()] {
        let redirected = dir.path().join("redirected");
        let file = std::fs::File::create(&redirected).unwrap();
        let args = ["count", "--game", "tictactoe", "--out", target.to_str().unwrap()];
        let ran = Command::new(env!("CARGO_BIN_EXE_bench-suite")).args(args).stdout(file).status().unwrap();
        assert!(ran.success(), "{target:?}");
        let text = std::fs::read_to_string(&redirected).unwrap();
        assert!(text.contains(&csv(COMMANDS[3])) && text.contains("| games"), "{target:?}: {text}");
        std::fs::remove_file(&redirected).unwrap();
    }
    std::fs::remove_file(&to_stdout).unwrap();
    // A match and a set of positions keep no checkpoint beside a stream, and nothing is left in the directory.
    let set = dir.path().join("set");
    std::fs::write(&set, "1223 0\n").unwrap();
    let fifo_arg = fifo.to_str().unwrap();
    for args in [
        vec!["solve", "--game", "connect4", "--width", "4", "--height", "4", "--set", set.to_str().unwrap()],
        vec!["match", "--game", "tictactoe", "--players", "random,random", "--games", "2"],
    ] {
        let reading = fifo.clone();
        let reader = std::thread::spawn(move || std::fs::read_to_string(reading).unwrap());
        bench().args(&args).args(["--out", fifo_arg]).assert().success();
        assert!(reader.join().unwrap().lines().count() > 1, "{args:?}");
    }
    let mut left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    left.sort();
    assert_eq!(left, ["fifo", "set"], "a checkpoint or sidecar beside a stream");
    let socket = dir.path().join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    for args in writing_to(&socket) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(
            &args,
            "is neither a regular file nor a stream (a block device or a socket): refusing to write over it",
        );
        assert!(std::fs::symlink_metadata(&socket).unwrap().file_type().is_socket(), "{args:?} replaced the socket");
    }
    // A directory where a file is wanted: said once.
    for args in writing_to(dir.path()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, "is a directory; give a file to write");
    }
    // A directory where one is wanted, but a file is there.
    let file = dir.path().join("file");
    std::fs::write(&file, "kept\n").unwrap();
    let file_arg = file.to_str().unwrap();
    refused(&["sweep", "--b", "2", "--d", "2", "--seeds", "0", "--out", file_arg], "is not a directory");
    refused(&["merge", "--out", file_arg, "a", "b"], "is not a directory");
    refused(&["merge", "--out", "-", "a", "b"], "merge --out takes a directory, not -");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept\n");
}

#[test]
fn a_symbolic_link_is_written_through_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.csv");
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("target.csv", &link).unwrap();
    for (args, command) in writing_to(&link).into_iter().zip(COMMANDS) {
        std::fs::write(&target, "old\n").unwrap();
        bench().args(&args).assert().success();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "{args:?} replaced the link");
        // The target holds what `--out -` prints.
        assert_eq!(std::fs::read_to_string(&target).unwrap(), csv(command), "{args:?}");
    }
    // A dangling link: its target is created.
    std::fs::remove_file(&target).unwrap();
    bench().args(["count", "--game", "tictactoe", "--out", link.to_str().unwrap()]).assert().success();
    assert!(std::fs::read_to_string(&target).unwrap().starts_with("games,"));
}

#[test]
fn a_missing_directory_is_an_error_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    for args in writing_to(&missing.join("x.csv")) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, &format!("the directory {} does not exist", missing.display()));
    }
    let nested = missing.join("sweep");
    refused(
        &["sweep", "--out", nested.to_str().unwrap()],
        &format!("the directory {} does not exist", missing.display()),
    );
    refused(&["merge", "--out", nested.to_str().unwrap(), "a", "b"], "does not exist");
    // A refused sweep leaves no directory either; an accepted one creates its own (not its parents).
    let own = dir.path().join("own");
    refused(&["sweep", "--orderings", "static", "--models", "iid", "--out", own.to_str().unwrap()], "static");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "a refused run left something");
    bench().args(["sweep", "--b", "2", "--d", "2", "--seeds", "0", "--out", own.to_str().unwrap()]).assert().success();
    assert!(own.join("sweep.csv").is_file());
}
