//! Integration tests: the entry type table, `Decoded` (text and JSON) and the round-trip check.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use resound_datformat::check::{CheckError, RoundTrip, round_trip};
use resound_datformat::container::{DatKind, Iteration, IterationRange};
use resound_datformat::describe::{DecodeError, Decoded};
use resound_datformat::entry_type::{RecordType, entry_type};
use resound_datformat::record::{ReadRecordError, Record};

use crate::record::{full_region, land_block, land_block_info, sound_table, wave_pcm16};

#[test]
fn entry_types_follow_the_id_table() {
    let portal = |id| entry_type(DatKind::Portal, id);
    assert_eq!(portal(0x1300_0000).parsed, Some(RecordType::Region));
    assert_eq!(portal(0x2000_0011).parsed, Some(RecordType::SoundTable));
    assert_eq!(portal(0x0A00_0101).parsed, Some(RecordType::Wave));
    assert_eq!(portal(0xFFFF_0001).parsed, Some(RecordType::Iteration));
    assert_eq!(portal(0x0D00_0001).name, "Environment");
    assert_eq!(portal(0x0D00_0001).parsed, None);
    assert_eq!(portal(0x0E00_000E).name, "SpellTable");
    assert_eq!(portal(0x0E01_0003).name, "QualityFilter");
    // 0x13/0x20 beyond their 16-bit range are not Regions / SoundTables
    assert!(portal(0x1301_0000).is_unknown());
    assert!(portal(0x2001_0000).is_unknown());
    assert!(portal(0x5A00_00AB).is_unknown());
    assert!(!portal(0x0D00_0001).is_unknown());
    let cell = |id| entry_type(DatKind::Cell, id);
    assert_eq!(cell(0xA9B4_FFFF).parsed, Some(RecordType::LandBlock));
    assert_eq!(cell(0xA9B4_FFFE).parsed, Some(RecordType::LandBlockInfo));
    assert_eq!(cell(0xA9B4_0100).name, "EnvCell");
    assert_eq!(entry_type(DatKind::Local, 0x2300_0001).name, "StringTable");
    assert!(entry_type(DatKind::Local, 0x1300_0000).is_unknown());
    assert_eq!(
        entry_type(DatKind::Other(7), 0x1300_0000).parsed,
        Some(RecordType::Region)
    );
}

#[test]
fn record_types_parse_from_their_names() {
    for t in RecordType::ALL {
        assert_eq!(t.name().parse::<RecordType>().unwrap(), t);
        assert_eq!(t.to_string(), t.name());
    }
    assert_eq!("sound-table".parse(), Ok(RecordType::SoundTable));
    assert_eq!("land_block_info".parse(), Ok(RecordType::LandBlockInfo));
    assert_eq!("WAVE".parse(), Ok(RecordType::Wave));
    let err = "scene".parse::<RecordType>().unwrap_err();
    assert!(err.to_string().starts_with("unknown record type \"scene\""));
    assert_eq!(DatKind::Portal.to_string(), "portal");
    assert_eq!(DatKind::Other(9).to_string(), "type 9");
}

#[test]
fn decoded_renders_text_and_json() {
    let region = full_region().to_bytes().unwrap();
    let d = Decoded::parse(RecordType::Region, &region).unwrap();
    assert_eq!(d.padding, 0);
    assert_eq!(d.record.record_type(), RecordType::Region);
    let text = d.record.to_string();
    assert!(text.starts_with("Region 0x13000000 \""), "{text}");
    assert!(text.contains("l_block_length"), "{text}");
    let json = serde_json::to_value(&d.record).unwrap();
    assert_eq!(json["id"], 0x1300_0000);

    let wave = wave_pcm16();
    let d = Decoded::parse(RecordType::Wave, &wave.to_bytes().unwrap()).unwrap();
    assert!(
        d.record
            .to_string()
            .starts_with("Wave 0x0A000002: format_tag 0x0001 (PCM), channels 2, sample_rate 22050"),
        "{}",
        d.record
    );
    let json = serde_json::to_value(&d.record).unwrap();
    assert_eq!(json["data_size"], 12);
    assert_eq!(json["sample_rate"], 22050);
    assert!(json.get("data").is_none(), "samples are summarised: {json}");

    for (t, bytes, head) in [
        (
            RecordType::SoundTable,
            sound_table().to_bytes().unwrap(),
            "SoundTable 0x20000001",
        ),
        (
            RecordType::LandBlock,
            land_block().to_bytes().unwrap(),
            "LandBlock 0x9AB1FFFF",
        ),
        (
            RecordType::LandBlockInfo,
            land_block_info().to_bytes().unwrap(),
            "LandBlockInfo 0x1455FFFE",
        ),
    ] {
        let d = Decoded::parse(t, &bytes).unwrap();
        assert!(d.record.to_string().starts_with(head), "{}", d.record);
        assert_eq!(d.to_bytes().unwrap(), bytes);
    }

    let it = Iteration {
        current: 1,
        ranges: vec![IterationRange {
            consecutive: -1,
            starting: 1,
        }],
    };
    let d = Decoded::parse(RecordType::Iteration, &it.to_bytes()).unwrap();
    assert_eq!(
        d.record.to_string(),
        "Iteration: current 1, ranges [(-1, 1)]\n"
    );
    let json = serde_json::to_value(&d.record).unwrap();
    assert_eq!(json["ranges"][0]["consecutive"], -1);
}

#[test]
fn round_trip_keeps_zero_padding_and_types_other_failures() {
    let mut bytes = land_block().to_bytes().unwrap();
    assert_eq!(
        round_trip(RecordType::LandBlock, &bytes),
        Ok(RoundTrip { padding: 0 })
    );
    bytes.extend_from_slice(&[0; 16]);
    assert_eq!(
        round_trip(RecordType::LandBlock, &bytes),
        Ok(RoundTrip { padding: 16 })
    );
    bytes.push(0xAA);
    match round_trip(RecordType::LandBlock, &bytes) {
        Err(CheckError::Parse(DecodeError::Record(ReadRecordError::TrailingBytes {
            remaining: 17,
            ..
        }))) => {}
        other => panic!("expected trailing bytes, got {other:?}"),
    }
    // a Wave is not a Region: a plain parse error, cause in the message and nowhere else
    let err = round_trip(RecordType::Region, &wave_pcm16().to_bytes().unwrap()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("parse: Region 0x0A000002: at byte "),
        "{err}"
    );
    assert!(std::error::Error::source(&err).is_none());
    let differs = CheckError::Differs {
        at: Some(7),
        wrote: 10,
        read: 12,
    };
    assert_eq!(
        differs.to_string(),
        "round trip differs at byte 7 (wrote 10 bytes, read 12)"
    );
    // the Iteration record takes zero padding too; a non-zero byte after it stays an error
    let mut it = Iteration::new(3).to_bytes();
    it.extend_from_slice(&[0; 4]);
    assert_eq!(
        round_trip(RecordType::Iteration, &it),
        Ok(RoundTrip { padding: 4 })
    );
    it.push(1);
    assert!(round_trip(RecordType::Iteration, &it).is_err());
    let iteration = round_trip(RecordType::Iteration, &[1, 0, 0]).unwrap_err();
    assert!(
        iteration
            .to_string()
            .starts_with("parse: Iteration 0xFFFF0001: payload ends"),
        "{iteration}"
    );
}

#[test]
fn a_record_followed_by_a_zero_run_is_checked_without_holding_it() {
    use resound_datformat::check::report::{Outcome, check_entry};
    use resound_datformat::check::round_trip_trimmed;
    use resound_datformat::container::{DatReader, DatWriter, EntryOptions, Trimmed};

    let record = land_block().to_bytes().unwrap();
    let id = land_block().id;
    // 64 MiB of zeros after the record: deflate turns them into about 64 KiB.
    let zeros = 64usize << 20;
    let mut payload = record.clone();
    payload.resize(record.len() + zeros, 0);
    let mut w = DatWriter::new(DatKind::Cell, 1024).unwrap();
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    w.insert(id, &payload, options).unwrap();
    drop(payload);
    let mut r = DatReader::new(std::io::Cursor::new(w.finish())).unwrap();
    let entry = r.entry(id).unwrap().unwrap();
    let (name, outcome) = check_entry(Some(&mut r), DatKind::Cell, &entry);
    assert_eq!(name, "LandBlock");
    // the whole padding is counted, as the whole payload's check counts it
    assert_eq!(outcome, Outcome::Ok(zeros));
    // a byte after the run is no padding: the same failure the whole payload gives
    let mut head = record.clone();
    head.resize(record.len() + 100_000, 0);
    head.push(0xAA);
    let t = Trimmed { head, zeros: 5 };
    assert!(matches!(
        round_trip_trimmed(RecordType::LandBlock, &t),
        Err(CheckError::Parse(_))
    ));
    // a record whose last fields are zeros parses from the slack it is given
    let mut zero_tail = record.clone();
    let last = zero_tail.len() - 1;
    zero_tail[last - 3..].fill(0);
    let nonzero = zero_tail.iter().rposition(|&b| b != 0).unwrap() + 1;
    let t = Trimmed {
        head: zero_tail[..nonzero].to_vec(),
        zeros: (zero_tail.len() - nonzero + (20 << 20)) as u64,
    };
    assert_eq!(
        round_trip_trimmed(RecordType::LandBlock, &t),
        Ok(RoundTrip { padding: 20 << 20 })
    );
}

#[test]
fn a_trimmed_payload_parses_as_the_whole_one() {
    use resound_datformat::container::Trimmed;

    let trim = |payload: &[u8]| {
        let end = payload.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        Trimmed {
            head: payload[..end].to_vec(),
            zeros: (payload.len() - end) as u64,
        }
    };
    // a Wave whose last 200 000 bytes of PCM are silence: more zeros than the slack, so it is
    // parsed whole, as its payload is
    let mut wave = wave_pcm16();
    wave.data.resize(wave.data.len() + 200_000, 0);
    let bytes = wave.to_bytes().unwrap();
    let whole = Decoded::parse(RecordType::Wave, &bytes).unwrap();
    let trimmed = Decoded::parse_trimmed(RecordType::Wave, &trim(&bytes)).unwrap();
    assert_eq!(trimmed, whole);
    assert_eq!(trimmed.padding, 0);
    // a LandBlock and 20 MiB of zeros: parsed from its bytes and the slack, the rest counted
    let mut bytes = land_block().to_bytes().unwrap();
    bytes.resize(bytes.len() + (20 << 20), 0);
    let trimmed = Decoded::parse_trimmed(RecordType::LandBlock, &trim(&bytes)).unwrap();
    assert_eq!(
        trimmed,
        Decoded::parse(RecordType::LandBlock, &bytes).unwrap()
    );
    assert_eq!(trimmed.padding, 20 << 20);
}
