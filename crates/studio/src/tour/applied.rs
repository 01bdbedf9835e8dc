//! What the acoustics applied to one scripted event's voice, read from the engine a few ticks
//! after it fired, in the shapes `resound render --json` uses (`docs/json.md`): the direct
//! sound, the echo taps (delays after the direct arrival) and the room's decay.

use resound_engine::VoiceAcoustics;
use resound_engine::advanced::acoustics::DirectSound;

use crate::describe::{TapJson, applied_taps, direct_json};

/// The acoustics one event's voice was given.
#[derive(Debug, Clone, PartialEq)]
pub struct EventAcoustics {
    /// The direct sound's propagation delay at the voice's start, ms (0 when it does not
    /// travel: a relative voice, `Retail16`, modes below `reflect`).
    pub delay_ms: f64,
    /// The voice's Doppler factor (0: delay without pitch change, 1: physical).
    pub doppler: f32,
    /// The direct sound's dry (below 1 kHz) shelf gain, dB.
    pub gain_db: f64,
    /// The direct sound's high-band shelf factor, dB.
    pub hf_db: f64,
    /// The way the direct sound took (`None`: not worked out, e.g. mode `direct` or SPR).
    pub direct: Option<DirectSound>,
    /// The echo taps applied, by delay after the direct sound.
    pub taps: Vec<TapJson>,
    /// The room's mid-band decay (RT60, s) the voice's sends ring with (`None`: no room, the
    /// mode is below `full`).
    pub decay_s: Option<f32>,
}

fn db(x: f32) -> f64 {
    20.0 * f64::from(x.max(1e-6)).log10()
}

impl EventAcoustics {
    /// From the engine's record of a voice; `None` before the voice had a result.
    #[must_use]
    pub fn of(a: &VoiceAcoustics) -> Option<Self> {
        let result = a.result.as_ref()?;
        let p = &a.applied;
        let taps = applied_taps(a);
        Some(Self {
            delay_ms: (a.start_delay_s * 1e9).round() / 1e6,
            doppler: a.doppler,
            gain_db: db(p.gain),
            hf_db: db(p.hf),
            direct: a.direct,
            taps,
            decay_s: (result.decay > 0.0).then_some(result.decay),
        })
    }

    /// The first tap's delay after the direct sound, ms.
    #[must_use]
    pub fn first_tap_ms(&self) -> Option<f64> {
        self.taps
            .iter()
            .map(|t| t.delay_s * 1e3)
            .min_by(|a, b| a.total_cmp(b))
    }

    /// The JSON object: `{direct, taps, decay_s}` with the direct sound's shape plus its
    /// `delay_ms`, `doppler`, `gain_db` and `hf_db`.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let r = |v: f64| (v * 1e3).round() / 1e3;
        let mut direct = match &self.direct {
            Some(d) => direct_json(d),
            None => serde_json::json!({
                "kind": null, "path_m": null, "bends": null, "direction": null,
            }),
        };
        direct["delay_ms"] = serde_json::json!(self.delay_ms);
        direct["doppler"] = serde_json::json!(self.doppler);
        direct["gain_db"] = serde_json::json!(r(self.gain_db));
        direct["hf_db"] = serde_json::json!(r(self.hf_db));
        serde_json::json!({
            "direct": direct,
            "taps": self.taps.iter().map(TapJson::to_json).collect::<Vec<_>>(),
            "decay_s": self.decay_s,
        })
    }
}
