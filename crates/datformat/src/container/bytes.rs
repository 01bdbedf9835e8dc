//! Little-endian helpers over byte slices. Callers bounds-check first.

/// Reads a little-endian u16 at `at`. `at + 2` must be within `b`.
pub(crate) fn le16(b: &[u8], at: usize) -> u16 {
    let mut a = [0u8; 2];
    a.copy_from_slice(&b[at..at + 2]);
    u16::from_le_bytes(a)
}

/// Reads a little-endian u32 at `at`. `at + 4` must be within `b`.
pub(crate) fn le32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

/// Writes a little-endian u16 at `at`. `at + 2` must be within `b`.
pub(crate) fn put16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

/// Writes a little-endian u32 at `at`. `at + 4` must be within `b`.
pub(crate) fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
