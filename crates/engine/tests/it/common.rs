//! Helpers shared by the engine's integration tests.

/// FNV-1a over the bytes of the samples.
pub fn hash(samples: &[f32]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for s in samples {
        for b in s.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The ambient crate's example path over the fixture world at 60 frames a second: the centre
/// (0 s), the valley (20 s), the lake (40 s), a turn (60 s), and with `final_turn` a pause
/// facing west until 75 s.
pub fn example_walk(final_turn: bool) -> resound_ambient::walk::Walk {
    use resound_ambient::CellId;
    use resound_ambient::walk::{Walk, Waypoint};
    let wp = |t: f64, cell: u32, origin: [f32; 3], heading: Option<f32>| Waypoint {
        t,
        cell: CellId(cell),
        origin,
        seen_outside: false,
        heading,
        teleport: false,
    };
    let mut waypoints = vec![
        wp(0.0, 0xA9B4_0025, [96.0, 96.0, 70.0], None),
        wp(20.0, 0xA8B3_002D, [120.0, 96.0, 46.0], None),
        wp(40.0, 0xA7B4_0035, [158.4, 96.0, 20.0], None),
        wp(60.0, 0xA8B6_001A, [86.4, 24.0, 30.0], None),
    ];
    if final_turn {
        waypoints.push(wp(75.0, 0xA8B6_001A, [86.4, 24.0, 30.0], Some(270.0)));
    }
    Walk {
        frame_rate: 60.0,
        camera_offset: [0.0; 3],
        waypoints,
    }
}

/// A stone wall two cells thick across x = `wall_x`..=`wall_x + 1` (16 high, 32 wide), the
/// listener at the origin facing the default way, and a looping voice at `source_x` with
/// `range`: the engine's "a sound behind a wall" scene.
pub fn loop_behind_a_wall(
    e: &mut resound_engine::Engine,
    wall_x: i32,
    source_x: f64,
    range: f32,
) -> resound_engine::VoiceHandle {
    use resound_engine::advanced::acoustics::{Cell, MaterialTable};
    use resound_engine::glam::{DVec3, IVec3};
    let stone = MaterialTable::standard().by_name("stone").unwrap();
    e.world()
        .fill_box(
            IVec3::new(wall_x, 0, -16),
            IVec3::new(wall_x + 1, 15, 15),
            Cell::solid(stone),
        )
        .unwrap();
    e.set_listener(
        DVec3::new(0.5, 1.5, 0.5),
        resound_engine::Orientation::default(),
    )
    .unwrap();
    let rate = 48_000;
    let s = e
        .load_mono(
            std::sync::Arc::from(resound_studio::test_signal::looped(rate)),
            rate,
        )
        .unwrap();
    e.play(
        s,
        resound_engine::Source {
            position: DVec3::new(source_x, 1.5, 0.5),
            range,
            looping: true,
            ..resound_engine::Source::default()
        },
    )
    .unwrap()
}
