//! Opening one DAT file the user named: a regular file, checked before a byte is read.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use anyhow::Context;
use resound_engine::advanced::datformat::container::DatReader;
use resound_studio::capped_read::open_regular;

/// Opens a dat, refusing anything that is not a regular file before reading a byte.
pub fn open(path: &Path) -> anyhow::Result<DatReader<BufReader<File>>> {
    let file = open_regular(path, "DAT file")?;
    DatReader::new(BufReader::new(file)).with_context(|| format!("reading {}", path.display()))
}
