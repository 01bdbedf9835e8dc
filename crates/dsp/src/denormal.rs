//! Denormal protection.
//!
//! Feedback loops (one-pole states, comb and allpass lines) decay towards zero and would
//! pass through subnormal numbers, which are slow on many CPUs. Resound flushes them with
//! plain arithmetic, so results are identical on every platform and no `unsafe` CPU-flag
//! change (FTZ/DAZ) is needed:
//!
//! - [`flush`] adds and subtracts [`FLUSH_OFFSET`]; any value smaller than about 1e-25 in
//!   magnitude becomes exactly 0, larger values change by at most one rounding of 1e-25.
//!   Used on every write into a delay line.
//! - [`flush_small`] zeroes a recursion state below [`STATE_FLOOR`]; processors call it
//!   on their fixed [`crate::RAMP_SEGMENT`] grid, often enough that a decaying state
//!   cannot reach the subnormal range in between.

/// Offset used by [`flush`]: `(x + 1e-18) - 1e-18` is exactly 0 for `|x| < ~1e-25`.
pub const FLUSH_OFFSET: f32 = 1e-18;

/// States below this magnitude are set to 0 by [`flush_small`] (-300 dB).
pub const STATE_FLOOR: f32 = 1e-15;

/// Branch-free flush of tiny values to zero (see the module docs). Vectorises.
#[inline(always)]
#[must_use]
pub fn flush(x: f32) -> f32 {
    (x + FLUSH_OFFSET) - FLUSH_OFFSET
}

/// Returns 0 if `|x| < STATE_FLOOR` (or `x` is not finite), else `x`.
#[inline]
#[must_use]
pub fn flush_small(x: f32) -> f32 {
    if x.abs() < STATE_FLOOR || !x.is_finite() {
        0.0
    } else {
        x
    }
}

/// True if `x` is a subnormal (denormal) number.
#[inline]
#[must_use]
pub fn is_denormal(x: f32) -> bool {
    x != 0.0 && x.abs() < f32::MIN_POSITIVE
}
