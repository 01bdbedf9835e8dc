//! The 24-byte file entry stored in B-tree nodes (spec §1.4).

use super::bytes::{le16, le32, put16, put32};

/// Size of one file entry in a node.
pub const ENTRY_SIZE: usize = 24;

/// `flags` bit 0: the stored payload is `u32 uncompressed size` + a zlib stream (spec §1.6).
pub const FLAG_COMPRESSED: u16 = 0x0001;

/// The entry version retail and DatReaderWriter write.
pub const ENTRY_VERSION: u16 = 2;

/// One directory entry: where a file's bytes live and how they are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DatEntry {
    /// Flags; bit 0 ([`FLAG_COMPRESSED`]) = zlib-compressed payload.
    pub flags: u16,
    /// Entry version, 2 in retail dats.
    pub version: u16,
    /// File id (the B-tree key, compared unsigned).
    pub id: u32,
    /// Absolute offset of the first block of the payload's chain.
    pub offset: u32,
    /// Number of stored payload bytes (the compressed size if compressed).
    pub size: u32,
    /// Unix timestamp (seconds, UTC).
    pub raw_date: u32,
    /// Iteration the file was last changed in.
    pub iteration: u32,
}

impl DatEntry {
    /// Whether the stored payload is zlib-compressed.
    #[must_use]
    pub fn is_compressed(&self) -> bool {
        self.flags & FLAG_COMPRESSED != 0
    }

    /// Decodes an entry from the first 24 bytes of `b` (`b.len() >= 24`).
    pub(crate) fn decode(b: &[u8]) -> Self {
        Self {
            flags: le16(b, 0),
            version: le16(b, 2),
            id: le32(b, 4),
            offset: le32(b, 8),
            size: le32(b, 12),
            raw_date: le32(b, 16),
            iteration: le32(b, 20),
        }
    }

    /// Encodes the entry into the first 24 bytes of `b` (`b.len() >= 24`).
    pub(crate) fn encode(&self, b: &mut [u8]) {
        put16(b, 0, self.flags);
        put16(b, 2, self.version);
        put32(b, 4, self.id);
        put32(b, 8, self.offset);
        put32(b, 12, self.size);
        put32(b, 16, self.raw_date);
        put32(b, 20, self.iteration);
    }
}
