//! The test signals of acoustics §9, deterministic at any sample rate (mono, `f32`).
//!
//! | signal | what | suggested voice |
//! |---|---|---|
//! | [`click`] | 0.25 s, sample 0 = 0.5, then zeros | volume 1, range 256 |
//! | [`shot`] | 1.5 s xorshift32 noise (state 0x9E3779B9, uniform ±1) → one-pole LP 150 Hz → `exp(−t/0.3 s)`, peak 0.5 | volume 1, range 128 |
//! | [`looped`] | 1 s of the same low-passed noise, no envelope, peak 0.05 | looping |
//! | [`noise`] | 1.5 s of the raw xorshift32 noise, peak 0.25 (broadband, for band checks) | volume 1 |
//! | [`tone`] | 4 s of a 1 000 Hz sine at −6 dBFS (pitch and resampler checks) | volume 1 |

/// The xorshift32 seed of §9.
pub const SEED: u32 = 0x9E37_79B9;

/// Which test signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signal {
    /// [`click`].
    Click,
    /// [`shot`].
    Shot,
    /// [`looped`].
    Loop,
    /// [`noise`].
    Noise,
    /// [`tone`].
    Tone,
}

impl Signal {
    /// The samples at `rate` Hz.
    #[must_use]
    pub fn samples(self, rate: u32) -> Vec<f32> {
        match self {
            Self::Click => click(rate),
            Self::Shot => shot(rate),
            Self::Loop => looped(rate),
            Self::Noise => noise(rate),
            Self::Tone => tone(rate),
        }
    }

    /// True for the looping signal.
    #[must_use]
    pub fn looping(self) -> bool {
        self == Self::Loop
    }

    /// Parses `click|shot|loop|noise|tone`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "click" => Some(Self::Click),
            "shot" => Some(Self::Shot),
            "loop" => Some(Self::Loop),
            "noise" => Some(Self::Noise),
            "tone" => Some(Self::Tone),
            _ => None,
        }
    }

    /// The name `parse` takes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Click => "click",
            Self::Shot => "shot",
            Self::Loop => "loop",
            Self::Noise => "noise",
            Self::Tone => "tone",
        }
    }
}

fn frames(seconds: f64, rate: u32) -> usize {
    (seconds * f64::from(rate)).round() as usize
}

/// `n` values of xorshift32 from [`SEED`], uniform in ±1.
#[must_use]
pub fn xorshift_noise(n: usize) -> Vec<f32> {
    let mut x = SEED;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (f64::from(x) / f64::from(u32::MAX) * 2.0 - 1.0) as f32
        })
        .collect()
}

fn low_pass(x: &mut [f32], cutoff_hz: f64, rate: u32) {
    let a = 1.0 - (-std::f64::consts::TAU * cutoff_hz / f64::from(rate)).exp();
    let mut y = 0.0f64;
    for v in x {
        y += a * (f64::from(*v) - y);
        *v = y as f32;
    }
}

fn normalise(x: &mut [f32], peak: f32) {
    let m = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if m > 0.0 {
        let g = peak / m;
        for v in x {
            *v *= g;
        }
    }
}

/// 0.25 s: sample 0 = 0.5, then zeros.
#[must_use]
pub fn click(rate: u32) -> Vec<f32> {
    let mut x = vec![0.0; frames(0.25, rate).max(1)];
    x[0] = 0.5;
    x
}

/// 1.5 s of low-passed noise under a 0.3 s exponential envelope, peak 0.5.
#[must_use]
pub fn shot(rate: u32) -> Vec<f32> {
    let mut x = xorshift_noise(frames(1.5, rate).max(1));
    low_pass(&mut x, 150.0, rate);
    for (i, v) in x.iter_mut().enumerate() {
        *v *= (-(i as f64) / f64::from(rate) / 0.3).exp() as f32;
    }
    normalise(&mut x, 0.5);
    x
}

/// 1 s of low-passed noise without envelope, peak 0.05 (play it looping).
#[must_use]
pub fn looped(rate: u32) -> Vec<f32> {
    let mut x = xorshift_noise(frames(1.0, rate).max(1));
    low_pass(&mut x, 150.0, rate);
    normalise(&mut x, 0.05);
    x
}

/// 1.5 s of raw xorshift noise, peak 0.25.
#[must_use]
pub fn noise(rate: u32) -> Vec<f32> {
    let mut x = xorshift_noise(frames(1.5, rate).max(1));
    normalise(&mut x, 0.25);
    x
}

/// Frequency of [`tone`] in Hz.
pub const TONE_HZ: f64 = 1_000.0;
/// Amplitude of [`tone`]: −6 dBFS.
pub const TONE_AMPLITUDE: f64 = 0.501_187_233_627_272_2;

/// 4 s of a [`TONE_HZ`] sine at −6 dBFS ([`TONE_AMPLITUDE`]), from phase 0.
#[must_use]
pub fn tone(rate: u32) -> Vec<f32> {
    let w = std::f64::consts::TAU * TONE_HZ / f64::from(rate.max(1));
    (0..frames(4.0, rate).max(1))
        .map(|i| (TONE_AMPLITUDE * (w * i as f64).sin()) as f32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tone_is_a_1_khz_sine_at_minus_6_dbfs() {
        let x = Signal::parse("tone")
            .map(|s| s.samples(48_000))
            .unwrap_or_default();
        assert_eq!(x.len(), 192_000);
        let peak = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        assert!(
            (20.0 * f64::from(peak).log10() + 6.0).abs() < 0.01,
            "{peak}"
        );
        // 1 000 cycles a second: 2 000 sign changes in the first second (give or take one).
        let changes = x[..48_000]
            .windows(2)
            .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
            .count();
        assert!((1_999..=2_001).contains(&changes), "{changes}");
        assert_eq!(Signal::Tone.name(), "tone");
        assert!(!Signal::Tone.looping());
    }
}
