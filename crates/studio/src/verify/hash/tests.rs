//! Output hashes tell bit-identical renders from different ones.

use super::hash_samples;

#[test]
fn equal_samples_hash_alike_and_any_bit_changes_it() {
    let a: Vec<f32> = (0..1000).map(|i| (i as f32 * 0.01).sin()).collect();
    let b = a.clone();
    assert_eq!(hash_samples(&a), hash_samples(&b));
    let mut c = a.clone();
    c[500] = f32::from_bits(c[500].to_bits() ^ 1);
    assert_ne!(hash_samples(&a), hash_samples(&c));
    assert_ne!(hash_samples(&[0.0]), hash_samples(&[-0.0]));
    assert_ne!(hash_samples(&a[..999]), hash_samples(&a));
    // FNV-1a 64 of no bytes is its offset basis
    assert_eq!(hash_samples(&[]), 0xcbf2_9ce4_8422_2325);
}
