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
//! The state owns the wave cache: a play's Wave is loaded (or found) when the engine starts it,
//! acquired by the voice and released when the mixer reports the voice ended. It counts what the
//! engine drops (Wave absent or undecodable, no room, pool full); `Status::ambient`
//! ([`AmbientStatus`]) adds them to the bridge's counters.

use std::collections::BTreeMap;

use glam::DVec3;
use resound_mixer::{MixerHandle, VoiceId};

use super::shared::Shared;
use crate::error::TickError;
use crate::sound::{
    AmbientBridge, AmbientPlay, AmbientSettings, CacheError, CachedWave, DropCounts, ListenerPose,
    WaveCache,
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
    (d.x.atan2(d.y).to_degrees().rem_euclid(360.0)) as f32
}

/// The voxel orientation of a compass heading (degrees, 0 = north, 90 = east), level.
#[must_use]
pub fn heading_orientation(heading_deg: f32) -> Orientation {
    let h = f64::from(heading_deg).to_radians();
    // Voxel x is east, z south.
    Orientation::looking(DVec3::new(h.sin(), 0.0, -h.cos()))
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

    /// The listener's pose as the runtime's camera; `None` (counted refused) outside the AC
    /// world.
    pub(crate) fn pose(&mut self, listener: &Listener) -> Option<ListenerPose> {
        let Some(position) = voxel_to_ac(listener.position) else {
            self.refused += 1;
            return None;
        };
        Some(ListenerPose {
            position,
            heading_deg: heading_deg(&listener.orientation),
            seen_outside: false,
        })
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
                    CacheError::Decode { .. } | CacheError::TooLarge { .. } => {
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
