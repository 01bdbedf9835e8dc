// SPDX-License-Identifier: GPL-3.0-only
//! `SprModel`: SPR's computation as an acoustics-core `AcousticModel`.
//!
//! Follows SPR `SoundPhysics.java` `processSound` / `evaluateEnvironment` /
//! `calculateOcclusion` (SP:211-575) at `ca0f8fe`, and the OpenAL Soft air absorption SPR relies
//! on; spec `spr.md` §1, §3.9, §5.

use glam::DVec3;
use resound_acoustics::echo::EchoSettings;
use resound_acoustics::model::image_source_reflections;
use resound_acoustics::model::own::{ECHO_RAY_LENGTH, ECHO_RAYS};
use resound_acoustics::room::effective_decay;
use resound_acoustics::{
    AcousticModel, Budget, DirectResult, EchoResult, MaterialTable, Paths, Plane, RequestError,
    RoomResult, SoundRequest, Space, Telemetry, WorldProbe,
};

use crate::formula::{absorption_coefficient, cutoff_gain, direct_cutoff};
use crate::material_map::{SprSurface, spr_material_table, surfaces};
use crate::occlusion::sound_occlusion;
use crate::probe_world::ProbeWorld;
use crate::sphere::ray_directions;
use crate::{
    CellCount, ReverbSlot, SprConfig, SprEvaluation, SprSound, evaluate_counted, reverb_slots,
};

/// OpenAL Soft's air absorption per metre at 5 kHz with `AIR_ABSORPTION_FACTOR` 1 (spec `spr.md`
/// §3.9, §5): applied to the dry highs beyond the reference distance (range/2).
pub const AL_AIR_ABSORPTION: f64 = 0.99426;

/// Dry air absorption `0.99426^max(0, d − range/2)` (spec `spr.md` §3.9).
#[must_use]
pub fn air_absorption(distance: f64, range: f64) -> f64 {
    AL_AIR_ABSORPTION.powf((distance - range / 2.0).max(0.0))
}

/// Sound Physics Remastered's model (GPL-3.0-only).
///
/// - `direct`: SPR's occlusion (`Paths::One` = strict, `Paths::Nine` = the 9 paths),
///   `cutoff = exp(−3·occ)`, `gain = cutoff^0.1`, and OpenAL's dry air absorption.
/// - `reflections`: Resound's stage 2, not SPR's (SPR has no discrete echoes, spec
///   `acoustics.md` §2.6): acoustics-core's image-source stage, the one `OwnModel` runs
///   ([`image_source_reflections`]), with 32 + 32 rays of SPR's own spiral (`acoustics.md` §5
///   step 1, "model spiral"), tap levels from SPR's reflectivities through
///   `energy_towards_player`. Echo delays are geometry and hold in both models
///   (`acoustics.md` §1).
/// - `room`: one full SPR evaluation (32 rays × 4 bounces, shared airspace, slot sends).
/// - `evaluate`: the trait's join. In `Full` its stages (`full_stages`) are one full SPR
///   evaluation for the dry path and the sends, plus the echo taps: the dry gain and cutoff
///   include SPR's shared-airspace floor, the direction follows SPR's redirection, the sends
///   are SPR's slot sends (slot `k` → OpenAL send `3 − k`; configure the reverb bus with
///   [`SprModel::reverb_slots`]). `Direct` gives the occlusion-only dry values, `Reflect` those
///   plus the taps.
///
/// The room result's `decay` and `effective_decay` are the decay the sends make on the slots:
/// the `acoustics.md` §6 reading (2 × the time between the −5 and −35 dB crossings of
/// `EDC(τ) = Σ (send_k·gain_k)²·exp(−13.82τ/T_k)`), with the slot output gains in the EDC as
/// the bus applies them (see [`slot_mix_decay`]). `wet` is the clamped sum of the sends; SPR
/// measures no space, so `space` is zero.
#[derive(Clone, Debug)]
pub struct SprModel {
    config: SprConfig,
    materials: MaterialTable,
    surfaces: Vec<SprSurface>,
    echo: EchoSettings,
    /// Treat every request as a block sound (occlusion variation ≥ 0.49).
    pub block_sounds: bool,
    /// Planes added to every echo search (tests and diagnostics, e.g. scene E3).
    pub extra_planes: Vec<Plane>,
}

impl Default for SprModel {
    fn default() -> Self {
        SprModel::new(SprConfig::default(), spr_material_table())
    }
}

impl SprModel {
    /// A model with the given configuration over a material table (whose names are mapped onto
    /// SPR's tables, see [`crate::spr_surface`]).
    #[must_use]
    pub fn new(config: SprConfig, materials: MaterialTable) -> Self {
        let surfaces = surfaces(&materials);
        SprModel {
            config,
            materials,
            surfaces,
            echo: EchoSettings {
                directions: ray_directions(ECHO_RAYS as u32),
                ray_length: ECHO_RAY_LENGTH,
            },
            block_sounds: false,
            extra_planes: Vec::new(),
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &SprConfig {
        &self.config
    }

    /// SPR's four reverb slots for this configuration (for the dsp reverb bus).
    #[must_use]
    pub fn reverb_slots(&self) -> [ReverbSlot; 4] {
        reverb_slots(&self.config)
    }

    /// The SPR view of a request: `AL_MAX_DISTANCE = range / attenuation_factor`.
    #[must_use]
    pub fn sound(&self, request: &SoundRequest) -> SprSound {
        SprSound {
            source: request.source,
            listener: request.listener,
            block_sound: self.block_sounds,
            max_distance: Some(request.range as f32 / self.config.attenuation_factor),
            underwater: false,
        }
    }

    fn config_for(&self, paths: Paths) -> std::borrow::Cow<'_, SprConfig> {
        match paths {
            Paths::Nine => std::borrow::Cow::Borrowed(&self.config),
            Paths::One => {
                let mut c = self.config.clone();
                c.strict_occlusion = true;
                std::borrow::Cow::Owned(c)
            }
        }
    }

    /// One complete SPR evaluation of `request` on `probe`, with its telemetry.
    ///
    /// # Errors
    /// [`RequestError`] for invalid positions or range.
    pub fn evaluate_spr(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<(SprEvaluation, Telemetry), RequestError> {
        request.validate()?;
        let world = ProbeWorld::new(probe, &self.surfaces);
        let mut count = CellCount::with_limit(budget.remaining());
        let config = self.config_for(request.paths);
        let eval = evaluate_counted(&world, &self.sound(request), &config, &mut count);
        let telemetry = self.telemetry(&world, &count, eval.casts, budget);
        Ok((eval, telemetry))
    }

    fn telemetry(
        &self,
        world: &ProbeWorld<'_>,
        count: &CellCount,
        casts: u64,
        budget: &mut Budget,
    ) -> Telemetry {
        let _ = budget.try_take(count.cells);
        Telemetry {
            rays: u32::try_from(casts).unwrap_or(u32::MAX),
            cells: count.cells,
            skipped_sections: 0,
            unknown_steps: world.unknown_reads(),
            met_unknown: world.met_unknown(),
            budget_exhausted: count.exhausted,
            touched: world.touched(),
        }
    }

    fn dry(&self, request: &SoundRequest, cutoff: f32) -> (f32, f32) {
        let air = air_absorption(request.distance(), request.range) as f32;
        (air, cutoff * air)
    }
}

fn unit_or_zero(v: DVec3) -> DVec3 {
    v.try_normalize().unwrap_or(DVec3::ZERO)
}

/// The decay the sends make on SPR's slots, `acoustics.md` §6: 2 × the time between the −5 dB
/// and −35 dB crossings of `EDC(τ) = Σ a_k²·exp(−13.82τ/T_k)` with `a_k = send_k·gain_k`, the
/// slot's output gain included as the bus applies it (§6: "the better prediction once the bus
/// exists"). 0 when every send is 0.
///
/// SPR's slot decay times are acoustics-core's slot table (`acoustics.md` §2.4, adopted), so
/// acoustics-core's EDC reading applies to them.
#[must_use]
pub fn slot_mix_decay(sends: &[f32; 4], slots: &[ReverbSlot; 4]) -> f32 {
    let amplitudes: [f64; 4] =
        std::array::from_fn(|k| f64::from(sends[k]) * f64::from(slots[k].gain));
    effective_decay(&amplitudes) as f32
}

fn room_of(eval: &SprEvaluation, slots: &[ReverbSlot; 4], telemetry: Telemetry) -> RoomResult {
    let sends = eval.send_gain;
    let total: f32 = sends.iter().sum();
    let decay = slot_mix_decay(&sends, slots);
    RoomResult {
        listener: Space::default(),
        source: None,
        space: Space::default(),
        wet: total.clamp(0.0, 1.0),
        decay,
        // The SPR slots at their nominal decays, cross-faded (spr.md §1.9).
        decay_bands: [0.0; 3],
        sends,
        effective_decay: decay,
        telemetry,
    }
}

impl AcousticModel for SprModel {
    fn name(&self) -> &'static str {
        "spr"
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
        let world = ProbeWorld::new(probe, &self.surfaces);
        let mut count = CellCount::with_limit(budget.remaining());
        let config = self.config_for(request.paths);
        let occ = sound_occlusion(
            &world,
            request.source,
            request.listener,
            self.block_sounds,
            &config,
            &mut count,
        );
        let cutoff = direct_cutoff(occ, absorption_coefficient(config.block_absorption));
        let (air, hf) = self.dry(request, cutoff);
        let paths = if config.strict_occlusion { 1 } else { 9 };
        let mut telemetry = self.telemetry(&world, &count, 0, budget);
        telemetry.rays = paths;
        Ok(DirectResult {
            occ,
            gain: cutoff_gain(cutoff),
            cutoff,
            air,
            hf,
            apparent_direction: unit_or_zero(request.source - request.listener),
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
        let (eval, telemetry) = self.evaluate_spr(probe, request, budget)?;
        Ok(room_of(&eval, &self.reverb_slots(), telemetry))
    }

    /// One full SPR evaluation gives the dry path (with the shared-airspace floor and the
    /// redirection) and the sends; the echo taps come after it, on what it left of the budget.
    /// The evaluation's cost is reported once, on the direct result.
    fn full_stages(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<(DirectResult, EchoResult, RoomResult), RequestError> {
        let (eval, telemetry) = self.evaluate_spr(probe, request, budget)?;
        let echo = self.reflections(probe, request, budget)?;
        let (air, hf) = self.dry(request, eval.direct_cutoff);
        let position = eval.redirected_position.unwrap_or(request.source);
        let direct = DirectResult {
            occ: eval.occlusion,
            gain: eval.direct_gain,
            cutoff: eval.direct_cutoff,
            air,
            hf,
            apparent_direction: unit_or_zero(position - request.listener),
            telemetry,
        };
        let room = room_of(&eval, &self.reverb_slots(), Telemetry::default());
        Ok((direct, echo, room))
    }
}
