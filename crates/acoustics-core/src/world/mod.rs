//! The voxel world: cells and sections, probe trait, section storage, store, materials.

pub mod cell;
pub mod heightfield;
pub mod material;
pub mod probe;
pub mod section;
pub mod store;
