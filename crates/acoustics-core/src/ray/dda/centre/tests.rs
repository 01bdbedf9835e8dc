//! Walks from a cell centre along a kept ray report what the walk from that centre reports.

use glam::{DVec3, IVec2, IVec3};
use proptest::prelude::*;

use super::*;
use crate::ray::dda::tests::{DrawnBox, Trace, component, drawn_world, trace_of};
use crate::ray::dda::walk_solid as walk_from;
use crate::room::upper_directions;
use crate::world::heightfield::{Diagonal, Heightfield, Layers, PlacedBox, VertexGrid};
use crate::world::material::MaterialId;
use crate::world::store::{Absent, WorldStore};

/// Both walks from the centre of `cell`: the kept ray's and the plain one's.
fn both<P: WorldProbe + ?Sized>(
    probe: &P,
    ray: &CentreRay,
    cell: IVec3,
    budget: u64,
    stop_after: usize,
) -> (Trace, Trace) {
    let kept = trace_of(budget, stop_after, |b, v| ray.walk_solid(probe, cell, b, v));
    let centre = cell.as_dvec3() + DVec3::splat(0.5);
    let plain = trace_of(budget, stop_after, |b, v| {
        walk_from(probe, centre, ray.dir(), ray.length(), b, v)
    });
    (kept, plain)
}

/// A rolling terrain (dense cached sections with extents, Full sections below, open sky
/// above), with a few boxes over it (a wall of partial cells, an air cut, an Unknown block).
fn terrain(seed: u64) -> Heightfield {
    let (cols, rows) = (9, 9);
    let mut g = VertexGrid::new(IVec2::new(-96, -96), 24, cols, rows);
    let mut state = seed | 1;
    for k in 0..rows {
        for i in 0..cols {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            g.set(i, k, (state % 40) as f32 - 10.0);
        }
    }
    let mut f = Heightfield::new(
        &g,
        |i, k| {
            if (i + k) % 2 == 0 {
                Diagonal::Main
            } else {
                Diagonal::Anti
            }
        },
        |_, _| Layers {
            top: MaterialId(2),
            depth: 2.0,
            below: MaterialId(3),
        },
        Cell::Unknown,
    )
    .unwrap();
    let partial = Cell::Solid {
        mat: MaterialId(4),
        partial: true,
    };
    for (min, max, cell) in [
        (IVec3::new(5, 0, -20), IVec3::new(6, 30, 20), partial),
        (
            IVec3::new(-30, -5, -30),
            IVec3::new(-20, 20, -20),
            Cell::Air,
        ),
        (
            IVec3::new(20, 10, 20),
            IVec3::new(40, 40, 40),
            Cell::Unknown,
        ),
    ] {
        f.place(PlacedBox { min, max, cell });
    }
    f
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Over stored worlds of every kind of section (dense, sparse over air or Unknown, Full,
    /// Empty, Unknown), the kept ray reports the same steps, ray parameters (to the bit),
    /// stats and budget as the walk from the cell centre, whatever the ray, budget or stop.
    #[test]
    fn kept_rays_match_the_walk_from_the_centre_in_stored_worlds(
        unknown in any::<bool>(),
        cells in prop::collection::vec((-40i32..40, -4i32..20, -40i32..40, 0u8..5), 0..60),
        raw in prop::collection::vec(((-40i32..40, -8i32..20, -40i32..40), (0i32..20, 0i32..20, 0i32..20), 0u8..5), 0..4),
        start in (-45i32..45, -10i32..25, -45i32..45),
        dir in (component(), component(), component()),
        length in prop_oneof![0f64..100.0, Just(64.0), Just(100.0)],
        budget in prop_oneof![Just(100_000u64), 0u64..300],
        stop_after in prop_oneof![Just(usize::MAX), 1usize..12],
    ) {
        let w = drawn_world(unknown, &cells, &raw);
        let dir = DVec3::new(dir.0, dir.1, dir.2);
        let cell = IVec3::new(start.0, start.1, start.2);
        for dir in [dir, dir.try_normalize().unwrap_or(dir)] {
            let Some(ray) = CentreRay::new(dir, length) else {
                // Only a direction vector longer than unit can walk more than 255 cells.
                prop_assert!(dir.length() > 1.0);
                continue;
            };
            let (kept, plain) = both(&w, &ray, cell, budget, stop_after);
            prop_assert_eq!(kept, plain);
        }
    }

    /// The same on terrain: room rays from cells on, under and above a rolling heightfield.
    #[test]
    fn kept_room_rays_match_the_walk_from_the_centre_on_terrain(
        seed in any::<u64>(),
        start in (-90i32..90, -15i32..40, -90i32..90),
        budget in prop_oneof![Just(100_000u64), 0u64..300],
        stop_after in prop_oneof![Just(usize::MAX), 1usize..6],
    ) {
        let f = terrain(seed);
        let cell = IVec3::new(start.0, start.1, start.2);
        for dir in upper_directions() {
            let ray = CentreRay::new(dir, 64.0).unwrap();
            let (kept, plain) = both(&f, &ray, cell, budget, stop_after);
            prop_assert_eq!(kept, plain);
        }
    }
}

/// On the ground of a terrain the kept rays walk Mixed sections (the case they are for) and
/// still match; the walk's counters show they did walk and skip.
#[test]
fn kept_room_rays_from_the_ground_walk_mixed_sections_and_match() {
    let f = terrain(7);
    let (mut cells, mut skipped, mut hits) = (0, 0, 0);
    for x in (-80..80).step_by(9) {
        for z in (-80..80).step_by(11) {
            let h = f.height_at(f64::from(x) + 0.5, f64::from(z) + 0.5).unwrap();
            let cell = IVec3::new(x, h.floor() as i32 + 1, z);
            for dir in upper_directions() {
                let ray = CentreRay::new(dir, 64.0).unwrap();
                let (kept, plain) = both(&f, &ray, cell, u64::MAX, usize::MAX);
                assert_eq!(kept, plain, "cell {cell} dir {dir}");
                cells += kept.1.cells;
                skipped += kept.1.skipped_sections;
                hits += kept.0.len();
            }
        }
    }
    assert!(
        cells > 50_000 && skipped > 100 && hits > 1000,
        "{cells} {skipped} {hits}"
    );
}

/// Rays that skip Empty or Unknown sections and then walk cells again: from the ground up
/// through an empty layer into a ceiling of partial cells, a full section and an Unknown
/// slab, and down from inside the empty layer. They match, and the sweep covers skips that
/// end in a section walked afterwards (with hits there), skips that run out of budget, and
/// skips of Unknown sections.
#[test]
fn kept_rays_that_skip_and_walk_on_match() {
    let raw: [DrawnBox; 4] = [
        // A ceiling of partial cells at y = 40 (Mixed sections above an empty layer).
        ((-48, 40, -48), (96, 1, 96), 2),
        // One full section in that layer's row above.
        ((16, 32, -48), (15, 15, 15), 3),
        // An Unknown slab above the ceiling.
        ((-48, 60, -48), (96, 3, 96), 1),
        // A pillar through the empty layer.
        ((-8, 0, 8), (2, 40, 2), 4),
    ];
    let dirs = crate::echo::golden_spiral(48);
    let (mut entered, mut exhausted, mut unknown) = (0, 0, 0);
    for absent_unknown in [false, true] {
        let w = drawn_world(absent_unknown, &[], &raw);
        for x in (-36..36).step_by(7) {
            for z in (-36..36).step_by(9) {
                for y in [1, 2, 20, 30] {
                    let cell = IVec3::new(x, y, z);
                    for (i, &dir) in dirs.iter().enumerate() {
                        let ray = CentreRay::new(dir, 64.0).unwrap();
                        let (budget, stop) = match i % 3 {
                            0 => (u64::MAX, usize::MAX),
                            1 => (20 + (i as u64 % 7) * 3, usize::MAX),
                            _ => (u64::MAX, 1 + i % 2),
                        };
                        let (kept, plain) = both(&w, &ray, cell, budget, stop);
                        assert_eq!(kept, plain, "cell {cell} dir {dir} budget {budget}");
                        let stats = kept.1;
                        if stats.skipped_sections > 0 {
                            let after = kept.0.iter().any(|s| s.1 != Cell::Unknown);
                            entered += usize::from(after && stats.end == WalkEnd::Stopped);
                            exhausted += usize::from(stats.end == WalkEnd::BudgetExhausted);
                            unknown += usize::from(stats.unknown_steps > 0);
                        }
                    }
                }
            }
        }
    }
    assert!(
        entered > 500 && exhausted > 100 && unknown > 500,
        "{entered} {exhausted} {unknown}"
    );
}

/// Rays that leave a skipped section through an edge or a corner, where the section walk's
/// order on ties decides which section comes next: from cells of an Empty (or Unknown)
/// section whose neighbours all hold a cell, along the diagonals.
#[test]
fn kept_rays_leave_skipped_sections_through_edges_and_corners_as_the_walk_does() {
    let solid = Cell::solid(MaterialId(3));
    let mut dirs = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                let d = DVec3::new(f64::from(x), f64::from(y), f64::from(z));
                if d != DVec3::ZERO {
                    dirs.extend([d, d.normalize()]);
                }
            }
        }
    }
    let mut skipped = 0;
    for absent in [Absent::Air, Absent::Unknown] {
        // Sections of odd parity hold one solid cell; the others (the start's) are absent.
        let mut w = WorldStore::new(absent);
        for sx in -2..=2 {
            for sy in -2..=2 {
                for sz in -2..=2 {
                    if (sx + sy + sz) % 2 != 0 {
                        let lo = IVec3::new(sx, sy, sz) * 16;
                        w.set_cell(lo + IVec3::new(3, 5, 7), solid).unwrap();
                    }
                }
            }
        }
        for a in 0..16 {
            for b in 0..16 {
                for cell in [
                    IVec3::new(a, a, b),
                    IVec3::new(a, b, a),
                    IVec3::new(b, a, a),
                ] {
                    for &dir in &dirs {
                        let ray = CentreRay::new(dir, 64.0).unwrap();
                        let (kept, plain) = both(&w, &ray, cell, u64::MAX, usize::MAX);
                        assert_eq!(kept, plain, "cell {cell} dir {dir}");
                        skipped += kept.1.skipped_sections;
                    }
                }
            }
        }
    }
    assert!(skipped > 10_000, "{skipped}");
}

/// Walks of all the room rays from one cell that share its start section ([`StartSection`])
/// match the walks from the centre, on terrain (whose Mixed sections get their cells on a
/// later visit: the first walks ask again) and in a stored world.
#[test]
fn kept_rays_sharing_the_start_section_match() {
    let f = terrain(11);
    let w = drawn_world(true, &[(3, 2, 3, 3), (-5, 9, 2, 2)], &[]);
    let probes: [&dyn WorldProbe; 2] = [&f, &w];
    let rays: Vec<_> = upper_directions()
        .into_iter()
        .map(|d| CentreRay::new(d, 64.0).unwrap())
        .collect();
    let mut kept_some = 0;
    for probe in probes {
        for (x, z) in [(0, 0), (-37, 21), (50, -64), (15, 15)] {
            for y in [-3, 0, 2, 7, 30] {
                let cell = IVec3::new(x, y, z);
                let mut start = StartSection::new(probe, cell);
                for _ in 0..2 {
                    for ray in &rays {
                        let kept = trace_of(u64::MAX, usize::MAX, |b, v| {
                            ray.walk_solid_from(&mut start, cell, b, v)
                        });
                        let plain = both(probe, ray, cell, u64::MAX, usize::MAX).1;
                        assert_eq!(kept, plain, "cell {cell} dir {}", ray.dir());
                    }
                }
                kept_some += usize::from(start.kept.is_some());
            }
        }
    }
    assert!(kept_some > 20, "{kept_some}");
}

/// Near the edge of the supported world the walk's own checks apply (it leaves the world).
#[test]
fn kept_rays_near_the_world_edge_leave_it_as_the_walk_does() {
    let w = WorldStore::new(Absent::Air);
    let ray = CentreRay::new(DVec3::X, 64.0).unwrap();
    let cell = IVec3::new(WORLD_LIMIT - 10, 0, 0);
    let (kept, plain) = both(&w, &ray, cell, u64::MAX, usize::MAX);
    assert_eq!(kept.1.end, WalkEnd::LeftWorld);
    assert_eq!(kept, plain);
}

/// A length beyond the kept offsets, a negative or NaN length, or a non-finite direction
/// keeps nothing.
#[test]
fn bad_rays_are_refused() {
    assert!(CentreRay::new(DVec3::X, CENTRE_RAY_MAX_LENGTH + 1.0).is_none());
    assert!(CentreRay::new(DVec3::X, -1.0).is_none());
    assert!(CentreRay::new(DVec3::X, f64::NAN).is_none());
    assert!(CentreRay::new(DVec3::new(f64::NAN, 0.0, 1.0), 10.0).is_none());
    assert!(CentreRay::new(DVec3::new(f64::INFINITY, 0.0, 1.0), 10.0).is_none());
    let ray = CentreRay::new(DVec3::new(0.0, 1.0, 0.0), CENTRE_RAY_MAX_LENGTH).unwrap();
    assert_eq!(ray.length(), CENTRE_RAY_MAX_LENGTH);
}
