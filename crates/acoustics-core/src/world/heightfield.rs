//! A storage-free terrain probe: a vertex grid of heights, split into two triangles per grid
//! cell, with a material rule per grid cell and boxes placed over it (spec §12).
//!
//! Nothing here knows about DAT files: a host (the engine's terrain adapter) fills a
//! [`VertexGrid`] and says per grid cell which [`Diagonal`] splits it and which [`Layers`] of
//! material lie under its surface. Voxels are never stored: a cell is solid when its centre lies
//! below the terrain height at its centre's horizontal position, computed on demand from the
//! triangle's plane. Section classes come from per-tile height bounds, so a ray through open
//! sky skips whole sections and a ray through a hill walks only the sections at the surface.
//!
//! Rays that come back to the same sections read them from a bounded [`cache`]: each section's
//! class, and a `Mixed` section's cells, computed once and kept with the terrain.
//!
//! Axes are the voxel world's: `y` is up; the grid spans the horizontal `x` and `z` axes.
//! Vertex `(i, k)` lies at voxel `(origin.x + i·spacing, height, origin.y + k·spacing)`.

pub mod cache;
pub mod sky;

use std::sync::Arc;

use glam::{IVec2, IVec3};

use super::material::MaterialId;
use super::probe::{Cell, SECTION_SIZE, SectionAccess, SectionClass, WorldProbe};
use super::section::SectionCells;

/// Which diagonal splits a grid cell into two triangles. Corners are named by their grid
/// offsets: `c00 = (i, k)`, `c10 = (i + 1, k)`, `c01 = (i, k + 1)`, `c11 = (i + 1, k + 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// The shared edge joins `c00` and `c11` (triangles c00-c10-c11 and c00-c01-c11).
    Main,
    /// The shared edge joins `c10` and `c01` (triangles c00-c10-c01 and c10-c11-c01).
    Anti,
}

/// The material under a grid cell's surface: `top` for cells whose centre lies less than
/// `depth` below the surface, `below` deeper down (water: 2 m of water over stone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layers {
    /// Material of the top layer.
    pub top: MaterialId,
    /// Thickness of the top layer (blocks); 0 gives `below` everywhere.
    pub depth: f32,
    /// Material below the top layer.
    pub below: MaterialId,
}

impl Layers {
    /// One material at every depth.
    #[must_use]
    pub fn uniform(mat: MaterialId) -> Self {
        Self {
            top: mat,
            depth: 0.0,
            below: mat,
        }
    }

    /// The material at `depth` below the surface (`depth > 0`).
    #[must_use]
    pub fn at_depth(&self, depth: f32) -> MaterialId {
        if depth < self.depth {
            self.top
        } else {
            self.below
        }
    }

    fn single(&self) -> Option<MaterialId> {
        (self.top == self.below || self.depth <= 0.0).then_some(self.below)
    }
}

/// A grid of vertex heights (`None` where the terrain is not resident).
#[derive(Clone, Debug, PartialEq)]
pub struct VertexGrid {
    /// Voxel `(x, z)` of vertex `(0, 0)`.
    pub origin: IVec2,
    /// Blocks between neighbouring vertices (≥ 1).
    pub spacing: i32,
    /// Vertices along `x`.
    pub cols: usize,
    /// Vertices along `z`.
    pub rows: usize,
    /// Heights (voxel `y`), index `i + cols·k`.
    pub heights: Vec<Option<f32>>,
}

impl VertexGrid {
    /// A grid of `cols × rows` vertices, all absent.
    #[must_use]
    pub fn new(origin: IVec2, spacing: i32, cols: usize, rows: usize) -> Self {
        Self {
            origin,
            spacing,
            cols,
            rows,
            heights: vec![None; cols * rows],
        }
    }

    /// Sets vertex `(i, k)`; ignored outside the grid.
    pub fn set(&mut self, i: usize, k: usize, height: f32) {
        if i < self.cols && k < self.rows {
            self.heights[i + self.cols * k] = Some(height);
        }
    }

    /// Vertex `(i, k)`, `None` outside the grid or when absent.
    #[must_use]
    pub fn get(&self, i: usize, k: usize) -> Option<f32> {
        if i < self.cols && k < self.rows {
            self.heights[i + self.cols * k]
        } else {
            None
        }
    }
}

/// Why a heightfield could not be built.
#[derive(Debug, thiserror::Error, PartialEq)]
#[non_exhaustive]
pub enum HeightfieldError {
    /// Spacing below 1, or a grid of fewer than 2 × 2 vertices.
    #[error("a vertex grid needs spacing ≥ 1 and at least 2 × 2 vertices")]
    BadGrid,
    /// The height list does not match `cols × rows`.
    #[error("the vertex grid has {got} heights for {cols} × {rows} vertices")]
    HeightCount {
        /// Heights given.
        got: usize,
        /// Columns.
        cols: usize,
        /// Rows.
        rows: usize,
    },
    /// A height is not finite or lies beyond ±2^24 blocks.
    #[error("vertex ({i}, {k}) has a height that is not finite or beyond ±2^24")]
    BadHeight {
        /// Column.
        i: usize,
        /// Row.
        k: usize,
    },
    /// The grid reaches beyond the supported world (±2^28 blocks).
    #[error("the vertex grid reaches beyond the supported world")]
    OutOfWorld,
}

/// One grid cell ("tile"): its two triangle planes, bounds and material.
#[derive(Clone, Copy, Debug)]
struct Tile {
    /// Plane of the first triangle: `h = a + b·u + c·w` (u, w in blocks from the tile corner).
    first: [f32; 3],
    /// Plane of the second triangle.
    second: [f32; 3],
    diagonal: Diagonal,
    min: f32,
    max: f32,
    layers: Layers,
}

/// A box of cells placed over the terrain (inclusive bounds); it wins where it overlaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedBox {
    /// Smallest cell.
    pub min: IVec3,
    /// Largest cell.
    pub max: IVec3,
    /// What the box holds (air carves, a solid fills).
    pub cell: Cell,
}

impl PlacedBox {
    fn contains(&self, c: IVec3) -> bool {
        c.cmpge(self.min).all() && c.cmple(self.max).all()
    }

    fn touches_section(&self, s: IVec3) -> bool {
        let lo = s * SECTION_SIZE;
        let hi = lo + IVec3::splat(SECTION_SIZE - 1);
        self.min.cmple(hi).all() && self.max.cmpge(lo).all()
    }

    fn covers_section(&self, s: IVec3) -> bool {
        let lo = s * SECTION_SIZE;
        let hi = lo + IVec3::splat(SECTION_SIZE - 1);
        self.min.cmple(lo).all() && self.max.cmpge(hi).all()
    }
}

/// A terrain [`WorldProbe`] computed from a vertex grid, without voxel storage.
///
/// Outside the grid, and on grid cells with an absent corner, cells are `outside` (usually
/// [`Cell::Unknown`]: counted as air, reported in the unknown share).
#[derive(Clone, Debug)]
pub struct Heightfield {
    origin: IVec2,
    spacing: i32,
    inv_spacing: f32,
    tiles_x: usize,
    tiles_z: usize,
    tiles: Vec<Option<Tile>>,
    boxes: Vec<PlacedBox>,
    outside: Cell,
    epoch: u64,
    revision: u64,
    /// Sections computed so far; shared by clones (the same terrain), replaced on a change.
    cache: Arc<cache::SectionCache>,
    /// Where each section column's open sky begins.
    sky: sky::Sky,
}

fn plane(h0: f32, du: f32, dw: f32) -> [f32; 3] {
    [h0, du, dw]
}

impl Heightfield {
    /// Builds the probe: `split(i, k)` and `material(i, k)` are asked once per grid cell whose 4
    /// corners are present.
    ///
    /// # Errors
    /// [`HeightfieldError`] for a malformed grid.
    pub fn new(
        grid: &VertexGrid,
        mut split: impl FnMut(usize, usize) -> Diagonal,
        mut material: impl FnMut(usize, usize) -> Layers,
        outside: Cell,
    ) -> Result<Self, HeightfieldError> {
        if grid.spacing < 1 || grid.cols < 2 || grid.rows < 2 {
            return Err(HeightfieldError::BadGrid);
        }
        if grid.heights.len() != grid.cols * grid.rows {
            return Err(HeightfieldError::HeightCount {
                got: grid.heights.len(),
                cols: grid.cols,
                rows: grid.rows,
            });
        }
        let limit = i64::from(super::store::WORLD_LIMIT);
        let span = |n: usize| i64::try_from(n).unwrap_or(i64::MAX) * i64::from(grid.spacing);
        let far_x = i64::from(grid.origin.x) + span(grid.cols);
        let far_z = i64::from(grid.origin.y) + span(grid.rows);
        if [
            i64::from(grid.origin.x),
            i64::from(grid.origin.y),
            far_x,
            far_z,
        ]
        .iter()
        .any(|v| v.abs() >= limit)
        {
            return Err(HeightfieldError::OutOfWorld);
        }
        for k in 0..grid.rows {
            for i in 0..grid.cols {
                if let Some(h) = grid.get(i, k)
                    && (!h.is_finite() || h.abs() > 16_777_216.0)
                {
                    return Err(HeightfieldError::BadHeight { i, k });
                }
            }
        }
        let (tiles_x, tiles_z) = (grid.cols - 1, grid.rows - 1);
        let s = grid.spacing as f32;
        let mut tiles = Vec::with_capacity(tiles_x * tiles_z);
        for k in 0..tiles_z {
            for i in 0..tiles_x {
                let corners = (
                    grid.get(i, k),
                    grid.get(i + 1, k),
                    grid.get(i, k + 1),
                    grid.get(i + 1, k + 1),
                );
                let (Some(h00), Some(h10), Some(h01), Some(h11)) = corners else {
                    tiles.push(None);
                    continue;
                };
                let diagonal = split(i, k);
                // Planes in blocks from the tile's c00 corner (u along x, w along z).
                let (first, second) = match diagonal {
                    // c00-c10-c11 (u ≥ w) and c00-c01-c11 (w > u).
                    Diagonal::Main => (
                        plane(h00, (h10 - h00) / s, (h11 - h10) / s),
                        plane(h00, (h11 - h01) / s, (h01 - h00) / s),
                    ),
                    // c00-c10-c01 (u + w ≤ s) and c10-c11-c01 (u + w > s).
                    Diagonal::Anti => (
                        plane(h00, (h10 - h00) / s, (h01 - h00) / s),
                        plane(h10 + h01 - h11, (h11 - h01) / s, (h11 - h10) / s),
                    ),
                };
                tiles.push(Some(Tile {
                    first,
                    second,
                    diagonal,
                    min: h00.min(h10).min(h01).min(h11),
                    max: h00.max(h10).max(h01).max(h11),
                    layers: material(i, k),
                }));
            }
        }
        let mut field = Self {
            origin: grid.origin,
            spacing: grid.spacing,
            inv_spacing: 1.0 / s,
            tiles_x,
            tiles_z,
            tiles,
            boxes: Vec::new(),
            outside,
            epoch: 0,
            revision: 0,
            cache: Arc::default(),
            sky: sky::Sky::default(),
        };
        field.sky = sky::Sky::build(&field);
        Ok(field)
    }

    /// Places a box over the terrain; later boxes win over earlier ones and all win over the
    /// terrain. Bumps the revision.
    pub fn place(&mut self, placed: PlacedBox) {
        self.boxes.push(placed);
        self.revision += 1;
        self.cache = Arc::default();
        self.sky.cover(&placed);
    }

    /// Drops the cached sections (this value only; clones keep theirs). Answers do not change:
    /// benches and tests use it to time or compare the uncached path.
    pub fn clear_cache(&mut self) {
        self.cache = Arc::default();
    }

    /// The placed boxes, in order.
    #[must_use]
    pub fn boxes(&self) -> &[PlacedBox] {
        &self.boxes
    }

    /// Sets the epoch (a host bumps it on a world switch or teleport).
    pub fn set_epoch(&mut self, epoch: u64) {
        self.epoch = epoch;
    }

    /// Sets the revision (a host that rebuilds the field keeps it increasing).
    pub fn set_revision(&mut self, revision: u64) {
        self.revision = revision;
    }

    /// Blocks between vertices.
    #[must_use]
    pub fn spacing(&self) -> i32 {
        self.spacing
    }

    /// The tile holding horizontal position `(fx, fz)`, in blocks from the grid origin, and
    /// the position in blocks from the tile's `c00` corner.
    #[inline]
    fn tile_at(&self, fx: f32, fz: f32) -> Option<(&Tile, f32, f32)> {
        // `!(a >= 0)` also rejects NaN; truncation is floor for non-negative values (and
        // avoids a libm `floor` call on the x86-64 baseline).
        if !(fx >= 0.0 && fz >= 0.0) {
            return None;
        }
        let ti = (fx * self.inv_spacing) as usize;
        let tk = (fz * self.inv_spacing) as usize;
        if ti >= self.tiles_x || tk >= self.tiles_z {
            return None;
        }
        let tile = self.tiles[ti + self.tiles_x * tk].as_ref()?;
        let s = self.spacing as f32;
        let u = (fx - ti as f32 * s).clamp(0.0, s);
        let w = (fz - tk as f32 * s).clamp(0.0, s);
        Some((tile, u, w))
    }

    /// Terrain height (voxel `y`) at horizontal voxel position `(x, z)`: the plane of the
    /// triangle holding it; `None` outside the grid or on an absent tile.
    #[must_use]
    pub fn height_at(&self, x: f64, z: f64) -> Option<f32> {
        let fx = (x - f64::from(self.origin.x)) as f32;
        let fz = (z - f64::from(self.origin.y)) as f32;
        self.tile_at(fx, fz)
            .map(|(t, u, w)| tile_height(t, u, w, self.spacing as f32))
    }

    /// The terrain cell alone (no boxes).
    #[inline]
    fn terrain_cell(&self, c: IVec3) -> Cell {
        // Cell and origin are inside ±2^28, so the differences fit in i32.
        let fx = c.x.wrapping_sub(self.origin.x) as f32 + 0.5;
        let fz = c.z.wrapping_sub(self.origin.y) as f32 + 0.5;
        match self.tile_at(fx, fz) {
            None => self.outside,
            Some((t, u, w)) => {
                let h = tile_height(t, u, w, self.spacing as f32);
                let depth = h - (c.y as f32 + 0.5);
                if depth > 0.0 {
                    Cell::solid(t.layers.at_depth(depth))
                } else {
                    Cell::Air
                }
            }
        }
    }

    /// The tiles under section column `(sx, sz)`, `None` for an absent tile or beyond the grid
    /// (rows of `x` in ascending `z`).
    fn column_tiles(&self, sx: i32, sz: i32) -> impl Iterator<Item = Option<&Tile>> + '_ {
        self.span_tiles(self.x_span(sx), self.z_span(sz))
    }

    /// The tile columns `i0..=i1` under section column `sx` (possibly beyond the grid).
    fn x_span(&self, sx: i32) -> (i64, i64) {
        tile_span(sx, self.origin.x, self.spacing)
    }

    /// The tile rows `k0..=k1` under section row `sz` (possibly beyond the grid).
    fn z_span(&self, sz: i32) -> (i64, i64) {
        tile_span(sz, self.origin.y, self.spacing)
    }

    /// The tiles of spans from [`Self::x_span`] and [`Self::z_span`], `None` for an absent tile
    /// or beyond the grid (rows of `x` in ascending `z`).
    fn span_tiles(
        &self,
        (i0, i1): (i64, i64),
        (k0, k1): (i64, i64),
    ) -> impl Iterator<Item = Option<&Tile>> + '_ {
        let nx = i64::try_from(self.tiles_x).unwrap_or(i64::MAX);
        let nz = i64::try_from(self.tiles_z).unwrap_or(i64::MAX);
        (k0..=k1).flat_map(move |k| {
            (i0..=i1).map(move |i| {
                if i >= 0 && k >= 0 && i < nx && k < nz {
                    usize::try_from(i + nx * k)
                        .ok()
                        .and_then(|idx| self.tiles.get(idx))
                        .and_then(Option::as_ref)
                } else {
                    None
                }
            })
        })
    }

    /// Class of the terrain alone in a section, from the bounds of the tiles under it.
    fn terrain_class(&self, section: IVec3) -> SectionClass {
        let lo = section * SECTION_SIZE;
        let (mut min, mut max) = (f32::INFINITY, f32::NEG_INFINITY);
        let (mut present, mut absent) = (0u32, 0u32);
        let mut mat: Option<Option<MaterialId>> = None;
        let bottom = lo.y as f32;
        let top = bottom + SECTION_SIZE as f32;
        for tile in self.column_tiles(section.x, section.z) {
            let Some(t) = tile else {
                absent += 1;
                continue;
            };
            present += 1;
            min = min.min(t.min);
            max = max.max(t.max);
            // The one material of this tile inside the section, if there is one.
            let here = t
                .layers
                .single()
                .or_else(|| (top + t.layers.depth <= t.min).then_some(t.layers.below));
            mat = Some(match mat {
                None => here,
                Some(m) => m.filter(|m| Some(*m) == here),
            });
        }
        if present == 0 {
            return uniform_class(self.outside);
        }
        if absent > 0 {
            // Part terrain, part outside: uniform only if both halves are the same air.
            return if bottom >= max && self.outside == Cell::Air {
                SectionClass::Empty
            } else {
                SectionClass::Mixed
            };
        }
        if bottom >= max {
            SectionClass::Empty
        } else if top <= min {
            match mat.flatten() {
                Some(m) => SectionClass::Full(m),
                None => SectionClass::Mixed,
            }
        } else {
            SectionClass::Mixed
        }
    }
}

/// The tiles `a..=b` (along one axis, from the grid origin) under the section at `section`.
fn tile_span(section: i32, origin: i32, spacing: i32) -> (i64, i64) {
    let s = i64::from(spacing);
    let lo = i64::from(section.wrapping_mul(SECTION_SIZE)) - i64::from(origin);
    (
        lo.div_euclid(s),
        (lo + i64::from(SECTION_SIZE) - 1).div_euclid(s),
    )
}

fn tile_height(t: &Tile, u: f32, w: f32, s: f32) -> f32 {
    let first = match t.diagonal {
        Diagonal::Main => u >= w,
        Diagonal::Anti => u + w <= s,
    };
    let p = if first { &t.first } else { &t.second };
    p[0] + p[1] * u + p[2] * w
}

/// The class of a section made only of `cell`.
fn uniform_class(cell: Cell) -> SectionClass {
    match cell {
        Cell::Air => SectionClass::Empty,
        Cell::Unknown => SectionClass::Unknown,
        Cell::Solid {
            mat,
            partial: false,
        } => SectionClass::Full(mat),
        Cell::Solid { partial: true, .. } => SectionClass::Mixed,
    }
}

impl WorldProbe for Heightfield {
    fn section_class(&self, section: IVec3) -> SectionClass {
        let mut touched = false;
        for b in self.boxes.iter().rev() {
            if b.touches_section(section) {
                if !touched && b.covers_section(section) {
                    return uniform_class(b.cell);
                }
                touched = true;
            }
        }
        if touched {
            SectionClass::Mixed
        } else {
            self.terrain_class(section)
        }
    }

    fn cell(&self, cell: IVec3) -> Cell {
        if !self.boxes.is_empty()
            && let Some(b) = self.boxes.iter().rev().find(|b| b.contains(cell))
        {
            return b.cell;
        }
        self.terrain_cell(cell)
    }

    fn section_cells(&self, section: IVec3) -> Option<&SectionCells> {
        self.section_access(section).cells
    }

    fn section_view(&self, section: IVec3) -> (SectionClass, Option<&SectionCells>) {
        let a = self.section_access(section);
        (a.class, a.cells)
    }

    fn section_access(&self, section: IVec3) -> SectionAccess<'_> {
        let (class, cells) = match self.sky.class(section) {
            Some(class) => (class, None),
            None => self.cache.access(self, section),
        };
        SectionAccess {
            class,
            cells,
            sparse: None,
        }
    }

    fn ground_height(&self, x: f64, z: f64) -> Option<f64> {
        self.height_at(x, z).map(f64::from)
    }

    fn epoch(&self) -> u64 {
        self.epoch
    }

    fn revision(&self) -> u64 {
        self.revision
    }
}

#[cfg(test)]
mod tests;
