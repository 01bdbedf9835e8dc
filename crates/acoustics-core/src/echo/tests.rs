//! Tests of echo plane validation.

use glam::{DVec3, IVec3};

use crate::*;

#[test]
fn malformed_planes_are_rejected_not_panics() {
    let mut w = WorldStore::new(Absent::Air);
    w.fill_box(
        IVec3::new(-5, -1, -5),
        IVec3::new(5, -1, 5),
        Cell::solid(MaterialId(1)),
    )
    .unwrap();
    let t = MaterialTable::standard();
    let (s, l) = (DVec3::new(-2.5, 1.5, 0.5), DVec3::new(2.5, 1.5, 0.5));
    for plane in [
        Plane {
            axis: 3,
            coord: 0,
            normal_sign: 1,
        },
        Plane {
            axis: usize::MAX,
            coord: 0,
            normal_sign: 1,
        },
        Plane {
            axis: 1,
            coord: i32::MIN,
            normal_sign: 1,
        },
        Plane {
            axis: 1,
            coord: i32::MAX,
            normal_sign: -1,
        },
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: 0,
        },
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: 7,
        },
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: i32::MIN,
        },
    ] {
        let r = echo::validate_plane(
            &w,
            &t,
            s,
            l,
            plane,
            &mut Budget::unlimited(),
            &mut Default::default(),
        );
        assert_eq!(r.err(), Some(echo::Rejection::BadPlane), "{plane:?}");
    }
    // The floor plane itself is fine (and cut: the ground echo is far under 30 ms).
    let r = echo::validate_plane(
        &w,
        &t,
        s,
        l,
        Plane {
            axis: 1,
            coord: 0,
            normal_sign: 1,
        },
        &mut Budget::unlimited(),
        &mut Default::default(),
    );
    assert_eq!(r.err(), Some(echo::Rejection::NearCut));
}
