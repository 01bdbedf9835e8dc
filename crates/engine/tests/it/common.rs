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
