//! Wider vectors where the CPU has them: the hot kernels compiled twice.
//!
//! The workspace builds for the x86-64 baseline (SSE2), which every 64-bit x86 CPU runs. The
//! few loops that decide the mixer's cost per voice-frame (the resampler, the gain mixes)
//! are also compiled with AVX2 (256-bit registers, twice the lanes) and chosen at run time
//! when the CPU has it ([`avx2`]). FMA is **not** enabled: both versions perform the same
//! IEEE-754 operations (separate multiply and add, no contraction) in the same order, so
//! they give identical bits; only the number of lanes per instruction differs. A test
//! renders every mixer scene both ways and compares the output bit for bit.
//!
//! The one global of the crate lives here: [`set_avx2_enabled`] turns the AVX2 versions off
//! (for that comparison, or to rule them out when chasing a problem). The check is one
//! relaxed atomic load; CPU detection runs once (std caches it) and never allocates or locks.

use std::sync::atomic::{AtomicBool, Ordering};

/// False when the AVX2 kernels were turned off with [`set_avx2_enabled`].
static ALLOWED: AtomicBool = AtomicBool::new(true);

/// True when the kernels run their AVX2 versions: the CPU has AVX2 and they were not turned
/// off. Always false off x86-64.
#[inline]
#[must_use]
pub fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        ALLOWED.load(Ordering::Relaxed) && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Allows (`true`, the default) or forbids the AVX2 versions of the kernels, process-wide.
/// Results are identical either way; only speed changes. Returns the previous setting.
pub fn set_avx2_enabled(on: bool) -> bool {
    ALLOWED.swap(on, Ordering::Relaxed)
}

/// Defines a function whose body is compiled twice, for the build's baseline and with AVX2,
/// and runs the AVX2 copy when [`avx2`] is true. The body is ordinary safe Rust; what makes
/// it faster is the compiler vectorising its loops with the wider registers.
///
/// Supports const generics and `impl Trait` arguments; not lifetimes in the signature
/// (elided lifetimes are fine).
macro_rules! multiversion {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident $(<$(const $g:ident : $gt:ty),* $(,)?>)?
            ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)?
        $body:block
    ) => {
        $(#[$attr])*
        $vis fn $name $(<$(const $g: $gt),*>)? ($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body $(<$(const $g: $gt),*>)? ($($arg: $ty),*) $(-> $ret)? $body

            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            fn wide $(<$(const $g: $gt),*>)? ($($arg: $ty),*) $(-> $ret)? {
                body $(::<$($g),*>)? ($($arg),*)
            }

            #[cfg(target_arch = "x86_64")]
            if $crate::simd::avx2() {
                #[allow(unsafe_code)]
                // SAFETY: the one requirement of calling a `#[target_feature(enable = "avx2")]`
                // function is that the running CPU has AVX2, which `avx2()` has just checked
                // (`is_x86_feature_detected!`). The function itself is safe code.
                return unsafe { wide $(::<$($g),*>)? ($($arg),*) };
            }
            body $(::<$($g),*>)? ($($arg),*)
        }
    };
}

pub(crate) use multiversion;
