//! `DatReader`: header validation, B-tree lookup and iteration, payload assembly and inflate.

use std::collections::HashSet;
use std::io::{Read, Seek, SeekFrom};

use flate2::read::ZlibDecoder;

use super::bytes::le32;
use super::chain::{ChainFault, read_chain, read_chain_until};
use super::entry::{DatEntry, ENTRY_SIZE};
use super::error::{LookupError, MAX_DEPTH, OpenDatError, ReadEntryError, ReadIterationError};
use super::header::{DAT_MAGIC, DatHeader, HEADER_SIZE, is_sane_block_size};
use super::iteration::{ITERATION_ID, Iteration};
use super::node::{COUNT_AT, ENTRIES_AT, MAX_ENTRIES, NODE_READ_SIZE, Node, is_null_branch};

/// Largest zlib expansion ratio (deflate's theoretical maximum is about 1032:1).
pub(super) const MAX_INFLATE_RATIO: u64 = 1032;

/// Reads a portal, cell or local dat through any `Read + Seek` (a `Cursor<Vec<u8>>`, a
/// `BufReader<File>`, …). Every offset and size read from the file is checked against the
/// header's file size before it is followed or allocated.
#[derive(Debug)]
pub struct DatReader<R> {
    pub(super) inner: R,
    pub(super) header: DatHeader,
    /// Header `FileSize`, checked to be ≤ the actual length.
    pub(super) bound: u64,
    node: Box<[u8; NODE_READ_SIZE]>,
    pub(super) scratch: Vec<u32>,
}

impl<R: Read + Seek> DatReader<R> {
    /// Opens a dat: reads and validates the 400-byte header (magic 0x5442, block size in
    /// 32..=65536, `FileSize` ≥ 400 and ≤ the actual length, root inside the file).
    pub fn new(mut reader: R) -> Result<Self, OpenDatError> {
        let io = |source| OpenDatError::Io { source };
        let actual = reader.seek(SeekFrom::End(0)).map_err(io)?;
        if actual < HEADER_SIZE as u64 {
            return Err(OpenDatError::TooShort { len: actual });
        }
        reader.seek(SeekFrom::Start(0)).map_err(io)?;
        let mut raw = [0u8; HEADER_SIZE];
        reader.read_exact(&mut raw).map_err(io)?;
        let header = DatHeader::from_bytes(&raw);
        validate_header(&header, actual)?;
        Ok(Self {
            inner: reader,
            bound: u64::from(header.file_size),
            header,
            node: Box::new([0u8; NODE_READ_SIZE]),
            scratch: Vec::new(),
        })
    }

    /// The header.
    #[must_use]
    pub fn header(&self) -> &DatHeader {
        &self.header
    }

    /// Gives the underlying reader back.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads the node at `offset` into the node buffer, up to its last entry only (the
    /// branches and the count first, then `24 * count` bytes of entries).
    fn load_node(&mut self, offset: u32) -> Result<(), LookupError> {
        let bs = self.header.block_size;
        let need = |read: &[u8]| match read.get(COUNT_AT..ENTRIES_AT) {
            Some(c) => ENTRIES_AT + ENTRY_SIZE * (le32(c, 0) as usize).min(MAX_ENTRIES),
            None => ENTRIES_AT,
        };
        read_chain_until(
            &mut self.inner,
            bs,
            self.bound,
            offset,
            &mut self.node[..],
            &mut self.scratch,
            need,
        )
        .map_err(|fault| node_fault(offset, self.bound, fault))?;
        let count = le32(&self.node[..], COUNT_AT);
        if count as usize > MAX_ENTRIES {
            return Err(LookupError::EntryCount {
                node: offset,
                count,
            });
        }
        Ok(())
    }

    /// Looks `id` up through the B-tree (unsigned compare, spec §1.5). `Ok(None)` if absent.
    pub fn entry(&mut self, id: u32) -> Result<Option<DatEntry>, LookupError> {
        let mut node = self.header.root_block;
        for _ in 0..MAX_DEPTH {
            if is_null_branch(node) {
                return Ok(None);
            }
            self.load_node(node)?;
            let raw = &self.node[..];
            let count = le32(raw, COUNT_AT) as usize;
            // binary search straight on the raw bytes: `lo` ends as the number of ids < id
            let (mut lo, mut hi) = (0usize, count);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let at = ENTRIES_AT + mid * ENTRY_SIZE;
                let mid_id = le32(raw, at + 4);
                if mid_id == id {
                    return Ok(Some(DatEntry::decode(&raw[at..])));
                }
                if mid_id < id {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if is_null_branch(le32(raw, 0)) {
                return Ok(None);
            }
            node = le32(raw, 4 * lo);
        }
        Err(LookupError::TooDeep { node })
    }

    /// Every entry in ascending id order. Fails on cycles, on entries out of order and on
    /// internal nodes with missing branches.
    pub fn entries(&mut self) -> Result<Vec<DatEntry>, LookupError> {
        let mut out = Vec::new();
        let root = self.header.root_block;
        if is_null_branch(root) {
            return Ok(out);
        }
        let mut visited = HashSet::new();
        self.walk(root, 0, &mut visited, &mut out)?;
        Ok(out)
    }

    fn walk(
        &mut self,
        offset: u32,
        depth: usize,
        visited: &mut HashSet<u32>,
        out: &mut Vec<DatEntry>,
    ) -> Result<(), LookupError> {
        if depth >= MAX_DEPTH {
            return Err(LookupError::TooDeep { node: offset });
        }
        if !visited.insert(offset) {
            return Err(LookupError::Cycle { node: offset });
        }
        self.load_node(offset)?;
        let node = Node::decode(offset, &self.node).map_err(|count| LookupError::EntryCount {
            node: offset,
            count,
        })?;
        let push = |out: &mut Vec<DatEntry>, entry: DatEntry| {
            if let Some(prev) = out.last()
                && prev.id >= entry.id
            {
                return Err(LookupError::Unsorted {
                    node: offset,
                    id: entry.id,
                    previous: prev.id,
                });
            }
            out.push(entry);
            Ok(())
        };
        if node.is_leaf() {
            for entry in node.entries {
                push(out, entry)?;
            }
            return Ok(());
        }
        for (index, &branch) in node.branches.iter().enumerate() {
            if is_null_branch(branch) {
                return Err(LookupError::MissingBranch {
                    node: offset,
                    index,
                });
            }
            self.walk(branch, depth + 1, visited, out)?;
            if let Some(&entry) = node.entries.get(index) {
                push(out, entry)?;
            }
        }
        Ok(())
    }

    /// The payload of `id`, inflated if compressed; `Ok(None)` if the id is absent.
    pub fn read(&mut self, id: u32) -> Result<Option<Vec<u8>>, ReadEntryError> {
        match self.entry(id)? {
            Some(entry) => self.read_entry(&entry).map(Some),
            None => Ok(None),
        }
    }

    /// The payload of an entry, inflated if compressed.
    pub fn read_entry(&mut self, entry: &DatEntry) -> Result<Vec<u8>, ReadEntryError> {
        let mut out = Vec::new();
        self.read_entry_into(entry, &mut out)?;
        Ok(out)
    }

    /// Like [`read_entry`](Self::read_entry) but into a caller's buffer (cleared first), so
    /// a loop over many entries reuses one allocation.
    pub fn read_entry_into(
        &mut self,
        entry: &DatEntry,
        out: &mut Vec<u8>,
    ) -> Result<(), ReadEntryError> {
        out.clear();
        if entry.is_compressed() {
            let mut stored = Vec::new();
            self.read_stored(entry, &mut stored)?;
            inflate(entry, &stored, self.bound, out)
        } else {
            self.read_stored(entry, out)
        }
    }

    /// The stored bytes of an entry (`entry.size` bytes from its chain), not inflated.
    pub(super) fn read_stored(
        &mut self,
        entry: &DatEntry,
        out: &mut Vec<u8>,
    ) -> Result<(), ReadEntryError> {
        let bs = u64::from(self.header.block_size);
        let limit = self.bound / bs * (bs - 4);
        if u64::from(entry.size) > limit {
            return Err(ReadEntryError::SizeTooLarge {
                id: entry.id,
                offset: entry.offset,
                size: entry.size,
                file_size: self.bound,
            });
        }
        out.resize(entry.size as usize, 0);
        read_chain(
            &mut self.inner,
            self.header.block_size,
            self.bound,
            entry.offset,
            out,
            &mut self.scratch,
        )
        .map(|_| ())
        .map_err(|fault| entry_fault(entry.id, self.bound, fault))
    }

    /// The Iteration record (0xFFFF0001), if the dat has one.
    pub fn iteration(&mut self) -> Result<Option<Iteration>, ReadIterationError> {
        match self.read(ITERATION_ID)? {
            Some(bytes) => Ok(Some(Iteration::from_bytes(&bytes)?)),
            None => Ok(None),
        }
    }
}

/// Checks the header against the actual file length.
pub(crate) fn validate_header(header: &DatHeader, actual: u64) -> Result<(), OpenDatError> {
    if header.magic != DAT_MAGIC {
        return Err(OpenDatError::BadMagic {
            magic: header.magic,
        });
    }
    if !is_sane_block_size(header.block_size) {
        return Err(OpenDatError::BadBlockSize {
            block_size: header.block_size,
        });
    }
    if (header.file_size as usize) < HEADER_SIZE {
        return Err(OpenDatError::FileSizeTooSmall {
            file_size: header.file_size,
        });
    }
    if u64::from(header.file_size) > actual {
        return Err(OpenDatError::Truncated {
            file_size: header.file_size,
            actual,
        });
    }
    let root = header.root_block;
    if !is_null_branch(root)
        && ((root as usize) < HEADER_SIZE || u64::from(root) + 4 > u64::from(header.file_size))
    {
        return Err(OpenDatError::RootOutOfBounds {
            root,
            file_size: header.file_size,
        });
    }
    Ok(())
}

/// A chain fault met while reading B-tree node `node`, as a lookup error.
pub(crate) fn node_fault(node: u32, file_size: u64, fault: ChainFault) -> LookupError {
    match fault {
        ChainFault::OutOfBounds { block } => LookupError::BlockOutOfBounds {
            node,
            block,
            file_size,
        },
        ChainFault::TooShort { block } => LookupError::ChainTooShort { node, block },
        ChainFault::Loop { block } => LookupError::ChainLoop { node, block },
        ChainFault::Io { offset, source } => LookupError::Io {
            node,
            offset,
            source,
        },
    }
}

pub(super) fn entry_fault(id: u32, file_size: u64, fault: ChainFault) -> ReadEntryError {
    match fault {
        ChainFault::OutOfBounds { block } => ReadEntryError::BlockOutOfBounds {
            id,
            block,
            file_size,
        },
        ChainFault::TooShort { block } => ReadEntryError::ChainTooShort { id, block },
        ChainFault::Loop { block } => ReadEntryError::ChainLoop { id, block },
        ChainFault::Io { offset, source } => ReadEntryError::Io { id, offset, source },
    }
}

/// Inflates `u32 size` + zlib stream into `out`, allocating no more than the smaller of the
/// declared size and the file size up front, and never producing more than declared.
fn inflate(
    entry: &DatEntry,
    stored: &[u8],
    file_size: u64,
    out: &mut Vec<u8>,
) -> Result<(), ReadEntryError> {
    let (id, offset) = (entry.id, entry.offset);
    let Some((prefix, stream)) = stored.split_first_chunk::<4>() else {
        return Err(ReadEntryError::CompressedTooShort {
            id,
            offset,
            size: entry.size,
        });
    };
    let declared = u32::from_le_bytes(*prefix);
    let limit = stream.len() as u64 * MAX_INFLATE_RATIO + 64;
    if u64::from(declared) > limit {
        return Err(ReadEntryError::InflatedTooLarge {
            id,
            offset,
            declared,
            limit,
        });
    }
    out.clear();
    out.reserve(u64::from(declared).min(file_size) as usize);
    let mut decoder = ZlibDecoder::new(stream).take(u64::from(declared) + 1);
    decoder
        .read_to_end(out)
        .map_err(|source| ReadEntryError::Inflate { id, offset, source })?;
    if out.len() as u64 != u64::from(declared) {
        return Err(ReadEntryError::InflatedSize {
            id,
            offset,
            declared,
            actual: out.len() as u64,
        });
    }
    Ok(())
}
