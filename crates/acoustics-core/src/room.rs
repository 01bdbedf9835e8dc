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
/// Bands of the physical decay: low (< 500 Hz), mid (500 Hz – 2 kHz), high (> 2 kHz).
pub const BANDS: usize = 3;
/// Air's energy attenuation `m` (1/m) per band, 20 °C, 50 % RH (ISO 9613-1 as listed in
/// `physics-reference.md`): the mean of the band's two octaves (125+250 Hz, 500 Hz+1 kHz,
/// 2+4 kHz).
pub const AIR_M: [f64; BANDS] = [0.0002, 0.00085, 0.00455];
/// Height of the listener's ear above the floor (blocks = metres) the physical estimate
/// assumes: the room rays look only upward (a floor makes no room, §6), so the lower half of
/// the room is the upper half's walls cut by a floor this far down.
pub const EAR_HEIGHT: f64 = 1.5;
/// Band spread the bus renders truthfully: the low band's decay within this range × the mid
/// band's. The bus voices its tail to the mid band (`resound_dsp::reverb`, band-pass 200 Hz –
/// 2.5 kHz), so a click's broadband T30 is the mid band's; within these spreads it stays
/// within ±9 % of it with one slope (measured: `resound-dsp` test
/// `broadband_t30_of_a_voiced_tail_follows_the_mid_band_with_one_slope`). A wider spread
/// would make the reported decay a figure no listener measures, so the bands are clamped to
/// it and the clamp reported ([`Space::decay_clamped`]).
pub const LOW_SPREAD: (f64, f64) = (0.6, 1.3);
/// Band spread of the high band re the mid band (see [`LOW_SPREAD`]).
pub const HIGH_SPREAD: (f64, f64) = (0.5, 1.2);
/// Sabine's constant `24·ln(10)/c` (s/m) at c = 343 m/s.
pub const SABINE: f64 = 0.161;
/// Smallest cosine of incidence a surface patch is counted with (a grazing patch's area
/// `t²·dΩ/cos` is capped at 10× its perpendicular area).
const COS_MIN: f64 = 0.1;

/// Which formula gives a space's decay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DecayModel {
    /// Eyring per band from the volume, surface and absorption the room rays see, plus air
    /// absorption ([`physical_decay`]); Resound's own model's default.
    #[default]
    Physical,
    /// SPR's game heuristic `enclosure²·(0.4 + 0.1·min(size,30))·(0.6 + 0.8·refl)` ([`decay`]),
    /// the same for every band; for SPR parity.
    Spr,
}

/// What a point's surroundings are like.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Space {
    /// `Σ(1 − (t/64)²)/24`, 0 (open) … 1 (closed).
    pub enclosure: f64,
    /// Mean hit distance (blocks); the ray length (64) when nothing was hit.
    pub size: f64,
    /// Mean reflectivity of the hits; 0 when nothing was hit.
    pub reflectivity: f64,
    /// Physical decay estimate per band (low, mid, high), s, clamped to what the bus renders
    /// ([`physical_decay`], [`clamp_to_bus`]).
    pub decay_bands: [f64; BANDS],
    /// True when Eyring's estimate lay outside what the bus renders ([`clamp_to_bus`]: a band
    /// outside [`DECAY_MIN`]..=[`DECAY_MAX`], or the low or high band outside its spread re
    /// the mid band) and [`Space::decay_bands`] hold the clamped values.
    pub decay_clamped: bool,
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
            decay_bands: std::array::from_fn(|k| m(a.decay_bands[k], b.decay_bands[k])),
            decay_clamped: (a.decay_clamped && share > 0.0) || (b.decay_clamped && share < 1.0),
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
    /// Volume, surface and absorption the rays see ([`RoomGeometry`]).
    pub geometry: RoomGeometry,
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
    measure(materials, directions, |i| {
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
    let dirs = upper_directions_cached();
    let dirs = &dirs[..rays.len().min(dirs.len())];
    measure(materials, dirs, |i| {
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

/// The [`upper_directions`], worked out once per process (the directions of [`room_rays`]).
fn upper_directions_cached() -> &'static [DVec3] {
    static DIRS: OnceLock<Vec<DVec3>> = OnceLock::new();
    DIRS.get_or_init(upper_directions)
}

/// The space from one cast per direction (`cast(i)` casts along `directions[i]`).
fn measure(
    materials: &MaterialTable,
    directions: &[DVec3],
    mut cast: impl FnMut(usize) -> Cast,
) -> SpaceMeasure {
    let mut sums = Sums::default();
    for (i, d) in directions.iter().enumerate() {
        sums.add(materials, *d, &cast(i));
    }
    sums.finish(directions.len())
}

/// What the room rays say about the room's size and surfaces, for Eyring's formula: each ray
/// stands for the solid angle `dΩ = 2π/n` of the upper half around it; the room is taken as
/// star-shaped round the listener, so a ray whose wall is `t` away adds `t³·dΩ/3` of volume
/// and `t²·dΩ/cos θ` of surface (θ its incidence on the face it hit). The lower half mirrors
/// the upper one (`y → −y`) cut by a floor [`EAR_HEIGHT`] below: a mirrored ray meets the same
/// wall, or the floor first (at `EAR_HEIGHT/y`), which takes the ray's material. A ray that
/// hits nothing within [`ROOM_RAY_LENGTH`] ends in an opening that absorbs everything.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RoomGeometry {
    /// Estimated volume (m³).
    pub volume: f64,
    /// Estimated bounding surface, openings included (m²).
    pub surface: f64,
    /// Equivalent absorption area `Σ S_i·α_i` per band (m²), openings at α = 1.
    pub absorption_area: [f64; BANDS],
}

impl RoomGeometry {
    /// Adds one ray of direction `d` (unit, `d.y > 0`): `None` for a miss, else the hit's
    /// distance, face axis and material absorption. Unscaled by `dΩ` ([`RoomGeometry::scaled`]).
    fn add_ray(&mut self, d: DVec3, hit: Option<(f64, usize, [f64; BANDS])>) {
        let (t, cos, alpha) = match hit {
            Some((t, axis, alpha)) => (t, d[axis.min(2)].abs().max(COS_MIN), alpha),
            None => (ROOM_RAY_LENGTH, 1.0, [1.0; BANDS]),
        };
        self.patch(t, cos, alpha);
        let y = d.y.max(COS_MIN);
        let floor = EAR_HEIGHT / y;
        if floor < t {
            // The mirrored ray meets the floor first; a floor is solid wherever the upper
            // ray found a wall (else it is ground of the default material).
            let floor_alpha = if hit.is_some() {
                alpha
            } else {
                crate::world::material::band_absorption("brick")
            };
            self.patch(floor, y, floor_alpha);
        } else {
            self.patch(t, cos, alpha);
        }
    }

    fn patch(&mut self, t: f64, cos: f64, alpha: [f64; BANDS]) {
        self.volume += t * t * t / 3.0;
        let s = t * t / cos;
        self.surface += s;
        for (a, al) in self.absorption_area.iter_mut().zip(alpha) {
            *a += s * al.clamp(0.0, 1.0);
        }
    }

    /// The sums scaled by the solid angle of each of `n` rays over the upper half (`2π/n`).
    fn scaled(self, n: usize) -> Self {
        let w = std::f64::consts::TAU / n.max(1) as f64;
        Self {
            volume: self.volume * w,
            surface: self.surface * w,
            absorption_area: self.absorption_area.map(|a| a * w),
        }
    }

    /// Eyring's reverberation time per band, `0.161·V/(−S·ln(1 − ᾱ) + 4·m·V)`, with
    /// `ᾱ = A/S` (capped at 0.999) and `m` = [`AIR_M`]; unclamped. 0 for an empty room.
    #[must_use]
    pub fn eyring(&self) -> [f64; BANDS] {
        std::array::from_fn(|b| {
            eyring(
                self.volume,
                self.surface,
                self.absorption_area[b] / self.surface.max(1e-12),
                AIR_M[b],
            )
        })
    }
}

/// Eyring's `T60 = 0.161·V/(−S·ln(1 − ᾱ) + 4·m·V)` (s); `ᾱ` capped at 0.999; 0 for `V ≤ 0`
/// or `S ≤ 0`.
#[must_use]
pub fn eyring(volume: f64, surface: f64, mean_alpha: f64, air_m: f64) -> f64 {
    if !(volume > 0.0 && surface > 0.0) {
        return 0.0;
    }
    let a = mean_alpha.clamp(0.0, 0.999);
    let den = -surface * (1.0 - a).ln() + 4.0 * air_m * volume;
    if den > 0.0 {
        SABINE * volume / den
    } else {
        0.0
    }
}

/// Band decays (s; low, mid, high) clamped to what the bus renders: each band to
/// [`DECAY_MIN`]..=[`DECAY_MAX`], then the low and high bands to [`LOW_SPREAD`] and
/// [`HIGH_SPREAD`] × the mid band (and the range again). NaN reads [`DECAY_MIN`]. Returns the
/// clamped decays and whether any moved by more than 0.1 %.
#[must_use]
pub fn clamp_to_bus(t: [f64; BANDS]) -> ([f64; BANDS], bool) {
    let range = |x: f64| {
        if x.is_nan() {
            DECAY_MIN
        } else {
            x.clamp(DECAY_MIN, DECAY_MAX)
        }
    };
    let mid = range(t[1]);
    let spread = |x: f64, (lo, hi): (f64, f64)| range(range(x).clamp(lo * mid, hi * mid));
    let out = [spread(t[0], LOW_SPREAD), mid, spread(t[2], HIGH_SPREAD)];
    let moved = out
        .iter()
        .zip(t)
        .any(|(o, x)| x.is_nan() || (o / x - 1.0).abs() > 1e-3);
    (out, moved)
}

/// The physical decay per band of a space whose rays gave `geometry` and whose enclosure is
/// `enclosure`: Eyring ([`RoomGeometry::eyring`]) clamped to what the bus renders
/// ([`clamp_to_bus`]; the flag says whether it was), drawn toward [`DECAY_MIN`] as the space
/// opens: `DECAY_MIN + (T − DECAY_MIN)·smoothstep(0.03, 0.4, enclosure)` (the wet level's
/// curve). A space open on most sides is no diffuse field: its energy leaves through the
/// openings instead of ringing round a hemisphere of air, which Eyring's formula would read as
/// a large hall; so open spaces keep a short (and, by the wet level, quiet) tail. The draw
/// keeps the bands inside their spreads.
#[must_use]
pub fn physical_decay(geometry: &RoomGeometry, enclosure: f64) -> ([f64; BANDS], bool) {
    let closed = smoothstep(0.03, 0.4, enclosure);
    let (t, clamped) = clamp_to_bus(geometry.eyring());
    (t.map(|t| DECAY_MIN + (t - DECAY_MIN) * closed), clamped)
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
    /// The rays' volume and surface sums.
    geometry: RoomGeometry,
}

impl Sums {
    /// Adds one ray's cast.
    fn add(&mut self, materials: &MaterialTable, d: DVec3, cast: &Cast) {
        self.out.rays += 1;
        self.out.stats.merge(&cast.stats);
        self.geometry.add_ray(
            d,
            cast.hit.map(|h| {
                (
                    h.t.clamp(0.0, ROOM_RAY_LENGTH),
                    h.axis,
                    materials.get(h.mat).absorption,
                )
            }),
        );
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
        out.geometry = self.geometry.scaled(n as usize);
        (out.space.decay_bands, out.space.decay_clamped) =
            physical_decay(&out.geometry, out.space.enclosure);
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

/// SPR's slot output gains (`gain·0.595`, spr.md §1.9): the bus scales each slot's
/// unit-energy tail by these (`resound_dsp::reverb`), so [`reverb`] folds them into the sends.
pub const SLOT_GAINS: [f64; 4] = [0.2 * 0.595, 0.3 * 0.595, 0.5 * 0.595, 0.4 * 0.595];

/// The slot a decay `d` (s) is rendered in: the one whose nominal decay ([`SLOT_DECAYS`]) is
/// nearest on a log scale (boundaries 0.287, 0.961, 2.638 s). The bus tunes that slot to the
/// decay the voices in it report (`resound_dsp::ReverbBus::set_slot_decays`), so voices of
/// like spaces share a slot and the slot renders their decay, not its nominal one.
#[must_use]
pub fn slot_for(d: f64) -> usize {
    let d = if d.is_nan() { DECAY_MIN } else { d };
    (0..3)
        .find(|&k| d < (SLOT_DECAYS[k] * SLOT_DECAYS[k + 1]).sqrt())
        .unwrap_or(3)
}

/// The tail level of decay `d` as the bus renders it, re the voice: `sqrt(Σ (a_k·g_k)²)` over
/// §6's cross-fade amplitudes ([`slot_amplitudes`]) and the slot gains ([`SLOT_GAINS`]): the
/// energy the cross-faded slots gave, now given by one slot, so levels stay §6's (room −7.7
/// dB, tunnel −11.7 dB tail/click) and change smoothly with the decay.
#[must_use]
pub fn tail_level(d: f64) -> f64 {
    slot_amplitudes(d)
        .iter()
        .zip(SLOT_GAINS)
        .map(|(a, g)| (a * g).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// Sends, decay and wet level of a sound's space.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reverb {
    /// Wet level (0..1).
    pub wet: f64,
    /// Space decay (s), mid band.
    pub decay: f64,
    /// Space decay per band (low, mid, high), s: what the bus renders.
    pub decay_bands: [f64; BANDS],
    /// Slot amplitudes `a_k` before the slot gains: 1 on the slot the decay is rendered in
    /// ([`slot_for`]).
    pub amplitudes: [f64; 4],
    /// `send_k = WET·wet·a_k·distance_fade·tail_level(decay)/g_k` ([`tail_level`],
    /// [`SLOT_GAINS`]): the slot's output gain folded in.
    pub sends: [f64; 4],
    /// The decay the bus renders for these sends: the mid-band decay (the slot is tuned to it).
    pub effective_decay: f64,
}

/// The decay bands of `space` under `model`: [`DecayModel::Physical`] reads the space's
/// Eyring estimate; [`DecayModel::Spr`] the heuristic [`decay`] in the low and mid bands and
/// 0.7× it in the high band (the SPR slots' decay-HF ratio at 5 kHz, spr.md §1.9).
#[must_use]
pub fn decay_bands(space: &Space, model: DecayModel) -> [f64; BANDS] {
    match model {
        DecayModel::Physical => clamp_to_bus(space.decay_bands).0,
        DecayModel::Spr => {
            let d = decay(space);
            [d, d, (0.7 * d).max(DECAY_MIN)]
        }
    }
}

/// Derives the reverb parameters of a space for a sound `distance` away with voice `range`,
/// its decay by `model`.
#[must_use]
pub fn reverb(space: &Space, distance: f64, range: f64, model: DecayModel) -> Reverb {
    let wet = wet(space);
    let bands = decay_bands(space, model);
    let decay = bands[1];
    let slot = slot_for(decay);
    let mut amplitudes = [0.0; 4];
    amplitudes[slot] = 1.0;
    let fade = distance_fade(distance, range);
    let level = tail_level(decay) / SLOT_GAINS[slot];
    let sends = amplitudes.map(|a| WET * wet * a * fade * level);
    Reverb {
        wet,
        decay,
        decay_bands: bands,
        amplitudes,
        sends,
        effective_decay: decay,
    }
}

#[cfg(test)]
mod tests;
