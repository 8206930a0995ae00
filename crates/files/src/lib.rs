//! Files written whole or not at all: a file is written to a temporary file beside it and renamed over it, so
//! that readers never see a partial file and a failed run leaves none behind; and only where a file may be
//! written (no directory, device or pipe replaced, no missing directory created). A stream — a character
//! device such as `/dev/null`, a named pipe, or standard output named `/dev/stdout` — cannot be replaced and is
//! written into in place, as every Unix tool does ([`is_stream`]).

use anyhow::{Context, Result, bail};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to a temporary file in the directory of `path` (of its target, for a symbolic link), then
/// renames it over the file: readers never see a partial file, and a failed run leaves none behind. A stream
/// ([`is_stream`], reached directly or through links) is written into in place: the process's standard output
/// and error through their own handles, anything else appended to.
///
/// # Errors
///
/// Refuses a `path` that is a directory, a block device or a socket, and one whose directory does not exist (a
/// typo must not create directory trees); and any failure to write, naming the path.
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
    if is_stream(&target) {
        let cannot = || format!("cannot write {}", path.display());
        // The process's own standard output and error are written through their handles: opened again by name,
        // a regular file they are redirected to would be written at another offset, and overwritten.
        let own = own_file(&target).map(|own| own.to_string_lossy().into_owned());
        let mut stream: Box<dyn Write> = match own.as_deref().unwrap_or_default() {
            "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1" => Box::new(std::io::stdout().lock()),
            "/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2" => Box::new(std::io::stderr().lock()),
            _ => Box::new(std::fs::OpenOptions::new().append(true).open(&target).with_context(cannot)?),
        };
        for bytes in parts {
            stream.write_all(bytes).with_context(cannot)?;
        }
        return stream.flush().with_context(cannot);
    }
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

/// Whether `path` is a stream, written into in place rather than replaced: a character device (`/dev/null`, a
/// terminal), a named pipe, or one of the process's own open files (`/dev/stdout`, `/dev/fd/N`,
/// `/proc/self/fd/N`), reached directly or through symbolic links.
pub fn is_stream(path: &Path) -> bool {
    if own_file(path).is_some() {
        return true;
    }
    #[cfg(unix)]
    let device = {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|meta| meta.file_type().is_char_device() || meta.file_type().is_fifo())
    };
    #[cfg(not(unix))]
    let device = false;
    device
}

/// The most symbolic links followed one after another, as the system follows them (Linux's limit).
const MAX_LINKS: usize = 40;

/// The name of one of the process's own open files (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`) that `path`
/// is, or reaches through symbolic links followed by name (not by what they point to in the end: a link to
/// `/dev/stdout` reaches, that way, the file standard output is redirected to).
fn own_file(path: &Path) -> Option<PathBuf> {
    let own = ["/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"];
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if own.iter().any(|prefix| at.to_string_lossy().starts_with(prefix)) {
            return Some(at);
        }
        let link = std::fs::read_link(&at).ok()?;
        at = if link.is_absolute() { link } else { parent(&at).join(link) };
    }
    None
}

/// The file to write for `path`: the path itself if it is a regular file, nothing yet or a stream
/// ([`is_stream`]), the target of a symbolic link (which must be a regular file or nothing in an existing
/// directory); anything else is refused, and so is `-`, which names standard output (a command's `--out` takes
/// it before it asks for a file).
pub fn writable(path: &Path) -> Result<PathBuf> {
    if path == Path::new("-") {
        bail!("- stands for standard output, which only --out writes to; give a file's path");
    }
    if is_stream(path) {
        return Ok(path.to_path_buf());
    }
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let link = std::fs::read_link(path).with_context(|| format!("cannot read the link {}", path.display()))?;
            let target = if link.is_absolute() { link } else { parent(path).join(link) };
            return match std::fs::symlink_metadata(&target) {
                Ok(meta) if meta.file_type().is_symlink() => writable(&target),
                Ok(meta) if meta.is_file() => Ok(target),
                Ok(_) => bail!(
                    "{} is a link to {}, which is neither a regular file nor a stream: refusing to replace it",
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
                "{} exists and is neither a regular file nor a stream (a block device or a socket): refusing to \
                 write over it",
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
