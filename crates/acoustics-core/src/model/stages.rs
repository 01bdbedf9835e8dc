//! Running a mode's stages one by one, each within its own cell budget (what a tool prints
//! stage by stage), plus the model's joined evaluation.

use super::{
    AcousticModel, AcousticResult, DirectResult, EchoResult, Mode, RequestError, RoomResult,
    SoundRequest, Telemetry,
};
use crate::budget::{Budget, Budgets};
use crate::world::probe::WorldProbe;

/// The results of each stage of a mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Stages {
    /// Stage 1 (every mode).
    pub direct: DirectResult,
    /// Stage 2 (`reflect`, `full`).
    pub echo: Option<EchoResult>,
    /// Stage 3 (`full`).
    pub room: Option<RoomResult>,
    /// In `full` mode, the model's own joined evaluation ([`AcousticModel::evaluate`], within
    /// the three budgets together). For SPR this is the one pass that applies the
    /// shared-airspace floor and the redirection, which the separate stages do not.
    pub joined: Option<AcousticResult>,
    /// The separate stages' telemetry summed.
    pub total: Telemetry,
}

/// Runs the stages of `mode` (`off` runs stage 1 only, as `direct`), each with its budget.
///
/// # Errors
/// [`RequestError`] for a bad request.
pub fn run_stages(
    model: &dyn AcousticModel,
    world: &dyn WorldProbe,
    request: &SoundRequest,
    mode: Mode,
    budgets: Budgets,
) -> Result<Stages, RequestError> {
    let mut total = Telemetry::default();
    let direct = model.direct(world, request, &mut Budget::new(budgets.direct))?;
    total.merge(&direct.telemetry);
    let echo = if mode >= Mode::Reflect {
        let e = model.reflections(world, request, &mut Budget::new(budgets.echo))?;
        total.merge(&e.telemetry);
        Some(e)
    } else {
        None
    };
    let (room, joined) = if mode >= Mode::Full {
        let r = model.room(world, request, &mut Budget::new(budgets.room))?;
        total.merge(&r.telemetry);
        let mut all = Budget::new(budgets.total());
        let j = model.evaluate(world, request, Mode::Full, &mut all)?;
        (Some(r), Some(j))
    } else {
        (None, None)
    };
    Ok(Stages {
        direct,
        echo,
        room,
        joined,
        total,
    })
}

#[cfg(test)]
mod tests;
