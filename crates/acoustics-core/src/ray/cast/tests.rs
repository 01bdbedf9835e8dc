//! Tests of first-hit casts.

use glam::{DVec3, IVec3};

use crate::ray::cast::first_hit;
use crate::*;

#[test]
fn first_hit_reports_face_axis_and_sign() {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::new(10, -5, -5),
        IVec3::new(12, 5, 5),
        Cell::solid(MaterialId(1)),
    )
    .unwrap();
    let c = first_hit(
        &w,
        DVec3::new(0.5, 0.5, 0.5),
        DVec3::X,
        100.0,
        &mut Budget::unlimited(),
    );
    let h = c.hit.unwrap();
    assert_eq!(
        (h.cell, h.axis, h.normal_sign, h.plane),
        (IVec3::new(10, 0, 0), 0, -1, 10)
    );
    assert!((h.t - 9.5).abs() < 1e-12);
    let c = first_hit(
        &w,
        DVec3::new(20.5, 0.5, 0.5),
        -DVec3::X,
        100.0,
        &mut Budget::unlimited(),
    );
    let h = c.hit.unwrap();
    assert_eq!((h.cell.x, h.normal_sign, h.plane), (12, 1, 13));
    assert_eq!(
        c.stats.touched.unwrap(),
        SectionBox {
            min: IVec3::ZERO,
            max: IVec3::new(1, 0, 0)
        }
    );
}
