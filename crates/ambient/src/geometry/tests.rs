//! Unit tests of `geometry`, each named after the retail function it checks.
use super::*;

/// `Position::get_offset` @ 0x00509F60 / `LandDefs::get_block_offset` @ 0x0043E630.
#[test]
fn get_offset() {
    let a = Position::new(0xA9B4_0001, Vec3::new(10.0, 20.0, 5.0));
    let same = Position::new(0xA9B4_0040, Vec3::new(180.0, 170.0, 7.0));
    assert_eq!(a.get_offset(&same), Vec3::new(170.0, 150.0, 2.0));
    // one block east and one south
    let b = Position::new(0xAAB3_0001, Vec3::new(0.0, 0.0, 0.0));
    assert_eq!(a.get_offset(&b), Vec3::new(182.0, -212.0, -5.0));
    assert_eq!(
        block_offset(0xA9B4_0001, 0xA8B6_0002),
        Vec3::new(-192.0, 384.0, 0.0)
    );
}

/// `LandDefs::lcoord_to_gid`: cell numbering is x-major, SW = 1, NW = 8, (1,0) = 9, NE = 64.
#[test]
fn lcoord_to_gid() {
    assert_eq!(super::lcoord_to_gid(0xA9 * 8, 0xB4 * 8), 0xA9B4_0001);
    assert_eq!(super::lcoord_to_gid(0xA9 * 8, 0xB4 * 8 + 7), 0xA9B4_0008);
    assert_eq!(super::lcoord_to_gid(0xA9 * 8 + 1, 0xB4 * 8), 0xA9B4_0009);
    assert_eq!(
        super::lcoord_to_gid(0xA9 * 8 + 7, 0xB4 * 8 + 7),
        0xA9B4_0040
    );
    assert_eq!(land_cell_id(0xA9, 0xB4, 7, 7), 0xA9B4_0040);
    assert_eq!(land_cell_id(0xA9, 0xB4, 1, 0), 0xA9B4_0009);
}

/// `inbound_valid_cellid`.
#[test]
fn inbound_valid_cellid() {
    assert!(is_valid_cell_id(0xA9B4_0001));
    assert!(is_valid_cell_id(0xA9B4_0040));
    assert!(!is_valid_cell_id(0xA9B4_0041));
    assert!(!is_valid_cell_id(0xA9B4_0000));
    assert!(is_valid_cell_id(0xA9B4_0100));
    assert!(!is_valid_cell_id(0xA9B4_FFFE));
    assert!(is_valid_cell_id(0xA9B4_FFFF));
    assert!(!is_valid_cell_id(0xFFB4_0001));
    assert!(is_outdoor_cell(0xA9B4_0040));
    assert!(!is_outdoor_cell(0xA9B4_0100));
    assert!(is_land_cell(0xA9B4_0001));
}

/// `LandDefs::heading` @ 0x005A9A30: the table's stored floats (spec §5), each the nearest f32 to
/// its multiple of π/4.
#[test]
fn land_defs_heading() {
    use std::f32::consts::PI;
    assert_eq!(Direction::North.heading(), 0.0);
    assert_eq!(Direction::East.heading(), PI / 2.0);
    assert_eq!(Direction::South.heading(), PI);
    assert_eq!(Direction::West.heading(), 3.0 * PI / 2.0);
    assert_eq!(Direction::NorthEast.heading(), PI / 4.0);
    assert_eq!(Direction::SouthEast.heading(), 3.0 * PI / 4.0);
    assert_eq!(Direction::SouthWest.heading(), 3.926_990_7);
    assert!((Direction::SouthWest.heading() - 5.0 * PI / 4.0).abs() < 1e-6);
    assert_eq!(Direction::NorthWest.heading(), 5.497_787);
    assert!((Direction::NorthWest.heading() - 7.0 * PI / 4.0).abs() < 1e-6);
    assert_eq!(Direction::InViewerBlock.heading(), 0.0);
    let quarter = std::f64::consts::FRAC_PI_4;
    for (d, k) in [
        (Direction::NorthEast, 1.0),
        (Direction::East, 2.0),
        (Direction::SouthEast, 3.0),
        (Direction::South, 4.0),
        (Direction::SouthWest, 5.0),
        (Direction::West, 6.0),
        (Direction::NorthWest, 7.0),
    ] {
        assert_eq!(
            d.heading().to_bits(),
            ((k * quarter) as f32).to_bits(),
            "{d:?}"
        );
    }
}

/// `Position::heading` @ 0x005A9520: compass bearing, 0 straight overhead.
#[test]
fn position_heading() {
    let p = Position::new(0xA9B4_0001, Vec3::new(50.0, 50.0, 0.0));
    let at = |x: f32, y: f32| Position::new(0xA9B4_0001, Vec3::new(x, y, 0.0));
    assert_eq!(p.heading(&at(50.0, 60.0)), 0.0);
    assert_eq!(p.heading(&at(60.0, 50.0)), 90.0);
    assert_eq!(p.heading(&at(50.0, 40.0)), 180.0);
    assert_eq!(p.heading(&at(40.0, 50.0)), 270.0);
    assert_eq!(
        p.heading(&Position::new(0xA9B4_0001, Vec3::new(50.0001, 50.0, 30.0))),
        0.0
    );
}

/// `LandDefs::gid_to_lcoord`: a land cell's square is 24 m, `CC = cx·8 + cy + 1`; EnvCells and
/// the landblock span the block.
#[test]
fn origin_in_cell() {
    let c = land_cell_id(0xA9, 0xB4, 4, 4);
    assert!(super::origin_in_cell(c, Vec3::new(96.0, 96.0, 70.0)));
    assert!(super::origin_in_cell(c, Vec3::new(119.9, 119.9, -5.0)));
    assert!(!super::origin_in_cell(c, Vec3::new(120.0, 100.0, 0.0)));
    assert!(!super::origin_in_cell(c, Vec3::new(3.4e38, 100.0, 0.0)));
    assert!(!super::origin_in_cell(c, Vec3::new(f32::NAN, 100.0, 0.0)));
    assert!(super::origin_in_cell(
        0xA9B4_0100,
        Vec3::new(191.0, 0.0, 0.0)
    ));
    assert!(!super::origin_in_cell(
        0xA9B4_FFFF,
        Vec3::new(192.0, 0.0, 0.0)
    ));
}
