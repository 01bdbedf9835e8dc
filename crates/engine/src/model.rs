//! The acoustic model the engine runs: Resound's own (MIT) or, with the `spr-gpl` feature,
//! Sound Physics Remastered. One value is cloned for the worker and for inline traces.

use resound_acoustics::{
    AcousticModel, AcousticResult, Budget, DirectResult, EchoResult, MaterialTable, Mode, OwnModel,
    Plane, RequestError, RoomResult, SoundRequest, WorldProbe,
};
use resound_dsp::ReverbBusSettings;

/// Which acoustic model evaluates sounds.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Model {
    /// Resound's own model (MIT).
    Own(OwnModel),
    /// Sound Physics Remastered (GNU GPL v3 only; only with the `spr-gpl` feature).
    #[cfg(feature = "spr-gpl")]
    Spr(resound_spr::SprModel),
}

impl Default for Model {
    fn default() -> Self {
        Self::Own(OwnModel::new(MaterialTable::standard()))
    }
}

macro_rules! each {
    ($self:ident, $m:ident => $e:expr) => {
        match $self {
            Model::Own($m) => $e,
            #[cfg(feature = "spr-gpl")]
            Model::Spr($m) => $e,
        }
    };
}

impl Model {
    /// The reverb bus this model's sends are meant for: the spec's slot table for the own
    /// model; SPR's four slots as its configuration sets them (decay, decay-HF ratio, gain
    /// `preset·0.7·reverb_gain·0.85`, late delay as pre-delay; `acoustics.md` §2.4, `spr.md`
    /// §1.9) for SPR. Send `k` feeds slot `k` in both.
    #[must_use]
    pub fn reverb_bus(&self) -> ReverbBusSettings {
        match self {
            Model::Own(_) => ReverbBusSettings::default(),
            #[cfg(feature = "spr-gpl")]
            Model::Spr(m) => {
                let mut bus = ReverbBusSettings::default();
                for (slot, spr) in bus.slots.iter_mut().zip(m.reverb_slots()) {
                    slot.decay_s = spr.decay_time;
                    slot.hf_ratio = spr.decay_hf_ratio;
                    slot.gain = spr.gain;
                    slot.pre_delay_s = spr.late_reverb_delay;
                }
                bus.sanitized()
            }
        }
    }

    /// Sets the planes added to every echo search (scene files' injected planes, e.g. §9 E3).
    pub fn set_extra_planes(&mut self, planes: Vec<Plane>) {
        each!(self, m => m.extra_planes = planes);
    }
}

impl AcousticModel for Model {
    fn name(&self) -> &'static str {
        each!(self, m => m.name())
    }

    fn materials(&self) -> &MaterialTable {
        each!(self, m => m.materials())
    }

    fn direct(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<DirectResult, RequestError> {
        each!(self, m => m.direct(probe, request, budget))
    }

    fn reflections(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<EchoResult, RequestError> {
        each!(self, m => m.reflections(probe, request, budget))
    }

    fn room(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<RoomResult, RequestError> {
        each!(self, m => m.room(probe, request, budget))
    }

    fn full_stages(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        budget: &mut Budget,
    ) -> Result<(DirectResult, EchoResult, RoomResult), RequestError> {
        each!(self, m => m.full_stages(probe, request, budget))
    }

    fn evaluate(
        &self,
        probe: &dyn WorldProbe,
        request: &SoundRequest,
        mode: Mode,
        budget: &mut Budget,
    ) -> Result<AcousticResult, RequestError> {
        each!(self, m => m.evaluate(probe, request, mode, budget))
    }
}

#[cfg(test)]
mod tests;
