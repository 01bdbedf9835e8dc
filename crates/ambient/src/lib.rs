//! The retail Asheron's Call ambient sound runtime, exact to the 2013 client.
//!
//! Specs: `shared/spec/ambient-data-path.md`, `shared/spec/ambient-runtime.md`.
