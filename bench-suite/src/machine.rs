//! What a result was made with: the machine, the build and the arguments, written beside result files.

use anyhow::Result;
use serde::Serialize;
use std::path::{Path, PathBuf};
use sysinfo::{CpuRefreshKind, MemoryRefreshKind, RefreshKind, System};

/// Facts about the run, written as `<file stem>.meta.json` beside a result file.
#[derive(Debug, Serialize)]
pub struct Sidecar {
    /// The command line, as given.
    pub arguments: Vec<String>,
    /// The version of bench-suite.
    pub version: &'static str,
    /// The git revision it was built from, `-dirty` if the checkout has changes (see [`revision`]).
    pub git_revision: String,
    /// Whether it was an optimised build.
    pub release_build: bool,
    /// Logical cores available.
    pub cores: usize,
    /// The processor's model name, if the system says.
    pub cpu: Option<String>,
    /// Physical memory in GiB, if the system says.
    pub memory_gib: Option<f64>,
    /// When the run finished (UTC, RFC 3339).
    pub date: String,
}

impl Sidecar {
    /// The facts of this run.
    pub fn now() -> Sidecar {
        let (cpu, memory) = system();
        Sidecar {
            arguments: std::env::args().collect(),
            version: env!("CARGO_PKG_VERSION"),
            git_revision: revision(env!("KHELA_GIT_REVISION"), &checkout()),
            release_build: !cfg!(debug_assertions),
            cores: cores(),
            cpu,
            memory_gib: memory.map(|b| (b as f64 / (1u64 << 30) as f64 * 10.0).round() / 10.0),
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        }
    }

    /// The sidecar's path for a result file: `results/count.csv` → `results/count.meta.json`.
    pub fn path_for(result: &Path) -> PathBuf {
        result.with_extension("meta.json")
    }

    /// Writes the facts, with `extra` (command-specific figures) under the key `figures`, atomically; nothing
    /// for a result written into a stream (`/dev/null`, a pipe), which has no place beside it.
    pub fn write(&self, result: &Path, extra: &impl Serialize) -> Result<()> {
        if crate::output::is_stream(result) {
            return Ok(());
        }
        #[derive(Serialize)]
        struct WithFigures<'a, T> {
            #[serde(flatten)]
            facts: &'a Sidecar,
            figures: &'a T,
        }
        let json = serde_json::to_string_pretty(&WithFigures { facts: self, figures: extra })?;
        crate::output::write_atomically(&Sidecar::path_for(result), (json + "\n").as_bytes())
    }

    /// One line for humans: cores, processor, memory.
    pub fn summary(&self) -> String {
        format!(
            "{} cores, {}, {} GiB",
            self.cores,
            self.cpu.as_deref().unwrap_or("unknown processor"),
            self.memory_gib.map_or("unknown".to_string(), |g| g.to_string())
        )
    }
}

/// The checkout the binary was built in: the workspace root, the parent of this crate's directory.
fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The revision `built` (the binary's, from the build script), with `-dirty` when the checkout at `root` has
/// changes to tracked files outside `results/` now. The results are what runs write, not what they were made
/// from: the default sweep rewrites `results/sweep.meta.json` every time, and that must not mark the next run's
/// build as changed. Best effort: as built when git or the checkout is not there (a binary copied elsewhere).
pub fn revision(built: &str, root: &Path) -> String {
    let status = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)results"])
        .output();
    match status {
        Ok(out) if out.status.success() && !out.stdout.is_empty() => format!("{built}-dirty"),
        _ => built.to_string(),
    }
}

/// Logical cores available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The processor's model name and the physical memory in bytes, as the system reports them.
fn system() -> (Option<String>, Option<u64>) {
    let refresh =
        RefreshKind::nothing().with_cpu(CpuRefreshKind::nothing()).with_memory(MemoryRefreshKind::nothing().with_ram());
    let Ok(system) = System::new_with_specifics(refresh) else { return (None, None) };
    let cpu = system.cpus().first().map(|cpu| cpu.brand().trim().to_string()).filter(|brand| !brand.is_empty());
    let memory = Some(system.total_memory()).filter(|&bytes| bytes > 0);
    (cpu, memory)
}

/// Physical memory in bytes, if the system says.
pub fn memory_bytes() -> Option<u64> {
    system().1
}

/// The most memory this process has held at once (its peak resident set), in bytes, where the system says
/// (Linux: `VmHWM` in `/proc/self/status`).
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// Runs git in `dir`, which must succeed.
    fn git(dir: &Path, args: &[&str]) {
        let out = Command::new("git").arg("-C").arg(dir).args(args).output().expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// A change under `results/` leaves the revision clean; a change to a tracked file elsewhere marks it
    /// dirty; outside a checkout the revision is the built one.
    #[test]
    fn results_do_not_make_the_revision_dirty() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::create_dir(root.join("results")).unwrap();
        std::fs::write(root.join("results/sweep.meta.json"), "{}\n").unwrap();
        std::fs::write(root.join("lib.rs"), "// code\n").unwrap();
        git(root, &["add", "."]);
        git(root, &["-c", "user.name=k", "-c", "user.email=k@example.invalid", "commit", "-q", "-m", "start"]);
        assert_eq!(revision("abc", root), "abc");
        std::fs::write(root.join("results/sweep.meta.json"), "{\"date\": 1}\n").unwrap();
        std::fs::write(root.join("untracked.txt"), "new\n").unwrap();
        assert_eq!(revision("abc", root), "abc");
        std::fs::write(root.join("lib.rs"), "// changed\n").unwrap();
        assert_eq!(revision("abc", root), "abc-dirty");
        assert_eq!(revision("abc", &root.join("no-such-directory")), "abc");
    }
}
