//! Writes a copy of a dat with one entry followed by N MiB of zero padding, stored
//! zlib-compressed: the hostile input of issue 37 (a 275 KB cell dat whose LandBlock inflates to
//! 256 MiB). Used by `docs/reliability/issue37_memory.sh`.
//!
//! `cargo run --release -p resound-datformat --example pad_entry -- IN.dat ID MIB OUT.dat`

use resound_datformat::container::{DatReader, DatWriter, EntryOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, id, mib, output] = args.as_slice() else {
        return Err("usage: pad_entry IN.dat ID MIB OUT.dat".into());
    };
    let id = u32::from_str_radix(id.trim_start_matches("0x"), 16)?;
    let mib: usize = mib.parse()?;
    let bytes = std::fs::read(input)?;
    let mut payload = DatReader::new(std::io::Cursor::new(&bytes))?
        .read(id)?
        .ok_or("no such entry")?;
    payload.resize(payload.len() + (mib << 20), 0);
    let mut writer = DatWriter::from_bytes(bytes)?;
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    writer.insert(id, &payload, options)?;
    std::fs::write(output, writer.finish())?;
    Ok(())
}
