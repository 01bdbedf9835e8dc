//! Tests of the AC ↔ voxel axis mapping.

use glam::{DVec3, Vec3};
use resound_ambient::Position;

use super::*;

#[test]
fn east_north_up_map_to_x_minus_z_y() {
    let p = Position::new(0xA9B4_0001, Vec3::new(10.0, 20.0, 70.0));
    let v = ac_to_voxel(&p);
    assert_eq!(
        v,
        DVec3::new(169.0 * 192.0 + 10.0, 70.0, -(180.0 * 192.0 + 20.0))
    );
    // One metre east, north and up.
    let e = ac_to_voxel(&Position::new(0xA9B4_0001, Vec3::new(11.0, 20.0, 70.0))) - v;
    let n = ac_to_voxel(&Position::new(0xA9B4_0001, Vec3::new(10.0, 21.0, 70.0))) - v;
    let u = ac_to_voxel(&Position::new(0xA9B4_0001, Vec3::new(10.0, 20.0, 71.0))) - v;
    assert_eq!((e, n, u), (DVec3::X, DVec3::NEG_Z, DVec3::Y));
    // Right-handed: x × y = z (east × up = south).
    assert_eq!(DVec3::X.cross(DVec3::Y), DVec3::Z);
    assert_eq!(voxel_dir_to_ac(DVec3::NEG_Z), DVec3::Y);
}

#[test]
fn neighbouring_blocks_join_and_the_round_trip_names_the_land_cell() {
    // The east edge of 0xA9B4 is the west edge of 0xAAB4.
    let a = ac_to_voxel(&Position::new(0xA9B4_0040, Vec3::new(192.0, 5.0, 0.0)));
    let b = ac_to_voxel(&Position::new(0xAAB4_0001, Vec3::new(0.0, 5.0, 0.0)));
    assert_eq!(a, b);
    // An origin outside [0, 192) is legal and lands in the neighbour.
    let c = ac_to_voxel(&Position::new(0xA9B4_0001, Vec3::new(-1.0, 5.0, 0.0)));
    let back = voxel_to_ac(c).unwrap();
    assert_eq!(back.objcell_id, 0xA8B4_0039); // cx 7, cy 0 of 0xA8B4
    assert_eq!(back.origin, Vec3::new(191.0, 5.0, 0.0));
    // Cell ids: cx·8 + cy + 1.
    let p = Position::new(0x1234_0001, Vec3::new(50.0, 100.0, 3.5));
    let q = voxel_to_ac(ac_to_voxel(&p)).unwrap();
    assert_eq!(q.objcell_id, 0x1234_0000 | (2 * 8 + 4 + 1));
    assert_eq!(q.origin, p.origin);
    assert_eq!(ac_to_voxel(&q), ac_to_voxel(&p));
}

#[test]
fn outside_the_map_has_no_ac_position() {
    assert!(voxel_to_ac(DVec3::new(-0.5, 0.0, -10.0)).is_none());
    assert!(voxel_to_ac(DVec3::new(10.0, 0.0, 0.5)).is_none()); // y = −0.5 (south of 0)
    assert!(voxel_to_ac(DVec3::new(255.0 * 192.0, 0.0, -10.0)).is_none());
    assert!(voxel_to_ac(DVec3::new(f64::NAN, 0.0, -10.0)).is_none());
}
