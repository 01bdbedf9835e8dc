//! The heightfield's section cache: the class of each section traversal entered and, for a
//! `Mixed` section entered again, its 4096 cells computed once (per column: one plane
//! evaluation for 16 cells) and kept, so repeated rays through the same sections read cell codes
//! instead of evaluating the terrain per cell. A section entered once (a long ray passing by)
//! is walked cell by cell as without the cache: filling costs about as much as 200 cells.
//!
//! Bounded and lock-free to read: a fixed table of [`CHUNKS`] × [`CHUNK`] write-once slots
//! (open addressing inside a chunk, at most [`PROBES`] slots tried per section; the sections of
//! one 4 × 4 × 4 block share a chunk, so that a request allocates few of them), holding at most
//! [`MAX_DENSE`] dense sections (8 KiB each: 8 MiB in all) besides the table (4 KiB, and 3 KiB
//! per chunk allocated on first use: at most 768 KiB). A section that finds no free slot, or
//! comes after the dense bound, is computed per call as without the cache. Entries are never
//! replaced: the cache belongs to one immutable terrain (clones share it;
//! [`super::Heightfield::place`] starts a new one). Cached and computed answers are the same
//! values, so results do not depend on what the cache holds, nor on which thread filled it.
//! Writers never wait on each other beyond the moment a slot takes its value (`OnceLock::set`);
//! cells are computed before that, outside the slot.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use glam::IVec3;

use super::Heightfield;
use crate::world::probe::{Cell, SECTION_CELLS, SECTION_SIZE, SectionClass, WorldProbe};
use crate::world::section::{CellCode, Extent, SectionCells};

/// Chunks of the table (a power of two).
pub const CHUNKS: usize = 256;
/// Slots per chunk (a power of two).
pub const CHUNK: usize = 64;
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

/// [`CHUNK`] slots.
type Chunk = Box<[OnceLock<Entry>]>;

/// The table of cached sections (see the module doc).
pub(super) struct SectionCache {
    chunks: Box<[OnceLock<Chunk>]>,
    dense: AtomicUsize,
}

impl Default for SectionCache {
    fn default() -> Self {
        Self {
            chunks: (0..CHUNKS).map(|_| OnceLock::new()).collect(),
            dense: AtomicUsize::new(0),
        }
    }
}

impl std::fmt::Debug for SectionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used: usize = self
            .chunks
            .iter()
            .filter_map(OnceLock::get)
            .map(|c| c.iter().filter(|e| e.get().is_some()).count())
            .sum();
        f.debug_struct("SectionCache")
            .field("sections", &used)
            .field("dense", &self.dense.load(Ordering::Relaxed).min(MAX_DENSE))
            .finish()
    }
}

/// A multiplicative hash of coordinates.
#[inline]
fn hash(s: IVec3) -> usize {
    let h = (s.x as u32).wrapping_mul(0x9E37_79B1)
        ^ (s.y as u32).wrapping_mul(0x85EB_CA77)
        ^ (s.z as u32).wrapping_mul(0xC2B2_AE3D);
    (h ^ (h >> 15)) as usize
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
        // The usual case, a stored entry, without the storing (kept out of line, so that this
        // path, called once per section a ray enters, stays short).
        if let Some(slots) = self.chunks[hash(section >> 2) & (CHUNKS - 1)].get() {
            let mut i = hash(section);
            for _ in 0..PROBES {
                match slots[i & (CHUNK - 1)].get() {
                    Some(e) if e.section == section => return Some(e),
                    Some(_) => i = (i + 1) & (CHUNK - 1),
                    None => break,
                }
            }
        }
        self.store(field, section)
    }

    /// [`SectionCache::entry`] for a section not found: stores it in the first free slot of
    /// its run (or finds it there, stored by another thread meanwhile).
    #[cold]
    #[inline(never)]
    fn store(&self, field: &Heightfield, section: IVec3) -> Option<&Entry> {
        let chunk = &self.chunks[hash(section >> 2) & (CHUNKS - 1)];
        let slots = match chunk.get() {
            Some(slots) => slots,
            None => {
                // Allocated here, then offered: a thread that offered one first wins.
                let _ = chunk.set((0..CHUNK).map(|_| OnceLock::new()).collect());
                chunk.get()?
            }
        };
        let mut i = hash(section);
        let mut made: Option<Entry> = None;
        for _ in 0..PROBES {
            let slot = &slots[i & (CHUNK - 1)];
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
            i = (i + 1) & (CHUNK - 1);
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

/// Along one axis of a section, per local coordinate: the tile index and the position in the
/// tile, as [`Heightfield::tile_at`] computes them (`None` beyond the grid).
fn axis(field: &Heightfield, lo: i32, origin: i32, tiles: usize) -> [Option<(usize, f32)>; 16] {
    let s = field.spacing as f32;
    std::array::from_fn(|i| {
        // As `Heightfield::terrain_cell` and `tile_at` (which rejects NaN too).
        let f = (lo + i as i32).wrapping_sub(origin) as f32 + 0.5;
        if f.is_nan() || f < 0.0 {
            return None;
        }
        let t = (f * field.inv_spacing) as usize;
        (t < tiles).then(|| (t, (f - t as f32 * s).clamp(0.0, s)))
    })
}

/// The 4096 cells of a section, equal to [`Heightfield::cell`] of each: the terrain per column
/// (one plane evaluation, then the same depth test per cell), then the boxes in order (a later
/// box overwrites an earlier one, as the last box holding a cell wins). `None` when a cell
/// cannot be packed.
pub(super) fn dense_cells(field: &Heightfield, section: IVec3) -> Option<SectionCells> {
    let lo = section * SECTION_SIZE;
    let mut cells = Box::new([CellCode::AIR; SECTION_CELLS]);
    let outside = CellCode::encode(field.outside)?;
    let spacing = field.spacing as f32;
    let xs = axis(field, lo.x, field.origin.x, field.tiles_x);
    let zs = axis(field, lo.z, field.origin.y, field.tiles_z);
    let centres: [f32; 16] = std::array::from_fn(|y| (lo.y + y as i32) as f32 + 0.5);
    // Index of local (x, y, z): x + 16·(z + 16·y), as `SectionCells::index`.
    let size = SECTION_SIZE as usize;
    // The box of the non-air cells written, grown per column and per placed box (cheaper than
    // a scan of the section afterwards).
    let (mut low, mut high) = ([SECTION_SIZE; 3], [-1; 3]);
    let mut grow = |min: [i32; 3], max: [i32; 3]| {
        for a in 0..3 {
            low[a] = low[a].min(min[a]);
            high[a] = high[a].max(max[a]);
        }
    };
    for (z, zt) in zs.iter().enumerate() {
        for (x, xt) in xs.iter().enumerate() {
            let column = x + size * z;
            let tile = match (xt, zt) {
                (Some((ti, u)), Some((tk, w))) => field
                    .tiles
                    .get(ti + field.tiles_x * tk)
                    .and_then(Option::as_ref)
                    .map(|t| (t, *u, *w)),
                _ => None,
            };
            let (xi, zi) = (x as i32, z as i32);
            let Some((t, u, w)) = tile else {
                for y in 0..size {
                    cells[column + size * size * y] = outside;
                }
                if outside != CellCode::AIR {
                    grow([xi, 0, zi], [xi, SECTION_SIZE - 1, zi]);
                }
                continue;
            };
            let h = super::tile_height(t, u, w, spacing);
            let top = CellCode::encode(Cell::solid(t.layers.top))?;
            let below = CellCode::encode(Cell::solid(t.layers.below))?;
            for (y, centre) in centres.iter().enumerate() {
                let depth = h - centre;
                if depth > 0.0 {
                    let code = if depth < t.layers.depth { top } else { below };
                    cells[column + size * size * y] = code;
                }
            }
            // The solid cells are the lowest ones: `h − centre` falls as the centres rise. (A
            // separate count keeps the loop above unrolled, its jumps one per cell height.)
            let solid = centres.iter().filter(|c| h - **c > 0.0).count() as i32;
            if solid > 0 {
                grow([xi, 0, zi], [xi, solid - 1, zi]);
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
        if code != CellCode::AIR {
            grow((a - lo).to_array(), (z - lo).to_array());
        }
        for y in a.y..=z.y {
            for zz in a.z..=z.z {
                for x in a.x..=z.x {
                    cells[SectionCells::index(IVec3::new(x, y, zz))] = code;
                }
            }
        }
    }
    let extent = (low[0] <= high[0]).then(|| Extent {
        min: low.map(|v| v as u8),
        max: high.map(|v| v as u8),
    });
    Some(SectionCells::with_extent(cells, extent))
}

#[cfg(test)]
impl SectionCache {
    /// Dense sections counted so far (bounded by [`MAX_DENSE`] in memory).
    fn dense_count(&self) -> usize {
        self.dense.load(Ordering::Relaxed).min(MAX_DENSE)
    }

    /// Sections held.
    fn entries(&self) -> usize {
        self.chunks
            .iter()
            .filter_map(OnceLock::get)
            .flat_map(|c| c.iter())
            .filter(|e| e.get().is_some())
            .count()
    }
}

#[cfg(test)]
mod tests;
