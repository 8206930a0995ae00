//! The Python package's own tests (`crates/python/tests/*.py`, pytest), run by `cargo test`: so the README's
//! one test command runs every test the project has. The package is built and installed as a user installs it,
//! `pip install ./crates/python`, into a virtual environment under `target/python/` (kept between runs), with
//! maturin, pytest and NumPy fetched from PyPI the first time — but in the tests' own profile and target directory, so
//! that the wheel reuses what `cargo test` has just compiled (a release build of the whole tree, the network
//! crate's dependencies included, would cost more than every other test together); a user's install builds the
//! release profile.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `command`, failing the test with its output if it fails.
fn run(what: &str, command: &mut Command) {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_python_package_passes_its_tests() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    // This test runs from TARGET/debug/deps/.
    let exe = std::env::current_exe().expect("the test's own path");
    let workspace_target = exe.ancestors().nth(3).expect("the test runs from TARGET/PROFILE/deps").to_path_buf();
    let target = workspace_target.join("python");
    std::fs::create_dir_all(&target).unwrap();
    let venv: PathBuf = target.join("venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        run("python3 -m venv", Command::new("python3").args(["-m", "venv"]).arg(&venv));
    }
    // pytest runs the tests; NumPy is the package's one dependency (its arrays: masks, observations).
    let present = Command::new(&python).args(["-c", "import pytest, numpy"]).output().is_ok_and(|o| o.status.success());
    if !present {
        run("pip install pytest numpy", Command::new(&python).args(["-m", "pip", "install", "-q", "pytest", "numpy"]));
        // OpenSpiel, for the rules side by side, where a wheel installs: its tests are skipped, saying so, without.
        let spiel = Command::new(&python).args(["-m", "pip", "install", "-q", "open_spiel"]).output();
        if !spiel.is_ok_and(|out| out.status.success()) {
            eprintln!("open_spiel did not install: the tests against OpenSpiel are skipped");
        }
    }
    // `cargo test` holds the target directory's lock while it builds, not while the tests run.
    run(
        "pip install ./crates/python",
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--force-reinstall", "--no-deps"])
            .arg(package)
            .env("CARGO_TARGET_DIR", &workspace_target)
            .env("MATURIN_PEP517_ARGS", "--profile dev"),
    );
    // pytest's own report (a dot a test, then its summary) goes straight to the terminal, past the test
    // harness's capture, so that `cargo test` shows the Python tests' count and names a failing one.
    let status = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(package.join("tests"))
        .status()
        .unwrap_or_else(|e| panic!("pytest: cannot start: {e}"));
    assert!(status.success(), "pytest failed: its report is above");
}
