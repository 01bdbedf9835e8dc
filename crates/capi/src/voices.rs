//! Voices and tracks: play a sound from a [`ResoundSource`], then change the voice's volume,
//! rate and position, pause, resume or stop it (with linear fades); sub-mix tracks.

#![allow(
    unsafe_code,
    reason = "exported C entry points (`#[unsafe(no_mangle)]`)"
)]

use std::ffi::c_char;

use resound_engine::{Source, StartTime, Volume};

use crate::args::{ResoundVec3, read, seconds, text};
use crate::handles::{ResoundEngine, ResoundSound, ResoundVoice, Session, with_session};
use crate::result::{Failure, Outcome, ResoundResult, call, write_out};

/// One sound to play. Fill it with `resound_source_default`, then change fields.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResoundSource {
    /// Position in metres (for a `relative` source: an offset in the listener's frame).
    pub position: ResoundVec3,
    /// Linear volume, 0..=16.
    pub volume: f32,
    /// Range in metres (> 0): the level falls linearly to 0 there.
    pub range: f32,
    /// Playback rate: 2 = an octave up (0..=16).
    pub rate: f64,
    /// Start at this time on the engine's clock (seconds rendered); negative: now.
    pub start_at: f64,
    /// Fade in over this many seconds (0: none).
    pub fade_in_seconds: f32,
    /// The track (0: main; others from `resound_add_track`).
    pub track: u32,
    /// Non-zero: loop until stopped.
    pub looping: u8,
    /// Non-zero: placed relative to the listener (UI, music): no acoustics.
    pub relative: u8,
    /// Non-zero: an impulsive event (shot, explosion): its acoustics jump the queue.
    pub impulsive: u8,
    /// Reserved: 0.
    pub reserved: u8,
    /// Event power (≥ 0): impulsive events with power ≥ 2 get the full acoustic treatment.
    pub power: f32,
    /// Event id: voices with the same non-zero id share one acoustic result; 0: its own.
    pub event: u64,
}

/// Fills `out` with the defaults: at the origin, volume 1, range 256, rate 1, now, main
/// track, no loop.
#[unsafe(no_mangle)]
pub extern "C" fn resound_source_default(out: *mut ResoundSource) -> ResoundResult {
    call("resound_source_default", || {
        let d = Source::default();
        write_out(
            out,
            "out",
            ResoundSource {
                position: ResoundVec3 {
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                },
                volume: d.volume,
                range: d.range,
                rate: d.rate,
                start_at: -1.0,
                fade_in_seconds: 0.0,
                track: 0,
                looping: 0,
                relative: 0,
                impulsive: 0,
                reserved: 0,
                power: d.power,
                event: 0,
            },
        )
    })
}

fn to_source(s: &Session, c: &ResoundSource) -> Outcome<Source> {
    let track = *s
        .tracks
        .get(c.track as usize)
        .ok_or_else(|| Failure::argument(format!("track {} does not exist", c.track)))?;
    if c.start_at.is_nan() {
        return Err(Failure::argument("start_at is not a number"));
    }
    Ok(Source {
        position: c.position.into(),
        volume: c.volume,
        range: c.range,
        looping: c.looping != 0,
        relative: c.relative != 0,
        impulsive: c.impulsive != 0,
        power: c.power,
        event: (c.event != 0).then_some(c.event),
        start: if c.start_at < 0.0 {
            StartTime::Now
        } else {
            StartTime::At(c.start_at)
        },
        rate: c.rate,
        track,
        fade_in: seconds(c.fade_in_seconds, "fade_in_seconds")?,
        ..Source::default()
    })
}

/// Starts `sound` as described by `source` (NULL: the defaults) and writes the voice to
/// `out`.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER` (`out`), a bad or stale sound,
/// `RESOUND_RESULT_INVALID_ARGUMENT` (a field), `RESOUND_RESULT_VOICE_LIMIT`,
/// `RESOUND_RESULT_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_play(
    engine: ResoundEngine,
    sound: ResoundSound,
    source: *const ResoundSource,
    out: *mut ResoundVoice,
) -> ResoundResult {
    call("resound_play", || {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let c = if source.is_null() {
            let mut d = std::mem::MaybeUninit::uninit();
            resound_source_default(d.as_mut_ptr());
            // SAFETY: resound_source_default wrote it (the pointer is not NULL).
            unsafe { d.assume_init() }
        } else {
            read(source, "source")?
        };
        let voice = with_session(engine, |s| {
            let h = s.sounds.get(sound)?;
            let src = to_source(s, &c)?;
            let v = s.engine.play(h, src)?;
            Ok(s.voices.insert(v))
        })?;
        write_out(out, "out", voice)
    })
}

/// Runs `change` on a live voice.
fn on_voice(
    name: &str,
    engine: ResoundEngine,
    voice: ResoundVoice,
    change: impl FnOnce(&mut resound_engine::VoiceMut<'_>) -> Outcome,
) -> ResoundResult {
    call(name, || {
        with_session(engine, |s| {
            let h = s.voices.get(voice)?;
            let mut v = s.engine.voice(h)?;
            change(&mut v)
        })
    })
}

/// Tweens a voice's volume to linear `volume` (0..=16) over `seconds` (0: at once).
///
/// Errors: a bad handle, `RESOUND_RESULT_VOICE_ENDED`, `RESOUND_RESULT_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_set_volume(
    engine: ResoundEngine,
    voice: ResoundVoice,
    volume: f32,
    seconds: f32,
) -> ResoundResult {
    on_voice("resound_voice_set_volume", engine, voice, |v| {
        let t = crate::args::seconds(seconds, "seconds")?;
        v.set_volume(Volume::Amplitude(volume), t)?;
        Ok(())
    })
}

/// Tweens a voice's volume to `db` decibels (≤ +24; −100 or below is silence) over
/// `seconds`.
///
/// Errors: as `resound_voice_set_volume`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_set_volume_db(
    engine: ResoundEngine,
    voice: ResoundVoice,
    db: f32,
    seconds: f32,
) -> ResoundResult {
    on_voice("resound_voice_set_volume_db", engine, voice, |v| {
        let t = crate::args::seconds(seconds, "seconds")?;
        v.set_volume(Volume::Decibels(db), t)?;
        Ok(())
    })
}

/// Tweens a voice's playback rate (0..=16; 2 = an octave up) over `seconds`.
///
/// Errors: as `resound_voice_set_volume`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_set_rate(
    engine: ResoundEngine,
    voice: ResoundVoice,
    rate: f64,
    seconds: f32,
) -> ResoundResult {
    on_voice("resound_voice_set_rate", engine, voice, |v| {
        let t = crate::args::seconds(seconds, "seconds")?;
        v.set_rate(rate, t)?;
        Ok(())
    })
}

/// Moves a voice (metres).
///
/// Errors: as `resound_voice_set_volume`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_set_position(
    engine: ResoundEngine,
    voice: ResoundVoice,
    position: ResoundVec3,
) -> ResoundResult {
    on_voice("resound_voice_set_position", engine, voice, |v| {
        v.set_position(position.into())?;
        Ok(())
    })
}

/// Pauses a voice after a fade of `seconds`; `resound_voice_resume` continues it.
///
/// Errors: as `resound_voice_set_volume`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_pause(
    engine: ResoundEngine,
    voice: ResoundVoice,
    seconds: f32,
) -> ResoundResult {
    on_voice("resound_voice_pause", engine, voice, |v| {
        v.pause(crate::args::seconds(seconds, "seconds")?)?;
        Ok(())
    })
}

/// Resumes a paused voice where it stopped, fading in over `seconds`.
///
/// Errors: as `resound_voice_set_volume`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_resume(
    engine: ResoundEngine,
    voice: ResoundVoice,
    seconds: f32,
) -> ResoundResult {
    on_voice("resound_voice_resume", engine, voice, |v| {
        v.resume(crate::args::seconds(seconds, "seconds")?)?;
        Ok(())
    })
}

/// Stops a voice after a fade of `seconds`; once the fade has played (seen at the next update
/// or render after it) its handle reads `RESOUND_RESULT_VOICE_ENDED`.
///
/// Errors: as `resound_voice_set_volume`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_stop(
    engine: ResoundEngine,
    voice: ResoundVoice,
    seconds: f32,
) -> ResoundResult {
    on_voice("resound_voice_stop", engine, voice, |v| {
        v.stop(crate::args::seconds(seconds, "seconds")?)?;
        Ok(())
    })
}

/// Adds a sub-mix track named `name` (1..=64 bytes of UTF-8) at full volume; writes its
/// number (for `ResoundSource::track`) to `out`.
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, `RESOUND_RESULT_INVALID_UTF8`,
/// `RESOUND_RESULT_INVALID_ARGUMENT` (empty, too long, duplicate), `RESOUND_RESULT_VOICE_LIMIT`
/// (every track taken).
#[unsafe(no_mangle)]
pub extern "C" fn resound_add_track(
    engine: ResoundEngine,
    name: *const c_char,
    out: *mut u32,
) -> ResoundResult {
    call("resound_add_track", || {
        let name = text(name, "name")?;
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let number = with_session(engine, |s| {
            let t = s.engine.add_track(name)?;
            s.tracks.push(t);
            Ok((s.tracks.len() - 1) as u32)
        })?;
        write_out(out, "out", number)
    })
}

/// Tweens a track's linear volume (0..=16) over `seconds`; every voice on it follows.
///
/// Errors: `RESOUND_RESULT_INVALID_ARGUMENT` (unknown track, bad volume), `RESOUND_RESULT_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn resound_set_track_volume(
    engine: ResoundEngine,
    track: u32,
    volume: f32,
    seconds: f32,
) -> ResoundResult {
    call("resound_set_track_volume", || {
        with_session(engine, |s| {
            let t = *s
                .tracks
                .get(track as usize)
                .ok_or_else(|| Failure::argument(format!("track {track} does not exist")))?;
            let tween = crate::args::seconds(seconds, "seconds")?;
            Ok(s.engine
                .set_track_volume(t, Volume::Amplitude(volume), tween)?)
        })
    })
}

/// Where a voice is in its life (`resound_voice_state`).
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResoundVoiceState {
    /// Playing (or scheduled, or fading out after a stop).
    Playing = 0,
    /// Paused.
    Paused = 1,
    /// Ended: played out, stopped, stolen.
    Ended = 2,
}

/// Writes a voice's state (a `ResoundVoiceState`) to `out`, as of the last update or render.
/// An ended voice is `RESOUND_VOICE_STATE_ENDED` (the call succeeds).
///
/// Errors: `RESOUND_RESULT_NULL_POINTER`, a zero or foreign voice handle.
#[unsafe(no_mangle)]
pub extern "C" fn resound_voice_state(
    engine: ResoundEngine,
    voice: ResoundVoice,
    out: *mut i32,
) -> ResoundResult {
    call("resound_voice_state", || {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let state = with_session(engine, |s| match s.voices.get(voice) {
            Ok(h) => Ok(match s.engine.voice_state(h) {
                resound_engine::VoiceState::Playing => ResoundVoiceState::Playing,
                resound_engine::VoiceState::Paused => ResoundVoiceState::Paused,
                resound_engine::VoiceState::Ended => ResoundVoiceState::Ended,
            }),
            Err(f) if f.code == ResoundResult::VoiceEnded => Ok(ResoundVoiceState::Ended),
            Err(f) => Err(f),
        })?;
        write_out(out, "out", state as i32)
    })
}
