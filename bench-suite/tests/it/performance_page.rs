//! The book's performance page against the recorded results.

use std::path::Path;
use std::process::Command;

/// Guards `docs/src/performance.md`, the page that `scripts/performance.py` generates from the CSV files in
/// `results/` and their `.meta.json` sidecars: it fails when the committed page is not what the script renders
/// from them now — a figure recorded again without the page regenerated, or the page edited by hand. The fix is
/// `python3 scripts/performance.py`, then committing the page with the results.
#[test]
fn performance_page_matches_the_results() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new("python3")
        .args(["scripts/performance.py", "--check"])
        .current_dir(&root)
        .output()
        .expect("python3 runs (the performance page is checked by scripts/performance.py)");
    assert!(
        out.status.success(),
        "docs/src/performance.md does not match results/ (exit {:?}):\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}
