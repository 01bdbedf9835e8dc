//! Air paths: sound round corners and through doorways, found live in the voxel grid.
//!
//! A voice whose straight line is blocked also reaches the listener through the air, round
//! the edges of the solid cells. [`find_air_path`] finds the shortest such path within a cell
//! budget and a length limit ([`PathLimits`]: 3× the straight distance, within the voice's
//! range) and returns an [`AirPath`]: bends, length, per-band diffraction loss, apparent
//! direction, extra delay. [`AirPathCache`] keeps one per source, invalidated by world changes
//! and epochs. [`combine()`] joins it with the through-wall (occlusion) result into the
//! [`DirectSound`] the mixer plays.
//!
//! | Module | Holds |
//! |---|---|
//! | [`search`] | straight-line check, limits and budget, the search's steps |
//! | `over` | heightfield worlds: the taut string over the terrain profile, tried first |
//! | `astar` | A* over air: cells in Mixed sections, whole Empty/Unknown sections as one node |
//! | `smooth` | string pulling and tightening to a path that bends only at edges |
//! | `snap` | bends put onto the cell edges they wrap, in closed form |
//! | [`diffraction`] | the loss of a bend per band (Maekawa, shifted to 0 dB at grazing) |
//! | [`result`] | [`AirPath`], [`PathLimits`], [`PathError`], the invalidation region |
//! | [`combine()`](mod@combine) | through-wall vs air path: the louder per band |
//! | [`cache`] | [`AirPathCache`], per source |
//!
//! Spec: `docs/spec/acoustics.md` §4a.

mod astar;
pub mod cache;
pub mod combine;
pub mod diffraction;
mod grid;
mod over;
pub mod result;
pub mod search;
mod smooth;
mod snap;

pub use cache::AirPathCache;
pub use combine::{DirectKind, DirectSound, combine, direct_sound, linear_rolloff};
pub use result::{AirPath, PathError, PathLimits, search_region};
pub use search::find_air_path;
