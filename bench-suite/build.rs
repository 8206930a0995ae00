//! Records the git revision the binary is built from, for the sidecars that say how results were made. Whether
//! the checkout has changes is asked when a sidecar is written (`machine::revision`), not here: that would have
//! to rerun on every change of git's index, which `git status` alone touches, and rebuild the harness each time.

use std::path::Path;
use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let revision = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=KHELA_GIT_REVISION={revision}");
    // The revision changes when HEAD moves to another branch or commit: watch HEAD, the branch it names and the
    // packed refs (each only if it exists: cargo reruns a build script every time for a file that does not).
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]).filter(|path| Path::new(path).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
