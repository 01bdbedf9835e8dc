//! What `resound acoustics` prints for one evaluation: the staged results of a scene file or
//! of two points on terrain, as text ([`Display`](std::fmt::Display)) and as one JSON document
//! with stable keys ([`Evaluation::to_json`]).

use std::fmt;

use glam::DVec3;

use crate::budget::Budgets;
use crate::model::own::OwnModel;
use crate::model::stages::{Stages, run_stages};
use crate::model::{AcousticModel, Mode, Paths, RequestError};
use crate::room::Space;
use crate::scene::{Scene, SceneError, mode_name};
use crate::world::material::MaterialTable;

/// Why a scene could not be evaluated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvaluateError {
    /// The scene is invalid.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// Its request is invalid.
    #[error(transparent)]
    Request(#[from] RequestError),
}

/// What was evaluated, for the report's first lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Scene name, or `terrain 0xXXYY`.
    pub name: String,
    /// Source (voxel blocks).
    pub source: [f64; 3],
    /// Listener (voxel blocks).
    pub listener: [f64; 3],
    /// Voice range.
    pub range: f64,
    /// On terrain: the AC positions (source, listener) as `CELL:X,Y,Z`.
    pub ac: Option<[String; 2]>,
    /// Further voices of the scene (not evaluated here).
    pub voices: usize,
}

/// One evaluation and its header.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// What.
    pub header: Header,
    /// Model name.
    pub model: &'static str,
    /// Stages run.
    pub mode: Mode,
    /// Direct paths (1 or 9).
    pub paths: u32,
    /// Results.
    pub outcome: Stages,
}

fn axis_name(axis: usize) -> &'static str {
    ["x", "y", "z"].get(axis).copied().unwrap_or("?")
}

impl Header {
    /// Source–listener distance.
    #[must_use]
    pub fn distance(&self) -> f64 {
        DVec3::from(self.source).distance(DVec3::from(self.listener))
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, out) = (&self.header, &self.outcome);
        writeln!(
            f,
            "scene {}: source {:?} -> listener {:?}, d = {:.2}, range {}, model {}, mode {}",
            h.name,
            h.source,
            h.listener,
            h.distance(),
            h.range,
            self.model,
            mode_name(self.mode)
        )?;
        if let Some([s, l]) = &h.ac {
            writeln!(
                f,
                "  AC positions: source {s}, listener {l} (voxel x east, y up, z south)"
            )?;
        }
        let d = &out.direct;
        let plural = if self.paths == 1 { "" } else { "s" };
        writeln!(
            f,
            "occlusion: occ {:.3}  gain {:.4}  hf {:.6}  (cutoff {:.6}, air {:.4}; {} path{plural})",
            d.occ, d.gain, d.hf, d.cutoff, d.air, self.paths
        )?;
        if let Some(echo) = &out.echo {
            writeln!(f, "taps: {}", echo.taps.len())?;
            for t in &echo.taps {
                writeln!(
                    f,
                    "  {:7.1} ms  path {:7.2} m  level {:.3}  hf {:.3} (fc {:.0} Hz)  plane {}={} ({:+})  dir ({:+.2}, {:+.2}, {:+.2})",
                    t.delay * 1000.0,
                    t.path,
                    t.level,
                    t.hf,
                    t.cutoff_hz,
                    axis_name(t.plane.axis),
                    t.plane.coord,
                    t.plane.normal_sign,
                    t.direction.x,
                    t.direction.y,
                    t.direction.z
                )?;
            }
        }
        if let Some(r) = &out.room {
            let s = &r.space;
            writeln!(
                f,
                "room: enclosure {:.3}  size {:.2}  reflectivity {:.2}  decay {:.2} s (slot mix {:.2} s)  wet {:.3}",
                s.enclosure, s.size, s.reflectivity, r.decay, r.effective_decay, r.wet
            )?;
            let src = r.source.map_or(String::new(), |s| {
                format!("; source: enclosure {:.3} size {:.2}", s.enclosure, s.size)
            });
            writeln!(
                f,
                "  listener: enclosure {:.3} size {:.2}{src}",
                r.listener.enclosure, r.listener.size
            )?;
            let x = r.sends;
            writeln!(
                f,
                "  sends: [{:.3}, {:.3}, {:.3}, {:.3}]",
                x[0], x[1], x[2], x[3]
            )?;
        }
        if let Some(j) = &out.joined {
            let (a, x) = (j.apparent_direction, j.sends);
            writeln!(
                f,
                "joined result: gain {:.4}  hf {:.6}  sends [{:.3}, {:.3}, {:.3}, {:.3}]  direction ({:+.2}, {:+.2}, {:+.2})",
                j.gain, j.hf, x[0], x[1], x[2], x[3], a.x, a.y, a.z
            )?;
        }
        if h.voices > 0 {
            writeln!(
                f,
                "voices: {} further voices in the scene (scene C: evaluated by the tick queue, not here)",
                h.voices
            )?;
        }
        let t = &out.total;
        let unknown = if t.met_unknown {
            ", met unknown (counted as air; re-trace once resident)"
        } else {
            ""
        };
        let exhausted = if t.budget_exhausted {
            ", BUDGET EXHAUSTED (incomplete)"
        } else {
            ""
        };
        writeln!(
            f,
            "cells visited: {} (rays {}, skipped sections {}, unknown share {:.1} %){unknown}{exhausted}",
            t.cells,
            t.rays,
            t.skipped_sections,
            100.0 * t.unknown_share()
        )
    }
}

impl Evaluation {
    /// Evaluates a scene's source and listener stage by stage under the offline budgets, with
    /// the world as it is at `tick`: with `model`, or (`None`) Resound's own model with the
    /// scene's injected planes; in `mode`, or (`None`) the scene's.
    ///
    /// # Errors
    /// [`EvaluateError`].
    pub fn of_scene(
        scene: &Scene,
        materials: &MaterialTable,
        model: Option<&dyn AcousticModel>,
        mode: Option<Mode>,
        tick: u64,
    ) -> Result<Self, EvaluateError> {
        let mode = match mode {
            Some(m) => m,
            None => scene.mode_value()?,
        };
        let world = scene.build_world(materials, tick)?;
        let request = scene.request()?;
        let mut own = OwnModel::new(materials.clone());
        own.extra_planes = scene.planes()?;
        let model = model.unwrap_or(&own);
        let outcome = run_stages(model, &world, &request, mode, Budgets::offline())?;
        let header = Header {
            name: scene.name.clone(),
            source: scene.source,
            listener: scene.listener,
            range: scene.range,
            ac: None,
            voices: scene.voices.len(),
        };
        let paths = if request.paths == Paths::Nine { 9 } else { 1 };
        Ok(Self {
            header,
            model: model.name(),
            mode,
            paths,
            outcome,
        })
    }

    /// The `--json` document (stable keys).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let (h, out, d, t) = (
            &self.header,
            &self.outcome,
            &self.outcome.direct,
            &self.outcome.total,
        );
        let dir = |v: DVec3| [v.x, v.y, v.z];
        let mut v = serde_json::json!({
            "scene": h.name, "model": self.model, "mode": mode_name(self.mode),
            "source": h.source, "listener": h.listener, "distance": h.distance(), "range": h.range,
            "occlusion": {
                "paths": self.paths, "occ": d.occ, "gain": d.gain, "hf": d.hf, "cutoff": d.cutoff,
                "air": d.air, "apparent_direction": dir(d.apparent_direction),
            },
            "cells_visited": t.cells,
            "telemetry": {
                "rays": t.rays, "cells": t.cells, "skipped_sections": t.skipped_sections,
                "unknown_steps": t.unknown_steps, "unknown_share": t.unknown_share(),
                "met_unknown": t.met_unknown, "budget_exhausted": t.budget_exhausted,
            },
        });
        if let Some([s, l]) = &h.ac {
            v["ac"] = serde_json::json!({ "source": s, "listener": l });
        }
        if let Some(echo) = &out.echo {
            v["taps"] = echo.taps.iter().map(|t| serde_json::json!({
                "delay_ms": t.delay * 1000.0, "path_m": t.path, "level": t.level, "hf": t.hf,
                "cutoff_hz": t.cutoff_hz, "direction": dir(t.direction),
                "plane": { "axis": axis_name(t.plane.axis), "coord": t.plane.coord, "normal": t.plane.normal_sign },
            })).collect();
        }
        if let Some(r) = &out.room {
            let space = |s: &Space| serde_json::json!({ "enclosure": s.enclosure, "size": s.size, "reflectivity": s.reflectivity });
            v["room"] = serde_json::json!({
                "enclosure": r.space.enclosure, "size": r.space.size, "reflectivity": r.space.reflectivity,
                "decay": r.decay, "effective_decay": r.effective_decay, "wet": r.wet, "sends": r.sends,
                "listener": space(&r.listener), "source": r.source.as_ref().map(space),
            });
        }
        if let Some(j) = &out.joined {
            v["joined"] = serde_json::json!({
                "occ": j.occ, "gain": j.gain, "hf": j.hf, "sends": j.sends, "decay": j.decay,
                "effective_decay": j.effective_decay, "wet": j.wet,
                "apparent_direction": dir(j.apparent_direction), "cells": j.telemetry.cells,
            });
        }
        v
    }
}
