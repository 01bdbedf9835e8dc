//! A `--dat-dir` opened once: `client_portal.dat` and `client_cell_1.dat` are opened here
//! without blocking and checked to be regular files on their open handles, and everything
//! after reads those handles — so a FIFO (or any other file) swapped in for a dat after the
//! check is never opened.
//!
//! The engine and the studio open dats by folder path. For them [`DatDir::path`] is a private
//! folder whose two entries are symbolic links to `/proc/self/fd/N` of the handles held here
//! (Linux): opening one opens the very file that was checked, whatever the user's folder holds
//! by then. Elsewhere it is the user's folder (checked, with the short window that leaves).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::Context;
use resound_engine::advanced::ambient::DatSource;
use resound_engine::advanced::datformat::container::DatReader;
use resound_engine::sound::{CELL_DAT, PORTAL_DAT};
use resound_studio::capped_read::open_regular;

/// A dat read through a checked handle.
pub type FileSource = DatSource<BufReader<File>>;

/// The two dats of a folder, open and checked.
pub struct DatDir {
    portal: File,
    cell: File,
    /// The folder of links to the open handles (removed on drop); `None` off Linux.
    pinned: Option<tempfile::TempDir>,
    dir: PathBuf,
}

impl DatDir {
    /// Opens `dir/client_portal.dat` and `dir/client_cell_1.dat`: regular files only (after
    /// symlinks, and again on the open handle), opened without blocking.
    ///
    /// # Errors
    /// A dat is missing, unreadable, or not a regular file (one line naming it).
    pub fn open(dir: &Path) -> anyhow::Result<Self> {
        let portal = open_regular(&dir.join(PORTAL_DAT), "DAT file")?;
        let cell = open_regular(&dir.join(CELL_DAT), "DAT file")?;
        let pinned = pin(&portal, &cell).with_context(|| format!("opening {}", dir.display()))?;
        Ok(Self {
            portal,
            cell,
            pinned,
            dir: dir.to_path_buf(),
        })
    }

    /// The folder to hand to what opens the dats by path: links to the checked handles.
    pub fn path(&self) -> &Path {
        self.pinned
            .as_ref()
            .map_or(&self.dir, tempfile::TempDir::path)
    }

    /// The portal and cell dats as ambient sources, read through the checked handles.
    ///
    /// # Errors
    /// A dat's header is invalid.
    pub fn sources(&self) -> anyhow::Result<(FileSource, FileSource)> {
        let source = |file: &File, name: &str| -> anyhow::Result<_> {
            let file = file
                .try_clone()
                .with_context(|| format!("opening {name}"))?;
            let reader = DatReader::new(BufReader::new(file))
                .with_context(|| format!("reading {}", self.dir.join(name).display()))?;
            Ok(DatSource::new(reader))
        };
        Ok((
            source(&self.portal, PORTAL_DAT)?,
            source(&self.cell, CELL_DAT)?,
        ))
    }
}

/// A private folder with `client_portal.dat` → `/proc/self/fd/P` and `client_cell_1.dat` →
/// `/proc/self/fd/C`.
#[cfg(target_os = "linux")]
fn pin(portal: &File, cell: &File) -> std::io::Result<Option<tempfile::TempDir>> {
    use std::os::fd::AsRawFd;
    if !Path::new("/proc/self/fd").is_dir() {
        return Ok(None);
    }
    let dir = tempfile::Builder::new()
        .prefix(".resound-dats-")
        .tempdir()?;
    for (file, name) in [(portal, PORTAL_DAT), (cell, CELL_DAT)] {
        let target = format!("/proc/self/fd/{}", file.as_raw_fd());
        std::os::unix::fs::symlink(target, dir.path().join(name))?;
    }
    Ok(Some(dir))
}

#[cfg(not(target_os = "linux"))]
fn pin(_: &File, _: &File) -> std::io::Result<Option<tempfile::TempDir>> {
    Ok(None)
}
