//! Room measurement, wet level, decay and the slot cross-fade into 4 sends (spec §6).

use std::sync::{Arc, OnceLock};

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::ray::cast::{Cast, first_hit_from_centre, first_hit_where};
use crate::ray::dda::WalkStats;
use crate::ray::dda::{CentreRay, StartSection};
use crate::world::material::MaterialTable;
use crate::world::probe::WorldProbe;

/// Measurement ray length (blocks).
pub const ROOM_RAY_LENGTH: f64 = 64.0;
/// Directions of the full spiral; the upper half (y > 0) is used.
pub const ROOM_DIRECTIONS: usize = 48;
/// Nominal decay times of the 4 reverb slots (s) (SPR slot table, adopted).
pub const SLOT_DECAYS: [f64; 4] = [0.15, 0.55, 1.68, 4.142];
/// Overall send scale `WET`.
pub const WET: f64 = 1.6;
/// Decay clamp (s).
pub const DECAY_MIN: f64 = 0.15;
/// Decay clamp (s).
pub const DECAY_MAX: f64 = 4.14;
/// Listener share of the sound's space (the source gets the rest).
pub const LISTENER_SHARE: f64 = 0.6;

/// What a point's surroundings are like.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Space {
    /// `Σ(1 − (t/64)²)/24`, 0 (open) … 1 (closed).
    pub enclosure: f64,
    /// Mean hit distance (blocks); the ray length (64) when nothing was hit.
    pub size: f64,
    /// Mean reflectivity of the hits; 0 when nothing was hit.
    pub reflectivity: f64,
}

impl Space {
    /// `a·share + b·(1 − share)` per value.
    #[must_use]
    pub fn mix(a: Self, b: Self, share: f64) -> Self {
        let m = |x: f64, y: f64| x * share + y * (1.0 - share);
        Self {
            enclosure: m(a.enclosure, b.enclosure),
            size: m(a.size, b.size),
            reflectivity: m(a.reflectivity, b.reflectivity),
        }
    }
}

/// A measurement with its cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpaceMeasure {
    /// The space.
    pub space: Space,
    /// Rays that hit.
    pub hits: u32,
    /// Rays cast.
    pub rays: u32,
    /// Walk counters.
    pub stats: WalkStats,
}

/// The 24 upper directions of the 48-point spiral `y_i = 1 − (2i+1)/48`, `θ_i = i·π(3 − √5)`.
#[must_use]
pub fn upper_directions() -> Vec<DVec3> {
    crate::echo::golden_spiral(ROOM_DIRECTIONS)
        .into_iter()
        .filter(|d| d.y > 0.0)
        .collect()
}

/// The room rays: the [`upper_directions`], [`ROOM_RAY_LENGTH`] long, kept for walks from cell
/// centres ([`CentreRay`]). Worked out once per process and shared (a model made per request
/// or per tick costs nothing for them).
#[must_use]
pub fn room_rays() -> Arc<[CentreRay]> {
    static RAYS: OnceLock<Arc<[CentreRay]>> = OnceLock::new();
    RAYS.get_or_init(|| {
        upper_directions()
            .into_iter()
            .filter_map(|d| CentreRay::new(d, ROOM_RAY_LENGTH))
            .collect()
    })
    .clone()
}

/// Measures the space around `point` (callers pass a cell centre). Cells of materials with
/// occlusion 0 (foliage) are not hits.
pub fn measure_space<P: WorldProbe + ?Sized>(
    probe: &P,
    materials: &MaterialTable,
    point: DVec3,
    directions: &[DVec3],
    budget: &mut Budget,
) -> SpaceMeasure {
    measure(materials, directions.len(), |i| {
        // Foliage (occlusion 0) makes no space (spec §6): room rays pass through it.
        first_hit_where(
            probe,
            point,
            directions[i],
            ROOM_RAY_LENGTH,
            budget,
            |mat, _| materials.get(mat).occlusion > 0.0,
        )
    })
}

/// [`measure_space`] around the centre of `cell` along kept rays ([`room_rays`]): the same
/// measurement, bit for bit, with the walks read from the kept cells.
pub fn measure_space_from<P: WorldProbe + ?Sized>(
    probe: &P,
    materials: &MaterialTable,
    cell: IVec3,
    rays: &[CentreRay],
    budget: &mut Budget,
) -> SpaceMeasure {
    // The rays all start in the cell's section.
    let mut start = StartSection::new(probe, cell);
    measure(materials, rays.len(), |i| {
        room_cast(&mut start, materials, cell, &rays[i], budget)
    })
}

/// One room ray from the centre of `cell`. Foliage (occlusion 0) makes no space (spec §6):
/// room rays pass through it.
#[inline]
fn room_cast<P: WorldProbe + ?Sized>(
    start: &mut StartSection<'_, P>,
    materials: &MaterialTable,
    cell: IVec3,
    ray: &CentreRay,
    budget: &mut Budget,
) -> Cast {
    first_hit_from_centre(start, cell, ray, budget, |mat, _| {
        materials.get(mat).occlusion > 0.0
    })
}

/// The space from `n` casts (`cast(i)` casts ray `i`).
fn measure(
    materials: &MaterialTable,
    n: usize,
    mut cast: impl FnMut(usize) -> Cast,
) -> SpaceMeasure {
    let mut sums = Sums::default();
    for i in 0..n {
        sums.add(materials, &cast(i));
    }
    sums.finish(n)
}

/// The sums of a space being measured, ray by ray.
#[derive(Default)]
struct Sums {
    out: SpaceMeasure,
    /// `Σ(1 − (t/64)²)` over the hits.
    weight: f64,
    /// Sum of the hit distances.
    dist: f64,
    /// Sum of the hit reflectivities.
    refl: f64,
}

impl Sums {
    /// Adds one ray's cast.
    fn add(&mut self, materials: &MaterialTable, cast: &Cast) {
        self.out.rays += 1;
        self.out.stats.merge(&cast.stats);
        if let Some(h) = cast.hit {
            let t = h.t.clamp(0.0, ROOM_RAY_LENGTH);
            self.weight += 1.0 - (t / ROOM_RAY_LENGTH).powi(2);
            self.dist += t;
            self.refl += materials.get(h.mat).reflectivity;
            self.out.hits += 1;
        }
    }

    /// The space over `n` rays.
    fn finish(self, n: usize) -> SpaceMeasure {
        let mut out = self.out;
        let n = n.max(1) as f64;
        out.space.enclosure = self.weight / n;
        if out.hits > 0 {
            let h = f64::from(out.hits);
            out.space.size = self.dist / h;
            out.space.reflectivity = self.refl / h;
        } else {
            out.space.size = ROOM_RAY_LENGTH;
        }
        out
    }
}

/// `smoothstep(e0, e1, x)`.
#[must_use]
pub fn smoothstep(e0: f64, e1: f64, x: f64) -> f64 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Wet level `smoothstep(0.03, 0.4, enclosure)`.
#[must_use]
pub fn wet(space: &Space) -> f64 {
    smoothstep(0.03, 0.4, space.enclosure)
}

/// Space decay `enclosure²·(0.4 + 0.1·min(size,30))·(0.6 + 0.8·refl)`, clamped 0.15–4.14 s.
#[must_use]
pub fn decay(space: &Space) -> f64 {
    let d = space.enclosure.powi(2)
        * (0.4 + 0.1 * space.size.min(30.0))
        * (0.6 + 0.8 * space.reflectivity);
    if d.is_nan() {
        DECAY_MIN
    } else {
        d.clamp(DECAY_MIN, DECAY_MAX)
    }
}

/// Slot amplitudes for decay `d`: equal-power cross-fade between the two adjacent slots on the
/// squared position (`a_hi = sin(πt²/2)`, `a_lo = cos(πt²/2)`, `t = ln(D/T_lo)/ln(T_hi/T_lo)`).
#[must_use]
pub fn slot_amplitudes(d: f64) -> [f64; 4] {
    let mut a = [0.0; 4];
    let d = if d.is_nan() {
        DECAY_MIN
    } else {
        d.clamp(SLOT_DECAYS[0], SLOT_DECAYS[3])
    };
    for k in 0..3 {
        let (lo, hi) = (SLOT_DECAYS[k], SLOT_DECAYS[k + 1]);
        // `<`: a decay exactly on a slot gets that slot alone (t = 0 of the next pair), not a
        // cos(π/2) ≈ 6e-17 residue on the slot below.
        if d < hi {
            let t = ((d / lo).ln() / (hi / lo).ln()).clamp(0.0, 1.0);
            let x = std::f64::consts::FRAC_PI_2 * t * t;
            a[k] = x.cos();
            a[k + 1] = x.sin();
            return a;
        }
    }
    a[3] = 1.0;
    a
}

/// Send distance fade `1 − min(d/(1.5·range), 1)` (SPR, adopted); 0 for a non-positive range.
#[must_use]
pub fn distance_fade(distance: f64, range: f64) -> f64 {
    if range > 0.0 && distance.is_finite() {
        1.0 - (distance / (1.5 * range)).min(1.0)
    } else {
        0.0
    }
}

/// Predicted decay of the slot mix: 2 × the time between the −5 dB and −35 dB crossings of
/// `EDC(τ) = Σ a_k²·exp(−13.82τ/T_k)` (normalised to EDC(0)). 0 when all amplitudes are 0.
#[must_use]
pub fn effective_decay(amplitudes: &[f64; 4]) -> f64 {
    let e0: f64 = amplitudes.iter().map(|a| a * a).sum();
    if e0 <= 0.0 || !e0.is_finite() {
        return 0.0;
    }
    // Only slots with a non-zero amplitude contribute (at most two from `slot_amplitudes`);
    // kept in place, without an allocation per call. EDC(τ) = Σ w·exp(k·τ).
    let mut terms = [(0.0f64, 0.0f64); 4];
    let mut n = 0;
    for (a, t) in amplitudes.iter().zip(SLOT_DECAYS) {
        if *a != 0.0 {
            terms[n] = (a * a / e0, -13.82 / t);
            n += 1;
        }
    }
    let terms = &terms[..n];
    let crossing = |level_db: f64| {
        let target = 10f64.powf(level_db / 10.0);
        let ln_target = target.ln();
        // Each slot alone crosses at ln(target)/k; the mix crosses between the earliest and
        // the latest of those (at the earliest, the other terms are still above the target).
        let mut tau = f64::INFINITY;
        for (_, k) in terms {
            tau = tau.min(ln_target / k);
        }
        if n == 1 {
            return tau;
        }
        // Newton's method on EDC(τ) − target, convex and falling: from the left of the
        // crossing each step lands closer without passing it, so the iterates rise to it
        // (a handful of steps, where halving [0, 4 s] took 40).
        for _ in 0..64 {
            let (mut f, mut slope) = (-target, 0.0);
            for (w, k) in terms {
                let e = w * (k * tau).exp();
                f += e;
                slope += k * e;
            }
            let next = tau - f / slope;
            // Rounding at the crossing (a step back, none, or a NaN): done.
            if next.partial_cmp(&tau) != Some(std::cmp::Ordering::Greater) {
                break;
            }
            tau = next;
        }
        tau
    };
    2.0 * (crossing(-35.0) - crossing(-5.0))
}

/// Sends, decay and wet level of a sound's space.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reverb {
    /// Wet level (0..1).
    pub wet: f64,
    /// Space decay (s).
    pub decay: f64,
    /// Slot amplitudes `a_k`.
    pub amplitudes: [f64; 4],
    /// `send_k = WET·wet·a_k·distance_fade`.
    pub sends: [f64; 4],
    /// Predicted decay of the slot mix (s), see [`effective_decay`].
    pub effective_decay: f64,
}

/// Derives the reverb parameters of a space for a sound `distance` away with voice `range`.
#[must_use]
pub fn reverb(space: &Space, distance: f64, range: f64) -> Reverb {
    let wet = wet(space);
    let decay = decay(space);
    let amplitudes = slot_amplitudes(decay);
    let fade = distance_fade(distance, range);
    let sends = amplitudes.map(|a| WET * wet * a * fade);
    Reverb {
        wet,
        decay,
        amplitudes,
        sends,
        effective_decay: effective_decay(&amplitudes),
    }
}

#[cfg(test)]
mod tests;
