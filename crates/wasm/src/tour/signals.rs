//! The tour's event sounds: the test signals of acoustics §9 (`resound_studio::test_signal`),
//! re-stated here because the tools crate does not build for `wasm32`. The native test holds
//! them equal to the tools' samples. `exp` is `libm`'s: the same bits natively and in wasm32
//! (the platform's `exp` is glibc's natively, this port on wasm32).

/// The xorshift32 seed of §9.
const SEED: u32 = 0x9E37_79B9;

fn frames(seconds: f64, rate: u32) -> usize {
    (seconds * f64::from(rate)).round() as usize
}

/// `n` values of xorshift32 from the §9 seed, uniform in ±1.
fn xorshift_noise(n: usize) -> Vec<f32> {
    let mut x = SEED;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        out.push((f64::from(x) / f64::from(u32::MAX) * 2.0 - 1.0) as f32);
    }
    out
}

/// One-pole low pass at `cutoff_hz`, in place.
fn low_pass(x: &mut [f32], cutoff_hz: f64, rate: u32) {
    let a = 1.0 - libm::exp(-std::f64::consts::TAU * cutoff_hz / f64::from(rate));
    let mut y = 0.0f64;
    for v in x {
        y += a * (f64::from(*v) - y);
        *v = y as f32;
    }
}

/// Scales `x` so its largest magnitude is `peak`.
fn normalise(x: &mut [f32], peak: f32) {
    let m = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if m > 0.0 {
        let g = peak / m;
        for v in x {
            *v *= g;
        }
    }
}

/// The clap: 0.25 s, sample 0 = 0.5, then zeros.
#[must_use]
pub fn click(rate: u32) -> Vec<f32> {
    let mut x = vec![0.0; frames(0.25, rate).max(1)];
    x[0] = 0.5;
    x
}

/// The shot: 1.5 s of noise low-passed at 150 Hz under a 0.3 s exponential envelope, peak 0.5.
#[must_use]
pub fn shot(rate: u32) -> Vec<f32> {
    let mut x = xorshift_noise(frames(1.5, rate).max(1));
    low_pass(&mut x, 150.0, rate);
    for (i, v) in x.iter_mut().enumerate() {
        *v *= libm::exp(-(i as f64) / f64::from(rate) / 0.3) as f32;
    }
    normalise(&mut x, 0.5);
    x
}

/// The engine's loop: 1 s of the same low-passed noise without envelope, peak 0.05.
#[must_use]
pub fn looped(rate: u32) -> Vec<f32> {
    let mut x = xorshift_noise(frames(1.0, rate).max(1));
    low_pass(&mut x, 150.0, rate);
    normalise(&mut x, 0.05);
    x
}
