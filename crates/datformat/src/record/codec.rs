//! Shared binrw helpers: bounded counted lists, 4-byte alignment with kept pad bytes,
//! serde helpers for large arrays.
//!
//! Every position used here is the stream position, which [`Record`](super::Record) parsing
//! starts at 0 on the payload, so "relative to the DBObj start" (spec §3.2) holds.

use binrw::io::{Read, Seek, SeekFrom, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian};

use super::error::{CountExceedsDataError, ValueTooLargeError};

/// Smallest encoded size of one item, used to bound counts before allocating.
pub(crate) trait MinSize {
    /// Minimum number of bytes one item occupies on disk (≥ 1).
    const MIN_SIZE: u64;
}

impl MinSize for u16 {
    const MIN_SIZE: u64 = 2;
}

impl MinSize for u32 {
    const MIN_SIZE: u64 = 4;
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

/// Converts a length to a u32 count, or a write error.
pub(crate) fn count_u32<W: Seek>(writer: &mut W, len: usize) -> BinResult<u32> {
    u32::try_from(len).map_err(|_| too_large(writer, "u32 count", len as u64))
}

/// Converts a length to a u16 count, or a write error.
pub(crate) fn count_u16<W: Seek>(writer: &mut W, len: usize) -> BinResult<u16> {
    u16::try_from(len).map_err(|_| too_large(writer, "u16 count", len as u64))
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
    count_u32(writer, items.len())?.write_options(writer, endian, ())?;
    write_items(items, writer, endian)
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
    count_u16(writer, items.len())?.write_options(writer, endian, ())?;
    write_items(items, writer, endian)
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

impl_scalar!(u8, u16, u32, f32);

/// Reads `count` scalars in bulk (through a stack buffer), after a bounds check.
pub(crate) fn read_scalars<R, T>(reader: &mut R, endian: Endian, count: u64) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: Scalar,
{
    /// Bytes decoded per read.
    const CHUNK: usize = 256;
    check_count(reader, count, T::SIZE as u64)?;
    let pos = reader.stream_position()?;
    // Bounded by the check above.
    let total = usize::try_from(count).unwrap_or(0);
    let mut values = Vec::with_capacity(total);
    let per_chunk = CHUNK / T::SIZE;
    let mut buf = [0u8; CHUNK];
    while values.len() < total {
        let n = per_chunk.min(total - values.len());
        let Some(slot) = buf.get_mut(..n * T::SIZE) else {
            break;
        };
        if let Err(e) = reader.read_exact(slot) {
            reader.seek(SeekFrom::Start(pos))?;
            return Err(binrw::Error::Io(e));
        }
        values.extend(slot.chunks_exact(T::SIZE).map(|c| T::decode(c, endian)));
    }
    Ok(values)
}

/// binrw `parse_with`: a u32 count followed by that many scalars, read in bulk.
pub(crate) fn read_scalars_u32<R, T>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: Scalar,
{
    let count = u32::read_options(reader, endian, ())?;
    read_scalars(reader, endian, u64::from(count))
}

/// binrw `parse_with`: a u16 count followed by that many scalars, read in bulk.
pub(crate) fn read_scalars_u16<R, T>(reader: &mut R, endian: Endian, _: ()) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    T: Scalar,
{
    let count = u16::read_options(reader, endian, ())?;
    read_scalars(reader, endian, u64::from(count))
}

/// binrw `parse_with`: a fixed array of scalars, read in bulk.
pub(crate) fn read_scalar_array<R, T, const N: usize>(
    reader: &mut R,
    endian: Endian,
    _: (),
) -> BinResult<[T; N]>
where
    R: Read + Seek,
    T: Scalar,
{
    let values = read_scalars::<R, T>(reader, endian, N as u64)?;
    let mut out = [T::default(); N];
    for (dst, src) in out.iter_mut().zip(values) {
        *dst = src;
    }
    Ok(out)
}

impl_scalar!(i32);

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
    pub(crate) fn new(bytes: &'a [u8], endian: Endian) -> Self {
        Self {
            bytes,
            at: 0,
            endian,
        }
    }

    /// Decodes the next field (missing bytes read as 0; blocks are sized so none are).
    pub(crate) fn get<T: FromFields>(&mut self) -> T {
        T::from_fields(self)
    }

    /// Decodes the next scalar.
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
    fn from_fields(fields: &mut Fields<'_>) -> Self {
        fields.scalar()
    }
}

/// Implements [`FromFields`] (fields decoded in the listed order) and a one-read
/// [`BinRead`] for a fixed-size struct.
macro_rules! fixed_size_read {
    ($ty:ident, $size:expr, { $($field:ident),* $(,)? }) => {
        impl $crate::record::codec::FromFields for $ty {
            fn from_fields(fields: &mut $crate::record::codec::Fields<'_>) -> Self {
                Self { $($field: fields.get(),)* }
            }
        }

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

pub(crate) use fixed_size_read;
