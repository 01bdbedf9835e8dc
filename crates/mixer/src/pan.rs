//! Pan laws: equal-power for the acoustic voices (from `resound-dsp`), and the DirectSound dB
//! law the retail client plays its voices with (levels and pans in whole dB, computed by
//! `resound-ambient`'s port of `SoundManager`).

pub use resound_dsp::equal_power_pan as equal_power;

/// Largest retail pan magnitude in dB (`SoundBuf::Play` clamps to ±15); the same constant
/// as `resound_ambient::sound_manager::MAX_PAN`.
pub const MAX_PAN: i32 = 15;
/// Quietest retail level in dB (`SoundBuf::Play` clamps to it); the same constant as
/// `resound_ambient::sound_manager::VOL_MIN`.
pub const VOL_MIN: i32 = -50;

/// The retail client's pan law (`ambient-runtime.md` §4.5, `SoundBuf::Play`): the pan is clamped
/// to ±15, one channel stays at full level and the other is attenuated by `|pan|` dB; a positive
/// pan attenuates the **left** channel. Returns `(left, right)`.
#[must_use]
pub fn retail(pan_db: i32) -> (f32, f32) {
    let p = pan_db.clamp(-MAX_PAN, MAX_PAN);
    let att = db_to_amplitude(-(p.abs() as f32));
    match p.signum() {
        1 => (att, 1.0),
        -1 => (1.0, att),
        _ => (1.0, 1.0),
    }
}

/// `10^(db/20)`.
#[must_use]
pub fn db_to_amplitude(db: f32) -> f32 {
    10f32.powf(db / 20.0)
}
