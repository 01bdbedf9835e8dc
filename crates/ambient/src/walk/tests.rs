//! Unit tests of `walk`, each named after the retail function it checks.
use super::*;

fn wp(t: f64, cell: u32, origin: [f32; 3]) -> Waypoint {
    Waypoint {
        t,
        cell: CellId(cell),
        origin,
        seen_outside: false,
        heading: None,
        teleport: false,
    }
}

/// `LandDefs::adjust_to_outside` @ 0x005A9BC0: an origin outside the block moves to the block and
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
    let pose = walk.pose(5.0).unwrap();
    // halfway: 51 m east of (100, 100)
    let p = pose.player.position;
    assert_eq!(p, Position::new(0xA9B4_0035, Vec3::new(151.0, 100.0, 0.0)));
    assert_eq!(pose.camera.heading_deg, 90.0);
    let p = walk.pose(-1.0).unwrap().player.position;
    assert_eq!(p.objcell_id, 0xA9B4_0025);
    let p = walk.pose(99.0).unwrap().player.position;
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
    let text = serde_json::to_string(&w.waypoints[0]).unwrap();
    assert!(text.contains(r#""cell":"0xA9B40025""#), "{text}");
    assert_eq!(
        serde_json::from_str::<Waypoint>(&text).unwrap(),
        w.waypoints[0]
    );
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
        waypoints: vec![
            wp(1.0, 0xA9B4_0001, [0.0; 3]),
            wp(0.5, 0xA9B4_0001, [0.0; 3]),
        ],
        ..empty.clone()
    };
    assert_eq!(back.validate(), Err(WalkError::BadTime(1)));
    let rate = Walk {
        frame_rate: f64::NAN,
        waypoints: vec![wp(0.0, 0xA9B4_0001, [0.0; 3])],
        ..empty
    };
    assert!(matches!(rate.validate(), Err(WalkError::BadFrameRate(_))));
}

/// Issue 9 (5): a `cell` that is no cell id says what is expected, never serde's untagged-enum
/// message.
#[test]
fn bad_cell_values_say_what_is_expected() {
    for bad in [
        "4294967296",
        "-1",
        "1.5",
        "null",
        "true",
        "[1]",
        r#""0xZZ""#,
        r#""0x+1""#,
    ] {
        let json = format!(r#"{{ "t": 0, "cell": {bad}, "origin": [0, 0, 0] }}"#);
        let e = serde_json::from_str::<Waypoint>(&json)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(r#"expected "0xXXYYCCCC" or an integer 0..2^32"#),
            "{bad}: {e}"
        );
        assert!(!e.contains("untagged"), "{bad}: {e}");
    }
    let w: Waypoint =
        serde_json::from_str(r#"{ "t": 0, "cell": 4294967295, "origin": [0, 0, 0] }"#).unwrap();
    assert_eq!(w.cell, CellId(u32::MAX));
}

/// Issue 9 (6): a waypoint in cell 0 (or any invalid cell) is the runtime's invalid-cell error.
#[test]
fn invalid_cells_are_refused() {
    for cell in [0, 0xA9B4_0041, 0xFFFF_0001] {
        let walk = Walk {
            frame_rate: 30.0,
            camera_offset: [0.0; 3],
            waypoints: vec![wp(0.0, 0xA9B4_0001, [1.0; 3]), wp(1.0, cell, [1.0; 3])],
        };
        let e = walk.validate().unwrap_err();
        assert_eq!(
            e,
            WalkError::BadWaypoint {
                index: 1,
                source: ChangePositionError::InvalidCellId(CellId(cell))
            }
        );
    }
}

fn zigzag(n: usize) -> Walk {
    let mut waypoints = Vec::new();
    for i in 0..n {
        let mut w = wp(
            i as f64 * 0.7,
            0xA9B4_0001,
            [(i % 7) as f32 * 20.0, (i % 5) as f32 * 30.0, 0.0],
        );
        w.heading = (i % 4 == 3).then_some(i as f32);
        w.teleport = i % 6 == 5;
        waypoints.push(w);
    }
    Walk {
        frame_rate: 30.0,
        camera_offset: [0.0, -4.0, 2.0],
        waypoints,
    }
}

/// Issue 9 (2): the cursor gives, frame by frame, exactly the poses of a fresh search from the
/// start, and reports each teleport waypoint once; going back in time restarts it.
#[test]
fn cursor_matches_a_fresh_search() {
    let walk = zigzag(40);
    walk.validate().unwrap();
    let mut c = walk.cursor().unwrap();
    let mut teleports = 0;
    for i in 0..=900 {
        let t = f64::from(i) / 30.0;
        let mut p = c.pose(t);
        teleports += usize::from(p.teleported);
        p.teleported = false;
        let mut fresh = walk.pose(t).unwrap();
        fresh.teleported = false;
        assert_eq!(p, fresh, "t = {t}");
    }
    // waypoints 5, 11, 17, 23, 29 and 35 (t = 3.5 … 24.5 s)
    assert_eq!(teleports, 6);
    let back = c.pose(1.0);
    assert_eq!(back.player, walk.pose(1.0).unwrap().player);
}

/// Before a teleport waypoint the player holds the previous one; then it is there at once.
#[test]
fn teleport_waypoints_jump() {
    let mut b = wp(10.0, 0xAAB5_0005, [10.0, 100.0, 0.0]);
    b.teleport = true;
    let walk = Walk {
        frame_rate: 10.0,
        camera_offset: [0.0; 3],
        waypoints: vec![wp(0.0, 0xA9B4_0025, [100.0, 100.0, 0.0]), b],
    };
    let mut c = walk.cursor().unwrap();
    let before = c.pose(9.9);
    assert_eq!(before.player.position.origin, Vec3::new(100.0, 100.0, 0.0));
    assert!(!before.teleported);
    let at = c.pose(10.0);
    assert_eq!(at.player.position.objcell_id, 0xAAB5_0005);
    assert!(at.teleported);
    assert!(!c.pose(10.1).teleported);
}
