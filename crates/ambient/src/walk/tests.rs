//! Unit tests of `walk`, each named after the retail function it checks.
use super::*;

fn wp(t: f64, cell: u32, origin: [f32; 3]) -> Waypoint {
    Waypoint {
        t,
        cell: CellId(cell),
        origin,
        seen_outside: false,
        heading: None,
    }
}

/// `LandDefs::adjust_to_outside` @ 0x5A9BC0: an origin outside the block moves to the block and
/// land cell that hold it.
#[test]
fn adjust_to_outside() {
    let p = outdoor_position(0xA9B4_0001, Vec3::new(200.0, -10.0, 3.0));
    assert_eq!(p, Position::new(0xAAB3_0008, Vec3::new(8.0, 182.0, 3.0)));
    let p = outdoor_position(0xA9B4_0001, Vec3::new(100.0, 100.0, 0.0));
    assert_eq!(p.objcell_id, 0xA9B4_0025);
    // outside the world: unchanged
    let p = outdoor_position(0x0000_0001, Vec3::new(-5.0, 1.0, 0.0));
    assert_eq!(p.objcell_id, 0x0000_0001);
}

#[test]
fn pose_interpolates_and_follows_cells() {
    let walk = Walk {
        frame_rate: 10.0,
        camera_offset: [0.0; 3],
        waypoints: vec![
            wp(0.0, 0xA9B4_0025, [100.0, 100.0, 0.0]),
            wp(10.0, 0xAAB4_0005, [10.0, 100.0, 0.0]),
        ],
    };
    walk.validate().unwrap();
    let (p, _, h) = walk.pose(5.0).unwrap();
    // halfway: 51 m east of (100, 100)
    assert_eq!(p, Position::new(0xA9B4_0035, Vec3::new(151.0, 100.0, 0.0)));
    assert_eq!(h, 90.0);
    let (p, _, _) = walk.pose(-1.0).unwrap();
    assert_eq!(p.objcell_id, 0xA9B4_0025);
    let (p, _, _) = walk.pose(99.0).unwrap();
    assert_eq!(p, Position::new(0xAAB4_0005, Vec3::new(10.0, 100.0, 0.0)));
}

#[test]
fn parse_and_validate() {
    let json = r#"{ "waypoints": [ { "t": 0, "cell": "0xA9B40025", "origin": [1, 2, 3] },
                                   { "t": 1, "cell": 2847146021, "origin": [1, 2, 3], "heading": 45 } ] }"#;
    let w: Walk = serde_json::from_str(json).unwrap();
    assert_eq!(w.frame_rate, 30.0);
    assert_eq!(w.waypoints[0].cell, CellId(0xA9B4_0025));
    assert_eq!(w.waypoints[1].cell, CellId(0xA9B4_0025));
    assert_eq!(String::from(CellId(0xA9B4_0025)), "0xA9B40025");
    assert!(
        serde_json::from_str::<Walk>(
            r#"{ "waypoints": [ { "t": 0, "cell": "0xZZ", "origin": [0,0,0] } ] }"#
        )
        .is_err()
    );
    let empty = Walk {
        frame_rate: 30.0,
        camera_offset: [0.0; 3],
        waypoints: vec![],
    };
    assert_eq!(empty.validate(), Err(WalkError::Empty));
    let back = Walk {
        waypoints: vec![wp(1.0, 1, [0.0; 3]), wp(0.5, 1, [0.0; 3])],
        ..empty.clone()
    };
    assert_eq!(back.validate(), Err(WalkError::BadTime(1)));
    let rate = Walk {
        frame_rate: f64::NAN,
        waypoints: vec![wp(0.0, 1, [0.0; 3])],
        ..empty
    };
    assert!(matches!(rate.validate(), Err(WalkError::BadFrameRate(_))));
}
