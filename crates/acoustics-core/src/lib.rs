//! Voxel acoustics: world store, traversal, occlusion, echoes, room measurement, caches.
//!
//! Spec: `shared/spec/acoustics.md` §3–§6, §9, §10. Pure maths on an immutable world snapshot;
//! no threads, no I/O (scene files are parsed from strings).
//!
//! # API overview
//!
//! - **World** ([`world`]): [`WorldProbe`] is what acoustics asks of a world — per section
//!   [`SectionClass`] (`Unknown | Empty | Full(mat) | Mixed`), per cell [`Cell`]
//!   (`Air | Unknown | Solid { mat, partial }`), `epoch()`, `revision()`. [`WorldStore`] is the
//!   chunked store implementing it (`WorldStore::new(Absent::Air | Absent::Unknown)`,
//!   `set_cell`, `fill_box`, `load_section`/`unload_section` (residency), `changes_since`,
//!   `snapshot()` → [`WorldSnapshot`], also a `WorldProbe`). [`MaterialTable`] maps
//!   [`MaterialId`] to [`Material`] (`occlusion`, `reflectivity`, per-band dB rates);
//!   `MaterialTable::standard()` holds `default` (id 0) and the named groups of spec §2.5
//!   (`by_name("stone")`).
//! - **Traversal** ([`ray`]): [`ray::dda::walk`] is the Amanatides–Woo cell walk with section
//!   skipping and a visitor; [`ray::occlusion::trace_occlusion`] sums occlusion along a segment
//!   (source cell excluded, partial ×0.25, 16-hit / 64-sum stops);
//!   [`ray::cast::first_hit`] returns the first solid cell with its face (axis, normal sign,
//!   plane). All take a [`Budget`] of cells and return [`ray::dda::WalkStats`]
//!   (cells, `met_unknown`, touched [`SectionBox`]).
//! - **Model** ([`model`]): the [`AcousticModel`] trait — `direct`, `reflections`, `room`,
//!   `evaluate(mode)` — on `&dyn WorldProbe` with a [`SoundRequest`]; results are plain values
//!   ([`DirectResult`], [`EchoResult`], [`RoomResult`], [`AcousticResult`] with gain, hf, taps,
//!   4 sends, decay, apparent direction and [`Telemetry`]). [`OwnModel`] is Resound's MIT model.
//! - **Echoes** ([`echo`]): image-source finder (planes, exact validation, tap selection).
//! - **Room** ([`room`]): space measurement, wet, decay, slot cross-fade, effective decay.
//! - **Caches** ([`cache`]) and the budgeted work **queue** ([`queue`]).
//! - **Scenes** ([`scene`]): the JSON scene format and the spec §9 scenes (`scenes/*.json`).

pub mod budget;
pub mod cache;
pub mod echo;
pub mod model;
pub mod queue;
pub mod ray;
pub mod room;
pub mod scene;
pub mod world;

pub use budget::Budget;
pub use echo::{Plane, Tap};
pub use model::{
    AcousticModel, AcousticResult, DirectResult, EchoResult, Mode, OwnModel, Paths, RequestError,
    RoomResult, SoundRequest, Telemetry,
};
pub use room::Space;
pub use world::material::{Material, MaterialId, MaterialTable};
pub use world::probe::{Cell, SectionBox, SectionClass, WorldProbe, section_of};
pub use world::section::{CellCode, SectionCells};
pub use world::store::{Absent, Change, EditError, SectionData, WorldSnapshot, WorldStore};

#[cfg(test)]
mod tests;
