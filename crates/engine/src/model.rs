//! The acoustic model the engine runs: Resound's own (MIT) or, with the `spr-gpl` feature,
//! Sound Physics Remastered. One value is cloned for the worker and for inline traces.

use resound_acoustics::{
    AcousticModel, AcousticResult, Budget, DirectResult, EchoResult, MaterialTable, Mode, OwnModel,
    RequestError, RoomResult, SoundRequest, WorldProbe,
};

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
