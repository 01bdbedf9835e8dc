// SPDX-License-Identifier: GPL-3.0-only
//! Tests of the SPR ray walk: section skipping, tie order, long casts.

#![allow(
    clippy::needless_range_loop,
    reason = "index loops compare the 4 slots side by side"
)]

use glam::{DVec3, IVec3};

use crate::sphere::ray_direction;
use crate::test_support::{Boxes, SkippingBoxes, stone};
use crate::*;

#[test]
fn section_skipping_is_bit_identical_to_the_cell_walk() {
    // Sparse pillars and slabs spread over several sections; rays from many starts/directions.
    let mut boxes = Vec::new();
    let mut state = 0x9E37_79B9_u32;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    for _ in 0..60 {
        let p = IVec3::new(
            (next() % 96) as i32 - 48,
            (next() % 64) as i32 - 32,
            (next() % 96) as i32 - 48,
        );
        let size = IVec3::new(
            (next() % 6) as i32,
            (next() % 12) as i32,
            (next() % 6) as i32,
        );
        boxes.push((p, p + size, Some(stone())));
    }
    let plain = Boxes(boxes.clone());
    let skipping = SkippingBoxes(Boxes(boxes));
    let mut hits = 0;
    for i in 0..400_u32 {
        let from = DVec3::new(
            f64::from(next() % 4000) / 40.0 - 50.0,
            f64::from(next() % 2000) / 40.0 - 25.0,
            f64::from(next() % 4000) / 40.0 - 50.0,
        );
        let to = from + ray_direction(i % 32, 32) * (40.0 + f64::from(i % 7) * 30.0);
        let mut c1 = CellCount::unlimited();
        let mut c2 = CellCount::unlimited();
        let a = cast(&plain, from, to, None, &mut c1);
        let b = cast(&skipping, from, to, None, &mut c2);
        assert_eq!(a, b, "ray {i}: {from:?} → {to:?}");
        assert!(c2.cells <= c1.cells);
        hits += usize::from(a.is_some());
    }
    assert!(hits > 40 && hits < 360, "hits {hits}");
}

#[test]
fn dda_tie_order_z_then_y_then_x() {
    // §1.1: on exact ties z beats y and y beats x. A diagonal through a cell corner visits the
    // winning axis's neighbour first; only that order meets the lone block, at the corner.
    let mut cells = CellCount::unlimited();
    let from = DVec3::splat(0.5);
    let cases = [
        // (block, to, hit point, entered face)
        (
            IVec3::new(0, 1, 0),
            DVec3::new(2.5, 2.5, 0.5),
            DVec3::new(1.0, 1.0, 0.5),
            Direction::Down,
        ),
        (
            IVec3::new(0, 0, 1),
            DVec3::new(0.5, 2.5, 2.5),
            DVec3::new(0.5, 1.0, 1.0),
            Direction::North,
        ),
        (
            IVec3::new(0, 0, 1),
            DVec3::new(2.5, 0.5, 2.5),
            DVec3::new(1.0, 0.5, 1.0),
            Direction::North,
        ),
    ];
    for (block, to, at, face) in cases {
        let world = Boxes(vec![(block, block, Some(stone()))]);
        let hit = cast(&world, from, to, None, &mut cells).expect("tie winner visited first");
        assert_eq!((hit.cell, hit.face), (block, face), "{block} {hit:?}");
        assert!(hit.location.distance(at) < 1e-9, "{hit:?}");
    }
    // The losing neighbours are never visited: a block there alone is missed.
    for (block, to) in [
        (IVec3::new(1, 0, 0), DVec3::new(2.5, 2.5, 0.5)),
        (IVec3::new(0, 1, 0), DVec3::new(0.5, 2.5, 2.5)),
        (IVec3::new(1, 0, 0), DVec3::new(2.5, 0.5, 2.5)),
    ] {
        let world = Boxes(vec![(block, block, Some(stone()))]);
        assert_eq!(cast(&world, from, to, None, &mut cells), None, "{block}");
    }
}

#[test]
fn long_casts_are_walked_to_the_end() {
    // §1.1: SPR's casts have no cell limit. Shared-airspace casts may be up to
    // 512/attenuation_factor long (5120 at attenuation_factor 0.1), i.e. over 4096 cells on a
    // diagonal: a block near the far end must still be hit, not reported as a clear line.
    let block = IVec3::splat(1400);
    let world = Boxes(vec![(block, block, Some(stone()))]);
    let from = DVec3::new(0.5, 0.3, 0.7);
    let to = from + DVec3::splat(1500.0);
    let mut cells = CellCount::unlimited();
    let hit = cast(&world, from, to, None, &mut cells).expect("far block hit");
    assert_eq!(hit.cell, block);
    assert!(cells.cells > 4096, "{cells:?}");
}
