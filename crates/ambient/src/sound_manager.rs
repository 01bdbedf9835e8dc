//! The `SoundManager` arithmetic on the ambient path (HR `PORTAL/sound/SoundManager.c`;
//! spec `ambient-runtime.md` §4): the sound-table row pick, the CRT probability gate, the
//! attenuation in whole decibels and the integer pan.
//!
//! Nothing here touches audio: the results are carried by [`crate::AmbientEvent`]s.

#[cfg(test)]
mod tests;

use resound_datformat::record::{SoundData, SoundEntry, SoundTable};
use serde::Serialize;

use crate::geometry::Position;
use crate::rng::{CrtRand, Ran2};

/// `SoundManager::VOL_MIN`: the quietest playable level, −50 dB.
pub const VOL_MIN: i32 = -50;
/// `SoundManager::VOL_MIN_DIST_SQ`: full level within 5 m (5·5).
pub const VOL_MIN_DIST_SQ: f32 = 25.0;
/// The distance under which a sound is not attenuated and (truncated) not panned.
pub const VOL_MIN_DIST: f32 = 5.0;
/// The decibel factor `20·log10(2)` as the client stores it.
pub const DB_PER_DOUBLING: f64 = 6.0206;
/// The largest pan `SoundBuf::Play` accepts, in dB.
pub const MAX_PAN: i32 = 15;
/// The degrees-to-radians factor as the 32-bit float the client multiplies by.
pub const DEG_TO_RAD_F32: f32 = 0.017_453_292;
/// The CRT probability gate's scale, `1/32767` as a 32-bit float (just under the true value,
/// so a row probability of 1.0 always passes).
pub const INV_RAND_MAX_F32: f32 = 1.0 / 32767.0;

/// The user's sound preferences (`SoundManager::InitPrefs`) and the window state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SoundSettings {
    /// `Sound.AmbientSoundDisabled` (inverted): gates `AddSound`, `UpdatePlayQueue`, `UseTime`
    /// and both `PlayAmbient*` calls. Default on.
    pub ambient_sounds_enabled: bool,
    /// `Sound.AmbientSoundVolume`, the ambient slider (0..1). Applied twice. Default 1.
    pub ambient_sound_volume: f32,
    /// `Sound.SoundVolume`, the effect slider. Not used on the ambient path. Default 1.
    pub effect_sound_volume: f32,
    /// `Sound.SoundFeatures == 1` (Mono): every pan is 0. Default stereo.
    pub mono: bool,
    /// `Sound.PlaySoundOnlyWhenActive`. Default on.
    pub play_sound_only_when_active: bool,
    /// Whether the client window is active. Default true.
    pub app_active: bool,
}

impl Default for SoundSettings {
    fn default() -> Self {
        Self {
            ambient_sounds_enabled: true,
            ambient_sound_volume: 1.0,
            effect_sound_volume: 1.0,
            mono: false,
            play_sound_only_when_active: true,
            app_active: true,
        }
    }
}

/// The listener: `SoundManager::player_position_`, set each frame from the **camera**
/// (`SmartBox::set_viewer → SoundManager::SetPlayerPosition`), with the camera frame's compass
/// heading (`Frame::get_heading` @ 0x00535760, local +y forward).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Listener {
    /// Where the camera is.
    pub position: Position,
    /// Where the camera faces, in compass degrees (0 = north, 90 = east).
    pub heading_deg: f32,
}

/// A table row chosen by [`get_sound`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChosenRow {
    /// The row's index in `Sounds[stype].Entries`.
    pub row: usize,
    /// The row as authored (`wave_did`, priority, probability, volume).
    pub entry: SoundEntry,
}

/// `SoundManager::GetSound` @ 0x00550680 (acclient.c:383432) row pick: the `stype` list of the
/// table's root node; if it has `N > 0` rows, `idx = trunc((N − 1)·RollDice(0, 1))`. Because
/// `rand() < 1`, the last row of a multi-row list is never chosen. `None` when the type is
/// absent or the list empty (no draw). The caller drops a row whose wave id is 0.
#[inline]
pub fn get_sound(
    table: &SoundTable,
    stype: resound_datformat::record::Sound,
    rng: &mut Ran2,
) -> Option<ChosenRow> {
    pick_row(table.sound(stype)?, rng)
}

/// The draw half of [`get_sound`] (`SoundManager::GetSound` @ 0x00550680), given the `stype`
/// list `CSoundTable::Lookup` found.
#[inline]
pub(crate) fn pick_row(data: &SoundData, rng: &mut Ran2) -> Option<ChosenRow> {
    let n = data.entries.len();
    if n == 0 {
        return None;
    }
    let u = rng.roll_dice(0.0, 1.0);
    let idx = row_index((n - 1) as f64 * f64::from(u));
    let entry = *data.entries.get(idx)?;
    Some(ChosenRow { row: idx, entry })
}

/// `trunc(x) as usize` for `x = (N − 1)·u`, `u` in `[0, 1)` and `N` a length (so `0 <= x <
/// 2⁶³`): the cast truncates, so the library `trunc` call is not needed, and through `i64`
/// (one `cvttsd2si`) it equals the unsigned cast below 2⁶³; negatives and NaN give 0 as the
/// unsigned cast does.
#[inline]
fn row_index(x: f64) -> usize {
    (x as i64).max(0) as usize
}

/// The probability gate `PlayAmbientSound` applies after the pick: `rand()·(1/32767) <
/// probability`, with the MSVC CRT `rand()` (one draw) and the product at extended precision.
#[inline]
pub fn probability_gate(probability: f32, crt: &mut CrtRand) -> bool {
    let r = f64::from(crt.rand());
    r * f64::from(INV_RAND_MAX_F32) < f64::from(probability)
}

/// `SoundBuf::Play(pan, dB)` (HR `sound/Soundbuf.c`; spec `ambient-runtime.md` §4.4; no
/// address in the spec): the level and pan DirectSound is given, as `(dB, pan)`: the level
/// `max(dB, VOL_MIN)` (`SetVolume(dB·100)`, never above DirectSound's 0 dB maximum) and the
/// pan clamped to ±[`MAX_PAN`] (`SetPan(pan·100)`). The one place the retail limits apply;
/// the mixer's DirectSound law turns the result into channel gains.
#[inline]
#[must_use]
pub fn sound_buf_play(db: i32, pan: i32) -> (i32, i32) {
    (db.clamp(VOL_MIN, 0), pan.clamp(-MAX_PAN, MAX_PAN))
}

/// `SoundManager::GetAttenuation` @ 0x00550020: `g = 25·v/dist²` beyond 5 m (else `v`),
/// capped at 1, times the ambient (or effect) slider; `None` (dropped) when `g <= 0` or when
/// `ceil(log2(g)·6.0206) < −50`; otherwise `(g, dB)` with the whole-dB level (never below
/// −50).
#[must_use]
pub fn get_attenuation(
    dist: f32,
    volume: f32,
    is_ambient: bool,
    settings: &SoundSettings,
) -> Option<(f64, i32)> {
    level(
        attenuated_gain(dist, volume, is_ambient, settings),
        whole_db,
    )
}

/// The gain half of [`get_attenuation`] (`SoundManager::GetAttenuation` @ 0x00550020):
/// `25·v/dist²` beyond 5 m (else `v`), capped at 1, times the ambient (or effect) slider.
#[inline]
pub(crate) fn attenuated_gain(
    dist: f32,
    volume: f32,
    is_ambient: bool,
    settings: &SoundSettings,
) -> f64 {
    let v = f64::from(volume);
    let d = f64::from(dist);
    let mut g = if dist >= VOL_MIN_DIST {
        f64::from(VOL_MIN_DIST_SQ) * v / (d * d)
    } else {
        v
    };
    if g > 1.0 {
        g = 1.0;
    }
    g * f64::from(if is_ambient {
        settings.ambient_sound_volume
    } else {
        settings.effect_sound_volume
    })
}

/// The level half of [`get_attenuation`] (`SoundManager::GetAttenuation` @ 0x00550020): drop
/// `g <= 0` (and NaN), take `db = whole_db(g)` (the caller may memoise [`whole_db`]), drop
/// `db < −50`, else `(g, db)`.
#[inline(always)]
pub(crate) fn level(g: f64, whole_db: impl FnOnce(f64) -> f64) -> Option<(f64, i32)> {
    // NaN drops too.
    if g.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let db = whole_db(g);
    if db < f64::from(VOL_MIN) {
        return None;
    }
    Some((g, db as i32))
}

/// `GetAttenuation`'s whole-dB level `ceil(log2(g)·6.0206)`.
#[must_use]
pub(crate) fn whole_db(g: f64) -> f64 {
    ceil(g.log2() * DB_PER_DOUBLING)
}

/// `x.ceil()`, bit for bit (the sign of a zero included), without the library call the
/// baseline x86-64 target makes for `ceil` (it has no `roundsd`): below 2⁵² in magnitude the
/// truncating integer conversion is exact and `t + 1` is exact; everything else (huge values,
/// infinities, NaN) is already integral or NaN and goes to `f64::ceil`.
#[inline]
pub(crate) fn ceil(x: f64) -> f64 {
    const EXACT: f64 = 4_503_599_627_370_496.0; // 2^52
    if x.abs() < EXACT {
        let t = x as i64 as f64;
        let c = if t < x { t + 1.0 } else { t };
        // ceil keeps the sign: (−1, −0] gives −0
        c.copysign(x)
    } else {
        x.ceil()
    }
}

/// The pan of `SoundManager::PlaySoundInternal` @ 0x00550170: 0 in mono or when
/// `trunc(dist) < 5`; otherwise `a = fmod(heading(pos → listener) − listener_heading, 360)`
/// (minus 360 above 180) and `pan = trunc(sin(a·0.017453292f)·(−15))`, computed in double with
/// the float constant so a sound due east pans +14, never +15.
#[must_use]
pub fn pan(sound: &Position, listener: &Listener, dist: f32, settings: &SoundSettings) -> i32 {
    // `trunc(dist) < 5` is `dist < 5` (5 is whole; NaN fails both), without the `truncf` call.
    if settings.mono || dist < VOL_MIN_DIST {
        return 0;
    }
    let h = f64::from(sound.heading(&listener.position));
    let mut a = (h - f64::from(listener.heading_deg)) % 360.0;
    if a > 180.0 {
        a -= 360.0;
    }
    // `trunc` then `as i32` is `as i32` (the cast truncates; NaN casts to 0, the retail 0).
    // libm's sin (not the platform's): the same pan on every target.
    let p = libm::sin(a * f64::from(DEG_TO_RAD_F32)) * -f64::from(MAX_PAN);
    (p as i32).clamp(-MAX_PAN, MAX_PAN)
}
