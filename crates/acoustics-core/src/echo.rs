//! Image-source echo finder (spec §5): planes from spiral rays, exact validation, taps.

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::ray::cast::first_hit;
use crate::ray::dda::WalkStats;
use crate::ray::occlusion::{OcclusionSettings, trace_occlusion};
use crate::world::material::{MaterialId, MaterialTable};
use crate::world::probe::{Cell, WorldProbe};
use crate::world::store::WORLD_LIMIT;

/// Speed of sound in m/s (1 block = 1 m).
pub const SPEED_OF_SOUND: f64 = 343.0;
/// Taps earlier than this after the direct sound are dropped (s).
pub const NEAR_CUT: f64 = 0.030;
/// Taps fade in linearly from [`NEAR_CUT`] to this delay (s).
pub const FADE_END: f64 = 0.050;
/// Most taps kept.
pub const MAX_TAPS: usize = 6;
/// Minimum spacing of kept taps (s).
pub const MIN_SPACING: f64 = 0.040;
/// A leg is clear if its occlusion is below this.
pub const CLEAR_LEG: f64 = 0.2;
/// Offset used to step off a plane onto its air side.
const PLANE_EPS: f64 = 1e-6;

/// An axis-aligned face plane found by a ray.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Plane {
    /// Axis (0 = x, 1 = y, 2 = z).
    pub axis: usize,
    /// Plane coordinate on that axis.
    pub coord: i32,
    /// Sign of the normal (+1/−1): the air side.
    pub normal_sign: i32,
}

/// One echo tap (plain value for the mixer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tap {
    /// Delay after the direct sound in seconds: `(path − d)/343`.
    pub delay: f64,
    /// Reflected path length S→P→L in blocks.
    pub path: f64,
    /// Level (before voice volume and `distance_gain(path)`).
    pub level: f32,
    /// High-band (5 kHz) gain of the tap's air one-pole: `0.994^(path − d)`, clamped 0.001..0.999.
    pub hf: f32,
    /// The one-pole cutoff in Hz for that gain: `5000/sqrt(1/hf² − 1)`.
    pub cutoff_hz: f32,
    /// Unit vector from the listener toward the reflection point (pan direction).
    pub direction: DVec3,
    /// Reflection point P.
    pub point: DVec3,
    /// The reflecting plane.
    pub plane: Plane,
    /// The solid cell behind P (the tap's anchor for cache invalidation).
    pub anchor: IVec3,
}

/// Why a plane gave no tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rejection {
    /// Source or listener is not on the plane's air side.
    NotAirSide,
    /// The cell behind the reflection point is not solid ("the wall is not there").
    BehindNotSolid,
    /// The cell in front of the reflection point is solid.
    FrontNotAir,
    /// A leg S→P or P→L is blocked (occlusion ≥ 0.2).
    LegBlocked,
    /// Delay below the 30 ms near cut.
    NearCut,
    /// The budget ran out while checking the legs.
    Budget,
    /// Malformed plane: axis not 0..=2, normal sign not ±1, or coordinate outside the
    /// supported world (±2^28).
    BadPlane,
}

/// A validated reflection before selection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The tap it would become.
    pub tap: Tap,
    /// Reflectivity of the anchor material.
    pub reflectivity: f64,
}

/// Energy a reflection sends toward the listener: `0.25·(0.75·refl + 0.25)` (adopted from SPR, §2.3).
#[must_use]
pub fn energy_towards_listener(reflectivity: f64) -> f64 {
    0.25 * (0.75 * reflectivity + 0.25)
}

/// Echo search settings.
#[derive(Clone, Debug, PartialEq)]
pub struct EchoSettings {
    /// Ray directions (unit vectors), cast from the source and again from the listener.
    pub directions: Vec<DVec3>,
    /// Ray length in blocks (300).
    pub ray_length: f64,
}

/// Outcome of an echo search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EchoSearch {
    /// Kept taps, by delay.
    pub taps: Vec<Tap>,
    /// Distinct planes found.
    pub planes: usize,
    /// Rejected planes with their reasons, in plane order.
    pub rejected: Vec<(Plane, Rejection)>,
    /// Rays cast.
    pub rays: u32,
    /// Walk counters of all rays and legs.
    pub stats: WalkStats,
}

/// Golden-angle (Fibonacci) sphere of `n` unit directions: `y = 1 − (2i+1)/n`,
/// `θ = i·π(3 − √5)` (Resound's spiral, spec §6).
#[must_use]
pub fn golden_spiral(n: usize) -> Vec<DVec3> {
    let golden = std::f64::consts::PI * (3.0 - 5.0f64.sqrt());
    let nf = n as f64;
    (0..n)
        .map(|i| {
            let fi = i as f64;
            let y = 1.0 - (2.0 * fi + 1.0) / nf;
            let r = (1.0 - y * y).max(0.0).sqrt();
            let th = fi * golden;
            DVec3::new(r * th.cos(), y, r * th.sin())
        })
        .collect()
}

/// Casts the rays from `origin` and collects the distinct planes they hit (sorted).
pub fn find_planes<P: WorldProbe + ?Sized>(
    probe: &P,
    origin: DVec3,
    settings: &EchoSettings,
    budget: &mut Budget,
    stats: &mut WalkStats,
    planes: &mut Vec<Plane>,
) -> u32 {
    let mut rays = 0;
    for dir in &settings.directions {
        rays += 1;
        let cast = first_hit(probe, origin, *dir, settings.ray_length, budget);
        stats.merge(&cast.stats);
        if let Some(h) = cast.hit {
            planes.push(Plane {
                axis: h.axis,
                coord: h.plane,
                normal_sign: h.normal_sign,
            });
        }
    }
    rays
}

fn on_air_side(p: DVec3, plane: &Plane) -> bool {
    (p[plane.axis] - f64::from(plane.coord)) * f64::from(plane.normal_sign) > 0.0
}

/// Validates one plane for source `s` and listener `l` exactly as spec §5 step 2 says and, if it
/// holds, computes the tap (steps 3–5, 7, 8). The near cut is applied here (`Rejection::NearCut`).
///
/// # Errors
/// The [`Rejection`] reason.
pub fn validate_plane<P: WorldProbe + ?Sized>(
    probe: &P,
    materials: &MaterialTable,
    s: DVec3,
    l: DVec3,
    plane: Plane,
    budget: &mut Budget,
    stats: &mut WalkStats,
) -> Result<Candidate, Rejection> {
    if plane.axis > 2
        || !matches!(plane.normal_sign, 1 | -1)
        || plane.coord <= -WORLD_LIMIT
        || plane.coord >= WORLD_LIMIT
    {
        return Err(Rejection::BadPlane);
    }
    let a = plane.axis;
    if !on_air_side(s, &plane) || !on_air_side(l, &plane) {
        return Err(Rejection::NotAirSide);
    }
    let c = f64::from(plane.coord);
    let mut image = s;
    image[a] = 2.0 * c - s[a];
    let denom = l[a] - image[a];
    if denom == 0.0 {
        return Err(Rejection::NotAirSide);
    }
    let t = (c - image[a]) / denom;
    let p = image + (l - image) * t;
    let mut behind = p.floor().as_ivec3();
    let mut front = behind;
    if plane.normal_sign > 0 {
        behind[a] = plane.coord - 1;
        front[a] = plane.coord;
    } else {
        behind[a] = plane.coord;
        front[a] = plane.coord - 1;
    }
    let Cell::Solid { mat, .. } = probe.cell(behind) else {
        return Err(Rejection::BehindNotSolid);
    };
    if probe.cell(front).is_solid() {
        return Err(Rejection::FrontNotAir);
    }
    let mut p_front = p;
    p_front[a] += f64::from(plane.normal_sign) * PLANE_EPS;
    let settings = OcclusionSettings::default();
    let leg1 = trace_occlusion(probe, materials, s, p_front, &settings, budget);
    stats.merge(&leg1.stats);
    if leg1.stats.end == crate::ray::dda::WalkEnd::BudgetExhausted {
        return Err(Rejection::Budget);
    }
    if leg1.occ >= CLEAR_LEG {
        return Err(Rejection::LegBlocked);
    }
    let leg2 = trace_occlusion(probe, materials, p_front, l, &settings, budget);
    stats.merge(&leg2.stats);
    if leg2.stats.end == crate::ray::dda::WalkEnd::BudgetExhausted {
        return Err(Rejection::Budget);
    }
    if leg2.occ >= CLEAR_LEG {
        return Err(Rejection::LegBlocked);
    }
    let d = (l - s).length();
    let path = (l - image).length();
    let delay = (path - d) / SPEED_OF_SOUND;
    if delay < NEAR_CUT {
        return Err(Rejection::NearCut);
    }
    let fade = ((delay - NEAR_CUT) / (FADE_END - NEAR_CUT)).clamp(0.0, 1.0);
    let reflectivity = materials.get(mat).reflectivity;
    let level = (2.0 * energy_towards_listener(reflectivity)).min(0.85)
        * (d.max(4.0) / path).min(1.0)
        * fade;
    let g = 0.994f64.powf(path - d).clamp(0.001, 0.999);
    let cutoff = 5000.0 / (1.0 / (g * g) - 1.0).sqrt();
    let direction = (p - l).try_normalize().unwrap_or(DVec3::ZERO);
    Ok(Candidate {
        tap: Tap {
            delay,
            path,
            level: level as f32,
            hf: g as f32,
            cutoff_hz: cutoff as f32,
            direction,
            point: p,
            plane,
            anchor: behind,
        },
        reflectivity,
    })
}

/// Keeps at most 6 strongest taps, each ≥ 40 ms from the others (greedy, strongest first;
/// ties by delay then plane). Returns them sorted by delay.
#[must_use]
pub fn select_taps(mut candidates: Vec<Tap>) -> Vec<Tap> {
    candidates.sort_by(|x, y| {
        y.level
            .total_cmp(&x.level)
            .then(x.delay.total_cmp(&y.delay))
            .then(x.plane.cmp(&y.plane))
    });
    let mut kept: Vec<Tap> = Vec::new();
    for c in candidates {
        if kept.len() >= MAX_TAPS {
            break;
        }
        if kept
            .iter()
            .all(|k| (k.delay - c.delay).abs() >= MIN_SPACING)
        {
            kept.push(c);
        }
    }
    kept.sort_by(|x, y| x.delay.total_cmp(&y.delay));
    kept
}

/// Full echo search: rays from source and listener, plane dedup, validation (plus any
/// `extra_planes`), selection.
pub fn find_echoes<P: WorldProbe + ?Sized>(
    probe: &P,
    materials: &MaterialTable,
    s: DVec3,
    l: DVec3,
    settings: &EchoSettings,
    extra_planes: &[Plane],
    budget: &mut Budget,
) -> EchoSearch {
    let mut out = EchoSearch::default();
    let mut planes = extra_planes.to_vec();
    out.rays += find_planes(probe, s, settings, budget, &mut out.stats, &mut planes);
    out.rays += find_planes(probe, l, settings, budget, &mut out.stats, &mut planes);
    planes.sort();
    planes.dedup();
    out.planes = planes.len();
    let mut candidates = Vec::new();
    for plane in planes {
        match validate_plane(probe, materials, s, l, plane, budget, &mut out.stats) {
            Ok(c) => candidates.push(c.tap),
            Err(r) => out.rejected.push((plane, r)),
        }
    }
    out.taps = select_taps(candidates);
    out
}

/// The material id of a tap's anchor cell (helper for hosts).
#[must_use]
pub fn anchor_material<P: WorldProbe + ?Sized>(probe: &P, tap: &Tap) -> Option<MaterialId> {
    match probe.cell(tap.anchor) {
        Cell::Solid { mat, .. } => Some(mat),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
