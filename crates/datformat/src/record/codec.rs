//! Shared binrw helpers: bounded counted lists, 4-byte alignment with kept pad bytes,
//! serde helpers for large arrays.
//!
//! Every position used here is the stream position, which [`Record`](super::Record) parsing
//! starts at 0 on the payload, so "relative to the DBObj start" (spec §3.2) holds.

use binrw::io::{Read, Seek, SeekFrom, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian};

use super::codec_error::{CountExceedsDataError, ValueTooLargeError};

/// Smallest encoded size of one item, used to bound counts before allocating.
pub(crate) trait MinSize {
    /// Minimum number of bytes one item occupies on disk (≥ 1).
    const MIN_SIZE: u64;
}

/// Bytes left between the current position and the end of the stream.
pub(crate) fn remaining<R: Read + Seek>(reader: &mut R) -> BinResult<u64> {
    let pos = reader.stream_position()?;
    let end = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(pos))?;
    Ok(end.saturating_sub(pos))
}

/// Fails unless `count` items of at least `min_size` bytes fit in the remaining bytes.
pub(crate) fn check_count<R: Read + Seek>(
    reader: &mut R,
    count: u64,
    min_size: u64,
) -> BinResult<()> {
    let left = remaining(reader)?;
    let needed = count.saturating_mul(min_size);
    if needed > left {
        return Err(binrw::Error::Custom {
            pos: reader.stream_position()?,
            err: Box::new(CountExceedsDataError {
                count,
                needed,
                remaining: left,
            }),
        });
    }
    Ok(())
}

/// Reads `count` items after checking they can fit.
pub(crate) fn read_items<R, T>(reader: &mut R, endian: Endian, count: u64) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = ()> + MinSize,
{
    check_count(reader, count, T::MIN_SIZE)?;
    // Bounded by the check above: count * MIN_SIZE <= remaining bytes.
    let mut items = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    for _ in 0..count {
        items.push(T::read_options(reader, endian, ())?);
    }
    Ok(items)
}

/// binrw `parse_with`: a u32 count followed by that many items.
pub(crate) fn read_list_u32<R, T>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: for<'a> BinRead<Args<'a> = ()> + MinSize,
{
    let count = u32::read_options(reader, endian, ())?;
    read_items(reader, endian, u64::from(count))
}

/// Writes every item, no count.
pub(crate) fn write_items<W, T>(items: &[T], writer: &mut W, endian: Endian) -> BinResult<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    for item in items {
        item.write_options(writer, endian, ())?;
    }
    Ok(())
}

/// A `ValueTooLarge` binrw error at the writer's position.
pub(crate) fn too_large<W: Seek>(writer: &mut W, what: &'static str, value: u64) -> binrw::Error {
    match writer.stream_position() {
        Ok(pos) => binrw::Error::Custom {
            pos,
            err: Box::new(ValueTooLargeError { what, value }),
        },
        Err(e) => binrw::Error::Io(e),
    }
}

/// Converts a length to a `C` count (u16 or u32), or a write error.
pub(crate) fn count<W: Seek, C: TryFrom<usize>>(writer: &mut W, len: usize) -> BinResult<C> {
    C::try_from(len).map_err(|_| {
        let what = if size_of::<C>() == 2 {
            "u16 count"
        } else {
            "u32 count"
        };
        too_large(writer, what, len as u64)
    })
}

/// Converts a length to a u32 count, or a write error.
pub(crate) fn count_u32<W: Seek>(writer: &mut W, len: usize) -> BinResult<u32> {
    count(writer, len)
}

/// Converts a length to a u16 count, or a write error.
pub(crate) fn count_u16<W: Seek>(writer: &mut W, len: usize) -> BinResult<u16> {
    count(writer, len)
}

/// A `C` count (u16 or u32) followed by the items.
fn write_counted<W, T, C>(items: &[T], writer: &mut W, endian: Endian) -> BinResult<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
    C: TryFrom<usize> + for<'a> BinWrite<Args<'a> = ()>,
{
    count::<W, C>(writer, items.len())?.write_options(writer, endian, ())?;
    write_items(items, writer, endian)
}

/// binrw `write_with`: a u32 count followed by the items.
#[allow(
    clippy::ptr_arg,
    reason = "binrw write_with hands the field as &Vec<T>"
)]
pub(crate) fn write_list_u32<W, T>(
    items: &Vec<T>,
    writer: &mut W,
    endian: Endian,
    _: (),
) -> BinResult<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    write_counted::<W, T, u32>(items, writer, endian)
}

/// binrw `write_with`: a u16 count followed by the items.
#[allow(
    clippy::ptr_arg,
    reason = "binrw write_with hands the field as &Vec<T>"
)]
pub(crate) fn write_list_u16<W, T>(
    items: &Vec<T>,
    writer: &mut W,
    endian: Endian,
    _: (),
) -> BinResult<()>
where
    W: Write + Seek,
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    write_counted::<W, T, u16>(items, writer, endian)
}

/// Number of pad bytes `align4` skips at `pos`.
pub(crate) fn pad_len(pos: u64) -> usize {
    // pos % 4 is 0..=3, so the cast cannot truncate.
    ((4 - pos % 4) % 4) as usize
}

/// Reads the 0–3 align4 pad bytes at the current position; unused slots are zero.
pub(crate) fn read_pad<R: Read + Seek>(reader: &mut R) -> BinResult<[u8; 3]> {
    let n = pad_len(reader.stream_position()?);
    let mut pad = [0u8; 3];
    if let Some(slot) = pad.get_mut(..n) {
        reader.read_exact(slot)?;
    }
    Ok(pad)
}

/// Writes the 0–3 align4 pad bytes for the current position, taken from `pad`.
pub(crate) fn write_pad<W: Write + Seek>(writer: &mut W, pad: &[u8; 3]) -> BinResult<()> {
    let n = pad_len(writer.stream_position()?);
    if let Some(bytes) = pad.get(..n) {
        writer.write_all(bytes)?;
    }
    Ok(())
}

/// serde helper: serializes a fixed array as a sequence (serde stops at 32 elements).
pub(crate) fn serialize_array<S, T, const N: usize>(
    value: &[T; N],
    serializer: S,
) -> Result<S::Ok, S::Error>
where
    S: serde::Serializer,
    T: serde::Serialize,
{
    serializer.collect_seq(value.iter())
}

/// A plain little/big-endian scalar that bulk reads can decode from a byte slice.
pub(crate) trait Scalar: Copy + Default {
    /// Encoded size in bytes.
    const SIZE: usize;
    /// Decodes one value from exactly `SIZE` bytes (missing bytes read as 0).
    fn decode(bytes: &[u8], endian: Endian) -> Self;
}

/// Copies up to `N` bytes of `bytes` into an array (missing bytes are 0).
fn to_array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    for (dst, src) in out.iter_mut().zip(bytes) {
        *dst = *src;
    }
    out
}

/// Implements [`Scalar`] for primitive numbers.
macro_rules! impl_scalar {
    ($($ty:ty),*) => {$(
        impl Scalar for $ty {
            const SIZE: usize = size_of::<$ty>();

            #[inline]
            fn decode(bytes: &[u8], endian: Endian) -> Self {
                let array = to_array::<{ size_of::<$ty>() }>(bytes);
                match endian {
                    Endian::Little => <$ty>::from_le_bytes(array),
                    Endian::Big => <$ty>::from_be_bytes(array),
                }
            }
        }
    )*};
}

impl_scalar!(u8, u16, u32, i32, f32);

/// A value with a fixed on-disk size, decodable from a [`Fields`] block: a [`Scalar`], a
/// raw-value enum ([`raw_enum_codec`]) or a struct declared with [`fixed_size_read`]. Lists of
/// them are read in bulk by [`read_fixed`].
pub(crate) trait Fixed: FromFields {
    /// Encoded size in bytes (at most [`FIXED_CHUNK`]).
    const SIZE: usize;
}

impl<T: Scalar> Fixed for T {
    const SIZE: usize = T::SIZE;
}

impl<T: Fixed> MinSize for T {
    const MIN_SIZE: u64 = T::SIZE as u64;
}

/// Bytes decoded per bulk read; every [`Fixed::SIZE`] is at most this (checked at compile
/// time by [`fixed_size_read`]).
pub(crate) const FIXED_CHUNK: usize = 256;

/// Reads `count` fixed-size values in bulk (through a stack buffer) after a bounds check,
/// handing each chunk of whole values (a multiple of `T::SIZE` bytes) to `sink`. On a failed
/// read the position is restored.
fn read_fixed_chunks<R, T>(reader: &mut R, count: u64, mut sink: impl FnMut(&[u8])) -> BinResult<()>
where
    R: Read + Seek,
    T: Fixed,
{
    check_count(reader, count, T::SIZE as u64)?;
    let pos = reader.stream_position()?;
    // Bounded by the check above.
    let mut left = usize::try_from(count).unwrap_or(0);
    let per_chunk = (FIXED_CHUNK / T::SIZE).max(1);
    let mut buf = [0u8; FIXED_CHUNK];
    while left > 0 {
        let n = per_chunk.min(left);
        let Some(slot) = buf.get_mut(..n * T::SIZE) else {
            break;
        };
        if let Err(e) = reader.read_exact(slot) {
            reader.seek(SeekFrom::Start(pos))?;
            return Err(binrw::Error::Io(e));
        }
        sink(slot);
        left -= n;
    }
    Ok(())
}

/// Decodes one fixed-size value from its bytes.
#[inline]
fn decode_fixed<T: Fixed>(bytes: &[u8], endian: Endian) -> T {
    T::from_fields(&mut Fields::new(bytes, endian))
}

/// Reads `count` fixed-size values in bulk, after a bounds check.
pub(crate) fn read_fixed<R, T>(reader: &mut R, endian: Endian, count: u64) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: Fixed,
{
    let mut values = Vec::new();
    read_fixed_chunks::<R, T>(reader, count, |chunk| {
        if values.is_empty() {
            // Bounded: `read_fixed_chunks` checked `count` against the remaining bytes.
            values.reserve_exact(usize::try_from(count).unwrap_or(0));
        }
        values.extend(
            chunk
                .chunks_exact(T::SIZE)
                .map(|c| decode_fixed::<T>(c, endian)),
        );
    })?;
    Ok(values)
}

/// binrw `parse_with`: a u32 count followed by that many fixed-size values, read in bulk.
pub(crate) fn read_fixed_u32<R, T>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: Fixed,
{
    let count = u32::read_options(reader, endian, ())?;
    read_fixed(reader, endian, u64::from(count))
}

/// binrw `parse_with`: a u16 count followed by that many fixed-size values, read in bulk.
pub(crate) fn read_fixed_u16<R, T>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: Fixed,
{
    let count = u16::read_options(reader, endian, ())?;
    read_fixed(reader, endian, u64::from(count))
}

/// binrw `parse_with`: a fixed array of fixed-size values, read in bulk straight into the array.
pub(crate) fn read_fixed_array<R, T, const N: usize>(
    reader: &mut R,
    endian: Endian,
    _: (),
) -> BinResult<[T; N]>
where
    R: Read + Seek,
    T: Fixed + Copy + Default,
{
    let mut out = [T::default(); N];
    let mut slots = out.iter_mut();
    read_fixed_chunks::<R, T>(reader, N as u64, |chunk| {
        // chunk first: `zip` pulls from its first iterator before the second, so a slot is
        // never taken (and skipped) when the chunk is used up
        for (c, slot) in chunk.chunks_exact(T::SIZE).zip(slots.by_ref()) {
            *slot = decode_fixed(c, endian);
        }
    })?;
    Ok(out)
}

/// Reads `len` raw bytes after checking they are there.
pub(crate) fn read_bytes<R: Read + Seek>(reader: &mut R, len: u64) -> BinResult<Vec<u8>> {
    check_count(reader, len, 1)?;
    // Bounded by the check above.
    let mut bytes = vec![0u8; usize::try_from(len).unwrap_or(0)];
    reader.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// A little-endian u32 at byte `at` of `bytes`, if all four bytes are there.
pub(crate) fn le_u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// A little-endian u16 at byte `at` of `bytes`, if both bytes are there.
pub(crate) fn le_u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    let b: [u8; 2] = bytes.get(at..at.checked_add(2)?)?.try_into().ok()?;
    Some(u16::from_le_bytes(b))
}

/// Reads a fixed block of `N` bytes; on failure the position is restored.
pub(crate) fn read_block<R: Read + Seek, const N: usize>(reader: &mut R) -> BinResult<[u8; N]> {
    let pos = reader.stream_position()?;
    let mut block = [0u8; N];
    if let Err(e) = reader.read_exact(&mut block) {
        reader.seek(SeekFrom::Start(pos))?;
        return Err(binrw::Error::Io(e));
    }
    Ok(block)
}

/// Decodes consecutive fields from a fixed block read with [`read_block`].
pub(crate) struct Fields<'a> {
    /// The block.
    bytes: &'a [u8],
    /// Next field offset.
    at: usize,
    /// Byte order.
    endian: Endian,
}

impl<'a> Fields<'a> {
    /// Starts decoding at the block's first byte.
    #[inline]
    pub(crate) fn new(bytes: &'a [u8], endian: Endian) -> Self {
        Self {
            bytes,
            at: 0,
            endian,
        }
    }

    /// Decodes the next field (missing bytes read as 0; blocks are sized so none are).
    #[inline]
    pub(crate) fn get<T: FromFields>(&mut self) -> T {
        T::from_fields(self)
    }

    /// Decodes the next scalar.
    #[inline]
    pub(crate) fn scalar<T: Scalar>(&mut self) -> T {
        let value = T::decode(self.bytes.get(self.at..).unwrap_or_default(), self.endian);
        self.at += T::SIZE;
        value
    }
}

/// A value with a fixed on-disk size that can be decoded from a [`Fields`] block.
pub(crate) trait FromFields: Sized {
    /// Decodes the value's fields in on-disk order.
    fn from_fields(fields: &mut Fields<'_>) -> Self;
}

impl<T: Scalar> FromFields for T {
    #[inline]
    fn from_fields(fields: &mut Fields<'_>) -> Self {
        fields.scalar()
    }
}

/// Implements [`FromFields`] (fields decoded in the listed order) and a one-read
/// [`BinRead`] for a fixed-size struct.
macro_rules! fixed_size_read {
    ($ty:ident, $size:expr, { $($field:ident),* $(,)? }) => {
        impl $crate::record::codec::FromFields for $ty {
            #[inline]
            fn from_fields(fields: &mut $crate::record::codec::Fields<'_>) -> Self {
                Self { $($field: fields.get(),)* }
            }
        }

        impl $crate::record::codec::Fixed for $ty {
            const SIZE: usize = $size;
        }

        const _: () = assert!($size <= $crate::record::codec::FIXED_CHUNK);

        impl binrw::BinRead for $ty {
            type Args<'a> = ();

            fn read_options<R: binrw::io::Read + binrw::io::Seek>(
                reader: &mut R,
                endian: binrw::Endian,
                (): Self::Args<'_>,
            ) -> binrw::BinResult<Self> {
                let block = $crate::record::codec::read_block::<R, { $size }>(reader)?;
                let mut fields = $crate::record::codec::Fields::new(&block, endian);
                Ok(<Self as $crate::record::codec::FromFields>::from_fields(&mut fields))
            }
        }
    };
}

/// Implements [`FromFields`], [`Fixed`], [`BinRead`] and [`BinWrite`] for an enum stored as its
/// raw `$raw` value, converted with `$from` / `$to` (every raw value maps to a variant, so
/// reading never fails and nothing is lost on a rewrite).
macro_rules! raw_enum_codec {
    ($ty:ident, $raw:ty, $from:ident, $to:ident) => {
        impl $crate::record::codec::FromFields for $ty {
            #[inline]
            fn from_fields(fields: &mut $crate::record::codec::Fields<'_>) -> Self {
                Self::$from(fields.scalar::<$raw>())
            }
        }

        impl $crate::record::codec::Fixed for $ty {
            const SIZE: usize = size_of::<$raw>();
        }

        impl binrw::BinRead for $ty {
            type Args<'a> = ();

            fn read_options<R: binrw::io::Read + binrw::io::Seek>(
                reader: &mut R,
                endian: binrw::Endian,
                (): Self::Args<'_>,
            ) -> binrw::BinResult<Self> {
                <$raw as binrw::BinRead>::read_options(reader, endian, ()).map(Self::$from)
            }
        }

        impl binrw::BinWrite for $ty {
            type Args<'a> = ();

            fn write_options<W: binrw::io::Write + binrw::io::Seek>(
                &self,
                writer: &mut W,
                endian: binrw::Endian,
                (): Self::Args<'_>,
            ) -> binrw::BinResult<()> {
                binrw::BinWrite::write_options(&self.$to(), writer, endian, ())
            }
        }
    };
}

pub(crate) use raw_enum_codec;

pub(crate) use fixed_size_read;
