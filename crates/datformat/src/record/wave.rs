//! `Wave` — portal dat, ids 0x0A000000..=0x0A00FFFF (spec §4.3): a WAVEFORMATEX header and the
//! sample data, with export to a playable `.wav`, raw MP3 access and PCM decoding.

use binrw::io::{Read, Seek, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::Serialize;

use super::codec::{le_u16_at, le_u32_at, read_bytes, too_large};

/// A Wave DBObj: `Id u32, headerSize i32, dataSize i32, header, data` (no padding).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wave {
    /// File id.
    pub id: u32,
    /// The WAVEFORMATEX bytes (usually 18, 30 for MPEG Layer-3).
    pub header: Vec<u8>,
    /// The sample data (a WAV `data` chunk's contents).
    pub data: Vec<u8>,
}

/// `WAVE_FORMAT_PCM`.
pub const WAVE_FORMAT_PCM: u16 = 0x0001;
/// `WAVE_FORMAT_MPEGLAYER3`.
pub const WAVE_FORMAT_MPEGLAYER3: u16 = 0x0055;

/// Decoding a Wave's PCM data failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodePcmError {
    /// The header is shorter than the 16 bytes PCM needs.
    #[error("wave header has {len} bytes, PCM needs 16")]
    HeaderTooShort {
        /// Header length.
        len: usize,
    },
    /// The format tag is not PCM.
    #[error("format tag {format_tag:#06X} is not PCM")]
    NotPcm {
        /// The format tag.
        format_tag: u16,
    },
    /// Only 8-bit unsigned and 16-bit signed PCM are decoded.
    #[error("{bits_per_sample}-bit PCM is not supported")]
    UnsupportedBits {
        /// Bits per sample.
        bits_per_sample: u16,
    },
    /// The header says zero channels.
    #[error("wave has zero channels")]
    NoChannels,
}

impl Wave {
    /// Reads a little-endian u16 of the header.
    fn header_u16(&self, at: usize) -> Option<u16> {
        le_u16_at(&self.header, at)
    }

    /// Reads a little-endian u32 of the header.
    fn header_u32(&self, at: usize) -> Option<u32> {
        le_u32_at(&self.header, at)
    }

    /// `wFormatTag` (1 = PCM, 0x55 = MPEG Layer-3), if the header has it.
    #[must_use]
    pub fn format_tag(&self) -> Option<u16> {
        self.header_u16(0)
    }

    /// `nChannels`.
    #[must_use]
    pub fn channels(&self) -> Option<u16> {
        self.header_u16(2)
    }

    /// `nSamplesPerSec`.
    #[must_use]
    pub fn sample_rate(&self) -> Option<u32> {
        self.header_u32(4)
    }

    /// `nAvgBytesPerSec`.
    #[must_use]
    pub fn avg_bytes_per_sec(&self) -> Option<u32> {
        self.header_u32(8)
    }

    /// `nBlockAlign`.
    #[must_use]
    pub fn block_align(&self) -> Option<u16> {
        self.header_u16(12)
    }

    /// `wBitsPerSample`.
    #[must_use]
    pub fn bits_per_sample(&self) -> Option<u16> {
        self.header_u16(14)
    }

    /// The bytes of a playable file: the raw MPEG stream when `mp3` (only for MPEG Layer-3;
    /// `None` otherwise), else a RIFF/WAVE file ([`Wave::to_wav_bytes`]); with what they are.
    #[must_use]
    pub fn export(&self, mp3: bool) -> Option<(Vec<u8>, &'static str)> {
        if mp3 {
            return self
                .mp3_bytes()
                .map(|b| (b.to_vec(), "raw MPEG Layer-3 stream"));
        }
        Some((self.to_wav_bytes(), "RIFF WAVE"))
    }

    /// The data as a raw MPEG audio stream when the format is MPEG Layer-3 (tag 0x55).
    #[must_use]
    pub fn mp3_bytes(&self) -> Option<&[u8]> {
        (self.format_tag() == Some(WAVE_FORMAT_MPEGLAYER3)).then_some(self.data.as_slice())
    }

    /// A playable RIFF/WAVE file: `fmt ` = the header verbatim, `data` = the data, plus one
    /// pad byte when the data length is odd. (Sizes saturate at `u32::MAX`, far beyond any
    /// wave a dat can hold.)
    #[must_use]
    pub fn to_wav_bytes(&self) -> Vec<u8> {
        let fmt_len = u32::try_from(self.header.len()).unwrap_or(u32::MAX);
        let data_len = u32::try_from(self.data.len()).unwrap_or(u32::MAX);
        let pad = self.data.len() % 2;
        let fmt_pad = self.header.len() % 2;
        // RIFF chunks are word-aligned: both pad bytes count towards the RIFF size.
        let riff_len = 4u32
            .saturating_add(8)
            .saturating_add(fmt_len)
            .saturating_add(u32::from(fmt_pad == 1))
            .saturating_add(8)
            .saturating_add(data_len)
            .saturating_add(u32::from(pad == 1));
        let mut out = Vec::with_capacity(self.header.len() + self.data.len() + 45);
        out.extend_from_slice(b"RIFF");
        out.extend_from_slice(&riff_len.to_le_bytes());
        out.extend_from_slice(b"WAVE");
        out.extend_from_slice(b"fmt ");
        out.extend_from_slice(&fmt_len.to_le_bytes());
        out.extend_from_slice(&self.header);
        if fmt_pad == 1 {
            out.push(0);
        }
        out.extend_from_slice(b"data");
        out.extend_from_slice(&data_len.to_le_bytes());
        out.extend_from_slice(&self.data);
        if pad == 1 {
            out.push(0);
        }
        out
    }

    /// Decodes PCM data (8-bit unsigned or 16-bit signed, any channel count) to interleaved
    /// f32 samples in `[-1, 1)`. A trailing partial sample frame is ignored.
    pub fn decode_pcm_f32(&self) -> Result<Vec<f32>, DecodePcmError> {
        if self.header.len() < 16 {
            return Err(DecodePcmError::HeaderTooShort {
                len: self.header.len(),
            });
        }
        let format_tag = self.format_tag().unwrap_or(0);
        if format_tag != WAVE_FORMAT_PCM {
            return Err(DecodePcmError::NotPcm { format_tag });
        }
        let channels = usize::from(self.channels().unwrap_or(0));
        if channels == 0 {
            return Err(DecodePcmError::NoChannels);
        }
        let bits_per_sample = self.bits_per_sample().unwrap_or(0);
        let bytes_per_sample = match bits_per_sample {
            8 => 1,
            16 => 2,
            _ => return Err(DecodePcmError::UnsupportedBits { bits_per_sample }),
        };
        let frame = bytes_per_sample * channels;
        let whole = self.data.len() / frame * frame;
        let data = self.data.get(..whole).unwrap_or_default();
        let samples = if bytes_per_sample == 1 {
            data.iter()
                .map(|&b| (f32::from(b) - 128.0) / 128.0)
                .collect()
        } else {
            data.chunks_exact(2)
                .map(|c| f32::from(i16::from_le_bytes([c[0], c[1]])) / 32768.0)
                .collect()
        };
        Ok(samples)
    }
}

/// Reads an i32 size and that many bytes, bounded by the remaining bytes.
fn read_sized<R: Read + Seek>(reader: &mut R, size: i32) -> BinResult<Vec<u8>> {
    let pos = reader.stream_position()?;
    let len = u32::try_from(size).map_err(|_| binrw::Error::AssertFail {
        pos,
        message: format!("negative wave size {size}"),
    })?;
    read_bytes(reader, u64::from(len))
}

impl BinRead for Wave {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<Self> {
        let id = u32::read_options(reader, endian, ())?;
        let header_size = i32::read_options(reader, endian, ())?;
        let data_size = i32::read_options(reader, endian, ())?;
        let header = read_sized(reader, header_size)?;
        let data = read_sized(reader, data_size)?;
        Ok(Self { id, header, data })
    }
}

impl BinWrite for Wave {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(
        &self,
        writer: &mut W,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<()> {
        let header_size = i32::try_from(self.header.len())
            .map_err(|_| too_large(writer, "wave header size", self.header.len() as u64))?;
        let data_size = i32::try_from(self.data.len())
            .map_err(|_| too_large(writer, "wave data size", self.data.len() as u64))?;
        self.id.write_options(writer, endian, ())?;
        header_size.write_options(writer, endian, ())?;
        data_size.write_options(writer, endian, ())?;
        writer.write_all(&self.header)?;
        writer.write_all(&self.data)?;
        Ok(())
    }
}
