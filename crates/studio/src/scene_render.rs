//! A verification scene (spec `acoustics.md` §9) rendered through the engine: the scene's world,
//! its listener, and its source (or its voices, scene C) playing a [`Signal`]. Used by
//! `resound render` and `xtask verify`; the built-in §9 scene files are compiled in.

use std::collections::BTreeSet;
use std::sync::Arc;

use resound_engine::advanced::acoustics::scene::{Scene, SceneError};
use resound_engine::advanced::acoustics::{AcousticModel, Cell, Mode, SectionData, section_of};
use resound_engine::glam::{DVec3, IVec3};

use crate::test_signal::Signal;
use resound_engine::EngineBuilder;
use resound_engine::Model;
use resound_engine::Status;
use resound_engine::{BuildError, LoadError, PlayError, TickError, WorldError};
use resound_engine::{Engine, VoiceAcoustics, VoiceHandle};
use resound_engine::{Orientation, Source};

macro_rules! builtin_scenes {
    ($($name:literal),*) => {
        /// Names of the built-in §9 scenes.
        pub const SCENE_NAMES: &[&str] = &[$($name),*];

        /// The JSON text of a built-in §9 scene (`"G"`, `"W2"` …).
        #[must_use]
        pub fn builtin(name: &str) -> Option<&'static str> {
            match name {
                $($name => Some(include_str!(concat!("../../acoustics-core/scenes/", $name, ".json"))),)*
                _ => None,
            }
        }
    };
}

builtin_scenes!(
    "AD", "AL", "AW", "BB", "BS", "BW", "C", "D", "E1", "E2", "E3", "F", "G", "P", "R", "T", "U",
    "W0", "W1", "W2", "W3"
);

/// How to render a scene.
#[derive(Debug, Clone)]
pub struct SceneOptions {
    /// Acoustics mode.
    pub mode: Mode,
    /// Acoustic model (the scene's injected planes are added to its echo search).
    pub model: Model,
    /// What the scene's source plays (scene voices play their own kinds).
    pub signal: Signal,
    /// Length of the render in seconds.
    pub seconds: f64,
    /// Output sample rate.
    pub rate: u32,
    /// The master limiter (off for analysis).
    pub limiter: bool,
    /// Sound round corners through the air (acoustics §4a; default on, the engine's presets):
    /// false, or a scene with `"air_paths": false`, builds the engine with
    /// [`resound_engine::EngineBuilder::air_paths`] off.
    pub air_paths: bool,
}

impl Default for SceneOptions {
    fn default() -> Self {
        Self {
            mode: Mode::Full,
            model: Model::default(),
            signal: Signal::Click,
            seconds: 2.0,
            rate: 48_000,
            limiter: false,
            air_paths: true,
        }
    }
}

/// A rendered scene.
#[derive(Debug, Clone)]
pub struct SceneRender {
    /// Interleaved stereo.
    pub samples: Vec<f32>,
    /// Sample rate.
    pub rate: u32,
    /// What the acoustics applied to the scene's source (last values while it played).
    pub source: Option<VoiceAcoustics>,
    /// Source–listener distance.
    pub distance: f64,
    /// Voices played.
    pub voices: usize,
    /// Engine status at the end.
    pub status: Status,
    /// The model's name.
    pub model: &'static str,
}

/// Rendering a scene failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SceneRenderError {
    /// The scene file is invalid.
    #[error("scene: {0}")]
    Scene(SceneError),
    /// `seconds` is not finite and positive (or longer than an hour).
    #[error("render length must be finite, positive and at most 3600 s")]
    Seconds,
    /// The engine could not be built.
    #[error("engine: {0}")]
    Build(BuildError),
    /// The signal could not be loaded.
    #[error("signal: {0}")]
    Load(LoadError),
    /// A source was refused.
    #[error("source: {0}")]
    Play(PlayError),
    /// A world edit failed.
    #[error("world: {0}")]
    World(WorldError),
    /// A tick failed.
    #[error("render: {0}")]
    Tick(TickError),
}

/// Parses a scene's JSON text against the model's material table.
///
/// # Errors
/// [`SceneRenderError::Scene`].
pub fn parse(text: &str, model: &Model) -> Result<Scene, SceneRenderError> {
    Scene::from_json(text, model.materials()).map_err(SceneRenderError::Scene)
}

fn kind_signal(kind: &str) -> Signal {
    match kind {
        "loop" => Signal::Loop,
        "shot" => Signal::Shot,
        _ => Signal::Click,
    }
}

/// A scene set up in an engine, ready to render.
#[derive(Debug)]
pub struct Prepared {
    /// The engine (world, listener and voices in place; nothing rendered yet).
    pub engine: Engine,
    /// The voice at the scene's source position.
    pub source: Option<VoiceHandle>,
    /// Voices started.
    pub voices: usize,
    /// Source–listener distance.
    pub distance: f64,
    /// Where the scene's source starts and its velocity (m/s; zero: it stays).
    motion: (DVec3, DVec3),
    materials: resound_engine::advanced::acoustics::MaterialTable,
    expiring: BTreeSet<u64>,
    absent: Cell,
}

/// Builds an engine for `scene` from `builder` (mode, model, rate and limiter from `options`;
/// a device output's rate wins over `options.rate`) and starts the scene's voices.
///
/// # Errors
/// [`SceneRenderError`].
pub fn prepare(
    scene: &Scene,
    options: &SceneOptions,
    builder: EngineBuilder,
) -> Result<Prepared, SceneRenderError> {
    let mut model = options.model.clone();
    model.set_extra_planes(scene.planes().map_err(SceneRenderError::Scene)?);
    let materials = model.materials().clone();
    let world = scene
        .build_world(&materials, 0)
        .map_err(SceneRenderError::Scene)?;
    let mut engine = builder
        .air_paths(options.air_paths && scene.air_paths)
        .sample_rate(options.rate)
        .mode(options.mode)
        .model(model)
        .limiter(options.limiter)
        .build()
        .map_err(SceneRenderError::Build)?;
    engine.world().replace(world);
    let listener = DVec3::from_array(scene.listener);
    let source_pos = DVec3::from_array(scene.source);
    engine
        .set_listener(listener, Orientation::default())
        .map_err(|e| SceneRenderError::Play(e.into()))?;

    let mut loaded = std::collections::BTreeMap::new();
    let mut sound = |engine: &mut Engine, s: Signal| -> Result<_, SceneRenderError> {
        if let Some(h) = loaded.get(&s.name()) {
            return Ok(*h);
        }
        // The engine's rate: a device engine runs at the device's.
        let rate = engine.sample_rate();
        let samples: Arc<[f32]> = s.samples(rate).into();
        let h = engine
            .load_mono(samples, rate)
            .map_err(SceneRenderError::Load)?;
        loaded.insert(s.name(), h);
        Ok(h)
    };
    let mut main: Option<VoiceHandle> = None;
    let mut voices = 0;
    if scene.voices.is_empty() {
        let h = sound(&mut engine, options.signal)?;
        let v = engine
            .play(
                h,
                Source {
                    position: source_pos,
                    volume: 1.0,
                    range: scene.range as f32,
                    looping: options.signal.looping(),
                    impulsive: !options.signal.looping(),
                    ..Source::default()
                },
            )
            .map_err(SceneRenderError::Play)?;
        main = Some(v);
        voices = 1;
    } else {
        for sv in &scene.voices {
            let signal = kind_signal(&sv.kind);
            let h = sound(&mut engine, signal)?;
            let position = DVec3::from_array(sv.position);
            let v = engine
                .play(
                    h,
                    Source {
                        position,
                        volume: sv.volume as f32,
                        range: sv.range as f32,
                        looping: signal.looping(),
                        impulsive: !signal.looping(),
                        ..Source::default()
                    },
                )
                .map_err(SceneRenderError::Play)?;
            if position == source_pos && main.is_none() {
                main = Some(v);
            }
            voices += 1;
        }
    }
    Ok(Prepared {
        engine,
        source: main,
        voices,
        distance: (source_pos - listener).length(),
        motion: (source_pos, DVec3::from_array(scene.source_velocity)),
        materials,
        // Boxes that stop existing at a tick (scene U): their sections become resident then.
        expiring: scene.boxes.iter().filter_map(|b| b.until_tick).collect(),
        absent: if scene.absent == "unknown" {
            Cell::Unknown
        } else {
            Cell::Air
        },
    })
}

impl Prepared {
    /// Moves the scene's source to where its velocity has taken it at engine frame `frame`
    /// (a still source is not touched). The offline render calls it at every tick.
    ///
    /// # Errors
    /// [`SceneRenderError::Play`] if the position leaves the world.
    pub fn advance_source(&mut self, frame: u64) -> Result<(), SceneRenderError> {
        let (start, velocity) = self.motion;
        let Some(v) = self.source.filter(|_| velocity != DVec3::ZERO) else {
            return Ok(());
        };
        let t = frame as f64 / f64::from(self.engine.sample_rate());
        match self.engine.set_position(v, start + velocity * t) {
            // A one-shot that has ended has nowhere to move.
            Err(resound_engine::VoiceError::Input(e)) => Err(SceneRenderError::Play(e.into())),
            Err(_) | Ok(()) => Ok(()),
        }
    }

    /// Applies the scene's timed boxes for `tick`: sections of boxes that end at `tick` are
    /// loaded as they are without them (they "become resident"). Nothing happens at other ticks.
    ///
    /// # Errors
    /// [`SceneRenderError`].
    pub fn advance_world(&mut self, scene: &Scene, tick: u64) -> Result<(), SceneRenderError> {
        if !self.expiring.contains(&tick) {
            return Ok(());
        }
        let now = scene
            .build_world(&self.materials, tick)
            .map_err(SceneRenderError::Scene)?;
        let mut sections = BTreeSet::new();
        for b in scene.boxes.iter().filter(|b| b.until_tick == Some(tick)) {
            let (lo, hi) = (
                section_of(IVec3::from_array(b.min)),
                section_of(IVec3::from_array(b.max)),
            );
            for x in lo.x..=hi.x {
                for y in lo.y..=hi.y {
                    for z in lo.z..=hi.z {
                        sections.insert([x, y, z]);
                    }
                }
            }
        }
        let mut w = self.engine.world();
        for s in sections {
            let s = IVec3::from_array(s);
            let data = now
                .section_data(s)
                .unwrap_or(SectionData::Uniform(self.absent));
            w.load_section(s, data).map_err(SceneRenderError::World)?;
        }
        Ok(())
    }
}

/// Renders `scene` offline; `progress(done, total)` is called after every tick's frames.
///
/// # Errors
/// [`SceneRenderError`].
pub fn render(
    scene: &Scene,
    options: &SceneOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<SceneRender, SceneRenderError> {
    let total = frame_count(options)?;
    let mut samples = Vec::with_capacity(2 * total as usize);
    let mut r = render_to(scene, options, progress, &mut |block: &[f32]| {
        samples.extend_from_slice(block);
        Ok::<(), SceneRenderError>(())
    })?;
    r.samples = samples;
    Ok(r)
}

/// The number of frames a render of `options` has: `seconds × rate`, rounded.
///
/// # Errors
/// [`SceneRenderError::Seconds`] when `seconds` is not finite and positive (or over an hour).
pub fn frame_count(options: &SceneOptions) -> Result<u64, SceneRenderError> {
    if !options.seconds.is_finite() || options.seconds <= 0.0 || options.seconds > 3600.0 {
        return Err(SceneRenderError::Seconds);
    }
    Ok((options.seconds * f64::from(options.rate)).round() as u64)
}

/// [`render`] block by block, in memory that does not grow with the length: each tick's frames
/// (interleaved stereo) go to `sink` as soon as they are rendered and are not kept
/// ([`SceneRender::samples`] is empty). The blocks are the samples [`render`] returns, in order;
/// [`frame_count`] frames in all.
///
/// # Errors
/// [`SceneRenderError`] (as `E`), or the sink's error.
pub fn render_to<E: From<SceneRenderError>>(
    scene: &Scene,
    options: &SceneOptions,
    progress: &mut dyn FnMut(u64, u64),
    sink: &mut dyn FnMut(&[f32]) -> Result<(), E>,
) -> Result<SceneRender, E> {
    render_to_from(scene, options, Engine::builder(), progress, sink)
}

/// [`render_to`] on an engine from `builder` (for settings [`SceneOptions`] does not hold,
/// such as binaural output: `EngineBuilder::spatial`, `EngineBuilder::sofa`).
///
/// # Errors
/// [`SceneRenderError`] (as `E`), or the sink's error.
pub fn render_to_from<E: From<SceneRenderError>>(
    scene: &Scene,
    options: &SceneOptions,
    builder: EngineBuilder,
    progress: &mut dyn FnMut(u64, u64),
    sink: &mut dyn FnMut(&[f32]) -> Result<(), E>,
) -> Result<SceneRender, E> {
    let total = frame_count(options)?;
    let mut p = prepare(scene, options, builder)?;
    let tick_frames = p.engine.tick_frames();
    let mut block = vec![0.0f32; 2 * tick_frames.min(total) as usize];
    let mut done = 0u64;
    let mut report = p.source.and_then(|v| p.engine.voice_acoustics(v));
    while done < total {
        if done.is_multiple_of(tick_frames) {
            p.advance_world(scene, done / tick_frames)?;
            p.advance_source(done)?;
        }
        let n = (tick_frames - done % tick_frames).min(total - done);
        let out = &mut block[..2 * n as usize];
        out.fill(0.0);
        p.engine.render(out).map_err(SceneRenderError::Tick)?;
        sink(out)?;
        done += n;
        if let Some(r) = p.source.and_then(|v| p.engine.voice_acoustics(v)) {
            report = Some(r);
        }
        progress(done, total);
    }
    Ok(SceneRender {
        samples: Vec::new(),
        rate: options.rate,
        source: report,
        distance: p.distance,
        voices: p.voices,
        status: p.engine.status(),
        model: p.engine.model_name(),
    })
}

/// Sets `scene` up on a device engine and starts its stream so that the device plays what
/// [`render`] writes: the engine is built with its stream paused, the voices start evaluated
/// in full (as offline), tick 0 runs and its results apply before the first buffer (as the
/// offline render's first tick does), then the stream starts. Drive it with
/// [`Engine::update`] (and [`Prepared::advance_world`] per tick); for a static scene (nothing
/// moves, no timed boxes) the device then gets the offline render sample for sample.
///
/// `builder` carries the [`resound_engine::Output::Device`]; the engine runs at the device's rate.
///
/// # Errors
/// [`SceneRenderError`]; a device that cannot be opened is
/// `SceneRenderError::Build(BuildError::Output(_))`.
pub fn start_live(
    scene: &Scene,
    options: &SceneOptions,
    builder: EngineBuilder,
) -> Result<Prepared, SceneRenderError> {
    if !options.seconds.is_finite() || options.seconds <= 0.0 || options.seconds > 3600.0 {
        return Err(SceneRenderError::Seconds);
    }
    let mut p = prepare(scene, options, builder.start_paused(true))?;
    p.advance_world(scene, 0)?;
    p.engine.update(0.0).map_err(SceneRenderError::Tick)?;
    p.engine.settle().map_err(SceneRenderError::Tick)?;
    p.engine
        .start_output()
        .map_err(|e| SceneRenderError::Build(e.into()))?;
    Ok(p)
}

impl SceneRenderError {
    /// The device error behind this one, if the output could not be opened.
    #[must_use]
    pub fn device(&self) -> Option<&resound_engine::device::DeviceError> {
        match self {
            Self::Build(BuildError::Output(e)) => e.device(),
            _ => None,
        }
    }
}
