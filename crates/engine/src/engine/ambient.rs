//! The retail ambient runtime on the engine: [`AmbientState`] runs the [`AmbientBridge`] on
//! every [`Engine::update`](crate::Engine::update) with the engine clock (the runtime's absolute
//! time) and the listener's AC pose (the retail camera is the listener: the voxel listener
//! through [`voxel_to_ac`], the heading from its orientation), and turns what it emits into
//! voices:
//!
//! - [`AmbientPolicy::Retail16`](crate::sound::AmbientPolicy::Retail16): the retail output
//!   exactly: each play's integer dB and pan as the mixer's retail parameters, through the
//!   bridge's 16-voice retail pool (the 17th is dropped and counted), no acoustics. These voices
//!   count in `Status::live_voices`.
//! - [`AmbientPolicy::Modern`](crate::sound::AmbientPolicy::Modern): a positioned event becomes
//!   a 3-D voice at [`ac_to_voxel`]`(position)` with the acoustic path ([`AMBIENT_RANGE`]); a
//!   centred bed plays centred (a relative voice at the listener). The engine starts those
//!   through its own `play`.
//!
//! Counters are in `Status::ambient` ([`AmbientStatus`]).

use std::collections::BTreeMap;

use glam::DVec3;
use resound_mixer::{PlaySettings, SoundId, VoiceId};

use super::shared::Shared;
use super::sounds::{SoundHandle, Sounds};
use super::voices::Voices;
use crate::builder::VoicePolicy;
use crate::error::TickError;
use crate::sound::{AmbientBridge, AmbientPlay, ListenerPose};
use crate::source::{Listener, Orientation, Source};
use crate::status::AmbientStatus;
use crate::terrain::{ac_to_voxel, voxel_dir_to_ac, voxel_to_ac};

/// Range (blocks) of `Modern` positioned ambient voices: their linear distance law reaches
/// silence here, well beyond where the runtime's −50 dB floor drops them as inaudible.
pub const AMBIENT_RANGE: f32 = 400.0;

/// Voices of the Retail16 policy.
pub const RETAIL_VOICES: usize = 16;

/// The attached bridge and the voices it started.
#[derive(Debug)]
pub(crate) struct AmbientState {
    bridge: AmbientBridge,
    /// Retail voices started (mixer voice, sound), dropped once they end.
    retail: Vec<(VoiceId, SoundId)>,
    /// Sounds of the wave cache registered as engine sounds (for `Modern` voices): sound → wave.
    registered: BTreeMap<SoundId, u32>,
    plays: Vec<AmbientPlay>,
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
    /// The state of a freshly attached bridge.
    pub(crate) fn new(bridge: AmbientBridge) -> Self {
        Self {
            bridge,
            retail: Vec::new(),
            registered: BTreeMap::new(),
            plays: Vec::new(),
            started: 0,
            not_started: 0,
            refused: 0,
        }
    }

    /// The bridge.
    pub(crate) fn bridge(&self) -> &AmbientBridge {
        &self.bridge
    }

    /// Retail ambient voices still playing.
    pub(crate) fn retail_live(&mut self, shared: &mut Shared) -> usize {
        let mixer = &mut shared.mixer;
        self.retail.retain(|(v, _)| mixer.is_playing(*v));
        self.retail.len()
    }

    /// `stop_all` stopped the retail voices too.
    pub(crate) fn stopped_all(&mut self) {
        self.retail.clear();
    }

    /// The counters.
    pub(crate) fn status(&mut self, shared: &mut Shared) -> AmbientStatus {
        let retail_voices = self.retail_live(shared);
        AmbientStatus {
            attached: true,
            counters: self.bridge.counters(),
            started: self.started,
            not_started: self.not_started,
            retail_voices,
            refused_ticks: self.refused,
            cache: self.bridge.cache_stats(),
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

    /// Runs the bridge for one frame (or a teleport) at `pose` and returns the plays it asks
    /// for (hand the vector back with [`AmbientState::done`]). Cache entries the cache has
    /// unloaded since are forgotten as engine sounds.
    pub(crate) fn run(
        &mut self,
        shared: &mut Shared,
        voices: &Voices,
        sounds: &mut Sounds,
        pose: ListenerPose,
        teleport: bool,
    ) -> (Vec<AmbientPlay>, Result<(), TickError>) {
        let mixer = &mut shared.mixer;
        self.retail.retain(|(v, _)| mixer.is_playing(*v));
        let now = shared.time();
        let mut plays = std::mem::take(&mut self.plays);
        plays.clear();
        let retail = &self.retail;
        let in_use = |s: SoundId| voices.plays(s) || retail.iter().any(|r| r.1 == s);
        let result = if teleport {
            self.bridge
                .teleport(&mut shared.mixer, now, pose, &in_use, &mut plays)
        } else {
            self.bridge
                .tick(&mut shared.mixer, now, pose, &in_use, &mut plays)
        };
        if result.is_err() {
            self.refused += 1;
        }
        let cache = self.bridge.cache();
        self.registered.retain(|sound, wave| {
            let kept = cache.peek(*wave).is_some_and(|c| c.sound == *sound);
            if !kept {
                sounds.forget(*sound);
            }
            kept
        });
        (plays, result.map(|_| ()).map_err(|_| TickError::Ambient))
    }

    /// Hands back the plays of [`AmbientState::run`], counting `started` of them started.
    pub(crate) fn done(&mut self, plays: Vec<AmbientPlay>, started: u64) {
        self.started += started;
        self.not_started += plays.len() as u64 - started;
        self.plays = plays;
    }

    /// Starts a `Retail` play in the mixer (unless the Retail16 policy's voices, `engine_voices`
    /// of the engine's own plus the retail ones, are all busy); false, counted dropped, if not.
    pub(crate) fn start_retail(
        &mut self,
        shared: &mut Shared,
        engine_voices: usize,
        play: &AmbientPlay,
    ) -> bool {
        let AmbientPlay::Retail { sound, .. } = *play else {
            return false;
        };
        let full = shared.policy == VoicePolicy::Retail16
            && engine_voices + self.retail.len() >= RETAIL_VOICES;
        let started = match play.params() {
            Some(params) if !full => shared
                .mixer
                .play(
                    sound,
                    PlaySettings {
                        looping: false,
                        params,
                    },
                )
                .ok(),
            _ => None,
        };
        if let Some(v) = started {
            self.retail.push((v, sound));
            return true;
        }
        shared.status.dropped_voices += 1;
        false
    }

    /// A `Positioned` or `Centred` play as an engine sound (registered) and the source to play
    /// it at; `None` when its wave has left the cache.
    pub(crate) fn modern_source(
        &mut self,
        sounds: &mut Sounds,
        play: &AmbientPlay,
    ) -> Option<(SoundHandle, Source)> {
        let sound = play.sound();
        let cached = self.bridge.cache().peek(play.wave_id())?;
        sounds.insert(sound, cached.frames, cached.sample_rate);
        self.registered.insert(sound, play.wave_id());
        let source = match *play {
            AmbientPlay::Positioned {
                position, volume, ..
            } => Source {
                position: ac_to_voxel(&position),
                volume,
                range: AMBIENT_RANGE,
                ..Source::default()
            },
            AmbientPlay::Centred { volume, .. } => Source {
                position: DVec3::ZERO,
                volume,
                relative: true,
                ..Source::default()
            },
            AmbientPlay::Retail { .. } => return None,
        };
        Some((SoundHandle(sound), source))
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
