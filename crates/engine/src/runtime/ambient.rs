//! The retail ambient runtime on the engine: [`AmbientState`] runs the [`AmbientBridge`] on
//! every [`Engine::update`](crate::Engine::update) with the engine clock (the runtime's absolute
//! time) and the listener's AC pose (the retail camera is the listener: the voxel listener
//! through [`voxel_to_ac`], the heading from its orientation), and the engine turns the plays it
//! emits into voices:
//!
//! - [`AmbientPolicy::Retail16`](crate::sound::AmbientPolicy::Retail16): the retail output
//!   exactly: each play's integer dB and pan as the mixer's retail parameters, through the
//!   engine's retail 16-voice pool (the 17th is dropped and counted), no acoustics. These voices
//!   count in `Status::live_voices`.
//! - [`AmbientPolicy::Modern`](crate::sound::AmbientPolicy::Modern): a positioned event becomes
//!   a 3-D voice at [`ac_to_voxel`]`(position)` with the acoustic path ([`AMBIENT_RANGE`]); a
//!   centred bed plays centred (a relative voice at the listener). The engine starts those
//!   through its own play path.
//!
//! The listener's AC cell is the outdoor land cell under it unless the host names one
//! ([`Engine::set_listener_cell`], [`ListenerCell`]): an EnvCell without `seen_outside` then
//! hears no land ambient, one with it the outdoor set (`CellManager::ChangePosition`
//! @ 0x004559B0). [`Engine::attach_ambient_sources`] attaches the runtime over any sources the
//! game implements; [`Engine::attach_ambient`] is the DAT-folder case.
//!
//! The state owns the wave cache: a play's Wave is loaded (or found) when the engine starts it,
//! acquired by the voice and released when the mixer reports the voice ended. It counts what the
//! engine drops (Wave absent or undecodable, no room, pool full); `Status::ambient`
//! ([`AmbientStatus`]) adds them to the bridge's counters.

use std::collections::BTreeMap;

use glam::DVec3;
use resound_ambient::{LandBlockSource, SoundTableSource};
use resound_datformat::id::CellId;
use resound_datformat::record::Region;
use resound_mixer::{MixerHandle, VoiceId};

use super::Engine;
use super::shared::Shared;
use crate::error::TickError;
use crate::listener_cell::{
    HeldCell, ListenerCell, ListenerCellError, SeenOutside, position_in, valid_cell,
};
use crate::sound::{
    AmbientBridge, AmbientPlay, AmbientSettings, AttachError, CacheError, CachedWave, DropCounts,
    ListenerPose, WaveCache, WaveSource,
};
use crate::source::{Listener, Orientation, Source};
use crate::status::AmbientStatus;
use crate::terrain::{ac_to_voxel, voxel_dir_to_ac, voxel_to_ac};

/// Range (blocks) of `Modern` positioned ambient voices: their linear distance law reaches
/// silence here, well beyond where the runtime's −50 dB floor drops them as inaudible.
pub const AMBIENT_RANGE: f32 = 400.0;

/// The attached bridge, the wave cache and the voices started from it.
#[derive(Debug)]
pub(crate) struct AmbientState {
    bridge: AmbientBridge,
    cache: WaveCache,
    /// Voices started from the cache (mixer voice → Wave), released when they end.
    voices: BTreeMap<VoiceId, u32>,
    /// Retail voices still playing (mixer voices).
    retail: Vec<VoiceId>,
    plays: Vec<AmbientPlay>,
    /// The cell the host named (`None`: the outdoor cell under the listener).
    cell: Option<HeldCell>,
    /// Plays the engine dropped (cache and pool).
    dropped: DropCounts,
    started: u64,
    not_started: u64,
    refused: u64,
}

/// Compass heading (degrees, 0 = north, 90 = east) of a voxel orientation.
fn heading_deg(o: &Orientation) -> f32 {
    let d = voxel_dir_to_ac(o.forward);
    if d.x == 0.0 && d.y == 0.0 {
        return 0.0;
    }
    // libm (not the platform's maths): the same heading on every target, wasm32 included.
    (libm::atan2(d.x, d.y).to_degrees().rem_euclid(360.0)) as f32
}

/// The voxel orientation of a compass heading (degrees, 0 = north, 90 = east), level.
#[must_use]
pub fn heading_orientation(heading_deg: f32) -> Orientation {
    let h = f64::from(heading_deg).to_radians();
    // Voxel x is east, z south. libm: the same orientation on every target.
    Orientation::looking(DVec3::new(libm::sin(h), 0.0, -libm::cos(h)))
}

impl AmbientState {
    /// The state of a freshly attached bridge, with an empty cache under `settings`.
    pub(crate) fn new(bridge: AmbientBridge, settings: &AmbientSettings) -> Self {
        Self {
            bridge,
            cache: WaveCache::new(settings.cache_bytes, settings.decode_limits),
            voices: BTreeMap::new(),
            retail: Vec::new(),
            plays: Vec::new(),
            cell: None,
            dropped: DropCounts::default(),
            started: 0,
            not_started: 0,
            refused: 0,
        }
    }

    /// The bridge.
    pub(crate) fn bridge(&self) -> &AmbientBridge {
        &self.bridge
    }

    /// The wave cache.
    pub(crate) fn cache(&self) -> &WaveCache {
        &self.cache
    }

    /// Retail ambient voices still playing (as of the last ended voices taken from the mixer).
    pub(crate) fn retail_live(&self) -> usize {
        self.retail.len()
    }

    /// The mixer reports `voice` ended: its Wave is released, a retail voice no longer counts.
    pub(crate) fn voice_ended(&mut self, voice: VoiceId) {
        if let Some(wave) = self.voices.remove(&voice) {
            self.cache.release(wave);
        }
        if let Some(i) = self.retail.iter().position(|v| *v == voice) {
            self.retail.swap_remove(i);
        }
    }

    /// `stop_all` stopped the retail voices too (their Waves stay acquired until the mixer
    /// reports the fades done).
    pub(crate) fn stopped_all(&mut self) {
        self.retail.clear();
    }

    /// The counters: the bridge's, with the plays the engine dropped moved from `played` to
    /// their reasons.
    pub(crate) fn status(&self) -> AmbientStatus {
        let mut counters = self.bridge.counters();
        let d = &self.dropped;
        counters.played -= d.total();
        let c = &mut counters.dropped;
        c.pool_full += d.pool_full;
        c.wave_missing += d.wave_missing;
        c.decode_failed += d.decode_failed;
        c.no_room += d.no_room;
        AmbientStatus {
            attached: true,
            counters,
            started: self.started,
            not_started: self.not_started,
            retail_voices: self.retail.len(),
            refused_ticks: self.refused,
            cache: self.cache.stats(),
        }
    }

    /// The listener's pose as the runtime's camera (and player): in the cell the host named,
    /// or the outdoor cell under the listener; `None` (counted refused) outside the AC world.
    /// The flag is retail's `curr_cell->seen_outside`, which `CellManager::ChangePosition`
    /// @ 0x004559B0 ORs with `isOutdoorCell` to gate the land gather.
    pub(crate) fn pose(&mut self, listener: &Listener) -> Option<ListenerPose> {
        let (position, seen_outside) = match self.cell {
            None => (voxel_to_ac(listener.position), false),
            Some(c) => (position_in(c.id, listener.position), c.seen_outside),
        };
        let Some(position) = position else {
            self.refused += 1;
            return None;
        };
        Some(ListenerPose {
            position,
            heading_deg: heading_deg(&listener.orientation),
            seen_outside,
        })
    }

    /// The listener's cell as the host set it (the flag resolved).
    pub(crate) fn listener_cell(&self) -> ListenerCell {
        self.cell
            .map_or(ListenerCell::Outdoor, |c| ListenerCell::Cell {
                id: c.id,
                seen_outside: SeenOutside::Given(c.seen_outside),
            })
    }

    /// Names the listener's cell, reading an EnvCell's flag through the bridge's cell source
    /// when asked to (`CEnvCell::seen_outside`, unpacked from the record's `Flags & 0x1`).
    pub(crate) fn set_listener_cell(
        &mut self,
        cell: ListenerCell,
    ) -> Result<(), ListenerCellError> {
        let held = match cell {
            ListenerCell::Outdoor => None,
            ListenerCell::Cell { id, seen_outside } => {
                if !valid_cell(id) {
                    return Err(ListenerCellError::InvalidCell(id));
                }
                let seen_outside = match seen_outside {
                    SeenOutside::Given(b) => b,
                    SeenOutside::FromCellDat => self
                        .bridge
                        .env_cell_seen_outside(CellId(id))
                        .map_err(|source| ListenerCellError::Read { cell: id, source })?
                        .ok_or(ListenerCellError::NoEnvCell(id))?,
                };
                Some(HeldCell { id, seen_outside })
            }
        };
        self.cell = held;
        Ok(())
    }

    /// Runs the bridge for one frame (or a teleport) at `pose` and the engine clock, and
    /// returns the plays it asks for (hand the vector back with [`AmbientState::done`]).
    pub(crate) fn run(
        &mut self,
        shared: &Shared,
        pose: ListenerPose,
        teleport: bool,
    ) -> (Vec<AmbientPlay>, Result<(), TickError>) {
        let now = shared.time();
        let mut plays = std::mem::take(&mut self.plays);
        plays.clear();
        let result = if teleport {
            self.bridge.teleport(now, pose, &mut plays)
        } else {
            self.bridge.tick(now, pose, &mut plays)
        };
        if result.is_err() {
            self.refused += 1;
        }
        (plays, result.map(|_| ()).map_err(|_| TickError::Ambient))
    }

    /// Hands back the plays of [`AmbientState::run`].
    pub(crate) fn done(&mut self, plays: Vec<AmbientPlay>) {
        self.plays = plays;
    }

    /// The play's Wave as a loaded sound (from the cache, or read, decoded and loaded, making
    /// room among the Waves no voice plays); `None`, counted dropped, when it cannot be had.
    pub(crate) fn wave(
        &mut self,
        mixer: &mut MixerHandle,
        play: &AmbientPlay,
    ) -> Option<CachedWave> {
        match self.cache.get(play.wave_id(), self.bridge.waves(), mixer) {
            Ok(w) => Some(w),
            Err(e) => {
                let d = &mut self.dropped;
                match e {
                    CacheError::Missing { .. } | CacheError::Read { .. } => d.wave_missing += 1,
                    CacheError::Decode { .. }
                    | CacheError::Declared { .. }
                    | CacheError::TooLarge { .. } => {
                        d.decode_failed += 1;
                    }
                    _ => d.no_room += 1,
                }
                None
            }
        }
    }

    /// A `Retail16` play found every voice busy.
    pub(crate) fn pool_full(&mut self) {
        self.dropped.pool_full += 1;
    }

    /// The play of `wave_id` started as mixer voice `voice` (`Some`) or not (`None`, counted);
    /// a started voice holds its Wave until it ends.
    pub(crate) fn started(&mut self, play: &AmbientPlay, voice: Option<VoiceId>) -> bool {
        let Some(voice) = voice else {
            self.not_started += 1;
            return false;
        };
        self.started += 1;
        let wave = play.wave_id();
        if self.cache.acquire(wave) {
            self.voices.insert(voice, wave);
        }
        if matches!(play, AmbientPlay::Retail { .. }) {
            self.retail.push(voice);
        }
        true
    }
}

impl Engine {
    /// Attaches the retail ambient runtime over any sources the game implements (a DAT folder
    /// is one: [`Engine::attach_ambient`]): the runtime is built from `region`; `portal` gives
    /// the sound tables ([`SoundTableSource`]) and the Waves the plays name ([`WaveSource`];
    /// join two objects with [`PortalPair`](crate::sound::PortalPair)), `cell` the landblocks
    /// and the EnvCells ([`LandBlockSource`]). Every [`Engine::update`] then ticks it with the
    /// engine clock and the listener as its camera; its plays follow the engine's voice
    /// policy. `settings.region_id` is not used. A runtime attached before is replaced, and the
    /// listener's cell is the outdoor one again.
    ///
    /// # Errors
    /// [`AttachError::ResolveRegion`]: the Region's indices are inconsistent.
    pub fn attach_ambient_sources<P, C>(
        &mut self,
        region: &Region,
        portal: P,
        cell: C,
        settings: AmbientSettings,
    ) -> Result<(), AttachError>
    where
        P: SoundTableSource + WaveSource + Send + 'static,
        <P as SoundTableSource>::Error: Send + Sync + 'static,
        C: LandBlockSource + Send + 'static,
        C::Error: Send + Sync + 'static,
    {
        let bridge =
            AmbientBridge::from_sources(region, portal, cell, self.shared.policy, settings)?;
        self.take_ended();
        self.ambient = Some(Box::new(AmbientState::new(bridge, &settings)));
        Ok(())
    }

    /// Names the listener's AC cell for the ambient runtime (by default it is the outdoor land
    /// cell under the listener, followed as it moves). An EnvCell without `seen_outside` hears
    /// no land ambient; one with it hears the outdoor set of its landblock, as retail
    /// (`CellManager::ChangePosition` @ 0x004559B0). The change takes effect at the next
    /// [`Engine::update`] (a rebuild, when the cell id changed) or at once with
    /// [`Engine::teleport`].
    ///
    /// # Errors
    /// [`ListenerCellError`]: no runtime attached, not a land cell or EnvCell id, an EnvCell
    /// the cell source does not have or cannot read (with [`SeenOutside::FromCellDat`]).
    pub fn set_listener_cell(&mut self, cell: ListenerCell) -> Result<(), ListenerCellError> {
        self.ambient
            .as_deref_mut()
            .ok_or(ListenerCellError::NotAttached)?
            .set_listener_cell(cell)
    }

    /// The listener's AC cell as set ([`ListenerCell::Outdoor`] when none is named or no
    /// runtime is attached); a named EnvCell's flag is given as resolved.
    #[must_use]
    pub fn listener_cell(&self) -> ListenerCell {
        self.ambient
            .as_deref()
            .map_or(ListenerCell::Outdoor, AmbientState::listener_cell)
    }
}

/// The source a `Positioned` or `Centred` play sounds at (`None` for `Retail`).
pub(crate) fn modern_source(play: &AmbientPlay) -> Option<Source> {
    match *play {
        AmbientPlay::Positioned {
            position, volume, ..
        } => Some(Source {
            position: ac_to_voxel(&position),
            volume,
            range: AMBIENT_RANGE,
            ..Source::default()
        }),
        AmbientPlay::Centred { volume, .. } => Some(Source {
            position: DVec3::ZERO,
            volume,
            relative: true,
            ..Source::default()
        }),
        AmbientPlay::Retail { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_follows_the_compass() {
        let h = |f: DVec3| heading_deg(&Orientation::looking(f));
        // Voxel −z is north, +x east.
        assert!((h(DVec3::NEG_Z) - 0.0).abs() < 1e-4);
        assert!((h(DVec3::X) - 90.0).abs() < 1e-4);
        assert!((h(DVec3::Z) - 180.0).abs() < 1e-4);
        assert!((h(DVec3::NEG_X) - 270.0).abs() < 1e-4);
    }
}
