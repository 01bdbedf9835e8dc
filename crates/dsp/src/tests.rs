//! Unit tests of crate-private helpers.

use super::*;

#[test]
fn sanitize_handles_nan_and_range() {
    assert_eq!(sanitize(f32::NAN, 0.0, 1.0, 0.5), 0.5);
    assert_eq!(sanitize(f32::INFINITY, 0.0, 1.0, 0.5), 1.0);
    assert_eq!(sanitize(-3.0, 0.0, 1.0, 0.5), 0.0);
    assert_eq!(sanitize_sample_rate(f32::NAN), 48_000.0);
    assert_eq!(sanitize_sample_rate(1.0), 8_000.0);
}

#[test]
fn complex_division_inverts_multiplication() {
    let a = Complex::new(0.3, -1.2);
    let b = Complex::new(2.0, 0.5);
    let c = a.mul(b).div(b);
    assert!((c.re - a.re).abs() < 1e-12 && (c.im - a.im).abs() < 1e-12);
}
