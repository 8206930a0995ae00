//! Where results go: a human-readable table on stdout, CSV to a file (written whole or not at all), or CSV on
//! stdout — the one output layer every command writes through.
//!
//! Nothing here panics on a failed write: text for people goes through [`say`], which turns a failure into an
//! error (a full disk is one line, `error: cannot write to stdout: …`, and exit status 2), and a stdout whose
//! reader has gone (`| head`) into [`is_closed_pipe`], which `main` ends quietly on. Files go through
//! [`write_atomically`], which writes only where a file may be: over a regular file or none, through a symbolic
//! link to its target, never over a device, a pipe or a directory, and never into a directory that does not
//! exist.

use anyhow::{Context, Result, bail};
use clap::Args;
use comfy_table::{Table, presets};
use khela_games::Value;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Display;
use std::io::{ErrorKind, Write};

pub use khela_files::{in_existing_directory, is_stream, parent, writable, write_atomically};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Where CSV goes: the `--out` option every command that writes rows takes.
#[derive(Debug, Args)]
pub struct OutArg {
    /// Write the CSV to this file as well as printing the table; `-` writes the CSV to stdout instead of the
    /// table. Files are written whole or not at all (a temporary file, then a rename); a symbolic link is
    /// written through, to its target; a stream (`/dev/null`, a named pipe, `/dev/stdout`) is written into;
    /// directories, block devices and sockets are refused, and so is a directory that does not exist.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}

/// What a command does with its rows.
#[derive(Debug)]
pub enum Sink {
    /// Print the table only.
    Table,
    /// Print the table and write the CSV to a file.
    TableAndFile(PathBuf),
    /// Write the CSV to stdout, no table.
    Stdout,
}

impl Sink {
    /// The sink `--out` asks for; `default` is the file a command writes when `--out` is absent (its directory
    /// is created if need be, as the command's own, but not the directories above it).
    ///
    /// # Errors
    ///
    /// A file that may not be written (see [`writable`]): refused here, before the command's work.
    pub fn new(out: &OutArg, default: Option<&Path>) -> Result<Sink> {
        Ok(match (&out.out, default) {
            (None, None) => Sink::Table,
            (Some(path), _) if path == Path::new("-") => Sink::Stdout,
            (Some(path), _) => {
                writable(path)?;
                Sink::TableAndFile(path.clone())
            }
            (None, Some(path)) => {
                OutputDir::check(parent(path), "the default")?.create()?;
                writable(path)?;
                Sink::TableAndFile(path.to_path_buf())
            }
        })
    }

    /// The file a checkpoint of this run is kept beside: the CSV file, unless it is a stream (`/dev/null`, a
    /// pipe), which has no place beside it and nothing to resume.
    pub fn kept_beside(&self) -> Option<&Path> {
        match self {
            Sink::TableAndFile(path) if !is_stream(path) => Some(path),
            _ => None,
        }
    }

    /// Writes the rows as CSV to the file or stdout, and prints `table` unless the CSV went to stdout.
    pub fn emit<R: Serialize>(&self, rows: &[R], table: impl FnOnce() -> String) -> Result<()> {
        match self {
            Sink::Stdout => {
                let mut writer = csv::Writer::from_writer(std::io::stdout().lock());
                for row in rows {
                    writer.serialize(row).context("cannot write to stdout")?;
                }
                writer.flush().context("cannot write to stdout")?;
            }
            Sink::Table => say(table())?,
            Sink::TableAndFile(path) => {
                write_csv_atomically(path, rows)?;
                say(table())?;
                say(format!("wrote {}", path.display()))?;
            }
        }
        Ok(())
    }
}

/// Results that disagree with the truth they were checked against (a benchmark file's scores): the input was
/// good, the answer was not, so `main` ends with exit status 1 rather than 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Disagreed(pub String);

/// Whether text for people is left unprinted: the commands run for a front end ([`crate::run`]).
static QUIET: AtomicBool = AtomicBool::new(false);

/// From now on [`say`] prints nothing (the front end reads the commands' CSV files).
pub fn be_quiet() {
    QUIET.store(true, Ordering::Relaxed);
}

/// Prints `text` and a newline on stdout, and flushes it (nothing after [`be_quiet`]).
///
/// # Errors
///
/// `cannot write to stdout` with the system's reason (a full disk, a closed pipe: see [`is_closed_pipe`]).
pub fn say(text: impl Display) -> Result<()> {
    if QUIET.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").and_then(|()| out.flush()).context("cannot write to stdout")
}

/// Prints `text` on stdout without a newline (a prompt), and flushes it.
///
/// # Errors
///
/// As [`say`].
pub fn prompt(text: impl Display) -> Result<()> {
    let mut out = std::io::stdout().lock();
    write!(out, "{text}").and_then(|()| out.flush()).context("cannot write to stdout")
}

/// Whether `err` comes from writing to a pipe whose reader has gone (`bench-suite … | head -1`): not a failure
/// of the command, which has nobody left to tell.
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == ErrorKind::BrokenPipe))
}

/// Writes `rows` as CSV to `path`, whole or not at all (see [`write_atomically`]).
pub fn write_csv_atomically<R: Serialize>(path: &Path, rows: &[R]) -> Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    let bytes = writer.into_inner().map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error()))?;
    write_atomically(path, &bytes)
}

/// A directory a command writes its files into, checked before the command's work ([`OutputDir::check`]) and
/// created, when it does not exist, only once there is something to write ([`OutputDir::create`]): a refused
/// or failed run leaves no empty directory behind.
pub struct OutputDir<'a>(&'a Path);

impl<'a> OutputDir<'a> {
    /// Checks `dir` as `command`'s `--out`: `-` (stdout) and an existing file are refused, and a directory that
    /// does not exist must be in one that does (it may be created, but not its parents: a typo must not create
    /// directory trees).
    pub fn check(dir: &'a Path, command: &str) -> Result<OutputDir<'a>> {
        if dir == Path::new("-") {
            bail!("{command} --out takes a directory, not - (it writes several files there)");
        }
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => bail!("--out {} is not a directory", dir.display()),
            Err(err) if err.kind() == ErrorKind::NotFound => in_existing_directory(dir, dir)?,
            Err(err) => return Err(err).with_context(|| format!("cannot use --out {}", dir.display())),
        }
        Ok(OutputDir(dir))
    }

    /// Creates the directory if it does not exist yet.
    pub fn create(&self) -> Result<()> {
        match std::fs::create_dir(self.0) {
            Err(err) if err.kind() != ErrorKind::AlreadyExists => {
                Err(err).with_context(|| format!("cannot create the directory {}", self.0.display()))
            }
            _ => Ok(()),
        }
    }
}

/// Whose view a value is from, by the player's name: `X's view`, `goats' view`.
pub fn view_of(name: &str) -> String {
    if name.ends_with('s') { format!("{name}' view") } else { format!("{name}'s view") }
}

/// `text` quoted for an error message, cut short past 60 characters (with its length), so that a line of a
/// hundred thousand characters is not echoed whole.
pub fn quoted(text: &str) -> String {
    const SHOWN: usize = 40;
    let length = text.chars().count();
    if length <= 60 {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{:?}… ({} characters)", head, indicatif::HumanCount(length as u64))
}

/// A value as the tables print it: integers without a decimal point (`26`, not `26.0`), others as Rust prints
/// them in full (`3.5`), and never `-0`.
pub fn value(v: Value) -> String {
    format!("{}", v + 0.0)
}

/// A row of a report written as CSV `metric,value` (`prove`, `solve --game pig`, `zero eval`).
#[derive(Serialize)]
pub struct Metric {
    metric: Cow<'static, str>,
    value: String,
}

impl Metric {
    /// The row of `metric`, `value` as it displays.
    pub fn new(metric: impl Into<Cow<'static, str>>, value: impl ToString) -> Metric {
        Metric { metric: metric.into(), value: value.to_string() }
    }

    /// The row of a share in [0, 1], to 4 decimals.
    pub fn share(metric: impl Into<Cow<'static, str>>, share: f64) -> Metric {
        Metric::new(metric, format!("{share:.4}"))
    }

    /// What is measured.
    pub fn name(&self) -> &str {
        &self.metric
    }

    /// The measurement, as it displays.
    pub fn value(&self) -> &str {
        &self.value
    }
}

/// The rows of a report as a two-column table, `metric` and `value`.
pub fn metric_table(rows: &[Metric]) -> Table {
    let mut table = table(&["metric", "value"]);
    for row in rows {
        table.add_row(vec![&*row.metric, &row.value]);
    }
    table
}

/// A table with khela's look (Markdown-style, so it can be pasted into notes) and the given header.
pub fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_preset(presets::ASCII_MARKDOWN).set_header(header.iter().copied());
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_quoted_cut_short() {
        assert_eq!(quoted("4453"), "\"4453\"");
        assert_eq!(quoted(&"4".repeat(100_000)), format!("{:?}… (100,000 characters)", "4".repeat(40)));
    }

    #[test]
    fn values_print_like_the_textbook() {
        assert_eq!(value(26.0), "26");
        assert_eq!(value(-0.0), "0");
        assert_eq!(value(3.5), "3.5");
        assert_eq!(value(-1.0), "-1");
    }

    #[test]
    fn counts_print_with_thousands_separators() {
        // The tables print counts with indicatif's HumanCount; these are the separators they rely on.
        let count = |n: u64| indicatif::HumanCount(n).to_string();
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(549_946), "549,946");
        assert_eq!(count(1_844_590_828), "1,844,590,828");
    }

    #[derive(Serialize)]
    struct Row {
        a: u32,
    }

    #[test]
    fn atomic_writes_leave_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        write_csv_atomically(&path, &[Row { a: 1 }, Row { a: 2 }]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\n1\n2\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn regular_files_and_streams_are_written_and_links_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let err = |path: &Path| write_atomically(path, b"x").unwrap_err().to_string();
        // A missing directory is named, not created.
        let missing = dir.path().join("nowhere/out.csv");
        assert!(err(&missing).contains("the directory") && err(&missing).contains("does not exist"));
        assert!(!dir.path().join("nowhere").exists());
        // A directory is refused once, plainly.
        assert_eq!(err(dir.path()), format!("{} is a directory; give a file to write", dir.path().display()));
        // A stream is written into; a socket is refused, and left alone.
        write_atomically(Path::new("/dev/null"), b"x").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            let socket = dir.path().join("socket");
            let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
            assert!(err(&socket).contains("is neither a regular file nor a stream"));
            assert!(std::fs::symlink_metadata(&socket).unwrap().file_type().is_socket());
        }
        #[cfg(unix)]
        {
            // A link is written through: the link stays, its target gets the bytes.
            let target = dir.path().join("target.csv");
            std::fs::write(&target, "old").unwrap();
            let link = dir.path().join("link.csv");
            std::os::unix::fs::symlink(&target, &link).unwrap();
            write_atomically(&link, b"new").unwrap();
            assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
            // A link to a stream is written through; one to a socket is refused.
            let device = dir.path().join("device.csv");
            std::os::unix::fs::symlink("/dev/null", &device).unwrap();
            write_atomically(&device, b"x").unwrap();
            assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_symlink());
            let to_socket = dir.path().join("to-socket.csv");
            std::os::unix::fs::symlink(dir.path().join("socket"), &to_socket).unwrap();
            assert!(err(&to_socket).contains("which is neither a regular file nor a stream"));
        }
    }

    #[test]
    fn output_directories_are_created_but_not_their_parents() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new");
        let checked = OutputDir::check(&new, "sweep").unwrap();
        assert!(!new.exists(), "checking creates nothing");
        checked.create().unwrap();
        assert!(new.is_dir());
        OutputDir::check(&new, "sweep").unwrap().create().unwrap();
        let deep = dir.path().join("a/b");
        assert!(OutputDir::check(&deep, "sweep").err().unwrap().to_string().contains("does not exist"));
        assert!(!dir.path().join("a").exists());
        assert!(OutputDir::check(Path::new("-"), "merge").err().unwrap().to_string().contains("not -"));
    }
}
