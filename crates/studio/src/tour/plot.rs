//! The tour's picture (plotters, bitmap back end, text in the embedded font of [`crate::font`]): a
//! top-down map of the terrain (height shading, water, the placed structures) with the walk,
//! the ambient sound positions and the scripted event points, above a timeline of the acoustic
//! parameters (high-band gain, enclosure, decay, echo taps, live voices) with the tour's
//! stages named on it.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::script::{EVENTS, FIRST_BLOCK, PATH, STAGES, STRUCTURES};
use super::{Sample, TourReport};
use resound_engine::terrain::axes::BLOCK_METRES;

/// Picture size in pixels.
pub const SIZE: (u32, u32) = (1400, 1700);
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
    map(&top, report)?;
    timeline(&bottom, report)?;
    root.present().map_err(err)?;
    Ok(())
}

fn map(area: &DrawingArea<BitMapBackend<'_>, Shift>, report: &TourReport) -> Result<(), PlotError> {
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
    // Legend-only entries for the shading.
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (0.0, 0.0)],
            WATER_C.filled(),
        )))
        .map_err(err)?
        .label("water")
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], WATER_C.filled()));
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (0.0, 0.0)],
            land(lo, lo, hi).filled(),
        )))
        .map_err(err)?
        .label(format!(
            "land, hill-shaded: green {lo:.0} m … brown {:.0} m … white {hi:.0} m",
            lo + 0.6 * (hi - lo)
        ))
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 6), (x + 18, y + 6)], land(lo, lo, hi).filled())
        });
    let stone = STRUCTURES.iter().filter(|s| !s.name.is_empty());
    chart
        .draw_series(
            stone.clone().map(|s| {
                Rectangle::new([(s.min.x, s.min.y), (s.max.x, s.max.y)], STONE_C.filled())
            }),
        )
        .map_err(err)?
        .label(format!(
            "stone structures (floor {:.0} m): gorge walls, tunnel, hall",
            report.floor
        ))
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], STONE_C.filled()));
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
        .map_err(err)?
        .label(format!(
            "ambient sounds placed in the world ({} plays)",
            ambient.len()
        ))
        .legend(|(x, y)| Circle::new((x + 9, y), 4, AMBIENT_C.filled()));
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
        .map_err(err)?
        .label(format!(
            "ambient beds started, centred on the listener ({} plays)",
            beds.len()
        ))
        .legend(|(x, y)| Circle::new((x + 9, y), 5, AMBIENT_C.stroke_width(2)));
    let walk: Vec<(f64, f64)> = report.timeline.iter().map(|s| (s.xy.x, s.xy.y)).collect();
    chart
        .draw_series(LineSeries::new(walk, PATH_C.stroke_width(3)))
        .map_err(err)?
        .label("the listener's walk (start ●)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], PATH_C.stroke_width(3)));
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
        .map_err(err)?
        .label("scripted events 1–9: claps, shots, the engine's start (it drives west)")
        .legend(|(x, y)| TriangleMarker::new((x + 9, y), 7, EVENT_C.filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 15))
        .draw()
        .map_err(err)?;
    Ok(())
}

type Series = fn(&Sample) -> Option<f64>;

fn timeline(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    report: &TourReport,
) -> Result<(), PlotError> {
    let panels: [(&str, Series, (f64, f64), RGBColor); 5] = [
        (
            "high-band gain (dB)",
            |s| s.hf_db.map(|v| f64::from(v).max(-60.0)),
            (-75.0, 15.0),
            RGBColor(0, 114, 178),
        ),
        (
            "enclosure (0–1)",
            |s| s.enclosure,
            (0.0, 1.05),
            RGBColor(0, 158, 115),
        ),
        (
            "decay T60 (s)",
            |s| s.decay.map(f64::from),
            (0.0, 4.0),
            RGBColor(204, 121, 167),
        ),
        (
            "echo taps",
            |s| s.taps.map(|t| t as f64),
            (0.0, 7.0),
            RGBColor(213, 94, 0),
        ),
        (
            "live voices",
            |s| Some(s.voices as f64),
            (0.0, 40.0),
            RGBColor(80, 80, 80),
        ),
    ];
    let end = report.seconds().max(1.0);
    let voices_top = (report.max_voices as f64 * 1.2).max(18.0);
    let (caption, rest) = area.split_vertically(40);
    caption
        .draw(&Text::new(
            "Timeline: the path from the newest event point to the listener, and the listener's room",
            (90, 12),
            (FONT, 22),
        ))
        .map_err(err)?;
    let rows = rest.split_evenly((panels.len(), 1));
    for (k, ((name, value, range, colour), row)) in panels.iter().zip(rows.iter()).enumerate() {
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
        if k == 1 || k == 2 {
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
        if k == 0 {
            for f in &report.fired {
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((f.time, range.0))
                            + TriangleMarker::new((0, -6), 6, EVENT_C.filled())
                            + Text::new(
                                format!("{}", f.index + 1),
                                (-4, -26),
                                (FONT, 13).into_font().color(&EVENT_C),
                            ),
                    ))
                    .map_err(err)?;
            }
        }
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
    Ok(())
}
