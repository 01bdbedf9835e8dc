//! Voice and tap parameters as the game sets them, their validation, and the converted targets
//! the renderer reads.

use crate::error::{ParamError, ParamProblem};
use resound_dsp::tap::TapParams;

use crate::pan;

/// Reverb sends per voice (one per reverb-bus slot).
pub const SENDS: usize = 4;
/// Echo taps per voice.
pub const MAX_TAPS: usize = resound_dsp::tap::MAX_TAPS;
/// Largest accepted linear gain (volume, send, tap level); the dsp gains clamp here.
pub const MAX_GAIN: f32 = resound_dsp::gain::MAX_GAIN;
/// Largest accepted occlusion (shelf) gain.
pub const MAX_SHELF_GAIN: f32 = resound_dsp::shelf::MAX_SHELF_GAIN;
/// Largest accepted tap delay in seconds.
pub const MAX_TAP_DELAY: f32 = resound_dsp::tap::MAX_TAP_DELAY_S;
/// Largest accepted distance or range.
pub const MAX_DISTANCE: f32 = 1.0e6;

/// How a voice is placed between the two output channels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pan {
    /// Equal-power pan, −1 (left) ..= 1 (right).
    EqualPower(f32),
    /// The retail DirectSound law: `|pan|` dB off the far channel (see [`pan::retail`]; the
    /// retail port limits the pan).
    Retail(i32),
}

impl Default for Pan {
    fn default() -> Self {
        Self::EqualPower(0.0)
    }
}

/// The continuously changeable parameters of one voice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VoiceParams {
    /// Linear volume, 0..=[`MAX_GAIN`]. Scales the dry path, the sends and the taps.
    pub volume: f32,
    /// Linear range (blocks/metres), > 0; with `distance` gives
    /// [`distance_gain`] on the dry path.
    pub range: f32,
    /// Distance from the listener, 0..=[`MAX_DISTANCE`].
    pub distance: f32,
    /// The occlusion shelf's gain below 1 kHz, 0..=[`MAX_SHELF_GAIN`] (acoustics §4 `gain`).
    pub shelf_gain: f32,
    /// The occlusion shelf's high-band factor, 0..=1 (acoustics §4 `hf`): the shelf gives
    /// `shelf_gain·shelf_hf` above 1 kHz.
    pub shelf_hf: f32,
    /// Stereo placement.
    pub pan: Pan,
    /// Sends into the four reverb slots (nominal 0.15/0.55/1.68/4.14 s, each tuned to the
    /// [`reverb_decay`](Self::reverb_decay) of the voices sending to it), each 0..=[`MAX_GAIN`],
    /// taken after the shelf; the voice volume multiplies them, the distance gain does not.
    pub sends: [f32; SENDS],
    /// Decays (s; low < 500 Hz, mid, high > 2 kHz) of the space this voice's sends are to ring
    /// with, each 0 or [`MIN_REVERB_DECAY`]..=[`MAX_REVERB_DECAY`]. A slot renders the send-weighted
    /// mean (log scale) of the decays of the voices feeding it and keeps it once they stop; all
    /// 0 (the default) counts as the slot's nominal decays.
    pub reverb_decay: [f32; REVERB_DECAY_BANDS],
    /// Where the voice is heard from, for [`Spatial::Binaural`](crate::Spatial::Binaural)
    /// output: a vector from the listener's head towards the (apparent) source in **head
    /// coordinates** — x right, y up, −z forward (ahead of the nose), the listener's own axes,
    /// so the head's yaw and pitch are already applied. Any length; each component finite and
    /// within ±[`MAX_DISTANCE`]. The default `[0, 0, -1]` is straight ahead. **`[0, 0, 0]`
    /// marks a voice that is not positional** (UI, music): it is panned even in binaural
    /// output. Ignored under [`Spatial::Pan`](crate::Spatial::Pan), by stereo voices and by
    /// [`Pan::Retail`] voices.
    pub direction: [f32; 3],
}

/// Straight ahead in head coordinates: [`VoiceParams::direction`]'s default.
pub const AHEAD: [f32; 3] = [0.0, 0.0, -1.0];

/// Bands of [`VoiceParams::reverb_decay`].
pub const REVERB_DECAY_BANDS: usize = resound_dsp::DECAY_BANDS;
/// Shortest non-zero [`VoiceParams::reverb_decay`] (s).
pub const MIN_REVERB_DECAY: f32 = resound_dsp::reverb::SLOT_DECAY_RANGE_S.0;
/// Longest [`VoiceParams::reverb_decay`] (s).
pub const MAX_REVERB_DECAY: f32 = resound_dsp::reverb::SLOT_DECAY_RANGE_S.1;

impl Default for VoiceParams {
    fn default() -> Self {
        Self {
            volume: 1.0,
            range: 1.0,
            distance: 0.0,
            shelf_gain: 1.0,
            shelf_hf: 1.0,
            pan: Pan::default(),
            sends: [0.0; SENDS],
            reverb_decay: [0.0; REVERB_DECAY_BANDS],
            direction: AHEAD,
        }
    }
}

/// One echo tap of a voice (acoustics §5), in the vocabulary of `resound_acoustics::echo::Tap`
/// (`delay`, `path`, `level`, `hf`) plus the pan and head direction the engine derives from its
/// `direction`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tap {
    /// Delay behind the voice's play position in seconds, > 0 ..= [`MAX_TAP_DELAY`].
    pub delay: f32,
    /// Level before volume and distance gain, 0..=[`MAX_GAIN`].
    pub level: f32,
    /// Reflected path length; the tap is scaled by `distance_gain(path, range)`.
    pub path: f32,
    /// Gain of the tap's one-pole air low-pass at 5 kHz (acoustics §5 item 7:
    /// `0.994^(path − d)`), 0..=1; 0.999 and above bypass the filter (`echo::Tap::hf`).
    pub hf: f32,
    /// Equal-power pan toward the reflection point, −1..=1: the tap's output under
    /// [`Spatial::Pan`](crate::Spatial::Pan), and under
    /// [`Spatial::Binaural`](crate::Spatial::Binaural) while the tap holds no HRTF renderer.
    pub pan: f32,
    /// Where the echo arrives from, for [`Spatial::Binaural`](crate::Spatial::Binaural): a
    /// vector from the listener's head towards the reflection point (image source) in head
    /// coordinates, as [`VoiceParams::direction`] (x right, y up, −z forward; any length, each
    /// component finite and within ±[`MAX_DISTANCE`]). A tap with a direction competes for the
    /// binaural renderers with the voices (loudest first, by level after volume and distance
    /// gain) and, holding one, is convolved with its own direction's HRIRs (128 frames late,
    /// like a binaural voice); otherwise it is panned. `[0, 0, 0]` (and any tap of a
    /// [`Pan::Retail`] voice) stays panned. Ignored under [`Spatial::Pan`](crate::Spatial::Pan).
    pub direction: [f32; 3],
}

/// `clamp(1 − distance/range, 0, 1)` (acoustics: the voice's linear range).
#[must_use]
pub fn distance_gain(distance: f32, range: f32) -> f32 {
    if range <= 0.0 || range.is_nan() || distance.is_nan() {
        return 0.0;
    }
    (1.0 - distance / range).clamp(0.0, 1.0)
}

fn check(field: &'static str, v: f32, lo: f32, hi: f32) -> Result<(), ParamError> {
    if !v.is_finite() {
        return Err(ParamError {
            field,
            problem: ParamProblem::NotFinite,
        });
    }
    if v < lo || v > hi {
        return Err(ParamError {
            field,
            problem: ParamProblem::OutOfRange,
        });
    }
    Ok(())
}

const SEND_FIELDS: [&str; SENDS] = ["sends[0]", "sends[1]", "sends[2]", "sends[3]"];
const DIRECTION_FIELDS: [&str; 3] = ["direction[0]", "direction[1]", "direction[2]"];
const DECAY_FIELDS: [&str; REVERB_DECAY_BANDS] =
    ["reverb_decay[0]", "reverb_decay[1]", "reverb_decay[2]"];

impl VoiceParams {
    /// Checks every field: NaN/infinite values and values out of range are rejected.
    ///
    /// # Errors
    /// The first offending field.
    pub fn validate(&self) -> Result<(), ParamError> {
        check("volume", self.volume, 0.0, MAX_GAIN)?;
        check("range", self.range, f32::MIN_POSITIVE, MAX_DISTANCE)?;
        check("distance", self.distance, 0.0, MAX_DISTANCE)?;
        check("shelf_gain", self.shelf_gain, 0.0, MAX_SHELF_GAIN)?;
        check("shelf_hf", self.shelf_hf, 0.0, 1.0)?;
        match self.pan {
            Pan::EqualPower(p) => check("pan", p, -1.0, 1.0)?,
            // Any whole-dB pan is a valid DirectSound attenuation (the retail port limits it).
            Pan::Retail(_) => {}
        }
        for (s, field) in self.sends.iter().zip(SEND_FIELDS) {
            check(field, *s, 0.0, MAX_GAIN)?;
        }
        for (d, field) in self.reverb_decay.iter().zip(DECAY_FIELDS) {
            if *d != 0.0 {
                check(field, *d, MIN_REVERB_DECAY, MAX_REVERB_DECAY)?;
            }
        }
        for (d, field) in self.direction.iter().zip(DIRECTION_FIELDS) {
            check(field, *d, -MAX_DISTANCE, MAX_DISTANCE)?;
        }
        Ok(())
    }

    /// Converts validated parameters into renderer targets for a mono (`stereo == false`) or
    /// a stereo voice. A stereo
    /// voice's pan is a balance: at 0 each channel plays at full gain; toward one side the
    /// other channel falls linearly to silence (an equal-power pan would leave the centre
    /// 3 dB down).
    pub(crate) fn targets_for(&self, generation: u32, stereo: bool) -> VoiceTargets {
        let (l, r) = match self.pan {
            Pan::EqualPower(p) if stereo => ((1.0 - p).min(1.0), (1.0 + p).min(1.0)),
            Pan::EqualPower(p) => pan::equal_power(p),
            Pan::Retail(p) => pan::retail(p),
        };
        let dry = self.volume * distance_gain(self.distance, self.range);
        VoiceTargets {
            generation,
            shelf_gain: self.shelf_gain,
            shelf_hf: self.shelf_hf,
            sends: self.sends.map(|s| s * self.volume),
            decay: self.reverb_decay,
            left: dry * l,
            right: dry * r,
            dry,
            direction: self.direction,
            positional: !stereo
                && matches!(self.pan, Pan::EqualPower(_))
                && self.direction != [0.0; 3],
            delay: 0.0,
            glide: 0.0,
            cuts: 0,
        }
    }
}

const TAP_FIELDS: [[&str; 8]; MAX_TAPS] = [
    [
        "taps[0].delay",
        "taps[0].level",
        "taps[0].path",
        "taps[0].hf",
        "taps[0].pan",
        "taps[0].direction[0]",
        "taps[0].direction[1]",
        "taps[0].direction[2]",
    ],
    [
        "taps[1].delay",
        "taps[1].level",
        "taps[1].path",
        "taps[1].hf",
        "taps[1].pan",
        "taps[1].direction[0]",
        "taps[1].direction[1]",
        "taps[1].direction[2]",
    ],
    [
        "taps[2].delay",
        "taps[2].level",
        "taps[2].path",
        "taps[2].hf",
        "taps[2].pan",
        "taps[2].direction[0]",
        "taps[2].direction[1]",
        "taps[2].direction[2]",
    ],
    [
        "taps[3].delay",
        "taps[3].level",
        "taps[3].path",
        "taps[3].hf",
        "taps[3].pan",
        "taps[3].direction[0]",
        "taps[3].direction[1]",
        "taps[3].direction[2]",
    ],
    [
        "taps[4].delay",
        "taps[4].level",
        "taps[4].path",
        "taps[4].hf",
        "taps[4].pan",
        "taps[4].direction[0]",
        "taps[4].direction[1]",
        "taps[4].direction[2]",
    ],
    [
        "taps[5].delay",
        "taps[5].level",
        "taps[5].path",
        "taps[5].hf",
        "taps[5].pan",
        "taps[5].direction[0]",
        "taps[5].direction[1]",
        "taps[5].direction[2]",
    ],
];

/// Checks a tap set: at most [`MAX_TAPS`] taps, every field finite and in range.
pub(crate) fn validate_taps(taps: &[Tap]) -> Result<(), ParamError> {
    if taps.len() > MAX_TAPS {
        return Err(ParamError {
            field: "taps",
            problem: ParamProblem::OutOfRange,
        });
    }
    for (t, f) in taps.iter().zip(TAP_FIELDS) {
        if !t.delay.is_finite() {
            check(f[0], t.delay, 0.0, MAX_TAP_DELAY)?;
        }
        if t.delay <= 0.0 || t.delay > MAX_TAP_DELAY {
            return Err(ParamError {
                field: f[0],
                problem: ParamProblem::OutOfRange,
            });
        }
        check(f[1], t.level, 0.0, MAX_GAIN)?;
        check(f[2], t.path, 0.0, MAX_DISTANCE)?;
        check(f[3], t.hf, 0.0, 1.0)?;
        check(f[4], t.pan, -1.0, 1.0)?;
        for (d, field) in t.direction.iter().zip(&f[5..]) {
            check(field, *d, -MAX_DISTANCE, MAX_DISTANCE)?;
        }
    }
    Ok(())
}

/// What the renderer aims one voice's dry path and sends at (already validated and converted).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct VoiceTargets {
    /// Generation of the voice these targets belong to (0 = none).
    pub generation: u32,
    /// Shelf gain below 1 kHz.
    pub shelf_gain: f32,
    /// Shelf high-band factor.
    pub shelf_hf: f32,
    /// Send levels (volume applied).
    pub sends: [f32; SENDS],
    /// Decays the sends ring with (all 0: the slots' nominal decays).
    pub decay: [f32; REVERB_DECAY_BANDS],
    /// Dry left gain (volume · distance gain · pan).
    pub left: f32,
    /// Dry right gain.
    pub right: f32,
    /// Dry gain before the pan (volume · distance gain): a binaural voice's level.
    pub dry: f32,
    /// Head-coordinate direction (binaural output).
    pub direction: [f32; 3],
    /// A mono, equal-power voice with a direction: binaural output may spatialise it.
    pub positional: bool,
    /// The direct path's propagation delay (s), the glide toward it (s) and the count of cuts
    /// asked for (a change: jump instead of glide).
    pub delay: f32,
    pub glide: f32,
    pub cuts: u32,
}

/// A voice's current tap set as the renderer reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TapSetTargets {
    /// Voice slot that owns the set.
    pub voice_slot: u32,
    /// Generation of that voice (0 = the set is free).
    pub voice_generation: u32,
    /// Number of valid entries in `taps`.
    pub count: u8,
    /// The taps, levels already scaled by volume and `distance_gain(path)`.
    pub taps: [TapParams; MAX_TAPS],
    /// Each tap's head direction (binaural output; `[0, 0, 0]`: panned).
    pub directions: [[f32; 3]; MAX_TAPS],
}

const NO_TAP: TapParams = TapParams {
    delay: 0.0,
    level: 0.0,
    hf: 1.0,
    pan: 0.0,
};

impl Default for TapSetTargets {
    fn default() -> Self {
        Self {
            voice_slot: 0,
            voice_generation: 0,
            count: 0,
            taps: [NO_TAP; MAX_TAPS],
            directions: [[0.0; 3]; MAX_TAPS],
        }
    }
}

/// Converts validated taps for a voice with `params` into `e`'s taps, directions and count.
pub(crate) fn set_tap_targets(e: &mut TapSetTargets, taps: &[Tap], params: &VoiceParams) {
    let retail = matches!(params.pan, Pan::Retail(_));
    e.taps = [NO_TAP; MAX_TAPS];
    e.directions = [[0.0; 3]; MAX_TAPS];
    for ((o, d), t) in e.taps.iter_mut().zip(&mut e.directions).zip(taps) {
        *o = TapParams {
            delay: t.delay,
            level: t.level * params.volume * distance_gain(t.path, params.range),
            hf: t.hf,
            pan: t.pan,
        };
        if !retail {
            *d = t.direction;
        }
    }
    // MAX_TAPS fits in u8 and validate_taps bounded the length.
    e.count = taps.len().min(MAX_TAPS) as u8;
}
