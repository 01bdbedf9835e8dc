//! The default HRIR set (feature `hrtf-default`): IRCAM LISTEN subject 1040, as shipped by the
//! `firewheel-ircam-hrtf` crate.
//!
//! **Source.** The LISTEN HRTF database of IRCAM (Institut de Recherche et Coordination
//! Acoustique/Musique, Paris), subject IRC_1040, compensated (diffuse-field equalised)
//! responses: 187 directions (elevations −45° to +90° in 15° rings, azimuth step 15° up to
//! 30°/60° near the pole, and the pole), measured at 44.1 kHz, here 512 taps long. The
//! `firewheel-ircam-hrtf` 0.5 crate (MIT OR Apache-2.0 code) ships it as `irc_1040_c.bin`,
//! an "HRIR sphere" file made by `hrir_sphere_builder` (Fyrox's `hrtf` crate format).
//!
//! **Terms of the data** (IRCAM's, not the crate's): "Copyright (c) 2014 - 2017 IRCAM. All
//! Rights Reserved. [...] IRCAM hereby grants users permission to use materials available
//! therein for any purpose - educational, research or commercial. However, each reproduction
//! of any part of the materials must include the copyright notice, if it is present. [...] If
//! these materials are used in the development of commercial products, IRCAM requests that
//! written acknowledgment of such use be sent to: IRCAM - 1, place Stravinsky 75004 PARIS
//! FRANCE." (the `License` attribute of IRCAM's SOFA files of the LISTEN set). A binary that
//! embeds this set must carry that copyright notice.

use super::error::HrirError;
use super::set::HrirSet;

/// The copyright notice that must travel with any copy of the default set.
pub const IRCAM_NOTICE: &str = "LISTEN HRTF database, subject IRC_1040: Copyright (c) 2014 - 2017 IRCAM. All Rights Reserved. Used under IRCAM's permission for any purpose (educational, research or commercial).";

impl HrirSet {
    /// IRCAM LISTEN subject 1040 (187 directions, 512 taps at 44.1 kHz) resampled to
    /// `mix_rate`. Source and terms: [`super::ircam`].
    pub fn ircam_1040(mix_rate: f32) -> Result<Self, HrirError> {
        let bytes: &[u8] = firewheel_ircam_hrtf::Subject::Irc1040.as_ref();
        parse_sphere(bytes)?.resampled(mix_rate)
    }
}

/// Reads an "HRIR sphere" file: `HRIR`, then little-endian u32 sample rate, taps, vertex
/// count, index count, the triangle indices (unused: we interpolate over elevation rings),
/// then per vertex x, y, z (head coordinates: x right, y up, −z forward) and the left and
/// right responses as f32.
pub(crate) fn parse_sphere(bytes: &[u8]) -> Result<HrirSet, HrirError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(4)? != b"HRIR" {
        return Err(HrirError::Parse("not an HRIR sphere (magic)".into()));
    }
    let rate = r.u32()?;
    let taps = r.u32()? as usize;
    let vertices = r.u32()? as usize;
    let indices = r.u32()? as usize;
    r.take(indices.saturating_mul(4))?;
    let mut dirs = Vec::new();
    let mut left = Vec::new();
    let mut right = Vec::new();
    for _ in 0..vertices {
        dirs.push([r.f32()?, r.f32()?, r.f32()?]);
        for _ in 0..taps {
            left.push(r.f32()?);
        }
        for _ in 0..taps {
            right.push(r.f32()?);
        }
    }
    HrirSet::new(rate as f32, taps, &dirs, &left, &right)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], HrirError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| HrirError::Parse("HRIR sphere is truncated".into()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, HrirError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn f32(&mut self) -> Result<f32, HrirError> {
        Ok(f32::from_bits(self.u32()?))
    }
}

/// The raw "HRIR sphere" bytes of subject 1040 (for tools that read that format).
pub fn sphere_bytes() -> &'static [u8] {
    firewheel_ircam_hrtf::Subject::Irc1040.as_ref()
}
