//! Walks on the fixture world follow the retail order within a frame (spec
//! `ambient-runtime.md` §6.1, `SmartBox::UseTime` @ 0x00455410): each rebuild gathers around the
//! previous frame's player, each sound is heard from the previous frame's camera, and a
//! teleport waypoint rebuilds in its own frame.

use resound_ambient::walk::{Walk, WalkEntry};
use resound_ambient::{CellId, Outcome};

use crate::common::{ambient, sources};

fn example() -> Walk {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples-data/walk.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A walk across two landblock borders (0xA9B4 → 0xA8B4 → 0xA8B5).
fn across_borders() -> Walk {
    serde_json::from_str(
        r#"{ "frame_rate": 30, "camera_offset": [0.0, -3.0, 2.0], "waypoints": [
            { "t": 0, "cell": "0xA9B40025", "origin": [100, 100, 72] },
            { "t": 40, "cell": "0xA8B40025", "origin": [100, 100, 40] },
            { "t": 80, "cell": "0xA8B50025", "origin": [100, 100, 40] } ] }"#,
    )
    .unwrap()
}

/// Checks every rebuild and every positioned play of `walk`'s log against §6.1; returns the
/// rebuild times.
fn check(walk: &Walk, seconds: f64) -> Vec<f64> {
    let (mut t, mut lb) = sources();
    let log = walk.run(&mut ambient(), seconds, &mut t, &mut lb).unwrap();
    let t0 = walk.waypoints[0].t;
    let frame = |time: f64| ((time - t0) * walk.frame_rate).round() as i64;
    let at = |i: i64| walk.pose(t0 + i.max(0) as f64 / walk.frame_rate).unwrap();
    let mut times = Vec::new();
    let mut teleport_frame = None;
    for e in &log {
        match e {
            WalkEntry::Rebuild {
                time,
                position,
                teleport,
                ..
            } => {
                let n = frame(*time);
                times.push(*time);
                if *teleport {
                    teleport_frame = Some(n);
                    assert_eq!(*position, at(n).player.position);
                    continue;
                }
                // the rebuild at frame n gathers around frame n−1's player …
                assert_eq!(*position, at(n - 1).player.position, "t = {time}");
                // … who had just entered the cell (frame 0 has no previous frame)
                if n > 1 && teleport_frame != Some(n - 1) {
                    assert_ne!(
                        at(n - 2).player.position.objcell_id,
                        position.objcell_id,
                        "t = {time}"
                    );
                }
            }
            WalkEntry::Event(ev) => {
                let Outcome::Play(v) = ev.outcome else {
                    continue;
                };
                let Some(p) = v.position else { continue };
                let n = frame(ev.time);
                let camera = if teleport_frame == Some(n) {
                    at(n).camera
                } else {
                    at(n - 1).camera
                };
                assert_eq!(v.distance, p.distance(&camera.position), "{ev:?}");
            }
        }
    }
    times
}

#[test]
fn the_example_walk_follows_the_retail_order() {
    let times = check(&example(), 90.0);
    // crossing out of the start cell at frame 1 rebuilds at frame 2
    assert_eq!(&times[..2], &[0.0, 2.0 / 30.0]);
}

#[test]
fn a_walk_across_landblock_borders_follows_the_retail_order() {
    let walk = across_borders();
    let times = check(&walk, 90.0);
    let (mut t, mut lb) = sources();
    let log = walk.run(&mut ambient(), 90.0, &mut t, &mut lb).unwrap();
    let first_new_block = log.iter().find_map(|e| match e {
        WalkEntry::Rebuild { time, position, .. } if position.objcell_id.0 >> 16 == 0xA8B4 => {
            Some(*time)
        }
        _ => None,
    });
    // the player crosses x = 0 of block 0xA9B4 at frame 626 (20.867 s); the rebuild is frame 627
    assert_eq!(first_new_block, Some(627.0 / 30.0));
    assert!(times.len() > 5);
}

#[test]
fn a_teleport_waypoint_rebuilds_in_its_frame() {
    let mut walk = across_borders();
    walk.waypoints[1].teleport = true;
    walk.waypoints[1].cell = CellId(0xA8B4_0025);
    let (mut t, mut lb) = sources();
    let log = walk.run(&mut ambient(), 60.0, &mut t, &mut lb).unwrap();
    let jump = log.iter().find_map(|e| match e {
        WalkEntry::Rebuild {
            time,
            position,
            teleport: true,
            ..
        } => Some((*time, *position)),
        _ => None,
    });
    let (time, position) = jump.expect("a teleport rebuild");
    assert_eq!(time, 40.0);
    assert_eq!(position.objcell_id, 0xA8B4_0025);
    check(&walk, 60.0);
}
