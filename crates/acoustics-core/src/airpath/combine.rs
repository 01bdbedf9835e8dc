//! The direct sound of a voice: the through-wall result and the air path, the louder per band.
//!
//! **Rule: per band, the louder of the two wins** (not their energy sum). The occlusion result
//! is SPR's stand-in for diffraction round gaps (its 9 offset paths find door gaps), so near
//! an opening both describe the same wave; summing would count it twice, +3 dB above an open
//! line at the shadow boundary. The maximum never exceeds the unobstructed level, is as
//! continuous as its inputs, and lets a thin wooden wall's transmission win where it is louder
//! than the detour. It is at most 3 dB below the energy sum where the two are equal.

use glam::DVec3;

use super::result::AirPath;
use crate::model::own::air_absorption;
use crate::model::{DirectResult, SoundRequest};

/// Which path the direct sound takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectKind {
    /// The straight line is open.
    Line,
    /// Round corners through air (louder than through the walls on the mid band).
    Around,
    /// Through the walls (no air path, or the walls are louder).
    Through,
}

impl DirectKind {
    /// `line`, `around` or `through` (the reports' spelling).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Line => "line",
            Self::Around => "around",
            Self::Through => "through",
        }
    }
}

/// The direct sound of one voice for the mixer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectSound {
    /// Which path is louder on the mid band.
    pub kind: DirectKind,
    /// Pressure gain per band (low, mid, high) relative to the same voice unobstructed at the
    /// straight distance: multiply into the voice's usual distance gain. Includes the longer
    /// path's distance loss and air absorption.
    pub bands: [f32; 3],
    /// Shelf gain below 1 kHz (`bands[0]`), for the mixer's `gain`.
    pub gain: f32,
    /// Shelf high/low ratio (`bands[2] / bands[0]`, ≤ 1 in practice), for the mixer's `hf`.
    pub hf: f32,
    /// Unit vector from the listener to where the sound appears to come from: the two paths'
    /// directions weighted by their mid-band energies (the pan never jumps between them).
    pub direction: DVec3,
    /// Length of the louder path (blocks).
    pub path_m: f64,
    /// Bends of the louder path.
    pub bends: usize,
    /// Extra delay of the louder path against the straight line, s.
    pub extra_delay_s: f64,
}

/// Joins the occlusion result `through` of `request` (its `gain`, `cutoff` and `air`, as
/// the own model's direct stage returns them) with the air path `air` found for the same source
/// and listener. `distance_gain(d)` is the voice's distance curve (the engine's rolloff); air
/// absorption on the path's highs uses `request.range` as the direct result does.
///
/// The through path's bands are those the mixer plays: `gain` low, `gain·cutoff·air` high
/// (the shelf's `gain·hf`), and their dB mean as the mid band (the material rates give those
/// two only).
#[must_use]
pub fn combine(
    request: &SoundRequest,
    through: &DirectResult,
    air: Option<&AirPath>,
    distance_gain: impl Fn(f64) -> f64,
) -> DirectSound {
    let low = f64::from(through.gain);
    // The mixer's shelf plays `gain` below 1 kHz and `gain·hf` above: the through high band.
    let high = low * f64::from(through.cutoff) * f64::from(through.air);
    let through_bands = [low, (low * high).sqrt(), high];
    let through_dir = through.apparent_direction;
    let line_kind = if through.occ > 0.0 {
        DirectKind::Through
    } else {
        DirectKind::Line
    };
    let straight = request.distance();
    let Some(path) = air.filter(|p| !p.is_line()) else {
        let mut s = shape(line_kind, through_bands, through_dir, None);
        s.path_m = straight;
        return s;
    };
    let at_straight = distance_gain(straight);
    let ratio = if at_straight > 0.0 {
        (distance_gain(path.length) / at_straight).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let d = path.band_gains();
    let air_bands = [
        d[0] * ratio,
        d[1] * ratio,
        d[2] * ratio * air_absorption(path.length, request.range),
    ];
    let bands = [0, 1, 2].map(|b| through_bands[b].max(air_bands[b]));
    let (wt, wa) = (through_bands[1].powi(2), air_bands[1].powi(2));
    let direction = (through_dir * wt + path.direction * wa)
        .try_normalize()
        .unwrap_or(if wa >= wt {
            path.direction
        } else {
            through_dir
        });
    if wa >= wt {
        let mut s = shape(DirectKind::Around, bands, direction, Some(path));
        s.extra_delay_s = path.extra_delay_s;
        s
    } else {
        let mut s = shape(line_kind, bands, direction, None);
        s.path_m = straight;
        s
    }
}

/// The voice's linear distance curve `clamp(1 − d/range, 0, 1)` (the mixer's rolloff), for
/// [`combine`] and [`direct_sound`].
#[must_use]
pub fn linear_rolloff(d: f64, range: f64) -> f64 {
    if range > 0.0 {
        (1.0 - d / range).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The direct sound of `request` in `probe`'s world given its through-wall result: the air path
/// searched (limits: 3× the straight distance within the request's range) only when the line is
/// occluded, joined by [`combine`] with the linear rolloff ([`linear_rolloff`]). For reports
/// (`resound acoustics`); the engine does the same on its worker with a cache.
///
/// # Errors
/// As [`find_air_path`](super::find_air_path).
pub fn direct_sound<P: crate::world::probe::WorldProbe + ?Sized>(
    probe: &P,
    request: &SoundRequest,
    through: &DirectResult,
    budget: &mut crate::budget::Budget,
) -> Result<DirectSound, super::PathError> {
    let path = if through.occ > 0.0 {
        let limits = super::PathLimits::with_range(request.range);
        super::find_air_path(probe, request.source, request.listener, &limits, budget)?
    } else {
        None
    };
    Ok(combine(request, through, path.as_ref(), |d| {
        linear_rolloff(d, request.range)
    }))
}

fn shape(
    kind: DirectKind,
    bands: [f64; 3],
    direction: DVec3,
    path: Option<&AirPath>,
) -> DirectSound {
    let gain = bands[0];
    let hf = if gain > 0.0 { bands[2] / gain } else { 0.0 };
    DirectSound {
        kind,
        bands: bands.map(|b| b as f32),
        gain: gain as f32,
        hf: hf as f32,
        direction,
        path_m: path.map_or(0.0, |p| p.length),
        bends: path.map_or(0, AirPath::bends),
        extra_delay_s: 0.0,
    }
}
