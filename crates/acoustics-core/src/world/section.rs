//! One 16³ section of cells, packed 2 bytes per cell.

use glam::IVec3;

use super::cell::{Cell, SECTION_CELLS, SECTION_SIZE, SectionClass};
use super::material::MaterialId;

/// A cell packed into 16 bits: 0 = air, 1 = unknown, `2 + (mat << 1 | partial)` = solid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellCode(pub u16);

impl CellCode {
    /// Air.
    pub const AIR: Self = Self(0);
    /// Not resident.
    pub const UNKNOWN: Self = Self(1);

    /// Packs a cell; `None` if the material id exceeds [`MaterialId::MAX`].
    #[must_use]
    pub fn encode(cell: Cell) -> Option<Self> {
        match cell {
            Cell::Air => Some(Self::AIR),
            Cell::Unknown => Some(Self::UNKNOWN),
            Cell::Solid { mat, partial } => {
                if mat > MaterialId::MAX {
                    return None;
                }
                Some(Self(2 + ((mat.0 << 1) | u16::from(partial))))
            }
        }
    }

    /// Unpacks the cell.
    #[must_use]
    pub fn decode(self) -> Cell {
        match self.0 {
            0 => Cell::Air,
            1 => Cell::Unknown,
            v => {
                let v = v - 2;
                Cell::Solid {
                    mat: MaterialId(v >> 1),
                    partial: v & 1 == 1,
                }
            }
        }
    }

    /// The class of a section made only of this cell.
    #[must_use]
    pub fn uniform_class(self) -> SectionClass {
        match self.decode() {
            Cell::Air => SectionClass::Empty,
            Cell::Unknown => SectionClass::Unknown,
            Cell::Solid {
                mat,
                partial: false,
            } => SectionClass::Full(mat),
            Cell::Solid { partial: true, .. } => SectionClass::Mixed,
        }
    }
}

/// The 4096 cells of a section, index `x + 16·(z + 16·y)` of local coordinates 0..16, with a
/// box that holds every cell other than air ([`SectionCells::extent`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionCells {
    cells: Box<[CellCode; SECTION_CELLS]>,
    extent: Option<Extent>,
}

/// A box of local coordinates (inclusive corners, `x`, `y`, `z` in 0..16) that holds every
/// non-air cell of a section. It grows with writes and is not shrunk when cells turn to air,
/// so it may be larger than the cells need, never smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    /// Lowest corner.
    pub min: [u8; 3],
    /// Highest corner.
    pub max: [u8; 3],
}

impl Extent {
    /// The whole section.
    pub const FULL: Self = Self {
        min: [0; 3],
        max: [15; 3],
    };

    /// The box of one cell (local coordinates, each wrapped into 0..16).
    #[must_use]
    pub fn of(local: [i32; 3]) -> Self {
        let m = SECTION_SIZE - 1;
        let c = [local[0] & m, local[1] & m, local[2] & m];
        let c = [c[0] as u8, c[1] as u8, c[2] as u8];
        Self { min: c, max: c }
    }

    /// The smallest box holding both.
    #[must_use]
    pub fn union(self, other: Self) -> Self {
        let (a, b) = (self, other);
        Self {
            min: [
                a.min[0].min(b.min[0]),
                a.min[1].min(b.min[1]),
                a.min[2].min(b.min[2]),
            ],
            max: [
                a.max[0].max(b.max[0]),
                a.max[1].max(b.max[1]),
                a.max[2].max(b.max[2]),
            ],
        }
    }
}

impl SectionCells {
    /// A section filled with one cell code.
    #[must_use]
    pub fn filled(code: CellCode) -> Self {
        Self {
            cells: Box::new([code; SECTION_CELLS]),
            extent: (code != CellCode::AIR).then_some(Extent::FULL),
        }
    }

    /// The section of these codes (index [`SectionCells::index`]); its extent is found in one
    /// pass over the rows, cheaper than growing it cell by cell as [`SectionCells::set`] does.
    #[must_use]
    pub fn from_codes(cells: Box<[CellCode; SECTION_CELLS]>) -> Self {
        let extent = scan_extent(&cells);
        Self { cells, extent }
    }

    /// The section of these codes with `extent` as its box of non-air cells, which the caller
    /// found as it wrote them: it must hold every non-air code (checked in debug builds).
    #[must_use]
    pub(crate) fn with_extent(
        cells: Box<[CellCode; SECTION_CELLS]>,
        extent: Option<Extent>,
    ) -> Self {
        debug_assert!(
            scan_extent(&cells).is_none_or(|s| extent.is_some_and(|e| e.union(s) == e)),
            "the extent holds every non-air cell"
        );
        Self { cells, extent }
    }

    /// A box holding every cell other than air (solid or Unknown); `None` when all are air.
    #[must_use]
    pub fn extent(&self) -> Option<Extent> {
        self.extent
    }

    /// Index of local coordinates (each wrapped into 0..16).
    #[must_use]
    pub fn index(local: IVec3) -> usize {
        let m = SECTION_SIZE - 1;
        // The masks keep each term in 0..16, so the sum is in 0..4096.
        usize::try_from((local.x & m) + 16 * ((local.z & m) + 16 * (local.y & m))).unwrap_or(0)
    }

    /// Cell code at local coordinates (wrapped into 0..16); works with world cell
    /// coordinates too, since only the low 4 bits are used.
    #[must_use]
    pub fn code(&self, local: IVec3) -> CellCode {
        self.cells[Self::index(local)]
    }

    /// Cell at local coordinates (wrapped into 0..16).
    #[must_use]
    pub fn get(&self, local: IVec3) -> Cell {
        self.code(local).decode()
    }

    /// Sets a cell code at local coordinates (wrapped into 0..16).
    pub fn set(&mut self, local: IVec3, code: CellCode) {
        self.set_index(Self::index(local), code);
    }

    /// Sets a cell code by its [`SectionCells::index`] (ignored beyond 4095).
    pub fn set_index(&mut self, index: usize, code: CellCode) {
        let Some(c) = self.cells.get_mut(index) else {
            return;
        };
        *c = code;
        if code != CellCode::AIR {
            // In 0..4096: x in bits 0–3, z in 4–7, y in 8–11.
            let i = index as i32;
            let cell = Extent::of([i, i >> 8, i >> 4]);
            self.extent = Some(self.extent.map_or(cell, |e| e.union(cell)));
        }
    }

    /// Class of the section: uniform classes when all cells are equal, else `Mixed`.
    #[must_use]
    pub fn class(&self) -> SectionClass {
        self.uniform_code()
            .map_or(SectionClass::Mixed, CellCode::uniform_class)
    }

    /// The single code of a uniform section.
    #[must_use]
    pub fn uniform_code(&self) -> Option<CellCode> {
        let first = self.cells[0];
        self.cells.iter().all(|c| *c == first).then_some(first)
    }

    /// Raw codes.
    #[must_use]
    pub fn codes(&self) -> &[CellCode; SECTION_CELLS] {
        &self.cells
    }
}

/// The smallest box holding every non-air code, found per row of 16 cells: the rows that hold
/// one give the `y` and `z` ranges, and the cells of all rows ORed together the `x` range.
fn scan_extent(cells: &[CellCode; SECTION_CELLS]) -> Option<Extent> {
    let size = SECTION_SIZE as usize;
    let (mut lo, mut hi) = ([size; 2], [0usize; 2]);
    let mut columns = [0u16; 16];
    for (r, row) in cells.chunks_exact(size).enumerate() {
        let mut any = 0u16;
        for (c, code) in columns.iter_mut().zip(row) {
            *c |= code.0;
            any |= code.0;
        }
        if any != 0 {
            // Row `r` is z + 16·y.
            let (y, z) = (r / size, r % size);
            (lo[0], hi[0]) = (lo[0].min(y), hi[0].max(y));
            (lo[1], hi[1]) = (lo[1].min(z), hi[1].max(z));
        }
    }
    let first = columns.iter().position(|c| *c != 0)?;
    let last = columns.iter().rposition(|c| *c != 0).unwrap_or(first);
    // All below 16.
    let v = |x: usize| x as u8;
    Some(Extent {
        min: [v(first), v(lo[0]), v(lo[1])],
        max: [v(last), v(hi[0]), v(hi[1])],
    })
}

#[cfg(test)]
mod tests;

/// A sparsely stored section (see [`crate::world::store::SPARSE_MAX_CELLS`]): one fill code and
/// the few cells that differ from it, sorted by [`SectionCells::index`], with an index of which
/// cells are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SparseCells<'a> {
    /// The code of every cell not listed.
    pub fill: CellCode,
    /// `(index, code)` of the cells that differ from `fill`, ascending by index.
    pub cells: &'a [(u16, CellCode)],
    /// Which cells `cells` lists ([`SparseIndex::of`] of `cells`): a cell not in it reads as
    /// `fill` without a search.
    pub index: &'a SparseIndex,
}

impl SparseCells<'_> {
    /// The code of the cell at `index` ([`SectionCells::index`]).
    #[must_use]
    #[inline]
    pub fn get(&self, index: usize) -> CellCode {
        if self.index.contains(index) {
            self.listed(index)
        } else {
            self.fill
        }
    }

    /// The code of the cell at `index` found by searching `cells` (`fill` if not listed).
    #[must_use]
    pub fn listed(&self, index: usize) -> CellCode {
        self.cells
            .binary_search_by_key(&index, |&(i, _)| usize::from(i))
            .map_or(self.fill, |k| self.cells[k].1)
    }

    /// A 64-bit mask of the 4 × 4 × 4 bricks holding listed cells (bit [`brick_of_index`] of a
    /// cell).
    #[must_use]
    pub fn brick_mask(&self) -> u64 {
        self.index.bricks()
    }
}

/// Which cells of a section a sparse list holds: a bit per 4 × 4 × 4 brick ([`brick_of_index`])
/// and, for each marked brick, a bit per cell ([`cell_of_index`]), so that asking about a cell
/// costs two bit tests instead of a search. At most 8 bytes per marked brick besides the mask.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SparseIndex {
    /// Bit `b` set: brick `b` holds listed cells.
    bricks: u64,
    /// The cell bits of the marked bricks, in ascending brick order (never 0).
    cells: Vec<u64>,
}

impl SparseIndex {
    /// The index of a list of `(index, code)` cells (indices beyond 4095 are ignored).
    #[must_use]
    pub fn of(cells: &[(u16, CellCode)]) -> Self {
        let mut index = Self::default();
        for &(i, _) in cells {
            index.insert(usize::from(i));
        }
        index
    }

    /// The mask of marked bricks.
    #[must_use]
    pub fn bricks(&self) -> u64 {
        self.bricks
    }

    /// Position in `cells` of a marked brick's entry: the marked bricks below it.
    fn rank(&self, brick: u32) -> usize {
        (self.bricks & ((1u64 << brick) - 1)).count_ones() as usize
    }

    /// True if the cell at `index` ([`SectionCells::index`]) is listed.
    #[must_use]
    #[inline]
    pub fn contains(&self, index: usize) -> bool {
        let brick = brick_of_index(index);
        index < SECTION_CELLS
            && self.bricks >> brick & 1 == 1
            && self
                .cells
                .get(self.rank(brick))
                .is_some_and(|m| m >> cell_of_index(index) & 1 == 1)
    }

    /// Marks the cell at `index` as listed (ignored beyond 4095).
    pub fn insert(&mut self, index: usize) {
        if index >= SECTION_CELLS {
            return;
        }
        let brick = brick_of_index(index);
        let rank = self.rank(brick);
        if self.bricks >> brick & 1 == 0 {
            self.bricks |= 1 << brick;
            self.cells.insert(rank, 0);
        }
        if let Some(m) = self.cells.get_mut(rank) {
            *m |= 1 << cell_of_index(index);
        }
    }

    /// Marks the cell at `index` as not listed.
    pub fn remove(&mut self, index: usize) {
        if index >= SECTION_CELLS {
            return;
        }
        let brick = brick_of_index(index);
        if self.bricks >> brick & 1 == 0 {
            return;
        }
        let rank = self.rank(brick);
        if let Some(m) = self.cells.get_mut(rank) {
            *m &= !(1 << cell_of_index(index));
            if *m == 0 {
                self.cells.remove(rank);
                self.bricks &= !(1 << brick);
            }
        }
    }
}

/// The brick (0..64) of a cell index: 4 × 4 × 4 cells, `bx + 4·(bz + 4·by)`.
#[must_use]
#[inline]
pub fn brick_of_index(index: usize) -> u32 {
    // index = x + 16·(z + 16·y): x in bits 0–3, z in 4–7, y in 8–11; a brick coordinate is
    // the high 2 bits of each.
    (((index >> 2) & 3) | ((index >> 4) & 0xC) | ((index >> 6) & 0x30)) as u32
}

/// The cell (0..64) of a cell index inside its brick: `x + 4·(z + 4·y)` of the low 2 bits of
/// each local coordinate.
#[must_use]
#[inline]
pub fn cell_of_index(index: usize) -> u32 {
    ((index & 3) | ((index >> 2) & 0xC) | ((index >> 4) & 0x30)) as u32
}
