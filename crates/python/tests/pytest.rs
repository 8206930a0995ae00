//! The Python package's own tests (`crates/python/tests/*.py`, pytest), run by `cargo test`: so the README's
//! one test command runs every test the project has. The package is built as a wheel, as `pip wheel
//! ./crates/python` builds it (abi3: one wheel for every CPython from 3.9), then installed into a virtual
//! environment under `target/python/` (kept between runs) with no Rust toolchain on the PATH, and the tests run
//! there without one too: the wheel is what a user without Rust installs. maturin, pytest, NumPy, mypy and the
//! environments' pettingzoo and gymnasium are fetched from PyPI the first time. Two wheels are tested: the
//! default one (`pip install ./crates/python`: no harness commands on the games, no networks) and the full build
//! (the feature `full`). They are built in the tests' own profile and target directory, so that they reuse most of
//! what `cargo test` has just compiled (a release build of the whole tree would cost more than every other test
//! together): the workspace's crates are built with the same features for the full wheel, but the crates whose
//! features the tests' dev-dependencies widen (hyper's client for the browser tests, syn's `fold`) and those above
//! them are compiled again, and the default wheel's smaller set of features gives some dependencies a build of
//! their own. A user's install builds the release profile.

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
    // pytest runs the tests; NumPy is the package's one dependency (its arrays: masks, observations); mypy checks
    // its types; pettingzoo and gymnasium are its `envs` extra.
    let needed = ["pytest", "numpy", "mypy", "pettingzoo", "gymnasium"];
    let import = format!("import {}", needed.join(", "));
    let present = Command::new(&python).args(["-c", &import]).output().is_ok_and(|o| o.status.success());
    if !present {
        run("pip install the tests' packages", Command::new(&python).args(["-m", "pip", "install", "-q"]).args(needed));
        // OpenSpiel, for the rules side by side, where a wheel installs: its tests are skipped, saying so, without.
        let spiel = Command::new(&python).args(["-m", "pip", "install", "-q", "open_spiel"]).output();
        if !spiel.is_ok_and(|out| out.status.success()) {
            eprintln!("open_spiel did not install: the tests against OpenSpiel are skipped");
        }
    }
    let shims = target.join("no-rust");
    let bare = without_rust(&std::env::var_os("PATH").unwrap_or_default(), &shims);
    // The default wheel, as `pip install ./crates/python` builds it: the tests of what it leaves out (the games'
    // commands, networks) are skipped, saying so; every other test runs against it.
    let default = wheel(&python, package, &workspace_target, &[]);
    test(&python, package, &default, &bare, &shims, "");
    // The full build, whose crates `cargo test` has mostly compiled already: every test runs.
    let full = wheel(&python, package, &workspace_target, &["--features", "full"]);
    test(&python, package, &full, &bare, &shims, "commands,networks");
}

/// The wheel `pip wheel ./crates/python` builds with maturin's `extra` arguments, in the tests' own profile and
/// target directory; it must be abi3, one wheel for every CPython from 3.9.
fn wheel(python: &Path, package: &Path, workspace_target: &Path, extra: &[&str]) -> PathBuf {
    // `cargo test` holds the target directory's lock while it builds, not while the tests run.
    let wheels = workspace_target.join("python").join("wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    run(
        &format!("pip wheel ./crates/python {}", extra.join(" ")),
        Command::new(python)
            .args(["-m", "pip", "wheel", "-q", "--no-deps", "-w"])
            .arg(&wheels)
            .arg(package)
            .env("CARGO_TARGET_DIR", workspace_target)
            .env(
                "MATURIN_PEP517_ARGS",
                ["--profile", "dev"].iter().chain(extra).copied().collect::<Vec<_>>().join(" "),
            ),
    );
    let wheel =
        std::fs::read_dir(&wheels).unwrap().map(|e| e.unwrap().path()).find(|p| p.extension() == Some("whl".as_ref()));
    let wheel = wheel.expect("pip wheel wrote a wheel");
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.contains("-cp39-abi3-"), "{name}: not an abi3 wheel for CPython 3.9 and later");
    wheel
}

/// Installs `wheel` where no Rust toolchain answers (`bare` the PATH, `shims` its failing tools) and runs the
/// package's tests against it, telling them the `features` (comma-separated) it was built with.
fn test(python: &Path, package: &Path, wheel: &Path, bare: &std::ffi::OsStr, shims: &Path, features: &str) {
    run(
        "pip install the wheel without Rust",
        Command::new(python)
            .args(["-m", "pip", "install", "-q", "--force-reinstall", "--no-deps"])
            .arg(wheel)
            .env("PATH", bare),
    );
    // pytest's own report (a dot a test, then its summary) goes straight to the terminal, past the test
    // harness's capture, so that `cargo test` shows the Python tests' count and names a failing one.
    let status = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs"])
        .arg(package.join("tests"))
        .env("PATH", bare)
        .env("KHELA_WITHOUT_RUST", shims)
        .env("KHELA_EXPECT_FEATURES", features)
        .status()
        .unwrap_or_else(|e| panic!("pytest: cannot start: {e}"));
    assert!(status.success(), "pytest of the wheel with features {features:?} failed: its report is above");
}

/// The tools of a Rust toolchain, which the PATH of the tests does not answer.
const RUST: [&str; 4] = ["cargo", "rustc", "rustup", "maturin"];

/// `path` (a PATH) on which no Rust toolchain answers, as on a machine without one: the directories that hold one
/// of [`RUST`] left out, except a system directory (one with `sh` too, as a distribution's `/usr/bin`), which
/// stays behind `shims`, a directory put first where each of those tools only fails, saying why.
fn without_rust(path: &std::ffi::OsStr, shims: &Path) -> std::ffi::OsString {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(shims).unwrap();
    for tool in RUST {
        let shim = shims.join(tool);
        std::fs::write(
            &shim,
            format!("#!/bin/sh\necho '{tool}: no Rust toolchain here (the Python tests)' >&2\nexit 127\n"),
        )
        .unwrap();
        std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let holds_rust = |dir: &Path| RUST.iter().any(|tool| dir.join(tool).exists());
    let kept = std::env::split_paths(path).filter(|dir| !holds_rust(dir) || dir.join("sh").exists());
    std::env::join_paths(std::iter::once(shims.to_path_buf()).chain(kept)).expect("the PATH's own directories join")
}
