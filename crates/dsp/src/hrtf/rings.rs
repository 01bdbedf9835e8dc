//! Bilinear interpolation in azimuth/elevation over the measured *elevation rings*.
//!
//! Measured sets (IRCAM LISTEN, MIT KEMAR, CIPIC-like grids, most SOFA files) place their
//! directions on rings of equal elevation, each ring with its own azimuth step. A direction
//! is interpolated from the ring just below and the ring just above its elevation: in each
//! ring, linearly between the two measured azimuths around it (wrapping past 360°); then
//! linearly between the two rings in elevation. So at most four measurements mix, with
//! weights that sum to 1 and move continuously with the direction. Elevations beyond the
//! lowest or highest ring use that ring alone; a ring of one point (a pole) is that point.
//! Elevations within [`RING_TOLERANCE_DEG`] of each other count as one ring.

/// Elevations closer than this (degrees) belong to one ring.
pub const RING_TOLERANCE_DEG: f32 = 0.5;

/// Up to four measured directions and their weights (summing to 1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Weights {
    /// `(measurement index, weight)`; only the first `len` entries count.
    pub entries: [(u32, f32); 4],
    /// How many entries count.
    pub len: usize,
}

impl Weights {
    /// The entries that count.
    pub fn as_slice(&self) -> &[(u32, f32)] {
        &self.entries[..self.len]
    }

    fn push(&mut self, index: u32, weight: f32) {
        if weight <= 0.0 {
            return;
        }
        if let Some(e) = self.entries[..self.len].iter_mut().find(|e| e.0 == index) {
            e.1 += weight;
        } else if self.len < 4 {
            self.entries[self.len] = (index, weight);
            self.len += 1;
        }
    }
}

#[derive(Clone, Debug)]
struct Ring {
    elevation: f32,
    /// Sorted azimuths in `[0, 360)` and their measurement indices.
    azimuths: Vec<f32>,
    indices: Vec<u32>,
}

/// The measured directions grouped into elevation rings, ready for lookup.
#[derive(Clone, Debug)]
pub(crate) struct Rings {
    rings: Vec<Ring>,
}

impl Rings {
    /// Groups `(azimuth, elevation)` pairs (degrees, azimuth in `[0, 360)`). Not empty.
    pub(crate) fn new(angles: &[(f32, f32)]) -> Self {
        let mut order: Vec<u32> = (0..angles.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (angles[a as usize], angles[b as usize]);
            pa.1.total_cmp(&pb.1).then(pa.0.total_cmp(&pb.0))
        });
        let mut rings: Vec<Ring> = Vec::new();
        for i in order {
            let (az, el) = angles[i as usize];
            match rings.last_mut() {
                Some(r) if (el - r.elevation).abs() <= RING_TOLERANCE_DEG => {
                    r.azimuths.push(az);
                    r.indices.push(i);
                }
                _ => rings.push(Ring {
                    elevation: el,
                    azimuths: vec![az],
                    indices: vec![i],
                }),
            }
        }
        for r in &mut rings {
            let mut pairs: Vec<(f32, u32)> = r
                .azimuths
                .iter()
                .copied()
                .zip(r.indices.iter().copied())
                .collect();
            pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            r.azimuths = pairs.iter().map(|p| p.0).collect();
            r.indices = pairs.iter().map(|p| p.1).collect();
            // A ring's elevation is its members' mean (they differ by the tolerance at most).
            r.elevation = r.indices.iter().map(|&i| angles[i as usize].1).sum::<f32>()
                / r.indices.len() as f32;
        }
        Self { rings }
    }

    /// How many rings.
    pub(crate) fn len(&self) -> usize {
        self.rings.len()
    }

    /// The interpolation weights of a direction (azimuth in `[0, 360)`, elevation, degrees).
    pub(crate) fn weights(&self, azimuth: f32, elevation: f32) -> Weights {
        let mut w = Weights::default();
        let n = self.rings.len();
        if n == 0 {
            return w;
        }
        // First ring whose elevation is above the direction's.
        let above = self.rings.partition_point(|r| r.elevation <= elevation);
        if above == 0 {
            ring_weights(&self.rings[0], azimuth, 1.0, &mut w);
        } else if above == n {
            ring_weights(&self.rings[n - 1], azimuth, 1.0, &mut w);
        } else {
            let (lo, hi) = (&self.rings[above - 1], &self.rings[above]);
            let span = hi.elevation - lo.elevation;
            let t = if span > 1e-6 {
                ((elevation - lo.elevation) / span).clamp(0.0, 1.0)
            } else {
                0.0
            };
            ring_weights(lo, azimuth, 1.0 - t, &mut w);
            ring_weights(hi, azimuth, t, &mut w);
        }
        w
    }
}

/// Adds the two azimuth neighbours of `azimuth` in `ring`, scaled by `scale`.
fn ring_weights(ring: &Ring, azimuth: f32, scale: f32, w: &mut Weights) {
    let n = ring.azimuths.len();
    if n == 1 {
        w.push(ring.indices[0], scale);
        return;
    }
    // First measured azimuth above the direction's; the pair wraps past 360°.
    let next = ring.azimuths.partition_point(|&a| a <= azimuth);
    let (a, b) = if next == 0 || next == n {
        (n - 1, 0)
    } else {
        (next - 1, next)
    };
    let (za, zb) = (ring.azimuths[a], ring.azimuths[b]);
    let span = (zb - za).rem_euclid(360.0);
    let offset = (azimuth - za).rem_euclid(360.0);
    let t = if span > 1e-6 {
        (offset / span).clamp(0.0, 1.0)
    } else {
        0.0
    };
    w.push(ring.indices[a], scale * (1.0 - t));
    w.push(ring.indices[b], scale * t);
}
