//! Output hashes for the determinism check: FNV-1a (64-bit) over the samples' bit patterns,
//! so two renders hash alike exactly when they are bit-identical (up to FNV collisions).

/// FNV-1a 64 of the little-endian bytes of every sample.
pub fn hash_samples(x: &[f32]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    x.iter()
        .flat_map(|v| v.to_bits().to_le_bytes())
        .fold(OFFSET, |h, byte| (h ^ u64::from(byte)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests;
