//! The two random generators the retail ambient path draws from.
//!
//! - [`Ran2`]: `Random::rand` (HR `PORTAL/random/Random.c`, @ 0x0042C450–0x0042C600), Numerical
//!   Recipes' `ran2` — L'Ecuyer's combined LCG with a 32-entry Bays–Durham shuffle — plus
//!   `Random::RollDice(float, float)` as [`Ran2::roll_dice`].
//! - [`CrtRand`]: the MSVC C runtime `rand()` (0..=32767) that `SoundManager` uses for the
//!   table row's probability gate.
//!
//! Retail shares one global `ran2` across the whole client and seeds both generators with
//! `time(0)`, so retail sequences cannot be replayed; Resound gives each [`crate::Ambient`]
//! its own pair, seeded by the caller (spec `ambient-runtime.md` §8.2).

#[cfg(test)]
mod tests;

const IM1: i64 = 2_147_483_563;
const IM2: i64 = 2_147_483_399;
const AM: f64 = 1.0 / IM1 as f64;
const IMM1: i64 = IM1 - 1;
const IA1: i64 = 40_014;
const IA2: i64 = 40_692;
const NTAB: usize = 32;
const NDIV: i64 = 1 + IMM1 / NTAB as i64;
/// The largest value `Random::rand` returns (`RNMX = 1 − 1.2e-7`).
pub const RNMX: f64 = 0.999_999_88;

/// Numerical Recipes `ran2`, the generator behind retail `Random::rand`.
///
/// The state is kept as `u32` (every value lies in `0..=2³¹`), so the 32-entry shuffle table
/// takes 128 bytes (two cache lines) rather than 256.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran2 {
    idum: u32,
    idum2: u32,
    iy: u32,
    iv: [u32; NTAB],
}

/// One LCG step `s = a·s mod m`, exactly what retail's Schrage step (`k = s / q;
/// s = a·(s − k·q) − k·r; if s < 0 { s += m }`, with `m = a·q + r`) computes: Schrage's form only
/// avoids the 32-bit overflow of `a·s`, and gives `a·s mod m` for every `0 ≤ s ≤ 2³¹` (the seed's
/// magnitude included). Here `a·s < 2⁴⁷` is formed in 64 bits and reduced by the constant
/// modulus (a multiply and a shift, no signed-division fix-ups). Checked against the Schrage
/// form in `rng/tests.rs`.
#[inline(always)]
fn lcg_step(s: u32, a: i64, m: i64) -> u32 {
    ((a as u64 * u64::from(s)) % m as u64) as u32
}

impl Ran2 {
    /// `Random::Seed` (@ 0x0042C450 region): a seed of 0 becomes 1 (negative seeds use their
    /// magnitude), then 8 warm-up steps and the 32-entry shuffle table fill (NR's loop from
    /// `NTAB + 7` down to 0).
    #[must_use]
    pub fn new(seed: i32) -> Self {
        let mut idum = seed.unsigned_abs();
        if idum == 0 {
            idum = 1;
        }
        let idum2 = idum;
        let mut iv = [0_u32; NTAB];
        for j in (0..NTAB + 8).rev() {
            idum = lcg_step(idum, IA1, IM1);
            if j < NTAB {
                iv[j] = idum;
            }
        }
        Self {
            idum,
            idum2,
            iy: iv[0],
            iv,
        }
    }

    /// `Random::rand` (HR 0x42C4xx): the next uniform deviate in (0, 1), at most [`RNMX`].
    #[inline(always)]
    pub fn rand(&mut self) -> f64 {
        self.idum = lcg_step(self.idum, IA1, IM1);
        self.idum2 = lcg_step(self.idum2, IA2, IM2);
        // iy is always in [1, IMM1], so j is in [0, NTAB).
        let j = ((self.iy as u64 / NDIV as u64) as usize).min(NTAB - 1);
        let mut iy = i64::from(self.iv[j]) - i64::from(self.idum2);
        self.iv[j] = self.idum;
        if iy < 1 {
            iy += IMM1;
        }
        // iy lies in [1, IMM1] (iv[j] < IM1 and idum2 < IM2), so it fits.
        self.iy = iy as u32;
        let temp = AM * iy as f64;
        if temp > RNMX { RNMX } else { temp }
    }

    /// `Random::RollDice(float lo, float hi)` (HR `PORTAL/random/Random.c`): `lo` with no draw
    /// when `lo == hi`; otherwise the bounds are swapped if `hi < lo` and the result is
    /// `rand()·(hi − lo) + lo`, in `[lo, hi)`. Computed at double precision, returned as the
    /// retail `float`.
    #[inline]
    pub fn roll_dice(&mut self, lo: f32, hi: f32) -> f32 {
        #[allow(
            clippy::float_cmp,
            reason = "retail compares the two floats for equality"
        )]
        if lo == hi {
            return lo;
        }
        let (lo, hi) = if hi < lo { (hi, lo) } else { (lo, hi) };
        let u = self.rand();
        (u * (f64::from(hi) - f64::from(lo)) + f64::from(lo)) as f32
    }
}

/// The MSVC C runtime `rand()`: `state = state·214013 + 2531011`, output
/// `(state >> 16) & 0x7FFF`. `SoundManager::Init` seeds it with `srand(time(0))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrtRand {
    state: u32,
}

impl CrtRand {
    /// The upper bound of [`CrtRand::rand`] (`RAND_MAX`).
    pub const RAND_MAX: u16 = 0x7FFF;

    /// `srand(seed)`.
    #[must_use]
    pub fn new(seed: u32) -> Self {
        Self { state: seed }
    }

    /// `rand()`: the next value in `0..=32767`.
    #[inline]
    pub fn rand(&mut self) -> u16 {
        self.state = self.state.wrapping_mul(214_013).wrapping_add(2_531_011);
        ((self.state >> 16) & 0x7FFF) as u16
    }
}
