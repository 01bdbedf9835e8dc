//! Criterion benches: container.

fn main() {}
