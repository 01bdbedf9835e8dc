//! The components a game puts on its entities: one [`Listener`] (the camera or the player's
//! head) and any number of [`Emitter`]s, and the two events that start and stop an emitter by
//! hand ([`PlayEmitter`], [`StopEmitter`]).

use bevy::ecs::component::Component;
use bevy::ecs::entity::Entity;
use bevy::ecs::event::EntityEvent;
use bevy::transform::components::Transform;
use resound_engine::{SoundHandle, Track, Tween};

/// The one entity whose [`GlobalTransform`](bevy::transform::components::GlobalTransform) is
/// the listener: its translation is the ears' position and its forward (−Z) and up (+Y) the
/// head's orientation, the engine's own axes (one unit is one metre and one voxel).
///
/// **Rule:** exactly one entity has a `Listener`. With none, or with two or more, the engine's
/// listener stays where it was (at the origin if it never moved) and
/// [`crate::ResoundStatus::listener`] says why; every sound goes on playing.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[require(Transform)]
pub struct Listener;

/// A sound that plays at its entity's position, muffled by walls, echoing and reverberating
/// in the [`crate::VoxelWorld`] (or the game's own world, [`crate::GameWorldSource`]).
///
/// The voice starts when the component is added (unless `autoplay` is off: then at
/// [`PlayEmitter`]), follows the entity's `GlobalTransform` every frame, takes changes of
/// `volume` and `range` at once, and stops with `stop_fade` when the component is removed or
/// the entity despawned. A sound that is not `looping` plays once; the component stays.
/// Other fields (`sound`, `looping`, the class hints, `track`, `fade_in`) are read when the
/// voice starts: change them, then trigger [`PlayEmitter`] to restart with them.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(Transform)]
pub struct Emitter {
    /// The sound (load it with [`crate::Resound::engine_mut`]: `load_wav`, `load_file`,
    /// `load_mono`).
    pub sound: SoundHandle,
    /// Linear volume, 0..=[`resound_engine::MAX_VOLUME`] (1: as recorded).
    pub volume: f32,
    /// Metres at which the distance gain reaches 0.
    pub range: f32,
    /// Loop until stopped.
    pub looping: bool,
    /// Class hint: an impulsive event (a shot, a door slam) whose acoustic work jumps the
    /// queue.
    pub impulsive: bool,
    /// Class hint: the event's power; impulsive events of power ≥ 2 within 400 m get the
    /// full treatment (echoes included).
    pub power: f32,
    /// The sub-mix track the voice follows ([`Track::MAIN`] unless the game added others).
    pub track: Track,
    /// Fade in from silence over this tween when the voice starts.
    pub fade_in: Tween,
    /// Fade out over this tween when the emitter is removed, despawned or stopped.
    pub stop_fade: Tween,
    /// Start as soon as the component is added (default); off: wait for [`PlayEmitter`].
    pub autoplay: bool,
}

/// The fade an emitter stops with unless told otherwise: 50 ms, linear (click-free).
pub const DEFAULT_STOP_FADE: Tween = Tween {
    duration: 0.05,
    easing: resound_engine::Easing::Linear,
};

impl Emitter {
    /// A sound played once at full volume, 256 m range, started at once, stopped with
    /// [`DEFAULT_STOP_FADE`].
    #[must_use]
    pub fn new(sound: SoundHandle) -> Self {
        Self {
            sound,
            volume: 1.0,
            range: 256.0,
            looping: false,
            impulsive: false,
            power: 0.0,
            track: Track::MAIN,
            fade_in: Tween::IMMEDIATE,
            stop_fade: DEFAULT_STOP_FADE,
            autoplay: true,
        }
    }

    /// The same emitter, looping.
    #[must_use]
    pub fn looping(mut self) -> Self {
        self.looping = true;
        self
    }

    /// The same emitter at linear volume `volume`.
    #[must_use]
    pub fn with_volume(mut self, volume: f32) -> Self {
        self.volume = volume;
        self
    }

    /// The same emitter with range `range` metres.
    #[must_use]
    pub fn with_range(mut self, range: f32) -> Self {
        self.range = range;
        self
    }

    /// The same emitter as an impulsive event of power `power` (the class hints).
    #[must_use]
    pub fn impulsive(mut self, power: f32) -> Self {
        self.impulsive = true;
        self.power = power;
        self
    }

    /// The same emitter, fading out over `fade` when it stops.
    #[must_use]
    pub fn with_stop_fade(mut self, fade: Tween) -> Self {
        self.stop_fade = fade;
        self
    }

    /// The same emitter, waiting for [`PlayEmitter`] instead of starting when added.
    #[must_use]
    pub fn paused(mut self) -> Self {
        self.autoplay = false;
        self
    }
}

/// Starts (or restarts from the beginning) the emitter on `entity`; a voice it still had
/// stops with its `stop_fade`. Trigger it with `commands.trigger(PlayEmitter { entity })`.
#[derive(EntityEvent, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayEmitter {
    /// The emitter's entity.
    pub entity: Entity,
}

/// Stops the emitter on `entity` (its component stays; [`PlayEmitter`] starts it again).
#[derive(EntityEvent, Debug, Clone, Copy, PartialEq)]
pub struct StopEmitter {
    /// The emitter's entity.
    pub entity: Entity,
    /// The fade; `None`: the emitter's own `stop_fade`.
    pub fade: Option<Tween>,
}
