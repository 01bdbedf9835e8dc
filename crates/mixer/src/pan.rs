//! Pan laws: equal-power for the acoustic voices (from `resound-dsp`), and the DirectSound dB
//! law the retail client plays its voices with (levels and pans in whole dB, computed and
//! limited by `resound-ambient`'s port of `SoundManager` and `SoundBuf::Play`; the mixer knows
//! no retail limits).

pub use resound_dsp::equal_power_pan as equal_power;

/// The DirectSound pan law as the retail client uses it (`ambient-runtime.md` §4.5): one
/// channel stays at full level and the other is attenuated by `|pan|` dB; a positive pan
/// attenuates the **left** channel. Returns `(left, right)`. The pan comes already limited
/// (`SoundBuf::Play` clamps to ±15 in `resound-ambient`).
#[must_use]
pub fn retail(pan_db: i32) -> (f32, f32) {
    let p = pan_db;
    let att = db_to_amplitude(-(p.unsigned_abs() as f32));
    match p.signum() {
        1 => (att, 1.0),
        -1 => (1.0, att),
        _ => (1.0, 1.0),
    }
}

/// `10^(db/20)`.
#[must_use]
pub fn db_to_amplitude(db: f32) -> f32 {
    // libm's powf, not the platform's: the same bits on every target (wasm32 included).
    libm::powf(10.0, db / 20.0)
}
