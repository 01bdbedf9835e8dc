//! The tour's picture (plotters, bitmap back end, text in the embedded font of [`crate::font`]): a
//! top-down map of the terrain (height shading and contours, the ridge and the valley named,
//! water, the placed structures) with the walk, the ambient sound positions and the scripted
//! event points, its legend beside it; below, on one time axis, the render's spectrogram, each
//! event as the acoustics applied it (high-band gain, echo taps), the listener's own space
//! (enclosure, decay) and the live voices, with the tour's stages named on it.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::script::{EVENTS, FIRST_BLOCK, PATH, STAGES, STRUCTURES};
use super::{Sample, TourReport};
use resound_engine::terrain::axes::BLOCK_METRES;

/// Picture size in pixels.
pub const SIZE: (u32, u32) = (1400, 2050);
const FONT: &str = crate::font::FAMILY;
/// The map's window in area metres (east, north).
const MAP_X: (f64, f64) = (180.0, 700.0);
const MAP_Y: (f64, f64) = (250.0, 560.0);

const PATH_C: RGBColor = RGBColor(213, 94, 0);
const EVENT_C: RGBColor = RGBColor(200, 0, 40);
const AMBIENT_C: RGBColor = RGBColor(0, 114, 178);
const STONE_C: RGBColor = RGBColor(70, 70, 78);
const WATER_C: RGBColor = RGBColor(120, 170, 225);

/// Why the picture could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("drawing the tour picture failed: {0}")]
pub struct PlotError(String);

fn err<E: std::fmt::Display>(e: E) -> PlotError {
    PlotError(e.to_string())
}

/// Land colour for a height between `lo` and `hi` (green lowland to brown-grey upland).
fn land(h: f64, lo: f64, hi: f64) -> RGBColor {
    let f = ((h - lo) / (hi - lo).max(1.0)).clamp(0.0, 1.0);
    let a = (176.0, 206.0, 150.0);
    let b = (150.0, 125.0, 100.0);
    let c = (235.0, 235.0, 235.0);
    let (p, q, t) = if f < 0.6 {
        (a, b, f / 0.6)
    } else {
        (b, c, (f - 0.6) / 0.4)
    };
    let mix = |x: f64, y: f64| (x + (y - x) * t) as u8;
    RGBColor(mix(p.0, q.0), mix(p.1, q.1), mix(p.2, q.2))
}

/// Draws `report` to `path` (PNG).
///
/// # Errors
/// [`PlotError`] when the file cannot be written or no font is found.
pub fn draw(path: &Path, report: &TourReport) -> Result<(), PlotError> {
    crate::font::ensure();
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let title = format!(
        "Resound demo tour — {} ({:.0} s, seed {})",
        if report.settings.retail {
            "retail output: 16 voices, no acoustics".to_owned()
        } else {
            format!(
                "modern voices, acoustics {}",
                resound_engine::advanced::acoustics::scene::mode_name(report.settings.mode)
            )
        },
        report.seconds(),
        report.settings.seed
    );
    let root = root.titled(&title, (FONT, 30)).map_err(err)?;
    let (top, bottom) = root.split_vertically(820);
    let (map_area, legend_area) = top.split_horizontally(1020);
    let entries = map(&map_area, report)?;
    legend(&legend_area, &entries)?;
    timeline(&bottom, report)?;
    root.present().map_err(err)?;
    Ok(())
}

/// How a legend entry is drawn.
#[derive(Debug, Clone, Copy)]
enum Swatch {
    Square(RGBColor),
    Dot(RGBColor),
    Ring(RGBColor),
    Line(RGBColor, u32),
    Triangle(RGBColor),
}

/// The map's legend, drawn beside it (nothing covers the map).
fn legend(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    entries: &[(Swatch, String)],
) -> Result<(), PlotError> {
    let mut y = 70;
    area.draw(&Text::new("Legend", (10, 40), (FONT, 19)))
        .map_err(err)?;
    for (swatch, label) in entries {
        let (x, cy) = (18, y + 9);
        match *swatch {
            Swatch::Square(c) => {
                area.draw(&Rectangle::new([(x, cy - 7), (x + 18, cy + 7)], c.filled()))
            }
            Swatch::Dot(c) => area.draw(&Circle::new((x + 9, cy), 4, c.filled())),
            Swatch::Ring(c) => area.draw(&Circle::new((x + 9, cy), 6, c.stroke_width(2))),
            Swatch::Line(c, w) => area.draw(&PathElement::new(
                vec![(x, cy), (x + 18, cy)],
                c.stroke_width(w),
            )),
            Swatch::Triangle(c) => area.draw(&TriangleMarker::new((x + 9, cy), 7, c.filled())),
        }
        .map_err(err)?;
        for line in wrap(label, 36) {
            area.draw(&Text::new(line, (x + 28, y), (FONT, 15)))
                .map_err(err)?;
            y += 19;
        }
        y += 10;
    }
    Ok(())
}

/// `text` broken at spaces into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A round contour interval giving at least twelve lines over `span` metres.
fn contour_step(span: f64) -> f64 {
    let raw = (span / 12.0).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    [5.0, 2.0, 1.0]
        .iter()
        .map(|m| m * mag)
        .find(|&s| s <= raw)
        .unwrap_or(mag)
}

fn map(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    report: &TourReport,
) -> Result<Vec<(Swatch, String)>, PlotError> {
    let mut entries = Vec::new();
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Map: terrain height (shaded), water, stone structures, the walk and its sounds",
            (FONT, 22),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(MAP_X.0..MAP_X.1, MAP_Y.0..MAP_Y.1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(format!(
            "east of landblock 0x{:02X}{:02X}'s SW corner (m)",
            FIRST_BLOCK.0, FIRST_BLOCK.1
        ))
        .y_desc("north (m)")
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 17))
        .draw()
        .map_err(err)?;
    let g = report.grid / 2.0;
    let inside = |c: &&super::MapCell| {
        c.xy.x + g >= MAP_X.0
            && c.xy.x - g <= MAP_X.1
            && c.xy.y + g >= MAP_Y.0
            && c.xy.y - g <= MAP_Y.1
    };
    let (lo, hi) = report
        .heights
        .iter()
        .filter(inside)
        .fold((f64::MAX, f64::MIN), |(lo, hi), c| {
            (lo.min(c.height), hi.max(c.height))
        });
    // Hill shading: light from the north-west, from the neighbouring squares' heights.
    let n = (report.heights.len() as f64).sqrt().round() as usize;
    let at = |ix: usize, iy: usize| {
        report
            .heights
            .get(iy.min(n - 1) * n + ix.min(n - 1))
            .map_or(0.0, |c| c.height)
    };
    let shade = |c: &super::MapCell| {
        let ix = (c.xy.x / report.grid) as usize;
        let iy = (c.xy.y / report.grid) as usize;
        let dx = at(ix + 1, iy) - at(ix.saturating_sub(1), iy);
        let dy = at(ix, iy + 1) - at(ix, iy.saturating_sub(1));
        (1.0 + (dy - dx) / (4.0 * report.grid)).clamp(0.6, 1.3)
    };
    chart
        .draw_series(report.heights.iter().filter(inside).map(|c| {
            let colour = if c.water {
                WATER_C
            } else {
                let RGBColor(r, gg, b) = land(c.height, lo, hi);
                let k = shade(c);
                let f = |v: u8| (f64::from(v) * k).min(255.0) as u8;
                RGBColor(f(r), f(gg), f(b))
            };
            Rectangle::new(
                [(c.xy.x - g, c.xy.y - g), (c.xy.x + g, c.xy.y + g)],
                colour.filled(),
            )
        }))
        .map_err(err)?;
    entries.push((Swatch::Square(WATER_C), "water".to_owned()));
    entries.push((
        Swatch::Square(land(lo, lo, hi)),
        format!(
            "land, hill-shaded: green {lo:.0} m … brown {:.0} m … white {hi:.0} m",
            lo + 0.6 * (hi - lo)
        ),
    ));
    // Contours: an edge between two squares whose heights fall in different bands.
    let step = contour_step(hi - lo);
    let band = |h: f64| (h / step).floor() as i64;
    let mut edges = Vec::new();
    for iy in 0..n {
        for ix in 0..n {
            let Some(c) = report.heights.get(iy * n + ix) else {
                continue;
            };
            if c.water || !inside(&c) {
                continue;
            }
            let (x, y) = (c.xy.x, c.xy.y);
            if let Some(e) = report.heights.get(iy * n + ix + 1).filter(|_| ix + 1 < n)
                && !e.water
                && band(e.height) != band(c.height)
            {
                edges.push(vec![(x + g, y - g), (x + g, y + g)]);
            }
            if let Some(e) = report.heights.get((iy + 1) * n + ix)
                && !e.water
                && band(e.height) != band(c.height)
            {
                edges.push(vec![(x - g, y + g), (x + g, y + g)]);
            }
        }
    }
    let contour_c = RGBColor(60, 45, 30);
    chart
        .draw_series(
            edges
                .into_iter()
                .map(|e| PathElement::new(e, contour_c.mix(0.55).stroke_width(1))),
        )
        .map_err(err)?;
    entries.push((
        Swatch::Line(contour_c, 1),
        format!("contours every {step:.0} m of terrain height"),
    ));
    // The ridge and the valley: the highest and the lowest dry ground in the window's middle
    // band of rows (a label at its top or bottom edge would be cut), each label turned
    // towards the map's centre.
    let my = (MAP_Y.1 - MAP_Y.0) * 0.15;
    let dry = report.heights.iter().filter(|c| {
        !c.water
            && c.xy.x > MAP_X.0
            && c.xy.x < MAP_X.1
            && c.xy.y > MAP_Y.0 + my
            && c.xy.y < MAP_Y.1 - my
    });
    let top = dry.clone().max_by(|a, b| a.height.total_cmp(&b.height));
    let bottom = dry.min_by(|a, b| a.height.total_cmp(&b.height));
    for (name, cell) in [("ridge", top), ("valley", bottom)] {
        let Some(c) = cell else { continue };
        let left = c.xy.x > 0.5 * (MAP_X.0 + MAP_X.1);
        let (x0, x1) = if left { (-128, -6) } else { (6, 128) };
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((c.xy.x, c.xy.y))
                    + Circle::new((0, 0), 5, BLACK.filled())
                    + Rectangle::new([(x0, -11), (x1, 11)], WHITE.mix(0.85).filled())
                    + Text::new(
                        format!("{name} {:.0} m", c.height),
                        (x0 + 4, -8),
                        (FONT, 16).into_font().color(&BLACK),
                    ),
            ))
            .map_err(err)?;
    }
    let stone = STRUCTURES.iter().filter(|s| !s.name.is_empty());
    chart
        .draw_series(
            stone.clone().map(|s| {
                Rectangle::new([(s.min.x, s.min.y), (s.max.x, s.max.y)], STONE_C.filled())
            }),
        )
        .map_err(err)?;
    entries.push((
        Swatch::Square(STONE_C),
        format!(
            "stone structures (floor {:.0} m): gorge walls, tunnel, hall",
            report.floor
        ),
    ));
    // The tunnel's bore and the hall's inside, lighter.
    chart
        .draw_series(
            STRUCTURES
                .iter()
                .skip(2)
                .filter(|s| s.name.is_empty())
                .map(|s| {
                    Rectangle::new(
                        [(s.min.x, s.min.y), (s.max.x, s.max.y)],
                        RGBColor(190, 190, 195).filled(),
                    )
                }),
        )
        .map_err(err)?;
    for (name, x, y) in [
        ("gorge", 420.0, 350.0),
        ("tunnel", 500.0, 350.0),
        ("hall", 547.0, 356.0),
    ] {
        chart
            .draw_series(std::iter::once(Text::new(
                name,
                (x, y),
                (FONT, 16)
                    .into_font()
                    .color(&BLACK)
                    .pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Bottom,
                    )),
            )))
            .map_err(err)?;
    }
    let ambient: Vec<(f64, f64)> = report
        .ambient
        .iter()
        .filter_map(|m| m.position)
        .map(|v| {
            (
                v.x - f64::from(FIRST_BLOCK.0) * BLOCK_METRES,
                -v.z - f64::from(FIRST_BLOCK.1) * BLOCK_METRES,
            )
        })
        .collect();
    chart
        .draw_series(
            ambient
                .iter()
                .map(|&p| Circle::new(p, 3, AMBIENT_C.mix(0.6).filled())),
        )
        .map_err(err)?;
    entries.push((
        Swatch::Dot(AMBIENT_C),
        format!(
            "ambient sounds placed in the world ({} plays)",
            ambient.len()
        ),
    ));
    let beds: Vec<(f64, f64)> = report
        .ambient
        .iter()
        .filter(|m| m.position.is_none())
        .map(|m| (m.listener.x, m.listener.y))
        .collect();
    chart
        .draw_series(
            beds.iter()
                .map(|&p| Circle::new(p, 6, AMBIENT_C.stroke_width(2))),
        )
        .map_err(err)?;
    entries.push((
        Swatch::Ring(AMBIENT_C),
        format!(
            "ambient beds started, centred on the listener ({} plays)",
            beds.len()
        ),
    ));
    let walk: Vec<(f64, f64)> = report.timeline.iter().map(|s| (s.xy.x, s.xy.y)).collect();
    chart
        .draw_series(LineSeries::new(walk, PATH_C.stroke_width(3)))
        .map_err(err)?;
    entries.push((
        Swatch::Line(PATH_C, 3),
        "the listener's walk (start ●)".to_owned(),
    ));
    chart
        .draw_series(std::iter::once(Circle::new(
            (PATH[0].xy.x, PATH[0].xy.y),
            7,
            PATH_C.filled(),
        )))
        .map_err(err)?;
    chart
        .draw_series(EVENTS.iter().enumerate().map(|(i, e)| {
            let n = format!("{}", i + 1);
            EmptyElement::at((e.xy.x, e.xy.y))
                + TriangleMarker::new((0, 0), 8, EVENT_C.filled())
                + Rectangle::new([(7, -21), (20, -3)], WHITE.mix(0.85).filled())
                + Text::new(n, (9, -20), (FONT, 16).into_font().color(&EVENT_C))
        }))
        .map_err(err)?;
    entries.push((
        Swatch::Triangle(EVENT_C),
        format!(
            "scripted events 1–{}: claps, shots, the engine's start (it drives west)",
            EVENTS.len()
        ),
    ));
    Ok(entries)
}

type Series = fn(&Sample) -> Option<f64>;
type PerEvent = fn(&super::applied::EventAcoustics) -> f64;

/// What a timeline panel plots.
#[derive(Clone, Copy)]
enum Values {
    /// A line through the timeline's samples (the listener's own state).
    Line(Series),
    /// One mark per fired event at its time: its own value, as applied to its voice.
    PerEvent(PerEvent),
}

/// Spectrogram colour for `f` in 0..1 (black, purple, red, orange, pale yellow).
fn heat(f: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 5] = [
        (0.0, 0.0, 4.0),
        (87.0, 16.0, 110.0),
        (188.0, 55.0, 84.0),
        (249.0, 142.0, 9.0),
        (252.0, 255.0, 164.0),
    ];
    let x = f.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let k = (x.floor() as usize).min(STOPS.len() - 2);
    let t = x - k as f64;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * t).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The render's spectrogram on the shared time axis (log frequency, dB colour over the
/// loudest 80 dB); gives the line saying how to read it.
fn spectrogram(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    report: &TourReport,
    end: f64,
) -> Result<String, PlotError> {
    use super::spectrogram::{BANDS, COLUMN_S, LOW_HZ, band_edges_hz};
    let spec = &report.spectrogram;
    let high = spec.high_hz();
    let mut chart = ChartBuilder::on(area)
        .margin_left(12)
        .margin_right(24)
        .margin_top(4)
        .x_label_area_size(6)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..end, (LOW_HZ..high).log_scale())
        .map_err(err)?;
    let columns = spec.columns();
    let top = columns
        .iter()
        .flatten()
        .fold(f32::MIN, |m, &v| m.max(v))
        .max(-40.0);
    let span = 80.0;
    let floor = f64::from(top) - span;
    chart
        .draw_series(columns.iter().enumerate().flat_map(|(i, col)| {
            let (t0, t1) = (i as f64 * COLUMN_S, (i + 1) as f64 * COLUMN_S);
            col.iter().enumerate().map(move |(k, &v)| {
                let (f0, f1) = band_edges_hz(k, high);
                let colour = heat((f64::from(v) - floor) / span);
                Rectangle::new([(t0, f0), (t1.min(end), f1)], colour.filled())
            })
        }))
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .y_desc("spectrogram (Hz)")
        .y_label_formatter(&|v: &f64| {
            if *v >= 1000.0 {
                format!("{:.0}k", v / 1000.0)
            } else {
                format!("{v:.0}")
            }
        })
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .x_labels(0)
        .draw()
        .map_err(err)?;
    for st in STAGES {
        let t = st.from * end;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(t, LOW_HZ), (t, high)],
                WHITE.mix(0.5),
            )))
            .map_err(err)?;
    }
    Ok(format!(
        "spectrogram: {BANDS} bands, one column per {:.0} ms; colour black {floor:.0} dB … pale yellow {top:.0} dB (a full-scale sine: 0 dB)",
        COLUMN_S * 1e3
    ))
}

fn timeline(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    report: &TourReport,
) -> Result<(), PlotError> {
    let panels: [(&str, Values, (f64, f64), RGBColor); 5] = [
        (
            "event's high band (dB)",
            Values::PerEvent(|a| a.hf_db.max(-60.0)),
            (-65.0, 25.0),
            RGBColor(0, 114, 178),
        ),
        (
            "event's echo taps",
            Values::PerEvent(|a| a.taps.len() as f64),
            (0.0, 7.0),
            RGBColor(213, 94, 0),
        ),
        (
            "your enclosure (0–1)",
            Values::Line(|s| s.enclosure),
            (0.0, 1.05),
            RGBColor(0, 158, 115),
        ),
        (
            "your room's T60 (s)",
            Values::Line(|s| s.decay.map(f64::from)),
            (0.0, 4.0),
            RGBColor(204, 121, 167),
        ),
        (
            "live voices",
            Values::Line(|s| Some(s.voices as f64)),
            (0.0, 40.0),
            RGBColor(80, 80, 80),
        ),
    ];
    let end = report.seconds().max(1.0);
    let voices_top = (report.max_voices as f64 * 1.2).max(18.0);
    let (caption, rest) = area.split_vertically(60);
    caption
        .draw(&Text::new(
            "Timeline: the render's spectrogram; each event as the acoustics applied it to its voice; \
             the listener's own space",
            (90, 8),
            (FONT, 20),
        ))
        .map_err(err)?;
    let (spec_area, rest) = rest.split_vertically(330);
    let note = spectrogram(&spec_area, report, end)?;
    caption
        .draw(&Text::new(note, (90, 36), (FONT, 15)))
        .map_err(err)?;
    let rows = rest.split_evenly((panels.len(), 1));
    for (k, ((name, values, range, colour), row)) in panels.iter().zip(rows.iter()).enumerate() {
        let last = k + 1 == panels.len();
        let range = if last { (0.0, voices_top) } else { *range };
        let mut chart = ChartBuilder::on(row)
            .margin_left(12)
            .margin_right(24)
            .margin_top(4)
            .x_label_area_size(if last { 45 } else { 6 })
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..end, range.0..range.1)
            .map_err(err)?;
        // Counts (echo taps, voices) and dB on whole-number ticks; enclosure and decay with
        // one decimal.
        let whole = |v: &f64| format!("{v:.0}");
        let decimal = |v: &f64| format!("{v:.1}");
        let mut mesh = chart.configure_mesh();
        if k == 2 || k == 3 {
            mesh.y_label_formatter(&decimal);
        } else {
            mesh.y_label_formatter(&whole);
        }
        mesh.y_desc(*name)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 15))
            .y_labels(4)
            .light_line_style(WHITE.mix(0.0));
        if last {
            mesh.x_desc("time (s)");
        } else {
            mesh.x_labels(0);
        }
        mesh.draw().map_err(err)?;
        for st in STAGES {
            let t = st.from * end;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(t, range.0), (t, range.1)],
                    BLACK.mix(0.35),
                )))
                .map_err(err)?;
            if k == 0 {
                chart
                    .draw_series(std::iter::once(Text::new(
                        st.name,
                        (t + end * 0.005, range.1 - (range.1 - range.0) * 0.04),
                        (FONT, 15),
                    )))
                    .map_err(err)?;
            }
        }
        match *values {
            Values::PerEvent(value) => {
                // A stem from the panel's floor to each event's own value, numbered.
                for f in &report.fired {
                    let Some(a) = &f.acoustics else { continue };
                    let v = value(a).clamp(range.0, range.1);
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![(f.time, range.0), (f.time, v)],
                            colour.mix(0.6).stroke_width(2),
                        )))
                        .map_err(err)?;
                    chart
                        .draw_series(std::iter::once(
                            EmptyElement::at((f.time, v))
                                + Circle::new((0, 0), 5, colour.filled())
                                + Text::new(
                                    format!("{}", f.index + 1),
                                    (6, -16),
                                    (FONT, 13).into_font().color(&EVENT_C),
                                ),
                        ))
                        .map_err(err)?;
                }
            }
            Values::Line(value) => {
                // Contiguous runs only: a gap where the value is absent.
                let mut run: Vec<(f64, f64)> = Vec::new();
                let mut runs = Vec::new();
                for s in &report.timeline {
                    match value(s) {
                        Some(v) => run.push((s.time, v.clamp(range.0, range.1))),
                        None if !run.is_empty() => runs.push(std::mem::take(&mut run)),
                        None => {}
                    }
                }
                if !run.is_empty() {
                    runs.push(run);
                }
                for r in runs {
                    chart
                        .draw_series(LineSeries::new(r, colour.stroke_width(2)))
                        .map_err(err)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_lines_break_at_spaces_within_the_width() {
        let lines = wrap(
            "stone structures (floor 70 m): gorge walls, tunnel, hall",
            36,
        );
        assert_eq!(
            lines,
            [
                "stone structures (floor 70 m): gorge",
                "walls, tunnel, hall"
            ]
        );
        assert_eq!(wrap("water", 36), ["water"]);
        assert!(wrap("", 36).is_empty());
    }

    #[test]
    fn contours_are_round_and_at_least_twelve() {
        assert_eq!(contour_step(177.0), 10.0);
        assert_eq!(contour_step(600.0), 50.0);
        assert_eq!(contour_step(30.0), 2.0);
        assert_eq!(contour_step(3.0), 1.0);
        for span in [13.0, 40.0, 177.0, 900.0] {
            assert!(span / contour_step(span) >= 12.0, "{span}");
        }
    }

    #[test]
    fn a_short_tour_is_drawn_at_the_picture_size() {
        let dir = tempfile::tempdir().unwrap();
        resound_fixture::write_world().write_to(dir.path()).unwrap();
        let settings = super::super::TourSettings {
            seconds: 5.0,
            ..super::super::TourSettings::default()
        };
        let report =
            super::super::run(dir.path(), &settings, &mut |_| {}, &mut |_| Ok(())).unwrap();
        // One spectrogram column per 50 ms of the render.
        assert_eq!(report.spectrogram.columns().len(), 100);
        let png = dir.path().join("demo.png");
        draw(&png, &report).unwrap();
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!((be(16), be(20)), SIZE);
    }
}
