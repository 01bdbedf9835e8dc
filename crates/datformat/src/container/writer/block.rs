//! The writer's block layer: header sync, the in-band free list, and block chains.

use std::collections::HashSet;

use super::{DatWriter, FREE_MARK, Fault, chain_block};
use crate::container::bytes::{le32, put32};
use crate::container::chain::{blocks_for, chain_blocks};
use crate::container::error::OpenDatError;
use crate::container::header::{DRW_TRANSACTIONS, HEADER_SIZE};

impl DatWriter {
    // ----- header and free list -------------------------------------------------------------

    pub(super) fn sync_header(&mut self) {
        self.header.transactions = DRW_TRANSACTIONS;
        self.header.file_size = self.bytes.len() as u32;
        self.bytes[..HEADER_SIZE].copy_from_slice(&self.header.to_bytes());
    }

    pub(super) fn block_ok(&self, block: u32) -> bool {
        let bs = u64::from(self.header.block_size);
        block as usize >= HEADER_SIZE && u64::from(block) + bs <= self.bytes.len() as u64
    }

    /// Validates the in-band free list; converts DatReaderWriter's older contiguous-run form
    /// (free blocks `FirstFreeBlock, +BlockSize, …` with zero next pointers) to the linked form.
    pub(super) fn check_free_list(&mut self) -> Result<(), OpenDatError> {
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
    pub(super) fn reserve(&mut self) -> Result<u32, Fault> {
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
        // Keep `LastFreeBlock` non-zero once blocks exist: DatReaderWriter's allocator takes
        // `FirstFreeBlock == 0 && LastFreeBlock == 0` for "no blocks yet" and would restart
        // the file at the first block. With a count of 0 the value is otherwise unused (and
        // DatReaderWriter itself leaves it on a used block after draining its list).
        self.header.last_free_block = at as u32;
        Ok(at as u32)
    }

    /// Puts a block at the head of the free list and zeroes its payload.
    pub(super) fn release(&mut self, block: u32) {
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
    pub(super) fn write_chain(&mut self, mut blocks: Vec<u32>, data: &[u8]) -> Result<u32, Fault> {
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

    pub(super) fn write_payload(
        &mut self,
        old: Option<(u32, usize)>,
        data: &[u8],
    ) -> Result<u32, Fault> {
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
}
