//! A* over air, coarse where sections are uniform: a cell path from source to listener.
//!
//! Two kinds of node. In a `Mixed` section (or a `Full` one holding an end) a node is a cell
//! and the search steps to its six face neighbours (unit cost), as on a plain cell grid. An
//! `Empty` or `Unknown` section (all air as far as paths go) is one node, entered at the cell
//! the search first reached it by: from there any cell of it is its Manhattan distance away
//! through air, so the search crosses it in one step: to an open neighbour section (entered at
//! the nearest cell, one read), to the air cells of a Mixed neighbour's facing layer (one read
//! each), or to the listener's cell inside it. A `Full` section is skipped with one read. In
//! open sky the search so spends a few hundred reads per section instead of six per cell.
//!
//! The heuristic is the Manhattan distance to the listener's cell, ties to the deeper node;
//! nodes whose cell lies outside the ellipsoid of paths no longer than the limit are pruned.
//! A section node keeps one entry cell (the best found before it was expanded), so a path
//! through open sections is near-shortest rather than shortest; the smoothing that follows
//! pulls it taut either way. Reads charge one cell of the budget each (`read_cost`: three on
//! a heightfield world); a neighbour already expanded is not read again.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::BuildHasherDefault;

use glam::{DVec3, IVec3};

use super::grid::{AirGrid, Exhausted};
use crate::budget::Budget;
use crate::world::cell::{SECTION_CELLS, SECTION_SIZE, SectionClass, section_of};
use crate::world::probe::WorldProbe;
use crate::world::section::SectionCells;
use crate::world::store::SectionHasher;

/// Most nodes one search may hold (a memory bound even on an unlimited budget): beyond it the
/// search ends as over budget.
pub const MAX_NODES: usize = 1 << 22;

/// The six face neighbours, in the fixed order the search expands them.
const STEPS: [IVec3; 6] = [
    IVec3::X,
    IVec3::NEG_X,
    IVec3::Y,
    IVec3::NEG_Y,
    IVec3::Z,
    IVec3::NEG_Z,
];

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The cell, or a section node's entry cell.
    cell: IVec3,
    g: u32,
    parent: u32,
    closed: bool,
    /// A whole open section (entered at `cell`).
    section: bool,
}

/// The centre of `cell`.
pub(crate) fn centre(cell: IVec3) -> DVec3 {
    cell.as_dvec3() + DVec3::splat(0.5)
}

fn manhattan(a: IVec3, b: IVec3) -> u32 {
    let d = (a - b).abs();
    (d.x + d.y + d.z).unsigned_abs()
}

/// The lowest and highest cells of `section`.
fn bounds(section: IVec3) -> (IVec3, IVec3) {
    let min = section * SECTION_SIZE;
    (min, min + IVec3::splat(SECTION_SIZE - 1))
}

/// `cell` moved to the nearest cell of `section`.
fn clamp_into(cell: IVec3, section: IVec3) -> IVec3 {
    let (min, max) = bounds(section);
    cell.clamp(min, max)
}

/// Node indices of cells, a dense slab of 4096 per section touched (one map lookup per
/// section change, not per cell).
#[derive(Default)]
struct CellIndex {
    slabs: Vec<Box<[u32]>>,
    by_section: HashMap<IVec3, usize, BuildHasherDefault<SectionHasher>>,
    last: Option<(IVec3, usize)>,
}

impl CellIndex {
    /// The slab of `cell`'s section, made if `make`.
    fn slab(&mut self, cell: IVec3, make: bool) -> Option<usize> {
        let section = section_of(cell);
        if let Some((s, k)) = self.last
            && s == section
        {
            return Some(k);
        }
        let k = if let Some(&k) = self.by_section.get(&section) {
            k
        } else if make {
            self.slabs
                .push(vec![u32::MAX; SECTION_CELLS].into_boxed_slice());
            self.by_section.insert(section, self.slabs.len() - 1);
            self.slabs.len() - 1
        } else {
            return None;
        };
        self.last = Some((section, k));
        Some(k)
    }

    fn get(&mut self, cell: IVec3) -> Option<u32> {
        let k = self.slab(cell, false)?;
        let j = self.slabs[k][SectionCells::index(cell)];
        (j != u32::MAX).then_some(j)
    }

    fn insert(&mut self, cell: IVec3, j: u32) {
        if let Some(k) = self.slab(cell, true) {
            self.slabs[k][SectionCells::index(cell)] = j;
        }
    }
}

/// The search's state: nodes, their indices by cell and by section, the open heap.
struct Search {
    nodes: Vec<Node>,
    cells: CellIndex,
    sections: HashMap<IVec3, u32, BuildHasherDefault<SectionHasher>>,
    open: BinaryHeap<Reverse<(u64, u32)>>,
    to: IVec3,
}

impl Search {
    fn key(g: u32, h: u32) -> u64 {
        (u64::from(g.saturating_add(h)) << 32) | u64::from(u32::MAX - g)
    }

    /// The index of the cell (or section) node at `at`, and whether it is already expanded.
    fn lookup(&mut self, at: IVec3, section: bool) -> (Option<u32>, bool) {
        let j = if section {
            self.sections.get(&at).copied()
        } else {
            self.cells.get(at)
        };
        (j, j.is_some_and(|j| self.nodes[j as usize].closed))
    }

    /// Offers the node (`at` a cell, or a section entered at `entry`) at cost `g` from `parent`.
    /// `known`: the node's index if it has one (the caller looked it up).
    #[allow(
        clippy::too_many_arguments,
        reason = "the node, its entry, its cost and parent, and the index already looked up"
    )]
    fn offer(
        &mut self,
        at: IVec3,
        section: bool,
        entry: IVec3,
        g: u32,
        parent: u32,
        known: Option<u32>,
    ) -> Result<(), Exhausted> {
        let j = if let Some(j) = known {
            let n = &mut self.nodes[j as usize];
            if n.closed || n.g <= g {
                return Ok(());
            }
            n.g = g;
            n.parent = parent;
            n.cell = entry;
            j
        } else {
            if self.nodes.len() >= MAX_NODES {
                return Err(Exhausted);
            }
            let j = u32::try_from(self.nodes.len()).map_err(|_| Exhausted)?;
            self.nodes.push(Node {
                cell: entry,
                g,
                parent,
                closed: false,
                section,
            });
            if section {
                self.sections.insert(at, j);
            } else {
                self.cells.insert(at, j);
            }
            j
        };
        self.open
            .push(Reverse((Self::key(g, manhattan(entry, self.to)), j)));
        Ok(())
    }

    /// The cells from the start to node `i`: a section node adds its entry cell, and before a
    /// node it leads to, the cell of it nearest that node (so consecutive cells see each other).
    fn path(&self, i: u32) -> Vec<IVec3> {
        let mut cells = Vec::new();
        let mut k = i;
        while k != u32::MAX {
            let n = self.nodes[k as usize];
            cells.push(n.cell);
            if n.parent != u32::MAX {
                let p = self.nodes[n.parent as usize];
                if p.section {
                    let inside = clamp_into(n.cell, section_of(p.cell));
                    if inside != n.cell && inside != p.cell {
                        cells.push(inside);
                    }
                }
            }
            k = n.parent;
        }
        cells.reverse();
        cells
    }
}

/// Whether a section lets air through whole (Empty, or Unknown, which counts as air).
fn open_section<P: WorldProbe + ?Sized>(grid: &mut AirGrid<'_, P>, section: IVec3) -> bool {
    match grid.section_class(section) {
        SectionClass::Empty => true,
        SectionClass::Unknown => {
            grid.met_unknown = true;
            true
        }
        SectionClass::Full(_) | SectionClass::Mixed => false,
    }
}

/// A* from `from` to `to` (see the module docs); the cells of the path (both ends included),
/// consecutive cells in sight of each other, `None` if the open set empties first.
pub(crate) fn astar<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    from: IVec3,
    to: IVec3,
    source: DVec3,
    listener: DVec3,
    max_len: f64,
    budget: &mut Budget,
) -> Result<Option<Vec<IVec3>>, Exhausted> {
    // A cell centre is within √3/2 of any point of its cell: allow that at both ends.
    let reach = max_len + 3f64.sqrt();
    let inside = |cell: IVec3| {
        let c = centre(cell);
        c.distance(source) + c.distance(listener) <= reach
    };
    let ends = |cell: IVec3| cell == from || cell == to;
    let mut s = Search {
        nodes: Vec::new(),
        cells: CellIndex::default(),
        sections: HashMap::default(),
        open: BinaryHeap::new(),
        to,
    };
    let start_section = section_of(from);
    if from != to && open_section(grid, start_section) {
        s.offer(start_section, true, from, 0, u32::MAX, None)?;
    } else {
        s.offer(from, false, from, 0, u32::MAX, None)?;
    }
    while let Some(Reverse((_, i))) = s.open.pop() {
        let node = s.nodes[i as usize];
        if node.closed {
            continue;
        }
        s.nodes[i as usize].closed = true;
        if !node.section && node.cell == to {
            return Ok(Some(s.path(i)));
        }
        if node.section {
            expand_section(grid, &mut s, i, node, &inside, budget)?;
            continue;
        }
        for step in STEPS {
            let cell = node.cell + step;
            let (known, closed) = s.lookup(cell, false);
            if closed {
                continue;
            }
            if !budget.try_take(grid.read_cost) {
                return Err(Exhausted);
            }
            if !inside(cell) {
                continue;
            }
            let section = section_of(cell);
            if !ends(cell) && section != section_of(node.cell) && open_section(grid, section) {
                let (known, _) = s.lookup(section, true);
                s.offer(section, true, cell, node.g + 1, i, known)?;
            } else if !grid.blocked(cell) {
                s.offer(cell, false, cell, node.g + 1, i, known)?;
            }
        }
    }
    Ok(None)
}

/// Expands the open section node `i` (entered at `node.cell`): the listener's cell if inside,
/// the open neighbour sections, the air cells facing it in Mixed ones (and in a Full one that
/// holds the listener's cell).
fn expand_section<P: WorldProbe + ?Sized>(
    grid: &mut AirGrid<'_, P>,
    s: &mut Search,
    i: u32,
    node: Node,
    inside: &impl Fn(IVec3) -> bool,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let here = section_of(node.cell);
    let entry = node.cell;
    if section_of(s.to) == here {
        let (known, _) = s.lookup(s.to, false);
        s.offer(s.to, false, s.to, node.g + manhattan(entry, s.to), i, known)?;
    }
    for step in STEPS {
        let next = here + step;
        let (known, closed) = s.lookup(next, true);
        if closed {
            continue;
        }
        if !budget.try_take(grid.read_cost) {
            return Err(Exhausted);
        }
        let holds_end = section_of(s.to) == next;
        if matches!(grid.section_class(next), SectionClass::Full(_)) && !holds_end {
            continue;
        }
        if open_section(grid, next) {
            let e = clamp_into(entry, next);
            if inside(e) {
                s.offer(next, true, e, node.g + manhattan(entry, e), i, known)?;
            }
            continue;
        }
        // The layer of `next` that faces this section, cell by cell.
        let (min, max) = bounds(next);
        let axis = if step.x != 0 {
            0
        } else if step.y != 0 {
            1
        } else {
            2
        };
        let layer = if step[axis] > 0 { min[axis] } else { max[axis] };
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for a in min[u]..=max[u] {
            for b in min[v]..=max[v] {
                let mut cell = IVec3::ZERO;
                cell[axis] = layer;
                cell[u] = a;
                cell[v] = b;
                let (known, closed) = s.lookup(cell, false);
                if closed {
                    continue;
                }
                if !budget.try_take(grid.read_cost) {
                    return Err(Exhausted);
                }
                if inside(cell) && !grid.blocked(cell) {
                    let g = node.g + manhattan(entry, cell);
                    s.offer(cell, false, cell, g, i, known)?;
                }
            }
        }
    }
    Ok(())
}
