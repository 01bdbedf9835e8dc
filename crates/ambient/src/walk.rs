//! Walking a path: a scripted player (and camera) moving through the world, driven frame by
//! frame through [`Ambient::frame`] — so in the retail order of `SmartBox::UseTime` @ 0x00455410,
//! with the player and the camera one frame behind (spec `ambient-runtime.md` §6.1) — and the
//! resulting log. `resound ambient --walk PATH.json` and the tests use it.
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
//!     { "t": 30.0, "cell": "0xA9B40100", "origin": [60.0, 60.0, 0.0], "seen_outside": true },
//!     { "t": 40.0, "cell": "0xA9B40025", "origin": [100.0, 100.0, 0.0], "teleport": true }
//!   ]
//! }
//! ```
//!
//! - `waypoints` (required, ordered by `t` in seconds): `cell` is a cell id, a `"0xXXYYCCCC"`
//!   string or an integer `0..2^32`, and must be a valid land cell, EnvCell or landblock id
//!   (`inbound_valid_cellid`; 0 is not); `origin` is landblock-relative metres (x east, y north,
//!   z up).
//!   `seen_outside` (default false) matters for EnvCells. `heading` (compass degrees) fixes
//!   the camera heading from this waypoint on; otherwise the camera faces along the segment.
//! - `teleport` (default false): the player stays at the previous waypoint until `t`, then
//!   appears here at once. The first frame at or after `t` calls [`Ambient::teleport`]
//!   (`SmartBox::PlayerPositionUpdated` @ 0x00453870): camera and player apply together, with no
//!   lag, so the rebuild happens in that frame.
//! - Between two outdoor waypoints the player moves in a straight line through global
//!   coordinates and its land cell follows; from an EnvCell waypoint the cell is held and only
//!   the origin moves. Before the first waypoint the player stands on it, after the last it
//!   stays there.
//! - `frame_rate` (default 30) is the number of `UseTime` frames per second. Frame `i` runs at
//!   `t0 + i / frame_rate`; a walk runs at most [`MAX_FRAMES`] frames.
//! - `camera_offset` (default `[0, 0, 0]`) places the listener relative to the player, in world
//!   axes; retail plays around the camera but gathers around the player's feet.

#[cfg(test)]
mod tests;

use std::fmt;

use glam::Vec3;
use resound_datformat::id::CellId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::ambient::{Ambient, ChangePositionError, FrameError, Player, PositionChange, Rebuild};
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
    /// The cell id (written `"0xXXYYCCCC"` or as an integer).
    #[serde(serialize_with = "cell_to_text", deserialize_with = "cell_from_json")]
    pub cell: CellId,
    /// Landblock-relative metres.
    pub origin: [f32; 3],
    /// Whether the (EnvCell) cell sees outside.
    #[serde(default)]
    pub seen_outside: bool,
    /// A fixed camera heading (compass degrees) from here on.
    #[serde(default)]
    pub heading: Option<f32>,
    /// The player jumps here at `t` (a portal, a recall): [`Ambient::teleport`], no lag.
    #[serde(default)]
    pub teleport: bool,
}

/// What a walk's `cell` may be, for serde's messages.
const CELL_EXPECTED: &str = "\"0xXXYYCCCC\" or an integer 0..2^32";

fn cell_to_text<S: Serializer>(cell: &CellId, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(cell)
}

fn cell_from_json<'de, D: Deserializer<'de>>(d: D) -> Result<CellId, D::Error> {
    d.deserialize_any(CellVisitor)
}

/// Reads a cell id from a JSON integer or string; anything else says what is expected.
struct CellVisitor;

impl serde::de::Visitor<'_> for CellVisitor {
    type Value = CellId;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(CELL_EXPECTED)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<CellId, E> {
        u32::try_from(v)
            .map(CellId)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<CellId, E> {
        u32::try_from(v)
            .map(CellId)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<CellId, E> {
        let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"));
        match hex {
            Some(h) if !h.starts_with('+') => u32::from_str_radix(h, 16).ok(),
            Some(_) => None,
            None => s.parse().ok(),
        }
        .map(CellId)
        .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(s), &self))
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
    /// A waypoint's position is one the runtime refuses (an invalid cell id, 0 included, or a
    /// non-finite origin).
    #[error("waypoint {index}")]
    BadWaypoint {
        /// The waypoint's index.
        index: usize,
        /// Why.
        #[source]
        source: ChangePositionError,
    },
    /// The duration is not a finite non-negative number, or runs more than [`MAX_FRAMES`].
    #[error(
        "duration {seconds} s is not between 0 and {max_seconds} s (at most {MAX_FRAMES} frames at {frame_rate} frames per second)"
    )]
    BadDuration {
        /// The duration asked for.
        seconds: f64,
        /// The walk's frame rate.
        frame_rate: f64,
        /// The longest duration at that rate.
        max_seconds: f64,
    },
    /// A pose was refused.
    #[error("at t = {time} s")]
    Position {
        /// When.
        time: f64,
        /// Why.
        #[source]
        source: FrameError,
    },
}

/// One line of the walk log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "entry")]
pub enum WalkEntry {
    /// The sounds were rebuilt around the player's position (the previous frame's, or the
    /// teleport's).
    Rebuild {
        /// When (the clock of the frame that rebuilt).
        time: f64,
        /// The position the rebuild gathered around.
        position: Position,
        /// `total_sound_count` after the gather.
        total_sound_count: f32,
        /// Instances that exist (all rebuilds so far).
        instances: usize,
        /// Whether a teleport waypoint caused it ([`Ambient::teleport`]).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        teleport: bool,
        /// What the rebuild saw.
        rebuild: Rebuild,
    },
    /// A sound was played or dropped.
    Event(AmbientEvent),
}

/// The most frames one walk may run (10 hours at 60 fps).
pub const MAX_FRAMES: u64 = 60 * 60 * 60 * 10;

/// Where the walk puts the player and the camera at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkPose {
    /// The player (feet) and whether its cell sees outside.
    pub player: Player,
    /// The camera: the player plus the walk's `camera_offset`, with the heading.
    pub camera: Listener,
    /// Whether a `teleport` waypoint was reached since the previous pose of this cursor.
    pub teleported: bool,
}

/// Walks a [`Walk`] forward in time, keeping its segment: a run of `F` frames over `W`
/// waypoints costs O(F + W). Going back in time restarts from the first waypoint.
#[derive(Clone, Debug)]
pub struct WalkCursor<'a> {
    walk: &'a Walk,
    /// The waypoint that ends the current segment (`waypoints.len()` past the last).
    next: usize,
    /// The camera heading carried into the current segment.
    heading: f32,
}

impl<'a> WalkCursor<'a> {
    fn new(walk: &'a Walk) -> Option<Self> {
        let first = walk.waypoints.first()?;
        Some(Self {
            walk,
            next: 1,
            heading: first.heading.unwrap_or(0.0),
        })
    }

    /// The pose at `t`.
    pub fn pose(&mut self, t: f64) -> WalkPose {
        let wps = &self.walk.waypoints;
        if self.next > 1
            && wps.get(self.next - 1).is_some_and(|w| t < w.t)
            && let Some(fresh) = Self::new(self.walk)
        {
            *self = fresh;
        }
        let mut teleported = false;
        while let (Some(prev), Some(w)) = (wps.get(self.next - 1), wps.get(self.next)) {
            if t < w.t {
                break;
            }
            let seg = if w.teleport {
                None
            } else {
                segment_heading(prev, w)
            };
            self.heading = w.heading.or(seg).unwrap_or(self.heading);
            teleported |= w.teleport;
            self.next += 1;
        }
        let prev = &wps[self.next - 1];
        let (position, heading) = match wps.get(self.next) {
            Some(w) if w.teleport => (
                Position::new(prev.cell.0, Vec3::from(prev.origin)),
                prev.heading.unwrap_or(self.heading),
            ),
            Some(w) => {
                let span = w.t - prev.t;
                let f = if span > 0.0 {
                    ((t - prev.t) / span).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                let h = prev
                    .heading
                    .or_else(|| segment_heading(prev, w))
                    .unwrap_or(self.heading);
                (interpolate(prev, w, f as f32), h)
            }
            None => (
                Position::new(prev.cell.0, Vec3::from(prev.origin)),
                prev.heading.unwrap_or(self.heading),
            ),
        };
        let offset = Vec3::from(self.walk.camera_offset);
        WalkPose {
            player: Player {
                position,
                seen_outside: prev.seen_outside,
            },
            camera: Listener {
                position: Position {
                    origin: position.origin + offset,
                    ..position
                },
                heading_deg: heading,
            },
            teleported,
        }
    }
}

impl Walk {
    /// Checks the path.
    ///
    /// # Errors
    /// [`WalkError`] for an empty path, a bad frame rate, unordered times or a waypoint the
    /// runtime would refuse.
    pub fn validate(&self) -> Result<(), WalkError> {
        if self.waypoints.is_empty() {
            return Err(WalkError::Empty);
        }
        if !(self.frame_rate.is_finite() && self.frame_rate > 0.0) {
            return Err(WalkError::BadFrameRate(self.frame_rate));
        }
        let mut last = f64::NEG_INFINITY;
        for (index, w) in self.waypoints.iter().enumerate() {
            if !w.t.is_finite() || w.t < last {
                return Err(WalkError::BadTime(index));
            }
            last = w.t;
            let origin = Vec3::from(w.origin);
            let source = if !geometry::is_valid_cell_id(w.cell.0) {
                ChangePositionError::InvalidCellId(w.cell)
            } else if !origin.is_finite() {
                ChangePositionError::NonFinitePosition {
                    objcell_id: w.cell,
                    origin,
                }
            } else {
                continue;
            };
            return Err(WalkError::BadWaypoint { index, source });
        }
        Ok(())
    }

    /// A cursor at the start of the path (`None` without waypoints).
    #[must_use]
    pub fn cursor(&self) -> Option<WalkCursor<'_>> {
        WalkCursor::new(self)
    }

    /// The pose at `t`, from the start of the path: O(waypoints); use [`Walk::cursor`] to walk
    /// forward frame by frame.
    #[must_use]
    pub fn pose(&self, t: f64) -> Option<WalkPose> {
        self.cursor().map(|mut c| c.pose(t))
    }

    /// Runs the walk for `seconds` from the first waypoint's time through [`Ambient::frame`]
    /// (the retail order, both positions one frame behind), calling [`Ambient::teleport`] first
    /// in a frame that reaches a `teleport` waypoint, and logs rebuilds and events.
    ///
    /// # Errors
    /// [`WalkError`] for a bad path or duration, or a pose the runtime refuses.
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
            return Err(WalkError::BadDuration {
                seconds,
                frame_rate: self.frame_rate,
                max_seconds: MAX_FRAMES as f64 / self.frame_rate,
            });
        }
        let frames = frames.floor() as u64;
        let mut cursor = self.cursor().ok_or(WalkError::Empty)?;
        let t0 = self.waypoints.first().map_or(0.0, |w| w.t);
        let mut log = Vec::new();
        let mut events = Vec::new();
        for i in 0..=frames {
            let time = t0 + i as f64 / self.frame_rate;
            let pose = cursor.pose(time);
            let err = |source| WalkError::Position { time, source };
            if pose.teleported && i > 0 {
                let change = ambient
                    .teleport(
                        time,
                        pose.player,
                        pose.camera,
                        tables,
                        land_blocks,
                        &mut events,
                    )
                    .map_err(err)?;
                push_rebuild(&mut log, ambient, change, time, true);
                log.extend(events.drain(..).map(WalkEntry::Event));
            }
            let change = ambient
                .frame(
                    time,
                    pose.player,
                    pose.camera,
                    tables,
                    land_blocks,
                    &mut events,
                )
                .map_err(err)?;
            push_rebuild(&mut log, ambient, change, time, false);
            log.extend(events.drain(..).map(WalkEntry::Event));
        }
        Ok(log)
    }
}

/// Logs a rebuild, if `change` is one, around the position it gathered at.
fn push_rebuild(
    log: &mut Vec<WalkEntry>,
    ambient: &Ambient,
    change: PositionChange,
    time: f64,
    teleport: bool,
) {
    if let PositionChange::Rebuilt(rebuild) = change {
        log.push(WalkEntry::Rebuild {
            time,
            position: ambient.player_pos(),
            total_sound_count: ambient.total_sound_count(),
            instances: ambient.sounds().len(),
            teleport,
            rebuild,
        });
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
/// that holds it (`LandDefs::adjust_to_outside` @ 0x005A9BC0). Positions outside the world keep
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
