//! Walks from a cell centre along a kept ray report what the walk from that centre reports.

use glam::{DVec3, IVec2, IVec3};
use proptest::prelude::*;

use super::*;
use crate::ray::dda::tests::{Trace, component, drawn_world, trace_of};
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
