//! Echo peaks from the mono envelope (acoustics.md §5, "Offline check"): peaks more than 20 ms
//! after the direct sound, above −40 dB re the direct peak, with peaks closer than 5 ms merged.

/// What counts as an echo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EchoRule {
    /// Peaks earlier than this after the direct peak are ignored, ms.
    pub min_delay_ms: f64,
    /// Threshold re the direct peak, dB (negative).
    pub threshold_db: f64,
    /// Above-threshold samples closer than this belong to one peak, ms.
    pub merge_ms: f64,
}

impl EchoRule {
    /// The spec's rule: > 20 ms, above −40 dB, merged within 5 ms.
    pub const SPEC: EchoRule = EchoRule {
        min_delay_ms: 20.0,
        threshold_db: -40.0,
        merge_ms: 5.0,
    };
}

/// One echo found in a render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EchoPeak {
    /// Delay after the direct peak, ms.
    pub delay_ms: f64,
    /// Peak level re the direct peak, dB.
    pub level_db: f64,
}

/// The echoes of one render.
#[derive(Clone, Debug, PartialEq)]
pub struct Echoes {
    /// Sample index of the direct peak (the first arrival within 6 dB of the largest |x|).
    pub direct_index: usize,
    /// The direct peak's |x|.
    pub direct_peak: f32,
    /// The echoes in order of delay.
    pub peaks: Vec<EchoPeak>,
}

/// Finds the echoes of a mono render. `None` for a silent (or empty) signal.
///
/// The direct sound is the first arrival within 6 dB of the largest |x|: its largest sample
/// within `merge_ms` of the first sample that loud. (A click heard behind a fractional
/// propagation delay is spread over two samples by the read's interpolation, so a strong echo
/// read at another fraction can peak a little higher than the direct sound it follows.)
/// Samples after it by more than `min_delay_ms` whose |x| is above the threshold are grouped,
/// a gap of less than `merge_ms` joining two samples into one group; each group is one echo, at
/// its largest sample.
pub fn find_echoes(mono: &[f32], sample_rate: f32, rule: EchoRule) -> Option<Echoes> {
    let loudest = mono.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if !(loudest > 0.0 && loudest.is_finite()) {
        return None;
    }
    let fs = f64::from(sample_rate);
    let merge = (rule.merge_ms * fs / 1000.0).ceil() as usize;
    let first = mono.iter().position(|v| v.abs() >= 0.5 * loudest)?;
    let (direct_index, direct_peak) = mono[first..(first + merge).min(mono.len())]
        .iter()
        .map(|v| v.abs())
        .enumerate()
        .fold((first, 0.0f32), |best, (i, a)| {
            if a > best.1 { (first + i, a) } else { best }
        });
    let threshold = f64::from(direct_peak) * 10f64.powf(rule.threshold_db / 20.0);
    let start = direct_index + (rule.min_delay_ms * fs / 1000.0).floor() as usize + 1;

    let mut peaks = Vec::new();
    // (last above-threshold index, peak index, peak |x|) of the group being built
    let mut group: Option<(usize, usize, f32)> = None;
    let close = |peak: usize, level: f32, peaks: &mut Vec<EchoPeak>| {
        peaks.push(EchoPeak {
            delay_ms: (peak - direct_index) as f64 * 1000.0 / fs,
            level_db: 20.0 * (f64::from(level) / f64::from(direct_peak)).log10(),
        });
    };
    for (i, v) in mono.iter().enumerate().skip(start) {
        let a = v.abs();
        if f64::from(a) <= threshold {
            continue;
        }
        group = match group {
            Some((last, peak, level)) if i - last < merge => {
                if a > level {
                    Some((i, i, a))
                } else {
                    Some((i, peak, level))
                }
            }
            Some((_, peak, level)) => {
                close(peak, level, &mut peaks);
                Some((i, i, a))
            }
            None => Some((i, i, a)),
        };
    }
    if let Some((_, peak, level)) = group {
        close(peak, level, &mut peaks);
    }
    Some(Echoes {
        direct_index,
        direct_peak,
        peaks,
    })
}

/// The envelope for an echogram: the largest |x| in each bin of `bin_ms`, in dB re the direct
/// peak (−∞ for a silent bin), as (time after the direct peak in ms, dB) pairs.
pub fn envelope_db(
    mono: &[f32],
    sample_rate: f32,
    echoes: &Echoes,
    bin_ms: f64,
) -> Vec<(f64, f64)> {
    let fs = f64::from(sample_rate);
    let bin = ((bin_ms * fs / 1000.0).round() as usize).max(1);
    let reference = f64::from(echoes.direct_peak);
    mono.get(echoes.direct_index..)
        .unwrap_or_default()
        .chunks(bin)
        .enumerate()
        .map(|(k, chunk)| {
            let m = chunk.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            (
                (k * bin) as f64 * 1000.0 / fs,
                20.0 * (f64::from(m) / reference).log10(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests;
