//! `OwnModel`: Resound's own MIT model (spec §1, §4–§6).
//!
//! Direct: per-band transmission loss in dB per unit of occlusion with material rates, minimum
//! over 1 or 9 paths, air absorption beyond half the range. Echoes: image sources from 32 + 32
//! golden-spiral rays. Room: 24 upper directions of a 48-point spiral.

use std::sync::Arc;

use glam::{DVec3, IVec3};

use super::{
    AcousticModel, DirectResult, EchoResult, Paths, RequestError, RoomResult, SoundRequest,
    Telemetry, image_source_reflections,
};
use crate::budget::Budget;
use crate::echo::{EchoSettings, Plane, golden_spiral};
use crate::ray::dda::CentreRay;
use crate::ray::dda::WalkEnd;
use crate::ray::occlusion::{OcclusionSettings, OcclusionTrace, trace_occlusion};
use crate::room::{DecayModel, LISTENER_SHARE, Space, measure_space_from, reverb, room_rays};
use crate::world::material::MaterialTable;
use crate::world::probe::WorldProbe;

/// Path offset of the 8 extra paths (`occlusion_variation`).
pub const PATH_OFFSET: f64 = 0.35;
/// Echo rays per end.
pub const ECHO_RAYS: usize = 32;
/// Echo ray length.
pub const ECHO_RAY_LENGTH: f64 = 300.0;

/// Air absorption on the highs: `0.994^max(0, d − range/2)`.
#[must_use]
pub fn air_absorption(distance: f64, range: f64) -> f64 {
    0.994f64.powf((distance - range / 2.0).max(0.0))
}

/// The centre of the cell holding `p`.
#[must_use]
pub fn cell_centre(p: DVec3) -> DVec3 {
    p.floor() + DVec3::splat(0.5)
}

/// The cell holding `p` (`p` finite and inside the world: a validated request's positions).
fn cell_of(p: DVec3) -> IVec3 {
    p.floor().as_ivec3()
}

/// Resound's own acoustic model.
#[derive(Clone, Debug)]
pub struct OwnModel {
    materials: MaterialTable,
    occlusion: OcclusionSettings,
    echo: EchoSettings,
    /// The room rays, kept for walks from cell centres (shared by clones).
    room_rays: Arc<[CentreRay]>,
    /// Planes added to every echo search (tests and diagnostics, e.g. scene E3).
    pub extra_planes: Vec<Plane>,
    /// How the room's decay is derived ([`DecayModel::Physical`] by default).
    pub decay_model: DecayModel,
    /// True (the default): results carry the decay bands the bus tunes the sound's slot to.
    /// False leaves them 0, so the slots ring at their nominal decays while the result still
    /// reports the space's decay: the pre-issue-30 bus, for `verify`'s `slot-tuning-off` fault.
    pub tune_bus: bool,
}

impl Default for OwnModel {
    fn default() -> Self {
        Self::new(MaterialTable::standard())
    }
}

impl OwnModel {
    /// A model over a material table.
    #[must_use]
    pub fn new(materials: MaterialTable) -> Self {
        Self {
            materials,
            occlusion: OcclusionSettings::default(),
            echo: EchoSettings {
                directions: golden_spiral(ECHO_RAYS),
                ray_length: ECHO_RAY_LENGTH,
            },
            room_rays: room_rays(),
            extra_planes: Vec::new(),
            decay_model: DecayModel::default(),
            tune_bus: true,
        }
    }

    /// The model with its room decay derived by `decay_model`.
    #[must_use]
    pub fn with_decay_model(mut self, decay_model: DecayModel) -> Self {
        self.decay_model = decay_model;
        self
    }

    /// Traces the direct paths and returns the least occluded one (first on ties), its
    /// occlusion capped at 64.
    #[must_use]
    pub fn trace_paths(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> (OcclusionTrace, Telemetry) {
        let mut tel = Telemetry::default();
        let mut best: Option<OcclusionTrace> = None;
        let mut offsets = vec![DVec3::ZERO];
        if request.paths == Paths::Nine {
            for sx in [-1.0, 1.0] {
                for sy in [-1.0, 1.0] {
                    for sz in [-1.0, 1.0] {
                        offsets.push(DVec3::new(sx, sy, sz) * PATH_OFFSET);
                    }
                }
            }
        }
        let mut partial: Option<OcclusionTrace> = None;
        for off in offsets {
            let t = trace_occlusion(
                probe,
                &self.materials,
                request.source + off,
                request.listener + off,
                &self.occlusion,
                budget,
            );
            tel.rays += 1;
            tel.add_walk(&t.stats);
            if t.stats.end == WalkEnd::BudgetExhausted {
                partial.get_or_insert(t);
                break;
            }
            if best.is_none_or(|b| t.occ < b.occ) {
                best = Some(t);
            }
        }
        let mut trace = best.or(partial).unwrap_or_default();
        // SPR's `min(occ, 64)` after the stop rule (spec §2.2, spr.md §1.2): the band losses
        // scale with it.
        let cap = self.occlusion.max_occlusion;
        if trace.occ > cap {
            let k = cap / trace.occ;
            trace.occ = cap;
            trace.low_db *= k;
            trace.high_db *= k;
        }
        (trace, tel)
    }
}

impl AcousticModel for OwnModel {
    fn name(&self) -> &'static str {
        "own"
    }

    fn materials(&self) -> &MaterialTable {
        &self.materials
    }

    fn direct(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<DirectResult, RequestError> {
        request.validate()?;
        let (trace, telemetry) = self.trace_paths(probe, request, budget);
        let gain = 10f64.powf(-trace.low_db / 20.0);
        let cutoff = 10f64.powf(-trace.high_db / 20.0);
        let air = air_absorption(request.distance(), request.range);
        Ok(DirectResult {
            occ: trace.occ,
            gain: gain as f32,
            cutoff: cutoff as f32,
            air: air as f32,
            hf: (cutoff * air) as f32,
            apparent_direction: (request.source - request.listener)
                .try_normalize()
                .unwrap_or(DVec3::ZERO),
            telemetry,
        })
    }

    fn reflections(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<EchoResult, RequestError> {
        image_source_reflections(
            probe,
            &self.materials,
            &self.echo,
            &self.extra_planes,
            request,
            budget,
        )
    }

    fn room(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<RoomResult, RequestError> {
        request.validate()?;
        let mut telemetry = Telemetry::default();
        let listener = cell_of(request.listener);
        let l = measure_space_from(probe, &self.materials, listener, &self.room_rays, budget);
        let s = request.measure_source_space.then(|| {
            let source = cell_of(request.source);
            measure_space_from(probe, &self.materials, source, &self.room_rays, budget)
        });
        for m in std::iter::once(&l).chain(&s) {
            telemetry.rays += m.rays;
            telemetry.add_walk(&m.stats);
        }
        let source = s.map(|s| s.space);
        let space = source.map_or(l.space, |s| Space::mix(l.space, s, LISTENER_SHARE));
        let rv = reverb(&space, request.distance(), request.range, self.decay_model);
        Ok(RoomResult {
            listener: l.space,
            source,
            space,
            wet: rv.wet as f32,
            decay: rv.decay as f32,
            decay_bands: if self.tune_bus {
                rv.decay_bands.map(|d| d as f32)
            } else {
                [0.0; 3]
            },
            sends: rv.sends.map(|s| s as f32),
            effective_decay: rv.effective_decay as f32,
            telemetry,
        })
    }
}
