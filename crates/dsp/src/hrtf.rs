//! Binaural rendering through head-related impulse responses (HRTF), issue 33.
//!
//! | module | holds |
//! |---|---|
//! | [`direction`] | the axes (head coordinates: x right, y up, −z forward, the engine's listener axes), [`head_direction`] (world offset + listener forward/up → head coordinates), [`azimuth_elevation`], [`from_azimuth_elevation`] (AES69 angles: azimuth counter-clockwise from ahead, +90° = left) |
//! | [`set`] | [`HrirSet`]: measured responses on a sphere of directions at one rate (`new`, `resampled`, `weights`, `interpolate`), limits [`MAX_DIRECTIONS`], [`MAX_FILTER_TAPS`] |
//! | [`rings`] | the interpolation: bilinear in azimuth/elevation over the measured elevation rings, at most four measurements ([`Weights`]) |
//! | [`sofa`] | `HrirSet::from_sofa_bytes` / `from_sofa_file`: AES69 `SimpleFreeFieldHRIR` files, resampled to the mix rate; size limits |
//! | [`resample`] | whole-response rate conversion (rubato's FFT resampler), load time only |
//! | `ircam` | (feature `hrtf-default`) `HrirSet::ircam_1040`: IRCAM LISTEN subject 1040 from `firewheel-ircam-hrtf`, with its source and terms |
//! | [`bank`] | [`HrtfBank`]: a set's responses as partitioned spectra ([`PARTITION`] = 128 frames), shared by renderers |
//! | `kernels` | the renderer's hot loops (filter blend, spectral multiply-accumulate, both ears packed into one complex inverse transform, crossfade), baseline and AVX2 with identical bits |
//! | [`renderer`] | [`BinauralRenderer`]: mono in, stereo out, uniformly partitioned overlap-save convolution, direction glide and per-partition crossfade, no allocation after `new`, latency [`LATENCY_FRAMES`] |
//! | [`error`] | [`HrirError`] |
//!
//! Typical use: `HrirSet::from_sofa_file(path, 48_000.0)?` (or `ircam_1040`), then
//! `Arc::new(HrtfBank::new(set))` once, then one [`BinauralRenderer`] per voice.

pub mod bank;
pub mod direction;
pub mod error;
#[cfg(feature = "hrtf-default")]
pub mod ircam;
mod kernels;
pub mod renderer;
pub mod resample;
pub mod rings;
pub mod set;
pub mod sofa;

pub use bank::{HrtfBank, PARTITION};
pub use direction::{azimuth_elevation, from_azimuth_elevation, head_direction};
pub use error::HrirError;
pub use renderer::{BinauralRenderer, DIRECTION_SMOOTHING_S, LATENCY_FRAMES};
pub use rings::Weights;
pub use set::{HrirSet, MAX_DIRECTIONS, MAX_FILTER_TAPS};
