//! Files written whole or not at all: a file is written to a temporary file beside it and renamed over it, so
//! that readers never see a partial file and a failed run leaves none behind; and only where a file may be
//! written (no directory, device or pipe replaced, no missing directory created).

use anyhow::{Context, Result, bail};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to a temporary file in the directory of `path` (of its target, for a symbolic link), then
/// renames it over the file: readers never see a partial file, and a failed run leaves none behind.
///
/// # Errors
///
/// Refuses a `path` that is a directory, a device, a pipe or a socket, a link to nothing, and one whose
/// directory does not exist (a typo must not create directory trees); and any failure to write, naming the path.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_parts_atomically(path, &[bytes])
}

/// [`write_atomically`] for a file made of several parts, one after the other (a header and a large body),
/// without joining them in memory first.
///
/// # Errors
///
/// As [`write_atomically`].
pub fn write_parts_atomically(path: &Path, parts: &[&[u8]]) -> Result<()> {
    let target = writable(path)?;
    let dir = parent(&target);
    let mut temp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write {}: no temporary file in {}", path.display(), dir.display()))?;
    for bytes in parts {
        temp.write_all(bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    // A temporary file is private (0600); a result file is for everyone to read, as a plain create makes it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    temp.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(&target).map_err(|e| e.error).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The file to write for `path`: the path itself if it is a regular file or nothing yet, the target of a
/// symbolic link (which must be a regular file or nothing in an existing directory); anything else is refused,
/// and so is `-`, which names standard output (a command's `--out` takes it before it asks for a file).
pub fn writable(path: &Path) -> Result<PathBuf> {
    if path == Path::new("-") {
        bail!("- stands for standard output, which only --out writes to; give a file's path");
    }
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let link = std::fs::read_link(path).with_context(|| format!("cannot read the link {}", path.display()))?;
            let target = if link.is_absolute() { link } else { parent(path).join(link) };
            return match std::fs::symlink_metadata(&target) {
                Ok(meta) if meta.file_type().is_symlink() => writable(&target),
                Ok(meta) if meta.is_file() => Ok(target),
                Ok(_) => bail!(
                    "{} is a link to {}, which is not a regular file: refusing to replace it",
                    path.display(),
                    target.display()
                ),
                Err(err) if err.kind() == ErrorKind::NotFound => {
                    in_existing_directory(path, &target)?;
                    Ok(target)
                }
                Err(err) => Err(err).with_context(|| format!("cannot write {}", path.display())),
            };
        }
        Ok(meta) if meta.is_dir() => bail!("{} is a directory; give a file to write", path.display()),
        Ok(meta) if !meta.is_file() => {
            bail!(
                "{} exists and is not a regular file (a device, a pipe or a socket): refusing to replace it",
                path.display()
            )
        }
        Ok(_) => path.to_path_buf(),
        Err(err) if err.kind() == ErrorKind::NotFound => path.to_path_buf(),
        Err(err) => return Err(err).with_context(|| format!("cannot write {}", path.display())),
    };
    in_existing_directory(path, &target)?;
    Ok(target)
}

/// Refuses `target` (where `path` is written) if its directory does not exist.
pub fn in_existing_directory(path: &Path, target: &Path) -> Result<()> {
    let dir = parent(target);
    if !dir.is_dir() {
        bail!("cannot write {}: the directory {} does not exist", path.display(), dir.display());
    }
    Ok(())
}

/// The directory of a path (`.` for a bare file name).
pub fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}
