//! The demo tour (`resound demo`): a listener walks a scripted path over the dat's terrain
//! while the retail ambient runtime plays and scripted event sounds fire where the acoustics
//! matter; rendered offline (deterministic for a seed) to interleaved stereo, with a timeline of
//! the acoustic parameters and a picture of both. The render streams: each tick's block goes
//! to the caller as it is rendered (a WAV file, say); [`live`] runs the same tour on a device.
//!
//! ```no_run
//! use resound_studio::tour::{TourSettings, run};
//! let mut peak = 0.0f32;
//! let report = run(std::path::Path::new("dats"), &TourSettings::default(), &mut |_| {}, &mut |block| {
//!     peak = block.iter().fold(peak, |p, s| p.max(s.abs()));
//!     Ok(())
//! })?;
//! println!("{} s, peak {:.2}", report.seconds(), report.status.peak);
//! # Ok::<(), resound_studio::tour::TourError>(())
//! ```
//!
//! | module | holds |
//! |---|---|
//! | [`script`] | the walk, the named stages, the placed structures, the event sounds |
//! | [`world`] | [`world::TourWorld`]: the structures as boxes, the terrain for heights and the map |
//! | [`plot`] | the PNG: map above timeline (plotters) |
//! | [`spectrogram`] | [`spectrogram::Spectrogram`]: the render's coarse spectrogram, accumulated as it streams |
//! | [`applied`] | [`applied::EventAcoustics`]: what the acoustics applied to an event's voice |
//! | [`live`] | [`live::drive`]: the tour run live on an engine, `update(dt)` per frame, a one-line status |
//! | [`measure`] | [`measure::Meter`]: the WAV measured as heard (rises, echo, tail, silence, loudness) |

pub mod applied;
pub mod live;
pub mod measure;
pub mod plot;
pub mod spectrogram;
/// The tour's script (it lives with the fixture world, so the browser package walks the same
/// tour).
pub use resound_tour::script;
/// The tour's world (the shared tour crate's, the browser package's too).
pub use resound_tour::world;

#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use resound_engine::advanced::acoustics::SoundRequest;
use resound_engine::advanced::ambient::{DatSource, Outcome, Seeds};
use resound_engine::advanced::datformat::container::DatReader;
use resound_engine::advanced::datformat::record::Region;
use resound_engine::glam::{DVec2, DVec3};

use self::script::{EVENTS, position_at, stage_at};
use self::world::{TourWorld, area_to_voxel};
use resound_engine::Spatial;
use resound_engine::sound::{AmbientSettings, CELL_DAT, DEFAULT_REGION_ID, PORTAL_DAT};
use resound_engine::terrain::axes::ac_to_voxel;
use resound_engine::{
    BuildError, Engine, LoadError, Mode, Model, Output, PlayError, Status, TickError, VoiceHandle,
    VoicePolicy,
};
use resound_tour::Tour;

/// One ambient play the runtime emitted (for the map).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AmbientMark {
    /// Clock, seconds.
    pub time: f64,
    /// Voxel position (`None`: played from the centre).
    pub position: Option<DVec3>,
    /// Where the listener was (area metres).
    pub listener: DVec2,
}

/// Tour length bounds, seconds.
pub const SECONDS: std::ops::RangeInclusive<f64> = 1.0..=600.0;
/// Seconds per tour tick (the ambient frame and the timeline step).
pub const TICK: f64 = resound_tour::TICK;
/// Ticks after an event fires during which its voice's applied acoustics are read (the last
/// one read is kept).
const ACOUSTICS_TICKS: u32 = 4;
/// Ticks between two evaluations of the timeline's reference path (0.2 s).
pub const PROBE_TICKS: usize = 4;

/// How to run the tour.
#[derive(Debug, Clone)]
pub struct TourSettings {
    /// Length in seconds (the walk stretches to fit).
    pub seconds: f64,
    /// Seed of the ambient runtime's random generators.
    pub seed: u32,
    /// Acoustics mode (ignored with `retail`).
    pub mode: Mode,
    /// Acoustic model.
    pub model: Model,
    /// Faithful retail output: the 16-voice pool, no acoustics.
    pub retail: bool,
    /// Output rate, Hz.
    pub rate: u32,
    /// Pan or binaural output (`EngineBuilder::spatial`; binaural is refused with `retail`).
    pub spatial: Spatial,
    /// A SOFA file for binaural output (`EngineBuilder::sofa`; default: the built-in set).
    pub sofa: Option<std::path::PathBuf>,
}

impl Default for TourSettings {
    fn default() -> Self {
        Self {
            seconds: script::TOUR_SECONDS,
            seed: 1,
            mode: Mode::Full,
            model: Model::default(),
            retail: false,
            rate: 48_000,
            spatial: Spatial::Pan,
            sofa: None,
        }
    }
}

/// Why the tour could not run.
#[derive(Debug, thiserror::Error)]
pub enum TourError {
    /// Bad settings.
    #[error("tour length must be within 1..=600 s (got {0})")]
    Seconds(f64),
    /// A dat could not be opened.
    #[error("cannot open {name}: {source}")]
    Open {
        /// File name.
        name: &'static str,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A dat or its Region could not be read.
    #[error("cannot read {0}")]
    Dat(String),
    /// The terrain adapter failed.
    #[error("terrain: {0}")]
    Terrain(#[from] resound_engine::TerrainError),
    /// The dats hold no terrain under the tour.
    #[error("the cell dat has no terrain under the tour (landblocks 0xA7B2..0xABB6)")]
    NoTerrain,
    /// A world section could not be stored.
    #[error("world: {0}")]
    World(resound_engine::advanced::acoustics::EditError),
    /// The engine could not be built.
    #[error("engine: {0}")]
    Build(#[from] BuildError),
    /// A sound could not be loaded.
    #[error("sound: {0}")]
    Load(#[from] LoadError),
    /// A voice could not be started.
    #[error("play: {0}")]
    Play(PlayError),
    /// The render failed.
    #[error("render: {0}")]
    Render(#[from] TickError),
    /// A rendered block could not be handed on (the output's write failed).
    #[error("writing the render: {0}")]
    Output(#[source] std::io::Error),
    /// The ambient runtime or the terrain could not be attached.
    #[error("attach: {0}")]
    Attach(String),
    /// A listener or voice position was rejected.
    #[error("position: {0}")]
    Input(String),
}

/// One timeline sample (every [`TICK`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Clock, seconds.
    pub time: f64,
    /// Fraction of the tour.
    pub frac: f64,
    /// The stage's name.
    pub stage: &'static str,
    /// Listener (area metres).
    pub xy: DVec2,
    /// High-band gain (dB) of the reference path: from the newest event's point (before the
    /// first, the first event's) to the listener, evaluated every [`PROBE_TICKS`] (`None`:
    /// mode `off`).
    pub hf_db: Option<f32>,
    /// The listener's enclosure (0..1).
    pub enclosure: Option<f64>,
    /// The predicted decay (T60, s) of the listener's space.
    pub decay: Option<f32>,
    /// Echo taps of the reference path.
    pub taps: Option<usize>,
    /// Live voices (engine status).
    pub voices: usize,
    /// Cells traced in the last tick (acoustic cost).
    pub cells: u64,
}

/// One square of the map's terrain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapCell {
    /// Centre, area metres.
    pub xy: DVec2,
    /// Ground or floor height, AC metres.
    pub height: f64,
    /// Water at the surface.
    pub water: bool,
}

/// A scripted event as it fired.
#[derive(Debug, Clone, PartialEq)]
pub struct Fired {
    /// Clock, seconds.
    pub time: f64,
    /// The script's event index.
    pub index: usize,
    /// What the acoustics applied to its voice (`None`: mode `off`, retail, or no result
    /// before the voice ended).
    pub acoustics: Option<applied::EventAcoustics>,
}

/// What the tour produced (its samples went to the `out` of [`run`] as they were rendered).
#[derive(Debug, Clone)]
pub struct TourReport {
    /// Stereo frames rendered ([`frames`] of the settings).
    pub frames: u64,
    /// Output rate, Hz.
    pub rate: u32,
    /// The settings it ran with.
    pub settings: TourSettings,
    /// The timeline.
    pub timeline: Vec<Sample>,
    /// Scripted events as they fired.
    pub fired: Vec<Fired>,
    /// Ambient plays the runtime emitted (time, voxel position).
    pub ambient: Vec<AmbientMark>,
    /// Ambient plays the engine started as voices.
    pub ambient_started: u64,
    /// Ambient plays dropped (the bridge's drops: retail pool full, Wave absent or undecodable;
    /// and plays the engine could not start).
    pub ambient_dropped: u64,
    /// Most live voices seen at any tick.
    pub max_voices: usize,
    /// The engine's counters at the end.
    pub status: Status,
    /// The structures' floor height (AC metres).
    pub floor: f64,
    /// Terrain for the map, on a grid.
    pub heights: Vec<MapCell>,
    /// Grid step of `heights`, metres.
    pub grid: f64,
    /// The render's coarse spectrogram (one column per 50 ms).
    pub spectrogram: spectrogram::Spectrogram,
}

impl Sample {
    /// The one-line status: place, live voices, acoustic cost.
    #[must_use]
    pub fn status_line(&self) -> String {
        format!(
            "{:<16} {:>2} voices {:>6} cells/tick",
            self.stage, self.voices, self.cells
        )
    }
}

impl TourReport {
    /// The human summary: what ran, length, render speed, peak, limiter, voices, plays, the
    /// loudness and what misses the measured figures.
    #[must_use]
    pub fn summary(&self, render_seconds: f64, measured: &measure::Measured) -> String {
        let s = &self.settings;
        let what = if s.retail {
            "retail (16 voices, no acoustics)".to_owned()
        } else {
            format!(
                "modern, acoustics {}",
                resound_engine::advanced::acoustics::scene::mode_name(s.mode)
            )
        };
        let st = &self.status;
        format!(
            "demo tour: {what}, seed {}, {:.1} s rendered in {render_seconds:.1} s ({:.0}x real time)\n  \
             peak {:.3} ({:.1} dBFS), limiter engaged {} times, live voices max {}\n  \
             ambient plays {} (dropped {}), events fired {}, voices dropped {}, cells traced {}\n  \
             loudness {:.1} LUFS, true peak {:.1} dBTP, longest exact silence {:.1} ms{}",
            s.seed,
            self.seconds(),
            self.seconds() / render_seconds.max(1e-9),
            st.peak,
            20.0 * st.peak.max(1e-9).log10(),
            st.limiter_engagements,
            self.max_voices,
            self.ambient_started,
            self.ambient_dropped,
            self.fired.len(),
            st.dropped_voices,
            st.cells,
            measured.loudness_lufs,
            measured.true_peak_dbtp,
            measured.longest_silence.0,
            measured
                .failures()
                .iter()
                .map(|f| format!("\n  misses: {f}"))
                .collect::<String>()
        )
    }

    /// The summary as one JSON object with stable keys (`resound demo --json`,
    /// `docs/json.md`): what ran, the places with their times, the scripted events with what
    /// the acoustics applied, the figures `measured` on the rendered audio (loudness, true
    /// peak, rises, echo, tail) and the engine's counters.
    #[must_use]
    pub fn summary_json(
        &self,
        render_seconds: f64,
        measured: &measure::Measured,
    ) -> serde_json::Value {
        let (s, st) = (&self.settings, &self.status);
        let mode = if s.retail {
            "off".to_owned()
        } else {
            resound_engine::advanced::acoustics::scene::mode_name(s.mode).to_owned()
        };
        let end = self.seconds();
        let places: Vec<serde_json::Value> = script::STAGES
            .iter()
            .enumerate()
            .map(|(i, st)| {
                let to = script::STAGES.get(i + 1).map_or(1.0, |n| n.from);
                serde_json::json!({
                    "name": st.name, "start_s": st.from * end, "end_s": to * end,
                })
            })
            .collect();
        let events: Vec<serde_json::Value> = self
            .fired
            .iter()
            .map(|f| {
                let mut doc = match &f.acoustics {
                    Some(a) => a.to_json(),
                    None => serde_json::json!({ "direct": null, "taps": [], "decay_s": null }),
                };
                doc["time_s"] = serde_json::json!(f.time);
                doc["label"] = serde_json::json!(EVENTS[f.index].label);
                doc["place"] = serde_json::json!(stage_at(f.time / end.max(1e-9)));
                doc
            })
            .collect();
        let m = measured.to_json();
        serde_json::json!({
            "output": if s.retail { "retail" } else { "modern" }, "mode": mode,
            "seed": s.seed, "duration_s": self.seconds(), "rate_hz": self.rate,
            "render_time_s": render_seconds, "peak": st.peak,
            "loudness_db": m["loudness_db"], "true_peak_db": m["true_peak_db"],
            "limiter_engagements": st.limiter_engagements, "max_live_voices": self.max_voices,
            "ambient_events": self.ambient.len(), "ambient_plays": self.ambient_started,
            "ambient_dropped": self.ambient_dropped, "events_fired": self.fired.len(),
            "dropped_voices": st.dropped_voices, "cells": st.cells,
            "places": places, "events": events, "measured": m,
        })
    }

    /// Length in seconds.
    #[must_use]
    pub fn seconds(&self) -> f64 {
        self.frames as f64 / f64::from(self.rate)
    }
}

fn open(dir: &Path, name: &'static str) -> Result<DatSource<BufReader<File>>, TourError> {
    let file = File::open(dir.join(name)).map_err(|source| TourError::Open { name, source })?;
    let reader =
        DatReader::new(BufReader::new(file)).map_err(|e| TourError::Dat(format!("{name}: {e}")))?;
    Ok(DatSource::new(reader))
}

impl From<resound_tour::Error> for TourError {
    fn from(e: resound_tour::Error) -> Self {
        use resound_tour::Error as E;
        match e {
            E::Terrain(e) => Self::Terrain(e),
            E::NoTerrain => Self::NoTerrain,
            E::Load(e) => Self::Load(e),
            E::Play(e) => Self::Play(e),
            E::Tick(e) => Self::Render(e),
            other => Self::Input(other.to_string()),
        }
    }
}

/// The dat folder the tour attaches, with the ambient runtime's seed.
struct DatDir<'a> {
    dir: &'a Path,
    seed: u32,
}

impl resound_tour::Dats for DatDir<'_> {
    type Error = TourError;

    fn attach_terrain(&self, engine: &mut Engine) -> Result<(), TourError> {
        engine
            .attach_terrain(self.dir)
            .map_err(|e| TourError::Attach(e.to_string()))
    }

    fn attach_ambient(&self, engine: &mut Engine) -> Result<(), TourError> {
        let ambient = AmbientSettings {
            seeds: Seeds {
                ran2: self.seed as i32,
                crt: self.seed,
            },
            ..AmbientSettings::default()
        };
        engine
            .attach_ambient(self.dir, ambient)
            .map_err(|e| TourError::Attach(e.to_string()))
    }
}

/// Ticks of a tour of these settings and stereo frames per tick.
fn ticks(settings: &TourSettings) -> (usize, usize) {
    let ticks = (settings.seconds / TICK).round() as usize;
    let tick_frames = (TICK * f64::from(settings.rate)).round() as usize;
    (ticks, tick_frames)
}

/// Stereo frames [`run`] renders for these settings (known before it starts, for a streamed
/// WAV's header).
#[must_use]
pub fn frames(settings: &TourSettings) -> u64 {
    let (ticks, tick_frames) = ticks(settings);
    ticks as u64 * tick_frames as u64
}

/// The tour's world read from the dats in `dat_dir`, an engine of `settings` on `output`
/// and the tour started on it (shared by the offline [`run`] and the live [`live`] loop).
fn setup(
    dat_dir: &Path,
    settings: &TourSettings,
    output: Output,
) -> Result<(Engine, TourWorld, Tour), TourError> {
    if !SECONDS.contains(&settings.seconds) {
        return Err(TourError::Seconds(settings.seconds));
    }
    let mut portal = open(dat_dir, PORTAL_DAT)?;
    let mut cell = open(dat_dir, CELL_DAT)?;
    let region: Region = portal
        .load_record(DEFAULT_REGION_ID)
        .map_err(|e| TourError::Dat(format!("Region: {e}")))?
        .ok_or_else(|| TourError::Dat(format!("Region 0x{DEFAULT_REGION_ID:08X}: absent")))?;
    let world = TourWorld::load(&region, &mut cell)?;
    let mode = if settings.retail {
        Mode::Off
    } else {
        settings.mode
    };
    let policy = if settings.retail {
        VoicePolicy::Retail16
    } else {
        VoicePolicy::Modern
    };
    let mut builder = Engine::builder()
        .sample_rate(settings.rate)
        .mode(mode)
        .model(settings.model.clone())
        .voice_policy(policy)
        .spatial(settings.spatial)
        .output(output);
    if let Some(path) = &settings.sofa {
        builder = builder.sofa(path);
    }
    let mut engine = builder.build()?;
    let dats = DatDir {
        dir: dat_dir,
        seed: settings.seed,
    };
    let tour = Tour::start(&mut engine, &dats, &world, settings.seconds)?;
    Ok((engine, world, tour))
}

/// Runs the tour on the dats in `dat_dir` (`client_portal.dat`, `client_cell_1.dat`); calls
/// `progress` after every tick and hands each tick's interleaved stereo to `out` as it is
/// rendered (one tick's buffer is reused: memory does not grow with the length).
///
/// # Errors
/// [`TourError`] for bad settings, unreadable dats, an engine failure or an `out` that failed
/// ([`TourError::Output`]).
pub fn run(
    dat_dir: &Path,
    settings: &TourSettings,
    progress: &mut dyn FnMut(&Sample),
    out: &mut dyn FnMut(&[f32]) -> std::io::Result<()>,
) -> Result<TourReport, TourError> {
    let (mut engine, world, mut tour) = setup(dat_dir, settings, Output::Offline)?;
    let mode = if settings.retail {
        Mode::Off
    } else {
        settings.mode
    };
    let mut marks = Vec::new();
    let rate = settings.rate;

    let (ticks, tick_frames) = ticks(settings);
    let mut chunk = vec![0.0f32; 2 * tick_frames];
    let mut timeline = Vec::with_capacity(ticks);
    let mut fired = Vec::new();
    // Fired events whose acoustics are not read yet: (index in `fired`, voice, ticks left).
    let mut pending: Vec<(usize, VoiceHandle, u32)> = Vec::new();
    let mut max_voices = 0;
    let mut reference = EVENTS[0].xy;
    let mut last = None;
    let mut prev_cells = 0;
    let mut spectrum = spectrogram::Spectrogram::new(rate);

    for i in 0..ticks {
        let now = i as f64 * TICK;
        let frac = now / settings.seconds;
        let xy = position_at(frac);
        let ear = world.ear(xy);
        tour.now = now;
        tour.advance(&mut engine, &world, TICK)?;
        if let Some(bridge) = engine.ambient_bridge() {
            for e in bridge.last_events() {
                if let Outcome::Play(v) = e.outcome {
                    let position = v.position.map(|p| ac_to_voxel(&p));
                    marks.push(AmbientMark {
                        time: now,
                        position,
                        listener: xy,
                    });
                }
            }
        }

        for &(index, h) in tour.started() {
            pending.push((fired.len(), h, ACOUSTICS_TICKS));
            fired.push(Fired {
                time: now,
                index,
                acoustics: None,
            });
        }

        engine.render(&mut chunk)?;
        tour.heard(&mut engine, &chunk)?;
        spectrum.push(&chunk);
        out(&chunk).map_err(TourError::Output)?;
        pending.retain_mut(|(k, h, left)| {
            let got = engine
                .voice_acoustics(*h)
                .and_then(|a| applied::EventAcoustics::of(&a));
            if got.is_some() {
                fired[*k].acoustics = got;
            }
            *left = left.saturating_sub(1);
            *left > 0 && engine.is_playing(*h)
        });

        let status = engine.status();
        max_voices = max_voices.max(status.live_voices);
        if let Some(f) = fired.last() {
            reference = EVENTS[f.index].xy;
        }
        if mode != Mode::Off && i % PROBE_TICKS == 0 {
            let src = area_to_voxel(reference, world.ground(reference) + 1.5);
            let request = SoundRequest::new(src, ear);
            last = engine.evaluate(&request, mode).ok().map(|st| {
                let hf = 20.0 * st.direct.hf.max(1e-5).log10();
                let taps = st.echo.as_ref().map_or(0, |e| e.taps.len());
                let room = st.room.as_ref().map(|r| (r.listener.enclosure, r.decay));
                (hf, taps, room)
            });
        }
        let (hf_db, taps, room) = match last {
            Some((hf, taps, room)) => (Some(hf), Some(taps), room),
            None => (None, None, None),
        };
        let sample = Sample {
            time: now,
            frac,
            stage: stage_at(frac),
            xy,
            hf_db,
            enclosure: room.map(|r| r.0),
            decay: room.map(|r| r.1),
            taps,
            voices: status.live_voices,
            cells: status.cells.saturating_sub(prev_cells),
        };
        prev_cells = status.cells;
        progress(&sample);
        timeline.push(sample);
    }

    let status = engine.status();
    let grid = 8.0;
    let n = (script::AREA_METRES / grid) as usize;
    let mut heights = Vec::with_capacity(n * n);
    for iy in 0..n {
        for ix in 0..n {
            let p = DVec2::new((ix as f64 + 0.5) * grid, (iy as f64 + 0.5) * grid);
            heights.push(MapCell {
                xy: p,
                height: world.ground(p),
                water: world.water(p),
            });
        }
    }
    Ok(TourReport {
        frames: frames(settings),
        rate,
        settings: settings.clone(),
        timeline,
        fired,
        ambient: marks,
        ambient_started: status.ambient.started,
        ambient_dropped: status.ambient.counters.dropped.total() + status.ambient.not_started,
        max_voices,
        status,
        floor: world.floor,
        heights,
        grid,
        spectrogram: spectrum,
    })
}
