//! Unit tests of `describe`: the text forms `resound ambient` prints.
use glam::Vec3;
use resound_datformat::id::{CellId, SoundTableId, WaveId};

use super::*;
use crate::event::Voice;

fn event(outcome: Outcome) -> AmbientEvent {
    AmbientEvent {
        time: 1.5,
        sound: 0,
        desc: 0,
        stb_id: SoundTableId(0x2000_0011),
        ambient_sound_id: 2,
        kind: SoundKind::Intermit,
        s_type: 0x46,
        volume: 0.5,
        outcome,
    }
}

#[test]
fn events_render_on_one_line() {
    let play = event(Outcome::Play(Voice {
        wave_id: WaveId(0x0A00_0101),
        row: 1,
        priority: 0.0,
        gain: 0.5,
        db: -6,
        pan: -3,
        distance: 12.25,
        position: Some(Position::new(0xA9B4_0025, Vec3::new(1.0, 2.0, 3.0))),
    }));
    assert_eq!(
        play.to_string(),
        "    1.500  play  0x20000011/2 intermit stype 0x46  wave 0x0A000101 row 1   -6 dB  pan -3  at 12.2 m (1.0, 2.0, 3.0 in 0xA9B40025)"
    );
    let drop = event(Outcome::Drop(DropReason::Inaudible {
        row: 0,
        distance: 99.0,
    }));
    assert_eq!(
        drop.to_string(),
        "    1.500  drop  0x20000011/2 intermit stype 0x46  row 0 inaudible at 99.0 m"
    );
}

#[test]
fn a_rebuild_report_lists_blocks_and_instances() {
    let rebuild = Rebuild {
        cell: CellId(0xA9B4_0025),
        outdoorish: true,
        land_blocks: vec![CellId(0xA9B4_FFFF)],
        missing_land_blocks: vec![CellId(0xA8B3_FFFF), CellId(0xAAB5_FFFF)],
        add_sound_calls: 64,
        contributing_cells: 3,
        failures: Vec::new(),
    };
    let position = Position::new(0xA9B4_0025, Vec3::new(100.0, 100.0, 72.0));
    let snapshot = AmbientSnapshot {
        cell: Some(CellId(0xA9B4_0025)),
        player_pos: position,
        total_sound_count: 1.5,
        sounds: Vec::new(),
        queue_len: 0,
    };
    let text = RebuildReport {
        position: &position,
        rebuild: &rebuild,
        snapshot: &snapshot,
        events: &[],
        sound_table_loads: 0,
        sound_table_releases: 0,
    }
    .to_string();
    assert_eq!(
        text.lines().take(3).collect::<Vec<_>>(),
        [
            "cell 0xA9B40025 at (100.00, 100.00, 72.00)",
            "landblocks: 1 gathered, 2 missing (0xA8B3FFFF, 0xAAB5FFFF); 64 AddSound calls, 3 contributing cells",
            "total weight 1.500000, 0 instances",
        ]
    );
}
