//! Writes a copy of a portal dat whose Waves are each replaced by one declaring 2²⁶ frames of
//! 16-bit mono PCM (silence, so the zlib-compressed entries stay small): issue 37's hostile
//! input for the wave cache (16 such Waves make a 1 MB dat that decoded to 800 MB before the
//! cache checked the declared size against its byte cap). Used by
//! `docs/reliability/issue37_memory.sh`.
//!
//! `cargo run --release -p resound-engine --example declared_waves -- IN.dat OUT.dat`

use resound_engine::advanced::datformat::container::{DatReader, DatWriter, EntryOptions};
use resound_engine::advanced::datformat::record::{Record, Wave};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        return Err("usage: declared_waves IN.dat OUT.dat".into());
    };
    let bytes = std::fs::read(input)?;
    let ids: Vec<u32> = DatReader::new(std::io::Cursor::new(&bytes))?
        .entries()?
        .iter()
        .map(|e| e.id)
        .filter(|id| id >> 24 == 0x0A)
        .collect();
    let mut writer = DatWriter::from_bytes(bytes)?;
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    // 16-bit mono at 22 050 Hz: WAVEFORMATEX with cbSize 0
    let mut header = Vec::with_capacity(18);
    for v in [1u16, 1] {
        header.extend_from_slice(&v.to_le_bytes());
    }
    header.extend_from_slice(&22_050u32.to_le_bytes());
    header.extend_from_slice(&44_100u32.to_le_bytes());
    for v in [2u16, 16, 0] {
        header.extend_from_slice(&v.to_le_bytes());
    }
    let mut wave = Wave {
        id: 0,
        header,
        data: vec![0; 2 << 26],
    };
    for &id in &ids {
        wave.id = id;
        writer.insert(id, &wave.to_bytes()?, options)?;
    }
    std::fs::write(output, writer.finish())?;
    eprintln!("{} Waves of 2^26 frames", ids.len());
    Ok(())
}
