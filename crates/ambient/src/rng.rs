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
const IQ1: i64 = 53_668;
const IQ2: i64 = 52_774;
const IR1: i64 = 12_211;
const IR2: i64 = 3_791;
const NTAB: usize = 32;
const NDIV: i64 = 1 + IMM1 / NTAB as i64;
/// The largest value `Random::rand` returns (`RNMX = 1 − 1.2e-7`).
pub const RNMX: f64 = 0.999_999_88;

/// Numerical Recipes `ran2`, the generator behind retail `Random::rand`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran2 {
    idum: i64,
    idum2: i64,
    iy: i64,
    iv: [i64; NTAB],
}

/// One Schrage step `s = a·s mod m` without overflow.
fn schrage(s: i64, a: i64, q: i64, r: i64, m: i64) -> i64 {
    let k = s / q;
    let next = a * (s - k * q) - k * r;
    if next < 0 { next + m } else { next }
}

impl Ran2 {
    /// `Random::Seed` (@ 0x0042C450 region): a seed of 0 becomes 1 (negative seeds use their
    /// magnitude), then 8 warm-up steps and the 32-entry shuffle table fill (NR's loop from
    /// `NTAB + 7` down to 0).
    #[must_use]
    pub fn new(seed: i32) -> Self {
        let mut idum = i64::from(seed).abs();
        if idum == 0 {
            idum = 1;
        }
        let idum2 = idum;
        let mut iv = [0_i64; NTAB];
        for j in (0..NTAB + 8).rev() {
            idum = schrage(idum, IA1, IQ1, IR1, IM1);
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
    pub fn rand(&mut self) -> f64 {
        self.idum = schrage(self.idum, IA1, IQ1, IR1, IM1);
        self.idum2 = schrage(self.idum2, IA2, IQ2, IR2, IM2);
        // iy is always in [1, IMM1], so j is in [0, NTAB).
        let j = usize::try_from(self.iy / NDIV).unwrap_or(0).min(NTAB - 1);
        self.iy = self.iv[j] - self.idum2;
        self.iv[j] = self.idum;
        if self.iy < 1 {
            self.iy += IMM1;
        }
        let temp = AM * self.iy as f64;
        if temp > RNMX { RNMX } else { temp }
    }

    /// `Random::RollDice(float lo, float hi)` (HR `PORTAL/random/Random.c`): `lo` with no draw
    /// when `lo == hi`; otherwise the bounds are swapped if `hi < lo` and the result is
    /// `rand()·(hi − lo) + lo`, in `[lo, hi)`. Computed at double precision, returned as the
    /// retail `float`.
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
    pub fn rand(&mut self) -> u16 {
        self.state = self.state.wrapping_mul(214_013).wrapping_add(2_531_011);
        ((self.state >> 16) & 0x7FFF) as u16
    }
}
