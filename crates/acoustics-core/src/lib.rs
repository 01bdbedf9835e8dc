//! Voxel acoustics: world store, traversal, occlusion, echoes, room measurement, caches.
//!
//! Spec: `docs/spec/acoustics.md` §3–§6, §9, §10. Pure maths on an immutable world snapshot;
//! no threads, no I/O (scene files are parsed from strings).
//!
//! # Example
//!
//! ```
//! use glam::{DVec3, IVec3};
//! use resound_acoustics::{
//!     Absent, AcousticModel, Budget, Cell, MaterialTable, Mode, OwnModel, SoundRequest, WorldStore,
//! };
//!
//! // A stone wall (x = 30, 1 block thick) between source and listener.
//! let materials = MaterialTable::standard();
//! let stone = materials.by_name("stone").expect("standard material");
//! let mut world = WorldStore::new(Absent::Air);
//! world.fill_box(IVec3::new(30, 0, -16), IVec3::new(30, 15, 15), Cell::solid(stone))?;
//!
//! let model = OwnModel::new(materials);
//! let request = SoundRequest::new(DVec3::new(0.5, 1.5, 0.5), DVec3::new(60.5, 1.5, 0.5));
//! let mut budget = Budget::new(400_000);
//! let result = model.evaluate(&world.snapshot(), &request, Mode::Direct, &mut budget)?;
//! assert_eq!(result.occ, 1.0);
//! assert!((result.hf - (-3.0f32).exp()).abs() < 1e-6); // about −26 dB on the highs
//! assert!(budget.used() > 0 && budget.used() == result.telemetry.cells);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # API overview
//!
//! - **World** ([`world`]): [`WorldProbe`] is what acoustics asks of a world — per section
//!   [`SectionClass`] (`Unknown | Empty | Full(mat) | Mixed`), per cell [`Cell`]
//!   (`Air | Unknown | Solid { mat, partial }`), `epoch()`, `revision()`, and the fast paths
//!   `section_cells` / `section_view`. [`WorldStore`] is the chunked store implementing it
//!   (`WorldStore::new(Absent::Air | Absent::Unknown)`, `set_cell`, `fill_box`,
//!   `load_section` / `unload_section` (residency), `changes_since`, `snapshot()` →
//!   [`WorldSnapshot`], also a `WorldProbe`). [`MaterialTable`] maps [`MaterialId`] to
//!   [`Material`] (`occlusion`, `reflectivity`, per-band dB rates); `MaterialTable::standard()`
//!   holds `default` (id 0) and the named groups of spec §2.5 (`by_name("stone")`).
//! - **Traversal** ([`ray`]): [`ray::dda::walk`] is the Amanatides–Woo cell walk with section
//!   skipping and a visitor ([`ray::dda::walk_solid`] visits non-air cells only, and crosses in
//!   one exact step a sparse section over air and the rest of a dense section once the ray is
//!   past the box of its non-air cells, [`Extent`]; on x86-64 the cell loop picks the axis
//!   with SSE2 masks); [`ray::dda::CentreRay`] keeps the cell walk of a fixed direction from
//!   any cell centre, reads a section's cells, exits and extents from it and skips Empty and
//!   Unknown sections itself (room rays; the 24 rays of a space share a [`ray::dda::StartSection`]); every
//!   walk reports what the plain cell walk would, bit for bit;
//!   [`ray::occlusion::trace_occlusion`] sums occlusion along a segment (source cell excluded,
//!   partial ×0.25, 16-hit / 64-sum stops); [`ray::cast::first_hit`] returns the first solid
//!   cell with its face (axis, normal sign, plane). All take a [`Budget`] of cells and return
//!   [`ray::dda::WalkStats`] (cells, `met_unknown`, touched [`SectionBox`]).
//! - **Model** ([`model`]): the [`AcousticModel`] trait — `direct`, `reflections`, `room`,
//!   `evaluate(mode)` — on `&dyn WorldProbe` with a [`SoundRequest`]; results are plain values
//!   ([`DirectResult`], [`EchoResult`], [`RoomResult`], [`AcousticResult`] with gain, hf, taps,
//!   4 sends, decay, apparent direction and [`Telemetry`]). [`OwnModel`] is Resound's MIT model.
//! - **Echoes** ([`echo`]): image-source finder (planes, exact validation, tap selection).
//! - **Room** ([`room`]): space measurement (along the kept [`room::room_rays`]), wet, decay,
//!   slot cross-fade, effective decay.
//! - **Caches** ([`cache`]): occlusion / echo / room result caches with region and epoch
//!   invalidation, the section-class LRU and [`cache::ClassCachedProbe`].
//! - **Air paths** ([`airpath`]): [`find_air_path`] — the shortest path through air round
//!   corners (A* over air cells, pulled taut to bend only at edges) within a cell budget and
//!   [`PathLimits`] → `Result<Option<AirPath>, PathError>` ([`PathError::OverBudget`] is typed,
//!   never a guessed path); [`AirPath`] holds bends, length, per-band diffraction loss,
//!   apparent direction and extra delay; [`AirPathCache`] keeps one per source; [`combine()`]
//!   joins it with the occlusion result into a [`DirectSound`] (the louder per band).
//! - **Queue** ([`queue`]): [`queue::Evaluator`] runs many sounds per tick within cell budgets,
//!   in a deterministic priority order, through the caches.
//! - **Scenes** ([`scene`]): the JSON scene format; the spec §9 scenes ship in `scenes/*.json`.
//! - **Reports** ([`report`]): one evaluation as text and JSON (`resound acoustics`).

pub mod airpath;
pub mod budget;
pub mod cache;
pub mod echo;
pub mod model;
pub mod queue;
pub mod ray;
#[cfg(feature = "json")]
pub mod report;
pub mod room;
#[cfg(feature = "json")]
pub mod scene;
pub mod world;

pub use airpath::{
    AirPath, AirPathCache, DirectKind, DirectSound, PathError, PathLimits, combine, find_air_path,
};
pub use budget::{Budget, Budgets};
pub use echo::{Plane, Tap};
pub use model::{
    AcousticModel, AcousticResult, DirectResult, EchoResult, Mode, OwnModel, Paths, RequestError,
    RoomResult, SoundRequest, Stages, Telemetry, run_stages,
};
pub use room::{DecayModel, Space};
pub use world::heightfield::{
    Diagonal, Heightfield, HeightfieldError, Layers, PlacedBox, VertexGrid,
};
pub use world::material::{Material, MaterialId, MaterialTable};
pub use world::probe::{Cell, SectionAccess, SectionBox, SectionClass, WorldProbe, section_of};
pub use world::section::{CellCode, Extent, SectionCells, SparseCells, SparseIndex};
pub use world::store::{Absent, Change, EditError, SectionData, WorldSnapshot, WorldStore};
