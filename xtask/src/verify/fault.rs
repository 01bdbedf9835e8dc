//! Debug faults: `RESOUND_VERIFY_FAULT=echo-delay-x2|shelf-bypass|decay-half` breaks one thing
//! on the way from the engine to the checks, so a test can see `verify` fail on the right rows.
//!
//! - `echo-delay-x2` stretches the echo renders ×2 after the direct peak (every echo arrives
//!   twice as late) before they are written and measured;
//! - `shelf-bypass` renders the direct-sound scenes (W, D, P) with acoustics `off`, so no shelf
//!   muffles them;
//! - `decay-half` compresses the reverb renders ×2 in time after the direct peak, scaled by √2
//!   so the tail keeps its energy: the decay runs twice as fast.

use anyhow::bail;

/// The environment variable read by `cargo xtask verify`.
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
}

impl Fault {
    /// Every fault, for the tests.
    pub const ALL: [Fault; 3] = [Fault::EchoDelayX2, Fault::ShelfBypass, Fault::DecayHalf];

    /// The name the environment variable takes.
    pub fn name(self) -> &'static str {
        match self {
            Fault::EchoDelayX2 => "echo-delay-x2",
            Fault::ShelfBypass => "shelf-bypass",
            Fault::DecayHalf => "decay-half",
        }
    }

    /// Parses a fault name.
    pub fn parse(name: &str) -> anyhow::Result<Fault> {
        match Fault::ALL.iter().find(|f| f.name() == name) {
            Some(&f) => Ok(f),
            None => bail!(
                "unknown {ENV} value `{name}` (expected echo-delay-x2, shelf-bypass or decay-half)"
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

/// Index of the largest |x| of one channel of interleaved stereo, in frames.
fn peak_frame(stereo: &[f32]) -> usize {
    stereo
        .chunks_exact(2)
        .map(|f| f[0].abs().max(f[1].abs()))
        .enumerate()
        .fold((0, 0.0f32), |best, (i, a)| if a > best.1 { (i, a) } else { best })
        .0
}

/// Resamples interleaved stereo in time after its peak frame: output frame `p + n` reads input
/// frame `p + n·rate` (linear interpolation, zero past the end), times `scale`.
fn warp_after_peak(stereo: &[f32], rate: f64, scale: f32) -> Vec<f32> {
    let frames = stereo.len() / 2;
    let p = peak_frame(stereo);
    let read = |pos: f64, ch: usize| -> f32 {
        let i = pos.floor() as usize;
        let frac = (pos - pos.floor()) as f32;
        let at = |k: usize| if k < frames { stereo[2 * k + ch] } else { 0.0 };
        at(i) + frac * (at(i + 1) - at(i))
    };
    let mut out = stereo[..2 * frames].to_vec();
    for n in 1..frames - p.min(frames) {
        let pos = p as f64 + n as f64 * rate;
        for ch in 0..2 {
            out[2 * (p + n) + ch] = scale * read(pos, ch);
        }
    }
    out
}

/// Echo delays doubled: the render stretched ×2 after its direct peak.
pub fn stretch_echoes(stereo: &[f32]) -> Vec<f32> {
    warp_after_peak(stereo, 0.5, 1.0)
}

/// Decay halved: the render compressed ×2 after its direct peak, ×√2 to keep the tail energy.
pub fn halve_decay(stereo: &[f32]) -> Vec<f32> {
    warp_after_peak(stereo, 2.0, std::f32::consts::SQRT_2)
}

#[cfg(test)]
mod tests;
