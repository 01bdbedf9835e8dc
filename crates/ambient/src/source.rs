//! Where the runtime gets its data: the engine implements these traits over the portal and
//! cell dats (or anything else), so the runtime never does I/O and tests can count loads and
//! releases.
//!
//! - [`SoundTableSource`]: `DBObj::Get(QualifiedDataID(stb_id, 0x22))` in
//!   `AmbientSTBDesc::InitSoundTable` @ 0x004FEA60 and the matching `Release` in
//!   `Ambient::ReleaseSoundTables` @ 0x00455770.
//! - [`LandBlockSource`]: the `LScape` landblocks of the 3×3 ring around the viewer, and
//!   (optionally) the EnvCell records whose `SeenOutside` flag retail keeps as
//!   `CEnvCell::seen_outside` (read by `CellManager::ChangePosition` @ 0x004559B0).
//!
//! [`MemorySoundTables`] and [`MemoryLandBlocks`] are ready-made in-memory sources that count
//! their calls; [`DatSource`] reads either kind from a dat through a
//! [`DatReader`] over whatever reader the caller hands it (a file, a `Cursor`).

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::io::{Read, Seek};
use std::sync::Arc;

use resound_datformat::container::{DatReader, ReadEntryError};
use resound_datformat::describe::TAIL_SLACK;
use resound_datformat::id::{CellId, SoundTableId};
use resound_datformat::record::{EnvCell, LandBlock, ReadRecordError, Record, SoundTable};
use thiserror::Error;

/// Loads `SoundTable`s (portal dat, `0x20000000..=0x2000FFFF`) on demand.
pub trait SoundTableSource {
    /// Why a table could not be read (an absent table is `Ok(None)`, not an error).
    type Error: std::error::Error;

    /// Loads one table. `Ok(None)` when the dat has no such id.
    ///
    /// # Errors
    /// When the table exists but cannot be read or parsed. The runtime treats it like an
    /// absent table (retail's `DBObj::Get` returns NULL either way) and reports it.
    fn load_sound_table(
        &mut self,
        stb_id: SoundTableId,
    ) -> Result<Option<Arc<SoundTable>>, Self::Error>;

    /// Called when the runtime drops its reference to a table it loaded
    /// (`CSoundTable::Release`). The default does nothing.
    fn release_sound_table(&mut self, stb_id: SoundTableId) {
        let _ = stb_id;
    }
}

/// Loads `LandBlock`s (cell dat, `0xXXYYFFFF`) on demand.
pub trait LandBlockSource {
    /// Why a landblock could not be read (an absent one is `Ok(None)`).
    type Error: std::error::Error;

    /// Loads one landblock by its cell-dat id `0xXXYYFFFF`. `Ok(None)` when it is absent;
    /// the gather then skips it, as retail skips a NULL `LScape` block.
    ///
    /// # Errors
    /// When the landblock exists but cannot be read; the gather skips it and reports it.
    fn load_land_block(
        &mut self,
        land_block_id: CellId,
    ) -> Result<Option<Arc<LandBlock>>, Self::Error>;

    /// Loads one EnvCell record by its cell-dat id `0xXXYY0100..=0xXXYYFFFD`, for its
    /// `SeenOutside` flag. `Ok(None)` when it is absent; the default has no EnvCells.
    ///
    /// # Errors
    /// When the EnvCell exists but cannot be read.
    fn load_env_cell(&mut self, cell_id: CellId) -> Result<Option<Arc<EnvCell>>, Self::Error> {
        let _ = cell_id;
        Ok(None)
    }
}

/// An in-memory [`SoundTableSource`] that counts loads and releases.
#[derive(Clone, Debug, Default)]
pub struct MemorySoundTables {
    tables: BTreeMap<u32, Arc<SoundTable>>,
    /// Every `load_sound_table` call, in order.
    pub loads: Vec<SoundTableId>,
    /// Every `release_sound_table` call, in order.
    pub releases: Vec<SoundTableId>,
}

impl MemorySoundTables {
    /// A source holding these tables, keyed by their `id`.
    #[must_use]
    pub fn new(tables: impl IntoIterator<Item = SoundTable>) -> Self {
        Self {
            tables: tables.into_iter().map(|t| (t.id, Arc::new(t))).collect(),
            loads: Vec::new(),
            releases: Vec::new(),
        }
    }

    /// Adds or replaces one table.
    pub fn insert(&mut self, table: SoundTable) {
        self.tables.insert(table.id, Arc::new(table));
    }

    /// Forgets the recorded calls.
    pub fn clear_counts(&mut self) {
        self.loads.clear();
        self.releases.clear();
    }
}

impl SoundTableSource for MemorySoundTables {
    type Error = Infallible;

    fn load_sound_table(
        &mut self,
        stb_id: SoundTableId,
    ) -> Result<Option<Arc<SoundTable>>, Infallible> {
        self.loads.push(stb_id);
        Ok(self.tables.get(&stb_id.0).cloned())
    }

    fn release_sound_table(&mut self, stb_id: SoundTableId) {
        self.releases.push(stb_id);
    }
}

/// An in-memory [`LandBlockSource`] (landblocks and EnvCells) that counts loads.
#[derive(Clone, Debug, Default)]
pub struct MemoryLandBlocks {
    blocks: BTreeMap<u32, Arc<LandBlock>>,
    env_cells: BTreeMap<u32, Arc<EnvCell>>,
    /// Number of `load_land_block` calls.
    pub loads: usize,
    /// Number of `load_env_cell` calls.
    pub env_cell_loads: usize,
}

impl MemoryLandBlocks {
    /// A source holding these landblocks, keyed by their `id` (`0xXXYYFFFF`).
    #[must_use]
    pub fn new(blocks: impl IntoIterator<Item = LandBlock>) -> Self {
        Self {
            blocks: blocks.into_iter().map(|b| (b.id, Arc::new(b))).collect(),
            env_cells: BTreeMap::new(),
            loads: 0,
            env_cell_loads: 0,
        }
    }

    /// Adds or replaces one EnvCell, keyed by its `id`.
    pub fn insert_env_cell(&mut self, cell: EnvCell) {
        self.env_cells.insert(cell.id, Arc::new(cell));
    }

    /// Adds or replaces one landblock.
    pub fn insert(&mut self, block: LandBlock) {
        self.blocks.insert(block.id, Arc::new(block));
    }

    /// Removes one landblock.
    pub fn remove(&mut self, land_block_id: CellId) -> Option<Arc<LandBlock>> {
        self.blocks.remove(&land_block_id.0)
    }
}

impl LandBlockSource for MemoryLandBlocks {
    type Error = Infallible;

    fn load_land_block(
        &mut self,
        land_block_id: CellId,
    ) -> Result<Option<Arc<LandBlock>>, Infallible> {
        self.loads += 1;
        Ok(self.blocks.get(&land_block_id.0).cloned())
    }

    fn load_env_cell(&mut self, cell_id: CellId) -> Result<Option<Arc<EnvCell>>, Infallible> {
        self.env_cell_loads += 1;
        Ok(self.env_cells.get(&cell_id.0).cloned())
    }
}

/// Why a [`DatSource`] could not supply a record.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DatSourceError {
    /// The dat entry could not be read.
    #[error("dat entry 0x{id:08X} could not be read")]
    Read {
        /// The id.
        id: u32,
        /// The container error.
        #[source]
        source: ReadEntryError,
    },
    /// The entry is not a valid record of the expected type.
    #[error("dat entry 0x{id:08X} could not be parsed")]
    Parse {
        /// The id.
        id: u32,
        /// The record error.
        #[source]
        source: ReadRecordError,
    },
}

/// Default [`DatSource`] read cap: 64 MiB, the wave cache's default byte cap.
pub const DEFAULT_RECORD_CAP: usize = 64 << 20;

/// A [`SoundTableSource`] (over the portal dat) or [`LandBlockSource`] (over the cell dat)
/// reading through a [`DatReader`]. Every load reads and parses the entry again; it counts its
/// loads and releases like the in-memory sources.
///
/// Memory follows the record, not the entry: an entry is read trimmed
/// ([`DatReader::read_entry_trimmed`]), so a record followed by a run of zero padding costs
/// what the record costs (the zeros are counted as they inflate, never held); the bytes before
/// the padding are capped ([`DatSource::record_cap`], [`DEFAULT_RECORD_CAP`] unless set).
#[derive(Debug)]
pub struct DatSource<R> {
    reader: DatReader<R>,
    cap: usize,
    /// Number of loads.
    pub loads: usize,
    /// Number of releases.
    pub releases: usize,
}

impl<R: Read + Seek> DatSource<R> {
    /// A source over an opened dat, reading under [`DEFAULT_RECORD_CAP`].
    #[must_use]
    pub fn new(reader: DatReader<R>) -> Self {
        Self {
            reader,
            cap: DEFAULT_RECORD_CAP,
            loads: 0,
            releases: 0,
        }
    }

    /// The same source holding at most `cap` bytes of a record (its bytes before any zero
    /// padding, or a whole payload rebuilt to parse a record ending in zero-valued fields).
    #[must_use]
    pub fn with_record_cap(mut self, cap: usize) -> Self {
        self.cap = cap;
        self
    }

    /// The most bytes of one record this source holds.
    #[must_use]
    pub fn record_cap(&self) -> usize {
        self.cap
    }

    /// The underlying reader.
    pub fn reader_mut(&mut self) -> &mut DatReader<R> {
        &mut self.reader
    }

    /// The payload size entry `id` declares, read before anything inflates
    /// ([`DatReader::payload_size`]); `Ok(None)` when the id is absent. A caller with a byte
    /// budget checks it before [`load_record`](Self::load_record).
    ///
    /// # Errors
    /// [`DatSourceError::Read`] when the entry cannot be found or its size prefix read.
    pub fn payload_size(&mut self, id: u32) -> Result<Option<u64>, DatSourceError> {
        let read = |source| DatSourceError::Read { id, source };
        let Some(entry) = self
            .reader
            .entry(id)
            .map_err(|e| read(ReadEntryError::Lookup(e)))?
        else {
            return Ok(None);
        };
        self.reader.payload_size(&entry).map(Some).map_err(read)
    }

    /// Reads and parses one record, `Ok(None)` when the id is absent. The record is parsed
    /// from its bytes up to the last non-zero one and the first [`TAIL_SLACK`] zeros after
    /// them (the other zeros are padding); when that does not parse (a record whose last
    /// fields are zeros past the slack, as a Wave ending in silence) and the whole payload is
    /// within the cap, from the whole payload, so the outcome is the whole payload's.
    ///
    /// # Errors
    /// [`DatSourceError`] when the entry cannot be read (including more than the cap before
    /// its padding, [`ReadEntryError::OverCap`]) or parsed.
    pub fn load_record<T: Record>(&mut self, id: u32) -> Result<Option<T>, DatSourceError> {
        self.loads += 1;
        let read = |source| DatSourceError::Read { id, source };
        let Some(entry) = self
            .reader
            .entry(id)
            .map_err(|e| read(ReadEntryError::Lookup(e)))?
        else {
            return Ok(None);
        };
        let payload = self
            .reader
            .read_entry_trimmed(&entry, self.cap)
            .map_err(read)?;
        let slack = payload.zeros.min(TAIL_SLACK);
        let mut bytes = payload.head;
        bytes.resize(bytes.len() + slack as usize, 0);
        let parsed = T::from_bytes(&bytes);
        let whole = bytes.len() as u64 + (payload.zeros - slack);
        if parsed.is_err() && payload.zeros > slack && whole <= self.cap as u64 {
            bytes.resize(whole as usize, 0);
            return T::from_bytes(&bytes)
                .map(Some)
                .map_err(|source| DatSourceError::Parse { id, source });
        }
        parsed
            .map(Some)
            .map_err(|source| DatSourceError::Parse { id, source })
    }
}

impl<R: Read + Seek> SoundTableSource for DatSource<R> {
    type Error = DatSourceError;

    fn load_sound_table(
        &mut self,
        stb_id: SoundTableId,
    ) -> Result<Option<Arc<SoundTable>>, DatSourceError> {
        Ok(self.load_record::<SoundTable>(stb_id.0)?.map(Arc::new))
    }

    fn release_sound_table(&mut self, _stb_id: SoundTableId) {
        self.releases += 1;
    }
}

impl<R: Read + Seek> LandBlockSource for DatSource<R> {
    type Error = DatSourceError;

    fn load_land_block(
        &mut self,
        land_block_id: CellId,
    ) -> Result<Option<Arc<LandBlock>>, DatSourceError> {
        Ok(self
            .load_record::<LandBlock>(land_block_id.0)?
            .map(Arc::new))
    }

    fn load_env_cell(&mut self, cell_id: CellId) -> Result<Option<Arc<EnvCell>>, DatSourceError> {
        Ok(self.load_record::<EnvCell>(cell_id.0)?.map(Arc::new))
    }
}
