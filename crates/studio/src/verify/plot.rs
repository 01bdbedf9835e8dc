//! The report's pictures, drawn with `plotters` (bitmap backend, text in the embedded font of
//! [`crate::font`]): band spectra (wall vs open), echograms with the expected arrivals marked, and
//! energy-decay curves with the T30 line.

use std::path::Path;

use anyhow::anyhow;
use plotters::prelude::*;

use super::echo::EchoPeak;
use super::spectrum::{BAND_EDGES_HZ, SpectrumPoint};

/// Picture size in pixels.
const SIZE: (u32, u32) = (1100, 650);
/// The one font family; fontconfig picks the machine's sans-serif (DejaVu Sans here).
const FONT: &str = crate::font::FAMILY;

/// Series colours, in order (distinct on white and for common colour blindness).
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing a plot failed: {e}")
}

fn legend_line(c: RGBColor) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(3))
}

/// One named curve of a spectrum plot.
pub struct SpectrumSeries<'a> {
    /// Legend text.
    pub label: String,
    /// The smoothed spectrum.
    pub points: &'a [SpectrumPoint],
}

/// Band spectra: level in dB against log frequency, one curve per render (the first, the
/// reference, wide underneath the others), the band edges of the check drawn as dashed lines.
pub fn spectra(
    path: &Path,
    title: &str,
    series: &[SpectrumSeries<'_>],
    nyquist_hz: f64,
) -> anyhow::Result<()> {
    crate::font::ensure();
    let all = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.level_db));
    let top = all.clone().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return Err(anyhow!("no spectrum to plot for {title}"));
    }
    let top = (top / 10.0).ceil() * 10.0 + 5.0;
    let bottom = top - 125.0;
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FONT, 26))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(75)
        .build_cartesian_2d((20f64..nyquist_hz).log_scale(), bottom..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("frequency (Hz)")
        .y_desc("level (dB, 1/6-octave mean)")
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 19))
        .x_label_formatter(&|f| format!("{f:.0}"))
        .draw()
        .map_err(err)?;
    for &edge in &BAND_EDGES_HZ {
        chart
            .draw_series(DashedLineSeries::new(
                [(edge, bottom), (edge, top)],
                6,
                6,
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(err)?;
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            Vec::<(f64, f64)>::new(),
            BLACK,
        )))
        .map_err(err)?
        .label("band edges 300 / 1500 / 5000 Hz")
        .legend(|(x, y)| {
            PathElement::new(
                vec![(x, y), (x + 8, y), (x + 14, y), (x + 24, y)],
                BLACK.mix(0.5),
            )
        });
    for (i, s) in series.iter().enumerate() {
        let c = colour(i);
        // the reference (first) is drawn wide underneath, so a curve equal to it stays visible
        let width = if i == 0 { 6 } else { 2 };
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|p| (p.freq_hz, p.level_db.max(bottom))),
                c.stroke_width(width),
            ))
            .map_err(err)?
            .label(s.label.clone())
            .legend(legend_line(c));
    }
    chart
        .configure_series_labels()
        .label_font((FONT, 17))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerLeft)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

/// An echogram: the envelope in dB re the direct peak against time after it, the −40 dB
/// threshold and 20 ms limit, the expected arrivals (dashed) and the echoes found (dots).
pub fn echogram(
    path: &Path,
    title: &str,
    envelope: &[(f64, f64)],
    expected_ms: &[f64],
    found: &[EchoPeak],
    threshold_db: f64,
    min_delay_ms: f64,
) -> anyhow::Result<()> {
    crate::font::ensure();
    let last = envelope.last().map_or(100.0, |p| p.0);
    let span = (expected_ms
        .iter()
        .copied()
        .chain(found.iter().map(|p| p.delay_ms))
        .fold(100.0f64, f64::max)
        * 1.25)
        .min(last.max(100.0));
    let (bottom, top) = (-80.0, 5.0);
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FONT, 26))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(75)
        .build_cartesian_2d(-5.0..span, bottom..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("time after the direct peak (ms)")
        .y_desc("envelope (dB re direct peak)")
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 19))
        .draw()
        .map_err(err)?;
    let env = envelope
        .iter()
        .filter(|p| p.0 <= span)
        .map(|&(t, db)| (t, db.max(bottom)));
    chart
        .draw_series(LineSeries::new(env, colour(0).stroke_width(1)))
        .map_err(err)?
        .label("mono envelope (0.25 ms max |x|)")
        .legend(legend_line(colour(0)));
    let grey = RGBColor(120, 120, 120);
    chart
        .draw_series(LineSeries::new(
            [(min_delay_ms, threshold_db), (span, threshold_db)],
            grey.stroke_width(2),
        ))
        .map_err(err)?
        .label(format!(
            "echo threshold {threshold_db:.0} dB after {min_delay_ms:.0} ms"
        ))
        .legend(legend_line(grey));
    let red = colour(1);
    for (i, &t) in expected_ms.iter().enumerate() {
        let series = chart
            .draw_series(DashedLineSeries::new(
                [(t, bottom), (t, top)],
                8,
                5,
                red.stroke_width(2),
            ))
            .map_err(err)?;
        if i == 0 {
            series.label("expected arrival").legend(legend_line(red));
        }
    }
    let green = colour(2);
    chart
        .draw_series(
            found
                .iter()
                .map(|p| Circle::new((p.delay_ms, p.level_db), 6, green.filled())),
        )
        .map_err(err)?
        .label("echo found")
        .legend(move |(x, y)| Circle::new((x + 12, y), 6, green.filled()));
    chart
        .configure_series_labels()
        .label_font((FONT, 17))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

/// An energy-decay curve with its T30 reading.
pub struct DecayCurve<'a> {
    /// Legend text for the curve.
    pub label: String,
    /// (time after the tail start in s, EDC in dB).
    pub points: &'a [(f64, f64)],
    /// The −5 dB and −35 dB crossing times, s, when the curve reaches both.
    pub t30: Option<(f64, f64)>,
}

/// Energy-decay curves (Schroeder backward integration, dB) against time, each with the T30
/// line through its −5 dB and −35 dB crossings extended to −60 dB.
pub fn decay(path: &Path, title: &str, curves: &[DecayCurve<'_>]) -> anyhow::Result<()> {
    crate::font::ensure();
    let span = curves
        .iter()
        .filter_map(|c| {
            c.t30
                .map(|(t5, t35)| t5 + 2.0 * (t35 - t5) * 55.0 / 60.0 + 0.05)
        })
        .chain(
            curves
                .iter()
                .filter_map(|c| c.points.last().map(|p| p.0.min(0.5))),
        )
        .fold(0.1f64, f64::max);
    let (bottom, top) = (-70.0, 3.0);
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FONT, 26))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(75)
        .build_cartesian_2d(0.0..span, bottom..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("time after the tail start (s)")
        .y_desc("energy decay (dB re tail energy)")
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 19))
        .draw()
        .map_err(err)?;
    let grey = RGBColor(150, 150, 150);
    for level in [-5.0, -35.0] {
        let series = chart
            .draw_series(DashedLineSeries::new(
                [(0.0, level), (span, level)],
                4,
                6,
                grey.stroke_width(1),
            ))
            .map_err(err)?;
        if level == -5.0 {
            series
                .label("−5 / −35 dB: the T30 range")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], grey));
        }
    }
    for (i, c) in curves.iter().enumerate() {
        let col = colour(i);
        // the curve ends where it leaves the picture (below the floor or past the span)
        let pts = c
            .points
            .iter()
            .take_while(|p| p.0 <= span && p.1 >= bottom)
            .copied();
        chart
            .draw_series(LineSeries::new(pts, col.stroke_width(2)))
            .map_err(err)?
            .label(c.label.clone())
            .legend(legend_line(col));
        if let Some((t5, t35)) = c.t30 {
            let slope = -30.0 / (t35 - t5).max(1e-9);
            let t60 = t5 + (-60.0 - -5.0) / slope;
            chart
                .draw_series(DashedLineSeries::new(
                    [(t5 - 5.0 / -slope, 0.0), (t60, -60.0)],
                    10,
                    6,
                    col.mix(0.8).stroke_width(2),
                ))
                .map_err(err)?
                .label(format!("T30 line, RT60 {:.2} s", 2.0 * (t35 - t5)))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 10, y)], col.stroke_width(2))
                });
        }
    }
    chart
        .configure_series_labels()
        .label_font((FONT, 17))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests;
