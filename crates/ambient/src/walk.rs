//! Walking a path: a scripted player (and camera) moving through the world, the per-frame
//! `SmartBox::UseTime` order — listener, `CellManager::ChangePosition`, `Ambient::UseTime` — and
//! the resulting log. `resound ambient --walk PATH.json` and the tests use it.
//!
//! # The path file (`PATH.json`)
//!
//! ```json
//! {
//!   "frame_rate": 30,
//!   "camera_offset": [0.0, -4.0, 2.0],
//!   "waypoints": [
//!     { "t": 0.0,  "cell": "0xA9B40025", "origin": [100.0, 100.0, 0.0] },
//!     { "t": 20.0, "cell": "0xA9B40029", "origin": [100.0, 190.0, 0.0], "heading": 0.0 },
//!     { "t": 30.0, "cell": "0xA9B40100", "origin": [60.0, 60.0, 0.0], "seen_outside": true }
//!   ]
//! }
//! ```
//!
//! - `waypoints` (required, ordered by `t` in seconds): `cell` is a cell id as a number or a
//!   `"0x…"` string, `origin` is landblock-relative metres (x east, y north, z up).
//!   `seen_outside` (default false) matters for EnvCells. `heading` (compass degrees) fixes
//!   the camera heading from this waypoint on; otherwise the camera faces along the segment.
//! - Between two outdoor waypoints the player moves in a straight line through global
//!   coordinates and its land cell follows; from an EnvCell waypoint the cell is held and only
//!   the origin moves. Before the first waypoint the player stands on it, after the last it
//!   stays there.
//! - `frame_rate` (default 30) is the number of `UseTime` frames per second.
//! - `camera_offset` (default `[0, 0, 0]`) places the listener relative to the player, in world
//!   axes; retail plays around the camera but gathers around the player's feet.

#[cfg(test)]
mod tests;

use glam::Vec3;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ambient::{Ambient, ChangePositionError, PositionChange, Rebuild};
use crate::event::AmbientEvent;
use crate::geometry::{self, BLOCK_LENGTH, CELL_LENGTH, Position};
use crate::sound_manager::Listener;
use crate::source::{LandBlockSource, SoundTableSource};

/// A scripted path (the `PATH.json` document).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walk {
    /// `UseTime` frames per second.
    #[serde(default = "default_frame_rate")]
    pub frame_rate: f64,
    /// The camera relative to the player, world axes, metres.
    #[serde(default)]
    pub camera_offset: [f32; 3],
    /// The waypoints, ordered by time.
    pub waypoints: Vec<Waypoint>,
}

fn default_frame_rate() -> f64 {
    30.0
}

/// One waypoint of a [`Walk`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waypoint {
    /// Seconds.
    pub t: f64,
    /// The cell id.
    pub cell: CellId,
    /// Landblock-relative metres.
    pub origin: [f32; 3],
    /// Whether the (EnvCell) cell sees outside.
    #[serde(default)]
    pub seen_outside: bool,
    /// A fixed camera heading (compass degrees) from here on.
    #[serde(default)]
    pub heading: Option<f32>,
}

/// A cell id written as a number or a hexadecimal `"0x…"` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "CellIdRepr", into = "String")]
pub struct CellId(pub u32);

#[derive(Deserialize)]
#[serde(untagged)]
enum CellIdRepr {
    Number(u32),
    Text(String),
}

impl TryFrom<CellIdRepr> for CellId {
    type Error = String;

    fn try_from(r: CellIdRepr) -> Result<Self, String> {
        match r {
            CellIdRepr::Number(n) => Ok(CellId(n)),
            CellIdRepr::Text(s) => {
                let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"));
                match hex {
                    Some(h) => u32::from_str_radix(h, 16),
                    None => s.parse(),
                }
                .map(CellId)
                .map_err(|e| format!("bad cell id {s:?}: {e}"))
            }
        }
    }
}

impl From<CellId> for String {
    fn from(c: CellId) -> String {
        format!("{:#010X}", c.0).replacen("0X", "0x", 1)
    }
}

/// Why a walk could not run.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum WalkError {
    /// No waypoints.
    #[error("the walk has no waypoints")]
    Empty,
    /// The frame rate is not a positive finite number.
    #[error("frame_rate {0} must be positive and finite")]
    BadFrameRate(f64),
    /// Waypoint times are not finite and non-decreasing.
    #[error("waypoint {0}: times must be finite and non-decreasing")]
    BadTime(usize),
    /// The duration is not a finite non-negative number (or too many frames).
    #[error("duration {0} s is not a usable number of seconds")]
    BadDuration(f64),
    /// A position was refused.
    #[error("at t = {time} s")]
    Position {
        /// When.
        time: f64,
        /// Why.
        #[source]
        source: ChangePositionError,
    },
}

/// One line of the walk log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "entry")]
pub enum WalkEntry {
    /// The player entered a new cell and the sounds were rebuilt.
    Rebuild {
        /// When.
        time: f64,
        /// The player's position.
        position: Position,
        /// `total_sound_count` after the gather.
        total_sound_count: f32,
        /// Instances that exist (all rebuilds so far).
        instances: usize,
        /// What the rebuild saw.
        rebuild: Rebuild,
    },
    /// A sound was played or dropped.
    Event(AmbientEvent),
}

/// The most frames one walk may run (10 hours at 60 fps).
pub const MAX_FRAMES: u64 = 60 * 60 * 60 * 10;

impl Walk {
    /// Checks the path.
    ///
    /// # Errors
    /// [`WalkError`] for an empty path, a bad frame rate or unordered times.
    pub fn validate(&self) -> Result<(), WalkError> {
        if self.waypoints.is_empty() {
            return Err(WalkError::Empty);
        }
        if !(self.frame_rate.is_finite() && self.frame_rate > 0.0) {
            return Err(WalkError::BadFrameRate(self.frame_rate));
        }
        let mut last = f64::NEG_INFINITY;
        for (i, w) in self.waypoints.iter().enumerate() {
            if !w.t.is_finite() || w.t < last {
                return Err(WalkError::BadTime(i));
            }
            last = w.t;
        }
        Ok(())
    }

    /// The player's position, whether its cell sees outside, and the camera heading at `t`.
    #[must_use]
    pub fn pose(&self, t: f64) -> Option<(Position, bool, f32)> {
        let first = self.waypoints.first()?;
        let mut heading = first.heading.unwrap_or(0.0);
        let mut prev = first;
        for w in &self.waypoints[1..] {
            let seg_heading = segment_heading(prev, w);
            if t < w.t {
                let span = w.t - prev.t;
                let f = if span > 0.0 {
                    ((t - prev.t) / span).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                let h = prev.heading.or(seg_heading).unwrap_or(heading);
                return Some((interpolate(prev, w, f as f32), prev.seen_outside, h));
            }
            heading = w.heading.or(seg_heading).unwrap_or(heading);
            prev = w;
        }
        let last = prev;
        Some((
            Position::new(last.cell.0, Vec3::from(last.origin)),
            last.seen_outside,
            last.heading.unwrap_or(heading),
        ))
    }

    /// Runs the walk for `seconds` from the first waypoint's time: each frame sets the listener
    /// (the camera), calls `change_position` and `use_time`, and logs rebuilds and events.
    ///
    /// # Errors
    /// [`WalkError`] for a bad path or a position the runtime refuses.
    pub fn run<T: SoundTableSource, L: LandBlockSource>(
        &self,
        ambient: &mut Ambient,
        seconds: f64,
        tables: &mut T,
        land_blocks: &mut L,
    ) -> Result<Vec<WalkEntry>, WalkError> {
        self.validate()?;
        let frames = seconds * self.frame_rate;
        if !(frames.is_finite() && frames >= 0.0 && frames <= MAX_FRAMES as f64) {
            return Err(WalkError::BadDuration(seconds));
        }
        let frames = frames.floor() as u64;
        let t0 = self.waypoints.first().map_or(0.0, |w| w.t);
        let offset = Vec3::from(self.camera_offset);
        let mut log = Vec::new();
        let mut events = Vec::new();
        for i in 0..=frames {
            let time = t0 + i as f64 / self.frame_rate;
            let Some((pos, seen_outside, heading)) = self.pose(time) else {
                break;
            };
            let camera = Listener {
                position: Position::new(pos.objcell_id, pos.origin + offset),
                heading_deg: heading,
            };
            if ambient.set_listener(camera).is_err() {
                return Err(WalkError::Position {
                    time,
                    source: ChangePositionError::NonFinitePosition {
                        objcell_id: pos.objcell_id,
                        origin: camera.position.origin,
                    },
                });
            }
            let change = ambient
                .change_position(&pos, seen_outside, time, tables, land_blocks, &mut events)
                .map_err(|source| WalkError::Position { time, source })?;
            if let PositionChange::Rebuilt(rebuild) = change {
                log.push(WalkEntry::Rebuild {
                    time,
                    position: pos,
                    total_sound_count: ambient.total_sound_count(),
                    instances: ambient.sounds().len(),
                    rebuild,
                });
            }
            ambient.use_time(time, &mut events);
            log.extend(events.drain(..).map(WalkEntry::Event));
        }
        Ok(log)
    }
}

/// The compass heading of the segment from `a` to `b`, if they differ in x or y.
fn segment_heading(a: &Waypoint, b: &Waypoint) -> Option<f32> {
    let pa = Position::new(a.cell.0, Vec3::from(a.origin));
    let pb = Position::new(b.cell.0, Vec3::from(b.origin));
    let d = pa.get_offset(&pb);
    (d.x.abs() >= 0.0002 || d.y.abs() >= 0.0002).then(|| pa.heading(&pb))
}

/// The position a fraction `f` of the way from `a` to `b`.
fn interpolate(a: &Waypoint, b: &Waypoint, f: f32) -> Position {
    let pa = Position::new(a.cell.0, Vec3::from(a.origin));
    let pb = Position::new(b.cell.0, Vec3::from(b.origin));
    let local = pa.origin + pa.get_offset(&pb) * f;
    if !(geometry::is_land_cell(a.cell.0) && geometry::is_land_cell(b.cell.0)) {
        return Position::new(a.cell.0, local);
    }
    outdoor_position(a.cell.0, local)
}

/// Renormalises a landblock-relative origin that may lie outside `[0, 192)` into the land cell
/// that holds it (`LandDefs::adjust_to_outside` @ 0x5A9BC0). Positions outside the world keep
/// the original block.
#[must_use]
pub fn outdoor_position(objcell_id: u32, origin: Vec3) -> Position {
    let (bx, by) = geometry::block_xy(objcell_id);
    let gx =
        (f64::from(bx) * f64::from(BLOCK_LENGTH) + f64::from(origin.x)) / f64::from(CELL_LENGTH);
    let gy =
        (f64::from(by) * f64::from(BLOCK_LENGTH) + f64::from(origin.y)) / f64::from(CELL_LENGTH);
    let max = f64::from(geometry::MAX_LCOORD);
    if !(gx.is_finite() && gy.is_finite() && (0.0..max).contains(&gx) && (0.0..max).contains(&gy)) {
        return Position::new(objcell_id, origin);
    }
    let (lx, ly) = (gx.floor() as u32, gy.floor() as u32);
    let cell = geometry::lcoord_to_gid(lx, ly);
    let (nbx, nby) = geometry::block_xy(cell);
    let shift = Vec3::new(
        (i64::from(bx) - i64::from(nbx)) as f32 * BLOCK_LENGTH,
        (i64::from(by) - i64::from(nby)) as f32 * BLOCK_LENGTH,
        0.0,
    );
    Position::new(cell, origin + shift)
}
