//! Writes the starting corpus of every fuzz target from the fixture world and the built-in
//! scenes: `cargo run --manifest-path crates/datformat/fuzz/Cargo.toml --example seed_corpus
//! -- DIR` (default `crates/datformat/fuzz/corpus`), one folder per target.
//!
//! Records come from the compact fixture world (Waves 1/50 as long), the dats are both compact
//! fixture dats, the scene texts are acoustics-core's built-in scenes. The structure-aware
//! targets start from a few fixed byte strings (their input is a recipe, not a file format).

use std::io::Cursor;
use std::path::{Path, PathBuf};

use resound_datformat::container::DatReader;
use resound_datformat::entry_type::{RecordType, entry_type};
use resound_fixture::{FixtureOptions, write_world_with};

fn put(dir: &Path, target: &str, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let d = dir.join(target);
    std::fs::create_dir_all(&d)?;
    std::fs::write(d.join(name), bytes)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::args()
        .nth(1)
        .map_or_else(|| here.join("corpus"), PathBuf::from);
    let world = write_world_with(&FixtureOptions::compact())?;
    let mut count = 0;
    for (label, dat) in [("portal", &world.portal), ("cell", &world.cell)] {
        put(&dir, "read_dat", &format!("fixture_{label}.dat"), dat)?;
        put(
            &dir,
            "ambient_load_record",
            &format!("fixture_{label}.dat"),
            dat,
        )?;
        count += 2;
        let mut reader = DatReader::new(Cursor::new(&dat[..]))?;
        let kind = reader.header().dat_type;
        for entry in reader.entries()? {
            let target = match entry_type(kind, entry.id).parsed {
                Some(RecordType::Region) => "parse_region",
                Some(RecordType::SoundTable) => "parse_sound_table",
                Some(RecordType::Wave) => "parse_wave",
                Some(RecordType::LandBlock) => "parse_land_block",
                Some(RecordType::LandBlockInfo) => "parse_land_block_info",
                _ => continue,
            };
            let bytes = reader.read_entry(&entry)?;
            put(&dir, target, &format!("{:08x}", entry.id), &bytes)?;
            count += 1;
        }
    }
    // MP3: a real encoder's stream (Xing/LAME frame) and four hand-built silent frames.
    let mp3 = here.join("../../engine/tests/data/tone_440hz_mono_22050.mp3");
    put(
        &dir,
        "mp3_frames",
        "tone_440hz_mono_22050.mp3",
        &std::fs::read(&mp3)?,
    )?;
    let mut frame = [0u8; 96];
    frame[..4].copy_from_slice(&[0xFF, 0xFB, 0x14, 0xC0]);
    put(&dir, "mp3_frames", "silent_4_frames.mp3", &frame.repeat(4))?;
    count += 2;
    let scenes = here.join("../../acoustics-core/scenes");
    for e in std::fs::read_dir(&scenes)? {
        let path = e?.path();
        if path.extension().is_some_and(|x| x == "json") {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            put(
                &dir,
                "scene_json_text",
                &name.unwrap_or_default(),
                &std::fs::read(&path)?,
            )?;
            count += 1;
        }
    }
    for target in [
        "round_trip_wave",
        "round_trip_land_block",
        "round_trip_land_block_info",
        "round_trip_sound_table",
        "scene_json",
    ] {
        for (i, seed) in [&[0u8; 64][..], &[0xFF; 256][..], &[7; 1024][..]]
            .iter()
            .enumerate()
        {
            put(&dir, target, &format!("fixed_{i}"), seed)?;
            count += 1;
        }
    }
    println!("{count} corpus files in {}", dir.display());
    Ok(())
}
