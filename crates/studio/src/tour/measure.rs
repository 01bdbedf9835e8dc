//! The tour measured as it is heard (issue 36, "Must show"): fed the rendered stereo block by
//! block (a [`Meter`], memory bounded by the scripted events' windows, not the tour's length),
//! then [`Meter::finish`] with the report gives a [`Measured`]:
//!
//! - every fired event's rise in its sound's band ([`EventSound::band_hz`](super::script::EventSound::band_hz)): the mean power in
//!   the [`AFTER_S`] after it against the [`BEFORE_S`] before it, at least [`MIN_RISE_DB`];
//! - the gorge clap's first echo in the 1 ms envelope at the delay the acoustics reported
//!   (± [`ECHO_TOLERANCE_MS`]) after the direct arrival, [`ECHO_ABOVE_BED_DB`] over the bed and
//!   standing out from the envelope before it;
//! - the hall clap's tail decaying over [`TAIL_DECAY_DB`] before the next event;
//! - no run of exact digital silence over [`MAX_SILENCE_MS`];
//! - the integrated loudness (ITU-R BS.1770 / EBU R128, the `ebur128` crate) in [`LOUDNESS_LUFS`]
//!   and the true peak at most [`MAX_TRUE_PEAK_DBTP`]; the limiter never engaged.
//!
//! [`Measured::failures`] lists what misses; [`Measured::to_json`] is `resound demo --json`'s
//! `measured` object.

use std::ops::RangeInclusive;

use ebur128::{EbuR128, Mode as LoudnessMode};
use realfft::RealFftPlanner;

use super::script::{EVENTS, GORGE_CLAP, HALL_CLAP};
use super::{TICK, TourReport, TourSettings};

/// Seconds before an event its rise is measured against.
pub const BEFORE_S: f64 = 0.5;
/// Seconds after an event its level is measured over.
pub const AFTER_S: f64 = 0.3;
/// The least rise of an event in its band, dB.
pub const MIN_RISE_DB: f64 = 6.0;
/// How far the gorge clap's echo may sit from the reported delay, ms.
pub const ECHO_TOLERANCE_MS: f64 = 2.0;
/// How far the gorge clap's echo must stand over the bed, dB.
pub const ECHO_ABOVE_BED_DB: f64 = 10.0;
/// How far the echo must rise over the envelope's lowest point between the direct sound and
/// it (a peak one can see, not the direct sound's own decay), dB.
pub const ECHO_PROMINENCE_DB: f64 = 3.0;
/// How far the hall clap's tail must decay before the next event, dB.
pub const TAIL_DECAY_DB: f64 = 20.0;
/// The longest run of exact digital silence allowed, ms.
pub const MAX_SILENCE_MS: f64 = 2.0;
/// The integrated loudness the tour must land in, LUFS.
pub const LOUDNESS_LUFS: RangeInclusive<f64> = -23.0..=-16.0;
/// The highest true peak allowed, dBTP.
pub const MAX_TRUE_PEAK_DBTP: f64 = -1.0;

/// Why the tour could not be measured.
#[derive(Debug, thiserror::Error)]
#[error("measuring the tour: {0}")]
pub struct MeasureError(String);

/// One scripted event's window of the mono mix.
#[derive(Debug, Clone)]
struct Window {
    /// The event's index in [`EVENTS`].
    index: usize,
    /// The event's scheduled time, s.
    time: f64,
    /// First frame of the window.
    start: u64,
    /// Frames the window spans.
    len: usize,
    /// The mono mix, `(L + R) / 2`.
    mono: Vec<f32>,
}

/// Streams the tour's stereo through the loudness meter and the silence counter and keeps the
/// scripted events' windows.
pub struct Meter {
    rate: u32,
    frames: u64,
    loudness: EbuR128,
    run: u64,
    longest: (u64, u64),
    windows: Vec<Window>,
}

/// An event's rise in its band.
#[derive(Debug, Clone, PartialEq)]
pub struct EventLevel {
    /// The event's index in [`EVENTS`].
    pub index: usize,
    /// Its label.
    pub label: &'static str,
    /// When it fired, s.
    pub time_s: f64,
    /// The band measured, Hz.
    pub band_hz: (f64, f64),
    /// Mean power in the band over the [`BEFORE_S`] before, dB.
    pub before_db: f64,
    /// Mean power in the band over the [`AFTER_S`] after, dB.
    pub after_db: f64,
}

impl EventLevel {
    /// `after − before`, dB.
    #[must_use]
    pub fn rise_db(&self) -> f64 {
        self.after_db - self.before_db
    }
}

/// The gorge clap's first echo in the envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct EchoCheck {
    /// The first tap's delay after the direct sound the acoustics reported, ms (`None`: no
    /// tap reported).
    pub reported_ms: Option<f64>,
    /// The direct arrival (the envelope's peak after the event), s.
    pub direct_s: f64,
    /// Where the echo's peak sits after the direct arrival, ms (within the tolerance).
    pub found_ms: Option<f64>,
    /// The echo's 1 ms level over the bed (the 1 ms mean power of the [`BEFORE_S`] before), dB.
    pub above_bed_db: f64,
    /// The echo's level over the envelope's lowest point between the direct sound and it, dB.
    pub prominence_db: f64,
}

/// The hall clap's tail.
#[derive(Debug, Clone, PartialEq)]
pub struct TailCheck {
    /// Seconds until the next event.
    pub gap_s: f64,
    /// The clap's peak (10 ms mean power), dB.
    pub peak_db: f64,
    /// The level over the last 50 ms before the next event, dB.
    pub end_db: f64,
    /// Seconds from the peak until the 10 ms envelope first lies 20 dB under it.
    pub t20_s: Option<f64>,
}

impl TailCheck {
    /// `peak − end`, dB.
    #[must_use]
    pub fn decay_db(&self) -> f64 {
        self.peak_db - self.end_db
    }
}

/// The tour's figures (see the module's list).
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Each fired scripted event's rise.
    pub events: Vec<EventLevel>,
    /// The gorge clap's echo (`None`: it did not fire).
    pub echo: Option<EchoCheck>,
    /// The hall clap's tail (`None`: it did not fire, or nothing followed it).
    pub tail: Option<TailCheck>,
    /// The longest run of exact digital silence, ms, and where it started, s.
    pub longest_silence: (f64, f64),
    /// Integrated loudness, LUFS.
    pub loudness_lufs: f64,
    /// True peak over both channels, dBTP.
    pub true_peak_dbtp: f64,
    /// Blocks the engine's limiter engaged.
    pub limiter_engagements: u64,
}

fn db(power: f64) -> f64 {
    10.0 * power.max(1e-20).log10()
}

/// Mean power of `x` in `[lo, hi)` Hz (Parseval: the band's share of `Σx² / n`).
fn band_power(x: &[f32], rate: f64, (lo, hi): (f64, f64)) -> f64 {
    if x.len() < 2 {
        return 0.0;
    }
    let n = x.len() - x.len() % 2;
    let fft = RealFftPlanner::<f64>::new().plan_fft_forward(n);
    let mut input: Vec<f64> = x[..n].iter().map(|&v| f64::from(v)).collect();
    let mut spectrum = fft.make_output_vec();
    if fft.process(&mut input, &mut spectrum).is_err() {
        return 0.0;
    }
    let last = spectrum.len() - 1;
    let bin = rate / n as f64;
    let sum: f64 = spectrum
        .iter()
        .enumerate()
        .filter(|(k, _)| (lo..hi).contains(&(*k as f64 * bin)))
        .map(|(k, c)| {
            let p = c.norm_sqr();
            if k == 0 || k == last { p } else { 2.0 * p }
        })
        .sum();
    sum / (n as f64 * n as f64)
}

/// Mean power of each `frame`-sample frame of `x`, dB.
fn envelope(x: &[f32], frame: usize) -> Vec<f64> {
    x.chunks(frame.max(1))
        .map(|c| db(c.iter().map(|v| f64::from(*v) * f64::from(*v)).sum::<f64>() / c.len() as f64))
        .collect()
}

/// Mean power of `x`, dB.
fn level(x: &[f32]) -> f64 {
    if x.is_empty() {
        return db(0.0);
    }
    db(x.iter().map(|v| f64::from(*v) * f64::from(*v)).sum::<f64>() / x.len() as f64)
}

/// When a scripted event fires in a tour of `seconds` (its tick's time), s.
#[must_use]
pub fn event_time(index: usize, seconds: f64) -> f64 {
    let at = EVENTS.get(index).map_or(0.0, |e| e.at);
    (at * seconds / TICK).round() * TICK
}

impl Meter {
    /// A meter for a tour of these settings.
    ///
    /// # Errors
    /// [`MeasureError`] when the loudness meter refuses the rate.
    pub fn new(settings: &TourSettings) -> Result<Self, MeasureError> {
        let rate = settings.rate;
        let loudness = EbuR128::new(2, rate, LoudnessMode::I | LoudnessMode::TRUE_PEAK)
            .map_err(|e| MeasureError(e.to_string()))?;
        let total = super::frames(settings);
        let times: Vec<f64> = (0..EVENTS.len())
            .map(|i| event_time(i, settings.seconds))
            .collect();
        let r = f64::from(rate);
        let windows = times
            .iter()
            .enumerate()
            .map(|(index, &time)| {
                let next = times
                    .iter()
                    .copied()
                    .filter(|&t| t > time)
                    .fold(f64::INFINITY, f64::min);
                let span = (next - time).clamp(AFTER_S + 0.05, 6.0) + 0.05;
                let start = ((time - BEFORE_S).max(0.0) * r).round() as u64;
                let end = (((time + span) * r).round() as u64).min(total);
                let len = end.saturating_sub(start) as usize;
                Window {
                    index,
                    time,
                    start,
                    len,
                    mono: Vec::with_capacity(len),
                }
            })
            .collect();
        Ok(Self {
            rate,
            frames: 0,
            loudness,
            run: 0,
            longest: (0, 0),
            windows,
        })
    }

    /// Takes the next block of interleaved stereo.
    pub fn push(&mut self, block: &[f32]) {
        // A full meter cannot fail on f32 stereo frames; an error would leave loudness unset.
        let _ = self.loudness.add_frames_f32(&block[..block.len() & !1]);
        let first = self.frames;
        for (i, f) in block.chunks_exact(2).enumerate() {
            let frame = first + i as u64;
            if f[0] == 0.0 && f[1] == 0.0 {
                self.run += 1;
                if self.run > self.longest.0 {
                    self.longest = (self.run, frame + 1 - self.run);
                }
            } else {
                self.run = 0;
            }
        }
        let n = (block.len() / 2) as u64;
        for w in &mut self.windows {
            let (lo, hi) = (w.start.max(first), (w.start + w.len as u64).min(first + n));
            for frame in lo..hi {
                let k = 2 * (frame - first) as usize;
                w.mono.push(0.5 * (block[k] + block[k + 1]));
            }
        }
        self.frames += n;
    }

    /// The figures, with the report of the run that was fed (its fired events, their
    /// acoustics and the limiter's count).
    #[must_use]
    pub fn finish(self, report: &TourReport) -> Measured {
        let r = f64::from(self.rate);
        let frame = |s: f64| (s * r).round() as usize;
        let mut events = Vec::new();
        let mut echo = None;
        let mut tail = None;
        for f in &report.fired {
            let Some(w) = self.windows.iter().find(|w| w.index == f.index) else {
                continue;
            };
            let e = &EVENTS[f.index];
            let at = frame(w.time) - w.start as usize;
            let before = &w.mono[at.saturating_sub(frame(BEFORE_S))..at.min(w.mono.len())];
            let after = &w.mono[at.min(w.mono.len())..(at + frame(AFTER_S)).min(w.mono.len())];
            let band = e.sound.band_hz();
            events.push(EventLevel {
                index: f.index,
                label: e.label,
                time_s: w.time,
                band_hz: band,
                before_db: db(band_power(before, r, band)),
                after_db: db(band_power(after, r, band)),
            });
            if f.index == GORGE_CLAP {
                let reported = f.acoustics.as_ref().and_then(|a| a.first_tap_ms());
                echo = Some(echo_check(&w.mono, at, r, before, reported));
            }
            if f.index == HALL_CLAP {
                tail = tail_check(&w.mono, at, r, w.time, report);
            }
        }
        let true_peak = (0..2)
            .filter_map(|c| self.loudness.true_peak(c).ok())
            .fold(0.0f64, f64::max);
        Measured {
            events,
            echo,
            tail,
            longest_silence: (self.longest.0 as f64 / r * 1e3, self.longest.1 as f64 / r),
            loudness_lufs: self.loudness.loudness_global().unwrap_or(f64::NEG_INFINITY),
            true_peak_dbtp: 20.0 * true_peak.max(1e-10).log10(),
            limiter_engagements: report.status.limiter_engagements,
        }
    }
}

/// The echo at `reported` ms after the direct arrival in the 1 ms envelope of `mono` (the
/// event at frame `at`; `before` the bed ahead of it).
fn echo_check(mono: &[f32], at: usize, r: f64, before: &[f32], reported: Option<f64>) -> EchoCheck {
    let ms = (r / 1e3).round() as usize;
    let bed = level(before);
    let env = envelope(&mono[at.min(mono.len())..], ms);
    let search = (AFTER_S * 1e3) as usize;
    let direct = (0..search.min(env.len()))
        .max_by(|&a, &b| env[a].total_cmp(&env[b]))
        .unwrap_or(0);
    let mut check = EchoCheck {
        reported_ms: reported,
        direct_s: direct as f64 / 1e3,
        found_ms: None,
        above_bed_db: f64::NEG_INFINITY,
        prominence_db: f64::NEG_INFINITY,
    };
    let Some(d) = reported else {
        return check;
    };
    let lo = (direct as f64 + d - ECHO_TOLERANCE_MS)
        .round()
        .max(direct as f64 + 1.0) as usize;
    let hi = (direct as f64 + d + ECHO_TOLERANCE_MS).round() as usize;
    if lo > hi || hi >= env.len() {
        return check;
    }
    let Some(peak) = (lo..=hi).max_by(|&a, &b| env[a].total_cmp(&env[b])) else {
        return check;
    };
    let valley = env[direct + 1..lo]
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    // An echo is a peak: the window's highest point must stand at least as high as the
    // frames on either side of it (a highest point on the window's edge, with the envelope
    // still rising past it, is something else's slope, not the echo).
    let rises_on = |k: usize| env.get(k).is_some_and(|&v| v > env[peak]);
    if rises_on(peak + 1) || (peak > 0 && rises_on(peak - 1)) {
        return check;
    }
    check.found_ms = Some((peak - direct) as f64);
    check.above_bed_db = env[peak] - bed;
    check.prominence_db = if valley.is_finite() {
        env[peak] - valley
    } else {
        0.0
    };
    check
}

/// The tail of the event at frame `at` of `mono` until the next fired event.
fn tail_check(
    mono: &[f32],
    at: usize,
    r: f64,
    time: f64,
    report: &TourReport,
) -> Option<TailCheck> {
    let next = report
        .fired
        .iter()
        .map(|f| f.time)
        .filter(|&t| t > time + 1e-9)
        .fold(f64::INFINITY, f64::min);
    let gap = next - time;
    let end = at + (gap * r).round() as usize;
    if !gap.is_finite() || end > mono.len() {
        return None;
    }
    let frame = (0.01 * r).round() as usize;
    let env = envelope(&mono[at..end], frame);
    let search = ((AFTER_S / 0.01) as usize).min(env.len());
    let peak = (0..search).max_by(|&a, &b| env[a].total_cmp(&env[b]))?;
    let last = (0.05 * r).round() as usize;
    let end_db = level(&mono[end.saturating_sub(last).max(at)..end]);
    let t20 = (peak..env.len())
        .find(|&k| env[k] <= env[peak] - 20.0)
        .map(|k| (k - peak) as f64 * 0.01);
    Some(TailCheck {
        gap_s: gap,
        peak_db: env[peak],
        end_db,
        t20_s: t20,
    })
}

impl Measured {
    /// What misses the figures, one line each (empty: all met).
    #[must_use]
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        for e in &self.events {
            if e.rise_db() < MIN_RISE_DB {
                out.push(format!(
                    "event {} ({}) at {:.2} s rises {:+.1} dB in {:.0}–{:.0} Hz (< {MIN_RISE_DB} dB)",
                    e.index + 1,
                    e.label,
                    e.time_s,
                    e.rise_db(),
                    e.band_hz.0,
                    e.band_hz.1
                ));
            }
        }
        match &self.echo {
            None => out.push("the gorge clap did not fire".to_owned()),
            Some(c) => match (c.reported_ms, c.found_ms) {
                (None, _) => out.push("the gorge clap's acoustics reported no echo tap".to_owned()),
                (Some(d), None) => out.push(format!(
                    "the gorge clap's echo: no peak in the envelope within {ECHO_TOLERANCE_MS} ms of the reported {d:.1} ms"
                )),
                (Some(d), Some(_)) => {
                    if c.above_bed_db < ECHO_ABOVE_BED_DB
                        || c.prominence_db < ECHO_PROMINENCE_DB
                    {
                        out.push(format!(
                            "the gorge clap's echo at {d:.1} ms: {:.1} dB over the bed (< {ECHO_ABOVE_BED_DB}) or {:.1} dB over the envelope before it (< {ECHO_PROMINENCE_DB})",
                            c.above_bed_db, c.prominence_db
                        ));
                    }
                }
            },
        }
        match &self.tail {
            None => out.push("the hall clap did not fire, or nothing followed it".to_owned()),
            Some(t) if t.decay_db() < TAIL_DECAY_DB => out.push(format!(
                "the hall clap's tail decays {:.1} dB in the {:.2} s before the next event (< {TAIL_DECAY_DB})",
                t.decay_db(),
                t.gap_s
            )),
            Some(_) => {}
        }
        if self.longest_silence.0 > MAX_SILENCE_MS {
            out.push(format!(
                "{:.2} ms of exact silence at {:.3} s (> {MAX_SILENCE_MS} ms)",
                self.longest_silence.0, self.longest_silence.1
            ));
        }
        if !LOUDNESS_LUFS.contains(&self.loudness_lufs) {
            out.push(format!(
                "integrated loudness {:.1} LUFS (outside {}..{})",
                self.loudness_lufs,
                LOUDNESS_LUFS.start(),
                LOUDNESS_LUFS.end()
            ));
        }
        if self.true_peak_dbtp > MAX_TRUE_PEAK_DBTP {
            out.push(format!(
                "true peak {:.2} dBTP (> {MAX_TRUE_PEAK_DBTP})",
                self.true_peak_dbtp
            ));
        }
        if self.limiter_engagements > 0 {
            out.push(format!(
                "the limiter engaged {} times",
                self.limiter_engagements
            ));
        }
        out
    }

    /// The JSON object (`resound demo --json`'s `measured`).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let r = |v: f64| {
            if v.is_finite() {
                Some((v * 100.0).round() / 100.0)
            } else {
                None
            }
        };
        serde_json::json!({
            "loudness_db": r(self.loudness_lufs),
            "true_peak_db": r(self.true_peak_dbtp),
            "limiter_engagements": self.limiter_engagements,
            "longest_silence_ms": r(self.longest_silence.0),
            "rises_db": self.events.iter().map(|e| r(e.rise_db())).collect::<Vec<_>>(),
            "echo_ms": self.echo.as_ref().and_then(|c| c.found_ms),
            "echo_above_bed_db": self.echo.as_ref().and_then(|c| r(c.above_bed_db)),
            "tail_decay_db": self.tail.as_ref().and_then(|t| r(t.decay_db())),
            "failures": self.failures(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_power_finds_a_tone_in_its_band_only() {
        let r = 48_000.0;
        let x: Vec<f32> = (0..4800)
            .map(|i| (0.5 * (2.0 * std::f64::consts::PI * 1000.0 * f64::from(i) / r).sin()) as f32)
            .collect();
        // a sine of amplitude 0.5 has mean power 0.125
        let inside = band_power(&x, r, (500.0, 2000.0));
        assert!((inside - 0.125).abs() < 1e-3, "{inside}");
        assert!(band_power(&x, r, (2000.0, 8000.0)) < 1e-6);
    }

    #[test]
    fn an_echo_after_a_click_is_found_at_its_delay() {
        let r = 48_000.0;
        let mut x = vec![0.001f32; 48_000];
        for (k, v) in x.iter_mut().enumerate() {
            if k % 2 == 0 {
                *v = -*v;
            }
        }
        let at = 24_000;
        x[at + 10] = 0.8;
        // an echo 20 ms later, 12 dB down
        x[at + 10 + 960] = 0.2;
        let bed = x[at - 24_000..at].to_vec();
        let c = echo_check(&x, at, r, &bed, Some(20.0));
        assert_eq!(c.found_ms, Some(20.0));
        assert!(c.above_bed_db > 10.0, "{c:?}");
        assert!(c.prominence_db > 10.0, "{c:?}");
        // at a wrong delay there is nothing
        let c = echo_check(&x, at, r, &bed, Some(35.0));
        assert!(c.prominence_db < 1.0, "{c:?}");
        // a reported delay 3 ms short of the echo: the window (±2 ms) ends on the echo's
        // rising edge, which is not a peak, so no echo is found there
        let mut y = x.clone();
        for k in 0..4 {
            y[at + 10 + 960 - 48 * (k + 1)] = 0.05 * (4 - k) as f32;
        }
        let c = echo_check(&y, at, r, &bed, Some(16.0));
        assert_eq!(c.found_ms, None, "{c:?}");
        assert_eq!(echo_check(&y, at, r, &bed, Some(20.0)).found_ms, Some(20.0));
    }
}
