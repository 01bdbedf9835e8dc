//! What an air-path search returns: the path, its limits and its failures.

use glam::{DVec3, IVec3};

use super::diffraction::{SPEED_OF_SOUND, band_loss_db, path_difference};
use crate::world::probe::{SectionBox, section_of};

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathLimits {
    /// Longest path as a multiple of the straight distance (3).
    pub length_factor: f64,
    /// Longest path in blocks whatever the factor: the voice's range.
    pub range: f64,
}

impl Default for PathLimits {
    fn default() -> Self {
        Self {
            length_factor: 3.0,
            range: 512.0,
        }
    }
}

impl PathLimits {
    /// Limits for a voice of `range` blocks, factor 3.
    #[must_use]
    pub fn with_range(range: f64) -> Self {
        Self {
            range,
            ..Self::default()
        }
    }

    /// These limits with another length factor.
    #[must_use]
    pub fn with_factor(mut self, length_factor: f64) -> Self {
        self.length_factor = length_factor;
        self
    }

    /// The longest path allowed between ends `straight` blocks apart:
    /// `min(length_factor·straight, range)`.
    #[must_use]
    pub fn max_length(&self, straight: f64) -> f64 {
        (self.length_factor * straight).min(self.range)
    }
}

/// Why a search gave no answer (as opposed to `Ok(None)`: no air path within the limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// The cell budget ran out before the search finished; no path is guessed.
    #[error("air-path search over budget after {cells} cells")]
    OverBudget {
        /// Cells spent.
        cells: u64,
    },
    /// A position is not finite or lies outside the supported world, or the limits are not
    /// positive numbers.
    #[error("air-path search: {0}")]
    BadInput(&'static str),
}

/// A path through air from a source to a listener, bending only at edges of solid cells.
#[derive(Clone, Debug, PartialEq)]
pub struct AirPath {
    /// Source position (blocks).
    pub source: DVec3,
    /// Listener position (blocks).
    pub listener: DVec3,
    /// The bends, in order from the source to the listener (empty: the straight line is clear).
    pub corners: Vec<DVec3>,
    /// Length of the path (blocks = metres).
    pub length: f64,
    /// Straight distance source–listener.
    pub straight: f64,
    /// Diffraction loss per band (low, mid, high), dB ≥ 0: the bends' losses added
    /// ([`super::diffraction`]). Distance and air absorption are not included.
    pub loss_db: [f64; 3],
    /// Unit vector from the listener toward the last bend (the opening nearest the listener),
    /// or toward the source when there is none; zero if source and listener coincide.
    pub direction: DVec3,
    /// Extra propagation delay against the straight line, s: `(length − straight) / 343`.
    pub extra_delay_s: f64,
    /// Cells the search spent (its reads and line-of-sight walks).
    pub cells: u64,
    /// Some read met Unknown (not resident, counted as air): search again once loaded.
    pub met_unknown: bool,
}

impl AirPath {
    /// The path through `corners`, its length, losses and direction computed.
    #[must_use]
    pub fn through(source: DVec3, corners: Vec<DVec3>, listener: DVec3) -> Self {
        let mut points = Vec::with_capacity(corners.len() + 2);
        points.push(source);
        points.extend_from_slice(&corners);
        points.push(listener);
        let length: f64 = points.windows(2).map(|w| w[0].distance(w[1])).sum();
        let mut loss_db = [0.0; 3];
        for delta in bend_differences(&points) {
            for (total, b) in loss_db.iter_mut().zip(band_loss_db(delta)) {
                *total += b;
            }
        }
        let straight = source.distance(listener);
        let toward = corners.last().copied().unwrap_or(source);
        Self {
            source,
            listener,
            corners,
            length,
            straight,
            loss_db,
            direction: (toward - listener).try_normalize().unwrap_or(DVec3::ZERO),
            extra_delay_s: (length - straight).max(0.0) / SPEED_OF_SOUND,
            cells: 0,
            met_unknown: false,
        }
    }

    /// The same bends with new ends (a cached path reused while source and listener stay in
    /// their cells): length, losses, direction and delay recomputed.
    #[must_use]
    pub fn with_ends(&self, source: DVec3, listener: DVec3) -> Self {
        Self {
            cells: self.cells,
            met_unknown: self.met_unknown,
            ..Self::through(source, self.corners.clone(), listener)
        }
    }

    /// Number of bends.
    #[must_use]
    pub fn bends(&self) -> usize {
        self.corners.len()
    }

    /// True when the path is the straight line (no bend).
    #[must_use]
    pub fn is_line(&self) -> bool {
        self.corners.is_empty()
    }

    /// Linear pressure gain per band (low, mid, high) of the diffraction loss alone.
    #[must_use]
    pub fn band_gains(&self) -> [f64; 3] {
        self.loss_db.map(|db| 10f64.powf(-db / 20.0))
    }
}

/// Bends closer than this along the path count as one bend (a smoothing artefact of one edge
/// wrapped by two points must not halve the loss).
pub const BEND_GROUP_M: f64 = 0.5;

/// Path differences of the bends of the polyline `points` (ends included), bends closer than
/// [`BEND_GROUP_M`] grouped: a group's difference is its legs' length from the point before
/// it to the point after it less that chord.
fn bend_differences(points: &[DVec3]) -> Vec<f64> {
    let mut out = Vec::new();
    let mut i = 1;
    while i + 1 < points.len() {
        let mut j = i;
        while j + 2 < points.len() && points[j].distance(points[j + 1]) < BEND_GROUP_M {
            j += 1;
        }
        let delta = if i == j {
            path_difference(points[i - 1], points[i], points[i + 1])
        } else {
            let legs: f64 = points[i - 1..=j + 1]
                .windows(2)
                .map(|w| w[0].distance(w[1]))
                .sum();
            (legs - points[i - 1].distance(points[j + 1])).max(0.0)
        };
        out.push(delta);
        i = j + 1;
    }
    out
}

/// The sections of the box holding every path from `a` to `b` no longer than `length` (the
/// ellipsoid with foci `a`, `b`), one cell of margin: a world change outside it cannot make
/// such a path, one inside may.
#[must_use]
pub fn search_region(a: DVec3, b: DVec3, length: f64) -> SectionBox {
    let centre = (a + b) * 0.5;
    let d = a.distance(b);
    let semi_major = (length.max(d)) * 0.5;
    let semi_minor = (semi_major * semi_major - d * d * 0.25).max(0.0).sqrt();
    let u = (b - a).try_normalize().unwrap_or(DVec3::X);
    let half = DVec3::new(
        (semi_major * semi_major * u.x * u.x + semi_minor * semi_minor * (1.0 - u.x * u.x)).sqrt(),
        (semi_major * semi_major * u.y * u.y + semi_minor * semi_minor * (1.0 - u.y * u.y)).sqrt(),
        (semi_major * semi_major * u.z * u.z + semi_minor * semi_minor * (1.0 - u.z * u.z)).sqrt(),
    ) + DVec3::ONE;
    let lo: IVec3 = (centre - half).floor().as_ivec3();
    let hi: IVec3 = (centre + half).floor().as_ivec3();
    SectionBox {
        min: section_of(lo),
        max: section_of(hi),
    }
}
