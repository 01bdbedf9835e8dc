//! The one conversion from an acoustic result to the mixer's voice parameters and echo taps
//! (acoustics §4–§7): dry gain and high band for the shelf, the four reverb sends, the taps, and
//! the pan from the apparent direction and the listener's orientation; and the one conversion of
//! a retail play's whole-dB level and pan ([`retail`]).
//!
//! Every use of the mixer's parameter field names sits in this module, so renaming them
//! (`VoiceParams.gain`/`hf` → `shelf_gain`/`shelf_hf`, `Tap.hf_gain` → `hf`) is a change here only.

use glam::DVec3;
use resound_acoustics::model::own::air_absorption;
use resound_acoustics::{AcousticResult, Tap as EchoTap};
use resound_ambient::sound_manager::sound_buf_play;
use resound_mixer::pan::db_to_amplitude;
use resound_mixer::{
    MAX_DISTANCE, MAX_GAIN, MAX_REVERB_DECAY, MAX_SHELF_GAIN, MAX_TAP_DELAY, MAX_TAPS,
    MIN_REVERB_DECAY, Pan, REVERB_DECAY_BANDS, SENDS, Tap, VoiceParams,
};

use crate::source::{Listener, Orientation, Source};

/// The mixer parameters of a retail play of `db` whole dB at `pan` (from `GetAttenuation` and
/// the `PlaySoundInternal` pan): `SoundBuf::Play` limits them ([`sound_buf_play`], the retail
/// port), the level becomes a linear volume and the pan the mixer's DirectSound law; no
/// acoustics.
#[must_use]
pub fn retail(db: i32, pan: i32) -> VoiceParams {
    let (db, pan) = sound_buf_play(db, pan);
    VoiceParams {
        volume: db_to_amplitude(db as f32),
        pan: Pan::Retail(pan),
        ..VoiceParams::default()
    }
}

/// What the acoustics say about one voice.
#[derive(Debug, Clone, Copy)]
pub enum Acoustics<'a> {
    /// Mode `off` (or a relative source): the dry voice, exactly as without acoustics.
    Off,
    /// The Free class (beyond 512 blocks or inaudible): `gain = 1`, `hf = air(d)`, no sends,
    /// no taps (acoustics §3.3: no stale wall).
    Free,
    /// A result of the model (inline trace or worker).
    Result(&'a AcousticResult),
}

/// Mixer parameters and taps for one voice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Converted {
    /// The voice's parameters.
    pub params: VoiceParams,
    /// Echo taps (`taps[..tap_count]`).
    pub taps: [Tap; MAX_TAPS],
    /// Number of valid taps.
    pub tap_count: usize,
}

impl Converted {
    /// The valid taps.
    #[must_use]
    pub fn taps(&self) -> &[Tap] {
        &self.taps[..self.tap_count]
    }
}

const NO_TAP: Tap = Tap {
    delay: 0.0,
    level: 0.0,
    path: 0.0,
    hf: 1.0,
    pan: 0.0,
    direction: [0.0; 3],
};

/// Equal-power pan (−1 left ..= 1 right) of a direction from the listener: the sine of its
/// azimuth, `direction · right`. A zero direction is centred.
#[must_use]
pub fn pan_towards(direction: DVec3, orientation: &Orientation) -> f32 {
    let Some(d) = direction.try_normalize() else {
        return 0.0;
    };
    let p = d.dot(orientation.right());
    if p.is_finite() {
        p.clamp(-1.0, 1.0) as f32
    } else {
        0.0
    }
}

/// [`VoiceParams::direction`] of a direction from the listener (binaural output): head
/// coordinates (x right, y up, −z forward) from the orientation's yaw and pitch; straight ahead
/// for a zero direction; `[0, 0, 0]` (not spatialised) for a relative source (UI, music).
#[must_use]
pub fn head_direction(direction: DVec3, orientation: &Orientation, relative: bool) -> [f32; 3] {
    if relative {
        return [0.0; 3];
    }
    let f = |v: DVec3| v.as_vec3().to_array();
    resound_dsp::hrtf::head_direction(f(direction), f(orientation.forward), f(orientation.up))
        .unwrap_or(resound_mixer::AHEAD)
}

fn finite_or(v: f32, fallback: f32, lo: f32, hi: f32) -> f32 {
    if v.is_finite() {
        v.clamp(lo, hi)
    } else {
        fallback
    }
}

/// Geometry of a source as the mixer sees it: distance and the direction from the listener.
fn geometry(source: &Source, listener: &Listener) -> (f64, DVec3, Orientation) {
    if source.relative {
        // Listener frame: x right, y up, −z forward; expressed against the default
        // orientation, whose right is +x.
        (
            source.position.length(),
            source.position,
            Orientation::default(),
        )
    } else {
        let offset = source.position - listener.position;
        (offset.length(), offset, listener.orientation)
    }
}

/// Converts the acoustics of one voice into mixer parameters and taps.
#[must_use]
pub fn convert(source: &Source, listener: &Listener, acoustics: Acoustics<'_>) -> Converted {
    let (distance, direction, orientation) = geometry(source, listener);
    let mut params = VoiceParams {
        // The source's volume is the voice's game gain (tweened in the mixer), not part of
        // the acoustics.
        volume: 1.0,
        range: source.range,
        distance: (distance as f32).min(MAX_DISTANCE),
        shelf_gain: 1.0,
        shelf_hf: 1.0,
        pan: Pan::EqualPower(pan_towards(direction, &orientation)),
        sends: [0.0; SENDS],
        reverb_decay: [0.0; REVERB_DECAY_BANDS],
        direction: head_direction(direction, &orientation, source.relative),
    };
    let mut out = Converted {
        params,
        taps: [NO_TAP; MAX_TAPS],
        tap_count: 0,
    };
    match acoustics {
        Acoustics::Off => {}
        Acoustics::Free => {
            let air = air_absorption(distance, f64::from(source.range)) as f32;
            params.shelf_hf = finite_or(air, 1.0, 0.0, 1.0);
            out.params = params;
        }
        Acoustics::Result(r) => {
            params.shelf_gain = finite_or(r.gain, 1.0, 0.0, MAX_SHELF_GAIN);
            params.shelf_hf = finite_or(r.hf, 1.0, 0.0, 1.0);
            if r.apparent_direction != DVec3::ZERO {
                params.pan = Pan::EqualPower(pan_towards(r.apparent_direction, &orientation));
                params.direction =
                    head_direction(r.apparent_direction, &orientation, source.relative);
            }
            params.sends = r.sends.map(|s| finite_or(s, 0.0, 0.0, MAX_GAIN));
            // The space's decays, which the slot the sends feed is tuned to (all 0, or any
            // value out of range: the slots' nominal decays).
            params.reverb_decay = if r
                .decay_bands
                .iter()
                .all(|d| (MIN_REVERB_DECAY..=MAX_REVERB_DECAY).contains(d))
            {
                r.decay_bands
            } else {
                [0.0; REVERB_DECAY_BANDS]
            };
            out.params = params;
            for t in r.taps.iter().take(MAX_TAPS) {
                if let Some(tap) = tap(t, &orientation, source.relative) {
                    out.taps[out.tap_count] = tap;
                    out.tap_count += 1;
                }
            }
        }
    }
    out
}

/// One echo tap for the mixer (`None` if its delay is outside what the mixer takes): panned
/// and, for binaural output, aimed (head coordinates) towards where the echo arrives from,
/// the reflection point (image source) as the echo stage gives it (`relative` sources' taps
/// stay panned).
fn tap(t: &EchoTap, orientation: &Orientation, relative: bool) -> Option<Tap> {
    let delay = t.delay as f32;
    if !(delay > 0.0 && delay <= MAX_TAP_DELAY) {
        return None;
    }
    Some(Tap {
        delay,
        level: finite_or(t.level, 0.0, 0.0, MAX_GAIN),
        path: finite_or(t.path as f32, 0.0, 0.0, MAX_DISTANCE),
        hf: finite_or(t.hf, 1.0, 0.0, 1.0),
        pan: pan_towards(t.direction, orientation),
        direction: head_direction(t.direction, orientation, relative),
    })
}

/// One applied echo tap, in the engine's own names (for reports and tools).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AppliedTap {
    /// Delay after the direct sound in seconds.
    pub delay_s: f32,
    /// Level before volume and distance gain.
    pub level: f32,
    /// Reflected path length in blocks.
    pub path: f32,
    /// High-band (5 kHz) gain of the tap's air filter.
    pub hf: f32,
    /// Equal-power pan, −1..=1.
    pub pan: f32,
}

/// What the mixer was given for one voice, in the engine's own names.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// Linear volume.
    pub volume: f32,
    /// Distance used for the dry distance gain.
    pub distance: f32,
    /// Linear range.
    pub range: f32,
    /// Dry (shelf) gain below 1 kHz.
    pub gain: f32,
    /// High-band factor of the shelf.
    pub hf: f32,
    /// Equal-power pan, −1..=1.
    pub pan: f32,
    /// The four reverb sends.
    pub sends: [f32; SENDS],
    /// The decays (s; low, mid, high) the sends ring with; all 0 for the slots' nominal ones.
    pub reverb_decay: [f32; REVERB_DECAY_BANDS],
    /// The echo taps applied (empty unless the voice holds an echo set).
    pub taps: Vec<AppliedTap>,
}

impl Converted {
    /// The values in the engine's names; `with_taps`: the taps were applied.
    #[must_use]
    pub fn applied(&self, with_taps: bool) -> Applied {
        let p = &self.params;
        let pan = match p.pan {
            Pan::EqualPower(x) => x,
            Pan::Retail(db) => db as f32 / 15.0,
        };
        let taps = if with_taps {
            self.taps()
                .iter()
                .map(|t| AppliedTap {
                    delay_s: t.delay,
                    level: t.level,
                    path: t.path,
                    hf: t.hf,
                    pan: t.pan,
                })
                .collect()
        } else {
            Vec::new()
        };
        Applied {
            volume: p.volume,
            distance: p.distance,
            range: p.range,
            gain: p.shelf_gain,
            hf: p.shelf_hf,
            pan,
            sends: p.sends,
            reverb_decay: p.reverb_decay,
            taps,
        }
    }
}
