//! Ambient from my DAT files: the retail Asheron's Call ambient runtime on a client's
//! `client_portal.dat` and `client_cell_1.dat`, at one position, rendered exactly as retail
//! played it (whole-dB levels, ±14 dB pan, the 16-voice pool) to `ambient.wav`.
//!
//! `cargo run -p resound-engine --example ambient_from_dats -- DAT_DIR [0xA9B40025:96,96,70] [SECONDS]`
//!
//! Without a folder it writes the synthetic fixture world to a temporary folder and uses that.

use std::path::PathBuf;

use resound_engine::ambient::Seeds;
use resound_engine::mixer::{MixerSettings, PlaySettings, build};
use resound_engine::sound::{AmbientBridge, AmbientPolicy, AmbientSettings, ListenerPose};
use resound_engine::terrain::position::parse_position;
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

    // A mixer of our own (an engine's `attach_ambient` does this wiring for a game).
    let (mut handle, mut renderer) = build(MixerSettings {
        sample_rate: RATE,
        ..MixerSettings::default()
    })?;
    let settings = AmbientSettings {
        policy: AmbientPolicy::Retail16,
        seeds: Seeds { ran2: 7, crt: 7 },
        output_rate: RATE,
        ..AmbientSettings::default()
    };
    let mut bridge = AmbientBridge::open(&dir, settings)?;
    let pose = ListenerPose {
        position: at,
        heading_deg: 0.0,
        seen_outside: true,
    };

    let mut samples = vec![0.0f32; 2 * FRAME * (seconds * 20.0) as usize];
    let mut plays = Vec::new();
    for (i, chunk) in samples.chunks_mut(2 * FRAME).enumerate() {
        plays.clear();
        bridge.tick(&mut handle, i as f64 / 20.0, pose, &|_| false, &mut plays)?;
        for p in &plays {
            if let Some(params) = p.params() {
                handle.play(
                    p.sound(),
                    PlaySettings {
                        looping: false,
                        params,
                    },
                )?;
            }
        }
        handle.flush();
        renderer.render(chunk);
    }
    write_wav(
        std::path::Path::new("ambient.wav"),
        &samples,
        2,
        RATE,
        WavFormat::F32,
    )?;
    let c = bridge.counters();
    println!(
        "wrote ambient.wav ({seconds} s): {} events, {} played, {} dropped",
        c.events,
        c.played,
        c.dropped.total()
    );
    Ok(())
}
