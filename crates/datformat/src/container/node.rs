//! B-tree directory nodes (spec §1.3): 62 branch slots, an entry count and up to 61 entries.

use super::bytes::{le32, put32};
use super::entry::{DatEntry, ENTRY_SIZE};

/// B-tree degree: nodes other than the root hold `DEGREE - 1 ..= 2 * DEGREE - 1` entries.
pub const DEGREE: usize = 31;

/// Most entries a node holds (61).
pub const MAX_ENTRIES: usize = 2 * DEGREE - 1;

/// Number of branch slots in a node (62).
pub const MAX_BRANCHES: usize = 2 * DEGREE;

/// Bytes of a node a reader needs: 62 branches, the count, 61 entries (1716).
pub const NODE_READ_SIZE: usize = 4 * MAX_BRANCHES + 4 + ENTRY_SIZE * MAX_ENTRIES;

/// Bytes per node DatReaderWriter writes (its `DatBTreeNode.SIZE`, 1720).
pub const NODE_WRITE_SIZE: usize = 1720;

/// The MSVC fill pattern; DatReaderWriter writes it into unused branch slots of non-empty
/// nodes, and retail data contains it. Never a node offset.
pub const BRANCH_FILL: u32 = 0xCDCD_CDCD;

/// Offset of the entry count inside a node.
pub(crate) const COUNT_AT: usize = 4 * MAX_BRANCHES;

/// Offset of the first entry inside a node.
pub(crate) const ENTRIES_AT: usize = COUNT_AT + 4;

/// Whether a branch value is "no child" (0 or the fill pattern).
pub(crate) fn is_null_branch(branch: u32) -> bool {
    branch == 0 || branch == BRANCH_FILL
}

/// A node decoded from (or to be encoded into) a block chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    /// Offset of the node's first block; 0 while not yet allocated.
    pub offset: u32,
    /// Child offsets: empty for a leaf, `entries.len() + 1` for an internal node.
    pub branches: Vec<u32>,
    /// Entries in ascending id order.
    pub entries: Vec<DatEntry>,
}

impl Node {
    /// An empty leaf.
    pub fn leaf() -> Self {
        Self {
            offset: 0,
            branches: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// Whether the node has no children.
    pub fn is_leaf(&self) -> bool {
        self.branches.is_empty()
    }

    /// Decodes a node: leaf iff `Branches[0]` is 0 or 0xCDCDCDCD; an internal node uses
    /// exactly `Branches[0..=EntryCount]` and the remaining slots are ignored (spec §1.3).
    /// Returns the raw entry count as the error when it exceeds 61.
    pub fn decode(offset: u32, raw: &[u8; NODE_READ_SIZE]) -> Result<Self, u32> {
        let count = le32(raw, COUNT_AT);
        if count as usize > MAX_ENTRIES {
            return Err(count);
        }
        let count = count as usize;
        let entries = (0..count)
            .map(|i| DatEntry::decode(&raw[ENTRIES_AT + i * ENTRY_SIZE..]))
            .collect();
        let branches = if is_null_branch(le32(raw, 0)) {
            Vec::new()
        } else {
            (0..=count).map(|i| le32(raw, 4 * i)).collect()
        };
        Ok(Self {
            offset,
            branches,
            entries,
        })
    }

    /// Encodes the node as DatReaderWriter writes it: 1720 bytes, unused branch slots of a
    /// non-empty node filled with 0xCDCDCDCD (zeros for an empty node), zeros after the entries.
    pub fn encode(&self, out: &mut [u8; NODE_WRITE_SIZE]) {
        out.fill(0);
        let fill = if self.entries.is_empty() {
            0
        } else {
            BRANCH_FILL
        };
        for slot in 0..MAX_BRANCHES {
            let value = self.branches.get(slot).copied().unwrap_or(fill);
            put32(out, 4 * slot, value);
        }
        let count = self.entries.len().min(MAX_ENTRIES);
        put32(out, COUNT_AT, count as u32);
        for (i, entry) in self.entries.iter().take(count).enumerate() {
            entry.encode(&mut out[ENTRIES_AT + i * ENTRY_SIZE..]);
        }
    }

    /// Number of entries whose id is below `id` (unsigned compare), and whether `id` is there.
    pub fn search(&self, id: u32) -> (usize, bool) {
        match self.entries.binary_search_by(|e| e.id.cmp(&id)) {
            Ok(i) => (i, true),
            Err(i) => (i, false),
        }
    }
}
