//! Primitive encodings (spec §3): the AC1Legacy PString, CompressedUInt, ColorARGB, Vector3,
//! Quaternion, Frame and the 4-byte bool.

use std::fmt;

use binrw::io::{Read, Seek, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::Serialize;

use super::codec::{MinSize, fixed_size_read, read_bytes, read_pad, too_large, write_pad};

/// `AC1LegacyPStringBase<byte>` (spec §3.5): u16 length (0xFFFF → a u32 length follows), the raw
/// bytes, then align4 relative to the DBObj start.
///
/// The raw bytes are kept (they are Windows-1252 in retail data); [`fmt::Display`] and the serde
/// form decode them as Windows-1252. The pad bytes read are kept so a rewrite is byte-exact
/// (DRW can leave non-zero pad bytes); new strings pad with zeros.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PString {
    /// The string's raw bytes.
    pub bytes: Vec<u8>,
    /// The length used the 0xFFFF + u32 escape even though it would fit in a u16.
    /// Lengths ≥ 0xFFFF always use the escape, and for them this flag reads back as `false`.
    pub long_length: bool,
    /// The align4 pad bytes; only the first 0–3 are on disk, depending on position.
    pub pad: [u8; 3],
}

impl PString {
    /// A string from raw bytes, short length form, zero padding.
    #[must_use]
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        Self {
            bytes,
            long_length: false,
            pad: [0; 3],
        }
    }

    /// Encodes `text` as Windows-1252; characters it cannot represent become `?`.
    #[must_use]
    pub fn from_str_lossy(text: &str) -> Self {
        Self::from_bytes(text.chars().map(encode_cp1252).collect())
    }

    /// The length in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the string is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Decodes the bytes as Windows-1252.
    #[must_use]
    pub fn to_string_lossy(&self) -> String {
        self.bytes.iter().map(|&b| decode_cp1252(b)).collect()
    }
}

impl From<&str> for PString {
    fn from(text: &str) -> Self {
        Self::from_str_lossy(text)
    }
}

impl fmt::Display for PString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl Serialize for PString {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string_lossy())
    }
}

impl MinSize for PString {
    const MIN_SIZE: u64 = 2;
}

impl BinRead for PString {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<Self> {
        let short = u16::read_options(reader, endian, ())?;
        let (len, long_length) = if short == 0xFFFF {
            (u32::read_options(reader, endian, ())?, true)
        } else {
            (u32::from(short), false)
        };
        let bytes = read_bytes(reader, u64::from(len))?;
        let pad = read_pad(reader)?;
        Ok(Self {
            bytes,
            long_length: long_length && len < 0xFFFF,
            pad,
        })
    }
}

impl BinWrite for PString {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(
        &self,
        writer: &mut W,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<()> {
        let len = self.bytes.len();
        match u16::try_from(len) {
            Ok(short) if short != 0xFFFF && !self.long_length => {
                short.write_options(writer, endian, ())?;
            }
            _ => {
                let long = u32::try_from(len)
                    .map_err(|_| too_large(writer, "string length", len as u64))?;
                0xFFFF_u16.write_options(writer, endian, ())?;
                long.write_options(writer, endian, ())?;
            }
        }
        writer.write_all(&self.bytes)?;
        write_pad(writer, &self.pad)
    }
}

/// Windows-1252 code points for bytes 0x80..=0x9F (undefined slots map to the C1 control).
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
];

/// Decodes one Windows-1252 byte.
fn decode_cp1252(byte: u8) -> char {
    match byte {
        0x80..=0x9F => CP1252_HIGH
            .get(usize::from(byte - 0x80))
            .copied()
            .unwrap_or('?'),
        _ => char::from(byte),
    }
}

/// Encodes one char as Windows-1252, `?` when not representable.
fn encode_cp1252(c: char) -> u8 {
    if let Some(i) = CP1252_HIGH.iter().position(|&h| h == c) {
        // i < 32
        return 0x80 + i as u8;
    }
    match u8::try_from(u32::from(c)) {
        Ok(b) if !(0x80..=0x9F).contains(&b) => b,
        _ => b'?',
    }
}

/// CompressedUInt (spec §3.3), with the client's READER semantics: 1 byte for `< 0x80`, 2 bytes
/// (big-endian-ish) for `< 0x4000`, else 4 bytes `0xC0 | v>>24, v>>16, v & 0xFF, (v>>8) & 0xFF`;
/// maximum 0x3FFF_FFFF. Reading accepts any width; writing always uses the shortest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct CompressedUInt(pub u32);

impl CompressedUInt {
    /// The largest encodable value.
    pub const MAX: u32 = 0x3FFF_FFFF;

    /// Encoded size of this value in bytes (1, 2 or 4), or `None` when above [`Self::MAX`].
    #[must_use]
    pub fn encoded_len(self) -> Option<usize> {
        match self.0 {
            0..0x80 => Some(1),
            0x80..0x4000 => Some(2),
            0x4000..=Self::MAX => Some(4),
            _ => None,
        }
    }
}

impl BinRead for CompressedUInt {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<Self> {
        let b0 = u8::read_options(reader, endian, ())?;
        if b0 & 0x80 == 0 {
            return Ok(Self(u32::from(b0)));
        }
        let b1 = u8::read_options(reader, endian, ())?;
        if b0 & 0x40 == 0 {
            return Ok(Self(u32::from(b0 & 0x7F) << 8 | u32::from(b1)));
        }
        let lo = u16::read_options(reader, Endian::Little, ())?;
        let hi = u32::from(b0 & 0x3F) << 8 | u32::from(b1);
        Ok(Self(hi << 16 | u32::from(lo)))
    }
}

impl BinWrite for CompressedUInt {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(
        &self,
        writer: &mut W,
        _endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<()> {
        let v = self.0;
        let [b0, b1, b2, b3] = v.to_be_bytes();
        match self.encoded_len() {
            Some(1) => writer.write_all(&[b3])?,
            Some(2) => writer.write_all(&[0x80 | b2, b3])?,
            Some(_) => writer.write_all(&[0xC0 | b0, b1, b3, b2])?,
            None => return Err(too_large(writer, "CompressedUInt", u64::from(v))),
        }
        Ok(())
    }
}

/// `ColorARGB` (spec §3.1): bytes B, G, R, A (a little-endian u32 `0xAARRGGBB`).
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct ColorArgb {
    /// Blue.
    pub blue: u8,
    /// Green.
    pub green: u8,
    /// Red.
    pub red: u8,
    /// Alpha.
    pub alpha: u8,
}

fixed_size_read!(ColorArgb, 4, { blue, green, red, alpha });

impl ColorArgb {
    /// The colour as `0xAARRGGBB`.
    #[must_use]
    pub fn to_u32(self) -> u32 {
        u32::from_le_bytes([self.blue, self.green, self.red, self.alpha])
    }

    /// The colour from `0xAARRGGBB`.
    #[must_use]
    pub fn from_u32(argb: u32) -> Self {
        let [blue, green, red, alpha] = argb.to_le_bytes();
        Self {
            blue,
            green,
            red,
            alpha,
        }
    }
}

/// `Vector3`: x, y, z.
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Vector3 {
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Z.
    pub z: f32,
}

fixed_size_read!(Vector3, 12, { x, y, z });

/// `Quaternion` on disk in the order w, x, y, z.
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Quaternion {
    /// W (scalar part).
    pub w: f32,
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Z.
    pub z: f32,
}

fixed_size_read!(Quaternion, 16, { w, x, y, z });

impl Default for Quaternion {
    fn default() -> Self {
        Self {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        }
    }
}

/// `Frame` (28 bytes): origin then orientation.
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Frame {
    /// Position.
    pub origin: Vector3,
    /// Rotation (w, x, y, z on disk).
    pub orientation: Quaternion,
}

fixed_size_read!(Frame, 28, { origin, orientation });

/// A 4-byte boolean, kept raw for a byte-exact rewrite; true when non-zero (DRW semantics).
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bool32(pub u32);

impl Bool32 {
    /// `raw != 0`.
    #[must_use]
    pub fn get(self) -> bool {
        self.0 != 0
    }
}

impl From<bool> for Bool32 {
    fn from(value: bool) -> Self {
        Self(u32::from(value))
    }
}

impl Serialize for Bool32 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(self.get())
    }
}
