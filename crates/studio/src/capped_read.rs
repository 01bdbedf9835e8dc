//! Reading user files (scene files, walk files, records) through a size cap.
//!
//! `metadata().len()` is 0 for devices, FIFOs and `/dev/stdin`, so a cap checked against it lets
//! `/dev/zero` through. Every file a tool reads on a user's say-so goes through
//! [`read_capped`], which reads at most `max + 1` bytes and refuses the file if it got them.

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
    #[error("{path} is {kind}, not {what} (a {what_short} is a regular file)")]
    NotRegular {
        /// The path as the user gave it.
        path: String,
        /// What it is, in words ("a directory").
        kind: &'static str,
        /// What the file is for, with its article ("a DAT file").
        what: &'static str,
        /// The same without the article ("DAT file").
        what_short: &'static str,
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

/// Whether `path` is a regular file (after symlinks), before reading a byte of it; `what`
/// names the file's kind with its article ("a DAT file").
///
/// # Errors
/// [`FileError::Open`], [`FileError::NotRegular`].
pub fn check_regular(path: &Path, what: &'static str) -> Result<(), FileError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|reason| FileError::Open {
        path: shown.clone(),
        reason,
    })?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: shown,
            kind: file_kind(&meta),
            what,
            what_short: what.trim_start_matches("a ").trim_start_matches("an "),
        });
    }
    Ok(())
}

/// Reads the whole file at `path`, refusing it once it exceeds `max_bytes`; works for regular
/// files, pipes, `/dev/stdin` and devices alike (the cap is checked on the bytes read).
///
/// # Errors
/// [`FileError`]: unreadable, or larger than `max_bytes`.
pub fn read_capped(path: &Path, max_bytes: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    let shown = path.display().to_string();
    let io = |source| FileError::Io {
        what,
        path: shown.clone(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
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
