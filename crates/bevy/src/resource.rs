//! [`Resound`]: the engine as a Bevy resource (the engine is `Send` and `Sync`), the voices its
//! emitters play and, offline, the audio rendered this frame; [`ResoundStatus`]: what the
//! plugin could not do.

use bevy::ecs::entity::{Entity, EntityHashMap};
use bevy::ecs::resource::Resource;
use resound_engine::{Engine, Tween, VoiceHandle};

use crate::error::ResoundError;

/// The audio engine and what the plugin keeps beside it. Reach the engine through
/// [`Self::engine_mut`] to load sounds, add tracks or change the mode; the plugin moves the
/// listener, plays the emitters and ticks the engine itself.
#[derive(Resource, Debug)]
pub struct Resound {
    pub(crate) engine: Engine,
    /// The voice each emitter entity plays, and the fade it stops with.
    pub(crate) voices: EntityHashMap<Playing>,
    /// Offline output: what was rendered, `None` for a device.
    pub(crate) offline: Option<OfflineAudio>,
}

/// An emitter's voice (`None` once it ended or was stopped) and its stop fade.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Playing {
    pub(crate) voice: Option<VoiceHandle>,
    pub(crate) stop_fade: Tween,
}

/// The offline render: the frames rendered so far and this frame's block.
#[derive(Debug, Default)]
pub(crate) struct OfflineAudio {
    /// Audio frames rendered since the start.
    pub(crate) frames: u64,
    /// This app frame's audio, interleaved stereo (its buffer is reused).
    pub(crate) block: Vec<f32>,
    /// Everything rendered since recording started, when recording.
    pub(crate) recording: Option<Vec<f32>>,
}

impl Resound {
    pub(crate) fn new(engine: Engine, offline: bool) -> Self {
        Self {
            engine,
            voices: EntityHashMap::default(),
            offline: offline.then(OfflineAudio::default),
        }
    }

    /// The engine, to read (status, clock, voices' acoustics).
    #[must_use]
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to change: load and unload sounds, add tracks, set the mode. Leave the
    /// listener, the emitters' voices and `update` to the plugin.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The voice the emitter on `entity` plays (`None`: no emitter there, not started, or
    /// ended).
    #[must_use]
    pub fn voice(&self, entity: Entity) -> Option<VoiceHandle> {
        self.voices.get(&entity).and_then(|p| p.voice)
    }

    /// Offline output: the audio rendered during the last app update, interleaved stereo at
    /// [`Engine::sample_rate`] (empty for a device, or before the first update).
    #[must_use]
    pub fn offline_block(&self) -> &[f32] {
        self.offline.as_ref().map_or(&[], |o| &o.block)
    }

    /// Offline output: audio frames rendered since the start.
    #[must_use]
    pub fn frames_rendered(&self) -> u64 {
        self.offline.as_ref().map_or(0, |o| o.frames)
    }

    /// Offline output: keep every block from now on (for a WAV of the whole run; this
    /// allocates as the recording grows). No effect for a device.
    pub fn start_recording(&mut self) {
        if let Some(o) = self.offline.as_mut() {
            o.recording.get_or_insert_with(Vec::new);
        }
    }

    /// Offline output: the recording so far (interleaved stereo), which stops.
    pub fn take_recording(&mut self) -> Vec<f32> {
        self.offline
            .as_mut()
            .and_then(|o| o.recording.take())
            .unwrap_or_default()
    }
}

/// Where the plugin's listener rule stands ([`crate::Listener`]: exactly one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ListenerState {
    /// No entity has a `Listener`: the engine's listener stays where it was.
    #[default]
    Missing,
    /// One entity has it: the engine's listener follows it.
    Following(Entity),
    /// This many entities have it: the engine's listener stays where it was.
    Many(usize),
}

/// What the plugin could not do, kept for the game to read (the plugin never panics on the
/// game's values).
#[derive(Resource, Debug, Default)]
pub struct ResoundStatus {
    /// The listener rule.
    pub listener: ListenerState,
    /// The latest error.
    pub last_error: Option<ResoundError>,
    /// Errors since the start.
    pub errors: u64,
}

impl ResoundStatus {
    /// Records an error.
    pub(crate) fn report(&mut self, e: ResoundError) {
        self.errors += 1;
        self.last_error = Some(e);
    }

    /// Records the error of `r`, if any.
    pub(crate) fn check(&mut self, r: Result<(), ResoundError>) {
        if let Err(e) = r {
            self.report(e);
        }
    }
}
