//! A proptest drives the engine's handle with random command sequences (issue 15): play, stop,
//! move, volume, range, listener, update, render, world edits, world replacement, epochs, mode
//! switches, loads and unloads, with NaN, infinite, negative and huge values mixed in. No
//! command may panic, every bad value must be refused with a typed error, and every rendered
//! sample must be finite.

use std::sync::Arc;

use proptest::prelude::*;
use resound_engine::advanced::acoustics::{Absent, Cell, MaterialTable, WorldStore};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{
    Engine, InputError, Mode, Orientation, PlayError, Source, TickError, VoiceError,
};
use resound_studio::test_signal::{click, looped};

/// A float that is sometimes NaN, infinite, negative or huge.
fn wild() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => -40.0..40.0f64,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(-1.0e300),
        1 => Just(1.0e300),
        1 => Just(-0.0),
    ]
}

fn wild_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => 0.0..2.0f32,
        1 => 1.0..300.0f32,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(-1.0f32),
        1 => Just(f32::MAX),
    ]
}

fn position() -> impl Strategy<Value = DVec3> {
    (wild(), -8.0..8.0f64, wild()).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

#[derive(Debug, Clone)]
enum Cmd {
    Play {
        sound: usize,
        position: DVec3,
        volume: f32,
        range: f32,
        looping: bool,
        impulsive: bool,
    },
    Stop(usize),
    Move(usize, DVec3),
    Volume(usize, f32),
    Range(usize, f32),
    Listener(DVec3),
    Update(f64),
    Render(usize),
    SetCell(IVec3, bool),
    FillBox(IVec3, IVec3, bool),
    Replace,
    Epoch(u64),
    SetMode(usize),
    Load(bool),
    Unload(usize),
    StopAll,
}

fn cell() -> impl Strategy<Value = IVec3> {
    (-24..24i32, -2..10i32, -24..24i32).prop_map(|(x, y, z)| IVec3::new(x, y, z))
}

fn cmd() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        4 => (0..4usize, position(), wild_f32(), wild_f32(), any::<bool>(), any::<bool>())
            .prop_map(|(sound, position, volume, range, looping, impulsive)| Cmd::Play {
                sound, position, volume, range, looping, impulsive
            }),
        2 => (0..16usize).prop_map(Cmd::Stop),
        3 => (0..16usize, position()).prop_map(|(i, p)| Cmd::Move(i, p)),
        1 => (0..16usize, wild_f32()).prop_map(|(i, v)| Cmd::Volume(i, v)),
        1 => (0..16usize, wild_f32()).prop_map(|(i, v)| Cmd::Range(i, v)),
        1 => position().prop_map(Cmd::Listener),
        2 => prop_oneof![0.0..0.1f64, Just(f64::NAN), Just(-1.0), Just(1.0e9)].prop_map(Cmd::Update),
        4 => prop_oneof![0..3000usize, Just(1usize << 40)].prop_map(Cmd::Render),
        2 => (cell(), any::<bool>()).prop_map(|(c, s)| Cmd::SetCell(c, s)),
        1 => (cell(), cell(), any::<bool>()).prop_map(|(a, b, s)| Cmd::FillBox(a, b, s)),
        1 => Just(Cmd::Replace),
        1 => any::<u64>().prop_map(Cmd::Epoch),
        1 => (0..4usize).prop_map(Cmd::SetMode),
        1 => any::<bool>().prop_map(Cmd::Load),
        1 => (0..6usize).prop_map(Cmd::Unload),
        1 => Just(Cmd::StopAll),
    ]
}

fn bad(x: f64) -> bool {
    !x.is_finite() || x.abs() > 1.0e9
}

fn run(cmds: &[Cmd]) -> Result<(), TestCaseError> {
    let mut e = Engine::builder().mode(Mode::Direct).build().unwrap();
    let stone = Cell::solid(MaterialTable::standard().by_name("stone").unwrap());
    let modes = [Mode::Off, Mode::Direct, Mode::Reflect, Mode::Full];
    let mut sounds = vec![
        e.load_mono(Arc::from(looped(48_000)), 48_000).unwrap(),
        e.load_mono(Arc::from(click(48_000)), 48_000).unwrap(),
    ];
    let mut voices = Vec::new();
    for c in cmds {
        match c.clone() {
            Cmd::Play {
                sound,
                position,
                volume,
                range,
                looping,
                impulsive,
            } => {
                let source = Source {
                    position,
                    volume,
                    range,
                    looping,
                    impulsive,
                    ..Source::default()
                };
                let invalid = bad(position.x)
                    || bad(position.z)
                    || !volume.is_finite()
                    || !(0.0..=resound_engine::MAX_VOLUME).contains(&volume)
                    || !range.is_finite()
                    || range <= 0.0
                    || range > resound_engine::MAX_RANGE;
                let Some(&s) = sounds.get(sound % sounds.len().max(1)) else {
                    continue;
                };
                match e.play(s, source) {
                    Ok(v) => {
                        prop_assert!(!invalid, "accepted {source:?}");
                        voices.push(v);
                    }
                    Err(PlayError::Input(InputError { .. })) => {
                        prop_assert!(invalid, "refused a good source {source:?}");
                    }
                    Err(_) => {}
                }
            }
            Cmd::Stop(i) => {
                if let Some(v) = voices.get(i).copied() {
                    let _ = e.stop(v);
                }
            }
            Cmd::Move(i, p) => {
                if let Some(v) = voices.get(i).copied() {
                    let r = e.set_position(v, p);
                    if bad(p.x) || bad(p.z) {
                        prop_assert!(matches!(r, Err(VoiceError::Input(_))), "{r:?}");
                    }
                }
            }
            Cmd::Volume(i, x) => {
                if let Some(v) = voices.get(i).copied() {
                    let r = e.set_volume(v, x);
                    if !(0.0..=resound_engine::MAX_VOLUME).contains(&x) {
                        prop_assert!(matches!(r, Err(VoiceError::Input(_))), "{r:?}");
                    }
                }
            }
            Cmd::Range(i, x) => {
                if let Some(v) = voices.get(i).copied() {
                    let r = e.set_range(v, x);
                    if !x.is_finite() || x <= 0.0 || x > resound_engine::MAX_RANGE {
                        prop_assert!(matches!(r, Err(VoiceError::Input(_))), "{r:?}");
                    }
                }
            }
            Cmd::Listener(p) => {
                let r = e.set_listener(p, Orientation::default());
                prop_assert_eq!(r.is_err(), bad(p.x) || bad(p.z), "{:?}", r);
            }
            Cmd::Update(dt) => {
                let r = e.update(dt);
                if !(0.0..=resound_engine::MAX_DT).contains(&dt) {
                    prop_assert!(matches!(r, Err(TickError::Input(_))), "{r:?}");
                } else {
                    prop_assert!(r.is_ok(), "{r:?}");
                }
            }
            Cmd::Render(frames) => match e.render_frames(frames) {
                Ok(out) => {
                    prop_assert_eq!(out.len(), 2 * frames);
                    prop_assert!(out.iter().all(|s| s.is_finite()), "non-finite output");
                }
                Err(err) => {
                    prop_assert!(frames > 48_000 * 60, "{err}");
                }
            },
            Cmd::SetCell(c, solid) => {
                let _ = e.world().set_cell(c, if solid { stone } else { Cell::Air });
            }
            Cmd::FillBox(a, b, solid) => {
                let _ =
                    e.world()
                        .fill_box(a.min(b), a.max(b), if solid { stone } else { Cell::Air });
            }
            Cmd::Replace => e.world().replace(WorldStore::new(Absent::Air)),
            Cmd::Epoch(x) => e.world().set_epoch(x),
            Cmd::SetMode(m) => e.set_mode(modes[m]),
            Cmd::Load(ok) => {
                let samples: Vec<f32> = if ok {
                    click(48_000)
                } else {
                    vec![f32::NAN; 16]
                };
                match e.load_mono(Arc::from(samples), 48_000) {
                    Ok(s) => {
                        prop_assert!(ok);
                        sounds.push(s);
                    }
                    Err(_) => prop_assert!(!ok),
                }
            }
            Cmd::Unload(i) => {
                if let Some(s) = sounds.get(i).copied()
                    && e.unload(s).is_ok()
                {
                    sounds.remove(i);
                }
            }
            Cmd::StopAll => {
                let _ = e.stop_all();
            }
        }
    }
    let status = e.status();
    prop_assert!(status.peak.is_finite());
    prop_assert!(status.unknown_share.is_finite());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        max_shrink_iters: 200,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_command_sequences_never_panic_and_render_finite(
        cmds in proptest::collection::vec(cmd(), 1..48)
    ) {
        run(&cmds)?;
    }
}
