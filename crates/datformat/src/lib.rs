//! Asheron's Call DAT files: the container (reader and writer) and the records Resound needs.
//!
//! Spec: `shared/spec/dat-format.md`.
