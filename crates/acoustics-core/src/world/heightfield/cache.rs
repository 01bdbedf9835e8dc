//! The heightfield's section cache: the class of each section traversal entered and, for a
//! `Mixed` section entered again, its 4096 cells computed once (per column: one plane
//! evaluation for 16 cells) and kept, so repeated rays through the same sections read cell codes
//! instead of evaluating the terrain per cell. A section entered once (a long ray passing by)
//! is walked cell by cell as without the cache: filling costs about as much as 200 cells.
//!
//! Bounded and lock-free to read: a fixed table of [`SLOTS`] write-once slots (open addressing,
//! at most [`PROBES`] slots tried per section), holding at most [`MAX_DENSE`] dense sections
//! (8 KiB each: 8 MiB in all) besides the table itself (allocated on first use). A section that
//! finds no free slot, or comes after the dense bound, is computed per call as without the
//! cache. Entries are never replaced: the cache belongs to one immutable terrain (clones share
//! it; [`super::Heightfield::place`] starts a new one). Cached and computed answers are the same
//! values, so results do not depend on what the cache holds, nor on which thread filled it.
//! Writers never wait on each other beyond the moment a slot takes its value (`OnceLock::set`);
//! cells are computed before that, outside the slot.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use glam::IVec3;

use super::Heightfield;
use crate::world::probe::{Cell, SECTION_SIZE, SectionClass, WorldProbe};
use crate::world::section::{CellCode, SectionCells};

/// Slots of the table (a power of two).
pub const SLOTS: usize = 4096;
/// Slots tried per section before it is left uncached.
pub const PROBES: usize = 16;
/// Most `Mixed` sections whose cells are kept (8 KiB each).
pub const MAX_DENSE: usize = 1024;
/// The visit of a `Mixed` section that fills its cells (the first is walked cell by cell).
pub const FILL_ON_VISIT: u32 = 2;

/// One cached section.
#[derive(Debug)]
struct Entry {
    section: IVec3,
    class: SectionClass,
    /// Visits of a `Mixed` section before its cells were filled.
    visits: AtomicU32,
    /// The cells of a `Mixed` section once filled; `None` inside past [`MAX_DENSE`], or for a
    /// cell that cannot be packed into a [`CellCode`] (then walked cell by cell for good).
    cells: OnceLock<Option<Box<SectionCells>>>,
}

/// The table of cached sections (see the module doc).
#[derive(Default)]
pub(super) struct SectionCache {
    slots: OnceLock<Box<[OnceLock<Entry>]>>,
    dense: AtomicUsize,
}

impl std::fmt::Debug for SectionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self
            .slots
            .get()
            .map_or(0, |s| s.iter().filter(|e| e.get().is_some()).count());
        f.debug_struct("SectionCache")
            .field("sections", &used)
            .field("dense", &self.dense.load(Ordering::Relaxed).min(MAX_DENSE))
            .finish()
    }
}

/// Home slot of a section (a multiplicative hash of its coordinates).
#[inline]
fn home(s: IVec3) -> usize {
    let h = (s.x as u32).wrapping_mul(0x9E37_79B1)
        ^ (s.y as u32).wrapping_mul(0x85EB_CA77)
        ^ (s.z as u32).wrapping_mul(0xC2B2_AE3D);
    (h ^ (h >> 15)) as usize & (SLOTS - 1)
}

impl SectionCache {
    /// Class and (for a `Mixed` section, once filled) cells of `section`, equal to
    /// [`Heightfield::section_class`] and [`Heightfield::cell`] of each cell.
    #[inline]
    pub(super) fn access(
        &self,
        field: &Heightfield,
        section: IVec3,
    ) -> (SectionClass, Option<&SectionCells>) {
        let Some(e) = self.entry(field, section) else {
            return (field.section_class(section), None);
        };
        if e.class != SectionClass::Mixed {
            return (e.class, None);
        }
        if let Some(cells) = e.cells.get() {
            return (e.class, cells.as_deref());
        }
        if e.visits.fetch_add(1, Ordering::Relaxed) + 1 < FILL_ON_VISIT {
            return (e.class, None);
        }
        (e.class, self.fill(field, e))
    }

    /// The entry of `section`, stored on the first call; `None` when the section's probe run
    /// holds no free slot.
    #[inline]
    fn entry(&self, field: &Heightfield, section: IVec3) -> Option<&Entry> {
        let slots = self
            .slots
            .get_or_init(|| (0..SLOTS).map(|_| OnceLock::new()).collect());
        let mut i = home(section);
        let mut made: Option<Entry> = None;
        for _ in 0..PROBES {
            let slot = &slots[i];
            match slot.get() {
                Some(e) if e.section == section => return Some(e),
                Some(_) => {}
                None => {
                    let e = made.take().unwrap_or_else(|| make(field, section));
                    match slot.set(e) {
                        Ok(()) => return slot.get(),
                        // Another thread filled the slot first: its entry, or go on probing.
                        Err(e) => match slot.get() {
                            Some(won) if won.section == section => return Some(won),
                            _ => made = Some(e),
                        },
                    }
                }
            }
            i = (i + 1) & (SLOTS - 1);
        }
        None
    }

    /// Computes and keeps the cells of a `Mixed` entry (unless past [`MAX_DENSE`]).
    // Out of line: inlined, its loop-invariant set-up is hoisted above the lookup.
    #[cold]
    #[inline(never)]
    fn fill<'a>(&self, field: &Heightfield, e: &'a Entry) -> Option<&'a SectionCells> {
        let cells = (self.dense.load(Ordering::Relaxed) < MAX_DENSE
            && self.dense.fetch_add(1, Ordering::Relaxed) < MAX_DENSE)
            .then(|| dense_cells(field, e.section))
            .flatten()
            .map(Box::new);
        // A thread that filled it first wins; both computed the same cells.
        let _ = e.cells.set(cells);
        e.cells.get().and_then(Option::as_deref)
    }
}

#[cold]
#[inline(never)]
fn make(field: &Heightfield, section: IVec3) -> Entry {
    Entry {
        section,
        class: field.section_class(section),
        visits: AtomicU32::new(0),
        cells: OnceLock::new(),
    }
}

/// The 4096 cells of a section, equal to [`Heightfield::cell`] of each: the terrain per column
/// (one plane evaluation, then the same depth test per cell), then the boxes in order (a later
/// box overwrites an earlier one, as the last box holding a cell wins). `None` when a cell
/// cannot be packed.
pub(super) fn dense_cells(field: &Heightfield, section: IVec3) -> Option<SectionCells> {
    let lo = section * SECTION_SIZE;
    let mut cells = SectionCells::filled(CellCode::AIR);
    let outside = CellCode::encode(field.outside)?;
    let spacing = field.spacing as f32;
    for z in 0..SECTION_SIZE {
        for x in 0..SECTION_SIZE {
            // As `Heightfield::terrain_cell`.
            let fx = (lo.x + x).wrapping_sub(field.origin.x) as f32 + 0.5;
            let fz = (lo.z + z).wrapping_sub(field.origin.y) as f32 + 0.5;
            let column = IVec3::new(x, 0, z);
            match field.tile_at(fx, fz) {
                None => {
                    for y in 0..SECTION_SIZE {
                        cells.set(column.with_y(y), outside);
                    }
                }
                Some((t, u, w)) => {
                    let h = super::tile_height(t, u, w, spacing);
                    let top = CellCode::encode(Cell::solid(t.layers.top))?;
                    let below = CellCode::encode(Cell::solid(t.layers.below))?;
                    for y in 0..SECTION_SIZE {
                        let depth = h - ((lo.y + y) as f32 + 0.5);
                        if depth > 0.0 {
                            let code = if depth < t.layers.depth { top } else { below };
                            cells.set(column.with_y(y), code);
                        }
                    }
                }
            }
        }
    }
    let hi = lo + IVec3::splat(SECTION_SIZE - 1);
    for b in &field.boxes {
        let (a, z) = (b.min.max(lo), b.max.min(hi));
        if a.cmpgt(z).any() {
            continue;
        }
        let code = CellCode::encode(b.cell)?;
        for y in a.y..=z.y {
            for zz in a.z..=z.z {
                for x in a.x..=z.x {
                    cells.set(IVec3::new(x, y, zz), code);
                }
            }
        }
    }
    Some(cells)
}

#[cfg(test)]
impl SectionCache {
    /// Dense sections counted so far (bounded by [`MAX_DENSE`] in memory).
    fn dense_count(&self) -> usize {
        self.dense.load(Ordering::Relaxed).min(MAX_DENSE)
    }
}

#[cfg(test)]
mod tests;
