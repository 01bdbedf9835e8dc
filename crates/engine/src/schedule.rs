//! Scheduling decisions (acoustics §3.3, §5, §8): classes with hysteresis, re-trace timing,
//! echo eligibility and the echo-voice ranking. Pure functions of plain values, in a
//! deterministic order (loudness, then id; never hash order).

/// Voices in the Full class (9 paths, echoes, sends), besides impulsive events.
pub const FULL_VOICES: usize = 16;
/// A Full voice keeps its class while it ranks within this many (hysteresis).
pub const FULL_KEEP: usize = 20;
/// Voices in the Direct class (1 path, listener-space sends).
pub const DIRECT_VOICES: usize = 100;
/// Beyond this distance a voice is Free.
pub const FREE_DISTANCE: f64 = 512.0;
/// A Free voice returns only closer than this (hysteresis).
pub const FREE_RETURN_DISTANCE: f64 = 496.0;
/// Below this audibility (`volume·distance_gain`) a voice is Free (−60 dB).
pub const AUDIBLE: f64 = 1.0e-3;
/// A Free voice returns only above this audibility (hysteresis).
pub const AUDIBLE_RETURN: f64 = 1.5e-3;
/// Impulsive events at least this powerful …
pub const IMPULSIVE_POWER: f32 = 2.0;
/// … and within this distance are always Full.
pub const IMPULSIVE_DISTANCE: f64 = 400.0;
/// A distance change beyond this share re-traces at once (a fly-by).
pub const DISTANCE_CHANGE: f64 = 0.10;
/// Re-trace speed: every `distance / 200` seconds …
pub const RETRACE_SPEED: f64 = 200.0;
/// … but at least every 0.1 s …
pub const RETRACE_MIN_S: f64 = 0.1;
/// … and at most every 1 s.
pub const RETRACE_MAX_S: f64 = 1.0;
/// A move smaller than this (blocks) does not count as motion.
pub const MOTION_EPSILON: f64 = 0.01;

/// How much acoustic work a voice gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// 9 paths; echoes if it deserves them; sends.
    Full,
    /// 1 path; listener-space sends.
    Direct,
    /// No tracing: `gain = 1`, `hf = air(d)`, no sends, no taps.
    Free,
}

/// Audibility before occlusion: `volume · clamp(1 − d/range, 0, 1)`.
#[must_use]
pub fn loudness(volume: f32, distance: f64, range: f32) -> f64 {
    let r = f64::from(range);
    if r <= 0.0 {
        return 0.0;
    }
    f64::from(volume) * (1.0 - distance / r).clamp(0.0, 1.0)
}

/// Re-trace interval of a moving source: `clamp(distance/200 s, 0.1, 1.0)`.
#[must_use]
pub fn retrace_interval(distance: f64) -> f64 {
    (distance / RETRACE_SPEED).clamp(RETRACE_MIN_S, RETRACE_MAX_S)
}

/// The interval in ticks (at least 1).
#[must_use]
pub fn retrace_ticks(distance: f64, tick_seconds: f64) -> u64 {
    ((retrace_interval(distance) / tick_seconds).ceil() as u64).max(1)
}

/// True when a moving voice is due on its timer this tick: every `retrace_ticks` ticks, with a
/// phase taken from the voice id so voices spread over the ticks.
#[must_use]
pub fn timer_due(tick: u64, voice: u64, distance: f64, tick_seconds: f64) -> bool {
    let n = retrace_ticks(distance, tick_seconds);
    (tick.wrapping_add(voice)).is_multiple_of(n)
}

/// True when the distance changed by more than 10 % since the last trace.
#[must_use]
pub fn distance_jump(traced: f64, now: f64) -> bool {
    (now - traced).abs() > DISTANCE_CHANGE * traced.max(1.0)
}

/// What `deserves_echo` reads of a voice (acoustics §5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EchoFacts {
    /// Looping voice.
    pub looping: bool,
    /// Relative voice.
    pub relative: bool,
    /// Volume.
    pub volume: f32,
    /// Linear range.
    pub range: f32,
    /// Sound length in seconds.
    pub length_s: f64,
    /// Share already played (0..).
    pub played: f64,
}

/// Not looping, not relative, volume ≥ 0.5, range ≥ 96, length 0.1–12 s, < 70 % played.
#[must_use]
pub fn deserves_echo(f: &EchoFacts) -> bool {
    !f.looping
        && !f.relative
        && f.volume >= 0.5
        && f.range >= 96.0
        && (0.1..=12.0).contains(&f.length_s)
        && f.played < 0.7
}

/// One voice as the classifier sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// Voice id (ties).
    pub id: u64,
    /// Audibility.
    pub loud: f64,
    /// Distance to the listener.
    pub distance: f64,
    /// An impulsive event with power ≥ 2 within 400 blocks.
    pub impulsive_full: bool,
    /// The class it had (None: new).
    pub previous: Option<Class>,
}

fn is_free(c: &Candidate) -> bool {
    if c.previous == Some(Class::Free) {
        !(c.distance < FREE_RETURN_DISTANCE && c.loud > AUDIBLE_RETURN)
    } else {
        c.distance > FREE_DISTANCE || c.loud < AUDIBLE
    }
}

/// Classes for `candidates` (same order): Free beyond 512 blocks or below audibility; Full for
/// impulsive events and the 16 loudest (a Full voice stays while within the 20 loudest); Direct
/// for the next up to 100; Free beyond.
#[must_use]
pub fn classify(candidates: &[Candidate]) -> Vec<Class> {
    let mut out = vec![Class::Free; candidates.len()];
    let mut ranked: Vec<usize> = (0..candidates.len())
        .filter(|&i| !is_free(&candidates[i]))
        .collect();
    ranked.sort_by(|&a, &b| {
        let (a, b) = (&candidates[a], &candidates[b]);
        b.loud.total_cmp(&a.loud).then(a.id.cmp(&b.id))
    });
    let mut full = 0;
    for (rank, &i) in ranked.iter().enumerate() {
        let c = &candidates[i];
        if c.impulsive_full {
            out[i] = Class::Full;
        } else if c.previous == Some(Class::Full) && rank < FULL_KEEP && full < FULL_KEEP {
            out[i] = Class::Full;
            full += 1;
        }
    }
    let mut direct = 0;
    for &i in &ranked {
        if out[i] == Class::Full {
            continue;
        }
        if full < FULL_VOICES {
            out[i] = Class::Full;
            full += 1;
        } else if direct < DIRECT_VOICES {
            out[i] = Class::Direct;
            direct += 1;
        } else {
            out[i] = Class::Free;
        }
    }
    out
}

#[cfg(test)]
mod tests;
