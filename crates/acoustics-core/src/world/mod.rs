//! The voxel world: probe trait, sections, store, materials.

pub mod heightfield;
pub mod material;
pub mod probe;
pub mod section;
pub mod store;
