//! `Off` is bit-identical to the same voices played on the mixer with no acoustics at all
//! (acoustics §3.2 hash test), whatever the world holds.

use std::sync::Arc;

use resound_engine::advanced::mixer::{MixerSettings, Pan, PlaySettings, SoundData, VoiceParams};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Mode, Orientation, Source};
use resound_studio::test_signal::{click, looped, shot};

use crate::common::hash;

const RATE: u32 = 48_000;
const FRAMES: usize = 3 * 48_000;

struct Voice {
    signal: Vec<f32>,
    position: DVec3,
    volume: f32,
    range: f32,
    looping: bool,
}

fn voices() -> Vec<Voice> {
    vec![
        Voice {
            signal: shot(RATE),
            position: DVec3::new(0.5, 1.5, 0.5),
            volume: 1.0,
            range: 128.0,
            looping: false,
        },
        Voice {
            signal: looped(RATE),
            position: DVec3::new(90.0, 30.5, -40.0),
            volume: 0.8,
            range: 256.0,
            looping: true,
        },
        Voice {
            signal: click(RATE),
            position: DVec3::new(60.0, 1.5, 30.0),
            volume: 1.0,
            range: 256.0,
            looping: false,
        },
    ]
}

const LISTENER: DVec3 = DVec3::new(60.5, 1.5, 0.5);

fn engine_render(mode: Mode, walls: bool, chunk: usize) -> Vec<f32> {
    let mut e = Engine::builder().mode(mode).build().unwrap();
    if walls {
        let table = resound_engine::advanced::acoustics::MaterialTable::standard();
        let stone = table.by_name("stone").unwrap();
        let mut w = e.world();
        w.fill_box(
            IVec3::new(-32, -1, -32),
            IVec3::new(95, -1, 31),
            resound_engine::advanced::acoustics::Cell::solid(stone),
        )
        .unwrap();
        w.fill_box(
            IVec3::new(30, 0, -16),
            IVec3::new(31, 15, 15),
            resound_engine::advanced::acoustics::Cell::solid(stone),
        )
        .unwrap();
    }
    e.set_listener(LISTENER, Orientation::default()).unwrap();
    for v in voices() {
        let s = e.load_mono(Arc::from(v.signal), RATE).unwrap();
        e.play(
            s,
            Source {
                position: v.position,
                volume: v.volume,
                range: v.range,
                looping: v.looping,
                impulsive: !v.looping,
                ..Source::default()
            },
        )
        .unwrap();
    }
    let mut out = vec![0.0f32; 2 * FRAMES];
    for c in out.chunks_mut(2 * chunk) {
        e.update(c.len() as f64 / 2.0 / f64::from(RATE)).unwrap();
        e.render(c).unwrap();
    }
    out
}

/// The same voices on the bare mixer: no engine, no acoustics code on the path.
fn bypass_render() -> Vec<f32> {
    let mut settings = MixerSettings::default();
    // The engine's mixer: 256 voices + 64 for stolen voices, 1024 sounds, 2 × 8 tap sets.
    settings.capacities.voices = 320;
    settings.capacities.sounds = 1024;
    settings.capacities.tap_sets = 16;
    let (mut h, mut r) = resound_engine::advanced::mixer::build(settings).unwrap();
    let right = DVec3::X; // default orientation looks down −z
    for v in voices() {
        let s = h
            .load_sound(SoundData {
                samples: Arc::from(v.signal),
                sample_rate: RATE,
                stereo: None,
            })
            .unwrap();
        let offset = v.position - LISTENER;
        let pan = offset.normalize().dot(right).clamp(-1.0, 1.0) as f32;
        h.play(
            s,
            PlaySettings {
                looping: v.looping,
                // The engine gives a source's volume to the mixer as the voice's game gain.
                gain: v.volume,
                params: VoiceParams {
                    range: v.range,
                    distance: offset.length() as f32,
                    pan: Pan::EqualPower(pan),
                    ..VoiceParams::default()
                },
                ..PlaySettings::default()
            },
        )
        .unwrap();
    }
    h.flush();
    let mut out = vec![0.0f32; 2 * FRAMES];
    r.render(&mut out);
    out
}

#[test]
fn off_equals_the_bare_mixer() {
    let bypass = hash(&bypass_render());
    assert_eq!(hash(&engine_render(Mode::Off, false, 2400)), bypass);
    // Walls change nothing in `off`, nor does the pacing.
    assert_eq!(hash(&engine_render(Mode::Off, true, 1000)), bypass);
}

#[test]
fn direct_differs_from_off_behind_a_wall() {
    let off = engine_render(Mode::Off, true, 2400);
    let direct = engine_render(Mode::Direct, true, 2400);
    assert_ne!(hash(&off), hash(&direct));
}
