//! Helpers of the end-to-end tests that run `bench-suite` and check what it prints.

use assert_cmd::Command;

/// The `bench-suite` binary, ready for arguments.
pub fn bench() -> Command {
    Command::cargo_bin("bench-suite").expect("the bench-suite binary is built")
}

/// Runs the command with `--out -` and returns its CSV.
pub fn csv(args: &[&str]) -> String {
    let out = bench().args(args).args(["--out", "-"]).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the command, expects exit status 2 with a one-line error containing `expected`, and no panic.
pub fn refused(args: &[&str], expected: &str) {
    let out = bench().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed {}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(stderr.lines().count(), 1, "{args:?}: not one line: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr:?} lacks {expected:?}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}
