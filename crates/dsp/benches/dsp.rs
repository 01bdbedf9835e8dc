//! Criterion benches of the DSP processors.
#![allow(missing_docs)]
use criterion::{Criterion, criterion_group, criterion_main};
fn benches(_c: &mut Criterion) {}
criterion_group!(all, benches);
criterion_main!(all);
