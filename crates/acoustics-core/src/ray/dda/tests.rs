//! Tests of the DDA: section skipping matches the plain cell walk.

use glam::{DVec3, IVec3};
use proptest::prelude::*;

use crate::ray::cast::first_hit;
use crate::ray::dda::{Flow, WalkStats, walk};
use crate::ray::occlusion::{OcclusionSettings, trace_occlusion};
use crate::*;

/// A probe that hides section classes: every section reads as Mixed, so the walk visits
/// every cell (the reference for section skipping).
struct NoSkip<'a>(&'a WorldStore);

impl WorldProbe for NoSkip<'_> {
    fn section_class(&self, _: IVec3) -> SectionClass {
        SectionClass::Mixed
    }
    fn cell(&self, cell: IVec3) -> Cell {
        match self.0.cell(cell) {
            Cell::Unknown => Cell::Air,
            c => c,
        }
    }
    fn epoch(&self) -> u64 {
        0
    }
    fn revision(&self) -> u64 {
        0
    }
}

#[test]
fn empty_sections_cost_one_step_each() {
    let w = WorldStore::new(Absent::Air);
    let mut b = Budget::unlimited();
    let stats = walk(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        DVec3::X,
        512.0,
        &mut b,
        |_| Flow::Continue,
    );
    assert_eq!(
        stats.cells, 33,
        "512 blocks along x = 32 sections + the one it ends in"
    );
    assert_eq!(stats.skipped_sections, stats.cells);
    // A diagonal ray crosses about 3x as many sections, still far below ~1500 cells.
    let d = DVec3::new(1.0, 0.7, 0.4).normalize();
    let stats = walk(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        d,
        512.0,
        &mut Budget::unlimited(),
        |_| Flow::Continue,
    );
    assert!(stats.cells < 100, "{}", stats.cells);
}

fn boxes_world(boxes: &[(IVec3, IVec3, u8)]) -> WorldStore {
    let mut w = WorldStore::new(Absent::Air);
    for &(a, b, kind) in boxes {
        let cell = match kind {
            0 => Cell::Air,
            1 => Cell::Unknown,
            2 => Cell::Solid {
                mat: MaterialId(1),
                partial: true,
            },
            k => Cell::solid(MaterialId(u16::from(k % 5))),
        };
        w.fill_box(a.min(b), a.max(b), cell).unwrap();
    }
    w
}

proptest! {
    #[test]
    fn section_skipping_matches_the_plain_cell_walk(
        raw in prop::collection::vec(((-40i32..40, -40i32..40, -40i32..40), (0i32..20, 0i32..20, 0i32..20), 0u8..8), 0..8),
        from in (-60f64..60.0, -60f64..60.0, -60f64..60.0),
        to in (-60f64..60.0, -60f64..60.0, -60f64..60.0),
    ) {
        let boxes: Vec<_> = raw.iter().map(|&((x, y, z), (dx, dy, dz), k)| {
            let a = IVec3::new(x, y, z);
            (a, a + IVec3::new(dx, dy, dz), k)
        }).collect();
        let w = boxes_world(&boxes);
        let t = MaterialTable::standard();
        let (from, to) = (DVec3::new(from.0, from.1, from.2), DVec3::new(to.0, to.1, to.2));
        let s = OcclusionSettings::default();
        let a = trace_occlusion(&w, &t, from, to, &s, &mut Budget::unlimited());
        let b = trace_occlusion(&NoSkip(&w), &t, from, to, &s, &mut Budget::unlimited());
        prop_assert!((a.occ - b.occ).abs() < 1e-9, "{} vs {}", a.occ, b.occ);
        prop_assert_eq!(a.hits, b.hits);
        prop_assert!(a.stats.cells <= b.stats.cells);
        if let Some(dir) = (to - from).try_normalize() {
            let ha = first_hit(&w, from, dir, 100.0, &mut Budget::unlimited()).hit;
            let hb = first_hit(&NoSkip(&w), from, dir, 100.0, &mut Budget::unlimited()).hit;
            prop_assert_eq!(ha.map(|h| (h.cell, h.axis, h.normal_sign)), hb.map(|h| (h.cell, h.axis, h.normal_sign)));
        }
    }
}

#[test]
fn walk_with_zero_direction_and_endless_length_visits_one_cell() {
    // A point "ray" in an Empty section: the section walk used to loop in place until the
    // budget ran out (forever with an unlimited budget).
    let w = WorldStore::new(Absent::Air);
    let mut b = Budget::new(10_000);
    let stats = walk(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        DVec3::ZERO,
        f64::INFINITY,
        &mut b,
        |_| Flow::Continue,
    );
    assert_eq!(stats.cells, 1);
    assert_eq!(stats.end, ray::dda::WalkEnd::Reached);
}

mod reference;

/// Everything a walk reports: the steps it showed (ray parameters as bits) and its stats.
pub(super) type Trace = (Vec<(IVec3, Cell, u64, Option<usize>, i32)>, WalkStats, u64);

/// Runs `walk`-like function `f` and records what it reports.
pub(super) fn trace_of(
    budget: u64,
    stop_after: usize,
    f: impl FnOnce(&mut Budget, &mut dyn FnMut(&ray::dda::Step) -> Flow) -> WalkStats,
) -> Trace {
    let mut steps = Vec::new();
    let mut b = Budget::new(budget);
    let stats = f(&mut b, &mut |s| {
        steps.push((s.cell, s.value, s.t_enter.to_bits(), s.axis, s.sign));
        if steps.len() >= stop_after {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    (steps, stats, b.remaining())
}

/// A world of the kinds of section a walk meets: sparse sections of single cells over an air
/// or Unknown fill (a bumpy ground, scattered cells), dense ones, full and Unknown ones.
fn mixed_world(
    absent: Absent,
    cells: &[(i32, i32, i32, u8)],
    boxes: &[(IVec3, IVec3, u8)],
) -> WorldStore {
    let kind = |k: u8| match k % 5 {
        0 => Cell::Air,
        1 => Cell::Unknown,
        2 => Cell::Solid {
            mat: MaterialId(3),
            partial: true,
        },
        k => Cell::solid(MaterialId(u16::from(k))),
    };
    let mut w = WorldStore::new(absent);
    for &(a, b, k) in boxes {
        w.fill_box(a.min(b), a.max(b), kind(k)).unwrap();
    }
    // A bumpy ground: one cell every 6 blocks at y = 0 over solid below.
    w.fill_box(IVec3::new(-40, -8, -40), IVec3::new(39, -1, 39), kind(3))
        .unwrap();
    for x in (-40..40).step_by(6) {
        for z in (-40..40).step_by(6) {
            w.set_cell(IVec3::new(x, 0, z), kind(4)).unwrap();
        }
    }
    for &(x, y, z, k) in cells {
        w.set_cell(IVec3::new(x, y, z), kind(k)).unwrap();
    }
    w
}

/// Boxes as the proptests draw them: a corner, a size and a kind.
pub(super) type DrawnBox = ((i32, i32, i32), (i32, i32, i32), u8);

/// The [`mixed_world`] of drawn cells and boxes, its absent sections Unknown or air.
pub(super) fn drawn_world(
    unknown: bool,
    cells: &[(i32, i32, i32, u8)],
    raw: &[DrawnBox],
) -> WorldStore {
    let boxes: Vec<_> = raw
        .iter()
        .map(|&((x, y, z), (dx, dy, dz), k)| {
            let a = IVec3::new(x, y, z);
            (a, a + IVec3::new(dx, dy, dz), k)
        })
        .collect();
    let absent = if unknown {
        Absent::Unknown
    } else {
        Absent::Air
    };
    mixed_world(absent, cells, &boxes)
}

/// A coordinate that is often a whole number (rays starting on cell faces).
fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        -45f64..45.0,
        (-45i32..45).prop_map(f64::from),
        (-45i32..45).prop_map(|v| f64::from(v) + 0.5),
    ]
}

/// A direction component: random, zero, ±1, or tiny (an infinite inverse: NaN boundaries).
pub(super) fn component() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -1f64..1.0,
        1 => Just(0.0),
        1 => Just(1.0),
        1 => Just(-1.0),
        1 => Just(1e-310),
        1 => Just(-1e-310),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The walk (both kinds) reports exactly what the walk before the per-storage loops and
    /// the crossing of clear sparse sections reported: same steps, same order, same ray
    /// parameters to the bit, same stats and budget, whatever the ray, budget or stop.
    #[test]
    fn walk_matches_the_reference_walk_bit_for_bit(
        unknown in any::<bool>(),
        cells in prop::collection::vec((-40i32..40, -4i32..20, -40i32..40, 0u8..5), 0..60),
        raw in prop::collection::vec(((-40i32..40, -8i32..20, -40i32..40), (0i32..20, 0i32..20, 0i32..20), 0u8..5), 0..4),
        origin in (coordinate(), coordinate(), coordinate()),
        dir in (component(), component(), component()),
        max_t in prop_oneof![0f64..150.0, Just(f64::INFINITY)],
        budget in prop_oneof![Just(100_000u64), 0u64..400],
        stop_after in prop_oneof![Just(usize::MAX), 1usize..20],
    ) {
        let w = drawn_world(unknown, &cells, &raw);
        let origin = DVec3::new(origin.0, origin.1, origin.2);
        let dir = DVec3::new(dir.0, dir.1, dir.2);
        // Unit directions as callers pass them, and the raw ones too.
        for dir in [dir, dir.try_normalize().unwrap_or(dir)] {
            // The walk counts a component whose inverse overflows as 0 (the reference, as it
            // was, could step on its NaN boundaries without moving).
            let counted = DVec3::from_array(
                dir.to_array().map(|c| if (1.0 / c).is_finite() { c } else { 0.0 }),
            );
            let new = trace_of(budget, stop_after, |b, v| walk(&w, origin, dir, max_t, b, v));
            let old = trace_of(budget, stop_after, |b, v| {
                reference::reference_walk::<_, _, true>(&w, origin, counted, max_t, b, v)
            });
            prop_assert_eq!(new, old);
            let new = trace_of(budget, stop_after, |b, v| {
                ray::dda::walk_solid(&w, origin, dir, max_t, b, v)
            });
            let old = trace_of(budget, stop_after, |b, v| {
                reference::reference_walk::<_, _, false>(&w, origin, counted, max_t, b, v)
            });
            prop_assert_eq!(new, old);
        }
    }
}

/// Rays along a bumpy ground over the bumps (the sparse sections are crossed in one go) and
/// through them (bricks crossed in one go or walked cell by cell), on diagonals that tie
/// boundaries too, report what the reference walk reports.
#[test]
fn ground_rays_match_the_reference_walk() {
    // Bumps on every residue of the 4-cell bricks: a lattice of step 5 at y = 0 and cells
    // scattered over y = 0..4.
    let mut cells = Vec::new();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..120 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let v = |shift: u32, m: u64| i32::try_from((state >> shift) % m).unwrap();
        cells.push((
            v(0, 80) - 40,
            v(10, 4),
            v(20, 80) - 40,
            3 + u8::from(state >> 40 & 1 == 1),
        ));
    }
    for x in (-39..40).step_by(5) {
        for z in (-39..40).step_by(5) {
            cells.push((x, 0, z, 4));
        }
    }
    let w = mixed_world(Absent::Air, &cells, &[]);
    let mut crossed = 0;
    let mut seen = 0;
    for y in [0.5, 1.0, 1.5, 2.5, 3.5, 15.99] {
        for k in 0..64 {
            let a = f64::from(k) * std::f64::consts::TAU / 64.0;
            // k = 8, 24, … are the exact diagonals: x and z boundaries tie at every step.
            let dir = if k % 16 == 8 {
                DVec3::new(a.cos().signum(), 0.0, a.sin().signum()).normalize()
            } else {
                DVec3::new(a.cos(), f64::from(k % 3) * 0.01, a.sin())
            };
            let origin = DVec3::new(-30.5 + f64::from(k % 7), y, -20.5 + f64::from(k % 5));
            for (budget, stop) in [(u64::MAX, usize::MAX), (u64::MAX, 3), (37, usize::MAX)] {
                let new = trace_of(budget, stop, |b, v| {
                    ray::dda::walk_solid(&w, origin, dir, 80.0, b, v)
                });
                let old = trace_of(budget, stop, |b, v| {
                    reference::reference_walk::<_, _, false>(&w, origin, dir, 80.0, b, v)
                });
                crossed += usize::from(new.0.is_empty());
                seen += new.0.len();
                assert_eq!(new, old, "y {y} k {k}");
            }
        }
    }
    assert!(
        crossed > 100,
        "rays above the bumps meet nothing: {crossed}"
    );
    assert!(seen > 500, "rays through the bumps meet them: {seen}");
}

/// A direction component too small to invert (its boundaries would be 0·∞ = NaN) counts as 0:
/// a ray from a cell face with such a component ends at its length even on an unlimited
/// budget, as the ray without it does. (Before, the walk chose the axis that does not move on
/// every step: endless.)
#[test]
fn a_component_too_small_to_invert_counts_as_zero_and_the_walk_ends() {
    let mut w = WorldStore::new(Absent::Air);
    // A Mixed section around the start, so that its cells are walked one by one.
    w.set_cell(IVec3::new(10, 10, 10), Cell::solid(MaterialId(1)))
        .unwrap();
    let origin = DVec3::new(0.25, 3.0, 0.5);
    let run = |dir: DVec3| {
        trace_of(u64::MAX, usize::MAX, |b, v| {
            *b = Budget::unlimited();
            walk(&w, origin, dir, 40.0, b, v)
        })
    };
    let tiny = run(DVec3::new(1.0, -1e-310, 0.0));
    assert_eq!(tiny.1.end, ray::dda::WalkEnd::Reached);
    assert_eq!(tiny.0.len(), 16, "the cells of the start section");
    assert_eq!(tiny, run(DVec3::X));
}
