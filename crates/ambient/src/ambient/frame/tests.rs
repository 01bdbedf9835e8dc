//! Unit tests of `frame`: one per rule of the retail order (`SmartBox::UseTime` @ 0x00455410,
//! spec `ambient-runtime.md` §6.1).
use glam::Vec3;

use super::*;
use crate::Seeds;
use crate::ambient::tests::{BX, BY, STB_A, at, empty_ring, set_cell, tables};
use crate::event::Outcome;
use crate::sound_manager::SoundSettings;
use crate::source::MemoryLandBlocks;
use crate::testkit::{asd, region, stb, word};
use resound_datformat::id::CellId;

/// STB A's sounds at the vertex (7, 7) of the centre block only; everything else silent.
fn far_corner_blocks() -> MemoryLandBlocks {
    let mut blocks = empty_ring();
    set_cell(&mut blocks, BX, BY, 7, 7, word(0, 0), 0);
    MemoryLandBlocks::new(blocks)
}

/// One intermittent sound that always plays (`play_chance` 1) every second exactly.
fn always_plays() -> Ambient {
    let r = region(
        vec![stb(STB_A, vec![asd(0x48, 0.8, 1.0, 1.0, 1.0)])],
        &[0],
        &[&[0], &[], &[], &[]],
    );
    Ambient::new(&r, Seeds { ran2: 1, crt: 1 }, SoundSettings::default()).unwrap()
}

fn camera(position: Position) -> Listener {
    Listener {
        position,
        heading_deg: 0.0,
    }
}

/// The rebuild sees the previous frame's cell: crossing into a new cell at frame N rebuilds at
/// frame N+1, and the sounds that start with the rebuild carry frame N+1's clock.
#[test]
fn change_position_sees_the_previous_frame() {
    let mut a = always_plays();
    let (mut t, mut lb) = (tables(), far_corner_blocks());
    let mut ev = Vec::new();
    let start = at(1, 10.0, 10.0, 0.0);
    let corner = at(0x40, 170.0, 170.0, 0.0);
    let mut step = |a: &mut Ambient, now: f64, p: Position, ev: &mut Vec<AmbientEvent>| {
        a.frame(now, Player::at(p), camera(p), &mut t, &mut lb, ev)
            .unwrap()
    };
    // frame 0: no previous frame, so the given pose rebuilds at once
    assert!(matches!(
        step(&mut a, 0.0, start, &mut ev),
        PositionChange::Rebuilt(_)
    ));
    assert_eq!(a.current_cell(), Some(start.objcell_id));
    assert_eq!(step(&mut a, 0.1, start, &mut ev), PositionChange::Unchanged);
    // frame 2 crosses into the far cell: the rebuild still sees frame 1's cell
    assert_eq!(
        step(&mut a, 0.2, corner, &mut ev),
        PositionChange::Unchanged
    );
    assert_eq!(a.current_cell(), Some(start.objcell_id));
    assert!(ev.is_empty(), "{ev:?}");
    // frame 3 rebuilds around frame 2's position, with frame 3's clock
    let PositionChange::Rebuilt(r) = step(&mut a, 0.3, corner, &mut ev) else {
        panic!("no rebuild at frame 3");
    };
    assert_eq!(r.cell, corner.objcell_id);
    assert_eq!(a.player_pos(), corner);
    assert!(!ev.is_empty());
    assert!(ev.iter().all(|e| e.time == 0.3), "{ev:?}");
}

/// A sound played at frame N is placed, attenuated and panned from the camera of frame N−1
/// (`SoundManager::SetPlayerPosition` @ 0x005503C0 runs in the previous frame's Draw).
#[test]
fn use_time_hears_from_the_previous_camera() {
    let mut a = always_plays();
    let (mut t, mut lb) = (tables(), far_corner_blocks());
    let mut ev = Vec::new();
    let feet = at(0x40, 170.0, 170.0, 0.0);
    let cams = [
        at(0x40, 160.0, 160.0, 5.0),
        at(0x40, 100.0, 120.0, 5.0),
        at(0x40, 20.0, 180.0, 5.0),
    ];
    for (i, now) in [0.0, 0.75, 1.5].into_iter().enumerate() {
        ev.clear();
        a.frame(
            now,
            Player::at(feet),
            camera(cams[i]),
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap();
        let heard_from = cams[i.saturating_sub(1)];
        for e in &ev {
            let Outcome::Play(v) = e.outcome else {
                panic!("{e:?}")
            };
            let p = v.position.unwrap();
            assert_eq!(v.distance, p.distance(&heard_from), "frame {i}");
            if i > 0 {
                assert_ne!(v.distance, p.distance(&cams[i]), "frame {i}");
            }
        }
        // frame 0 plays with the rebuild, frame 2 pops the sound due at t = 1
        assert_eq!(ev.len(), usize::from(i != 1), "frame {i}: {ev:?}");
    }
    assert_eq!(a.listener(), camera(cams[2]));
}

/// A teleport (`SmartBox::PlayerPositionUpdated` @ 0x00453870) sets the camera and rebuilds in
/// the same call, with no lag; the next frame starts from the teleported pose.
#[test]
fn teleport_rebuilds_at_once() {
    let mut a = always_plays();
    let (mut t, mut lb) = (tables(), far_corner_blocks());
    let mut ev = Vec::new();
    let start = at(1, 10.0, 10.0, 0.0);
    a.frame(
        0.0,
        Player::at(start),
        camera(start),
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    let there = at(0x40, 170.0, 170.0, 0.0);
    let cam = at(0x40, 168.0, 166.0, 3.0);
    let PositionChange::Rebuilt(r) = a
        .teleport(
            1.0,
            Player::at(there),
            camera(cam),
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap()
    else {
        panic!("a teleport rebuilds at once");
    };
    assert_eq!(r.cell, there.objcell_id);
    assert_eq!(ev.len(), 1);
    let Outcome::Play(v) = ev[0].outcome else {
        panic!()
    };
    assert_eq!(v.distance, v.position.unwrap().distance(&cam));
    assert_eq!(ev[0].time, 1.0);
    // the next frame sees the teleported cell: nothing to rebuild
    let c = a
        .frame(
            1.1,
            Player::at(there),
            camera(cam),
            &mut t,
            &mut lb,
            &mut ev,
        )
        .unwrap();
    assert_eq!(c, PositionChange::Unchanged);
}

/// Bad input is refused before anything changes: cell 0 is an invalid cell like any other
/// (`CellManager::Reset` is [`Ambient::reset`]), and so are NaN clocks, origins and cameras.
#[test]
fn frame_refuses_bad_poses() {
    let mut a = always_plays();
    let (mut t, mut lb) = (tables(), far_corner_blocks());
    let mut ev = Vec::new();
    let good = at(1, 10.0, 10.0, 0.0);
    a.frame(
        0.0,
        Player::at(good),
        camera(good),
        &mut t,
        &mut lb,
        &mut ev,
    )
    .unwrap();
    let before = (a.snapshot(), a.listener());
    let zero = Position::new(0, Vec3::ZERO);
    assert_eq!(
        a.frame(
            1.0,
            Player::at(zero),
            camera(good),
            &mut t,
            &mut lb,
            &mut ev
        ),
        Err(FrameError::Player(ChangePositionError::InvalidCellId(
            CellId(0)
        )))
    );
    assert_eq!(
        a.teleport(
            1.0,
            Player::at(zero),
            camera(good),
            &mut t,
            &mut lb,
            &mut ev
        ),
        Err(FrameError::Player(ChangePositionError::InvalidCellId(
            CellId(0)
        )))
    );
    assert!(matches!(
        a.frame(
            f64::NAN,
            Player::at(good),
            camera(good),
            &mut t,
            &mut lb,
            &mut ev
        ),
        Err(FrameError::Player(ChangePositionError::NonFiniteTime(_)))
    ));
    let nan = at(1, f32::NAN, 0.0, 0.0);
    assert!(matches!(
        a.frame(1.0, Player::at(good), camera(nan), &mut t, &mut lb, &mut ev),
        Err(FrameError::Camera(_))
    ));
    assert!(matches!(
        a.teleport(1.0, Player::at(nan), camera(good), &mut t, &mut lb, &mut ev),
        Err(FrameError::Player(
            ChangePositionError::NonFinitePosition { .. }
        ))
    ));
    assert_eq!((a.snapshot(), a.listener()), before);
    assert_eq!(
        FrameError::Player(ChangePositionError::InvalidCellId(CellId(0))).to_string(),
        "cell id 0x00000000 is not a valid land cell, EnvCell or landblock id"
    );
}
