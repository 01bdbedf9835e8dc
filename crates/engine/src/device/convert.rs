//! f32 → device sample format, stereo → device channel layout (allocation-free).

/// Converts one sample to signed 16 bit: clamped to ±1, scaled by 32 767, rounded to nearest.
#[inline]
pub fn f32_to_i16(x: f32) -> i16 {
    // NaN clamps to NaN and casts to 0; the mixer never produces it.
    (x.clamp(-1.0, 1.0) * 32_767.0).round() as i16
}

/// Converts one sample to unsigned 16 bit: [`f32_to_i16`] offset by 32 768.
#[inline]
pub fn f32_to_u16(x: f32) -> u16 {
    (i32::from(f32_to_i16(x)) + 32_768) as u16
}

/// A device sample type the callback writes.
pub(crate) trait DeviceSample: Copy {
    /// The sample value of silence.
    const SILENCE: Self;
    /// Converts from f32 (full scale ±1).
    fn from_f32(x: f32) -> Self;
}

impl DeviceSample for f32 {
    const SILENCE: Self = 0.0;
    #[inline]
    fn from_f32(x: f32) -> Self {
        x
    }
}

impl DeviceSample for i16 {
    const SILENCE: Self = 0;
    #[inline]
    fn from_f32(x: f32) -> Self {
        f32_to_i16(x)
    }
}

impl DeviceSample for u16 {
    const SILENCE: Self = 32_768;
    #[inline]
    fn from_f32(x: f32) -> Self {
        f32_to_u16(x)
    }
}

/// Writes the stereo frames of `stereo` into `out` (`channels` per frame, same frame count):
/// one channel gets the mean of left and right, two get left and right, more get left and
/// right in the first two and silence in the rest.
#[inline]
pub(crate) fn write_frames<T: DeviceSample>(stereo: &[f32], out: &mut [T], channels: usize) {
    match channels {
        0 => {}
        1 => {
            for (o, f) in out.iter_mut().zip(stereo.chunks_exact(2)) {
                *o = T::from_f32(0.5 * (f[0] + f[1]));
            }
        }
        2 => {
            for (o, s) in out.iter_mut().zip(stereo) {
                *o = T::from_f32(*s);
            }
        }
        _ => {
            for (o, f) in out.chunks_exact_mut(channels).zip(stereo.chunks_exact(2)) {
                o[0] = T::from_f32(f[0]);
                o[1] = T::from_f32(f[1]);
                o[2..].fill(T::SILENCE);
            }
        }
    }
}
