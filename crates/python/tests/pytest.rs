//! The Python package's own tests (`crates/python/tests/*.py`, pytest), run by `cargo test`: so the README's
//! one test command runs every test the project has. The package is built and installed as a user installs it,
//! `pip install ./crates/python`, into a virtual environment under `target/python/` (kept between runs, the
//! build incremental), with maturin and pytest fetched from PyPI the first time.

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
    let target = package.join("../../target/python");
    std::fs::create_dir_all(&target).unwrap();
    let venv: PathBuf = target.join("venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        run("python3 -m venv", Command::new("python3").args(["-m", "venv"]).arg(&venv));
        run("pip install pytest", Command::new(&python).args(["-m", "pip", "install", "-q", "pytest"]));
    }
    // The wheel's own build tree, apart from the workspace's (whose lock the running `cargo test` may hold).
    run(
        "pip install ./crates/python",
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--force-reinstall", "--no-deps"])
            .arg(package)
            .env("CARGO_TARGET_DIR", target.join("build")),
    );
    run("pytest", Command::new(&python).args(["-m", "pytest", "-q"]).arg(package.join("tests")));
}
