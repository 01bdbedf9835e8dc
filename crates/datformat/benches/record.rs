//! Criterion benches: record.

fn main() {}
