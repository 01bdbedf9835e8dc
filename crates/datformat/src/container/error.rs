//! Errors of the container operations: one enum per operation.

use super::iteration::IterationError;
use super::node::MAX_ENTRIES;

/// Deepest B-tree walked before the walk is declared corrupt. A degree-31 tree needs 7 levels
/// for 2^32 entries, so anything near this bound is a cycle or garbage.
pub const MAX_DEPTH: usize = 32;

/// Opening a dat (`DatReader::new`, `DatWriter::from_bytes`) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenDatError {
    /// The underlying reader failed.
    #[error("I/O error reading the dat header")]
    Io {
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file is shorter than the 400-byte header.
    #[error("not a DAT file: {len} bytes, shorter than the 400-byte dat header")]
    TooShort {
        /// Actual length.
        len: u64,
    },
    /// The magic at 0x140 is not 0x5442.
    #[error("not a DAT file: magic 0x{magic:08X} at byte 0x140 (expected 0x00005442)")]
    BadMagic {
        /// Value found.
        magic: u32,
    },
    /// The block size is outside 32..=65536.
    #[error("unsupported block size {block_size} at byte 0x144")]
    BadBlockSize {
        /// Value found.
        block_size: u32,
    },
    /// The header's file size does not even cover the header.
    #[error("header file size {file_size} at byte 0x148 is smaller than the header")]
    FileSizeTooSmall {
        /// Value found.
        file_size: u32,
    },
    /// The header claims more bytes than the file has.
    #[error("header says the dat is {file_size} bytes but only {actual} are present (truncated)")]
    Truncated {
        /// Header `FileSize`.
        file_size: u32,
        /// Actual length.
        actual: u64,
    },
    /// The root node offset lies in the header or beyond the end of the file.
    #[error(
        "B-tree root {root:#x} (byte 0x160) lies outside the blocks of a {file_size}-byte file"
    )]
    RootOutOfBounds {
        /// Header `RootBlock`.
        root: u32,
        /// Header `FileSize`.
        file_size: u32,
    },
    /// The free-block list is inconsistent (only checked when opening for writing).
    #[error("free-block list is corrupt at block {offset:#x}: {reason}")]
    FreeList {
        /// Block where the problem was found.
        offset: u32,
        /// What is wrong.
        reason: &'static str,
    },
    /// The Iteration entry (0xFFFF0001) could not be read (only checked when opening for writing).
    #[error("cannot read the Iteration entry 0xFFFF0001")]
    Iteration {
        /// Why.
        #[source]
        source: Box<ReadIterationError>,
    },
}

/// Looking an id up, or walking all entries, failed because the B-tree is corrupt or I/O failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// The underlying reader failed.
    #[error("I/O error reading B-tree node {node:#x} at byte {offset:#x}")]
    Io {
        /// Node being read.
        node: u32,
        /// Byte offset of the failed read.
        offset: u64,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A block of a node lies in the header or beyond the end of the file.
    #[error("B-tree node {node:#x}: block {block:#x} lies outside the file ({file_size} bytes)")]
    BlockOutOfBounds {
        /// Node being read.
        node: u32,
        /// Offending block offset.
        block: u32,
        /// Header `FileSize`.
        file_size: u64,
    },
    /// A node's block chain ends (next ≤ 0 as i32) before 1716 bytes were read.
    #[error("B-tree node {node:#x}: block chain ends early at block {block:#x}")]
    ChainTooShort {
        /// Node being read.
        node: u32,
        /// Last block of the chain.
        block: u32,
    },
    /// A node's block chain visits a block twice.
    #[error("B-tree node {node:#x}: block chain loops through block {block:#x}")]
    ChainLoop {
        /// Node being read.
        node: u32,
        /// A block visited twice.
        block: u32,
    },
    /// A node claims more than 61 entries.
    #[error("B-tree node {node:#x} claims {count} entries (at most {MAX_ENTRIES})")]
    EntryCount {
        /// Node being read.
        node: u32,
        /// Entry count found (byte 248 of the node).
        count: u32,
    },
    /// The walk went deeper than [`MAX_DEPTH`] levels (a cycle in a lookup path).
    #[error("B-tree deeper than {MAX_DEPTH} levels at node {node:#x}")]
    TooDeep {
        /// Node at which the walk gave up.
        node: u32,
    },
    /// A node is reached twice while walking the whole tree.
    #[error("B-tree node {node:#x} is reached twice (cycle)")]
    Cycle {
        /// Node reached twice.
        node: u32,
    },
    /// An internal node has a 0 / 0xCDCDCDCD branch among its `EntryCount + 1` branches.
    #[error("B-tree node {node:#x}: branch {index} of an internal node is empty")]
    MissingBranch {
        /// Internal node.
        node: u32,
        /// Branch slot.
        index: usize,
    },
    /// Entries are not in strictly ascending id order.
    #[error("B-tree node {node:#x}: id 0x{id:08X} follows 0x{previous:08X} (not ascending)")]
    Unsorted {
        /// Node holding the out-of-order entry.
        node: u32,
        /// Offending id.
        id: u32,
        /// The id before it.
        previous: u32,
    },
}

/// Reading a file's payload failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadEntryError {
    /// Finding the entry failed.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// The underlying reader failed.
    #[error("I/O error reading file 0x{id:08X} at byte {offset:#x}")]
    Io {
        /// File id.
        id: u32,
        /// Byte offset of the failed read.
        offset: u64,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The entry's size could not fit in the file.
    #[error(
        "file 0x{id:08X} at {offset:#x}: size {size} exceeds what a {file_size}-byte dat can hold"
    )]
    SizeTooLarge {
        /// File id.
        id: u32,
        /// First block.
        offset: u32,
        /// Entry size.
        size: u32,
        /// Header `FileSize`.
        file_size: u64,
    },
    /// A block of the payload lies in the header or beyond the end of the file.
    #[error("file 0x{id:08X}: block {block:#x} lies outside the file ({file_size} bytes)")]
    BlockOutOfBounds {
        /// File id.
        id: u32,
        /// Offending block offset.
        block: u32,
        /// Header `FileSize`.
        file_size: u64,
    },
    /// The payload's block chain ends (next ≤ 0 as i32) before `size` bytes were read.
    #[error("file 0x{id:08X}: block chain ends early at block {block:#x}")]
    ChainTooShort {
        /// File id.
        id: u32,
        /// Last block of the chain.
        block: u32,
    },
    /// The payload's block chain visits a block twice.
    #[error("file 0x{id:08X}: block chain loops through block {block:#x}")]
    ChainLoop {
        /// File id.
        id: u32,
        /// A block visited twice.
        block: u32,
    },
    /// A compressed payload is shorter than its 4-byte size prefix.
    #[error(
        "file 0x{id:08X} at {offset:#x}: compressed payload of {size} bytes has no size prefix"
    )]
    CompressedTooShort {
        /// File id.
        id: u32,
        /// First block.
        offset: u32,
        /// Stored size.
        size: u32,
    },
    /// The declared uncompressed size is beyond what zlib can produce from the stored bytes.
    #[error(
        "file 0x{id:08X} at {offset:#x}: declared uncompressed size {declared} exceeds {limit}"
    )]
    InflatedTooLarge {
        /// File id.
        id: u32,
        /// First block.
        offset: u32,
        /// Declared size.
        declared: u32,
        /// Largest plausible size.
        limit: u64,
    },
    /// The zlib stream is corrupt.
    #[error("file 0x{id:08X} at {offset:#x}: zlib stream is corrupt")]
    Inflate {
        /// File id.
        id: u32,
        /// First block.
        offset: u32,
        /// The decoder error.
        #[source]
        source: std::io::Error,
    },
    /// The zlib stream inflated to a different size than declared.
    #[error("file 0x{id:08X} at {offset:#x}: inflated to {actual} bytes, declared {declared}")]
    InflatedSize {
        /// File id.
        id: u32,
        /// First block.
        offset: u32,
        /// Declared size.
        declared: u32,
        /// Bytes produced (capped at declared + 1).
        actual: u64,
    },
    /// The payload holds more than the caller's cap of bytes before its trailing zero run
    /// (found as it inflated; the rest was not kept).
    #[error(
        "file 0x{id:08X}: more than {cap} bytes before its zero padding (the {cap}-byte read cap)"
    )]
    OverCap {
        /// File id.
        id: u32,
        /// The cap in bytes.
        cap: usize,
    },
}

/// Reading the Iteration record (0xFFFF0001) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadIterationError {
    /// Reading the entry failed.
    #[error(transparent)]
    Read(#[from] ReadEntryError),
    /// The payload is malformed.
    #[error(transparent)]
    Parse(#[from] IterationError),
}

/// Changing a dat through `DatWriter` failed. The writer is left consistent except after
/// [`WriteDatError::Corrupt`] / [`WriteDatError::FreeList`] on a damaged input dat.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteDatError {
    /// The block size is outside 32..=65536.
    #[error("unsupported block size {block_size}")]
    BadBlockSize {
        /// Requested size.
        block_size: u32,
    },
    /// The payload does not fit a u32 size field.
    #[error("file 0x{id:08X}: payload of {len} bytes is too large for a dat entry")]
    PayloadTooLarge {
        /// File id.
        id: u32,
        /// Payload length.
        len: usize,
    },
    /// The dat would grow beyond 4 GiB (offsets are u32).
    #[error("file 0x{id:08X}: the dat would grow beyond 4 GiB")]
    FileTooLarge {
        /// File id.
        id: u32,
    },
    /// The existing B-tree is corrupt.
    #[error("file 0x{id:08X}: the B-tree is corrupt")]
    Corrupt {
        /// File id being written.
        id: u32,
        /// What is wrong.
        #[source]
        source: LookupError,
    },
    /// The existing payload's block chain is corrupt.
    #[error(
        "file 0x{id:08X}: its block chain starting at {offset:#x} is corrupt at block {block:#x}"
    )]
    EntryChain {
        /// File id.
        id: u32,
        /// First block.
        offset: u32,
        /// Offending block.
        block: u32,
    },
    /// The free-block list is corrupt.
    #[error("file 0x{id:08X}: the free-block list is corrupt at block {offset:#x}")]
    FreeList {
        /// File id being written.
        id: u32,
        /// Offending block.
        offset: u32,
    },
    /// zlib compression failed.
    #[error("file 0x{id:08X}: zlib compression failed")]
    Compress {
        /// File id.
        id: u32,
        /// The encoder error.
        #[source]
        source: std::io::Error,
    },
}
