//! Unit tests of the record primitives and helpers.

use binrw::io::Cursor;
use binrw::{BinRead, BinWrite, Endian};

use super::codec::{check_count, pad_len, read_list_u32};
use super::codec_error::CountExceedsDataError;
use super::{ColorArgb, CompressedUInt, Frame, PString, Quaternion, Vector3};

fn write<T: for<'a> BinWrite<Args<'a> = ()>>(value: &T, start: u64) -> Vec<u8> {
    let mut c = Cursor::new(vec![0xEE; start as usize]);
    c.set_position(start);
    value.write_options(&mut c, Endian::Little, ()).unwrap();
    c.into_inner().split_off(start as usize)
}

fn read<T: for<'a> BinRead<Args<'a> = ()>>(bytes: &[u8], start: u64) -> (T, u64) {
    let mut buf = vec![0xEE; start as usize];
    buf.extend_from_slice(bytes);
    let mut c = Cursor::new(buf);
    c.set_position(start);
    let v = T::read_options(&mut c, Endian::Little, ()).unwrap();
    (v, c.position() - start)
}

#[test]
fn compressed_uint_width_boundaries() {
    let cases: [(u32, &[u8]); 10] = [
        (0, &[0x00]),
        (1, &[0x01]),
        (0x7F, &[0x7F]),
        (0x80, &[0x80, 0x80]),
        (0x1234, &[0x92, 0x34]),
        (0x3FFF, &[0xBF, 0xFF]),
        (0x4000, &[0xC0, 0x00, 0x00, 0x40]),
        (0x0012_3456, &[0xC0, 0x12, 0x56, 0x34]),
        (0x3FFF_FFFF, &[0xFF, 0xFF, 0xFF, 0xFF]),
        (0x2A00_00FF, &[0xEA, 0x00, 0xFF, 0x00]),
    ];
    for (value, bytes) in cases {
        let v = CompressedUInt(value);
        assert_eq!(write(&v, 0), bytes, "encode {value:#X}");
        assert_eq!(v.encoded_len(), Some(bytes.len()));
        let (back, used) = read::<CompressedUInt>(bytes, 0);
        assert_eq!(back, v, "decode {value:#X}");
        assert_eq!(used, bytes.len() as u64);
    }
}

#[test]
fn compressed_uint_reader_accepts_wider_forms_and_writer_rejects_overflow() {
    // 5 in the 2-byte and 4-byte forms.
    assert_eq!(
        read::<CompressedUInt>(&[0x80, 0x05], 0).0,
        CompressedUInt(5)
    );
    assert_eq!(
        read::<CompressedUInt>(&[0xC0, 0x00, 0x05, 0x00], 0).0,
        CompressedUInt(5)
    );
    let mut c = Cursor::new(Vec::new());
    assert!(
        CompressedUInt(0x4000_0000)
            .write_options(&mut c, Endian::Little, ())
            .is_err()
    );
    assert_eq!(CompressedUInt(u32::MAX).encoded_len(), None);
    // Truncated forms fail.
    for bytes in [&[0x80][..], &[0xC0, 0x00, 0x01][..], &[][..]] {
        let mut c = Cursor::new(bytes);
        assert!(CompressedUInt::read_options(&mut c, Endian::Little, ()).is_err());
    }
}

#[test]
fn pstring_pads_relative_to_stream_start() {
    for start in 0..4u64 {
        for n in 0..8usize {
            let s = PString::from_bytes(vec![b'a'; n]);
            let bytes = write(&s, start);
            let expect = 2 + n + pad_len(start + 2 + n as u64);
            assert_eq!(bytes.len(), expect, "start {start} len {n}");
            assert_eq!((start + bytes.len() as u64) % 4, 0);
            let (back, used) = read::<PString>(&bytes, start);
            assert_eq!(back, s);
            assert_eq!(used, bytes.len() as u64);
        }
    }
}

#[test]
fn pstring_cp1252_display_and_encode() {
    let s = PString::from_bytes(vec![b'C', 0xE9, 0x80, 0x9F, 0x81]);
    assert_eq!(s.to_string(), "C\u{E9}\u{20AC}\u{178}\u{81}");
    assert_eq!(PString::from(s.to_string().as_str()).bytes, s.bytes);
    assert_eq!(PString::from("\u{4E2D}").bytes, b"?");
    assert_eq!(
        serde_json::to_value(&s).unwrap(),
        "C\u{E9}\u{20AC}\u{178}\u{81}"
    );
}

#[test]
fn pstring_escape_with_huge_length_fails_without_allocating() {
    let bytes = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, b'a'];
    let mut c = Cursor::new(&bytes[..]);
    let err = PString::read_options(&mut c, Endian::Little, ()).unwrap_err();
    let count = err.custom_err::<CountExceedsDataError>().unwrap();
    assert_eq!(count.count, 0xFFFF_FFFF);
    assert_eq!(count.remaining, 1);
}

#[test]
fn counted_list_checks_remaining_bytes_first() {
    // count 3 of u32 with only 8 bytes left.
    let bytes = [3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0];
    let mut c = Cursor::new(&bytes[..]);
    let err = read_list_u32::<_, u32>(&mut c, Endian::Little, ()).unwrap_err();
    assert_eq!(
        err.custom_err::<CountExceedsDataError>(),
        Some(&CountExceedsDataError {
            count: 3,
            needed: 12,
            remaining: 8
        })
    );
    let mut c = Cursor::new(&bytes[..8]);
    c.set_position(4);
    assert!(check_count(&mut c, 1, 4).is_ok());
    assert!(check_count(&mut c, u64::MAX, 4).is_err());
    let mut c = Cursor::new(&[2u8, 0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0][..]);
    let v: Vec<u32> = read_list_u32(&mut c, Endian::Little, ()).unwrap();
    assert_eq!(v, vec![7, 9]);
}

#[test]
fn color_is_bgra_and_quaternion_is_wxyz() {
    let c = ColorArgb::from_u32(0xAA11_2233);
    assert_eq!(write(&c, 0), [0x33, 0x22, 0x11, 0xAA]);
    assert_eq!((c.blue, c.green, c.red, c.alpha), (0x33, 0x22, 0x11, 0xAA));
    assert_eq!(c.to_u32(), 0xAA11_2233);
    let f = Frame {
        origin: Vector3 {
            x: 1.0,
            y: 2.0,
            z: 3.0,
        },
        orientation: Quaternion {
            w: 0.5,
            x: 0.25,
            y: 0.125,
            z: -1.0,
        },
    };
    let b = write(&f, 0);
    assert_eq!(b.len(), 28);
    assert_eq!(&b[12..16], &0.5f32.to_le_bytes());
    assert_eq!(&b[24..28], &(-1.0f32).to_le_bytes());
    assert_eq!(read::<Frame>(&b, 0).0, f);
}

#[test]
fn binrw_errors_map_to_plain_faults_with_the_field_path() {
    use binrw::error::{Backtrace, BacktraceFrame};

    use super::error::{Fault, map_binrw, plain};

    // frames are innermost first, as binrw pushes them while the error travels outwards
    let err = binrw::Error::Backtrace(Backtrace::new(
        binrw::Error::AssertFail {
            pos: 4,
            message: "\u{1b}[1mvalue out of range\u{1b}[0m\nsee".to_owned(),
        },
        vec![
            BacktraceFrame::Message("While parsing field 'b' in Inner".into()),
            BacktraceFrame::Message("While parsing field 'a' in Outer".into()),
        ],
    ));
    let (pos, field, fault) = map_binrw(&err);
    assert_eq!(pos, Some(4));
    assert_eq!(field.as_deref(), Some("a.b"));
    assert_eq!(
        fault,
        Fault::Invalid {
            message: "value out of range see".to_owned()
        }
    );
    let eof = binrw::Error::Io(std::io::ErrorKind::UnexpectedEof.into());
    assert_eq!(map_binrw(&eof), (None, None, Fault::Truncated));
    let count = binrw::Error::Custom {
        pos: 9,
        err: Box::new(CountExceedsDataError {
            count: 5,
            needed: 20,
            remaining: 3,
        }),
    };
    assert!(matches!(
        map_binrw(&count),
        (Some(9), None, Fault::CountExceedsData(_))
    ));
    assert_eq!(plain("\u{1b}[31mred\u{1b}[0m\ttext\r\n"), "red text");
}
