//! [`ResoundPlugin`]: builds the engine into the [`Resound`] resource and adds the frame's
//! systems ([`ResoundSystems`], in `PostUpdate` after transforms propagate) and the
//! play/stop observers.

use bevy::app::{App, Plugin, PostUpdate};
use bevy::ecs::schedule::common_conditions::resource_exists;
use bevy::ecs::schedule::{IntoScheduleConfigs, SystemSet};
use bevy::transform::TransformSystems;
use resound_engine::{Engine, EngineBuilder, Materials, Mode, Output};

use crate::error::ResoundError;
use crate::resource::{Resound, ResoundStatus};
use crate::systems;
use crate::voxel::VoxelWorld;

/// The plugin's systems, one chain in `PostUpdate` after `TransformSystems::Propagate`.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResoundSystems;

/// Resound in a Bevy app: the engine as the [`Resound`] resource, a [`VoxelWorld`] to fill,
/// the listener and emitters synced from their `GlobalTransform` every frame and the engine
/// ticked from Bevy's `Time`.
///
/// Output goes to the default sound card ([`Self::device`], the default with the `device`
/// feature), or is rendered offline, frame by frame, into a buffer the app reads
/// ([`Self::offline`]: tests, servers, film renders; bit for bit the same on every run).
/// If the engine cannot be built (no sound card, a bad setting) the app goes on without
/// sound: there is no [`Resound`] resource and [`ResoundStatus::last_error`] says why.
#[derive(Debug, Clone)]
pub struct ResoundPlugin {
    builder: EngineBuilder,
    output: Output,
    /// The game's own material table (`None`: the engine's standard one, the model untouched).
    materials: Option<Materials>,
}

impl Default for ResoundPlugin {
    /// The default device with the `device` feature; offline without it.
    fn default() -> Self {
        if cfg!(feature = "device") {
            Self::device()
        } else {
            Self::offline()
        }
    }
}

impl ResoundPlugin {
    fn with_output(output: Output) -> Self {
        Self {
            builder: Engine::builder().mode(Mode::Full),
            output,
            materials: None,
        }
    }

    /// Plays on the default sound card (the engine ticks from `update`).
    #[must_use]
    pub fn device() -> Self {
        Self::with_output(Output::Device {
            name: None,
            sample_rate: None,
            buffer_frames: None,
        })
    }

    /// Renders offline: each app update renders the audio of Bevy's frame time into
    /// [`Resound::offline_block`].
    #[must_use]
    pub fn offline() -> Self {
        Self::with_output(Output::Offline)
    }

    /// The engine's settings (rate, mode, model, budgets, capacities, policy): the plugin
    /// keeps its own output and materials. Default: `Engine::builder().mode(Mode::Full)`.
    #[must_use]
    pub fn with_builder(mut self, builder: EngineBuilder) -> Self {
        self.builder = builder;
        self
    }

    /// The material table for both the engine and the [`VoxelWorld`]'s names.
    #[must_use]
    pub fn materials(mut self, materials: Materials) -> Self {
        self.materials = Some(materials);
        self
    }

    /// Whether this plugin renders offline.
    #[must_use]
    pub fn is_offline(&self) -> bool {
        self.output == Output::Offline
    }
}

impl Plugin for ResoundPlugin {
    fn build(&self, app: &mut App) {
        let mut status = ResoundStatus::default();
        let mut builder = self.builder.clone().output(self.output.clone());
        if let Some(m) = &self.materials {
            builder = builder.materials(m.clone());
        }
        let built = builder.build();
        match built {
            Ok(engine) => {
                app.insert_resource(Resound::new(engine, self.is_offline()));
            }
            Err(e) => status.report(ResoundError::Build(e)),
        }
        app.insert_resource(status)
            .insert_resource(VoxelWorld::new(self.materials.clone().unwrap_or_default()))
            .configure_sets(
                PostUpdate,
                ResoundSystems.after(TransformSystems::Propagate),
            )
            .add_systems(
                PostUpdate,
                (
                    systems::stop_removed,
                    systems::sync_listener,
                    systems::push_world,
                    systems::sync_emitters,
                    systems::tick,
                )
                    .chain()
                    .in_set(ResoundSystems)
                    .run_if(resource_exists::<Resound>),
            )
            .add_observer(systems::on_play)
            .add_observer(systems::on_stop);
    }
}
