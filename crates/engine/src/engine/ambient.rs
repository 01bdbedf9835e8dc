//! The retail ambient runtime on the engine: [`Engine::attach_ambient`] runs the
//! [`AmbientBridge`] on every [`Engine::update`] with the engine clock (the runtime's absolute
//! time) and the listener's AC pose (the retail camera is the listener: the voxel listener
//! through [`voxel_to_ac`], the heading from its orientation), and plays what it emits:
//!
//! - [`AmbientPolicy::Retail16`](crate::sound::AmbientPolicy::Retail16): the retail output exactly: each play's integer dB and pan
//!   (±14) as the mixer's retail parameters, through the bridge's 16-voice retail pool (the
//!   17th is dropped and counted), no acoustics. These voices count in `Status::live_voices`.
//! - [`AmbientPolicy::Modern`](crate::sound::AmbientPolicy::Modern): a positioned event becomes a 3-D voice at
//!   [`ac_to_voxel`]`(position)` with the acoustic path ([`AMBIENT_RANGE`]); a centred bed
//!   plays centred (a relative voice at the listener).
//!
//! [`Engine::teleport`] maps to the bridge's teleport (camera and player at once, no lag).
//! Counters are in `Status::ambient` ([`AmbientStatus`]).

use std::collections::BTreeMap;
use std::path::Path;

use glam::DVec3;
use resound_ambient::walk::Walk;
use resound_mixer::{PlaySettings, SoundId, VoiceId};

use super::{Engine, SoundHandle, SoundInfo};
use crate::builder::VoicePolicy;
use crate::error::TickError;
use crate::sound::{
    AmbientBridge, AmbientCounters, AmbientPlay, AmbientSettings, AttachError, CacheStats,
    ListenerPose,
};
use crate::source::{Orientation, Source};
use crate::terrain::{ac_to_voxel, voxel_dir_to_ac, voxel_to_ac};

/// Range (blocks) of `Modern` positioned ambient voices: their linear distance law reaches
/// silence here, well beyond where the runtime's −50 dB floor drops them as inaudible.
pub const AMBIENT_RANGE: f32 = 400.0;

/// The ambient bridge's counters as the engine reports them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AmbientStatus {
    /// An ambient runtime is attached.
    pub attached: bool,
    /// The bridge's counters: frames, rebuilds, events emitted, plays, drops by reason.
    pub counters: AmbientCounters,
    /// Plays the engine started as voices.
    pub started: u64,
    /// Plays the engine could not start (voice limit, mixer full), counted here.
    pub not_started: u64,
    /// Retail voices playing now.
    pub retail_voices: usize,
    /// Ticks the runtime refused (a listener outside the AC world, a bad clock).
    pub refused_ticks: u64,
    /// The wave cache's counters.
    pub cache: CacheStats,
}

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

impl Engine {
    /// Renders `seconds` of a walk (offline): per walk frame, the camera's pose becomes the
    /// listener (a `teleport` waypoint maps to [`Engine::teleport`]), then [`Engine::update`]
    /// by one frame and the frame's samples are rendered and handed to `sink` (interleaved
    /// stereo). Sample positions are rounded from the frame times, so the output depends only
    /// on the inputs.
    ///
    /// # Errors
    /// [`TickError`] from the first frame that failed (not offline, a refused pose, a
    /// landblock that cannot be read).
    pub fn render_walk(
        &mut self,
        walk: &Walk,
        seconds: f64,
        sink: &mut dyn FnMut(&[f32]),
    ) -> Result<(), TickError> {
        let Some(mut cursor) = walk.cursor() else {
            return Ok(());
        };
        let fps = walk.frame_rate;
        let frames = (seconds * fps).floor().max(0.0) as u64;
        let rate = f64::from(self.rate);
        let mut buf = Vec::new();
        let mut done = 0u64;
        for i in 0..frames {
            let pose = cursor.pose(i as f64 / fps);
            let position = ac_to_voxel(&pose.camera.position);
            let orientation = heading_orientation(pose.camera.heading_deg);
            if pose.teleported {
                self.teleport(position, orientation)?;
            } else {
                self.set_listener(position, orientation)?;
            }
            self.update(1.0 / fps)?;
            let end = ((i + 1) as f64 * rate / fps).round() as u64;
            buf.clear();
            buf.resize(2 * (end - done) as usize, 0.0);
            self.render(&mut buf)?;
            sink(&buf);
            done = end;
        }
        Ok(())
    }

    /// Attaches the retail ambient runtime to the dats in `dat_dir` (`client_portal.dat`,
    /// `client_cell_1.dat`); every [`Engine::update`] then ticks it (module docs). The
    /// settings' output rate is the engine's.
    ///
    /// # Errors
    /// [`AttachError`]: a missing or invalid dat, no usable Region.
    pub fn attach_ambient(
        &mut self,
        dat_dir: &Path,
        settings: AmbientSettings,
    ) -> Result<(), AttachError> {
        let bridge = AmbientBridge::open(
            dat_dir,
            AmbientSettings {
                output_rate: self.rate,
                ..settings
            },
        )?;
        self.ambient = Some(Box::new(AmbientState {
            bridge,
            retail: Vec::new(),
            registered: BTreeMap::new(),
            plays: Vec::new(),
            started: 0,
            not_started: 0,
            refused: 0,
        }));
        Ok(())
    }

    /// The attached ambient bridge.
    #[must_use]
    pub fn ambient_bridge(&self) -> Option<&AmbientBridge> {
        self.ambient.as_deref().map(|a| &a.bridge)
    }

    /// A teleport or blip: the listener moves to `position` and the ambient runtime rebuilds
    /// there at once (camera and player together, no one-frame lag; `Ambient::teleport`).
    /// The terrain ring follows. Call [`Engine::update`] for the frame as usual.
    ///
    /// # Errors
    /// [`TickError`]: a bad position or orientation; the runtime refused the pose; a landblock
    /// that cannot be read.
    pub fn teleport(&mut self, position: DVec3, orientation: Orientation) -> Result<(), TickError> {
        self.set_listener(position, orientation)?;
        let terrain = self.follow_terrain();
        let ambient = self.ambient_tick(true);
        terrain.and(ambient)
    }

    /// The terrain ring and the ambient runtime follow the listener (from `update`).
    pub(crate) fn follow_listener(&mut self) -> Result<(), TickError> {
        let terrain = self.follow_terrain();
        let ambient = self.ambient_tick(false);
        terrain.and(ambient)
    }

    /// Retail ambient voices still playing.
    pub(crate) fn ambient_retail_live(&mut self) -> usize {
        let Some(st) = self.ambient.as_deref_mut() else {
            return 0;
        };
        let mixer = &mut self.mixer;
        st.retail.retain(|(v, _)| mixer.is_playing(*v));
        st.retail.len()
    }

    /// `stop_all` stopped the retail voices too.
    pub(crate) fn ambient_stopped_all(&mut self) {
        if let Some(st) = self.ambient.as_deref_mut() {
            st.retail.clear();
        }
    }

    pub(crate) fn ambient_status(&mut self) -> AmbientStatus {
        let retail_voices = self.ambient_retail_live();
        self.ambient
            .as_deref()
            .map_or_else(AmbientStatus::default, |st| AmbientStatus {
                attached: true,
                counters: st.bridge.counters(),
                started: st.started,
                not_started: st.not_started,
                retail_voices,
                refused_ticks: st.refused,
                cache: st.bridge.cache_stats(),
            })
    }

    fn ambient_tick(&mut self, teleport: bool) -> Result<(), TickError> {
        let Some(mut st) = self.ambient.take() else {
            return Ok(());
        };
        let r = self.ambient_frame(&mut st, teleport);
        self.ambient = Some(st);
        r
    }

    fn ambient_frame(&mut self, st: &mut AmbientState, teleport: bool) -> Result<(), TickError> {
        let Some(position) = voxel_to_ac(self.listener.position) else {
            st.refused += 1;
            return Err(TickError::Ambient);
        };
        let pose = ListenerPose {
            position,
            heading_deg: heading_deg(&self.listener.orientation),
            seen_outside: false,
        };
        self.reap();
        let mixer = &mut self.mixer;
        st.retail.retain(|(v, _)| mixer.is_playing(*v));
        let now = self.time();
        let mut plays = std::mem::take(&mut st.plays);
        plays.clear();
        let (voices, retail) = (&self.voices, &st.retail);
        let in_use =
            |s: SoundId| voices.values().any(|v| v.sound == s) || retail.iter().any(|r| r.1 == s);
        let result = if teleport {
            st.bridge
                .teleport(&mut self.mixer, now, pose, &in_use, &mut plays)
        } else {
            st.bridge
                .tick(&mut self.mixer, now, pose, &in_use, &mut plays)
        };
        if result.is_err() {
            st.refused += 1;
        }
        // Engine sounds for cache entries the cache has since unloaded are forgotten.
        let cache = st.bridge.cache();
        let sounds = &mut self.sounds;
        st.registered.retain(|sound, wave| {
            let kept = cache.peek(*wave).is_some_and(|c| c.sound == *sound);
            if !kept {
                sounds.remove(sound);
            }
            kept
        });
        for play in &plays {
            if self.start_ambient(st, play) {
                st.started += 1;
            } else {
                st.not_started += 1;
            }
        }
        st.plays = plays;
        result.map(|_| ()).map_err(|_| TickError::Ambient)
    }

    /// Starts one play as a voice; false if the engine could not.
    fn start_ambient(&mut self, st: &mut AmbientState, play: &AmbientPlay) -> bool {
        if let AmbientPlay::Retail { sound, .. } = *play {
            let full = self.policy == VoicePolicy::Retail16
                && self.voices.len() + st.retail.len() >= super::RETAIL_VOICES;
            let params = play.params();
            let started = match params {
                Some(params) if !full => self
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
                st.retail.push((v, sound));
                return true;
            }
            self.status.dropped_voices += 1;
            return false;
        }
        let sound = play.sound();
        let Some(cached) = st.bridge.cache().peek(play.wave_id()) else {
            return false;
        };
        self.sounds.insert(
            sound,
            SoundInfo {
                frames: cached.frames,
                rate: cached.sample_rate,
            },
        );
        st.registered.insert(sound, play.wave_id());
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
            AmbientPlay::Retail { .. } => return false,
        };
        self.play(SoundHandle(sound), source).is_ok()
    }
}

impl AmbientStatus {
    /// Every event the runtime emitted was played by the bridge or counted dropped, and every
    /// play was started or counted not started.
    #[must_use]
    pub fn accounted(&self) -> bool {
        let c = &self.counters;
        c.events == c.played + c.dropped.total() && c.played == self.started + self.not_started
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
