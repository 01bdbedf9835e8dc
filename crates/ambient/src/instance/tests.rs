//! Unit tests of `instance`, each named after the retail function it checks.
use glam::Vec3;

use super::*;
use crate::testkit::asd;
use resound_datformat::id::CellId;

fn intermit() -> AmbientSound {
    AmbientSound::new(0, 0, false)
}

fn dirs(s: &AmbientSound) -> Vec<DirectionSlot> {
    match &s.state {
        SoundState::Intermit(st) => st.directions().to_vec(),
        SoundState::Constant { .. } => Vec::new(),
    }
}

fn chance(s: &AmbientSound) -> f32 {
    match s.state {
        SoundState::Intermit(st) => st.play_chance,
        SoundState::Constant { .. } => f32::NAN,
    }
}

/// `Ambient::GetSound` @ 0x005510B0 allocation: `is_continuous` (base_chance == 0) → ConstantSound.
#[test]
fn get_sound_kind() {
    assert!(asd(0x46, 1.0, 0.0, 5.0, 5.0).is_continuous());
    assert!(!asd(0x46, 1.0, 0.3, 5.0, 5.0).is_continuous());
    // the x87 `fcomp` + `test ah, 0x44` + `jp` of CORRECTION #1: −0.0 compares equal
    // (continuous); NaN is unordered (C3|C2|C0, even parity → jump) → intermittent
    assert!(asd(0x46, 1.0, -0.0, 5.0, 5.0).is_continuous());
    assert!(!asd(0x46, 1.0, f32::NAN, 5.0, 5.0).is_continuous());
    assert_eq!(AmbientSound::new(0, 0, true).kind(), SoundKind::Constant);
    assert_eq!(AmbientSound::new(0, 0, false).kind(), SoundKind::Intermit);
}

/// `IntermitSound::AddTo` @ 0x00551450 and `AddDir` @ 0x00550CF0.
#[test]
fn add_to_and_add_dir() {
    let mut s = intermit();
    // a cell 50 m north: slot [40, 60] (3-D length ± 10)
    s.add_to(0.16, Vec3::new(0.0, 30.0, 40.0), Direction::North);
    assert_eq!(
        dirs(&s),
        [DirectionSlot {
            dir: Direction::North,
            min_dist: 40.0,
            max_dist: 60.0
        }]
    );
    // again north at 80 m: widened to [40, 90]; then east at 30 m: appended
    s.add_to(0.0625, Vec3::new(0.0, 80.0, 0.0), Direction::North);
    s.add_to(0.44, Vec3::new(30.0, 0.0, 0.0), Direction::East);
    assert_eq!(
        dirs(&s),
        [
            DirectionSlot {
                dir: Direction::North,
                min_dist: 40.0,
                max_dist: 90.0
            },
            DirectionSlot {
                dir: Direction::East,
                min_dist: 20.0,
                max_dist: 40.0
            },
        ]
    );
    assert_eq!(s.sound_count, 0.16 + 0.0625 + 0.44);
    // an in-viewer-block cell adds all eight in the order N, S, E, W, NW, NE, SW, SE at [4, 10]
    let mut v = intermit();
    v.add_to(1.0, Vec3::new(3.0, 3.0, 0.0), Direction::InViewerBlock);
    let order: Vec<Direction> = dirs(&v).iter().map(|d| d.dir).collect();
    assert_eq!(order, Direction::ADD_TO_ORDER);
    assert!(
        dirs(&v)
            .iter()
            .all(|d| d.min_dist == 4.0 && d.max_dist == 10.0)
    );
    // and the viewer-block slots widen existing ones: [4, 40] east after the earlier [20, 40]
    s.add_to(1.0, Vec3::ZERO, Direction::InViewerBlock);
    assert_eq!(dirs(&s).len(), 8);
    assert_eq!(
        dirs(&s)[1],
        DirectionSlot {
            dir: Direction::East,
            min_dist: 4.0,
            max_dist: 40.0
        }
    );
    // ConstantSound::AddTo ignores direction
    let mut c = AmbientSound::new(0, 0, true);
    c.add_to(0.5, Vec3::new(30.0, 0.0, 0.0), Direction::East);
    assert_eq!(c.sound_count, 0.5);
}

/// `IntermitSound::ResetCount` @ 0x00550CD0 / `ConstantSound::ResetCount` @ 0x00550D70.
#[test]
fn reset_count() {
    let d = asd(0x46, 0.8, 0.0, 5.0, 5.0);
    let mut pc = 3;
    let mut c = AmbientSound::new(0, 0, true);
    c.add_to(0.5, Vec3::ZERO, Direction::InViewerBlock);
    c.update_sound(0.5, &d, &mut pc);
    c.reset_count(&mut pc);
    assert_eq!((pc, c.sound_count), (0, 0.0));
    // current_volume is kept
    assert_eq!(
        c.state,
        SoundState::Constant {
            current_volume: 0.8
        }
    );
    let d = asd(0x46, 0.8, 0.5, 5.0, 9.0);
    let mut s = intermit();
    pc = 7;
    s.add_to(0.5, Vec3::ZERO, Direction::InViewerBlock);
    s.update_sound(0.5, &d, &mut pc);
    assert!(chance(&s) > 0.0);
    s.reset_count(&mut pc);
    assert_eq!(
        (pc, s.sound_count, chance(&s), dirs(&s).len()),
        (0, 0.0, 0.0, 0)
    );
}

/// `IntermitSound::UpdateSound` @ 0x00551310 / `ConstantSound::UpdateSound` @ 0x00551540.
#[test]
fn update_sound() {
    let d = asd(0x46, 0.6, 0.5, 5.0, 9.0);
    let mut pc = 0;
    let mut s = intermit();
    s.update_sound(2.0, &d, &mut pc);
    assert_eq!((pc, chance(&s)), (0, 0.0));
    s.add_to(0.5, Vec3::ZERO, Direction::InViewerBlock);
    s.update_sound(2.0, &d, &mut pc);
    assert_eq!((pc, chance(&s)), (1, 0.5 / 2.0 * 0.5));
    // operation order `base_chance / total * sound_count`: these values give a different float
    // for `base_chance * sound_count / total` and for `base_chance * (sound_count / total)`
    let d = asd(0x46, 0.6, 0.7, 5.0, 9.0);
    let mut s = intermit();
    s.add_to(0.064, Vec3::ZERO, Direction::InViewerBlock);
    s.update_sound(0.136, &d, &mut 0);
    assert_eq!(chance(&s), 0.329_411_75);
    assert_ne!(chance(&s), 0.7 * 0.064 / 0.136);
    assert_ne!(chance(&s), 0.7 * (0.064 / 0.136));

    let d = asd(0x46, 0.6, 0.0, 5.0, 9.0);
    let mut c = AmbientSound::new(0, 0, true);
    c.add_to(1.5, Vec3::ZERO, Direction::InViewerBlock);
    c.update_sound(1.0, &d, &mut pc);
    // volume / total · count can exceed the authored volume (the N× asymmetry)
    assert_eq!(
        (pc, c.state),
        (
            2,
            SoundState::Constant {
                current_volume: 0.6 / 1.0 * 1.5
            }
        )
    );
    // operation order `volume / total * sound_count` (as for the chance above)
    let v = asd(0x46, 0.6, 0.0, 5.0, 9.0);
    let mut o = AmbientSound::new(0, 0, true);
    o.add_to(0.031, Vec3::ZERO, Direction::InViewerBlock);
    let mut opc = 0;
    o.update_sound(0.527, &v, &mut opc);
    let SoundState::Constant { current_volume } = o.state else {
        panic!()
    };
    assert_eq!(current_volume, 0.035_294_12);
    assert_ne!(current_volume, 0.6 * 0.031 / 0.527);
    assert_ne!(current_volume, 0.6 * (0.031 / 0.527));
    c.reset_count(&mut pc);
    c.update_sound(1.0, &d, &mut pc);
    assert_eq!(
        (pc, c.state),
        (
            0,
            SoundState::Constant {
                current_volume: 0.0
            }
        )
    );
}

/// `IntermitSound::CanHear` / `ConstantSound::CanHear` @ 0x00550FD0.
#[test]
fn can_hear() {
    let mut s = intermit();
    assert!(!s.can_hear(true));
    if let SoundState::Intermit(st) = &mut s.state {
        st.play_chance = 0.01;
    }
    assert!(s.can_hear(false), "no table check for IntermitSound");
    let mut c = AmbientSound::new(0, 0, true);
    c.state = SoundState::Constant {
        current_volume: 0.03,
    };
    assert!(c.can_hear(true));
    assert!(!c.can_hear(false));
    c.state = SoundState::Constant {
        current_volume: 0.029,
    };
    assert!(!c.can_hear(true));
}

/// `IntermitSound::PlayNow` @ 0x00550FA0 (`RollDice(0,1) <= play_chance`) / `ConstantSound::PlayNow`.
#[test]
fn play_now() {
    let mut rng = Ran2::new(1);
    let mut s = intermit();
    if let SoundState::Intermit(st) = &mut s.state {
        st.play_chance = 0.2853809; // seed 1's first deviate is 0.28538089909…
    }
    // 0.2853809 and that deviate round to the same float: equality passes (`<=`, not `<`)
    assert_eq!(
        Ran2::new(1).roll_dice(0.0, 1.0).to_bits(),
        0.285_380_9_f32.to_bits()
    );
    assert!(s.play_now(&mut rng));
    let mut rng = Ran2::new(1);
    if let SoundState::Intermit(st) = &mut s.state {
        st.play_chance = 0.285_38;
    }
    assert!(!s.play_now(&mut rng));
    let c = AmbientSound::new(0, 0, true);
    let probe = rng.clone();
    assert!(c.play_now(&mut rng));
    assert_eq!(rng, probe, "ConstantSound::PlayNow draws nothing");
}

/// `IntermitSound::GetVolume` @ 0x00551070 / `ConstantSound::GetVolume`.
#[test]
fn get_volume() {
    let d = asd(0x46, 0.7, 0.5, 5.0, 9.0);
    assert_eq!(intermit().get_volume(&d), 0.7);
    let mut c = AmbientSound::new(0, 0, true);
    c.state = SoundState::Constant {
        current_volume: 0.25,
    };
    assert_eq!(c.get_volume(&d), 0.25);
}

/// `IntermitSound::GetPlayInterval` @ 0x00551080 / `ConstantSound::GetPlayInterval` @ 0x005510A0:
/// a continuous sound re-triggers at exactly `min_rate` with no draw.
#[test]
fn get_play_interval() {
    let d = asd(0x46, 0.7, 0.0, 4.5, 30.0);
    let mut rng = Ran2::new(3);
    let probe = rng.clone();
    let c = AmbientSound::new(0, 0, true);
    assert_eq!(c.get_play_interval(&d, &mut rng), 4.5);
    assert_eq!(rng, probe);
    let mut p2 = probe.clone();
    let i = intermit().get_play_interval(&d, &mut rng);
    assert_eq!(i, p2.roll_dice(4.5, 30.0));
    // min == max: no draw
    let fixed = asd(0x46, 0.7, 0.5, 8.0, 8.0);
    let probe = rng.clone();
    assert_eq!(intermit().get_play_interval(&fixed, &mut rng), 8.0);
    assert_eq!(rng, probe);
}

/// `IntermitSound::GetSoundPos` @ 0x00551350: three draws (direction, jitter, radius), x += sin·r,
/// y += cos·r, z and cell kept; ConstantSound plays from the centre with no draw.
#[test]
fn get_sound_pos() {
    let mut s = intermit();
    s.add_to(0.2, Vec3::new(0.0, 50.0, 0.0), Direction::North); // [40, 60]
    s.add_to(0.2, Vec3::new(50.0, 0.0, 0.0), Direction::East); // [40, 60]
    let listener = Position::new(0xA9B4_0012, Vec3::new(100.0, 100.0, 7.0));
    let mut rng = Ran2::new(11);
    let mut r2 = rng.clone();
    let mut pos = listener;
    assert!(s.get_sound_pos(&mut pos, &mut rng));
    let i = r2.roll_dice(0.0, 2.0).floor() as usize;
    let dir = [Direction::North, Direction::East][i];
    let h = f64::from(dir.heading()) + f64::from(r2.roll_dice(0.0, DIRECTION_JITTER))
        - f64::from(DIRECTION_JITTER) / 2.0;
    let u = f64::from(r2.roll_dice(0.0, 1.0));
    let r = 40.0 + 20.0 * u * u;
    assert_eq!(pos.origin.x, (100.0 + h.sin() * r) as f32);
    assert_eq!(pos.origin.y, (100.0 + h.cos() * r) as f32);
    assert_eq!((pos.origin.z, pos.objcell_id), (7.0, CellId(0xA9B4_0012)));
    assert_eq!(rng, r2, "exactly three draws");
    let dist = listener.distance(&pos);
    assert!((40.0..60.0).contains(&dist));
    // over many draws, every position lies within ±11.25° of one of the two octant centres
    for _ in 0..2000 {
        let mut p = listener;
        s.get_sound_pos(&mut p, &mut rng);
        let b = listener.heading(&p);
        assert!(
            b <= 11.25 || b >= 348.75 || (78.75..=101.25).contains(&b),
            "{b}"
        );
    }
    let c = AmbientSound::new(0, 0, true);
    let mut p = listener;
    let probe = rng.clone();
    assert!(!c.get_sound_pos(&mut p, &mut rng));
    assert_eq!((p, rng), (listener, probe));
}
