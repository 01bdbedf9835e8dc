//! The engine as the one bridge: the retail ambient runtime, terrain as the traced world and
//! sounds from bytes, all through [`Engine`] over the fixture world.
//!
//! Must show (issue 10): a 60 s ambient walk through `Retail16` never has more than 16 live
//! voices (from `status()`) and plays each event the runtime emitted or counts it dropped;
//! offline renders with ambient are deterministic.

use std::path::Path;

use resound_ambient::Position;
use resound_ambient::glam::Vec3;
use resound_ambient::walk::Walk;
use resound_engine::advanced::acoustics::{Cell, MaterialId, SoundRequest};
use resound_engine::advanced::datformat::record::Record as _;
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::sound::{AmbientPolicy, AmbientSettings};
use resound_engine::terrain::{EAR_HEIGHT, ac_to_voxel};
use resound_engine::{
    Engine, Mode, Orientation, PlayError, SoundError, Source, TickError, VoicePolicy, WorldError,
};
use resound_fixture::{self as fixture, terrain as fx};

use crate::common::hash;

const RATE: u32 = 48_000;
/// The walk's frame: 60 updates a second.
const FRAME: usize = 800;

/// The fixture dats written to a temporary folder.
fn dats() -> tempfile::TempDir {
    dats_with(1.0)
}

/// The fixture dats with waves `scale` times as long, written to a temporary folder.
fn dats_with(scale: f64) -> tempfile::TempDir {
    let world = fixture::write_world_with(&fixture::FixtureOptions {
        wave_duration_scale: scale,
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("client_portal.dat"), &world.portal).unwrap();
    std::fs::write(dir.path().join("client_cell_1.dat"), &world.cell).unwrap();
    dir
}

fn walk() -> Walk {
    crate::common::example_walk(false)
}

/// The voxel listener of the walk at `t` (the retail camera is the listener).
fn listener_at(walk: &Walk, t: f64) -> (DVec3, Orientation) {
    let pose = walk.pose(t).unwrap();
    let h = f64::from(pose.camera.heading_deg).to_radians();
    // Compass heading → voxel forward (x east, z south).
    let forward = DVec3::new(h.sin(), 0.0, -h.cos());
    (
        ac_to_voxel(&pose.camera.position),
        Orientation::looking(forward),
    )
}

fn engine(dir: &Path, policy: AmbientPolicy, mode: Mode, terrain: bool) -> Engine {
    let voice_policy = match policy {
        AmbientPolicy::Retail16 => VoicePolicy::Retail16,
        AmbientPolicy::Modern => VoicePolicy::Modern,
    };
    let mut e = Engine::builder()
        .sample_rate(RATE)
        .mode(mode)
        .voice_policy(voice_policy)
        .build()
        .unwrap();
    let (p, o) = listener_at(&walk(), 0.0);
    e.set_listener(p, o).unwrap();
    if terrain {
        e.attach_terrain(dir).unwrap();
    }
    e.attach_ambient(dir, AmbientSettings::default()).unwrap();
    e
}

/// Walks `seconds` frame by frame; returns the output and the most live voices seen.
fn run(e: &mut Engine, seconds: f64) -> (Vec<f32>, usize) {
    let walk = walk();
    let frames = (seconds * 60.0) as usize;
    let mut out = vec![0.0f32; 2 * FRAME * frames];
    let mut most = 0;
    for (i, chunk) in out.chunks_mut(2 * FRAME).enumerate() {
        let (p, o) = listener_at(&walk, i as f64 / 60.0);
        e.set_listener(p, o).unwrap();
        e.update(1.0 / 60.0).unwrap();
        most = most.max(e.status().live_voices);
        e.render(chunk).unwrap();
        most = most.max(e.status().live_voices);
    }
    (out, most)
}

#[test]
fn a_60_s_retail16_walk_has_at_most_16_voices_and_accounts_for_every_event() {
    let dir = dats();
    let mut e = engine(dir.path(), AmbientPolicy::Retail16, Mode::Off, false);
    let (out, most) = run(&mut e, 60.0);
    let s = e.status();
    let a = s.ambient;
    assert!(a.attached);
    assert!(most <= 16, "{most} live voices");
    assert!(most >= 2, "the walk should overlap voices ({most})");
    assert!(a.counters.events > 50, "{a:?}");
    assert!(a.counters.frames >= 3600, "{a:?}");
    assert!(a.counters.rebuilds >= 2, "{a:?}");
    // Every event played or counted dropped, every play started or counted.
    assert!(a.accounted(), "{a:?}");
    assert_eq!(
        a.counters.events,
        a.counters.played + a.counters.dropped.total()
    );
    assert_eq!(a.started, a.counters.played, "{a:?}");
    assert!(a.started > 20, "{a:?}");
    assert!(out.iter().any(|x| *x != 0.0));
    assert!(out.iter().all(|x| x.is_finite()));
}

/// Waves 12× as long (12–72 s): the one retail pool fills and the 17th sound is dropped and
/// counted. The pool's slots free when the mixer reports a voice ended (nothing re-derives a
/// voice's length), so they are the retail voices playing; each Wave is held by the voices
/// playing it and released when they end.
#[test]
fn retail16_pool_follows_the_mixer_and_drops_the_17th_sound() {
    let dir = dats_with(12.0);
    let mut e = engine(dir.path(), AmbientPolicy::Retail16, Mode::Off, false);
    let walk = walk();
    let mut chunk = vec![0.0f32; 2 * FRAME];
    let mut most = 0;
    for i in 0..(60 * 60) {
        let (p, o) = listener_at(&walk, f64::from(i) / 60.0);
        e.set_listener(p, o).unwrap();
        e.update(1.0 / 60.0).unwrap();
        let s = e.status();
        let playing = e.retail_pool().playing(e.time());
        assert_eq!(playing, s.ambient.retail_voices, "frame {i}");
        assert_eq!(s.live_voices, playing, "frame {i}");
        let cache = e.ambient_cache().unwrap();
        let held: u32 = cache.sounds().map(|(w, _)| cache.users(w)).sum();
        assert_eq!(held as usize, playing, "frame {i}: one reference per voice");
        most = most.max(playing);
        e.render(&mut chunk).unwrap();
    }
    let a = e.status().ambient;
    assert!(a.counters.dropped.pool_full > 0, "{a:?}");
    assert_eq!(most, 16);
    assert!(a.accounted(), "{a:?}");
    assert_eq!(a.started, a.counters.played, "{a:?}");
    // Stopped: the slots free at once, the Waves once the fades are done.
    e.stop_all().unwrap();
    assert_eq!(e.retail_pool().playing(e.time()), 0);
    e.render_frames(RATE as usize / 10).unwrap();
    assert_eq!(e.status().live_voices, 0);
    let cache = e.ambient_cache().unwrap();
    assert!(cache.sounds().all(|(w, _)| cache.users(w) == 0));
}

/// `Retail16` has one cap: the game's own voices take slots of the same retail pool.
#[test]
fn retail16_game_voices_take_slots_of_the_one_pool() {
    let mut e = Engine::builder()
        .sample_rate(RATE)
        .voice_policy(VoicePolicy::Retail16)
        .build()
        .unwrap();
    let tone: Vec<f32> = (0..RATE / 2)
        .map(|i| (i as f32 * 0.05).sin() * 0.1)
        .collect();
    let s = e.load_mono(tone.into(), RATE).unwrap();
    let voices: Vec<_> = (0..16)
        .map(|_| e.play(s, Source::default()).unwrap())
        .collect();
    assert_eq!(e.retail_pool().playing(e.time()), 16);
    assert_eq!(e.play(s, Source::default()), Err(PlayError::VoiceLimit));
    assert_eq!(e.status().dropped_voices, 1);
    // a stopped voice's slot frees at once (the buffer no longer plays)
    e.stop(voices[3]).unwrap();
    assert_eq!(e.retail_pool().playing(e.time()), 15);
    e.play(s, Source::default()).unwrap();
    // once the one-shots end in the mixer, every slot is free again
    e.render_frames(RATE as usize).unwrap();
    assert_eq!(e.live_voices(), 0);
    assert_eq!(e.retail_pool().playing(e.time()), 0);
}

#[test]
fn renders_with_ambient_are_deterministic() {
    let dir = dats();
    // The first positioned event of the walk comes at 31 s.
    for (policy, mode, terrain, seconds) in [
        (AmbientPolicy::Retail16, Mode::Off, false, 12.0),
        (AmbientPolicy::Modern, Mode::Direct, true, 33.0),
    ] {
        let mut a = engine(dir.path(), policy, mode, terrain);
        let mut b = engine(dir.path(), policy, mode, terrain);
        let (x, _) = run(&mut a, seconds);
        let (y, _) = run(&mut b, seconds);
        assert!(x.iter().any(|v| *v != 0.0), "{policy:?} is silent");
        assert_eq!(hash(&x), hash(&y), "{policy:?}");
        let s = a.status();
        assert!(s.ambient.accounted(), "{:?}", s.ambient);
        if policy == AmbientPolicy::Modern {
            // Positioned events became 3-D voices traced on the terrain.
            assert!(s.rays > 0, "{s:?}");
        }
    }
}

#[test]
fn a_teleport_rebuilds_at_once() {
    let dir = dats();
    let mut e = engine(dir.path(), AmbientPolicy::Retail16, Mode::Off, false);
    e.update(1.0 / 60.0).unwrap();
    let before = e.status().ambient.counters.rebuilds;
    let lake = ac_to_voxel(&Position::new(0xA7B4_0035, Vec3::new(158.4, 96.0, 20.0)));
    e.teleport(lake, Orientation::default()).unwrap();
    assert_eq!(e.status().ambient.counters.rebuilds, before + 1);
    // A listener outside the AC world is refused, counted, and the mix goes on.
    e.set_listener(DVec3::new(-10.0, 0.0, 10.0), Orientation::default())
        .unwrap();
    assert_eq!(e.update(1.0 / 60.0), Err(TickError::Ambient));
    assert_eq!(e.status().ambient.refused_ticks, 1);
    e.render_frames(FRAME).unwrap();
}

/// A fixture position from fixture-area metres (east, north from the SW corner of 0xA7B2).
fn at(east: f64, north: f64) -> Position {
    let (bx, by) = ((east / 192.0).floor(), (north / 192.0).floor());
    let (lx, ly) = (east - bx * 192.0, north - by * 192.0);
    let cell = (lx / 24.0) as u32 * 8 + (ly / 24.0) as u32 + 1;
    let id =
        (u32::from(fx::FIRST_X) + bx as u32) << 24 | (u32::from(fx::FIRST_Y) + by as u32) << 16;
    Position::new(id | cell, Vec3::new(lx as f32, ly as f32, 0.0))
}

/// Terrain engine with the listener on the ground at `listener`; returns the source on the
/// ground (or `None` where no terrain is resident).
fn on_terrain(dir: &Path, listener: Position, source: Position) -> (Engine, DVec3, Option<DVec3>) {
    let mut e = Engine::builder().mode(Mode::Direct).build().unwrap();
    e.set_listener(ac_to_voxel(&listener), Orientation::default())
        .unwrap();
    e.attach_terrain(dir).unwrap();
    let t = e.terrain().unwrap();
    let l = ac_to_voxel(&t.on_ground(&listener, EAR_HEIGHT).unwrap());
    let s = t.on_ground(&source, EAR_HEIGHT).map(|p| ac_to_voxel(&p));
    e.set_listener(l, Orientation::default()).unwrap();
    (e, l, s)
}

#[test]
fn the_engine_traces_terrain_and_boxes_placed_over_it() {
    let dir = dats();
    // The ridge between its feet, 240 m apart: occluded.
    let (e, l, s) = on_terrain(dir.path(), at(28.0 * 24.0, 480.0), at(38.0 * 24.0, 480.0));
    let r = e
        .evaluate(&SoundRequest::new(s.unwrap(), l), Mode::Direct)
        .unwrap();
    assert!(r.direct.occ >= 1.0, "occ {}", r.direct.occ);
    // Open flat land: clear, until a stone wall stands between the two points.
    let (mut e, l, s) = on_terrain(dir.path(), at(486.0, 222.0), at(534.0, 366.0));
    let s = s.unwrap();
    let clear = e.evaluate(&SoundRequest::new(s, l), Mode::Direct).unwrap();
    assert_eq!(clear.direct.occ, 0.0);
    let mid = ((l + s) / 2.0).floor().as_ivec3();
    let stone = Cell::solid(MaterialId(1));
    e.place_box(
        mid - IVec3::new(30, 30, 2),
        mid + IVec3::new(30, 30, 2),
        stone,
    )
    .unwrap();
    let walled = e.evaluate(&SoundRequest::new(s, l), Mode::Direct).unwrap();
    assert!(walled.direct.occ > 0.5, "occ {}", walled.direct.occ);
    // Sections cannot be streamed into terrain; bad boxes are typed errors.
    assert_eq!(
        e.world().unload_section(IVec3::ZERO),
        Err(WorldError::Terrain)
    );
    assert!(e.place_box(mid, mid - IVec3::ONE, stone).is_err());
    assert!(e.place_box(IVec3::MIN, mid, stone).is_err());
}

#[test]
fn absent_landblocks_are_unknown() {
    let dir = dats();
    // The listener in the SW fixture block; 0xA6B2 to its west is not in the cell dat.
    let (e, l, s) = on_terrain(dir.path(), at(20.0, 20.0), at(20.0, 20.0));
    assert!(s.is_some());
    let west = l - DVec3::new(150.0, 0.0, 0.0);
    let r = e
        .evaluate(&SoundRequest::new(west, l), Mode::Direct)
        .unwrap();
    assert!(r.total.met_unknown, "{:?}", r.total);
    assert!(r.total.unknown_share() > 0.0);
}

#[test]
fn the_terrain_ring_follows_the_listener_in_update() {
    let dir = dats();
    let (mut e, _, _) = on_terrain(dir.path(), at(20.0, 20.0), at(20.0, 20.0));
    let first = e.terrain().unwrap().centre();
    let far = ac_to_voxel(&at(4.0 * 192.0 + 20.0, 4.0 * 192.0 + 20.0));
    e.set_listener(far, Orientation::default()).unwrap();
    assert_eq!(
        e.terrain().unwrap().centre(),
        first,
        "only update moves the ring"
    );
    e.update(0.05).unwrap();
    assert_ne!(e.terrain().unwrap().centre(), first);
    assert_eq!(
        e.terrain().unwrap().centre(),
        Some((fx::FIRST_X + 4, fx::FIRST_Y + 4))
    );
}

/// A 16-bit WAV file's bytes.
fn wav_bytes(channels: u16, frames: usize) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels,
        sample_rate: 22_050,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut cursor = std::io::Cursor::new(Vec::new());
    let mut w = hound::WavWriter::new(&mut cursor, spec).unwrap();
    for i in 0..frames * usize::from(channels) {
        w.write_sample(((i % 200) as i16 - 100) * 100).unwrap();
    }
    w.finalize().unwrap();
    cursor.into_inner()
}

#[test]
fn sounds_load_from_wav_wave_and_mp3_bytes() {
    let mut e = Engine::builder().build().unwrap();
    // Stereo is downmixed: every frame kept.
    let stereo = e.load_wav(&wav_bytes(2, 22_050)).unwrap();
    assert!((e.sound_length(stereo).unwrap() - 1.0).abs() < 1e-9);
    let mono = e.load_wav(&wav_bytes(1, 11_025)).unwrap();
    assert!((e.sound_length(mono).unwrap() - 0.5).abs() < 1e-9);
    // A fixture Wave record (PCM) loads; a broken one is a typed error and the mix goes on.
    let world = fixture::write_world_with(&fixture::FixtureOptions::default()).unwrap();
    let mut portal = resound_engine::advanced::datformat::container::DatReader::new(
        std::io::Cursor::new(world.portal),
    )
    .unwrap();
    let wave_id = portal
        .entries()
        .unwrap()
        .iter()
        .map(|x| x.id)
        .find(|id| id >> 24 == 0x0A)
        .unwrap();
    let bytes = portal.read(wave_id).unwrap().unwrap();
    let mut wave = resound_engine::advanced::datformat::record::Wave::from_bytes(&bytes).unwrap();
    let loaded = e.load_wave(&wave).unwrap();
    assert!(e.sound_length(loaded).unwrap() > 0.0);
    wave.header.truncate(8);
    assert!(matches!(e.load_wave(&wave), Err(SoundError::Decode(_))));
    assert!(matches!(
        e.load_wav(b"RIFF....WAVEjunk"),
        Err(SoundError::Decode(_))
    ));
    assert!(matches!(e.load_mp3(&[0u8; 64]), Err(SoundError::Decode(_))));
    let v = e.play(stereo, resound_engine::Source::default()).unwrap();
    let out = e.render_frames(4800).unwrap();
    assert!(out.iter().any(|x| *x != 0.0));
    assert!(e.is_playing(v));
}

#[test]
fn terrain_from_dat_bytes_renders_what_terrain_from_the_folder_renders() {
    // A modern walk with the terrain traced in `full`: attached from the folder, and from the
    // same two dats' bytes (a page's file picker): the same samples, bit for bit.
    let dir = dats();
    let mut folder = engine(dir.path(), AmbientPolicy::Modern, Mode::Full, true);
    let mut bytes = engine(dir.path(), AmbientPolicy::Modern, Mode::Full, false);
    let portal = std::fs::read(dir.path().join("client_portal.dat")).unwrap();
    let cell: std::sync::Arc<[u8]> = std::fs::read(dir.path().join("client_cell_1.dat"))
        .unwrap()
        .into();
    bytes.attach_terrain_bytes(&portal, cell).unwrap();
    assert!(bytes.terrain().is_some());
    let (a, _) = run(&mut folder, 8.0);
    let (b, _) = run(&mut bytes, 8.0);
    assert!(a.iter().any(|v| *v != 0.0));
    let first = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x.to_bits() != y.to_bits());
    assert_eq!(first, None, "first differing sample of {}", a.len());
    // Bytes that are not a dat: one line naming the dat.
    let mut e = Engine::builder().mode(Mode::Full).build().unwrap();
    let err = e
        .attach_terrain_bytes(b"not a dat", std::sync::Arc::from(&b"x"[..]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("client_portal.dat"), "{err}");
    assert!(!err.contains('\n'), "{err}");
}
