//! Block chains (spec §1.2): every block is `u32 next` + `block_size - 4` payload bytes.
//!
//! A chain ends where the next-block word is ≤ 0 as a signed 32-bit value: 0, or bit 31 set
//! (the mark of a free block), as DatReaderWriter reads it.

use std::io::{Read, Seek, SeekFrom};

use super::header::HEADER_SIZE;

/// Why a chain could not be followed. Converted into the operation's error with its context.
#[derive(Debug)]
pub(crate) enum ChainFault {
    /// A block lies in the header or beyond the file.
    OutOfBounds { block: u32 },
    /// The chain ends (next ≤ 0 as i32) before enough bytes were read.
    TooShort { block: u32 },
    /// The chain visits a block twice.
    Loop { block: u32 },
    /// The reader failed.
    Io { offset: u64, source: std::io::Error },
}

/// Number of blocks an object of `len` bytes occupies; at least one (a zero-length object
/// still owns its first block, as in DatReaderWriter).
pub(crate) fn blocks_for(len: usize, block_size: u32) -> usize {
    let payload = (block_size as usize).saturating_sub(4).max(1);
    len.div_ceil(payload).max(1)
}

/// Whether a next-block word ends the chain: ≤ 0 as a signed 32-bit value (0, or bit 31 set,
/// which marks a free block).
pub(crate) fn ends_chain(next: u32) -> bool {
    next == 0 || next & 0x8000_0000 != 0
}

/// Whether bytes `block .. block + 4 + used` lie after the header and inside `bound`.
fn in_bounds(block: u32, used: usize, bound: u64) -> bool {
    block as usize >= HEADER_SIZE && u64::from(block) + 4 + used as u64 <= bound
}

/// Reports a block visited twice, if any. `blocks` is scratch and gets reordered.
fn find_repeat(blocks: &mut [u32]) -> Option<u32> {
    if blocks.len() < 2 {
        return None;
    }
    blocks.sort_unstable();
    blocks.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// Reads `out.len()` bytes from the chain starting at `start`, through a `Read + Seek`.
/// Stops after `out.len()` bytes; bounds-checks every block against `bound` first. A loop
/// cannot run forever (the walk ends after `out.len()` bytes) and is reported afterwards.
pub(crate) fn read_chain<R: Read + Seek>(
    reader: &mut R,
    block_size: u32,
    bound: u64,
    start: u32,
    out: &mut [u8],
    scratch: &mut Vec<u32>,
) -> Result<usize, ChainFault> {
    let len = out.len();
    read_chain_until(reader, block_size, bound, start, out, scratch, |_| len)
}

/// Like [`read_chain`], but reads only as many bytes as `need` asks for, given the bytes
/// read so far (at most `out.len()`); returns how many were read. A B-tree node is read up to
/// its last entry this way.
pub(crate) fn read_chain_until<R: Read + Seek>(
    reader: &mut R,
    block_size: u32,
    bound: u64,
    start: u32,
    out: &mut [u8],
    scratch: &mut Vec<u32>,
    need: impl Fn(&[u8]) -> usize,
) -> Result<usize, ChainFault> {
    let payload = block_size as usize - 4;
    scratch.clear();
    let mut block = start;
    let mut filled = 0;
    let mut want = out.len().min(need(&out[..0]));
    while filled < want {
        let take = payload.min(out.len() - filled);
        if !in_bounds(block, take, bound) {
            return Err(ChainFault::OutOfBounds { block });
        }
        let at = u64::from(block);
        let io = |source| ChainFault::Io { offset: at, source };
        reader.seek(SeekFrom::Start(at)).map_err(io)?;
        let mut next = [0u8; 4];
        reader.read_exact(&mut next).map_err(io)?;
        reader
            .read_exact(&mut out[filled..filled + take])
            .map_err(io)?;
        scratch.push(block);
        filled += take;
        want = out.len().min(need(&out[..filled]));
        if filled < want {
            let n = u32::from_le_bytes(next);
            if ends_chain(n) {
                return Err(ChainFault::TooShort { block });
            }
            block = n;
        }
    }
    match find_repeat(scratch) {
        Some(block) => Err(ChainFault::Loop { block }),
        None => Ok(filled),
    }
}

/// The offsets of an in-memory chain's blocks: at least `min` blocks, then more while the
/// next pointer is non-zero, at most `max`. Every block must lie wholly inside `bytes`.
pub(crate) fn chain_blocks(
    bytes: &[u8],
    block_size: u32,
    start: u32,
    min: usize,
    max: usize,
) -> Result<Vec<u32>, ChainFault> {
    let bound = bytes.len() as u64;
    let payload = block_size as usize - 4;
    // a chain cannot have more distinct blocks than the file has room for
    let room = (bound / u64::from(block_size)) as usize;
    if min > room {
        return Err(ChainFault::OutOfBounds { block: start });
    }
    let mut blocks = Vec::with_capacity(min);
    let mut block = start;
    loop {
        if !in_bounds(block, payload, bound) {
            return Err(ChainFault::OutOfBounds { block });
        }
        blocks.push(block);
        if blocks.len() >= max.min(room.max(1)) {
            break;
        }
        let b = block as usize;
        let next = u32::from_le_bytes([bytes[b], bytes[b + 1], bytes[b + 2], bytes[b + 3]]);
        if ends_chain(next) {
            if blocks.len() < min {
                return Err(ChainFault::TooShort { block });
            }
            break;
        }
        if blocks.len() >= min && blocks.contains(&next) {
            // garbage next pointer after the required blocks: the chain ends here
            break;
        }
        block = next;
    }
    if blocks.len() < min {
        return Err(ChainFault::TooShort { block });
    }
    let mut sorted = blocks.clone();
    match find_repeat(&mut sorted) {
        Some(block) => Err(ChainFault::Loop { block }),
        None => Ok(blocks),
    }
}

/// Copies `len` payload bytes out of the given in-memory blocks (already bounds-checked by
/// [`chain_blocks`]).
pub(crate) fn gather(bytes: &[u8], block_size: u32, blocks: &[u32], len: usize) -> Vec<u8> {
    let payload = block_size as usize - 4;
    let mut out = Vec::with_capacity(len);
    for &block in blocks {
        let take = payload.min(len - out.len());
        let at = block as usize + 4;
        out.extend_from_slice(&bytes[at..at + take]);
        if out.len() == len {
            break;
        }
    }
    out
}
