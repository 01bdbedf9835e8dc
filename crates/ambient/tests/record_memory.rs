//! `DatSource` memory follows the record, not the entry: a LandBlock followed by a long run of
//! zero padding (compressed, so the dat stays small) loads at the cost of the LandBlock, and a
//! Wave ending in silence still parses whole. Its own binary: it installs a global allocator
//! that measures the peak of live bytes while armed.

#![allow(clippy::unwrap_used, reason = "test fixtures are known good")]

use std::io::Cursor;

use resound_ambient::{DatSource, DatSourceError, LandBlockSource};
use resound_datformat::container::{DatKind, DatReader, DatWriter, EntryOptions, ReadEntryError};
use resound_datformat::id::CellId;
use resound_datformat::record::{LandBlock, Record, Wave};

#[global_allocator]
static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;

/// Runs `f` with this thread's requests counted; returns its result and the peak of bytes
/// live at once during it.
fn peak<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let (out, usage) = resound_testalloc::on_this_thread(f);
    (out, usage.peak)
}

/// A cell dat holding `payload` (compressed) under `id`.
fn dat_with(id: u32, payload: &[u8]) -> Vec<u8> {
    let mut w = DatWriter::new(DatKind::Cell, 1024).unwrap();
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    w.insert(id, payload, options).unwrap();
    w.finish()
}

#[test]
fn a_land_block_followed_by_zero_padding_loads_at_the_cost_of_the_land_block() {
    let block = resound_fixture::land_block(0xA9, 0xB4).unwrap();
    let mut payload = block.to_bytes().unwrap();
    payload.resize(payload.len() + (64 << 20), 0);
    let dat = dat_with(0xA9B4_FFFF, &payload);
    drop(payload);
    assert!(dat.len() < 200_000, "{}", dat.len());
    let mut source = DatSource::new(DatReader::new(Cursor::new(&dat)).unwrap());
    let (loaded, bytes) = peak(|| source.load_land_block(CellId(0xA9B4_FFFF)));
    assert_eq!(*loaded.unwrap().unwrap(), block);
    // The stored entry (~65 KB), the zlib state and 64 KiB chunks, the record and its slack;
    // before, the whole 64 MiB payload.
    assert!(bytes < 2 << 20, "peak {bytes} bytes live");
}

#[test]
fn a_wave_ending_in_silence_parses_whole_and_the_cap_is_named() {
    // 1 MiB of silence after one loud sample: the record's length field covers the zeros, so
    // the trimmed bytes alone do not parse and the whole payload is rebuilt.
    let mut data = vec![0x7Fu8, 0x7F];
    data.resize(1 << 20, 0);
    let wave = Wave {
        id: 0x0A00_0001,
        header: resound_fixture::wave_format_ex(1, 22_050, 16).to_vec(),
        data,
    };
    let dat = dat_with(wave.id, &wave.to_bytes().unwrap());
    let mut source = DatSource::new(DatReader::new(Cursor::new(&dat)).unwrap());
    assert_eq!(source.load_record::<Wave>(wave.id).unwrap().unwrap(), wave);
    let declared = source.payload_size(wave.id).unwrap().unwrap();
    assert_eq!(declared, wave.to_bytes().unwrap().len() as u64);
    assert_eq!(source.payload_size(0x0A00_0002).unwrap(), None);

    // Under a 512 KiB cap, the same Wave cannot be rebuilt whole: a parse error, not an
    // allocation of its declared size.
    let mut small =
        DatSource::new(DatReader::new(Cursor::new(&dat)).unwrap()).with_record_cap(512 << 10);
    assert_eq!(small.record_cap(), 512 << 10);
    assert!(matches!(
        small.load_record::<Wave>(wave.id),
        Err(DatSourceError::Parse { .. })
    ));
    // Loud bytes past the cap: the read stops there, naming the cap.
    let loud = Wave {
        data: vec![0x55; 1 << 20],
        ..wave
    };
    let dat = dat_with(loud.id, &loud.to_bytes().unwrap());
    let mut small =
        DatSource::new(DatReader::new(Cursor::new(&dat)).unwrap()).with_record_cap(512 << 10);
    let err = small.load_record::<Wave>(loud.id).unwrap_err();
    let DatSourceError::Read { source, .. } = &err else {
        panic!("{err}")
    };
    assert!(matches!(source, ReadEntryError::OverCap { cap, .. } if *cap == 512 << 10));
    assert!(
        source.to_string().contains("(the 524288-byte read cap)"),
        "{source}"
    );
}

#[test]
fn an_absent_record_is_none() {
    let dat = dat_with(
        0xA9B4_FFFF,
        &resound_fixture::land_block(0xA9, 0xB4)
            .unwrap()
            .to_bytes()
            .unwrap(),
    );
    let mut source = DatSource::new(DatReader::new(Cursor::new(&dat)).unwrap());
    assert!(
        source
            .load_record::<LandBlock>(0xA9B5_FFFF)
            .unwrap()
            .is_none()
    );
    assert_eq!(source.loads, 1);
}

#[test]
fn a_trimmed_load_gives_what_the_whole_payload_gives_under_mutation() {
    // The fixture's cell dat, 2 000 seeded mutations (bit flips, bytes, zero runs): for every
    // LandBlock entry that can be read whole, `load_record` (trimmed) gives the same record, or
    // fails as the whole payload's parse does.
    let world = resound_fixture::write_world();
    let base = world.cell;
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut same, mut failed) = (0usize, 0usize);
    for _ in 0..2000 {
        let mut bytes = base.clone();
        for _ in 0..1 + next() % 3 {
            let at = (next() % bytes.len() as u64) as usize;
            match next() % 3 {
                0 => bytes[at] ^= 1 << (next() % 8),
                1 => bytes[at] = next() as u8,
                _ => {
                    let end = (at + (next() % 64) as usize).min(bytes.len());
                    bytes[at..end].fill(0);
                }
            }
        }
        let Ok(mut whole) = DatReader::new(Cursor::new(&bytes)) else {
            continue;
        };
        let Ok(entries) = whole.entries() else {
            continue;
        };
        let mut source = DatSource::new(DatReader::new(Cursor::new(&bytes)).unwrap());
        for e in entries.iter().filter(|e| e.id & 0xFFFF == 0xFFFF).take(4) {
            let Ok(payload) = whole.read_entry(e) else {
                continue;
            };
            let expected = LandBlock::from_bytes(&payload).ok();
            match source.load_record::<LandBlock>(e.id) {
                Ok(got) => {
                    assert_eq!(got, expected, "0x{:08X}", e.id);
                    same += 1;
                }
                Err(_) => {
                    assert_eq!(expected, None, "0x{:08X}", e.id);
                    failed += 1;
                }
            }
        }
    }
    eprintln!("{same} loads equal to the whole payload's, {failed} failed as it does");
    assert!(same > 1000 && failed > 0, "{same} equal, {failed} failed");
}
