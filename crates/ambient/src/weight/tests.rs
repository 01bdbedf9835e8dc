//! Unit tests of `weight`, each named after the retail function it checks.
use super::*;

/// `Ambient::CalcWeight` @ 0x00550DD0 at 10/20/60/120/121 m.
#[test]
fn calc_weight() {
    let w = |d: f32| super::calc_weight(Vec3::new(d, 0.0, 0.0));
    assert_eq!(w(10.0), 1.0);
    assert_eq!(w(20.0), 1.0); // d² = 400 is not < 400: 400/400
    assert_eq!(w(60.0), 400.0 / 3600.0);
    assert_eq!(w(120.0), 400.0 / 14400.0); // kept at exactly 120 m (erratum 2)
    assert_eq!(w(121.0), 0.0);
    // 3-D length: z counts.
    assert_eq!(
        super::calc_weight(Vec3::new(0.0, 0.0, 60.0)),
        400.0 / 3600.0
    );
    assert_eq!(super::calc_weight(Vec3::new(100.0, 0.0, 70.0)), 0.0);
}

/// `Ambient::CalcDir` @ 0x00550E40: sector edges.
#[test]
fn calc_dir() {
    let d = |x: f32, y: f32| super::calc_dir(Vec3::new(x, y, 1000.0));
    // viewer block: x² + y² < 200
    assert_eq!(d(10.0, 9.9), Direction::InViewerBlock);
    assert_eq!(d(0.0, 14.1), Direction::InViewerBlock);
    assert_eq!(d(10.0, 10.0), Direction::NorthEast); // exactly 200: not inside
    // cardinal axes (ax < 0.0002) and y >= 0 → north
    assert_eq!(d(0.0, 50.0), Direction::North);
    assert_eq!(d(-0.0001, -50.0), Direction::South);
    // ay/ax > 2 edge: exactly 2 is diagonal, just over is cardinal (26.57° off the axis)
    assert_eq!(d(10.0, 20.0), Direction::NorthEast);
    assert_eq!(d(10.0, 20.01), Direction::North);
    assert_eq!(d(-10.0, -20.0), Direction::SouthWest);
    assert_eq!(d(-10.0, -20.01), Direction::South);
    // ax/ay > 2 edge
    assert_eq!(d(20.0, 10.0), Direction::NorthEast);
    assert_eq!(d(20.01, 10.0), Direction::East);
    assert_eq!(d(-20.01, 10.0), Direction::West);
    assert_eq!(d(-20.0, 10.0), Direction::NorthWest);
    assert_eq!(d(20.0, -10.0), Direction::SouthEast);
    assert_eq!(d(50.0, 0.0), Direction::East);
    assert_eq!(d(-50.0, 0.0001), Direction::West);
    // the 53.13° cardinal sector: atan(1/2) = 26.57° either side of north
    let r = 100.0_f32;
    let a = 26.5_f32.to_radians();
    assert_eq!(d(r * a.sin(), r * a.cos()), Direction::North);
    let a = 26.7_f32.to_radians();
    assert_eq!(d(r * a.sin(), r * a.cos()), Direction::NorthEast);
}
