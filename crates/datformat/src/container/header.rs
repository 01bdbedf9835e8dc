//! The 400-byte file header at offset 0 of every `.dat` (spec §1.1).

use super::bytes::{le32, put32};

/// Size of the header in bytes (DatReaderWriter `DatHeader.SIZE`).
pub const HEADER_SIZE: usize = 400;

/// The value at 0x140: bytes `42 54 00 00` ("BT").
pub const DAT_MAGIC: u32 = 0x0000_5442;

/// Smallest block size this crate accepts (retail uses 256 and 1024).
pub const MIN_BLOCK_SIZE: u32 = 32;

/// Largest block size this crate accepts.
pub const MAX_BLOCK_SIZE: u32 = 1 << 16;

/// What DatReaderWriter writes into the transactions area whenever it writes a header:
/// `00 50 4C 00` followed by 60 zero bytes (spec §1.1).
pub const DRW_TRANSACTIONS: [u8; 64] = {
    let mut t = [0u8; 64];
    t[1] = 0x50;
    t[2] = 0x4C;
    t
};

/// Which dat a file is (header field `Type` at 0x14C, spec §1.1 and §1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DatKind {
    /// `client_portal.dat` and `client_highres.dat` (1).
    Portal,
    /// `client_cell_1.dat` (2).
    Cell,
    /// `client_local_English.dat` (3).
    Local,
    /// Any other value, kept so the header round-trips.
    Other(u32),
}

/// `portal`, `cell`, `local`, or `type N` for another raw value.
impl std::fmt::Display for DatKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Portal => f.write_str("portal"),
            Self::Cell => f.write_str("cell"),
            Self::Local => f.write_str("local"),
            Self::Other(raw) => write!(f, "type {raw}"),
        }
    }
}

impl DatKind {
    /// The kind for a raw `Type` value.
    #[must_use]
    pub fn from_raw(raw: u32) -> Self {
        match raw {
            1 => Self::Portal,
            2 => Self::Cell,
            3 => Self::Local,
            other => Self::Other(other),
        }
    }

    /// The raw `Type` value.
    #[must_use]
    pub fn raw(self) -> u32 {
        match self {
            Self::Portal => 1,
            Self::Cell => 2,
            Self::Local => 3,
            Self::Other(raw) => raw,
        }
    }

    /// The block size retail uses for this kind: 256 for the cell dat, 1024 otherwise.
    #[must_use]
    pub fn default_block_size(self) -> u32 {
        match self {
            Self::Cell => 256,
            _ => 1024,
        }
    }
}

/// Every field of the 400-byte header, named after DatReaderWriter (snake case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatHeader {
    /// 0x000: ASCII version string, NUL padded (empty in retail dats).
    pub version: [u8; 256],
    /// 0x100: "last transaction" area; ignored on read.
    pub transactions: [u8; 64],
    /// 0x140: must be [`DAT_MAGIC`].
    pub magic: u32,
    /// 0x144: bytes per block, including the 4-byte next pointer.
    pub block_size: u32,
    /// 0x148: total size of the file in bytes.
    pub file_size: u32,
    /// 0x14C: 1 portal, 2 cell, 3 local.
    pub dat_type: DatKind,
    /// 0x150: data subset (spec table 1.7).
    pub sub_set: u32,
    /// 0x154: head of the free-block list (0 when empty).
    pub first_free_block: u32,
    /// 0x158: tail of the free-block list.
    pub last_free_block: u32,
    /// 0x15C: number of blocks on the free list.
    pub free_block_count: u32,
    /// 0x160: absolute offset of the B-tree root node (0 = empty tree).
    pub root_block: u32,
    /// 0x164: unused.
    pub new_lru: u32,
    /// 0x168: unused.
    pub old_lru: u32,
    /// 0x16C: unused boolean.
    pub use_lru: u32,
    /// 0x170: master map id.
    pub master_map_id: u32,
    /// 0x174: engine pack version.
    pub engine_version: u32,
    /// 0x178: game pack version.
    pub game_version: u32,
    /// 0x17C: major version GUID, raw 16 bytes.
    pub major_version: [u8; 16],
    /// 0x18C: minor version.
    pub minor_version: u32,
}

impl DatHeader {
    /// A header for a new, empty dat as DatReaderWriter's `InitNew` sets it up: magic, block size,
    /// type, and a file that ends at the first block ([`first_block_offset`]).
    #[must_use]
    pub fn new(kind: DatKind, block_size: u32) -> Self {
        Self {
            version: [0; 256],
            transactions: DRW_TRANSACTIONS,
            magic: DAT_MAGIC,
            block_size,
            file_size: first_block_offset(block_size),
            dat_type: kind,
            sub_set: 0,
            first_free_block: 0,
            last_free_block: 0,
            free_block_count: 0,
            root_block: 0,
            new_lru: 0,
            old_lru: 0,
            use_lru: 0,
            master_map_id: 0,
            engine_version: 0,
            game_version: 0,
            major_version: [0; 16],
            minor_version: 0,
        }
    }

    /// Decodes the 400 header bytes. Never fails; validation is the reader's job.
    #[must_use]
    pub fn from_bytes(bytes: &[u8; HEADER_SIZE]) -> Self {
        let mut version = [0u8; 256];
        version.copy_from_slice(&bytes[..0x100]);
        let mut transactions = [0u8; 64];
        transactions.copy_from_slice(&bytes[0x100..0x140]);
        let mut major_version = [0u8; 16];
        major_version.copy_from_slice(&bytes[0x17C..0x18C]);
        Self {
            version,
            transactions,
            magic: le32(bytes, 0x140),
            block_size: le32(bytes, 0x144),
            file_size: le32(bytes, 0x148),
            dat_type: DatKind::from_raw(le32(bytes, 0x14C)),
            sub_set: le32(bytes, 0x150),
            first_free_block: le32(bytes, 0x154),
            last_free_block: le32(bytes, 0x158),
            free_block_count: le32(bytes, 0x15C),
            root_block: le32(bytes, 0x160),
            new_lru: le32(bytes, 0x164),
            old_lru: le32(bytes, 0x168),
            use_lru: le32(bytes, 0x16C),
            master_map_id: le32(bytes, 0x170),
            engine_version: le32(bytes, 0x174),
            game_version: le32(bytes, 0x178),
            major_version,
            minor_version: le32(bytes, 0x18C),
        }
    }

    /// Encodes the header into its 400 bytes, exactly as the fields say.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        b[..0x100].copy_from_slice(&self.version);
        b[0x100..0x140].copy_from_slice(&self.transactions);
        put32(&mut b, 0x140, self.magic);
        put32(&mut b, 0x144, self.block_size);
        put32(&mut b, 0x148, self.file_size);
        put32(&mut b, 0x14C, self.dat_type.raw());
        put32(&mut b, 0x150, self.sub_set);
        put32(&mut b, 0x154, self.first_free_block);
        put32(&mut b, 0x158, self.last_free_block);
        put32(&mut b, 0x15C, self.free_block_count);
        put32(&mut b, 0x160, self.root_block);
        put32(&mut b, 0x164, self.new_lru);
        put32(&mut b, 0x168, self.old_lru);
        put32(&mut b, 0x16C, self.use_lru);
        put32(&mut b, 0x170, self.master_map_id);
        put32(&mut b, 0x174, self.engine_version);
        put32(&mut b, 0x178, self.game_version);
        b[0x17C..0x18C].copy_from_slice(&self.major_version);
        put32(&mut b, 0x18C, self.minor_version);
        b
    }

    /// The version string up to its first NUL, lossily decoded.
    #[must_use]
    pub fn version_string(&self) -> String {
        let end = self
            .version
            .iter()
            .position(|&c| c == 0)
            .unwrap_or(self.version.len());
        String::from_utf8_lossy(&self.version[..end]).into_owned()
    }
}

/// Where a new dat's first block goes: `ceil(400 / block_size) * block_size` (spec §1.2;
/// 0x400 for 1024-byte blocks, 0x200 for 256-byte blocks).
#[must_use]
pub fn first_block_offset(block_size: u32) -> u32 {
    let bs = block_size.max(1);
    (HEADER_SIZE as u32).div_ceil(bs).saturating_mul(bs)
}

/// Whether `block_size` is one this crate reads and writes.
#[must_use]
pub fn is_sane_block_size(block_size: u32) -> bool {
    (MIN_BLOCK_SIZE..=MAX_BLOCK_SIZE).contains(&block_size)
}
