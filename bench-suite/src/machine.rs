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
        let (cpu, memory) = system();
        Sidecar {
            arguments: std::env::args().collect(),
            version: env!("CARGO_PKG_VERSION"),
            git_revision: env!("KHELA_GIT_REVISION"),
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
