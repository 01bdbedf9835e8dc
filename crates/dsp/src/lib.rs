//! Allocation-free DSP building blocks for the Resound mixer.
//!
//! Spec: `docs/spec/acoustics.md` §4 (shelf), §5 (taps), §6 (reverb bus), §7 (voice
//! chain), §10 (costs). Runtime dependencies: `wide`; for [`hrtf`] `realfft`, `rubato` and `sofar`
//! (load time only); [`analysis`]'s spectra use `realfft`. No threads; one global, the
//! AVX2 switch of [`simd`].
//!
//! Architecture invariant: **dsp never allocates after `new`/`prepare`.** Every
//! processor follows the same shape:
//!
//! - `new(..)` builds it (prepared for 48 kHz), `prepare(sample_rate, max_block)` sizes
//!   its buffers for a sample rate (only [`ReverbBus`] owns buffers);
//! - `process(..)` works in place on `&mut [f32]`, `mix(..)` *adds* into output slices;
//!   neither allocates, locks or panics;
//! - `reset()` returns to the state right after construction + `prepare`, exactly;
//! - parameters are clamped to documented ranges, NaN is ignored or replaced, and
//!   outputs are finite for finite inputs;
//! - parameter changes ramp (see [`smoothing`]) on a fixed 64-frame grid, so a signal
//!   processed in one block, in any split, or sample by sample gives identical bits
//!   (for [`EchoTaps`] and [`render_linear`] when the caller's split positions are exact
//!   in 32.32 fixed point, e.g. an integer frame count times a dyadic step);
//! - hot loops run over plain `f32` slices without bounds checks in their inner loops;
//!   the only serial parts are the filter recursions.
//!
//! # Contents
//!
//! | module | holds |
//! |---|---|
//! | [`smoothing`] | [`Smoothed`] (exponential approach in linear 64-frame segments; `advance_all` moves several on one grid together), [`SmoothedSet`] (several on one grid stored as arrays: a voice's gains, a shelf bank's gains and hfs; ramps out as a [`smoothing::RampSet`]), [`LinearRamp`] (fixed-time linear), [`Ramp`], time constants: shelf 80 ms, sends 0.3 s, tap fades 50 ms, pan 50 ms |
//! | [`one_pole`] | [`OnePoleLowPass`], [`OnePoleHighPass`], [`lowpass_coefficient`], [`air_cutoff_hz`], [`air_coefficient`] |
//! | [`shelf`] | [`OcclusionShelf`]: `set_targets(gain, hf)`, `set_immediate`, `process(&mut [f32])`, `process_lanes` (up to 4 steady shelves side by side), `process_bufs` (up to [`shelf::BANK_LANES`] = 8 steady or ramping shelves side by side, the mixer's path, interleaved by AVX2 8×8 transposes; both bit-identical to `process`), exact unity bypass, [`OcclusionShelf::analytic_magnitude`] |
//! | [`gain`] | [`SmoothedGain`] (volume, reverb sends: `process`, `mix(input, output)`, `skip`), [`apply_ramp`], [`mix_ramp`] |
//! | [`mix`] | one pass into several outputs: [`mix::mix_stereo`], [`mix::mix_stereo_ramped`], [`mix::SixOutputs`] (dry pair and four sends, constant or ramped; `mix_pieces` mixes a run of smoothing segments in one call) |
//! | [`simd`] | the hot kernels compiled for the baseline and for AVX2, chosen at run time ([`simd::avx2`], [`simd::set_avx2_enabled`]); identical bits either way |
//! | [`pan`] | [`equal_power_pan`], [`StereoPanner`] (`set_target(pan, gain)`, `mix(input, left, right)`) |
//! | [`interpolate`] | the one linear-interpolation resampler, 32.32 fixed-point positions: voices ([`resample`], [`resample_mix`], [`step_for`]; looping or one-shot; an AVX2 loop for sources at or below the mix rate; [`interpolate::prefetch`] starts loading what a voice reads next) and taps ([`read_linear`], [`render_linear`]: `f64` positions, zero outside the buffer) |
//! | [`oversample`] | the Modern resampler's load-time half: [`oversample::oversample`] raises a sound by [`oversample::factor_for`] its rate (to ≥ 44.1 kHz) through a 64-tap-per-phase Kaiser-windowed sinc |
//! | [`cubic`] | the Modern resampler's real-time half: the 4-point Lagrange read of a raised buffer, same positions as [`interpolate`]: voices ([`resample_cubic`], [`resample_cubic_mix`]) and taps ([`render_cubic`], [`read_cubic`]) |
//! | [`tap`] | [`EchoTaps`] (`set_taps(&[TapParams])`, `mix(source, position, step, left, right)`, `max_delay_s`), [`TapParams`] |
//! | [`reverb`] | [`ReverbBus`] (`mix([&[f32]; 4], left, right)`, idle skip), [`ReverbBusSettings`], [`ReverbSlotSettings`] |
//! | [`limiter`] | [`PeakLimiter`] (`process(left, right)`, `process_interleaved`, `engagements`, `peak`) |
//! | [`denormal`] | [`flush`] (branch-free epsilon flush), [`flush_small`], [`is_denormal`] |
//! | [`hrtf`] | binaural rendering: [`HrirSet`] (measured HRIRs; SOFA loading, resampling, bilinear az/el interpolation; feature `hrtf-default`: IRCAM LISTEN 1040), [`HrtfBank`] (partitioned spectra), [`BinauralRenderer`] (mono → stereo, partitioned FFT convolution, crossfaded direction changes) |
//! | [`analysis`] | test/measurement helpers (allocate; not for the audio thread): [`analysis::sine`], [`analysis::max_adjacent_difference`] (click measure), [`analysis::schroeder_t30`], [`analysis::window_energies`], [`analysis::has_denormal`], [`analysis::worst_image_db`] and [`analysis::spectrum_db`] (resampler images), [`analysis::rms`], [`analysis::interaural_time_difference_s`] (cross-correlation lag), [`analysis::band_energy_db`] (plain DFT band energy) |
//!
//! Denormals are flushed arithmetically ([`denormal`]); no FTZ/DAZ flag is set.

pub mod analysis;
pub mod cubic;
pub mod denormal;
pub mod gain;
pub mod hrtf;
pub mod interpolate;
pub mod limiter;
pub mod mix;
pub mod one_pole;
pub mod oversample;
pub mod pan;
pub mod reverb;
pub mod shelf;
pub mod simd;
pub mod smoothing;
pub mod tap;

#[cfg(test)]
mod tests;

pub use cubic::{read_cubic, render_cubic, resample_cubic, resample_cubic_mix};
pub use denormal::{flush, flush_small, is_denormal};
pub use gain::{SmoothedGain, apply_ramp, mix_ramp};
pub use hrtf::{BinauralRenderer, HrirError, HrirSet, HrtfBank};
pub use interpolate::{read_linear, render_linear, resample, resample_mix, step_for};
pub use limiter::PeakLimiter;
pub use one_pole::{
    OnePoleHighPass, OnePoleLowPass, air_coefficient, air_cutoff_hz, lowpass_coefficient,
};
pub use pan::{StereoPanner, equal_power_pan};
pub use reverb::{DECAY_BANDS, REVERB_SLOTS, ReverbBus, ReverbBusSettings, ReverbSlotSettings};
pub use shelf::OcclusionShelf;
pub use smoothing::{LinearRamp, RAMP_SEGMENT, Ramp, Smoothed, SmoothedSet};
pub use tap::{EchoTaps, MAX_TAPS, TapParams};

/// Lowest and highest accepted sample rates (Hz); others are clamped, NaN → 48 kHz.
pub const SAMPLE_RATE_RANGE: (f32, f32) = (8_000.0, 384_000.0);

/// Clamps `x` to `lo..=hi`; NaN gives `default`.
#[inline]
pub(crate) fn sanitize(x: f32, lo: f32, hi: f32, default: f32) -> f32 {
    if x.is_nan() { default } else { x.clamp(lo, hi) }
}

/// Clamps a sample rate to [`SAMPLE_RATE_RANGE`] (NaN → 48 kHz).
#[inline]
pub(crate) fn sanitize_sample_rate(fs: f32) -> f32 {
    sanitize(fs, SAMPLE_RATE_RANGE.0, SAMPLE_RATE_RANGE.1, 48_000.0)
}

/// Minimal complex arithmetic for analytic responses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Complex {
    re: f64,
    im: f64,
}

impl Complex {
    pub(crate) fn new(re: f64, im: f64) -> Self {
        Self { re, im }
    }
    pub(crate) fn add(self, o: Self) -> Self {
        Self::new(self.re + o.re, self.im + o.im)
    }
    pub(crate) fn sub(self, o: Self) -> Self {
        Self::new(self.re - o.re, self.im - o.im)
    }
    pub(crate) fn mul(self, o: Self) -> Self {
        Self::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
    pub(crate) fn div(self, o: Self) -> Self {
        let d = o.re * o.re + o.im * o.im;
        Self::new(
            (self.re * o.re + self.im * o.im) / d,
            (self.im * o.re - self.re * o.im) / d,
        )
    }
    pub(crate) fn scale(self, k: f64) -> Self {
        Self::new(self.re * k, self.im * k)
    }
    pub(crate) fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
}
