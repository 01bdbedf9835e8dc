//! The retail ambient runtime for the tour: `resound-ambient` run on the listener's pose each
//! tick, its Waves decoded from the portal dat once and kept by id, its plays started on the
//! engine.
//!
//! - Retail (`--retail`): each play is the event's whole-dB level and ±14 dB pan, a voice
//!   relative to the listener (no acoustics) in the engine's 16-voice retail pool;
//! - Modern: a positioned event is a 3-D voice at its AC position (mapped to voxels by
//!   [`ac_to_voxel`]) that gets the acoustic path; a "from centre" bed stays centred.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::sync::Arc;

use glam::DVec3;
use resound_ambient::{Ambient, AmbientEvent, DatSource, Listener, Outcome, Player, Position};
use resound_datformat::record::Wave;

use super::TourError;
use crate::sound::{DecodeLimits, decode_wave};
use crate::terrain::axes::ac_to_voxel;
use crate::{Engine, PlayError, SoundHandle, Source};

/// A positioned ambient voice's linear range (metres): its level falls to zero there.
pub const AMBIENT_RANGE: f32 = 96.0;

/// One ambient play started (for the map and the counters).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AmbientMark {
    /// Clock, seconds.
    pub time: f64,
    /// Voxel position (`None`: centred).
    pub position: Option<DVec3>,
}

/// The runtime, its dat sources and the decoded Waves.
pub struct TourAmbient {
    ambient: Ambient,
    portal: DatSource<BufReader<File>>,
    cell: DatSource<BufReader<File>>,
    sounds: HashMap<u32, Option<SoundHandle>>,
    events: Vec<AmbientEvent>,
    retail: bool,
    /// Plays started.
    pub played: u64,
    /// Plays the engine refused (the retail pool full) or whose Wave did not decode.
    pub dropped: u64,
    /// Every play started, in order.
    pub marks: Vec<AmbientMark>,
}

impl TourAmbient {
    /// Wraps a runtime and its sources.
    pub fn new(
        ambient: Ambient,
        portal: DatSource<BufReader<File>>,
        cell: DatSource<BufReader<File>>,
        retail: bool,
    ) -> Self {
        Self {
            ambient,
            portal,
            cell,
            sounds: HashMap::new(),
            events: Vec::new(),
            retail,
            played: 0,
            dropped: 0,
            marks: Vec::new(),
        }
    }

    /// One frame at clock `now` with the listener at `pos` facing `heading_deg` (compass).
    ///
    /// # Errors
    /// [`TourError::Ambient`] when the runtime rejects the frame or a dat read fails.
    pub fn tick(
        &mut self,
        engine: &mut Engine,
        now: f64,
        pos: Position,
        heading_deg: f32,
    ) -> Result<(), TourError> {
        self.events.clear();
        let player = Player {
            position: pos,
            seen_outside: true,
        };
        let camera = Listener {
            position: pos,
            heading_deg,
        };
        self.ambient
            .frame(
                now,
                player,
                camera,
                &mut self.portal,
                &mut self.cell,
                &mut self.events,
            )
            .map_err(|e| TourError::Ambient(e.to_string()))?;
        let events = std::mem::take(&mut self.events);
        for e in &events {
            let Outcome::Play(v) = e.outcome else {
                continue;
            };
            let Some(sound) = self.sound(engine, v.wave_id.0) else {
                self.dropped += 1;
                continue;
            };
            let (source, at) = if self.retail {
                // Whole dB and ±14 dB pan, placed just off the listener on the pan's side.
                let angle = f64::from(v.pan) / 14.0 * std::f64::consts::FRAC_PI_2;
                let offset = DVec3::new(angle.sin(), 0.0, -angle.cos()) * 0.01;
                let source = Source {
                    position: offset,
                    volume: 10f32.powf(v.db as f32 / 20.0),
                    relative: true,
                    ..Source::default()
                };
                (source, None)
            } else if let Some(p) = v.position {
                let at = ac_to_voxel(&p);
                let source = Source {
                    position: at,
                    volume: e.volume.clamp(0.0, 1.0),
                    range: AMBIENT_RANGE,
                    ..Source::default()
                };
                (source, Some(at))
            } else {
                let source = Source {
                    position: DVec3::new(0.0, 0.0, -0.01),
                    volume: v.gain.clamp(0.0, 1.0) as f32,
                    relative: true,
                    ..Source::default()
                };
                (source, None)
            };
            match engine.play(sound, source) {
                Ok(_) => {
                    self.played += 1;
                    self.marks.push(AmbientMark {
                        time: now,
                        position: at,
                    });
                }
                Err(PlayError::VoiceLimit) => self.dropped += 1,
                Err(e) => return Err(TourError::Play(e)),
            }
        }
        self.events = events;
        Ok(())
    }

    /// The engine's sound for a Wave, decoded once (`None` if absent or undecodable).
    fn sound(&mut self, engine: &mut Engine, wave_id: u32) -> Option<SoundHandle> {
        if let Some(s) = self.sounds.get(&wave_id) {
            return *s;
        }
        let loaded = self
            .portal
            .load_record::<Wave>(wave_id)
            .ok()
            .flatten()
            .and_then(|w| decode_wave(&w, &DecodeLimits::default()).ok())
            .and_then(|d| {
                let mono: Arc<[f32]> = d.to_mono().into();
                engine.load_mono(mono, d.sample_rate).ok()
            });
        self.sounds.insert(wave_id, loaded);
        loaded
    }
}
