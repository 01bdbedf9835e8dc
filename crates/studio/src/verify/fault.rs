//! Debug faults: `RESOUND_VERIFY_FAULT=echo-delay-x2|shelf-bypass|decay-half|slot-tuning-off`
//! breaks one thing
//! on the way from the engine to the checks, so a test can see `verify` fail on the right rows.
//!
//! - `echo-delay-x2` stretches the mono signal the echo analysis reads ×2 after the direct
//!   peak (every echo arrives twice as late);
//! - `shelf-bypass` renders the direct-sound scenes (W, D, P) with acoustics `off`, so no shelf
//!   muffles them;
//! - `decay-half` compresses the reverb tail the decay analysis reads ×2 in time after the
//!   direct peak, scaled so it keeps its energy: the decay runs twice as fast;
//! - `slot-tuning-off` renders with the own model's `tune_bus` off: the engine still reports
//!   the space's decay but the bus is not tuned to it (its slots ring at their nominal decays,
//!   the bus before issue 30), so the rendered tail misses the reported decay.

use anyhow::bail;

/// The environment variable read by `resound verify`.
pub const ENV: &str = "RESOUND_VERIFY_FAULT";

/// One debug fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Echo delays doubled.
    EchoDelayX2,
    /// The occlusion shelf bypassed.
    ShelfBypass,
    /// The reverb decay halved.
    DecayHalf,
    /// The bus not tuned to the reported decay.
    SlotTuningOff,
}

impl Fault {
    /// Every fault, for the tests.
    pub const ALL: [Fault; 4] = [
        Fault::EchoDelayX2,
        Fault::ShelfBypass,
        Fault::DecayHalf,
        Fault::SlotTuningOff,
    ];

    /// The name the environment variable takes.
    pub fn name(self) -> &'static str {
        match self {
            Fault::EchoDelayX2 => "echo-delay-x2",
            Fault::ShelfBypass => "shelf-bypass",
            Fault::DecayHalf => "decay-half",
            Fault::SlotTuningOff => "slot-tuning-off",
        }
    }

    /// Parses a fault name.
    pub fn parse(name: &str) -> anyhow::Result<Fault> {
        match Fault::ALL.iter().find(|f| f.name() == name) {
            Some(&f) => Ok(f),
            None => bail!(
                "unknown {ENV} value `{name}` (expected echo-delay-x2, shelf-bypass, decay-half or slot-tuning-off)"
            ),
        }
    }

    /// The fault the environment asks for (unset or empty: none).
    pub fn from_env() -> anyhow::Result<Option<Fault>> {
        match std::env::var(ENV) {
            Ok(v) if v.trim().is_empty() => Ok(None),
            Ok(v) => Fault::parse(v.trim()).map(Some),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => bail!("{ENV} is not valid UTF-8"),
        }
    }
}

/// Index of the largest |x| (the direct peak of a render).
pub fn peak_index(x: &[f32]) -> usize {
    x.iter()
        .map(|v| v.abs())
        .enumerate()
        .fold(
            (0, 0.0f32),
            |best, (i, a)| if a > best.1 { (i, a) } else { best },
        )
        .0
}

/// Resamples `x` in time after sample `from`: output sample `from + n` reads input
/// `from + n·rate` (linear interpolation, zero past the end), times `scale`.
fn warp_after(x: &[f32], from: usize, rate: f64, scale: f32) -> Vec<f32> {
    let at = |k: usize| x.get(k).copied().unwrap_or(0.0);
    let mut out = x.to_vec();
    for (n, slot) in out.iter_mut().enumerate().skip(from + 1) {
        let pos = from as f64 + (n - from) as f64 * rate;
        let i = pos.floor() as usize;
        let frac = (pos - pos.floor()) as f32;
        *slot = scale * (at(i) + frac * (at(i + 1) - at(i)));
    }
    out
}

/// Echo delays doubled: the signal stretched ×2 after sample `from` (the direct peak).
pub fn stretch_echoes(x: &[f32], from: usize) -> Vec<f32> {
    warp_after(x, from, 0.5, 1.0)
}

/// Decay halved: the signal compressed ×2 in time after sample `from` (the direct peak), then
/// scaled so that everything after `from` keeps its energy (only the decay rate changes).
pub fn halve_decay(x: &[f32], from: usize) -> Vec<f32> {
    let mut out = warp_after(x, from, 2.0, 1.0);
    let energy = |v: &[f32]| v.iter().map(|&s| f64::from(s) * f64::from(s)).sum::<f64>();
    let tail = (from + 1).min(x.len());
    let (before, after) = (energy(&x[tail..]), energy(&out[tail..]));
    if after > 0.0 {
        let scale = (before / after).sqrt() as f32;
        for v in &mut out[tail..] {
            *v *= scale;
        }
    }
    out
}

#[cfg(test)]
mod tests;
