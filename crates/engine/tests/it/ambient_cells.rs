//! The listener's AC cell (issue 29): outdoor by default, or an EnvCell the host names, whose
//! `seen_outside` flag is given or read from the cell dat's EnvCell record; and the ambient
//! runtime attached over any sources the game implements (`Engine::attach_ambient_sources`).
//!
//! Must show: an EnvCell without `seen_outside` silences land ambient (no events, no voices,
//! silent samples); one with it keeps the outdoor set (the same events and samples as the
//! outdoor cell); in-memory sources built from the fixture's records give the same events and
//! samples as the DAT folder.

use std::path::Path;

use resound_ambient::glam::Vec3;
use resound_ambient::{AmbientEvent, MemoryLandBlocks, MemorySoundTables, Outcome, Position};
use resound_engine::sound::{AmbientSettings, MemoryWaves, PortalPair};
use resound_engine::terrain::ac_to_voxel;
use resound_engine::{
    Engine, ListenerCell, ListenerCellError, Mode, Orientation, SeenOutside, Status, VoicePolicy,
};
use resound_fixture::{self as fixture, CELLAR_CELL, COTTAGE_CELL, FixtureOptions};

const RATE: u32 = 48_000;
/// One update: 1/60 s.
const FRAME: usize = 800;
/// Seconds each run renders.
const SECONDS: usize = 20;

/// The cottage's spot in the centre landblock, outdoors: land cell (2, 5) = 0x16.
fn cottage_outdoor() -> Position {
    Position::new(0xA9B4_0016, Vec3::new(60.0, 130.0, 10.0))
}

/// `world` written to a temporary DAT folder.
fn folder(world: &fixture::FixtureWorld) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("client_portal.dat"), &world.portal).unwrap();
    std::fs::write(dir.path().join("client_cell_1.dat"), &world.cell).unwrap();
    dir
}

fn indoor_world() -> tempfile::TempDir {
    folder(&fixture::write_world_indoor(&FixtureOptions::default()).unwrap())
}

/// An offline `Retail16` engine (no acoustics) with the listener at the cottage.
fn bare_engine() -> Engine {
    let mut e = Engine::builder()
        .sample_rate(RATE)
        .mode(Mode::Off)
        .voice_policy(VoicePolicy::Retail16)
        .build()
        .unwrap();
    e.set_listener(ac_to_voxel(&cottage_outdoor()), Orientation::default())
        .unwrap();
    e
}

fn engine(dir: &Path) -> Engine {
    let mut e = bare_engine();
    e.attach_ambient(dir, AmbientSettings::default()).unwrap();
    e
}

/// What a run produced.
struct Run {
    samples: Vec<f32>,
    events: Vec<AmbientEvent>,
    status: Status,
}

impl Run {
    /// The Waves the runtime asked to play, in order.
    fn waves(&self) -> Vec<u32> {
        self.events
            .iter()
            .filter_map(|ev| match ev.outcome {
                Outcome::Play(v) => Some(v.wave_id.get()),
                Outcome::Drop(_) => None,
            })
            .collect()
    }
}

/// `SECONDS` of updates at 60 Hz with the listener standing still, every event kept.
fn run(e: &mut Engine) -> Run {
    let mut samples = vec![0.0f32; 2 * FRAME * 60 * SECONDS];
    let mut events = Vec::new();
    for chunk in samples.chunks_mut(2 * FRAME) {
        e.update(1.0 / 60.0).unwrap();
        events.extend_from_slice(e.ambient_bridge().unwrap().last_events());
        e.render(chunk).unwrap();
    }
    Run {
        samples,
        events,
        status: e.status(),
    }
}

fn run_in(dir: &Path, cell: ListenerCell) -> Run {
    let mut e = engine(dir);
    e.set_listener_cell(cell).unwrap();
    run(&mut e)
}

fn assert_silent(r: &Run, what: &str) {
    let a = r.status.ambient;
    assert!(a.counters.frames >= 60 * SECONDS as u64, "{what}: {a:?}");
    assert!(
        a.counters.rebuilds >= 1,
        "{what}: the cell was entered: {a:?}"
    );
    assert_eq!(a.refused_ticks, 0, "{what}: {a:?}");
    assert!(r.events.is_empty(), "{what}: {} events", r.events.len());
    assert_eq!(a.counters.events, 0, "{what}: {a:?}");
    assert_eq!(a.started, 0, "{what}: {a:?}");
    assert_eq!(a.cache.misses, 0, "{what}: no Wave was loaded: {a:?}");
    assert!(r.samples.iter().all(|x| *x == 0.0), "{what}: not silent");
}

fn assert_same(a: &Run, b: &Run, what: &str) {
    assert_eq!(a.events, b.events, "{what}: events");
    assert_eq!(a.waves(), b.waves(), "{what}: waves");
    assert_eq!(a.status.ambient.started, b.status.ambient.started, "{what}");
    assert!(a.samples == b.samples, "{what}: samples differ");
}

#[test]
fn an_env_cell_without_seen_outside_hears_no_land_ambient_and_one_with_it_the_outdoor_set() {
    let dir = indoor_world();
    let outdoor = run_in(dir.path(), ListenerCell::Outdoor);
    // The outdoor cell is not silent: there is something to silence.
    let played = outdoor.waves();
    assert!(played.len() >= 3, "outdoor plays {played:?}");
    assert!(outdoor.status.ambient.started >= 3);
    let peak = outdoor.samples.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    assert!(peak > 1e-3, "outdoor peak {peak}");

    // Flags read from the cell dat's EnvCell records.
    let cellar = run_in(dir.path(), ListenerCell::env_cell(CELLAR_CELL));
    assert_silent(&cellar, "cellar (dat flag)");
    let cottage = run_in(dir.path(), ListenerCell::env_cell(COTTAGE_CELL));
    assert_same(&outdoor, &cottage, "cottage (dat flag)");

    // Flags given by the host override the record either way.
    let open_cellar = run_in(
        dir.path(),
        ListenerCell::env_cell_seen_outside(CELLAR_CELL, true),
    );
    assert_same(&outdoor, &open_cellar, "cellar, seen_outside given");
    let shut_cottage = run_in(
        dir.path(),
        ListenerCell::env_cell_seen_outside(COTTAGE_CELL, false),
    );
    assert_silent(&shut_cottage, "cottage, seen_outside false given");
}

#[test]
fn walking_down_into_the_cellar_stops_new_land_ambient() {
    let dir = indoor_world();
    let mut e = engine(dir.path());
    let mut out = vec![0.0f32; 2 * FRAME];
    for _ in 0..60 * 5 {
        e.update(1.0 / 60.0).unwrap();
        e.render(&mut out).unwrap();
    }
    let before = e.status().ambient;
    assert!(before.counters.events > 0, "{before:?}");
    e.set_listener_cell(ListenerCell::env_cell(CELLAR_CELL))
        .unwrap();
    assert_eq!(
        e.listener_cell(),
        ListenerCell::Cell {
            id: CELLAR_CELL,
            seen_outside: SeenOutside::Given(false)
        }
    );
    // Player and camera lag one frame (retail's order): the first update after the change
    // still runs in the old cell, the second rebuilds in the cellar, which gathers nothing.
    for _ in 0..2 {
        e.update(1.0 / 60.0).unwrap();
        e.render(&mut out).unwrap();
    }
    let entered = e.status().ambient;
    assert_eq!(entered.counters.rebuilds, before.counters.rebuilds + 1);
    assert_eq!(
        e.ambient_bridge()
            .unwrap()
            .ambient()
            .current_cell()
            .map(|c| c.get()),
        Some(CELLAR_CELL)
    );
    let mut tail = vec![0.0f32; 2 * FRAME * 60 * 10];
    for chunk in tail.chunks_mut(2 * FRAME) {
        e.update(1.0 / 60.0).unwrap();
        assert!(e.ambient_bridge().unwrap().last_events().is_empty());
        e.render(chunk).unwrap();
    }
    let after = e.status().ambient;
    assert_eq!(after.started, entered.started, "{after:?}");
    assert!(tail[2 * FRAME * 60 * 7..].iter().all(|x| *x == 0.0));
    // Back outside, the land ambient returns.
    e.set_listener_cell(ListenerCell::Outdoor).unwrap();
    for _ in 0..60 * 5 {
        e.update(1.0 / 60.0).unwrap();
        e.render(&mut out).unwrap();
    }
    assert!(e.status().ambient.started > after.started);
}

#[test]
fn a_listener_cell_is_checked() {
    let dir = indoor_world();
    let mut bare = bare_engine();
    assert!(matches!(
        bare.set_listener_cell(ListenerCell::env_cell(COTTAGE_CELL)),
        Err(ListenerCellError::NotAttached)
    ));
    assert_eq!(bare.listener_cell(), ListenerCell::Outdoor);
    let mut e = engine(dir.path());
    for bad in [0, 0xA9B4_0041, 0xA9B4_FFFF, 0xA9B4_FFFE] {
        let r = e.set_listener_cell(ListenerCell::env_cell(bad));
        assert!(
            matches!(r, Err(ListenerCellError::InvalidCell(id)) if id == bad),
            "{r:?}"
        );
    }
    // The dat has no EnvCell 0x0102; the error is one plain line.
    let e102 = e
        .set_listener_cell(ListenerCell::env_cell(0xA9B4_0102))
        .unwrap_err();
    assert!(matches!(e102, ListenerCellError::NoEnvCell(0xA9B4_0102)));
    assert_eq!(e102.to_string(), "the cell dat has no EnvCell 0xa9b40102");
    // The refused calls left the cell as it was.
    assert_eq!(e.listener_cell(), ListenerCell::Outdoor);
    e.set_listener_cell(ListenerCell::env_cell(COTTAGE_CELL))
        .unwrap();
    assert_eq!(
        e.listener_cell(),
        ListenerCell::Cell {
            id: COTTAGE_CELL,
            seen_outside: SeenOutside::Given(true)
        }
    );
    // A land cell named explicitly needs no record.
    e.set_listener_cell(ListenerCell::land_cell(0xA9B4_0016))
        .unwrap();
}

#[test]
fn in_memory_sources_sound_the_same_as_the_dat_folder() {
    let dir = folder(&fixture::write_world());
    let mut from_dats = engine(dir.path());
    let mut from_memory = bare_engine();
    let mut blocks = MemoryLandBlocks::new(fixture::land_blocks());
    for cell in fixture::env_cells() {
        blocks.insert_env_cell(cell);
    }
    let portal = PortalPair::new(
        MemorySoundTables::new(fixture::sound_tables()),
        MemoryWaves::new(fixture::waves()),
    );
    from_memory
        .attach_ambient_sources(
            &fixture::region(),
            portal,
            blocks,
            AmbientSettings::default(),
        )
        .unwrap();

    // The example walk (centre, valley, lake) for 30 s, frame by frame.
    let walk = crate::common::example_walk(false);
    let render = |e: &mut Engine| {
        let mut out = Vec::new();
        e.render_walk(&walk, 30.0, &mut |s| out.extend_from_slice(s))
            .unwrap();
        out
    };
    let a = render(&mut from_dats);
    let b = render(&mut from_memory);
    let (sa, sb) = (from_dats.status().ambient, from_memory.status().ambient);
    assert!(sa.counters.events > 10, "{sa:?}");
    assert!(sa.counters.rebuilds >= 2, "{sa:?}");
    assert!(sa.started > 5, "{sa:?}");
    assert!(a.iter().any(|x| *x != 0.0));
    assert_eq!(sa.counters, sb.counters);
    assert_eq!(sa.started, sb.started);
    assert_eq!(sa.cache.misses, sb.cache.misses);
    assert_eq!(a.len(), b.len());
    assert!(a == b, "the in-memory sources render different samples");

    // The EnvCell flag is read through the game's source too.
    from_memory
        .set_listener_cell(ListenerCell::env_cell(CELLAR_CELL))
        .unwrap();
    assert_eq!(
        from_memory.listener_cell(),
        ListenerCell::env_cell_seen_outside(CELLAR_CELL, false)
    );
    // The default DAT folder has no EnvCell records.
    assert!(matches!(
        from_dats.set_listener_cell(ListenerCell::env_cell(CELLAR_CELL)),
        Err(ListenerCellError::NoEnvCell(_))
    ));
}
