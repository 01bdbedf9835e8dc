//! Ambient from my DAT files: the retail Asheron's Call ambient runtime on a client's
//! `client_portal.dat` and `client_cell_1.dat`, at one position, rendered exactly as retail
//! played it (whole-dB levels, ±14 dB pan, the 16-voice pool) to `ambient.wav`.
//!
//! `cargo run -p resound-engine --example ambient_from_dats -- DAT_DIR [0xA9B40025:96,96,70] [SECONDS]`
//!
//! Without a folder it writes the synthetic fixture world to a temporary folder and uses that.

use std::path::PathBuf;

use resound_engine::advanced::ambient::Seeds;
use resound_engine::sound::AmbientSettings;
use resound_engine::terrain::ac_to_voxel;
use resound_engine::terrain::position::parse_position;
use resound_engine::{Engine, Mode, VoicePolicy, heading_orientation};
use resound_studio::wav_write::{WavFormat, write_wav};

const RATE: u32 = 48_000;
/// 20 frames a second, as a game loop might run.
const FRAME: usize = RATE as usize / 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let temp = tempfile::tempdir()?;
    let dir = match args.next() {
        Some(d) => PathBuf::from(d),
        None => {
            let world = resound_fixture::write_world();
            std::fs::write(temp.path().join("client_portal.dat"), &world.portal)?;
            std::fs::write(temp.path().join("client_cell_1.dat"), &world.cell)?;
            temp.path().to_path_buf()
        }
    };
    let at = parse_position(&args.next().unwrap_or_else(|| "0xA9B40025:96,96,70".into()))?;
    let seconds: f64 = args.next().map_or(Ok(20.0), |s| s.parse())?;

    // The retail voice policy: whole-dB levels, the retail pan, the 16-voice pool, no acoustics.
    let mut engine = Engine::builder()
        .sample_rate(RATE)
        .voice_policy(VoicePolicy::Retail16)
        .mode(Mode::Off)
        .build()?;
    engine.set_listener(ac_to_voxel(&at), heading_orientation(0.0))?;
    let settings = AmbientSettings {
        seeds: Seeds { ran2: 7, crt: 7 },
        ..AmbientSettings::default()
    };
    engine.attach_ambient(&dir, settings)?;

    let mut samples = vec![0.0f32; 2 * FRAME * (seconds * 20.0) as usize];
    for chunk in samples.chunks_mut(2 * FRAME) {
        engine.update(1.0 / 20.0)?;
        engine.render(chunk)?;
    }
    write_wav(
        std::path::Path::new("ambient.wav"),
        &samples,
        2,
        RATE,
        WavFormat::F32,
    )?;
    let c = engine.status().ambient.counters;
    println!(
        "wrote ambient.wav ({seconds} s): {} events, {} played, {} dropped",
        c.events,
        c.played,
        c.dropped.total()
    );
    Ok(())
}
