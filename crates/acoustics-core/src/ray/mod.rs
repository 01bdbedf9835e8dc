//! Ray traversal: Amanatides–Woo DDA with section skipping, occlusion traces, first-hit casts.

pub mod cast;
pub mod dda;
pub mod occlusion;
