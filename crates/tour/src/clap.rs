//! The tour's own hand clap, made for the ear: bursts of band-passed noise (round 2 kHz)
//! decaying in a few milliseconds, short enough that the gorge's first echo stands apart from
//! the direct sound, clapped a few times so the event carries energy over the beds without a
//! peak near full scale. Deterministic: a fixed xorshift seed, IEEE basic operations and
//! `libm` (the same bits natively and in wasm32).

/// Time constant of a burst's decay, s.
pub const DECAY_S: f64 = 0.006;
/// Length of one burst, s.
pub const BURST_S: f64 = 0.06;
/// When the bursts of one clap event sound, s after its start.
pub const TIMES_S: [f64; 3] = [0.0, 0.12, 0.24];
/// The sound's length, s: silence after the bursts keeps the voice alive while its echoes and
/// reverb ring (the engine reads its acoustics meanwhile).
pub const LENGTH_S: f64 = 0.6;
/// Centre of the band-pass, Hz.
pub const CENTRE_HZ: f64 = 2000.0;
/// Quality of the band-pass (about an octave wide).
pub const Q: f64 = 1.4;
/// Peak amplitude of a burst.
pub const PEAK: f64 = 0.5;

/// The clap at `rate` Hz: [`TIMES_S`] bursts of [`BURST_S`] of noise band-passed round
/// [`CENTRE_HZ`] under a 0.3 ms attack and a [`DECAY_S`] decay, peak [`PEAK`], then silence up
/// to [`LENGTH_S`].
#[must_use]
pub fn clap(rate: u32) -> Vec<f32> {
    let r = f64::from(rate.max(1));
    let n = ((BURST_S * r).round() as usize).max(1);
    let mut state: u32 = 0x9E37_79B9;
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        f64::from(state) / f64::from(u32::MAX) * 2.0 - 1.0
    };
    // A two-pole band-pass with 0 dB gain at its centre (the audio EQ cookbook's).
    let w = 2.0 * std::f64::consts::PI * CENTRE_HZ.min(0.45 * r) / r;
    let alpha = libm::sin(w) / (2.0 * Q);
    let a0 = 1.0 + alpha;
    let (b0, b2) = (alpha / a0, -alpha / a0);
    let (a1, a2) = (-2.0 * libm::cos(w) / a0, (1.0 - alpha) / a0);
    let (mut x1, mut x2, mut y1, mut y2) = (0.0, 0.0, 0.0, 0.0);
    let attack = 0.0003 * r;
    let burst: Vec<f64> = (0..n)
        .map(|i| {
            let x = noise();
            let y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
            (x2, x1, y2, y1) = (x1, x, y1, y);
            let t = i as f64;
            y * (t / attack).min(1.0) * libm::exp(-t / r / DECAY_S)
        })
        .collect();
    let peak = burst.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = if peak > 0.0 { PEAK / peak } else { 0.0 };
    let mut out = vec![0.0f64; ((LENGTH_S * r).round() as usize).max(n)];
    for t in TIMES_S {
        let at = (t * r).round() as usize;
        for (o, v) in out.iter_mut().skip(at).zip(&burst) {
            *o += v * scale;
        }
    }
    out.into_iter().map(|v| v as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clap_is_three_short_bursts_the_same_every_time() {
        let a = clap(48_000);
        assert_eq!(a, clap(48_000));
        assert_eq!(a.len(), 28_800);
        let peak = |from: usize, to: usize| a[from..to].iter().fold(0.0f32, |m, v| m.max(v.abs()));
        for t in TIMES_S {
            let at = (t * 48_000.0) as usize;
            assert!((peak(at, at + 2880) - 0.5).abs() < 1e-6, "a burst at {t} s");
        }
        // 30 ms into a burst it has decayed by more than 30 dB
        assert!(peak(1440, 2880) < 0.5 * 0.03, "{}", peak(1440, 2880));
        assert!(peak(14_400, 28_800) == 0.0, "silence after the bursts");
    }
}
