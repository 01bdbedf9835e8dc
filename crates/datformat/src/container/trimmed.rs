//! Reading a payload in memory that follows its content, not its declared size: the bytes up
//! to the last non-zero one are kept (up to a cap), the zero run after them is only counted
//! as it inflates. A 256 MiB run of zero padding after a 252-byte record costs 64 KiB.

use std::io::{Read, Seek};

use flate2::read::ZlibDecoder;

use super::chain::read_chain_until;
use super::entry::DatEntry;
use super::error::ReadEntryError;
use super::reader::{DatReader, MAX_INFLATE_RATIO, entry_fault};

/// Bytes inflated at a time.
const CHUNK: usize = 64 << 10;

/// A payload without its trailing zero run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trimmed {
    /// The payload's bytes up to and including its last non-zero byte.
    pub head: Vec<u8>,
    /// Zero bytes after `head` (the payload is `head` followed by this many zeros).
    pub zeros: u64,
}

impl Trimmed {
    /// The payload's whole length.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.head.len() as u64 + self.zeros
    }

    /// Whether the payload is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes `chunk` (the next bytes of the payload) in; `false` when `head` would pass `cap`.
    fn push(&mut self, chunk: &[u8], cap: usize) -> bool {
        let Some(last) = chunk.iter().rposition(|&b| b != 0) else {
            self.zeros += chunk.len() as u64;
            return true;
        };
        let keep = self.head.len() as u64 + self.zeros + last as u64 + 1;
        if keep > cap as u64 {
            return false;
        }
        self.head.resize(self.head.len() + self.zeros as usize, 0);
        self.head.extend_from_slice(&chunk[..=last]);
        self.zeros = (chunk.len() - last - 1) as u64;
        true
    }
}

impl<R: Read + Seek> DatReader<R> {
    /// The payload's length as the entry declares it, before anything is inflated: the
    /// stored size, or a compressed entry's 4-byte size prefix (read alone). A caller with a
    /// byte budget checks this before [`read_entry`](Self::read_entry).
    ///
    /// # Errors
    /// [`ReadEntryError`]: the chain cannot be followed, or a compressed entry has no prefix.
    pub fn payload_size(&mut self, entry: &DatEntry) -> Result<u64, ReadEntryError> {
        if !entry.is_compressed() {
            return Ok(u64::from(entry.size));
        }
        if entry.size < 4 {
            return Err(ReadEntryError::CompressedTooShort {
                id: entry.id,
                offset: entry.offset,
                size: entry.size,
            });
        }
        let mut prefix = [0u8; 4];
        read_chain_until(
            &mut self.inner,
            self.header.block_size,
            self.bound,
            entry.offset,
            &mut prefix,
            &mut self.scratch,
            |_| 4,
        )
        .map_err(|fault| entry_fault(entry.id, self.bound, fault))?;
        Ok(u64::from(u32::from_le_bytes(prefix)))
    }

    /// The payload of an entry as a [`Trimmed`]: its bytes up to the last non-zero one (at
    /// most `cap` of them) and the count of zeros after. A compressed payload is inflated 64
    /// KiB at a time, so a zero run never exists in memory; the stored bytes are read whole
    /// (no more than the file holds).
    ///
    /// # Errors
    /// [`ReadEntryError::OverCap`] when the bytes before the zero run pass `cap`; the errors of
    /// [`read_entry`](Self::read_entry).
    pub fn read_entry_trimmed(
        &mut self,
        entry: &DatEntry,
        cap: usize,
    ) -> Result<Trimmed, ReadEntryError> {
        let (id, offset) = (entry.id, entry.offset);
        let over = || ReadEntryError::OverCap { id, cap };
        let mut stored = Vec::new();
        self.read_stored(entry, &mut stored)?;
        let mut out = Trimmed::default();
        if !entry.is_compressed() {
            for chunk in stored.chunks(CHUNK) {
                if !out.push(chunk, cap) {
                    return Err(over());
                }
            }
            return Ok(out);
        }
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
        let mut decoder = ZlibDecoder::new(stream).take(u64::from(declared) + 1);
        let mut chunk = vec![0u8; CHUNK];
        loop {
            let n = match decoder.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(source) => return Err(ReadEntryError::Inflate { id, offset, source }),
            };
            if !out.push(&chunk[..n], cap) {
                return Err(over());
            }
        }
        if out.len() != u64::from(declared) {
            return Err(ReadEntryError::InflatedSize {
                id,
                offset,
                declared,
                actual: out.len(),
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::super::{DatKind, DatWriter, EntryOptions};
    use super::*;

    /// A dat holding `payload` under one id (compressed or not), and that entry.
    fn dat(payload: &[u8], compress: bool) -> (DatReader<Cursor<Vec<u8>>>, DatEntry) {
        let mut w = DatWriter::new(DatKind::Cell, 1024).unwrap();
        let options = EntryOptions {
            compress,
            ..EntryOptions::default()
        };
        w.insert(0x1234_FFFF, payload, options).unwrap();
        let mut r = DatReader::new(Cursor::new(w.finish())).unwrap();
        let entry = r.entry(0x1234_FFFF).unwrap().unwrap();
        assert_eq!(entry.is_compressed(), compress);
        (r, entry)
    }

    fn record_then_zeros(zeros: usize) -> Vec<u8> {
        let mut payload: Vec<u8> = (0..252u32).map(|i| (i % 251 + 1) as u8).collect();
        payload[100] = 0; // a zero inside the record is kept
        payload.resize(252 + zeros, 0);
        payload
    }

    #[test]
    fn a_zero_run_is_counted_not_kept() {
        let payload = record_then_zeros(4 << 20);
        for compress in [true, false] {
            let (mut r, entry) = dat(&payload, compress);
            assert_eq!(r.payload_size(&entry).unwrap(), payload.len() as u64);
            let t = r.read_entry_trimmed(&entry, 1024).unwrap();
            assert_eq!(t.head, payload[..252]);
            assert_eq!(t.zeros, 4 << 20);
            assert_eq!(t.len(), payload.len() as u64);
            assert!(t.head.capacity() < 64 << 10, "{}", t.head.capacity());
        }
    }

    #[test]
    fn zeros_between_bytes_are_kept_and_the_whole_payload_is_the_same() {
        let mut payload = vec![0u8; 3 * CHUNK + 17];
        payload[5] = 9;
        payload[2 * CHUNK + 3] = 7; // after a chunk of nothing but zeros
        let (mut r, entry) = dat(&payload, true);
        let t = r.read_entry_trimmed(&entry, 1 << 20).unwrap();
        assert_eq!(t.head, payload[..=2 * CHUNK + 3]);
        assert_eq!(t.zeros, (CHUNK + 13) as u64);
        let mut whole = t.head.clone();
        whole.resize(t.len() as usize, 0);
        assert_eq!(whole, r.read_entry(&entry).unwrap());
    }

    #[test]
    fn bytes_past_the_cap_are_refused_naming_it() {
        let payload = vec![1u8; 300_000];
        for compress in [true, false] {
            let (mut r, entry) = dat(&payload, compress);
            let err = r.read_entry_trimmed(&entry, 100_000).unwrap_err();
            assert_eq!(
                err.to_string(),
                "file 0x1234FFFF: more than 100000 bytes before its zero padding (the 100000-byte read cap)"
            );
            assert_eq!(r.read_entry_trimmed(&entry, 300_000).unwrap().head, payload);
        }
    }
}
