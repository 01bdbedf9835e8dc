//! `DatWriter`: builds or edits a dat in memory, laid out as DatReaderWriter lays it out.
//!
//! Layout choices (spec §1 plus DatReaderWriter's writer):
//! - header: transactions area `00 50 4C 00` + 60 zeros on every write, magic 0x5442, first
//!   block at `ceil(400 / block_size) * block_size`;
//! - nodes are written as 1720 bytes (`ceil(1720 / (block_size - 4))` blocks), unused branch
//!   slots of a non-empty node hold 0xCDCDCDCD, leaves have no branches;
//! - B-tree of degree 31 (≤ 61 entries, ≤ 62 branches); insert splits full nodes on the way
//!   down (median = entry 30), delete borrows from or merges with a sibling on the way down;
//! - entries: version 2, flags bit 0 = zlib; compression is kept only when
//!   `4 + zlib < payload` and the payload is ≥ 16 bytes (as DatReaderWriter does);
//! - a payload's blocks are allocated before any new node's blocks, a new root before the
//!   sibling its split creates;
//! - blocks released by a smaller replacement, a removal or a merge go onto an in-band free
//!   list (`next = following free block | 0x8000_0000`, head in `FirstFreeBlock`, count in
//!   `FreeBlockCount`) and are reused first; with no free block the file grows by one block.
//!   DatReaderWriter never releases blocks and pre-allocates runs of empty blocks; this writer
//!   keeps files compact instead.
//! - Iteration (0xFFFF0001): like DatReaderWriter, a new dat has none; inserting an entry
//!   whose iteration exceeds the current one (1 by default) writes `Iteration::new(it)`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{Cursor, Write};
use std::ops::{Deref, DerefMut};

use flate2::Compression;
use flate2::write::ZlibEncoder;

use super::bytes::{le32, put32};
use super::chain::{ChainFault, blocks_for, chain_blocks, gather};
use super::entry::{DatEntry, ENTRY_VERSION, FLAG_COMPRESSED};
use super::error::{LookupError, MAX_DEPTH, OpenDatError, WriteDatError};
use super::header::{
    DRW_TRANSACTIONS, DatHeader, DatKind, HEADER_SIZE, first_block_offset, is_sane_block_size,
};
use super::iteration::{ITERATION_ID, Iteration};
use super::node::{DEGREE, MAX_ENTRIES, NODE_READ_SIZE, NODE_WRITE_SIZE, Node, is_null_branch};
use super::reader::{DatReader, validate_header};

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

fn node_chain_fault(node: u32, file_size: u64, fault: ChainFault) -> LookupError {
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

    // ----- header and free list -------------------------------------------------------------

    fn sync_header(&mut self) {
        self.header.transactions = DRW_TRANSACTIONS;
        self.header.file_size = self.bytes.len() as u32;
        self.bytes[..HEADER_SIZE].copy_from_slice(&self.header.to_bytes());
    }

    fn block_ok(&self, block: u32) -> bool {
        let bs = u64::from(self.header.block_size);
        block as usize >= HEADER_SIZE && u64::from(block) + bs <= self.bytes.len() as u64
    }

    /// Validates the in-band free list; converts DatReaderWriter's older contiguous-run form
    /// (free blocks `FirstFreeBlock, +BlockSize, …` with zero next pointers) to the linked form.
    fn check_free_list(&mut self) -> Result<(), OpenDatError> {
        let h = &self.header;
        let (first, last, count, bs) = (
            h.first_free_block,
            h.last_free_block,
            h.free_block_count,
            h.block_size,
        );
        if count == 0 {
            return Ok(());
        }
        let room = self.bytes.len() as u64 / u64::from(bs);
        if u64::from(count) > room {
            return Err(OpenDatError::FreeList {
                offset: first,
                reason: "count exceeds the file",
            });
        }
        let nth = |i: u32| u32::try_from(u64::from(first) + u64::from(i) * u64::from(bs)).ok();
        let contiguous = nth(count - 1) == Some(last)
            && (0..count).all(|i| nth(i).is_some_and(|b| self.block_ok(b)));
        let mut seen = HashSet::new();
        let mut block = first;
        for i in 0..count {
            if !self.block_ok(block) {
                return Err(OpenDatError::FreeList {
                    offset: block,
                    reason: "block outside the file",
                });
            }
            if !seen.insert(block) {
                return Err(OpenDatError::FreeList {
                    offset: block,
                    reason: "list loops",
                });
            }
            let raw = le32(&self.bytes, block as usize);
            if i + 1 < count && raw & !FREE_MARK == 0 {
                if contiguous {
                    for j in 0..count {
                        let b = nth(j).unwrap_or(0);
                        let next = if j + 1 < count {
                            nth(j + 1).unwrap_or(0)
                        } else {
                            0
                        };
                        put32(&mut self.bytes, b as usize, next | FREE_MARK);
                    }
                    return Ok(());
                }
                return Err(OpenDatError::FreeList {
                    offset: block,
                    reason: "list ends early",
                });
            }
            block = raw & !FREE_MARK;
        }
        Ok(())
    }

    /// Takes a block from the free list, or appends one to the file.
    fn reserve(&mut self) -> Result<u32, Fault> {
        if self.header.free_block_count > 0 {
            let head = self.header.first_free_block;
            if !self.block_ok(head) {
                return Err(Fault::FreeList { offset: head });
            }
            let next = le32(&self.bytes, head as usize) & !FREE_MARK;
            self.header.free_block_count -= 1;
            // as DatReaderWriter: the head moves on, the tail stays where it was
            self.header.first_free_block = if self.header.free_block_count == 0 {
                0
            } else {
                next
            };
            put32(&mut self.bytes, head as usize, 0);
            return Ok(head);
        }
        let at = self.bytes.len();
        let end = at as u64 + u64::from(self.header.block_size);
        if end > u64::from(u32::MAX) {
            return Err(Fault::FileTooLarge);
        }
        self.bytes.resize(end as usize, 0);
        self.header.file_size = end as u32;
        Ok(at as u32)
    }

    /// Puts a block at the head of the free list and zeroes its payload.
    fn release(&mut self, block: u32) {
        if !self.block_ok(block) {
            return;
        }
        let b = block as usize;
        let bs = self.header.block_size as usize;
        let next = if self.header.free_block_count == 0 {
            self.header.last_free_block = block;
            FREE_MARK
        } else {
            self.header.first_free_block | FREE_MARK
        };
        put32(&mut self.bytes, b, next);
        self.bytes[b + 4..b + bs].fill(0);
        self.header.first_free_block = block;
        self.header.free_block_count = self.header.free_block_count.saturating_add(1);
    }

    // ----- chains ---------------------------------------------------------------------------

    /// Writes `data` over the given chain (or a new one), returning the first block.
    fn write_chain(&mut self, mut blocks: Vec<u32>, data: &[u8]) -> Result<u32, Fault> {
        let bs = self.header.block_size;
        let need = blocks_for(data.len(), bs);
        let surplus = if blocks.len() > need {
            blocks.split_off(need)
        } else {
            Vec::new()
        };
        while blocks.len() < need {
            blocks.push(self.reserve()?);
        }
        let payload = bs as usize - 4;
        for (i, &block) in blocks.iter().enumerate() {
            let next = blocks.get(i + 1).copied().unwrap_or(0);
            let b = block as usize;
            put32(&mut self.bytes, b, next);
            let chunk = data.get(i * payload..).unwrap_or(&[]);
            let chunk = &chunk[..chunk.len().min(payload)];
            self.bytes[b + 4..b + 4 + chunk.len()].copy_from_slice(chunk);
        }
        for block in surplus {
            self.release(block);
        }
        Ok(blocks[0])
    }

    fn write_payload(&mut self, old: Option<(u32, usize)>, data: &[u8]) -> Result<u32, Fault> {
        let bs = self.header.block_size;
        let blocks = match old {
            Some((offset, len)) => {
                let n = blocks_for(len, bs);
                chain_blocks(&self.bytes, bs, offset, n, n).map_err(|f| Fault::Chain {
                    offset,
                    block: chain_block(&f, offset),
                })?
            }
            None => Vec::new(),
        };
        self.write_chain(blocks, data)
    }

    // ----- nodes ----------------------------------------------------------------------------

    /// The blocks of an existing node: enough for 1716 bytes, one more if the chain has it
    /// (nodes written as 1720 bytes may need it).
    fn node_blocks(&self, offset: u32) -> Result<Vec<u32>, Fault> {
        let bs = self.header.block_size;
        chain_blocks(
            &self.bytes,
            bs,
            offset,
            blocks_for(NODE_READ_SIZE, bs),
            blocks_for(NODE_WRITE_SIZE, bs),
        )
        .map_err(|f| Fault::Tree(node_chain_fault(offset, self.bytes.len() as u64, f)))
    }

    fn read_node(&self, offset: u32) -> Result<Node, Fault> {
        if is_null_branch(offset) {
            return Err(Fault::Tree(LookupError::MissingBranch {
                node: offset,
                index: 0,
            }));
        }
        let blocks = self.node_blocks(offset)?;
        let raw = gather(&self.bytes, self.header.block_size, &blocks, NODE_READ_SIZE);
        let raw: &[u8; NODE_READ_SIZE] = raw[..].try_into().map_err(|_| {
            Fault::Tree(LookupError::ChainTooShort {
                node: offset,
                block: offset,
            })
        })?;
        let node = Node::decode(offset, raw).map_err(|count| {
            Fault::Tree(LookupError::EntryCount {
                node: offset,
                count,
            })
        })?;
        if let Some(index) = node.branches.iter().position(|&b| is_null_branch(b)) {
            return Err(Fault::Tree(LookupError::MissingBranch {
                node: offset,
                index,
            }));
        }
        Ok(node)
    }

    /// Reserves the blocks of a new node (all of them, so they are consecutive when taken
    /// from the end of the file) and returns its offset.
    fn alloc_node(&mut self) -> Result<u32, Fault> {
        let n = blocks_for(NODE_WRITE_SIZE, self.header.block_size);
        let mut blocks = Vec::with_capacity(n);
        for _ in 0..n {
            blocks.push(self.reserve()?);
        }
        for (i, &block) in blocks.iter().enumerate() {
            let next = blocks.get(i + 1).copied().unwrap_or(0);
            put32(&mut self.bytes, block as usize, next);
        }
        Ok(blocks[0])
    }

    fn write_node(&mut self, node: &mut Node) -> Result<(), Fault> {
        if node.offset == 0 {
            node.offset = self.alloc_node()?;
        }
        let mut raw = [0u8; NODE_WRITE_SIZE];
        node.encode(&mut raw);
        let blocks = self.node_blocks(node.offset)?;
        node.offset = self.write_chain(blocks, &raw)?;
        Ok(())
    }

    fn free_node(&mut self, offset: u32) -> Result<(), Fault> {
        for block in self.node_blocks(offset)? {
            self.release(block);
        }
        Ok(())
    }

    // ----- B-tree ---------------------------------------------------------------------------

    fn find(&self, id: u32) -> Result<Option<Found>, LookupError> {
        let mut offset = self.header.root_block;
        for _ in 0..MAX_DEPTH {
            if is_null_branch(offset) {
                return Ok(None);
            }
            let node = match self.read_node(offset) {
                Ok(node) => node,
                Err(Fault::Tree(e)) => return Err(e),
                Err(_) => {
                    return Err(LookupError::ChainTooShort {
                        node: offset,
                        block: offset,
                    });
                }
            };
            let (index, hit) = node.search(id);
            if hit {
                return Ok(Some(Found {
                    entry: node.entries[index],
                    node: offset,
                    index,
                }));
            }
            if node.is_leaf() {
                return Ok(None);
            }
            offset = node.branches[index];
        }
        Err(LookupError::TooDeep { node: offset })
    }

    fn replace_in_node(&mut self, found: Found, entry: DatEntry) -> Result<(), Fault> {
        let mut node = self.read_node(found.node)?;
        node.entries[found.index] = entry;
        self.write_node(&mut node)
    }

    /// Splits the full child `parent.branches[i]`: entries 0..30 stay, entry 30 moves up,
    /// entries 31..61 (and branches 31..62) go to a new right sibling. Returns the sibling.
    fn split_child(
        &mut self,
        parent: &mut Node,
        i: usize,
        child: &mut Node,
    ) -> Result<Node, Fault> {
        let mut right = Node {
            offset: self.alloc_node()?,
            branches: Vec::new(),
            entries: Vec::new(),
        };
        right.entries = child.entries.split_off(DEGREE);
        if !child.is_leaf() {
            right.branches = child.branches.split_off(DEGREE);
        }
        let Some(median) = child.entries.pop() else {
            return Err(Fault::Tree(LookupError::EntryCount {
                node: child.offset,
                count: 0,
            }));
        };
        parent.entries.insert(i, median);
        parent.branches.insert(i + 1, right.offset);
        self.write_node(&mut right)?;
        self.write_node(child)?;
        self.write_node(parent)?;
        Ok(right)
    }

    fn tree_insert(&mut self, entry: DatEntry) -> Result<(), Fault> {
        if is_null_branch(self.header.root_block) {
            let mut root = Node::leaf();
            root.entries.push(entry);
            self.write_node(&mut root)?;
            self.header.root_block = root.offset;
            return Ok(());
        }
        let mut node = self.read_node(self.header.root_block)?;
        if node.entries.len() >= MAX_ENTRIES {
            let mut new_root = Node {
                offset: self.alloc_node()?,
                branches: vec![node.offset],
                entries: Vec::new(),
            };
            self.header.root_block = new_root.offset;
            let right = self.split_child(&mut new_root, 0, &mut node)?;
            node = if entry.id > new_root.entries[0].id {
                right
            } else {
                node
            };
            // descend from the new root's chosen child directly
        }
        for _ in 0..MAX_DEPTH {
            let (pos, hit) = node.search(entry.id);
            if hit {
                node.entries[pos] = entry;
                return self.write_node(&mut node);
            }
            if node.is_leaf() {
                node.entries.insert(pos, entry);
                return self.write_node(&mut node);
            }
            let mut child = self.read_node(node.branches[pos])?;
            if child.entries.len() >= MAX_ENTRIES {
                let right = self.split_child(&mut node, pos, &mut child)?;
                if entry.id > node.entries[pos].id {
                    child = right;
                }
            }
            node = child;
        }
        Err(Fault::Tree(LookupError::TooDeep { node: node.offset }))
    }

    /// Merges `parent.branches[i + 1]` (`right`) and `parent.entries[i]` into
    /// `parent.branches[i]` (`left`) and frees the right node.
    fn merge(
        &mut self,
        parent: &mut Node,
        i: usize,
        left: &mut Node,
        right: Node,
    ) -> Result<(), Fault> {
        left.entries.push(parent.entries.remove(i));
        left.entries.extend(right.entries);
        left.branches.extend(right.branches);
        parent.branches.remove(i + 1);
        self.write_node(left)?;
        self.write_node(parent)?;
        self.free_node(right.offset)
    }

    /// Rightmost entry of the subtree at `node`.
    fn max_entry(&self, mut node: Node) -> Result<DatEntry, Fault> {
        for _ in 0..MAX_DEPTH {
            match node.branches.last() {
                Some(&child) => node = self.read_node(child)?,
                None => {
                    return node.entries.last().copied().ok_or(Fault::Tree(
                        LookupError::EntryCount {
                            node: node.offset,
                            count: 0,
                        },
                    ));
                }
            }
        }
        Err(Fault::Tree(LookupError::TooDeep { node: node.offset }))
    }

    /// Leftmost entry of the subtree at `node`.
    fn min_entry(&self, mut node: Node) -> Result<DatEntry, Fault> {
        for _ in 0..MAX_DEPTH {
            match node.branches.first() {
                Some(&child) => node = self.read_node(child)?,
                None => {
                    return node.entries.first().copied().ok_or(Fault::Tree(
                        LookupError::EntryCount {
                            node: node.offset,
                            count: 0,
                        },
                    ));
                }
            }
        }
        Err(Fault::Tree(LookupError::TooDeep { node: node.offset }))
    }

    /// Deletes `id` from the tree (it must be present), keeping every node it descends into
    /// at ≥ 31 entries first by borrowing from a sibling or merging (CLRS B-TREE-DELETE).
    fn tree_delete(&mut self, id: u32) -> Result<(), Fault> {
        let mut key = id;
        let mut node = self.read_node(self.header.root_block)?;
        let mut done = false;
        for _ in 0..MAX_DEPTH * 2 {
            let (i, hit) = node.search(key);
            if hit {
                if node.is_leaf() {
                    node.entries.remove(i);
                    self.write_node(&mut node)?;
                    done = true;
                    break;
                }
                let mut left = self.read_node(node.branches[i])?;
                if left.entries.len() >= DEGREE {
                    let pred = self.max_entry(left.clone())?;
                    node.entries[i] = pred;
                    self.write_node(&mut node)?;
                    key = pred.id;
                    node = left;
                    continue;
                }
                let right = self.read_node(node.branches[i + 1])?;
                if right.entries.len() >= DEGREE {
                    let succ = self.min_entry(right.clone())?;
                    node.entries[i] = succ;
                    self.write_node(&mut node)?;
                    key = succ.id;
                    node = right;
                    continue;
                }
                self.merge(&mut node, i, &mut left, right)?;
                node = left;
                continue;
            }
            if node.is_leaf() {
                break;
            }
            let mut child = self.read_node(node.branches[i])?;
            if child.entries.len() < DEGREE {
                let mut left = match i {
                    0 => None,
                    _ => Some(self.read_node(node.branches[i - 1])?),
                };
                if let Some(l) = left.as_mut().filter(|l| l.entries.len() >= DEGREE) {
                    // borrow through the parent from the left sibling
                    let (Some(moved), Some(&sep)) = (l.entries.pop(), node.entries.get(i - 1))
                    else {
                        break;
                    };
                    child.entries.insert(0, sep);
                    node.entries[i - 1] = moved;
                    if let Some(b) = l.branches.pop() {
                        child.branches.insert(0, b);
                    }
                    self.write_node(&mut child)?;
                    self.write_node(&mut node)?;
                    self.write_node(l)?;
                    node = child;
                    continue;
                }
                let mut right = match i < node.entries.len() {
                    true => Some(self.read_node(node.branches[i + 1])?),
                    false => None,
                };
                if let Some(r) = right.as_mut().filter(|r| r.entries.len() >= DEGREE) {
                    // borrow through the parent from the right sibling
                    let moved = r.entries.remove(0);
                    child.entries.push(node.entries[i]);
                    node.entries[i] = moved;
                    if !r.branches.is_empty() {
                        child.branches.push(r.branches.remove(0));
                    }
                    self.write_node(&mut child)?;
                    self.write_node(&mut node)?;
                    self.write_node(r)?;
                    node = child;
                    continue;
                }
                match (left, right) {
                    (_, Some(r)) => {
                        self.merge(&mut node, i, &mut child, r)?;
                    }
                    (Some(mut l), None) => {
                        self.merge(&mut node, i - 1, &mut l, child)?;
                        child = l;
                    }
                    (None, None) => {}
                }
            }
            node = child;
        }
        if !done {
            return Err(Fault::Tree(LookupError::TooDeep { node: node.offset }));
        }
        let root = self.read_node(self.header.root_block)?;
        if root.entries.is_empty() && !root.is_leaf() {
            self.header.root_block = root.branches[0];
            self.free_node(root.offset)?;
        }
        Ok(())
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
