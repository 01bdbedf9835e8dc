//! The open sky over the terrain: per section column, the lowest section from which every
//! section above has one skippable class (`Empty` over the terrain, the outside's class where
//! no tile is), so that traversal through the sky reads one table entry instead of the tiles.
//!
//! Built with the terrain (one entry per section column of its footprint, at most
//! [`MAX_COLUMNS`]: 512 KiB); a placed box turns off the columns it touches and the outside.
//! Answers equal the probe's `section_class` ([`crate::WorldProbe::section_class`]) (tested against it).

use glam::{IVec2, IVec3};

use super::{Heightfield, PlacedBox, uniform_class};
use crate::world::probe::{Cell, SECTION_SIZE, SectionClass};

/// Most section columns with an entry (a larger terrain asks the tiles above its footprint).
pub const MAX_COLUMNS: usize = 1 << 16;

/// The sky table (see the module doc).
#[derive(Clone, Debug, Default)]
pub(super) struct Sky {
    /// Section column `(x, z)` of entry 0.
    origin: IVec2,
    /// Section columns along `x` and `z` of the footprint.
    size: [u32; 2],
    /// Per column, `x` fastest: the lowest section of the sky (`i32::MAX`: none) and its class.
    above: Vec<(i32, SectionClass)>,
    /// The class of every section beyond the footprint, while no box is placed and it is
    /// skippable.
    outside: Option<SectionClass>,
}

fn skippable(class: SectionClass) -> bool {
    matches!(class, SectionClass::Empty | SectionClass::Unknown)
}

/// The lowest section `y` whose bottom (`y·16` as `f32`, as the class computes it) is at or
/// above `max`.
fn lowest_above(max: f32) -> i32 {
    let bottom = |y: i32| y.saturating_mul(SECTION_SIZE) as f32;
    // `max` is finite and within ±2^24, so this lands within a step of the answer.
    let mut y = (max / SECTION_SIZE as f32) as i32;
    while bottom(y - 1) >= max {
        y -= 1;
    }
    while bottom(y) < max {
        y += 1;
    }
    y
}

impl Sky {
    /// The table of a terrain (without boxes).
    pub(super) fn build(field: &Heightfield) -> Self {
        let outside = uniform_class(field.outside);
        let far = |origin: i32, tiles: usize| {
            let span = i64::try_from(tiles).unwrap_or(i64::MAX) * i64::from(field.spacing);
            let last = (i64::from(origin) + span - 1).div_euclid(i64::from(SECTION_SIZE));
            i32::try_from(last).unwrap_or(i32::MAX)
        };
        let lo = IVec2::new(
            field.origin.x.div_euclid(SECTION_SIZE),
            field.origin.y.div_euclid(SECTION_SIZE),
        );
        let hi = IVec2::new(
            far(field.origin.x, field.tiles_x),
            far(field.origin.y, field.tiles_z),
        );
        let size = [
            u32::try_from(hi.x - lo.x + 1).unwrap_or(0),
            u32::try_from(hi.y - lo.y + 1).unwrap_or(0),
        ];
        let mut sky = Self {
            origin: lo,
            size,
            above: Vec::new(),
            outside: skippable(outside).then_some(outside),
        };
        let columns = u64::from(size[0]) * u64::from(size[1]);
        if columns > MAX_COLUMNS as u64 {
            return sky;
        }
        sky.above.reserve(columns as usize);
        let xs: Vec<_> = (lo.x..=hi.x).map(|x| field.x_span(x)).collect();
        for z in lo.y..=hi.y {
            let zs = field.z_span(z);
            for &xs in &xs {
                let (mut max, mut present, mut absent) = (f32::NEG_INFINITY, false, false);
                for tile in field.span_tiles(xs, zs) {
                    match tile {
                        Some(t) => {
                            present = true;
                            max = max.max(t.max);
                        }
                        None => absent = true,
                    }
                }
                // `Heightfield::terrain_class` of a section whose bottom is at or above every
                // tile's top.
                let entry = if !present {
                    (i32::MIN, outside)
                } else if !absent || field.outside == Cell::Air {
                    (lowest_above(max), SectionClass::Empty)
                } else {
                    (i32::MAX, SectionClass::Mixed)
                };
                sky.above.push(if skippable(entry.1) {
                    entry
                } else {
                    (i32::MAX, SectionClass::Mixed)
                });
            }
        }
        sky
    }

    /// The class of `section` if it lies in the sky of its column (or beyond the footprint);
    /// `None`: ask the terrain.
    #[inline]
    pub(super) fn class(&self, section: IVec3) -> Option<SectionClass> {
        let ix = section.x.wrapping_sub(self.origin.x) as u32;
        let iz = section.z.wrapping_sub(self.origin.y) as u32;
        if ix < self.size[0] && iz < self.size[1] {
            let &(y, class) = self
                .above
                .get(ix as usize + self.size[0] as usize * iz as usize)?;
            (section.y >= y).then_some(class)
        } else {
            self.outside
        }
    }

    /// Turns off the columns `placed` touches, and the outside.
    pub(super) fn cover(&mut self, placed: &PlacedBox) {
        self.outside = None;
        if self.above.is_empty() {
            return;
        }
        let (w, h) = (self.size[0] as i32, self.size[1] as i32);
        let col = |v: i32, origin: i32, n: i32| (v.div_euclid(SECTION_SIZE) - origin).clamp(-1, n);
        let (x0, x1) = (
            col(placed.min.x, self.origin.x, w).max(0),
            col(placed.max.x, self.origin.x, w).min(w - 1),
        );
        let (z0, z1) = (
            col(placed.min.z, self.origin.y, h).max(0),
            col(placed.max.z, self.origin.y, h).min(h - 1),
        );
        for z in z0..=z1 {
            for x in x0..=x1 {
                if let Some(e) = self.above.get_mut((x + w * z) as usize) {
                    *e = (i32::MAX, SectionClass::Mixed);
                }
            }
        }
    }
}
