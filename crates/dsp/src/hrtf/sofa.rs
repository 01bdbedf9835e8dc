//! Loading AES69 SOFA files of the `SimpleFreeFieldHRIR` convention (sofar's HDF5 reader;
//! the checks, the coordinates and the resampling are ours).

use std::path::Path;

use sofar::hdf::{self, DataFormat, DataObject, ParsedHdf};

use super::error::HrirError;
use super::set::{HrirSet, MAX_DIRECTIONS, check_rate};

/// Largest SOFA file accepted (bytes).
pub const MAX_SOFA_BYTES: usize = 256 << 20;
/// Most samples per response accepted in a SOFA file (at the file's rate).
pub const MAX_SOFA_TAPS: usize = 65_536;
/// Most samples (all directions, both ears) accepted in a SOFA file.
pub const MAX_SOFA_SAMPLES: usize = 1 << 26;
/// Largest `Data.Delay` accepted (samples).
pub const MAX_SOFA_DELAY: usize = 1024;

impl HrirSet {
    /// Reads a SOFA file (see [`HrirSet::from_sofa_bytes`]).
    pub fn from_sofa_file(path: impl AsRef<Path>, mix_rate: f32) -> Result<Self, HrirError> {
        let path = path.as_ref();
        let size = std::fs::metadata(path)
            .map_err(|e| HrirError::Io(format!("{}: {e}", path.display())))?
            .len();
        if size > MAX_SOFA_BYTES as u64 {
            return Err(HrirError::TooLarge {
                what: "file size",
                value: usize::try_from(size).unwrap_or(usize::MAX),
                limit: MAX_SOFA_BYTES,
            });
        }
        let bytes =
            std::fs::read(path).map_err(|e| HrirError::Io(format!("{}: {e}", path.display())))?;
        Self::from_sofa_bytes(&bytes, mix_rate)
    }

    /// Reads an AES69 SOFA file held in memory, of the `SimpleFreeFieldHRIR` convention
    /// (`Conventions` = `SOFA`, `SOFAConventions` = `SimpleFreeFieldHRIR`, `DataType` =
    /// `FIR`; `Data.IR` of M × 2 × N samples, receiver 0 the left ear; `SourcePosition` M × 3,
    /// spherical in degrees or cartesian; `Data.SamplingRate`; an optional `Data.Delay` in
    /// samples, added in front of each response), resampled to `mix_rate` (rubato).
    ///
    /// Sizes are bounded ([`MAX_SOFA_BYTES`], [`MAX_SOFA_TAPS`], [`MAX_SOFA_SAMPLES`],
    /// [`MAX_DIRECTIONS`]); anything malformed is a typed error, never a panic.
    pub fn from_sofa_bytes(bytes: &[u8], mix_rate: f32) -> Result<Self, HrirError> {
        check_rate(f64::from(mix_rate))?;
        if bytes.len() > MAX_SOFA_BYTES {
            return Err(HrirError::TooLarge {
                what: "file size",
                value: bytes.len(),
                limit: MAX_SOFA_BYTES,
            });
        }
        // The HDF5 reader is third-party code fed untrusted bytes: a panic inside it is
        // turned into a typed error too.
        let raw = std::panic::catch_unwind(|| read_raw(bytes))
            .unwrap_or_else(|_| Err(HrirError::Parse("the HDF5 reader failed".into())))?;
        let file_set = HrirSet::new(
            raw.sample_rate as f32,
            raw.taps,
            &raw.directions,
            &raw.left,
            &raw.right,
        )?;
        file_set.resampled(mix_rate)
    }
}

/// What a SOFA file holds, at its own rate.
struct Raw {
    sample_rate: f64,
    taps: usize,
    directions: Vec<[f32; 3]>,
    left: Vec<f32>,
    right: Vec<f32>,
}

fn read_raw(bytes: &[u8]) -> Result<Raw, HrirError> {
    let parsed = hdf::parse_with_children(bytes).map_err(|e| HrirError::Parse(one_line(&e)))?;
    expect_attribute(&parsed, "Conventions", "SOFA")?;
    expect_attribute(&parsed, "SOFAConventions", "SimpleFreeFieldHRIR")?;
    expect_attribute(&parsed, "DataType", "FIR")?;

    let ir = child(&parsed, "Data.IR")?;
    let dims: Vec<u64> = ir.ds.dimension_size.iter().copied().collect();
    let [m, r, n] = dims[..] else {
        return Err(HrirError::Shape(format!(
            "Data.IR has {} dimensions, expected 3 (M × R × N)",
            dims.len()
        )));
    };
    let (m, r, n) = (to_usize(m), to_usize(r), to_usize(n));
    if r != 2 {
        return Err(HrirError::Shape(format!("{r} receivers, expected 2 ears")));
    }
    if m == 0 || n == 0 {
        return Err(HrirError::Empty);
    }
    limit("direction count", m, MAX_DIRECTIONS)?;
    limit("response length", n, MAX_SOFA_TAPS)?;
    limit(
        "sample count",
        m.saturating_mul(2).saturating_mul(n),
        MAX_SOFA_SAMPLES,
    )?;
    let data = values(&ir).ok_or(HrirError::MissingVariable("Data.IR"))?;
    if data.len() != m * 2 * n {
        return Err(HrirError::Shape(format!(
            "Data.IR holds {} values, its dimensions say {}",
            data.len(),
            m * 2 * n
        )));
    }

    let rate_obj = child(&parsed, "Data.SamplingRate")?;
    let sample_rate = values(&rate_obj)
        .and_then(|v| v.first().copied())
        .ok_or(HrirError::MissingVariable("Data.SamplingRate"))?;
    check_rate(sample_rate)?;

    let pos_obj = child(&parsed, "SourcePosition")?;
    let pos = values(&pos_obj).ok_or(HrirError::MissingVariable("SourcePosition"))?;
    if pos.len() != m * 3 {
        return Err(HrirError::Shape(format!(
            "SourcePosition holds {} values for {m} measurements",
            pos.len()
        )));
    }
    let spherical =
        attribute_of(&pos_obj, "Type").is_none_or(|t| t.eq_ignore_ascii_case("spherical"));
    let directions: Vec<[f32; 3]> = pos
        .chunks_exact(3)
        .map(|p| {
            if spherical {
                super::direction::from_azimuth_elevation(p[0] as f32, p[1] as f32)
            } else {
                // SOFA cartesian: x ahead, y left, z up.
                [-(p[1] as f32), p[2] as f32, -(p[0] as f32)]
            }
        })
        .collect();

    // Data.Delay: one pair for all (I × R) or one per measurement (M × R), in samples.
    let delays = match parsed.get_child("Data.Delay") {
        Some(Ok(obj)) => values(&obj).unwrap_or_default(),
        _ => Vec::new(),
    };
    let delay_of = |i: usize, ear: usize| -> Result<usize, HrirError> {
        let d = match delays.len() {
            0 => 0.0,
            2 => delays[ear],
            len if len == 2 * m => delays[2 * i + ear],
            len => {
                return Err(HrirError::Shape(format!(
                    "Data.Delay holds {len} values for {m} measurements"
                )));
            }
        };
        if !d.is_finite() || d < 0.0 {
            return Err(HrirError::NotFinite("Data.Delay"));
        }
        let d = d.round() as usize;
        limit("delay", d, MAX_SOFA_DELAY)?;
        Ok(d)
    };
    let mut max_delay = 0;
    for i in 0..m {
        max_delay = max_delay.max(delay_of(i, 0)?).max(delay_of(i, 1)?);
    }
    let taps = n + max_delay;
    let mut left = vec![0.0f32; m * taps];
    let mut right = vec![0.0f32; m * taps];
    for i in 0..m {
        for (ear, out) in [(0, &mut left), (1, &mut right)] {
            let d = delay_of(i, ear)?;
            let src = &data[(2 * i + ear) * n..(2 * i + ear + 1) * n];
            for (o, &x) in out[i * taps + d..i * taps + d + n].iter_mut().zip(src) {
                *o = x as f32;
            }
        }
    }
    Ok(Raw {
        sample_rate,
        taps,
        directions,
        left,
        right,
    })
}

fn to_usize(x: u64) -> usize {
    usize::try_from(x).unwrap_or(usize::MAX)
}

fn limit(what: &'static str, value: usize, limit: usize) -> Result<(), HrirError> {
    if value > limit {
        Err(HrirError::TooLarge { what, value, limit })
    } else {
        Ok(())
    }
}

fn one_line(e: &impl std::fmt::Debug) -> String {
    let s = format!("{e:?}");
    let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    s.chars().take(200).collect()
}

fn expect_attribute(
    parsed: &ParsedHdf<'_>,
    attribute: &'static str,
    expected: &'static str,
) -> Result<(), HrirError> {
    let found = parsed
        .root
        .parsed_attributes
        .iter()
        .find(|a| a.name == attribute)
        .and_then(|a| a.value.clone())
        .unwrap_or_default();
    if found.trim_end_matches('\0') == expected {
        Ok(())
    } else {
        Err(HrirError::Convention {
            attribute,
            expected,
            found,
        })
    }
}

fn attribute_of<'a>(obj: &'a DataObject, name: &str) -> Option<&'a str> {
    obj.parsed_attributes
        .iter()
        .find(|a| a.name == name)
        .and_then(|a| a.value.as_deref())
}

fn child(parsed: &ParsedHdf<'_>, name: &'static str) -> Result<DataObject, HrirError> {
    match parsed.get_child(name) {
        Some(Ok(obj)) => Ok(obj),
        _ => Err(HrirError::MissingVariable(name)),
    }
}

/// A variable's values as `f64` (IEEE floats of 32 or 64 bits, integers of 32 or 64 bits, either
/// byte order); `None` for anything else.
fn values(obj: &DataObject) -> Option<Vec<f64>> {
    let class = obj.dt.class_and_version & 0x0F;
    let big_endian = obj.dt.class_bit_field & 1 != 0;
    let size = obj.dt.size as usize;
    let data = &obj.data;
    if data.is_empty() || size == 0 || !data.len().is_multiple_of(size) {
        return None;
    }
    let word = |c: &[u8]| -> u64 {
        let mut b = [0u8; 8];
        if big_endian {
            b[8 - c.len()..].copy_from_slice(c);
            u64::from_be_bytes(b)
        } else {
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        }
    };
    match (class, size) {
        (1, 8) | (1, 4) => {
            if let Some(DataFormat::Float { bit_precision, .. }) = obj.dt.data_fmt
                && usize::from(bit_precision) != size * 8
            {
                return None;
            }
            Some(
                data.chunks_exact(size)
                    .map(|c| {
                        let w = word(c);
                        if size == 8 {
                            f64::from_bits(w)
                        } else {
                            f64::from(f32::from_bits(w as u32))
                        }
                    })
                    .collect(),
            )
        }
        (0, 8) => Some(
            data.chunks_exact(8)
                .map(|c| word(c) as i64 as f64)
                .collect(),
        ),
        (0, 4) => Some(
            data.chunks_exact(4)
                .map(|c| f64::from(word(c) as u32 as i32))
                .collect(),
        ),
        _ => None,
    }
}
