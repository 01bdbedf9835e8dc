//! The engine adapter: each job rendered offline (f32) through `resound-engine`. A plain job
//! goes through `crate::scene_render::render`, the path `resound render` uses; a job with
//! another pacing or a mid-render change is driven through the public `Engine` API with the
//! same setup, `render` called `frames_per_call` frames at a time.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::scene_render::{self as scene, SceneOptions};
use anyhow::{Context, anyhow, bail};
use resound_engine::advanced::acoustics::scene::Scene;
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{
    Engine, Model, Orientation, SoundHandle, Source, Status, VoiceAcoustics, VoiceHandle,
};

use super::plan::{ChangeKind, Job, Mode, PACING, Signal};
use super::render::{ModelChoice, Rendered, Renderer, Reported};

/// The sample rate of every render, Hz.
pub const RATE: u32 = 48_000;

/// Renders jobs through the engine.
pub struct EngineRenderer {
    model: Model,
    choice: ModelChoice,
}

impl EngineRenderer {
    /// A renderer for `choice`; `spr` needs the `spr-gpl` feature.
    pub fn new(choice: ModelChoice) -> anyhow::Result<Self> {
        let model = match choice {
            ModelChoice::Own => Model::default(),
            #[cfg(feature = "spr-gpl")]
            ModelChoice::Spr => Model::Spr(resound_engine::advanced::spr::SprModel::default()),
            #[cfg(not(feature = "spr-gpl"))]
            ModelChoice::Spr => bail!("--model spr needs a build with the spr-gpl feature"),
        };
        Ok(Self { model, choice })
    }

    /// The `slot-tuning-off` fault: the own model reports its decays but does not tune the
    /// bus to them (no effect on the SPR model, whose slots are never tuned).
    pub fn untune_bus(&mut self) {
        if let Model::Own(m) = &mut self.model {
            m.tune_bus = false;
        }
    }

    /// What the engine reported about the source's voice (`acoustics`) and the run.
    fn reported(&self, acoustics: Option<&VoiceAcoustics>, status: &Status) -> Reported {
        let result = acoustics.and_then(|a| a.result.as_ref());
        let bus = self.model.reverb_bus();
        Reported {
            taps_ms: acoustics
                .map(|a| {
                    a.applied
                        .taps
                        .iter()
                        .map(|t| f64::from(t.delay_s) * 1000.0)
                        .collect()
                })
                .unwrap_or_default(),
            space_decay_s: result.map(|r| f64::from(r.decay)),
            effective_decay_s: result.map(|r| f64::from(r.effective_decay)),
            decay_bands_s: result.map(|r| r.decay_bands.map(f64::from)),
            limiter_engagements: Some(status.limiter_engagements),
            peak: Some(f64::from(status.peak)),
            sends: acoustics.map(|a| a.applied.sends.map(f64::from)),
            distance_gain: acoustics.map(|a| {
                let (d, range) = (f64::from(a.applied.distance), f64::from(a.applied.range));
                if range > 0.0 {
                    (1.0 - d / range).clamp(0.0, 1.0)
                } else {
                    0.0
                }
            }),
            slots: Some(bus.slots.map(|s| (f64::from(s.gain), f64::from(s.decay_s)))),
        }
    }
}

fn engine_mode(mode: Mode) -> resound_engine::Mode {
    match mode {
        Mode::Off => resound_engine::Mode::Off,
        Mode::Direct => resound_engine::Mode::Direct,
        Mode::Reflect => resound_engine::Mode::Reflect,
        Mode::Full => resound_engine::Mode::Full,
    }
}

/// The mono samples of a signal at `rate`.
pub fn signal_samples(signal: Signal, rate: u32) -> Vec<f32> {
    use crate::test_signal::Signal as S;
    match signal {
        Signal::Click => S::Click.samples(rate),
        Signal::Shot => S::Shot.samples(rate),
        Signal::Loop => S::Loop.samples(rate),
        Signal::Sine => {
            // 200 Hz: a whole number of periods in one second at any integer rate.
            resound_engine::advanced::dsp::analysis::sine(200.0, 0.5, rate as f32, rate as usize)
        }
    }
}

fn engine_signal(signal: Signal) -> Option<crate::test_signal::Signal> {
    use crate::test_signal::Signal as S;
    match signal {
        Signal::Click => Some(S::Click),
        Signal::Shot => Some(S::Shot),
        Signal::Loop => Some(S::Loop),
        Signal::Sine => None,
    }
}

/// Scene C is the one that runs the master limiter (§6: it reports peak and engagements).
fn limiter_for(job: &Job) -> bool {
    job.scene == "C"
}

impl Renderer for EngineRenderer {
    fn model(&self) -> ModelChoice {
        self.choice
    }

    fn sample_rate(&self) -> u32 {
        RATE
    }

    fn render(&self, job: &Job) -> anyhow::Result<Rendered> {
        let text =
            scene::builtin(job.scene).ok_or_else(|| anyhow!("no built-in scene {}", job.scene))?;
        let parsed =
            scene::parse(text, &self.model).with_context(|| format!("scene {}", job.scene))?;
        let seconds = f64::from(job.millis) / 1000.0;
        match engine_signal(job.signal) {
            Some(signal) if job.frames_per_call == PACING && job.change.is_none() => {
                let options = SceneOptions {
                    mode: engine_mode(job.mode),
                    model: self.model.clone(),
                    signal,
                    seconds,
                    rate: RATE,
                    limiter: limiter_for(job),
                    air_paths: true,
                };
                let r = scene::render(&parsed, &options, &mut |_, _| {})
                    .with_context(|| format!("rendering {} ({})", job.scene, job.mode.name()))?;
                let reported = self.reported(r.source.as_ref(), &r.status);
                Ok(Rendered {
                    stereo: r.samples,
                    reported,
                    change_frame: None,
                })
            }
            _ => self.render_paced(&parsed, job, seconds),
        }
    }
}

impl EngineRenderer {
    /// The scene's setup as `scene::render` makes it (world, listener, the source or the
    /// scene's voices, sounds loaded in first-use order), then `render` in `frames_per_call`
    /// chunks, with the job's change made at the first tick boundary at or after `at_ms`.
    fn render_paced(&self, parsed: &Scene, job: &Job, seconds: f64) -> anyhow::Result<Rendered> {
        if parsed.boxes.iter().any(|b| b.until_tick.is_some()) {
            bail!(
                "scene {} has timed boxes; only the plain pacing renders it",
                job.scene
            );
        }
        let mut model = self.model.clone();
        model.set_extra_planes(
            parsed
                .planes()
                .with_context(|| format!("scene {}", job.scene))?,
        );
        let materials =
            resound_engine::advanced::acoustics::AcousticModel::materials(&model).clone();
        let world = parsed
            .build_world(&materials, 0)
            .with_context(|| format!("scene {}", job.scene))?;
        let mut engine = Engine::builder()
            .sample_rate(RATE)
            .mode(engine_mode(job.mode))
            .model(model)
            .limiter(limiter_for(job))
            .air_paths(parsed.air_paths)
            .build()
            .context("building the engine")?;
        engine.world().replace(world);
        engine
            .set_listener(DVec3::from_array(parsed.listener), Orientation::default())
            .context("listener")?;

        let mut loaded: BTreeMap<Signal, SoundHandle> = BTreeMap::new();
        let mut sound = |engine: &mut Engine, s: Signal| -> anyhow::Result<SoundHandle> {
            if let Some(h) = loaded.get(&s) {
                return Ok(*h);
            }
            let samples: Arc<[f32]> = signal_samples(s, RATE).into();
            let h = engine
                .load_mono(samples, RATE)
                .context("loading the signal")?;
            loaded.insert(s, h);
            Ok(h)
        };
        let mut voices: Vec<VoiceHandle> = Vec::new();
        let plays: Vec<(DVec3, f32, f32, Signal)> = if parsed.voices.is_empty() {
            vec![(
                DVec3::from_array(parsed.source),
                1.0,
                parsed.range as f32,
                job.signal,
            )]
        } else {
            parsed
                .voices
                .iter()
                .map(|v| {
                    let s = match v.kind.as_str() {
                        "loop" => Signal::Loop,
                        "shot" => Signal::Shot,
                        _ => Signal::Click,
                    };
                    (
                        DVec3::from_array(v.position),
                        v.volume as f32,
                        v.range as f32,
                        s,
                    )
                })
                .collect()
        };
        for (position, volume, range, s) in plays {
            let h = sound(&mut engine, s)?;
            let looping = matches!(s, Signal::Loop | Signal::Sine);
            let v = engine
                .play(
                    h,
                    Source {
                        position,
                        volume,
                        range,
                        looping,
                        impulsive: !looping,
                        ..Source::default()
                    },
                )
                .context("playing the source")?;
            voices.push(v);
        }

        let total = (seconds * f64::from(RATE)).round() as usize;
        let tick = usize::try_from(engine.tick_frames())
            .unwrap_or(usize::MAX)
            .max(1);
        let change_frame = job.change.map(|c| {
            let at = (u64::from(c.at_ms) * u64::from(RATE) / 1000) as usize;
            at.div_ceil(tick) * tick
        });
        let mut samples = vec![0.0f32; 2 * total];
        let mut done = 0usize;
        while done < total {
            if let (Some(frame), Some(change)) = (change_frame, job.change)
                && done == frame
            {
                match change.what {
                    ChangeKind::ClearBox { min, max } => engine
                        .world()
                        .fill_box(
                            IVec3::from_array(min),
                            IVec3::from_array(max),
                            resound_engine::advanced::acoustics::Cell::Air,
                        )
                        .context("removing the wall")?,
                    ChangeKind::ModeOff => engine.set_mode(resound_engine::Mode::Off),
                }
            }
            let mut n = job.frames_per_call.max(1).min(total - done);
            if let Some(frame) = change_frame.filter(|&f| f > done) {
                n = n.min(frame - done);
            }
            engine
                .render(&mut samples[2 * done..2 * (done + n)])
                .with_context(|| format!("rendering {}", job.scene))?;
            done += n;
        }
        let first = voices.first().and_then(|v| engine.voice_acoustics(*v));
        Ok(Rendered {
            stereo: samples,
            reported: self.reported(first.as_ref(), &engine.status()),
            change_frame,
        })
    }
}
