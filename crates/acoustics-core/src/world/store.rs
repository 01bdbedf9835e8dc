//! Chunked voxel store: 16³ sections behind `Arc`, copy-on-write edits, cheap snapshots,
//! per-section revisions, change lists and residency (spec §3.1, §3.4).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use glam::IVec3;

use super::probe::{Cell, SECTION_SIZE, SectionAccess, SectionClass, WorldProbe, section_of};
use super::section::{CellCode, SectionCells, SparseCells, SparseIndex};

/// How sections that were never stored read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Absent {
    /// Not resident (a game world: beyond the loaded chunks).
    #[default]
    Unknown,
    /// Air (a finite scene: everything not stored is air).
    Air,
}

/// One world change: the section changed at that revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Change {
    /// World revision of the change.
    pub revision: u64,
    /// Section coordinates.
    pub section: IVec3,
}

/// Why an edit failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// The material id does not fit a cell (> [`crate::MaterialId::MAX`]).
    #[error("material id {0} is out of range")]
    MaterialOutOfRange(u16),
    /// `min` is greater than `max` on some axis.
    #[error("inverted box {min:?}..{max:?}")]
    InvertedBox {
        /// Given minimum.
        min: IVec3,
        /// Given maximum.
        max: IVec3,
    },
    /// The box would need more than [`MAX_FILL_PARTIAL_SECTIONS`] partially covered sections
    /// (a thin slab across many sections).
    #[error("box touches {0} partially covered sections, more than the limit")]
    TooManyPartialSections(u64),
    /// The box is larger than [`MAX_FILL_CELLS`].
    #[error("box of {0} cells is larger than the limit")]
    TooLarge(u64),
    /// A coordinate lies outside ±2^28 cells (cell coordinates; section coordinates for
    /// [`WorldStore::load_section`]).
    #[error("{0:?} is outside the supported world")]
    OutOfWorld(IVec3),
}

/// Most cells one `fill_box` may cover (2^28).
pub const MAX_FILL_CELLS: u64 = 1 << 28;
/// Largest number of partially covered sections one [`WorldStore::fill_box`] may create: each
/// may hold its own 16³ cells (8 KiB; sections cut alike from one code share theirs), so
/// this bounds one edit's allocation to 512 MiB.
pub const MAX_FILL_PARTIAL_SECTIONS: u64 = 1 << 16;

/// Sections that the inclusive box `min..=max` touches without covering them whole (they need
/// their own cell arrays). Saturating; exact for any `i32` corners.
#[must_use]
pub fn partial_sections(min: [i32; 3], max: [i32; 3]) -> u64 {
    let (mut touched, mut whole) = (1u64, 1u64);
    for a in 0..3 {
        let (lo, hi) = (i64::from(min[a]), i64::from(max[a]));
        let (s_lo, s_hi) = (lo.div_euclid(16), hi.div_euclid(16));
        touched = touched.saturating_mul((s_hi - s_lo + 1).unsigned_abs());
        // Whole sections: the first section starting at or after `lo` to the last ending at
        // or before `hi`.
        let first = (lo + 15).div_euclid(16);
        let last = (hi + 1).div_euclid(16) - 1;
        whole = whole.saturating_mul((last - first + 1).max(0).unsigned_abs());
    }
    touched.saturating_sub(whole)
}

/// World coordinate limit in cells (±2^28): keeps DDA arithmetic exact and overflow-free.
pub const WORLD_LIMIT: i32 = 1 << 28;
/// Change entries kept; older ones are dropped (then [`WorldStore::changes_since`] returns `None`).
pub const MAX_CHANGES: usize = 1 << 16;

/// Small fast hasher for section coordinates (lookups only; nothing iterates the map for results).
#[derive(Default, Clone, Copy)]
pub struct SectionHasher(u64);

impl Hasher for SectionHasher {
    /// Folded multiply (high ^ low half of a 128-bit product): mixes into both the high bits
    /// (hashbrown's tag) and the low bits (bucket index).
    fn finish(&self) -> u64 {
        let m = u128::from(self.0) * 0x9E37_79B9_7F4A_7C15u128;
        (m >> 64) as u64 ^ m as u64
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_i32(&mut self, i: i32) {
        // Coordinates land in mostly disjoint 21-bit lanes; `finish` does the mixing.
        self.0 = self.0.rotate_left(21) ^ u64::from(i.cast_unsigned());
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = self.0.rotate_left(21) ^ v;
    }
}

type SectionMap = HashMap<IVec3, Slot, BuildHasherDefault<SectionHasher>>;

/// Sections whose cells differ from one fill value in at most this many places are stored as
/// a sorted list (4 bytes a cell) instead of all 4096 cells (8 KiB): a scene of many small
/// boxes in separate sections then costs bytes per box, not 8 KiB (issue 9).
pub const SPARSE_MAX_CELLS: usize = 64;

/// A section stored as a fill value plus the cells that differ from it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sparse {
    fill: CellCode,
    /// `(SectionCells::index, code)`, sorted by index, codes never equal to `fill`.
    cells: Vec<(u16, CellCode)>,
    /// Which indices `cells` lists (kept in step by [`Sparse::set`]).
    index: SparseIndex,
}

impl Sparse {
    fn new(fill: CellCode) -> Self {
        Self {
            fill,
            cells: Vec::new(),
            index: SparseIndex::default(),
        }
    }

    fn view(&self) -> SparseCells<'_> {
        SparseCells {
            fill: self.fill,
            cells: &self.cells,
            index: &self.index,
        }
    }

    fn set(&mut self, index: usize, code: CellCode) {
        // `index` is below 4096 (SectionCells::index masks every axis to 0..16).
        let i = u16::try_from(index).unwrap_or(u16::MAX);
        match (
            self.cells.binary_search_by_key(&i, |&(i, _)| i),
            code == self.fill,
        ) {
            (Ok(k), true) => {
                self.cells.remove(k);
                self.index.remove(usize::from(i));
            }
            (Ok(k), false) => self.cells[k].1 = code,
            (Err(_), true) => {}
            (Err(k), false) => {
                self.cells.insert(k, (i, code));
                self.index.insert(usize::from(i));
            }
        }
    }

    fn to_cells(&self) -> SectionCells {
        let mut cells = SectionCells::filled(self.fill);
        for &(i, code) in &self.cells {
            cells.set_index(usize::from(i), code);
        }
        cells
    }
}

#[derive(Clone, Debug)]
enum Data {
    Uniform(CellCode),
    Sparse(Arc<Sparse>),
    Cells(Arc<SectionCells>),
}

#[derive(Clone, Debug)]
struct Slot {
    data: Data,
    class: SectionClass,
    revision: u64,
}

impl Slot {
    fn cell(&self, cell: IVec3) -> Cell {
        match &self.data {
            Data::Uniform(c) => c.decode(),
            Data::Sparse(sparse) => sparse.view().get(SectionCells::index(cell)).decode(),
            Data::Cells(cells) => cells.get(cell),
        }
    }
}

/// Content for a whole section, for [`WorldStore::load_section`].
#[derive(Clone, Debug)]
pub enum SectionData {
    /// Every cell the same.
    Uniform(Cell),
    /// Individual cells.
    Cells(SectionCells),
}

/// Read-only state shared by the store and its snapshots.
#[derive(Clone, Debug, Default)]
struct Frozen {
    sections: Arc<SectionMap>,
    absent: Absent,
    epoch: u64,
    revision: u64,
    residency: u64,
}

impl Frozen {
    fn slot(&self, section: IVec3) -> Option<&Slot> {
        self.sections.get(&section)
    }
    fn absent_class(&self) -> SectionClass {
        match self.absent {
            Absent::Unknown => SectionClass::Unknown,
            Absent::Air => SectionClass::Empty,
        }
    }
    fn absent_cell(&self) -> Cell {
        match self.absent {
            Absent::Unknown => Cell::Unknown,
            Absent::Air => Cell::Air,
        }
    }
}

/// An immutable, cheap (`Arc`) view of a [`WorldStore`] for a worker: no locks, stable.
#[derive(Clone, Debug)]
pub struct WorldSnapshot {
    frozen: Frozen,
}

impl WorldSnapshot {
    /// Residency counter at the time of the snapshot.
    #[must_use]
    pub fn residency(&self) -> u64 {
        self.frozen.residency
    }
}

/// The voxel world: sections keyed by section coordinates, copy-on-write.
#[derive(Clone, Debug, Default)]
pub struct WorldStore {
    frozen: Frozen,
    changes: Vec<Change>,
    dropped_before: u64,
}

impl WorldStore {
    /// An empty store; sections never stored read as `absent`.
    #[must_use]
    pub fn new(absent: Absent) -> Self {
        Self {
            frozen: Frozen {
                absent,
                ..Frozen::default()
            },
            changes: Vec::new(),
            dropped_before: 0,
        }
    }

    /// A cheap immutable snapshot (clones one `Arc`).
    #[must_use]
    pub fn snapshot(&self) -> WorldSnapshot {
        WorldSnapshot {
            frozen: self.frozen.clone(),
        }
    }

    /// Residency counter: bumped by every section load/unload.
    #[must_use]
    pub fn residency(&self) -> u64 {
        self.frozen.residency
    }

    /// Sets the epoch (a world switch): callers clear caches on a new epoch.
    pub fn set_epoch(&mut self, epoch: u64) {
        self.frozen.epoch = epoch;
    }

    /// Number of stored sections.
    #[must_use]
    pub fn section_count(&self) -> usize {
        self.frozen.sections.len()
    }

    /// Changes with revision > `revision`, in revision then section order; `None` if some were
    /// dropped (more than [`MAX_CHANGES`] since): the caller must then invalidate everything.
    #[must_use]
    pub fn changes_since(&self, revision: u64) -> Option<&[Change]> {
        if revision < self.dropped_before {
            return None;
        }
        let start = self.changes.partition_point(|c| c.revision <= revision);
        self.changes.get(start..)
    }

    fn check_cell(cell: IVec3) -> Result<(), EditError> {
        // `unsigned_abs`: `abs` of i32::MIN overflows.
        if cell
            .to_array()
            .iter()
            .any(|c| c.unsigned_abs() >= WORLD_LIMIT.unsigned_abs())
        {
            return Err(EditError::OutOfWorld(cell));
        }
        Ok(())
    }

    fn begin_edit(&mut self) -> u64 {
        self.frozen.revision += 1;
        self.frozen.revision
    }

    fn record(&mut self, revision: u64, mut sections: Vec<IVec3>) {
        sections.sort_by_key(|s| (s.x, s.y, s.z));
        sections.dedup();
        for section in sections {
            self.changes.push(Change { revision, section });
        }
        if self.changes.len() > MAX_CHANGES {
            let cut = self.changes.len() - MAX_CHANGES / 2;
            // Callers at a revision below the newest dropped change have lost changes. The
            // cut may split one revision's changes, so this is that change's own revision
            // (not "first kept − 1").
            self.dropped_before = cut
                .checked_sub(1)
                .and_then(|i| self.changes.get(i))
                .map_or(revision, |c| c.revision);
            self.changes.drain(..cut);
        }
    }

    /// Sets one cell.
    ///
    /// # Errors
    /// [`EditError`] for an out-of-range material or position.
    pub fn set_cell(&mut self, cell: IVec3, value: Cell) -> Result<(), EditError> {
        self.fill_box(cell, cell, value)
    }

    /// Sets every cell of the inclusive box `min..=max` to `value`.
    ///
    /// # Errors
    /// [`EditError`] for an inverted or oversized box, out-of-range material or position.
    pub fn fill_box(&mut self, min: IVec3, max: IVec3, value: Cell) -> Result<(), EditError> {
        if min.cmpgt(max).any() {
            return Err(EditError::InvertedBox { min, max });
        }
        Self::check_cell(min)?;
        Self::check_cell(max)?;
        let size = (max - min + IVec3::ONE).as_i64vec3();
        // Each side is below 2^29 cells, so the product may exceed u64: saturate.
        let count = size
            .x
            .unsigned_abs()
            .saturating_mul(size.y.unsigned_abs())
            .saturating_mul(size.z.unsigned_abs());
        if count > MAX_FILL_CELLS {
            return Err(EditError::TooLarge(count));
        }
        let partial = partial_sections(min.to_array(), max.to_array());
        if partial > MAX_FILL_PARTIAL_SECTIONS {
            return Err(EditError::TooManyPartialSections(partial));
        }
        let code = match (value, CellCode::encode(value)) {
            (_, Some(code)) => code,
            (Cell::Solid { mat, .. }, None) => return Err(EditError::MaterialOutOfRange(mat.0)),
            (_, None) => return Err(EditError::MaterialOutOfRange(u16::MAX)),
        };
        let revision = self.begin_edit();
        let (smin, smax) = (section_of(min), section_of(max));
        let mut touched = Vec::new();
        let absent = self.frozen.absent_cell();
        let fill = CellCode::encode(absent).unwrap_or(CellCode::UNKNOWN);
        let mut shared = SharedParts::default();
        let map = Arc::make_mut(&mut self.frozen.sections);
        for sy in smin.y..=smax.y {
            for sz in smin.z..=smax.z {
                for sx in smin.x..=smax.x {
                    let s = IVec3::new(sx, sy, sz);
                    let lo = (s * 16).max(min);
                    let hi = (s * 16 + IVec3::splat(15)).min(max);
                    let whole = lo == s * 16 && hi == s * 16 + IVec3::splat(15);
                    let slot = if whole {
                        Slot {
                            data: Data::Uniform(code),
                            class: code.uniform_class(),
                            revision,
                        }
                    } else {
                        let old = map.get(&s).map(|o| &o.data);
                        let data = shared.part(old, fill, lo - s * 16, hi - s * 16, || {
                            edit_part(old, fill, lo, hi, code)
                        });
                        let class = match &data {
                            Data::Uniform(u) => u.uniform_class(),
                            Data::Sparse(_) | Data::Cells(_) => SectionClass::Mixed,
                        };
                        Slot {
                            data,
                            class,
                            revision,
                        }
                    };
                    map.insert(s, slot);
                    touched.push(s);
                }
            }
        }
        self.record(revision, touched);
        Ok(())
    }

    /// Inserts or replaces a whole section (a chunk arriving): bumps residency, records a change.
    ///
    /// # Errors
    /// [`EditError`] for an out-of-range material (uniform data) or position.
    pub fn load_section(&mut self, section: IVec3, data: SectionData) -> Result<(), EditError> {
        // Check the section coordinates before scaling them (×16 could overflow i32).
        let limit = (WORLD_LIMIT / SECTION_SIZE).unsigned_abs();
        if section.to_array().iter().any(|c| c.unsigned_abs() >= limit) {
            return Err(EditError::OutOfWorld(section));
        }
        let data = match data {
            SectionData::Uniform(cell) => Data::Uniform(
                CellCode::encode(cell).ok_or(EditError::MaterialOutOfRange(u16::MAX))?,
            ),
            SectionData::Cells(cells) => match cells.uniform_code() {
                Some(u) => Data::Uniform(u),
                None => Data::Cells(Arc::new(cells)),
            },
        };
        let class = match &data {
            Data::Uniform(c) => c.uniform_class(),
            Data::Sparse(_) | Data::Cells(_) => SectionClass::Mixed,
        };
        let revision = self.begin_edit();
        self.frozen.residency += 1;
        Arc::make_mut(&mut self.frozen.sections).insert(
            section,
            Slot {
                data,
                class,
                revision,
            },
        );
        self.record(revision, vec![section]);
        Ok(())
    }

    /// Unloads a section: it reads as Unknown afterwards. Bumps residency, records a change.
    pub fn unload_section(&mut self, section: IVec3) {
        let revision = self.begin_edit();
        self.frozen.residency += 1;
        let slot = Slot {
            data: Data::Uniform(CellCode::UNKNOWN),
            class: SectionClass::Unknown,
            revision,
        };
        Arc::make_mut(&mut self.frozen.sections).insert(section, slot);
        self.record(revision, vec![section]);
    }

    /// A copy of a stored section's cells (`None` if it was never stored).
    #[must_use]
    pub fn section_data(&self, section: IVec3) -> Option<SectionData> {
        self.frozen.slot(section).map(|s| match &s.data {
            Data::Uniform(c) => SectionData::Uniform(c.decode()),
            Data::Sparse(c) => SectionData::Cells(c.to_cells()),
            Data::Cells(c) => SectionData::Cells((**c).clone()),
        })
    }
}

/// The parts one [`WorldStore::fill_box`] has built for sections that held one code (or
/// nothing) before: a box cuts at most 3 × 3 × 3 different shapes out of such sections (its
/// first, middle and last section along each axis), so sections cut alike share one `Arc`
/// of cells. A slab one cell thick across 256 × 256 sections then costs one array and a slot
/// per section (a few MB), not 512 MiB; a later edit of one section copies its array first.
#[derive(Default)]
struct SharedParts {
    /// `(local lo, local hi, old code)` → the part built for it.
    built: Vec<(IVec3, IVec3, CellCode, Data)>,
}

impl SharedParts {
    /// The part for a section that held `old` cut by the local box `lo..=hi`: shared with
    /// an earlier section cut alike from the same uniform code, else `build()` (kept for the
    /// next).
    fn part(
        &mut self,
        old: Option<&Data>,
        fill: CellCode,
        lo: IVec3,
        hi: IVec3,
        build: impl FnOnce() -> Data,
    ) -> Data {
        let was = match old {
            None => fill,
            Some(Data::Uniform(c)) => *c,
            Some(Data::Sparse(_) | Data::Cells(_)) => return build(),
        };
        if let Some((.., data)) = self
            .built
            .iter()
            .find(|(l, h, c, _)| *l == lo && *h == hi && *c == was)
        {
            return data.clone();
        }
        let data = build();
        self.built.push((lo, hi, was, data.clone()));
        data
    }
}

/// A section's data after setting the cells `lo..=hi` (inside the section) to `code`: sparse
/// while few cells differ from the fill, all 4096 cells beyond [`SPARSE_MAX_CELLS`], uniform
/// when every cell ends up equal.
fn edit_part(old: Option<&Data>, fill: CellCode, lo: IVec3, hi: IVec3, code: CellCode) -> Data {
    let box_cells = ((hi - lo + IVec3::ONE).as_i64vec3().element_product()).unsigned_abs();
    let mut sparse = match old {
        None => Some(Sparse::new(fill)),
        Some(Data::Uniform(c)) => Some(Sparse::new(*c)),
        Some(Data::Sparse(s)) => Some((**s).clone()),
        Some(Data::Cells(_)) => None,
    }
    .filter(|s| s.cells.len() as u64 + box_cells <= SPARSE_MAX_CELLS as u64);
    let mut cells = match (&sparse, old) {
        (Some(_), _) => None,
        (None, Some(Data::Cells(c))) => Some((**c).clone()),
        (None, Some(Data::Sparse(s))) => Some(s.to_cells()),
        (None, Some(Data::Uniform(c))) => Some(SectionCells::filled(*c)),
        (None, None) => Some(SectionCells::filled(fill)),
    };
    for y in lo.y..=hi.y {
        for z in lo.z..=hi.z {
            for x in lo.x..=hi.x {
                let c = IVec3::new(x, y, z);
                if let Some(s) = &mut sparse {
                    s.set(SectionCells::index(c), code);
                } else if let Some(cells) = &mut cells {
                    cells.set(c, code);
                }
            }
        }
    }
    match (sparse, cells) {
        (Some(s), _) if s.cells.is_empty() => Data::Uniform(s.fill),
        (Some(s), _) => Data::Sparse(Arc::new(s)),
        (None, Some(cells)) => match cells.uniform_code() {
            Some(u) => Data::Uniform(u),
            None => Data::Cells(Arc::new(cells)),
        },
        (None, None) => Data::Uniform(fill),
    }
}

macro_rules! impl_probe {
    ($t:ty) => {
        impl WorldProbe for $t {
            fn section_class(&self, section: IVec3) -> SectionClass {
                self.frozen
                    .slot(section)
                    .map_or_else(|| self.frozen.absent_class(), |s| s.class)
            }
            fn cell(&self, cell: IVec3) -> Cell {
                self.frozen
                    .slot(section_of(cell))
                    .map_or_else(|| self.frozen.absent_cell(), |s| s.cell(cell))
            }
            fn section_cells(&self, section: IVec3) -> Option<&SectionCells> {
                match &self.frozen.slot(section)?.data {
                    Data::Cells(c) => Some(c),
                    Data::Uniform(_) | Data::Sparse(_) => None,
                }
            }
            fn section_sparse(&self, section: IVec3) -> Option<SparseCells<'_>> {
                match &self.frozen.slot(section)?.data {
                    Data::Sparse(s) => Some(s.view()),
                    Data::Uniform(_) | Data::Cells(_) => None,
                }
            }
            fn section_access(&self, section: IVec3) -> SectionAccess<'_> {
                let (class, cells, sparse) = match self.frozen.slot(section) {
                    None => (self.frozen.absent_class(), None, None),
                    Some(slot) => match &slot.data {
                        Data::Cells(c) => (slot.class, Some(&**c), None),
                        Data::Sparse(s) => (slot.class, None, Some(s.view())),
                        Data::Uniform(_) => (slot.class, None, None),
                    },
                };
                SectionAccess {
                    class,
                    cells,
                    sparse,
                }
            }
            fn section_view(&self, section: IVec3) -> (SectionClass, Option<&SectionCells>) {
                match self.frozen.slot(section) {
                    None => (self.frozen.absent_class(), None),
                    Some(slot) => match &slot.data {
                        Data::Cells(c) => (slot.class, Some(c)),
                        Data::Uniform(_) | Data::Sparse(_) => (slot.class, None),
                    },
                }
            }
            fn epoch(&self) -> u64 {
                self.frozen.epoch
            }
            fn revision(&self) -> u64 {
                self.frozen.revision
            }
            fn section_revision(&self, section: IVec3) -> u64 {
                self.frozen.slot(section).map_or(0, |s| s.revision)
            }
        }
    };
}

impl_probe!(WorldStore);
impl_probe!(WorldSnapshot);

#[cfg(test)]
mod tests;
