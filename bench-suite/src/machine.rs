//! What a result was made with: the machine, the build and the arguments, written beside result files.

use anyhow::Result;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Facts about the run, written as `<file stem>.meta.json` beside a result file.
#[derive(Debug, Serialize)]
pub struct Sidecar {
    /// The command line, as given.
    pub arguments: Vec<String>,
    /// The version of bench-suite.
    pub version: &'static str,
    /// The git revision it was built from (`-dirty` if the tree had changes).
    pub git_revision: &'static str,
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
        Sidecar {
            arguments: std::env::args().collect(),
            version: env!("CARGO_PKG_VERSION"),
            git_revision: env!("KHELA_GIT_REVISION"),
            release_build: !cfg!(debug_assertions),
            cores: cores(),
            cpu: cpu_model(),
            memory_gib: memory_bytes().map(|b| (b as f64 / (1u64 << 30) as f64 * 10.0).round() / 10.0),
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        }
    }

    /// The sidecar's path for a result file: `results/count.csv` → `results/count.meta.json`.
    pub fn path_for(result: &Path) -> PathBuf {
        result.with_extension("meta.json")
    }

    /// Writes the facts, with `extra` (command-specific figures) under the key `figures`, atomically.
    pub fn write(&self, result: &Path, extra: &impl Serialize) -> Result<()> {
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

/// Logical cores available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_string())
}

/// Physical memory in bytes, from /proc/meminfo (Linux); `None` elsewhere.
pub fn memory_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 =
        info.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}
