//! Allocation-free DSP building blocks for the Resound mixer.
//!
//! Spec: `shared/spec/acoustics.md` §4–§7, §10.
