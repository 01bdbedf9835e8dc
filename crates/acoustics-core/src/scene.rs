//! Scene files: a JSON description of a box world, a source and a listener (spec §9).
//!
//! ```json
//! {
//!   "name": "W1",
//!   "boxes": [
//!     { "min": [-32, -1, -32], "max": [95, -1, 31], "material": "default" },
//!     { "min": [30, 0, -16], "max": [30, 15, 15], "material": "stone", "partial": false },
//!     { "min": [30, 0, 1], "max": [30, 1, 1], "material": "air" }
//!   ],
//!   "source": [0.5, 1.5, 0.5],
//!   "listener": [60.5, 1.5, 0.5],
//!   "range": 128
//! }
//! ```
//!
//! Boxes are inclusive integer cell ranges applied in order (later boxes overwrite earlier
//! ones); `material` is a name of the material table, or `"air"` / `"unknown"`. Everything not
//! covered is air (`"absent": "unknown"` makes it Unknown instead). A box with `until_tick: n`
//! exists only before tick `n` (scene U: an Unknown region that becomes resident).
//! Optional: `range` (voice range, default 256), `source_velocity` (`[vx, vy, vz]` m/s: the
//! source moves from `source` at that velocity for the whole render; default still), `paths`
//! (1 or 9, default 9), `mode`
//! (`direct|reflect|full`, default `full`), `inject_planes` (extra echo planes, scene E3),
//! `description` and `expected` (free-form notes).

use glam::{DVec3, IVec3};
use serde::{Deserialize, Serialize};

use crate::echo::Plane;
use crate::model::{Mode, Paths, SoundRequest};
use crate::world::material::MaterialTable;
use crate::world::probe::Cell;
use crate::world::store::{Absent, EditError, WorldStore};

/// Most cells all boxes of a scene may cover together (2^28).
pub const MAX_SCENE_CELLS: u64 = 1 << 28;

/// Most sections all boxes of a scene may cut partially (2^16). A cut section with few
/// differing cells is stored sparsely (bytes per cell); one with many is stored cell by cell
/// (8 KiB), so this bounds a scene's memory at 512 MiB whatever its cell count: a one-cell
/// slab of 2^28 cells would otherwise cut 2^20 sections (8 GiB).
pub const MAX_SCENE_MIXED_SECTIONS: u64 = 1 << 16;

/// Sections a box covers only in part (an upper bound of the cell-by-cell sections it creates):
/// sections touched minus sections wholly inside, per the product of the axes.
fn partial_sections(b: &SceneBox) -> u64 {
    crate::world::store::partial_sections(b.min, b.max)
}

/// One box of a scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneBox {
    /// Smallest cell (inclusive).
    pub min: [i32; 3],
    /// Largest cell (inclusive).
    pub max: [i32; 3],
    /// Material name, or `"air"` / `"unknown"`.
    pub material: String,
    /// Partial cells (doors, fences): occlusion ×0.25.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// The box exists only before this tick.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_tick: Option<u64>,
}

/// An extra echo plane of a scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenePlane {
    /// `"x"`, `"y"` or `"z"`.
    pub axis: String,
    /// Plane coordinate.
    pub coord: i32,
    /// Normal sign (+1/−1); default: toward the listener.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal: Option<i32>,
}

/// A further voice of a scene file (scene C).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneVoice {
    /// Position.
    pub position: [f64; 3],
    /// Volume (default 1).
    #[serde(default = "default_volume")]
    pub volume: f64,
    /// Linear range (default 256).
    #[serde(default = "default_range")]
    pub range: f64,
    /// `"loop"`, `"click"` or `"shot"` (loops get no echoes; clicks and shots are impulsive).
    pub kind: String,
}

fn default_volume() -> f64 {
    1.0
}

/// A scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Short name (`"G"`).
    #[serde(default)]
    pub name: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// `"air"` (default) or `"unknown"`: what cells outside every box hold.
    #[serde(default = "default_absent")]
    pub absent: String,
    /// Boxes, applied in order.
    pub boxes: Vec<SceneBox>,
    /// Source position.
    pub source: [f64; 3],
    /// Source velocity in m/s (blocks per second): the source moves from `source` at it for
    /// the whole render. Default still.
    #[serde(default, skip_serializing_if = "is_still")]
    pub source_velocity: [f64; 3],
    /// Listener position.
    pub listener: [f64; 3],
    /// Voice range (blocks).
    #[serde(default = "default_range")]
    pub range: f64,
    /// Direct paths: 1 or 9.
    #[serde(default = "default_paths")]
    pub paths: u32,
    /// `"direct"`, `"reflect"` or `"full"`.
    #[serde(default = "default_mode")]
    pub mode: String,
    /// Extra echo planes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inject_planes: Vec<ScenePlane>,
    /// Further voices (scene C); the CLI evaluates `source` only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub voices: Vec<SceneVoice>,
    /// Whether engine renders of the scene search air paths round corners (acoustics §4a;
    /// default true). The stage-1 wall scenes (W1–W3) set it false: their rows measure the
    /// transmission through the wall, the model SPR's reference has (it has no diffraction),
    /// and the finite walls stand in the open, so sound would go round them.
    #[serde(default = "default_air_paths", skip_serializing_if = "is_true")]
    pub air_paths: bool,
    /// Expected values (notes for readers; not interpreted).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub expected: serde_json::Value,
}

fn default_air_paths() -> bool {
    true
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
fn is_true(b: &bool) -> bool {
    *b
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
fn is_still(v: &[f64; 3]) -> bool {
    *v == [0.0; 3]
}

fn default_absent() -> String {
    "air".to_owned()
}
fn default_range() -> f64 {
    256.0
}
fn default_paths() -> u32 {
    9
}
fn default_mode() -> String {
    "full".to_owned()
}

/// Why a scene could not be read or built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// Not valid scene JSON (the parser's message is in the text; there is no `source()`).
    #[error("scene JSON: {0}")]
    Json(serde_json::Error),
    /// A box has `min > max` on some axis.
    #[error("box {index} is inverted ({min:?} > {max:?} on some axis)")]
    InvertedBox {
        /// Box index.
        index: usize,
        /// Its min.
        min: [i32; 3],
        /// Its max.
        max: [i32; 3],
    },
    /// A box names a material the table does not have.
    #[error("box {index}: unknown material {name:?}")]
    UnknownMaterial {
        /// Box index.
        index: usize,
        /// The name.
        name: String,
    },
    /// The boxes cover too many cells.
    #[error("scene covers more than {MAX_SCENE_CELLS} cells")]
    TooLarge,
    /// The boxes cut too many sections in part (the count, an upper bound summed per box).
    #[error(
        "boxes cut {0} sections in part, more than {MAX_SCENE_MIXED_SECTIONS} (the scene's cut-section cap)"
    )]
    TooManyCutSections(u64),
    /// A position or the range is not finite / positive.
    #[error("bad {0}: must be finite (range > 0)")]
    BadValue(&'static str),
    /// `absent`, `paths`, `mode`, a voice kind or a plane axis / normal has an unknown value.
    #[error("bad {what} value (allowed: {allowed})")]
    BadOption {
        /// The field.
        what: &'static str,
        /// The values it takes.
        allowed: &'static str,
    },
    /// Building the world failed (the store's message is in the text; no `source()`).
    #[error("box {index}: {error}")]
    Edit {
        /// Box index.
        index: usize,
        /// The store error.
        error: EditError,
    },
}

impl From<serde_json::Error> for SceneError {
    fn from(e: serde_json::Error) -> Self {
        Self::Json(e)
    }
}

/// A [`SceneError::BadOption`].
const fn bad(what: &'static str, allowed: &'static str) -> SceneError {
    SceneError::BadOption { what, allowed }
}

impl Scene {
    /// Parses and checks a scene (boxes, names, values) against a material table.
    ///
    /// # Errors
    /// [`SceneError`].
    pub fn from_json(text: &str, materials: &MaterialTable) -> Result<Self, SceneError> {
        let scene: Self = serde_json::from_str(text)?;
        scene.check(materials)?;
        Ok(scene)
    }

    /// Checks everything `from_json` checks.
    ///
    /// # Errors
    /// [`SceneError`].
    pub fn check(&self, materials: &MaterialTable) -> Result<(), SceneError> {
        let mut total: u64 = 0;
        let mut mixed: u64 = 0;
        for (index, b) in self.boxes.iter().enumerate() {
            if (0..3).any(|a| b.min[a] > b.max[a]) {
                return Err(SceneError::InvertedBox {
                    index,
                    min: b.min,
                    max: b.max,
                });
            }
            // Sides are up to 2^32 cells: saturate instead of overflowing the product.
            let n = (0..3)
                .map(|a| (i64::from(b.max[a]) - i64::from(b.min[a]) + 1).unsigned_abs())
                .fold(1u64, u64::saturating_mul);
            total = total.saturating_add(n);
            mixed = mixed.saturating_add(partial_sections(b));
            self.cell_of(b, materials)
                .ok_or_else(|| SceneError::UnknownMaterial {
                    index,
                    name: b.material.clone(),
                })?;
        }
        if total > MAX_SCENE_CELLS {
            return Err(SceneError::TooLarge);
        }
        if mixed > MAX_SCENE_MIXED_SECTIONS {
            return Err(SceneError::TooManyCutSections(mixed));
        }
        if !self.source.iter().all(|v| v.is_finite()) {
            return Err(SceneError::BadValue("source"));
        }
        if !self.listener.iter().all(|v| v.is_finite()) {
            return Err(SceneError::BadValue("listener"));
        }
        if !self.source_velocity.iter().all(|v| v.is_finite()) {
            return Err(SceneError::BadValue("source_velocity"));
        }
        if !self.range.is_finite() || self.range <= 0.0 {
            return Err(SceneError::BadValue("range"));
        }
        for v in &self.voices {
            let ok = v.position.iter().all(|x| x.is_finite())
                && v.volume.is_finite()
                && v.range.is_finite();
            if !ok || v.range <= 0.0 {
                return Err(SceneError::BadValue("voice"));
            }
            if !matches!(v.kind.as_str(), "loop" | "click" | "shot") {
                return Err(bad("voice kind", "loop, click, shot"));
            }
        }
        self.absent_kind()?;
        self.path_count()?;
        self.mode_value()?;
        self.planes()?;
        Ok(())
    }

    fn cell_of(&self, b: &SceneBox, materials: &MaterialTable) -> Option<Cell> {
        match b.material.to_ascii_lowercase().as_str() {
            "air" => Some(Cell::Air),
            "unknown" => Some(Cell::Unknown),
            name => materials.by_name(name).map(|mat| Cell::Solid {
                mat,
                partial: b.partial,
            }),
        }
    }

    fn absent_kind(&self) -> Result<Absent, SceneError> {
        match self.absent.as_str() {
            "air" => Ok(Absent::Air),
            "unknown" => Ok(Absent::Unknown),
            _ => Err(bad("absent", "air, unknown")),
        }
    }

    /// The number of direct paths.
    ///
    /// # Errors
    /// [`SceneError::BadOption`] unless 1 or 9.
    pub fn path_count(&self) -> Result<Paths, SceneError> {
        match self.paths {
            1 => Ok(Paths::One),
            9 => Ok(Paths::Nine),
            _ => Err(bad("paths", "1, 9")),
        }
    }

    /// The scene's mode.
    ///
    /// # Errors
    /// [`SceneError::BadOption`] for an unknown name.
    pub fn mode_value(&self) -> Result<Mode, SceneError> {
        parse_mode(&self.mode).ok_or(bad("mode", "off, direct, reflect, full"))
    }

    /// The injected planes.
    ///
    /// # Errors
    /// [`SceneError::BadOption`] for a bad axis or normal.
    pub fn planes(&self) -> Result<Vec<Plane>, SceneError> {
        let l = DVec3::from_array(self.listener);
        self.inject_planes
            .iter()
            .map(|p| {
                let axis = match p.axis.as_str() {
                    "x" => 0,
                    "y" => 1,
                    "z" => 2,
                    _ => return Err(bad("plane axis", "x, y, z")),
                };
                let normal_sign = match p.normal {
                    Some(n @ (1 | -1)) => n,
                    Some(_) => return Err(bad("plane normal", "1, -1")),
                    None => {
                        if l[axis] >= f64::from(p.coord) {
                            1
                        } else {
                            -1
                        }
                    }
                };
                Ok(Plane {
                    axis,
                    coord: p.coord,
                    normal_sign,
                })
            })
            .collect()
    }

    /// Builds the world as it is at `tick` (boxes with `until_tick <= tick` left out).
    ///
    /// # Errors
    /// [`SceneError`].
    pub fn build_world(
        &self,
        materials: &MaterialTable,
        tick: u64,
    ) -> Result<WorldStore, SceneError> {
        self.check(materials)?;
        let mut world = WorldStore::new(self.absent_kind()?);
        for (index, b) in self.boxes.iter().enumerate() {
            if b.until_tick.is_some_and(|t| t <= tick) {
                continue;
            }
            let cell = self
                .cell_of(b, materials)
                .ok_or_else(|| SceneError::UnknownMaterial {
                    index,
                    name: b.material.clone(),
                })?;
            world
                .fill_box(IVec3::from_array(b.min), IVec3::from_array(b.max), cell)
                .map_err(|error| SceneError::Edit { index, error })?;
        }
        Ok(world)
    }

    /// The sound request of the scene.
    ///
    /// # Errors
    /// [`SceneError::BadOption`] for a bad `paths`.
    pub fn request(&self) -> Result<SoundRequest, SceneError> {
        Ok(SoundRequest {
            source: DVec3::from_array(self.source),
            listener: DVec3::from_array(self.listener),
            range: self.range,
            paths: self.path_count()?,
            measure_source_space: true,
        })
    }
}

/// The name of a mode: `off|direct|reflect|full`.
#[must_use]
pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Off => "off",
        Mode::Direct => "direct",
        Mode::Reflect => "reflect",
        Mode::Full => "full",
    }
}

/// Parses `off|direct|reflect|full`.
#[must_use]
pub fn parse_mode(name: &str) -> Option<Mode> {
    match name {
        "off" => Some(Mode::Off),
        "direct" => Some(Mode::Direct),
        "reflect" => Some(Mode::Reflect),
        "full" => Some(Mode::Full),
        _ => None,
    }
}
