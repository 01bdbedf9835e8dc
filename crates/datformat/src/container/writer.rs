//! `DatWriter`: builds or edits a dat in memory, laid out as DatReaderWriter lays it out.
//!
//! Layout choices (spec §1 plus DatReaderWriter's writer):
//! - header: transactions area `00 50 4C 00` + 60 zeros on every write, magic 0x5442, first
//!   block at `ceil(400 / block_size) * block_size`;
//! - nodes are written as 1720 bytes (`ceil(1720 / (block_size - 4))` blocks), unused branch
//!   slots of a non-empty node hold 0xCDCDCDCD, leaves have no branches;
//! - B-tree of degree 31 (≤ 61 entries, ≤ 62 branches); insert splits full nodes on the way
//!   down (median = entry 30), delete borrows from or merges with a sibling on the way down
//!   (CLRS B-TREE-DELETE). DatReaderWriter's delete differs (it removes a predecessor from a
//!   leaf without rebalancing, so its nodes can fall below 30 entries, and it never frees
//!   merged nodes); after deletes the two writers' node contents differ, both trees valid;
//! - entries: version 2, flags bit 0 = zlib; compression is kept only when
//!   `4 + zlib < payload` and the payload is ≥ 16 bytes (as DatReaderWriter does);
//! - a payload's blocks are allocated before any new node's blocks, a new root before the
//!   sibling its split creates;
//! - blocks released by a smaller replacement, a removal or a merge go onto an in-band free
//!   list (`next = following free block | 0x8000_0000`, head in `FirstFreeBlock`, count in
//!   `FreeBlockCount`) and are reused first; with no free block the file grows by one block.
//!   DatReaderWriter never releases blocks and pre-allocates runs of empty blocks; this writer
//!   keeps files compact instead. Fresh blocks are zero-filled (DatReaderWriter grows the file
//!   with `SetLength`, which zero-fills too).
//! - Iteration (0xFFFF0001): like DatReaderWriter, a new dat has none; inserting an entry
//!   whose iteration exceeds the current one (1 by default) writes `Iteration::new(it)`.

use std::borrow::Cow;
use std::io::{Cursor, Write};
use std::ops::{Deref, DerefMut};

use flate2::Compression;
use flate2::write::ZlibEncoder;

use super::chain::{ChainFault, blocks_for, chain_blocks};
use super::entry::{DatEntry, ENTRY_VERSION, FLAG_COMPRESSED};
use super::error::{LookupError, OpenDatError, WriteDatError};
use super::header::{DatHeader, DatKind, HEADER_SIZE, first_block_offset, is_sane_block_size};
use super::iteration::{ITERATION_ID, Iteration};
use super::reader::{DatReader, validate_header};

mod block;
mod btree;

/// Marks a block as free in its next pointer.
const FREE_MARK: u32 = 0x8000_0000;

/// Payloads shorter than this are never compressed (DatReaderWriter's threshold).
const MIN_COMPRESS_LEN: usize = 16;

/// How one entry is stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntryOptions {
    /// Try zlib; the payload is stored compressed only if that makes it smaller.
    pub compress: bool,
    /// Unix timestamp stored in the entry.
    pub raw_date: u32,
    /// Iteration stored in the entry.
    pub iteration: u32,
}

/// An in-memory dat being built or edited. Every change is applied to the file image at once,
/// so [`as_bytes`](Self::as_bytes) is always a complete, valid dat.
#[derive(Clone, Debug)]
pub struct DatWriter {
    bytes: Vec<u8>,
    header: DatHeader,
    current_iteration: i32,
}

/// A failure inside the writer, before the file id is attached.
#[derive(Debug)]
enum Fault {
    Tree(LookupError),
    Chain { offset: u32, block: u32 },
    FreeList { offset: u32 },
    FileTooLarge,
}

impl Fault {
    fn with_id(self, id: u32) -> WriteDatError {
        match self {
            Self::Tree(source) => WriteDatError::Corrupt { id, source },
            Self::Chain { offset, block } => WriteDatError::EntryChain { id, offset, block },
            Self::FreeList { offset } => WriteDatError::FreeList { id, offset },
            Self::FileTooLarge => WriteDatError::FileTooLarge { id },
        }
    }
}

impl From<LookupError> for Fault {
    fn from(e: LookupError) -> Self {
        Self::Tree(e)
    }
}

fn chain_block(fault: &ChainFault, start: u32) -> u32 {
    match fault {
        ChainFault::OutOfBounds { block }
        | ChainFault::TooShort { block }
        | ChainFault::Loop { block } => *block,
        ChainFault::Io { .. } => start,
    }
}

/// Where an existing entry sits in the tree.
#[derive(Clone, Copy, Debug)]
struct Found {
    entry: DatEntry,
    node: u32,
    index: usize,
}

impl DatWriter {
    /// A new, empty dat: header only, the first block at `ceil(400 / block_size) * block_size`.
    /// Retail block sizes: portal and local 1024, cell 256.
    pub fn new(kind: DatKind, block_size: u32) -> Result<Self, WriteDatError> {
        if !is_sane_block_size(block_size) {
            return Err(WriteDatError::BadBlockSize { block_size });
        }
        let header = DatHeader::new(kind, block_size);
        let mut w = Self {
            bytes: vec![0u8; first_block_offset(block_size) as usize],
            header,
            current_iteration: 1,
        };
        w.sync_header();
        Ok(w)
    }

    /// Opens an existing dat for editing. Validates the header and the free list and reads
    /// the Iteration entry; bytes past the header's `FileSize` are dropped. The bytes are left
    /// as they are until the first change.
    pub fn from_bytes(mut bytes: Vec<u8>) -> Result<Self, OpenDatError> {
        let raw: [u8; HEADER_SIZE] = bytes
            .get(..HEADER_SIZE)
            .and_then(|s| s.try_into().ok())
            .ok_or(OpenDatError::TooShort {
                len: bytes.len() as u64,
            })?;
        let header = DatHeader::from_bytes(&raw);
        validate_header(&header, bytes.len() as u64)?;
        bytes.truncate(header.file_size as usize);
        let mut w = Self {
            bytes,
            header,
            current_iteration: 1,
        };
        w.check_free_list()?;
        let iteration = DatReader::new(Cursor::new(&w.bytes[..]))?
            .iteration()
            .map_err(|e| OpenDatError::Iteration {
                source: Box::new(e),
            })?;
        if let Some(it) = iteration {
            w.current_iteration = it.current;
        }
        Ok(w)
    }

    /// The header as it is now.
    #[must_use]
    pub fn header(&self) -> &DatHeader {
        &self.header
    }

    /// Edit informational header fields (version string, sub set, engine/game/major/minor
    /// versions, master map id, LRU fields, type). When the guard drops, the structural
    /// fields the writer owns (magic, block size, file size, free list, root) are restored
    /// and the header is written into the image.
    pub fn header_mut(&mut self) -> HeaderMut<'_> {
        let saved = self.header.clone();
        HeaderMut {
            writer: self,
            saved,
        }
    }

    /// The complete dat.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The complete dat, by value.
    #[must_use]
    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }

    /// The dat's current iteration (from its Iteration entry, else 1).
    #[must_use]
    pub fn current_iteration(&self) -> i32 {
        self.current_iteration
    }

    /// A reader over the image.
    pub fn reader(&self) -> Result<DatReader<Cursor<&[u8]>>, OpenDatError> {
        DatReader::new(Cursor::new(&self.bytes[..]))
    }

    /// The entry for `id`, if present.
    pub fn entry(&self, id: u32) -> Result<Option<DatEntry>, LookupError> {
        Ok(self.find(id)?.map(|f| f.entry))
    }

    /// Inserts `payload` under `id`, or replaces the existing payload (its blocks are reused,
    /// surplus blocks released, missing ones allocated).
    pub fn insert(
        &mut self,
        id: u32,
        payload: &[u8],
        options: EntryOptions,
    ) -> Result<(), WriteDatError> {
        let found = self.find(id).map_err(|e| Fault::Tree(e).with_id(id))?;
        let stored = if options.compress {
            compress(payload).map_err(|source| WriteDatError::Compress { id, source })?
        } else {
            None
        };
        let (data, compressed) = match stored {
            Some(bytes) => (Cow::Owned(bytes), true),
            None => (Cow::Borrowed(payload), false),
        };
        let size = u32::try_from(data.len()).map_err(|_| WriteDatError::PayloadTooLarge {
            id,
            len: data.len(),
        })?;
        let old = found.map(|f| (f.entry.offset, f.entry.size as usize));
        let offset = self.write_payload(old, &data).map_err(|f| f.with_id(id))?;
        let base_flags = found.map_or(0, |f| f.entry.flags) & !FLAG_COMPRESSED;
        let entry = DatEntry {
            flags: base_flags | if compressed { FLAG_COMPRESSED } else { 0 },
            version: found.map_or(ENTRY_VERSION, |f| f.entry.version),
            id,
            offset,
            size,
            raw_date: options.raw_date,
            iteration: options.iteration,
        };
        let result = match found {
            Some(f) => self.replace_in_node(f, entry),
            None => self.tree_insert(entry),
        };
        result.map_err(|f| f.with_id(id))?;
        self.sync_header();
        if id != ITERATION_ID
            && let Ok(it) = i32::try_from(options.iteration)
            && it > self.current_iteration
        {
            self.write_iteration(&Iteration::new(it), options.raw_date)?;
        }
        Ok(())
    }

    /// Writes the Iteration record (0xFFFF0001) and makes its `current` the writer's current
    /// iteration. The entry keeps its previous iteration field (0 when new).
    pub fn write_iteration(
        &mut self,
        iteration: &Iteration,
        raw_date: u32,
    ) -> Result<(), WriteDatError> {
        let keep = self
            .find(ITERATION_ID)
            .map_err(|e| Fault::Tree(e).with_id(ITERATION_ID))?
            .map_or(0, |f| f.entry.iteration);
        let options = EntryOptions {
            compress: false,
            raw_date,
            iteration: keep,
        };
        self.insert(ITERATION_ID, &iteration.to_bytes(), options)?;
        self.current_iteration = iteration.current;
        Ok(())
    }

    /// Removes `id`; its payload blocks go onto the free list. `Ok(false)` if it was absent.
    pub fn remove(&mut self, id: u32) -> Result<bool, WriteDatError> {
        let Some(found) = self.find(id).map_err(|e| Fault::Tree(e).with_id(id))? else {
            return Ok(false);
        };
        let entry = found.entry;
        let n = blocks_for(entry.size as usize, self.header.block_size);
        let blocks = chain_blocks(&self.bytes, self.header.block_size, entry.offset, n, n)
            .map_err(|f| WriteDatError::EntryChain {
                id,
                offset: entry.offset,
                block: chain_block(&f, entry.offset),
            })?;
        self.tree_delete(id).map_err(|f| f.with_id(id))?;
        for block in blocks {
            self.release(block);
        }
        self.sync_header();
        Ok(true)
    }
}

/// Restores the writer-owned header fields and writes the header when dropped.
#[derive(Debug)]
pub struct HeaderMut<'a> {
    writer: &'a mut DatWriter,
    saved: DatHeader,
}

impl Deref for HeaderMut<'_> {
    type Target = DatHeader;
    fn deref(&self) -> &DatHeader {
        &self.writer.header
    }
}

impl DerefMut for HeaderMut<'_> {
    fn deref_mut(&mut self) -> &mut DatHeader {
        &mut self.writer.header
    }
}

impl Drop for HeaderMut<'_> {
    fn drop(&mut self) {
        let h = &mut self.writer.header;
        h.magic = self.saved.magic;
        h.block_size = self.saved.block_size;
        h.file_size = self.saved.file_size;
        h.first_free_block = self.saved.first_free_block;
        h.last_free_block = self.saved.last_free_block;
        h.free_block_count = self.saved.free_block_count;
        h.root_block = self.saved.root_block;
        self.writer.sync_header();
    }
}

/// `u32 size` + zlib stream, if that is smaller than the payload (DatReaderWriter's rule).
fn compress(payload: &[u8]) -> std::io::Result<Option<Vec<u8>>> {
    if payload.len() < MIN_COMPRESS_LEN || u32::try_from(payload.len()).is_err() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(payload.len() / 2 + 16);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    let mut encoder = ZlibEncoder::new(out, Compression::best());
    encoder.write_all(payload)?;
    let out = encoder.finish()?;
    Ok((out.len() < payload.len()).then_some(out))
}
