//! Engine benchmarks (placeholder until written).
fn main() {}
