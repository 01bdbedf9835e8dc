//! The cell walk inside one section with the axis chosen by SSE2 masks (x86-64).
//!
//! Written as `if x_min { tx + dx } else { tx }`, the compiler turns the choice of axis into
//! jumps that the branch predictor cannot learn (a diagonal ray's axes alternate without a
//! short pattern), and each miss costs more than the whole step. Here every boundary
//! comparison makes a mask (`cmplesd`), and the masks choose each axis's addend (its delta, or
//! `+0`, which leaves a boundary in `[+0, +∞]` as it is) and the cell step, so one step is a
//! short chain of compares, mask operations and adds with no jump on the axis (issue 16).
//!
//! Taken only for boundary parameters in `[+0, +∞]` (no NaN, no −0): there `min` and the
//! masked choice give exactly the values and order of the portable loop in the parent module,
//! which handles the rest. The walks are compared bit for bit in the parent's tests.

// SSE2 is part of the x86-64 baseline: every x86-64 CPU has it, and the intrinsics below
// only read and write registers.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m128d, _mm_add_sd, _mm_and_pd, _mm_andnot_pd, _mm_cmple_sd, _mm_cmplt_sd, _mm_cvtsd_f64,
    _mm_min_sd, _mm_movemask_pd, _mm_set_sd, _mm_unpacklo_pd,
};

use glam::IVec3;

use super::{Cursor, Flow, Ray, Solid, Step, WalkEnd, WalkStats, show};
use crate::world::probe::{Cell, SECTION_CELLS, SECTION_SIZE};

/// `t + d` where `mask` is set, else `t` (as `t + 0`: the same bits for `t` in `[+0, +∞]`,
/// the only values the loop below sees).
#[inline(always)]
fn add_where(mask: __m128d, t: __m128d, d: __m128d) -> __m128d {
    // SAFETY: SSE2 register operations, present on every x86-64 CPU.
    unsafe { _mm_add_sd(t, _mm_and_pd(mask, d)) }
}

/// Bias of a packed coordinate: a field holds `local + 32` (32..=47 in the section, bit 4
/// clear), so that a step from 0 to −1 (31) or from 15 to 16 (48) stays inside its 8 bits and
/// sets bit 4.
const BIAS: u32 = 32 | 32 << 8 | 32 << 16;
/// Bit 4 of each packed field; a field is in the section when it is clear.
const OUTSIDE_BITS: u32 = 0x10 | 0x10 << 8 | 0x10 << 16;

/// How [`walk_cells`] ended.
pub(super) enum Exit {
    /// The ray left the section (the cursor holds the first cell outside).
    Left,
    /// The walk ended.
    End(WalkEnd),
    /// The ray is past the box of the section's non-air cells on an axis it moves along
    /// ([`Beyond`]); the cursor holds the first such cell, not yet walked.
    Beyond,
}

/// A test on the packed cell ([`BIAS`]) that the ray is past a box on an axis it moves along:
/// `(packed + add) | (sub − packed)` has bit 7 of a field set. On an axis moving up, `add`'s
/// field is `128 − (max + 33)`, which carries a field above `max + 32` into bit 7; on an axis
/// moving down, `sub`'s field is `min + 31 + 128`, from which a field below `min + 32` leaves
/// bit 7 set. The other fields (`add` 0, `sub` 64) never set it, and no field borrows or
/// carries into the next (fields stay in 31..=48).
#[derive(Clone, Copy, Debug)]
pub(super) struct Beyond {
    add: u32,
    sub: u32,
}

impl Beyond {
    /// A test no packed cell passes (for a walk that leaves the test out).
    pub(super) const NEVER: Self = Self {
        add: 0,
        sub: 0x40 | 0x40 << 8 | 0x40 << 16,
    };

    /// The test for a section's non-air cells; `None` when they may lie anywhere.
    #[inline(always)]
    pub(super) fn of(solid: Solid, ray: &Ray) -> Option<Self> {
        let extent = match solid {
            Solid::Anywhere => return None,
            // Any cell is past nothing: bit 7 of the x field, always.
            Solid::Nowhere => return Some(Self { add: 0x80, sub: 0 }),
            Solid::Within(extent) => extent,
        };
        let (mut add, mut sub) = (0u32, 0u32);
        // Field shifts of x, y, z in the packed cell; chosen by masks (no jump per axis).
        for (a, shift) in [(0usize, 0u32), (1, 16), (2, 8)] {
            let (min, max) = (u32::from(extent.min[a]), u32::from(extent.max[a]));
            let up = 0u32.wrapping_sub(u32::from(ray.step[a] == 1));
            let down = 0u32.wrapping_sub(u32::from(ray.step[a] == -1));
            add |= ((128 - (max + 33)) & up) << shift;
            sub |= ((min + 31 + 128) & down | 0x40 & !down) << shift;
        }
        Some(Self { add, sub })
    }

    /// True if the packed cell is past the box.
    #[inline(always)]
    fn past(self, packed: u32) -> bool {
        (packed.wrapping_add(self.add) | self.sub.wrapping_sub(packed)) & 0x80_8080 != 0
    }
}

/// The parent's `walk_cells` for boundary parameters in `[+0, +∞]` (see the module doc).
///
/// The cell is kept as three biased 8-bit fields (`x | z << 8 | y << 16`, [`BIAS`]) beside its
/// section index, both moved by one add from a four-entry table chosen by the masks; written
/// as `x += step & -chosen`, the compiler turns that back into jumps. A boundary parameter of
/// `+∞` (every axis's: a ray that no longer moves) ends the walk at the next cell's
/// `t > max_t` test, since `ray.max_t` is finite.
///
/// `BEYOND` false leaves out the [`Beyond`] test (`beyond` is then not read): a section whose
/// non-air cells may lie anywhere, or a walk that shows air, saves it on every cell.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn walk_cells<F, R, const AIR: bool, const BEYOND: bool>(
    cur: &mut Cursor,
    ray: &Ray,
    lo: [i32; 3],
    stats: &mut WalkStats,
    visit: &mut F,
    beyond: Beyond,
    read: R,
) -> Exit
where
    F: FnMut(&Step) -> Flow,
    R: Fn(usize, IVec3) -> Option<Cell>,
{
    let local = [
        cur.cell[0] - lo[0],
        cur.cell[1] - lo[1],
        cur.cell[2] - lo[2],
    ];
    // The cursor lies in the section: each coordinate is in 0..16.
    let field = |a: usize| (local[a] & (SECTION_SIZE - 1)) as u32;
    let mut packed = (field(0) | field(2) << 8 | field(1) << 16) + BIAS;
    let mut index = field(0) | field(2) << 4 | field(1) << 8;
    // Moves by the chosen axis, by `x_min | y_min << 1` (0: z): packed and index deltas (as
    // wrapping adds) and the axis.
    let [sx, sy, sz] = ray.step.map(|s| s as u32);
    let moves: [(u32, u32, i32); 4] = [
        (sz << 8, sz << 4, 2),
        (sx, sx, 0),
        (sy << 16, sy << 8, 1),
        (sx, sx, 0),
    ];
    let (mut t, mut left) = (cur.t, cur.left);
    // The axis of the entered face, 3 for none.
    let mut axis = cur.axis.map_or(3, |a| a as i32);
    let max_t = ray.max_t;
    // SAFETY (all intrinsics in this function): SSE2 register operations, present on every
    // x86-64 CPU; none touches memory.
    let (mut tx, mut ty, mut tz, dx, dy, dz) = unsafe {
        (
            _mm_set_sd(cur.t_max[0]),
            _mm_set_sd(cur.t_max[1]),
            _mm_set_sd(cur.t_max[2]),
            _mm_set_sd(ray.t_delta[0]),
            _mm_set_sd(ray.t_delta[1]),
            _mm_set_sd(ray.t_delta[2]),
        )
    };
    let cell_of = |packed: u32| {
        let f = |shift: u32| (packed >> shift & 0xFF) as i32 - 32;
        IVec3::new(lo[0] + f(0), lo[1] + f(16), lo[2] + f(8))
    };
    let end = loop {
        if BEYOND && beyond.past(packed) {
            break Exit::Beyond;
        }
        if t > max_t {
            break Exit::End(WalkEnd::Reached);
        }
        let Some(l) = left.checked_sub(1) else {
            break Exit::End(WalkEnd::BudgetExhausted);
        };
        left = l;
        if let Some(value) = read(index as usize & (SECTION_CELLS - 1), cell_of(packed)) {
            let entered = usize::try_from(axis).ok().filter(|a| *a < 3);
            let c = cell_of(packed);
            if show::<F, AIR>(value, c, t, entered, ray, stats, visit) == Flow::Stop {
                break Exit::End(WalkEnd::Stopped);
            }
        }
        // Nearest boundary; the lowest axis wins ties. Without NaN, `min` is the chosen
        // axis's value, and z is chosen when it lies below both others.
        let chosen;
        // SAFETY: as above.
        unsafe {
            let x_min = _mm_and_pd(_mm_cmple_sd(tx, ty), _mm_cmple_sd(tx, tz));
            let y_min = _mm_andnot_pd(x_min, _mm_cmple_sd(ty, tz));
            let xy = _mm_min_sd(tx, ty);
            t = _mm_cvtsd_f64(_mm_min_sd(xy, tz));
            let z_min = _mm_cmplt_sd(tz, xy);
            tx = add_where(x_min, tx, dx);
            ty = add_where(y_min, ty, dy);
            tz = add_where(z_min, tz, dz);
            chosen = _mm_movemask_pd(_mm_unpacklo_pd(x_min, y_min)) & 3;
        }
        let (dp, di, a) = moves[chosen as usize];
        packed = packed.wrapping_add(dp);
        index = index.wrapping_add(di);
        axis = a;
        if packed & OUTSIDE_BITS != 0 {
            break Exit::Left;
        }
    };
    // SAFETY: as above.
    let t_max = unsafe { [_mm_cvtsd_f64(tx), _mm_cvtsd_f64(ty), _mm_cvtsd_f64(tz)] };
    *cur = Cursor {
        cell: cell_of(packed).to_array(),
        t_max,
        t,
        axis: usize::try_from(axis).ok().filter(|a| *a < 3),
        left,
    };
    end
}
