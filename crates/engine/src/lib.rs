//! Resound: a game-audio engine whose sounds are muffled by walls, echo off cliffs with their
//! true delays and ring with the room the listener stands in, and that plays the Asheron's
//! Call client's ambient sound the way the retail client did.
//!
//! ```
//! use std::sync::Arc;
//! use resound_engine::{Engine, Mode, Orientation, Source, Tween, Volume, glam::DVec3};
//!
//! let mut engine = Engine::builder().mode(Mode::Direct).build()?;
//! let click: Arc<[f32]> = (0..4800).map(|i| if i % 480 == 0 { 0.5 } else { 0.0 }).collect();
//! let sound = engine.load_mono(click, 48_000)?;
//! engine.set_listener(DVec3::new(10.5, 1.5, 0.5), Orientation::default())?;
//! let voice = engine.play(sound, Source {
//!     position: DVec3::new(0.5, 1.5, 0.5),
//!     looping: true,
//!     ..Source::default()
//! })?;
//! engine.voice(voice)?.set_volume(Volume::Decibels(-6.0), Tween::linear(0.5))?;
//! let mut out = vec![0.0f32; 2 * 4800];
//! engine.render(&mut out)?; // offline: deterministic, bit for bit
//! assert!(out.iter().any(|s| *s != 0.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Units and axes
//!
//! Positions are metres in a right-handed voxel world: **one block (cell) is one metre**,
//! **+Y is up**, and a listener with the default [`Orientation`] looks down **−Z** with **+X**
//! to its right. Cell `(x, y, z)` covers `x..x+1` × `y..y+1` × `z..z+1`. Times are seconds,
//! rates hertz, levels linear amplitude unless a [`Volume::Decibels`] says otherwise. The
//! Asheron's Call mapping (landblock positions ↔ this world) is [`terrain::axes`].
//!
//! # What is here
//!
//! | topic | items |
//! |---|---|
//! | the engine | [`Engine`], [`Engine::builder`] ([`EngineBuilder`]: rate, [`Output`], [`Mode`], [`Model`], [`Budgets`], [`Capacities`], [`VoicePolicy`], [`Pacing`]) |
//! | sounds | [`Engine::load_file`] (WAV/MP3 by content), [`Engine::load_wav`], [`Engine::load_mp3`], [`Engine::load_wave`], [`Engine::load_mono`]; [`SoundHandle`]; decoders in [`sound`] |
//! | voices | [`Engine::play`] with a [`Source`] (position, volume, range, loop, [`StartTime`], rate, [`Track`], fade-in, propagation delay and Doppler); [`Engine::voice`] → [`VoiceMut`]: volume ([`Volume`]) and rate with a [`Tween`] ([`Easing`]), position, pause/resume, stop with a fade, propagation and Doppler |
//! | sound that travels | a positional voice in `reflect`/`full` is heard `path / 343` s after it starts ([`SPEED_OF_SOUND`], [`propagation_delay`], the retarded [`retarded_delay`]); the delay follows motion (Doppler), a teleport ([`TELEPORT_M`]) cuts it |
//! | tracks | [`Engine::add_track`], [`Engine::set_track_volume`]: sub-mixes a game controls |
//! | the listener | [`Engine::set_listener`], [`Orientation`], [`Listener`] |
//! | the world | the engine's own voxel world ([`Engine::world`] → [`WorldEdit`], cells of a [`Material`]), or the game's own ([`Engine::set_world`], [`GameWorld`]), or Asheron's Call terrain ([`Engine::attach_terrain`]) |
//! | Asheron's Call ambient | [`Engine::attach_ambient`] (a DAT folder) or [`Engine::attach_ambient_sources`] (any sound-table and land-block source), [`Engine::set_listener_cell`] ([`ListenerCell`]: outdoor or an EnvCell, [`SeenOutside`]), [`AmbientStatus`] |
//! | the game loop | [`Engine::update`] every frame (live), [`Engine::render`] (offline), [`Engine::status`], [`Engine::clock`] |
//! | live output | [`Output::Device`], [`device`] |
//! | headphones | [`EngineBuilder::spatial`] ([`Spatial::Binaural`]: HRTF rendering of positional voices), [`EngineBuilder::sofa`] (an AES69 SOFA file); the built-in set (feature `hrtf-default`) is IRCAM LISTEN IRC_1040, © 2014–2017 IRCAM, used under IRCAM's permission for any purpose: a binary embedding it must carry the notice `resound_dsp::hrtf::ircam::IRCAM_NOTICE` (README, Licences) |
//! | errors | one enum per kind of operation, each message one plain line |
//! | the layers beneath | [`advanced`]: the acoustic model, the mixer, the DSP, the DAT formats, the retail ambient runtime |
//!
//! # Threads
//!
//! [`Engine`] is `Send` and `Sync`: it can live in a game engine's resource (Bevy's `Resource`
//! needs both) or move to an audio thread of the game's own. Every method that changes it
//! takes `&mut self`; queries (`status`, `is_playing`, `live_voices`, `clock`, `voice_state`)
//! take `&self` and answer as of the last [`Engine::update`] or render. The acoustics run on a
//! worker thread the engine owns; the device callback owns the mixer's audio-thread half and
//! never waits for either.

mod builder;
mod convert;
pub mod device;
mod error;
mod game_world;
mod listener_cell;
mod material;
mod model;
mod output;
mod playback;
mod runtime;
mod schedule;
pub mod sound;
mod source;
mod status;
mod status_line;
pub mod terrain;
mod worker;
mod world;

pub use builder::{AudioGuard, Budgets, Capacities, EngineBuilder, Pacing, VoicePolicy};
pub use error::{
    BuildError, Cells, InputError, LoadError, PlayError, Problem, TickError, TrackError,
    UnloadError, VoiceError, WorldError,
};
pub use game_world::GameWorld;
pub use listener_cell::{ListenerCell, ListenerCellError, SeenOutside};
pub use material::{Block, Material, MaterialError, MaterialSpec, Materials};
pub use model::Model;
pub use output::{Output, OutputError};
pub use playback::{
    Easing, MAX_RATE, MAX_TRACKS, SILENCE_DB, StartTime, Track, Tween, VoiceState, Volume,
};
pub use resound_acoustics::Mode;
pub use resound_mixer::Spatial;
pub use runtime::{
    AMBIENT_RANGE, AttachTerrainError, Engine, GLIDE_SPEED, MAX_DT, MAX_SOUND_FILE_BYTES,
    MAX_TRACK_NAME, SPEED_OF_SOUND, SoundError, SoundHandle, TELEPORT_M, VoiceAcoustics,
    VoiceHandle, VoiceMut, heading_orientation, propagation_delay, retarded_delay,
};
pub use schedule::Class;
pub use source::{Listener, MAX_COORDINATE, MAX_POWER, MAX_RANGE, MAX_VOLUME, Orientation, Source};
pub use status::{AmbientStatus, Status};
pub use terrain::{TerrainError, TerrainWorld};
pub use world::WorldEdit;

pub use glam;

/// The layers beneath the engine, for tools and for games that need one directly: the
/// acoustic model and voxel world ([`advanced::acoustics`]), the lock-free mixer
/// ([`advanced::mixer`]), the DSP ([`advanced::dsp`]), the DAT formats
/// ([`advanced::datformat`]) and the retail ambient runtime ([`advanced::ambient`]). Their APIs
/// change more often than the engine's.
pub mod advanced {
    pub use resound_acoustics as acoustics;
    pub use resound_ambient as ambient;
    pub use resound_datformat as datformat;
    pub use resound_dsp as dsp;
    pub use resound_mixer as mixer;
    /// The Sound Physics Remastered model (GNU GPL version 3 only; only with the `spr-gpl`
    /// feature).
    #[cfg(feature = "spr-gpl")]
    pub use resound_spr as spr;
}

#[cfg(test)]
mod send_sync {
    fn send_sync<T: Send + Sync>() {}

    #[test]
    fn the_engine_is_send_and_sync() {
        send_sync::<crate::Engine>();
    }
}
