//! Reading user files (scene files, walk files, records) through a size cap, never blocking.
//!
//! `metadata().len()` is 0 for devices, FIFOs and `/dev/stdin`, so a cap checked against it lets
//! `/dev/zero` through, and opening a FIFO blocks until someone writes to it. Every file a tool
//! reads on a user's say-so goes through [`read_capped`]: the path (after symlinks) must be a
//! regular file, or standard input named as `-` or `/dev/stdin` (the user's own stream); it is
//! opened without blocking, checked again on the open handle, and read through a cap of
//! `max + 1` bytes, refused if it got them.

use std::io::Read;
use std::path::Path;

/// A user file was larger than the cap for its kind, or could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The file holds more than `max_mib` MiB (devices and pipes are measured by reading).
    #[error("{what} {path} is larger than {max_mib} MiB")]
    TooLarge {
        /// What the file is for ("scene file", "walk file").
        what: &'static str,
        /// The path as the user gave it.
        path: String,
        /// The cap in MiB.
        max_mib: u64,
    },
    /// Opening or reading failed.
    #[error("cannot read {what} {path}: {source}")]
    Io {
        /// What the file is for.
        what: &'static str,
        /// The path as the user gave it.
        path: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The path names no regular file (a directory, FIFO, device or socket).
    #[error("{path} is {kind}, not a {what} (a {what} is a regular file{hint})")]
    NotRegular {
        /// The path as the user gave it.
        path: String,
        /// What it is, in words ("a directory").
        kind: &'static str,
        /// What the file is for, without its article ("DAT file").
        what: &'static str,
        /// What else is accepted, with its leading separator (", or - for standard input"),
        /// or nothing.
        hint: &'static str,
    },
    /// The path could not be looked at.
    #[error("cannot open {path}: {reason}")]
    Open {
        /// The path as the user gave it.
        path: String,
        /// The operating system's reason (formatted into the message).
        reason: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{what} {path} is not UTF-8 text")]
    NotText {
        /// What the file is for.
        what: &'static str,
        /// The path as the user gave it.
        path: String,
    },
}

/// What a non-regular file is, in words.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Whether `path` is a regular file (after symlinks), before reading a byte of it (a `stat`,
/// which never blocks); `what` names the file's kind without its article ("DAT file").
///
/// # Errors
/// [`FileError::Open`], [`FileError::NotRegular`].
pub fn check_regular(path: &Path, what: &'static str) -> Result<(), FileError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|reason| FileError::Open {
        path: shown.clone(),
        reason,
    })?;
    regular(&meta, shown, what, "")
}

fn regular(
    meta: &std::fs::Metadata,
    path: String,
    what: &'static str,
    hint: &'static str,
) -> Result<(), FileError> {
    if meta.is_file() {
        return Ok(());
    }
    Err(FileError::NotRegular {
        path,
        kind: file_kind(meta),
        what,
        hint,
    })
}

/// Whether `path` names standard input: `-` or `/dev/stdin` (the only streams a tool reads).
#[must_use]
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-") || path == Path::new("/dev/stdin")
}

/// `O_NONBLOCK`: opening a FIFO that slipped in between the check and the open returns at once
/// instead of waiting for a writer (regular files ignore the flag).
#[cfg(any(target_os = "linux", target_os = "android"))]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
const O_NONBLOCK: i32 = 0x0004;

/// Opens the regular file at `path` for reading without blocking: checked before the open
/// (after symlinks) and again on the open handle, so a FIFO swapped in between is refused too.
///
/// # Errors
/// [`FileError::Open`], [`FileError::NotRegular`].
pub fn open_regular(path: &Path, what: &'static str) -> Result<std::fs::File, FileError> {
    open_checked(path, what, "").map_err(|e| match e {
        FileError::Io { path, source, .. } => FileError::Open {
            path,
            reason: source,
        },
        e => e,
    })
}

fn open_checked(
    path: &Path,
    what: &'static str,
    hint: &'static str,
) -> Result<std::fs::File, FileError> {
    let shown = path.display().to_string();
    let open = |source| FileError::Io {
        what,
        path: shown.clone(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(open)?;
    regular(&meta, shown.clone(), what, hint)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, O_NONBLOCK);
    let file = options.open(path).map_err(open)?;
    let meta = file.metadata().map_err(open)?;
    regular(&meta, shown, what, hint)?;
    Ok(file)
}

/// Reads the whole file at `path`, refusing it once it exceeds `max_bytes`. `path` is a regular
/// file or standard input (`-`, `/dev/stdin`); a directory, FIFO, device or socket is refused
/// before a byte is read, so nothing ever waits on a pipe nobody writes to.
///
/// # Errors
/// [`FileError`]: not a regular file, unreadable, or larger than `max_bytes`.
pub fn read_capped(path: &Path, max_bytes: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    let shown = path.display().to_string();
    let io = |source| FileError::Io {
        what,
        path: shown.clone(),
        source,
    };
    let mut bytes = Vec::new();
    let reader: Box<dyn Read> = if is_stdin(path) {
        Box::new(std::io::stdin().lock())
    } else {
        let file = open_checked(path, what, ", or - for standard input")?;
        // The whole file in one allocation (not doubled as it grows): its length, one byte
        // more for the end-of-file probe, never over the cap.
        let len = file.metadata().map_or(0, |m| m.len());
        bytes.reserve(usize::try_from(len.min(max_bytes).saturating_add(1)).unwrap_or(0));
        Box::new(file)
    };
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(FileError::TooLarge {
            what,
            path: shown,
            max_mib: max_bytes.div_ceil(1 << 20),
        });
    }
    Ok(bytes)
}

/// [`read_capped`] for UTF-8 text.
///
/// # Errors
/// [`FileError`]: unreadable, larger than `max_bytes`, not UTF-8.
pub fn read_text_capped(
    path: &Path,
    max_bytes: u64,
    what: &'static str,
) -> Result<String, FileError> {
    let bytes = read_capped(path, max_bytes, what)?;
    String::from_utf8(bytes).map_err(|_| FileError::NotText {
        what,
        path: path.display().to_string(),
    })
}

#[cfg(test)]
mod tests;
