//! Voxel acoustics: world store, traversal, occlusion, echoes, room measurement, caches.
//!
//! Spec: `shared/spec/acoustics.md` §3–§6, §9, §10.
