//! Amanatides–Woo cell walk that jumps `Empty`/`Unknown` sections in one step (spec §3.1).

use glam::{DVec3, IVec3};

use crate::budget::Budget;
use crate::world::probe::{
    Cell, SECTION_SIZE, SectionAccess, SectionBox, SectionClass, WorldProbe, section_of,
};
use crate::world::section::{CellCode, Extent, SectionCells, SparseCells};
use crate::world::store::WORLD_LIMIT;

pub use centre::{CENTRE_RAY_MAX_LENGTH, CentreRay, StartSection};

/// One visited (non-skipped) cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// Cell coordinates.
    pub cell: IVec3,
    /// Its content (Unknown cells are reported as such; callers treat them as air).
    pub value: Cell,
    /// Ray parameter (distance from the origin) where the ray enters the cell.
    pub t_enter: f64,
    /// Axis (0 = x, 1 = y, 2 = z) of the face the ray entered through; `None` for the start cell.
    pub axis: Option<usize>,
    /// Direction of travel on `axis` (+1 / −1); the entered face's normal is `-sign`.
    pub sign: i32,
}

/// What the visitor wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep walking.
    Continue,
    /// Stop here.
    Stop,
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WalkEnd {
    /// Reached the end of the ray.
    #[default]
    Reached,
    /// The visitor stopped it.
    Stopped,
    /// The budget ran out.
    BudgetExhausted,
    /// The ray left the supported world (±2^28 cells).
    LeftWorld,
}

/// Counters of one walk.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkStats {
    /// DDA steps: cells visited plus sections skipped.
    pub cells: u64,
    /// Sections skipped in one step.
    pub skipped_sections: u64,
    /// Steps through Unknown sections or cells.
    pub unknown_steps: u64,
    /// The ray met Unknown (counted as air).
    pub met_unknown: bool,
    /// Sections touched (for invalidation).
    pub touched: Option<SectionBox>,
    /// How the walk ended.
    pub end: WalkEnd,
}

impl WalkStats {
    /// Adds another walk's counters.
    pub fn merge(&mut self, other: &Self) {
        self.cells += other.cells;
        self.skipped_sections += other.skipped_sections;
        self.unknown_steps += other.unknown_steps;
        self.met_unknown |= other.met_unknown;
        self.touched = crate::world::probe::union_box(self.touched, other.touched);
        if other.end == WalkEnd::BudgetExhausted {
            self.end = WalkEnd::BudgetExhausted;
        }
    }
}

/// `[f(0), f(1), f(2)]`, written out: `array::map` stays an out-of-line call in these loops.
#[inline(always)]
fn per_axis<T>(f: impl Fn(usize) -> T) -> [T; 3] {
    [f(0), f(1), f(2)]
}

/// `v` lies in `[+0, +∞]`: not NaN, not −0 (a −0 boundary parameter comes from a ray that
/// starts on a cell face it moves away from).
#[inline(always)]
fn plain(v: f64) -> bool {
    v.to_bits() <= f64::INFINITY.to_bits()
}

/// `if c { a } else { b }` on the bits (masks, not a jump).
#[inline(always)]
fn pick(c: bool, a: f64, b: f64) -> f64 {
    let m = 0u64.wrapping_sub(u64::from(c));
    f64::from_bits(a.to_bits() & m | b.to_bits() & !m)
}

fn axis_t(cell: i32, o: f64, inv: f64, step: i32) -> f64 {
    match step {
        1 => (f64::from(cell) + 1.0 - o) * inv,
        -1 => (f64::from(cell) - o) * inv,
        _ => f64::INFINITY,
    }
}

/// The cell where a section skip re-enters the walk, in section `s` crossed on axis `a` at ray
/// parameter `t`, and its boundary parameters: the face cell on the crossed axis, the others
/// from the entry point `o + d·t`, clamped into the section against rounding.
#[inline(always)]
fn entry_cell(
    s: [i32; 3],
    a: usize,
    step: [i32; 3],
    o: [f64; 3],
    d: [f64; 3],
    inv: [f64; 3],
    t: f64,
) -> ([i32; 3], [f64; 3]) {
    let lo = per_axis(|b| s[b] * SECTION_SIZE);
    let mut cell = [0; 3];
    let mut t_max = [0.0; 3];
    for b in 0..3 {
        cell[b] = if b == a {
            if step[b] > 0 {
                lo[b]
            } else {
                lo[b] + SECTION_SIZE - 1
            }
        } else {
            floor_i32(o[b] + d[b] * t).clamp(lo[b], lo[b] + SECTION_SIZE - 1)
        };
        t_max[b] = axis_t(cell[b], o[b], inv[b], step[b]);
    }
    (cell, t_max)
}

/// `floor` for values known to be inside ±2^30, without a libm call (x86-64 baseline has no
/// SSE4.1 `roundsd`).
#[inline]
fn floor_i32(x: f64) -> i32 {
    let i = x as i32;
    i - i32::from(f64::from(i) > x)
}

fn is_skippable(class: SectionClass) -> bool {
    matches!(class, SectionClass::Empty | SectionClass::Unknown)
}

/// What stays the same for the whole walk.
#[derive(Clone, Copy, Debug)]
struct Ray {
    /// Ray parameter per cell on each axis.
    t_delta: [f64; 3],
    /// Cell step on each axis (−1, 0, +1).
    step: [i32; 3],
    /// End of the ray.
    max_t: f64,
    /// Every `t_delta` lies in `[+0, +∞]` (no NaN), as [`cross_box`] needs.
    plain: bool,
}

/// The walk's state as it passes from section to section.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    /// Current cell.
    cell: [i32; 3],
    /// Ray parameter of the next boundary on each axis.
    t_max: [f64; 3],
    /// Ray parameter where the ray entered the current cell.
    t: f64,
    /// Axis of the face it entered through.
    axis: Option<usize>,
    /// Budget left.
    left: u64,
}

/// Where a section's cells other than air lie, for a walk that shows only those: once the ray
/// is past that box on an axis it moves along, the rest of its way through the section is air
/// and is crossed in one step ([`cross_box`]).
#[derive(Clone, Copy, Debug)]
enum Solid {
    /// Not known (or a walk that shows air): walk every cell.
    Anywhere,
    /// Inside this box (section-local coordinates).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Within(Extent),
    /// Nowhere: the section is air.
    Nowhere,
}

/// The cursor's cell lies past `solid` on an axis the ray moves along (so every cell it walks
/// from there in the section is air).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn past_on_entry(solid: Solid, cur: &Cursor, ray: &Ray, lo: [i32; 3]) -> bool {
    let extent = match solid {
        Solid::Anywhere => return false,
        Solid::Nowhere => return true,
        Solid::Within(extent) => extent,
    };
    let past = |a: usize| {
        let l = cur.cell[a] - lo[a];
        (ray.step[a] == 1) & (l > i32::from(extent.max[a]))
            | (ray.step[a] == -1) & (l < i32::from(extent.min[a]))
    };
    past(0) | past(1) | past(2)
}

/// Counts an Unknown cell and shows the cell to `visit` (unless it is air and `AIR` is
/// false); what `visit` answers.
#[inline(always)]
fn show<F, const AIR: bool>(
    value: Cell,
    cell: IVec3,
    t: f64,
    axis: Option<usize>,
    ray: &Ray,
    stats: &mut WalkStats,
    visit: &mut F,
) -> Flow
where
    F: FnMut(&Step) -> Flow,
{
    if value == Cell::Unknown {
        stats.met_unknown = true;
        stats.unknown_steps += 1;
    }
    if !AIR && value == Cell::Air {
        return Flow::Continue;
    }
    visit(&Step {
        cell,
        value,
        t_enter: t,
        axis,
        sign: axis.map_or(0, |a| ray.step[a]),
    })
}

impl Cursor {
    /// Its boundary parameters and the ray's steps lie in `[+0, +∞]` (no NaN, no −0), where
    /// the masked loop and the crossings give the cell walk's values.
    #[inline(always)]
    fn plain(&self, ray: &Ray) -> bool {
        plain(self.t_max[0]) & plain(self.t_max[1]) & plain(self.t_max[2]) & ray.plain
    }
}

/// Walks the cells of the section at `lo` (its lowest cell) from `cur` until the ray leaves
/// it (`None`, `cur` then holds the first cell outside) or the walk ends. `read` gives the
/// content of a cell from its section index ([`SectionCells::index`]) and coordinates, `None` for an air cell that `visit` does not see (`AIR` false): air cells
/// are walked and counted all the same.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn walk_cells<F, R, const AIR: bool>(
    cur: &mut Cursor,
    ray: &Ray,
    lo: [i32; 3],
    stats: &mut WalkStats,
    visit: &mut F,
    solid: Solid,
    read: R,
) -> Option<WalkEnd>
where
    F: FnMut(&Step) -> Flow,
    R: Fn(usize, IVec3) -> Option<Cell>,
{
    #[cfg(target_arch = "x86_64")]
    if cur.plain(ray) {
        // Past the non-air cells on entering (a ray over the terrain): cross at once, without
        // setting up the cell loop.
        if !AIR && past_on_entry(solid, cur, ray, lo) {
            let crossed = cross_box::<{ SECTION_SIZE as usize }>(cur, ray, lo, |_, _, _| {});
            if let Some((after, _)) = crossed {
                *cur = after;
                return None;
            }
        }
        let mut beyond = if AIR {
            None
        } else {
            masked::Beyond::of(solid, ray)
        };
        loop {
            // A walk that shows air has no box to be past (`beyond` is `None`); the other
            // keeps one loop for both (a second would swell the callers that inline it).
            let test = beyond.unwrap_or(masked::Beyond::NEVER);
            let exit = if AIR {
                masked::walk_cells::<F, &R, AIR, false>(cur, ray, lo, stats, visit, test, &read)
            } else {
                masked::walk_cells::<F, &R, AIR, true>(cur, ray, lo, stats, visit, test, &read)
            };
            match exit {
                masked::Exit::Left => return None,
                masked::Exit::End(end) => return Some(end),
                masked::Exit::Beyond => {
                    // Every cell the ray walks from here in the section is air.
                    let crossed =
                        cross_box::<{ SECTION_SIZE as usize }>(cur, ray, lo, |_, _, _| {});
                    if let Some((after, _)) = crossed {
                        *cur = after;
                        return None;
                    }
                    // It ends inside: walk the rest.
                    beyond = None;
                }
            }
        }
    }
    let _ = solid;
    let hi = lo.map(|v| v + SECTION_SIZE);
    let [mut cx, mut cy, mut cz] = cur.cell;
    let [mut tx, mut ty, mut tz] = cur.t_max;
    let (mut t, mut axis, mut left) = (cur.t, cur.axis, cur.left);
    let [dx, dy, dz] = ray.t_delta;
    let [sx, sy, sz] = ray.step;
    let max_t = ray.max_t;
    let end = loop {
        if t > max_t {
            break Some(WalkEnd::Reached);
        }
        if left == 0 {
            break Some(WalkEnd::BudgetExhausted);
        }
        left -= 1;
        let c = IVec3::new(cx, cy, cz);
        if let Some(value) = read(SectionCells::index(c), c)
            && show::<F, AIR>(value, c, t, axis, ray, stats, visit) == Flow::Stop
        {
            break Some(WalkEnd::Stopped);
        }
        // Nearest boundary; the lowest axis wins ties.
        let x_min = tx <= ty && tx <= tz;
        let y_min = !x_min && ty <= tz;
        let z_min = !x_min && !y_min;
        let t_next = tx.min(ty).min(tz);
        if !t_next.is_finite() {
            break Some(WalkEnd::Reached);
        }
        t = t_next;
        tx = if x_min { tx + dx } else { tx };
        ty = if y_min { ty + dy } else { ty };
        tz = if z_min { tz + dz } else { tz };
        cx += sx * i32::from(x_min);
        cy += sy * i32::from(y_min);
        cz += sz * i32::from(z_min);
        axis = Some(usize::from(y_min) + 2 * usize::from(z_min));
        if (cx < lo[0])
            | (cx >= hi[0])
            | (cy < lo[1])
            | (cy >= hi[1])
            | (cz < lo[2])
            | (cz >= hi[2])
        {
            break None;
        }
    };
    *cur = Cursor {
        cell: [cx, cy, cz],
        t_max: [tx, ty, tz],
        t,
        axis,
        left,
    };
    end
}

/// Crosses the box of `N`³ cells at `corner` in one go, as the cell walk would if every cell
/// of the box were air that `visit` does not see: returns the state after the step out of
/// the box, bit for bit what the cell-by-cell walk reaches, with those cells charged to the
/// budget, and the box of the cells walked (low and high corners, relative to `corner`).
/// `record(axis, k, t)` receives each moving axis's boundary parameters from the cursor's
/// `t_max` on (`k` = 0, 1, …), up to the one that leaves the box. `None` (walk it cell by
/// cell) when the ray ends or the budget runs out inside, or a boundary parameter lies
/// outside `[+0, +∞]` (a −0 or a NaN, where the comparisons below would differ).
///
/// The cell walk's steps are a merge of each axis's boundary parameters (`t_max`, then
/// `t_max + delta`, … in that order of additions) by value, the lowest axis first on ties.
/// So the step out of the box is the first of the three axes' box-leaving boundaries in that
/// order, and each other axis takes the steps whose boundaries come before it.
#[inline(always)]
fn cross_box<const N: usize>(
    cur: &Cursor,
    ray: &Ray,
    corner: [i32; 3],
    mut record: impl FnMut(usize, usize, f64),
) -> Option<(Cursor, [[i32; 3]; 2])> {
    if !(cur.plain(ray) & (cur.t <= ray.max_t)) {
        return None;
    }
    let n = N as i32;
    // Each axis's boundaries inside the box (the same additions as the walk's) and the
    // steps it can take before the one that leaves the box.
    let mut inside = [0usize; 3];
    let mut leave = [f64::INFINITY; 3];
    for a in 0..3 {
        let steps = match ray.step[a] {
            1 => corner[a] + n - 1 - cur.cell[a],
            -1 => cur.cell[a] - corner[a],
            _ => continue,
        };
        // In 0..N: the cursor lies in the box.
        inside[a] = usize::try_from(steps).unwrap_or(0).min(N - 1);
        let mut e = cur.t_max[a];
        for k in 0..inside[a] {
            record(a, k, e);
            e += ray.t_delta[a];
        }
        record(a, inside[a], e);
        leave[a] = e;
    }
    let out = if leave[0] <= leave[1] && leave[0] <= leave[2] {
        0
    } else if leave[1] <= leave[2] {
        1
    } else {
        2
    };
    let t_out = leave[out];
    if !(t_out < f64::INFINITY && t_out <= ray.max_t) {
        return None;
    }
    let mut steps = [0usize; 3];
    let mut t_max = cur.t_max;
    for b in 0..3 {
        if b == out {
            steps[b] = inside[b];
            t_max[b] = t_out + ray.t_delta[b];
            continue;
        }
        // The boundaries before the step out (non-decreasing, so a prefix). The one that
        // leaves the box, `leave[b]`, is not before it (`out` is the first leaving, the lowest
        // axis on ties), so the prefix ends within the box: `taken` stays at most `inside[b]`.
        let before = |e: f64| e < t_out || (e == t_out && b < out);
        let (mut taken, mut e) = (0, cur.t_max[b]);
        while before(e) {
            taken += 1;
            e += ray.t_delta[b];
        }
        steps[b] = taken;
        t_max[b] = e;
    }
    let cells = 1 + (steps[0] + steps[1] + steps[2]) as u64;
    let left = cur.left.checked_sub(cells)?;
    let mut walked = [[0i32; 3]; 2];
    let mut cell = cur.cell;
    for a in 0..3 {
        // `steps[a]` is below N.
        let taken = steps[a] as i32;
        let first = cur.cell[a] - corner[a];
        let last = first + ray.step[a] * taken;
        (walked[0][a], walked[1][a]) = (first.min(last), first.max(last));
        cell[a] += ray.step[a] * (taken + i32::from(a == out));
    }
    let after = Cursor {
        cell,
        t_max,
        t: t_out,
        axis: Some(out),
        left,
    };
    Some((after, walked))
}

/// Most listed cells [`cross_sparse_section`] handles.
const MAX_LISTED: usize = 64;

/// A box of section-local cells, tested on [`SectionCells::index`]es of cells.
#[derive(Clone, Copy, Debug)]
struct LocalBox {
    /// The low corner.
    low: [u32; 3],
    /// The box's size less one on each axis.
    span: [u32; 3],
}

impl LocalBox {
    /// The box from `low` to `high` (inclusive), every coordinate in `0..16`.
    #[inline(always)]
    fn new(low: [i32; 3], high: [i32; 3]) -> Self {
        Self {
            low: low.map(|v| v as u32),
            span: per_axis(|a| high[a].wrapping_sub(low[a]) as u32),
        }
    }

    /// The cell at `index` ([`SectionCells::index`]; bits above the 12th are ignored) lies in
    /// the box. `y` first: most boxes a ray's cells span in a section are thin on it.
    #[inline(always)]
    fn holds(self, index: u16) -> bool {
        let i = u32::from(index);
        let within = |a: usize, v: u32| v.wrapping_sub(self.low[a]) <= self.span[a];
        within(1, i >> 8 & 15) && within(2, i >> 4 & 15) && within(0, i & 15)
    }
}

/// Each axis's boundary parameters in a section from the cursor on ([`cross_box`]'s `record`):
/// `[a][k]` is axis `a`'s `k`-th. Only the entries recorded are read.
type Events = [[f64; SECTION_SIZE as usize]; 3];

/// Where the walk enters the cell `m` steps on each axis from the cursor's, if it does: the
/// last step taken, the largest (value, axis) among each moving axis's last step, must come
/// before every other axis's next step. The cell lies in the path box of [`cross_box`]
/// (`m[a]` is at most the steps it took on `a`, none on a still axis), so every boundary read
/// was recorded in `events`; a still axis's next step is at `+∞`, after every step.
#[inline(always)]
fn entry_after(
    events: &Events,
    cur: &Cursor,
    ray: &Ray,
    m: [usize; 3],
) -> Option<(f64, Option<usize>)> {
    if m == [0; 3] {
        return Some((cur.t, cur.axis));
    }
    // `m[a]` is below 16: the masks only spare the bounds checks.
    let last = |a: usize| events[a][(m[a].wrapping_sub(1)) & 15];
    let mut p = 0;
    let mut v = f64::NEG_INFINITY;
    for (a, &steps) in m.iter().enumerate() {
        if steps > 0 && last(a) >= v {
            (v, p) = (last(a), a);
        }
    }
    let after = (0..3).all(|b| {
        let e = events[b][m[b] & 15];
        b == p || ray.step[b] == 0 || e > v || (e == v && b > p)
    });
    after.then_some((v, Some(p)))
}

/// Crosses a sparse section over an air fill in one computation, for a walk that shows only
/// non-air cells: the cells the ray walks there are air but for the listed cells on its path,
/// and whether the walk enters a listed cell, and at which step, follows from the boundary
/// parameters alone. The cell reached after `m_x`, `m_y`, `m_z` steps on the axes is walked
/// if and only if the last of those steps comes before the next step on every other axis (in
/// the walk's order: by value, then the lowest axis); it is the `m_x + m_y + m_z`-th cell after
/// the first. So the listed cells on the path are shown to `visit` in that order, with the
/// ray parameter and face the cell walk would report.
///
/// Leaves in `cur` the state after the step out of the section (`Some(None)`), or the budget
/// left when `visit` stopped (`Some(Some(Stopped))`), with the same counters and budget as the
/// cell walk; `None` (walk it cell by cell, `cur` untouched) where [`cross_box`] declines.
fn cross_sparse_section<F>(
    cur: &mut Cursor,
    ray: &Ray,
    lo: [i32; 3],
    sparse: &SparseCells<'_>,
    stats: &mut WalkStats,
    visit: &mut F,
) -> Option<Option<WalkEnd>>
where
    F: FnMut(&Step) -> Flow,
{
    // A host's list may be longer than the store's (64); then walk it.
    if sparse.cells.len() > MAX_LISTED {
        return None;
    }
    let local_of = |i: u16| {
        let i = i32::from(i);
        [i & 15, i >> 8 & 15, i >> 4 & 15]
    };
    // The cursor lies in the section: each coordinate is in 0..16.
    let first = per_axis(|a| cur.cell[a] - lo[a]);
    // The cells ahead of the cursor in the section, on every axis: the path lies among them.
    let ahead = LocalBox::new(
        per_axis(|a| if ray.step[a] < 0 { 0 } else { first[a] }),
        per_axis(|a| if ray.step[a] > 0 { 15 } else { first[a] }),
    );
    // The box first: most listed cells lie off it, and its test rejects them.
    let listed =
        |(i, code): (u16, CellCode), cells: LocalBox| cells.holds(i) && code != CellCode::AIR;
    // Usually no listed cell lies ahead of the cursor in the section (a ray over the bumps):
    // then nothing is shown, and the boundaries need not be kept.
    let Some(first_ahead) = sparse.cells.iter().position(|&c| listed(c, ahead)) else {
        let (after, _) = cross_box::<{ SECTION_SIZE as usize }>(cur, ray, lo, |_, _, _| {})?;
        *cur = after;
        return Some(None);
    };
    // Each axis's boundaries from the cursor on, up to the one that leaves the section.
    let mut events: Events = [[0.0; SECTION_SIZE as usize]; 3];
    let (after, [low, high]) = cross_box::<{ SECTION_SIZE as usize }>(cur, ray, lo, |a, k, e| {
        events[a][k] = e;
    })?;
    // The box of the cells walked: it lies ahead, so the cells before `first_ahead` are not
    // in it.
    let path = LocalBox::new(low, high);
    // Steps on each axis to reach a cell in the path box: it lies ahead, so they are in 0..16.
    let steps_to =
        |local: [i32; 3]| per_axis(|a| ((local[a] - first[a]) * ray.step[a]) as usize & 15);
    // Listed cells on the path: steps from the first cell << 6 | position in the list.
    let mut on_path = [0u16; MAX_LISTED];
    let mut found = 0;
    for (k, &(i, code)) in sparse.cells.iter().enumerate().skip(first_ahead) {
        if !listed((i, code), path) {
            continue;
        }
        let m = steps_to(local_of(i));
        if entry_after(&events, cur, ray, m).is_some() {
            let n = m[0] + m[1] + m[2];
            on_path[found] = (n << 6 | k) as u16;
            found += 1;
        }
    }
    let on_path = &mut on_path[..found];
    on_path.sort_unstable();
    for &key in on_path.iter() {
        let (n, k) = (u64::from(key >> 6), usize::from(key & 63));
        let (i, code) = sparse.cells[k];
        let local = local_of(i);
        let Some((t, axis)) = entry_after(&events, cur, ray, steps_to(local)) else {
            continue;
        };
        let value = code.decode();
        if value == Cell::Unknown {
            stats.met_unknown = true;
            stats.unknown_steps += 1;
        }
        let step = Step {
            cell: IVec3::new(lo[0] + local[0], lo[1] + local[1], lo[2] + local[2]),
            value,
            t_enter: t,
            axis,
            sign: axis.map_or(0, |a| ray.step[a]),
        };
        if visit(&step) == Flow::Stop {
            // The cells up to this one were walked.
            cur.left -= n + 1;
            return Some(Some(WalkEnd::Stopped));
        }
    }
    *cur = after;
    Some(None)
}

/// Walks the cells of the ray `origin + t·dir`, `0 ≤ t ≤ max_t` (`dir` unit for `t` in
/// blocks), calling `visit` for every cell of non-skipped sections. Empty/Unknown sections are
/// jumped in one step that costs 1 cell of budget.
///
/// Non-finite input walks nothing (`WalkEnd::LeftWorld`). A direction component below about
/// 5.6e-309 (its inverse overflows) counts as 0.
pub fn walk<P, F>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
    budget: &mut Budget,
    visit: F,
) -> WalkStats
where
    P: WorldProbe + ?Sized,
    F: FnMut(&Step) -> Flow,
{
    walk_impl::<P, F, true>(probe, origin, dir, max_t, budget, visit)
}

/// Like [`walk`], but `visit` sees only non-air cells (solid or Unknown); air cells are still
/// walked and counted. Faster for occlusion and first-hit casts: a sparsely stored section of
/// air whose listed cells all lie off the ray's path box is crossed in one computation (same
/// steps, stats and budget as walking it cell by cell).
pub fn walk_solid<P, F>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
    budget: &mut Budget,
    visit: F,
) -> WalkStats
where
    P: WorldProbe + ?Sized,
    F: FnMut(&Step) -> Flow,
{
    walk_impl::<P, F, false>(probe, origin, dir, max_t, budget, visit)
}

/// What a walk keeps of its ray besides the origin and the per-cell constants ([`Ray`]): the
/// direction and its inverse (the section skips and their entry cells use them) and the ray
/// parameter per section on each axis.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Direction, a component too small to invert counted as 0.
    d: [f64; 3],
    /// Inverse of each moving component (0 for the others).
    inv: [f64; 3],
    /// Ray parameter per section on each axis.
    sdelta: [f64; 3],
    /// The per-cell constants.
    ray: Ray,
}

impl Line {
    /// The line of `origin + t·dir`, `0 ≤ t ≤ max_t`, and the cursor on its first cell with
    /// `left` cells of budget; `None` for non-finite input or an origin outside the world.
    fn start(origin: DVec3, dir: DVec3, max_t: f64, left: u64) -> Option<(Self, Cursor)> {
        let limit = f64::from(WORLD_LIMIT);
        if !origin.is_finite()
            || !dir.is_finite()
            || max_t.is_nan()
            || origin.abs().max_element() >= limit
        {
            return None;
        }
        let o = origin.to_array();
        // A component whose inverse overflows (below about 5.6e-309) moves the ray by less
        // than a cell over any length it can have, and its boundaries would be 0·∞ = NaN, on
        // which the walk could choose that axis forever without moving: it counts as 0.
        let d = dir
            .to_array()
            .map(|c| if (1.0 / c).is_finite() { c } else { 0.0 });
        let cell = [floor_i32(o[0]), floor_i32(o[1]), floor_i32(o[2])];
        let mut step = [0i32; 3];
        let mut inv = [0.0f64; 3];
        let mut t_max = [f64::INFINITY; 3];
        let mut t_delta = [f64::INFINITY; 3];
        for a in 0..3 {
            if d[a] > 0.0 {
                step[a] = 1;
            } else if d[a] < 0.0 {
                step[a] = -1;
            }
            if step[a] != 0 {
                inv[a] = 1.0 / d[a];
                t_delta[a] = inv[a].abs();
                t_max[a] = axis_t(cell[a], o[a], inv[a], step[a]);
            }
        }
        let sdelta = per_axis(|a| t_delta[a] * f64::from(SECTION_SIZE));
        // An endless ray ends at the largest finite parameter: a boundary at +∞ (a ray that no
        // longer moves) is past it, which is how the walks below end there.
        let max_t = max_t.min(f64::MAX);
        let ray = Ray {
            t_delta,
            step,
            max_t,
            plain: t_delta.iter().all(|v| plain(*v)),
        };
        let line = Self {
            d,
            inv,
            sdelta,
            ray,
        };
        let cur = Cursor {
            cell,
            t_max,
            t: 0.0,
            axis: None,
            left,
        };
        Some((line, cur))
    }
}

/// The sections a walk entered, kept as its first and last: a straight ray's sections lie
/// between those two on every axis, so the touched box is their box.
#[derive(Clone, Copy, Debug, Default)]
struct Touched {
    first: Option<[i32; 3]>,
    last: [i32; 3],
}

impl Touched {
    /// The walk entered `section`.
    #[inline(always)]
    fn enter(&mut self, section: [i32; 3]) {
        self.first.get_or_insert(section);
        self.last = section;
    }

    /// The box of the sections entered.
    fn section_box(self) -> Option<SectionBox> {
        self.first.map(|f| {
            let mut b = SectionBox::of(IVec3::from_array(f));
            b.include(IVec3::from_array(self.last));
            b
        })
    }
}

/// Ends a walk: the touched box and the cells into `stats`, the cells charged to `budget`.
fn finish(
    mut stats: WalkStats,
    touched: Touched,
    budget: &mut Budget,
    start_left: u64,
    left: u64,
) -> WalkStats {
    stats.touched = touched.section_box();
    let used = start_left - left;
    stats.cells = used;
    let _ = budget.try_take(used);
    stats
}

fn walk_impl<P, F, const AIR: bool>(
    probe: &P,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
    budget: &mut Budget,
    mut visit: F,
) -> WalkStats
where
    P: WorldProbe + ?Sized,
    F: FnMut(&Step) -> Flow,
{
    let mut stats = WalkStats::default();
    // Budget is kept in locals inside the loops and charged once at the end.
    let start_left = budget.remaining();
    let Some((line, cur)) = Line::start(origin, dir, max_t, start_left) else {
        stats.end = WalkEnd::LeftWorld;
        return stats;
    };
    let mut touched = Touched::default();
    let (end, left) = walk_on::<P, F, AIR>(
        probe,
        origin.to_array(),
        &line,
        cur,
        None,
        &mut stats,
        &mut touched,
        &mut visit,
    );
    stats.end = end;
    finish(stats, touched, budget, start_left, left)
}

/// Walks on from `cur` (the first cell of a section not yet entered, or of the section whose
/// access is given) along the line from `o` to the end of the walk: how it ended and the budget left. A given section
/// that is skipped (Empty or Unknown) does not read `cur.t_max`: the skip recomputes the
/// boundaries where it stops.
#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
#[inline(always)]
fn walk_on<'p, P, F, const AIR: bool>(
    probe: &'p P,
    o: [f64; 3],
    line: &Line,
    cur: Cursor,
    mut access_given: Option<SectionAccess<'p>>,
    stats_out: &mut WalkStats,
    touched_out: &mut Touched,
    visit: &mut F,
) -> (WalkEnd, u64)
where
    P: WorldProbe + ?Sized,
    F: FnMut(&Step) -> Flow,
{
    // Counters in locals (registers in the loops), written back at the end.
    let (mut stats_here, mut touched_here) = (*stats_out, *touched_out);
    let (stats, touched) = (&mut stats_here, &mut touched_here);
    let Line {
        d,
        inv,
        sdelta,
        ray,
    } = *line;
    let (step, max_t) = (ray.step, ray.max_t);
    let Cursor {
        mut cell,
        mut t_max,
        mut t,
        mut axis,
        mut left,
    } = cur;
    let end = 'outer: loop {
        // Entering a new section at `cell`.
        if t > max_t {
            break WalkEnd::Reached;
        }
        let c = IVec3::from_array(cell);
        if c.abs().max_element() >= WORLD_LIMIT {
            break WalkEnd::LeftWorld;
        }
        let mut s = section_of(c).to_array();
        let mut access = match access_given.take() {
            Some(given) => given,
            None => probe.section_access(IVec3::from_array(s)),
        };
        let mut class = access.class;
        touched.enter(s);
        if is_skippable(class) {
            // Section-level DDA through Empty/Unknown sections: one step (and one cell of
            // budget) per section, until a section that must be walked cell by cell.
            let lo = per_axis(|a| s[a] * SECTION_SIZE);
            let mut st = [0.0f64; 3];
            for a in 0..3 {
                st[a] = match step[a] {
                    1 => (f64::from(lo[a] + SECTION_SIZE) - o[a]) * inv[a],
                    -1 => (f64::from(lo[a]) - o[a]) * inv[a],
                    _ => f64::INFINITY,
                };
            }
            loop {
                if left == 0 {
                    break 'outer WalkEnd::BudgetExhausted;
                }
                left -= 1;
                stats.skipped_sections += 1;
                if class == SectionClass::Unknown {
                    stats.met_unknown = true;
                    stats.unknown_steps += 1;
                }
                // Nearest section face (lowest axis on ties; a corner is crossed in steps).
                let t_exit = st[0].min(st[1]).min(st[2]);
                // No finite exit (a zero direction) ends the walk even for an endless ray.
                if !t_exit.is_finite() || t_exit > max_t {
                    break 'outer WalkEnd::Reached;
                }
                // Chosen and moved by masks, without jumps on the axis.
                let x_min = (st[0] <= st[1]) & (st[0] <= st[2]);
                let y_min = !x_min & (st[1] <= st[2]);
                let z_min = !x_min & !y_min;
                let a = usize::from(y_min) + 2 * usize::from(z_min);
                let chosen = [x_min, y_min, z_min];
                for b in 0..3 {
                    s[b] += step[b] & -i32::from(chosen[b]);
                    st[b] = pick(chosen[b], st[b] + sdelta[b], st[b]);
                }
                // Only the moved axis can have left (the others were inside).
                if (s[0].abs() | s[1].abs() | s[2].abs()) >= WORLD_LIMIT / SECTION_SIZE {
                    break 'outer WalkEnd::LeftWorld;
                }
                access = probe.section_access(IVec3::from_array(s));
                class = access.class;
                touched.enter(s);
                t = t_exit.max(t);
                axis = Some(a);
                if !is_skippable(class) {
                    (cell, t_max) = entry_cell(s, a, step, o, d, inv, t);
                    break;
                }
            }
        }
        // Walk the cells of a Full or Mixed section, with a loop specialised to how the
        // section is stored (the per-cell read is then a few instructions, inlined).
        let lo = per_axis(|a| s[a] * SECTION_SIZE);
        let mut cur = Cursor {
            cell,
            t_max,
            t,
            axis,
            left,
        };
        // The cell walk of this section: where its non-air cells lie, and how a cell is read.
        macro_rules! walk_cells {
            ($solid:expr, $read:expr) => {
                walk_cells::<F, _, AIR>(&mut cur, &ray, lo, stats, visit, $solid, $read)
            };
        }
        let end = match (class, access.cells, access.sparse) {
            (SectionClass::Full(mat), _, _) => {
                let full = Cell::Solid {
                    mat,
                    partial: false,
                };
                walk_cells!(Solid::Anywhere, |_, _| Some(full))
            }
            (_, Some(cells), _) => {
                let solid = cells.extent().map_or(Solid::Nowhere, Solid::Within);
                walk_cells!(solid, |i, _| {
                    let code = cells.codes()[i];
                    (AIR || code != CellCode::AIR).then(|| code.decode())
                })
            }
            (_, None, Some(sparse)) => {
                let crossed = if !AIR && sparse.fill == CellCode::AIR {
                    cross_sparse_section(&mut cur, &ray, lo, &sparse, stats, visit)
                } else {
                    None
                };
                match crossed {
                    Some(end) => end,
                    None => walk_cells!(Solid::Anywhere, |i, _| {
                        let code = sparse.get(i);
                        (AIR || code != CellCode::AIR).then(|| code.decode())
                    }),
                }
            }
            _ => walk_cells!(Solid::Anywhere, |_, c| {
                let value = probe.cell(c);
                (AIR || value != Cell::Air).then_some(value)
            }),
        };
        Cursor {
            cell,
            t_max,
            t,
            axis,
            left,
        } = cur;
        if let Some(end) = end {
            break end;
        }
    };
    (*stats_out, *touched_out) = (stats_here, touched_here);
    (end, left)
}

mod centre;
#[cfg(target_arch = "x86_64")]
mod masked;
#[cfg(test)]
mod tests;
