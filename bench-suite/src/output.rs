//! Where results go: a human-readable table on stdout, CSV to a file (written whole or not at all), or CSV on
//! stdout — the one output layer every command writes through.

use anyhow::{Context, Result};
use clap::Args;
use comfy_table::{Table, presets};
use khela_games::Value;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where CSV goes: the `--out` option every command that writes rows takes.
#[derive(Debug, Args)]
pub struct OutArg {
    /// Write the CSV to this file as well as printing the table; `-` writes the CSV to stdout instead of the
    /// table. Files are written whole or not at all (a temporary file, then a rename).
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
    /// The sink `--out` asks for; `default` is the file a command writes when `--out` is absent.
    pub fn new(out: &OutArg, default: Option<&Path>) -> Sink {
        match out.out.as_deref().or(default) {
            None => Sink::Table,
            Some(path) if path == Path::new("-") => Sink::Stdout,
            Some(path) => Sink::TableAndFile(path.to_path_buf()),
        }
    }

    /// Writes the rows as CSV to the file or stdout, and prints `table` unless the CSV went to stdout.
    pub fn emit<R: Serialize>(&self, rows: &[R], table: impl FnOnce() -> String) -> Result<()> {
        match self {
            Sink::Stdout => {
                let mut writer = csv::Writer::from_writer(std::io::stdout().lock());
                for row in rows {
                    writer.serialize(row)?;
                }
                writer.flush()?;
            }
            Sink::Table => println!("{}", table()),
            Sink::TableAndFile(path) => {
                write_csv_atomically(path, rows)?;
                println!("{}", table());
                println!("wrote {}", path.display());
            }
        }
        Ok(())
    }
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

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: readers never see a partial
/// file, and a failed run leaves none behind. Missing parent directories are created.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create directory {}", dir.display()))?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write {}: no temporary file in {}", path.display(), dir.display()))?;
    temp.write_all(bytes).with_context(|| format!("cannot write {}", path.display()))?;
    // A temporary file is private (0600); a result file is for everyone to read, as a plain create makes it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    temp.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// A value as the tables print it: integers without a decimal point (`26`, not `26.0`), others as Rust prints
/// them in full (`3.5`), and never `-0`.
pub fn value(v: Value) -> String {
    format!("{}", v + 0.0)
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

    #[test]
    fn atomic_write_leaves_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/out.csv");
        #[derive(Serialize)]
        struct Row {
            a: u32,
        }
        write_csv_atomically(&path, &[Row { a: 1 }, Row { a: 2 }]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\n1\n2\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
        }
        assert_eq!(std::fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    }
}
