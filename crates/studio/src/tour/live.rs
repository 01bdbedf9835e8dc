//! The tour run live: the engine on an output of the caller's choice (`Output::Device` for
//! `resound demo` with a sound card), the game side's frame loop calling
//! [`Tour::advance`](resound_tour::Tour::advance) (the listener's pose, `Engine::update(dt)`,
//! the events fired, the driving engine moved) once per frame, and a one-line status after
//! each frame.
//!
//! The loop ([`drive`]) does not wait on anything itself: its `pace` waits for the next frame
//! (a device: the wall clock; a test: renders the frame's samples on an offline engine), so
//! the same loop runs headless in tests.

use std::path::Path;

use resound_engine::{Engine, Output};
use resound_tour::Tour;

use super::script::{EVENTS, stage_at};
use super::world::TourWorld;
use super::{TourError, TourSettings};

/// A tour started on an engine, ready for [`drive`].
pub struct LiveTour {
    /// The engine the tour runs on.
    pub engine: Engine,
    world: TourWorld,
    tour: Tour,
}

impl std::fmt::Debug for LiveTour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveTour")
            .field("now", &self.tour.now)
            .field("seconds", &self.tour.seconds)
            .finish_non_exhaustive()
    }
}

/// The state shown after each live frame.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveStatus {
    /// Tour time, seconds.
    pub time: f64,
    /// The tour's length, seconds.
    pub seconds: f64,
    /// The place the listener is in.
    pub stage: &'static str,
    /// Live voices.
    pub voices: usize,
    /// Scripted events fired so far.
    pub fired: usize,
    /// The newest event's label.
    pub newest: Option<&'static str>,
    /// Device underruns so far (0 without a device).
    pub xruns: u64,
}

impl LiveStatus {
    /// The one-line status: time, place, voices, events, underruns.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "{:>5.1}/{:.0} s  {:<16} {:>2} voices  events {}/{}{}  xruns {}",
            self.time,
            self.seconds,
            self.stage,
            self.voices,
            self.fired,
            EVENTS.len(),
            self.newest.map(|l| format!(" ({l})")).unwrap_or_default(),
            self.xruns
        )
    }
}

/// What a live run did.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveSummary {
    /// Frames (calls of `update`) run.
    pub frames: u64,
    /// The scripted events fired, by script index, in firing order.
    pub fired: Vec<usize>,
    /// The last status.
    pub last: Option<LiveStatus>,
}

/// Starts the tour of `settings` on the dats in `dat_dir` with the engine on `output`.
///
/// # Errors
/// [`TourError`]: bad settings, unreadable dats, an engine that could not be built (for a
/// device: [`TourError::Build`] with the device's reason).
pub fn start(
    dat_dir: &Path,
    settings: &TourSettings,
    output: Output,
) -> Result<LiveTour, TourError> {
    let (engine, world, tour) = super::setup(dat_dir, settings, output)?;
    Ok(LiveTour {
        engine,
        world,
        tour,
    })
}

/// Runs `live` to the tour's end, one frame of `frame_s` seconds at a time: `pace` is called
/// first (it waits for the frame, or renders it offline), then the tour advances by the
/// frame and `status` gets the frame's [`LiveStatus`]. Stops early when `pace` returns
/// `Ok(false)` (the user interrupted).
///
/// # Errors
/// [`TourError`] from the engine or from `pace`.
pub fn drive(
    live: &mut LiveTour,
    frame_s: f64,
    pace: &mut dyn FnMut(&mut Engine, f64) -> Result<bool, TourError>,
    status: &mut dyn FnMut(&LiveStatus),
) -> Result<LiveSummary, TourError> {
    let frame_s = frame_s.clamp(1e-3, 0.25);
    let mut summary = LiveSummary {
        frames: 0,
        fired: Vec::new(),
        last: None,
    };
    let mut newest = None;
    while !live.tour.finished() {
        if !pace(&mut live.engine, frame_s)? {
            break;
        }
        let dt = frame_s.min(live.tour.seconds - live.tour.now).max(1e-6);
        live.tour.advance(&mut live.engine, &live.world, dt)?;
        for &(index, _) in live.tour.started() {
            summary.fired.push(index);
            newest = Some(EVENTS[index].label);
        }
        summary.frames += 1;
        let st = live.engine.status();
        let now = live.tour.now.min(live.tour.seconds);
        let s = LiveStatus {
            time: now,
            seconds: live.tour.seconds,
            stage: stage_at(now / live.tour.seconds),
            voices: st.live_voices,
            fired: summary.fired.len(),
            newest,
            xruns: st.device.as_ref().map_or(0, |d| d.xruns),
        };
        status(&s);
        summary.last = Some(s);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Headless: the live loop on an offline engine, each frame's samples rendered by `pace`
    /// (the device path itself needs a sound card).
    #[test]
    fn the_live_loop_fires_every_event_and_says_where_it_is() {
        let dir = tempfile::tempdir().unwrap();
        resound_fixture::write_world().write_to(dir.path()).unwrap();
        let settings = TourSettings {
            seconds: 20.0,
            ..TourSettings::default()
        };
        let mut live = start(dir.path(), &settings, Output::Offline).unwrap();
        let rate = live.engine.sample_rate();
        let mut block = Vec::new();
        let mut peak = 0.0f32;
        let mut lines = Vec::new();
        let summary = drive(
            &mut live,
            1.0 / 60.0,
            &mut |engine, dt| {
                let frames = (dt * f64::from(rate)).round() as usize;
                block.resize(2 * frames, 0.0);
                engine.render(&mut block)?;
                peak = block.iter().fold(peak, |p, s| p.max(s.abs()));
                Ok(true)
            },
            &mut |s| lines.push(s.line()),
        )
        .unwrap();
        // 20 s at 60 frames a second (the last frame may be a short one).
        assert!(
            (1200..=1201).contains(&summary.frames),
            "{}",
            summary.frames
        );
        assert_eq!(lines.len() as u64, summary.frames);
        let mut fired = summary.fired.clone();
        fired.sort_unstable();
        assert_eq!(fired, (0..EVENTS.len()).collect::<Vec<_>>());
        let last = summary.last.unwrap();
        assert!((last.time - 20.0).abs() < 1e-6, "{}", last.time);
        assert_eq!(last.stage, "open again");
        assert_eq!(last.fired, EVENTS.len());
        assert!(peak > 0.01, "the live tour rendered silence");
        let line = lines.last().unwrap();
        assert!(!line.contains('\n'));
        assert!(line.starts_with(" 20.0/20 s  open again"), "{line}");
        assert!(
            line.contains(&format!("events {0}/{0}", EVENTS.len())),
            "{line}"
        );
    }

    #[test]
    fn pace_can_stop_the_loop() {
        let dir = tempfile::tempdir().unwrap();
        resound_fixture::write_world().write_to(dir.path()).unwrap();
        let settings = TourSettings {
            seconds: 5.0,
            ..TourSettings::default()
        };
        let mut live = start(dir.path(), &settings, Output::Offline).unwrap();
        let mut calls = 0;
        let summary = drive(
            &mut live,
            0.05,
            &mut |_, _| {
                calls += 1;
                Ok(calls <= 10)
            },
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(summary.frames, 10);
        assert!((summary.last.unwrap().time - 0.5).abs() < 1e-9);
    }
}
