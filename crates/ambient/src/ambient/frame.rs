//! The host's per-frame calls, [`Ambient::frame`] and [`Ambient::teleport`]: the retail order
//! within a frame and the one-frame lag of the player and the camera (spec
//! `ambient-runtime.md` §6.1; the crate docs give the order with its retail addresses).

#[cfg(test)]
mod tests;

use serde::Serialize;
use thiserror::Error;

use super::{Ambient, ChangePositionError, PositionChange, SetListenerError};
use crate::event::AmbientEvent;
use crate::geometry::{self, Position};
use crate::sound_manager::Listener;
use crate::source::{LandBlockSource, SoundTableSource};

/// Why [`Ambient::frame`] or [`Ambient::teleport`] refused its input (the state is left
/// untouched).
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The player's position or the clock was refused.
    #[error(transparent)]
    Player(#[from] ChangePositionError),
    /// The camera was refused.
    #[error(transparent)]
    Camera(#[from] SetListenerError),
}

/// The player as `CellManager::ChangePosition` sees it: the physics position and whether its
/// cell (an EnvCell) sees outside, so the outdoor set is gathered.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Player {
    /// The player's physics position (`player->m_position`), the feet.
    pub position: Position,
    /// `curr_cell->seen_outside`; ignored for outdoor cells.
    pub seen_outside: bool,
}

impl Player {
    /// A player at `position` whose cell does not see outside (every outdoor cell).
    #[must_use]
    pub const fn at(position: Position) -> Self {
        Self {
            position,
            seen_outside: false,
        }
    }
}

impl Ambient {
    /// One retail frame, in the order of `SmartBox::UseTime` @ 0x00455410 (spec
    /// `ambient-runtime.md` §6.1). Call it once per frame with this frame's clock, player and
    /// camera; it applies the one-frame lag itself:
    ///
    /// 1. `CellManager::ChangePosition` @ 0x004559B0 with the player pose given to the
    ///    **previous** call (physics moves the player only after the rebuild);
    /// 2. `Ambient::UseTime` @ 0x00551880 at `now`, every sound placed, attenuated and panned
    ///    from the camera given to the **previous** call (`SoundManager::player_position_` is
    ///    set only by the previous frame's `SmartBox::Draw` → `set_viewer` →
    ///    `SoundManager::SetPlayerPosition` @ 0x005503C0);
    /// 3. this frame's `player` and `camera` are stored for the next call (physics, then Draw).
    ///
    /// At the first call (no previous frame) both are the poses given. After a
    /// [`Ambient::teleport`], the teleported poses stand for the previous frame's.
    ///
    /// Returns what `ChangePosition` did (the rebuild, if any, is of the previous frame's cell).
    ///
    /// # Errors
    /// [`FrameError`] for a non-finite clock, a player position `change_position` would refuse
    /// (non-finite, or a cell id failing `inbound_valid_cellid`, 0 included) or a non-finite
    /// camera; nothing changes.
    #[allow(
        clippy::too_many_arguments,
        reason = "the two sources, the clock and the sink are all injected"
    )]
    pub fn frame<T: SoundTableSource, L: LandBlockSource>(
        &mut self,
        now: f64,
        player: Player,
        camera: Listener,
        tables: &mut T,
        land_blocks: &mut L,
        events: &mut Vec<AmbientEvent>,
    ) -> Result<PositionChange, FrameError> {
        check_pose(now, &player, &camera)?;
        let previous = self.last_player.unwrap_or(player);
        let listener = self.listener;
        if self.last_player.is_none() {
            self.listener = Some(camera);
        }
        let change = self
            .change_position(
                &previous.position,
                previous.seen_outside,
                now,
                tables,
                land_blocks,
                events,
            )
            .inspect_err(|_| self.listener = listener)?;
        self.use_time(now, events);
        // physics moved the player; Draw sets the camera for the next frame
        self.last_player = Some(player);
        self.listener = Some(camera);
        Ok(change)
    }

    /// A teleport or blip, `SmartBox::PlayerPositionUpdated` @ 0x00453870: `set_viewer`
    /// (`SoundManager::SetPlayerPosition` @ 0x005503C0) then `CellManager::ChangePosition`
    /// @ 0x004559B0 at once, with no lag; the next [`Ambient::frame`] starts from these poses.
    /// A rebuild's newly audible sounds play at `now` from the new camera. `UseTime` does not
    /// run (call [`Ambient::frame`] for this frame's tick as usual).
    ///
    /// # Errors
    /// As [`Ambient::frame`]; nothing changes.
    #[allow(
        clippy::too_many_arguments,
        reason = "the two sources, the clock and the sink are all injected"
    )]
    pub fn teleport<T: SoundTableSource, L: LandBlockSource>(
        &mut self,
        now: f64,
        player: Player,
        camera: Listener,
        tables: &mut T,
        land_blocks: &mut L,
        events: &mut Vec<AmbientEvent>,
    ) -> Result<PositionChange, FrameError> {
        check_pose(now, &player, &camera)?;
        let listener = self.listener.replace(camera);
        let change = self
            .change_position(
                &player.position,
                player.seen_outside,
                now,
                tables,
                land_blocks,
                events,
            )
            .inspect_err(|_| self.listener = listener)?;
        self.last_player = Some(player);
        Ok(change)
    }
}

/// The checks of [`Ambient::frame`] and [`Ambient::teleport`], made before anything changes.
fn check_pose(now: f64, player: &Player, camera: &Listener) -> Result<(), FrameError> {
    let p = &player.position;
    if !now.is_finite() {
        return Err(ChangePositionError::NonFiniteTime(now).into());
    }
    if !p.origin.is_finite() {
        return Err(ChangePositionError::NonFinitePosition {
            objcell_id: p.objcell_id,
            origin: p.origin,
        }
        .into());
    }
    if !geometry::is_valid_cell_id(p.objcell_id.0) {
        return Err(ChangePositionError::InvalidCellId(p.objcell_id).into());
    }
    if !camera.position.origin.is_finite() || !camera.heading_deg.is_finite() {
        return Err(SetListenerError::NonFinite(*camera).into());
    }
    Ok(())
}
