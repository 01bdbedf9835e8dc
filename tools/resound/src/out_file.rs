//! Where a command's output file goes: atomically into place, or straight down a stream.
//!
//! A path that names a regular file (or nothing yet) is written to a temporary file in the same
//! folder (`.resound-XXXXXX.part`) and renamed over the path only once everything is written
//! and flushed, so a failed or interrupted write leaves the old file or nothing at the path.
//! `-` and `/dev/stdout` are standard output; another special file (a pipe, `/dev/null`,
//! `/dev/full`) is written in place, since it cannot be renamed over. Nothing seeks: the
//! writers that use this know their length before the first byte.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use tempfile::NamedTempFile;

/// Buffer between the encoder and the file.
const BUFFER_BYTES: usize = 1 << 20;

/// Whether `path` names standard output (`-`, `/dev/stdout`).
pub fn is_stdout(path: &Path) -> bool {
    path == Path::new("-") || path == Path::new("/dev/stdout")
}

enum Target {
    Stdout(BufWriter<std::io::Stdout>),
    Special(BufWriter<std::fs::File>),
    File {
        temp: BufWriter<NamedTempFile>,
        path: PathBuf,
    },
}

/// An output being written; [`OutFile::commit`] puts it in place.
pub struct OutFile {
    target: Target,
    shown: String,
}

impl OutFile {
    /// Opens the output for `path` (before any work, so a bad path fails at once).
    ///
    /// # Errors
    /// The path is a directory, its folder does not exist or is not writable, or a special
    /// file cannot be opened.
    pub fn create(path: &Path) -> anyhow::Result<Self> {
        let shown = path.display().to_string();
        if is_stdout(path) {
            return Ok(Self {
                target: Target::Stdout(BufWriter::with_capacity(BUFFER_BYTES, std::io::stdout())),
                shown,
            });
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => bail!("{shown} is a directory, not a file to write"),
            Ok(meta) if !meta.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(|| format!("cannot open {shown}"))?;
                return Ok(Self {
                    target: Target::Special(BufWriter::with_capacity(BUFFER_BYTES, file)),
                    shown,
                });
            }
            _ => {}
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let temp = tempfile::Builder::new()
            .prefix(".resound-")
            .suffix(".part")
            .tempfile_in(dir)
            .with_context(|| format!("cannot write in the folder of {shown}"))?;
        Ok(Self {
            target: Target::File {
                temp: BufWriter::with_capacity(BUFFER_BYTES, temp),
                path: path.to_path_buf(),
            },
            shown,
        })
    }

    /// Whether the output is standard output (reports then go to stderr).
    pub fn is_stdout(&self) -> bool {
        matches!(self.target, Target::Stdout(_))
    }

    /// The temporary file being written (`None` for a stream or special file), for a caller
    /// that has to leave at once and remove it itself.
    pub fn temp_path(&self) -> Option<PathBuf> {
        match &self.target {
            Target::File { temp, .. } => Some(temp.get_ref().path().to_path_buf()),
            _ => None,
        }
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut dyn Write {
        match &mut self.target {
            Target::Stdout(w) => w,
            Target::Special(w) => w,
            Target::File { temp, .. } => temp,
        }
    }

    /// Flushes and puts the file in place (renamed over the path; mode 0644, or the old
    /// file's permissions).
    ///
    /// # Errors
    /// The flush or the rename failed (the temporary file is removed then).
    pub fn commit(self) -> anyhow::Result<()> {
        let shown = self.shown;
        let flushed = |e: std::io::Error| anyhow::anyhow!("writing {shown}: {e}");
        match self.target {
            Target::Stdout(mut w) => w.flush().map_err(flushed),
            Target::Special(mut w) => w.flush().map_err(flushed),
            Target::File { temp, path } => {
                let temp = temp.into_inner().map_err(|e| flushed(e.into_error()))?;
                #[cfg(unix)]
                {
                    // A temporary file is created 0600; the output gets what a new file gets.
                    let permissions = std::fs::metadata(&path).map_or_else(
                        |_| std::os::unix::fs::PermissionsExt::from_mode(0o644),
                        |m| m.permissions(),
                    );
                    temp.as_file()
                        .set_permissions(permissions)
                        .map_err(flushed)?;
                }
                temp.persist(&path).map_err(|e| flushed(e.error))?;
                Ok(())
            }
        }
    }
}

/// Writes `bytes` to `out` and commits it (atomically for a file).
///
/// # Errors
/// As [`OutFile::commit`], or the write failed.
pub fn write_bytes(mut out: OutFile, bytes: &[u8]) -> anyhow::Result<()> {
    let shown = out.shown.clone();
    out.writer()
        .write_all(bytes)
        .with_context(|| format!("writing {shown}"))?;
    out.commit()
}
