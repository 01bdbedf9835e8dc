//! The plugin's frame, in `PostUpdate` after transforms propagate, in this order: emitters
//! that were removed or despawned stop with their fade; the listener follows its entity; the
//! world's edits are pushed; emitters start, move and take their volume and range; the engine
//! ticks with Bevy's frame time; offline, the frame's audio is rendered. The observers of
//! [`PlayEmitter`] and [`StopEmitter`] are here too.

use bevy::ecs::change_detection::{DetectChanges, DetectChangesMut, Ref};
use bevy::ecs::entity::Entity;
use bevy::ecs::lifecycle::RemovedComponents;
use bevy::ecs::observer::On;
use bevy::ecs::query::With;
use bevy::ecs::system::{Query, Res, ResMut};
use bevy::math::Vec3;
use bevy::time::Time;
use bevy::transform::components::GlobalTransform;
use resound_engine::glam::DVec3;
use resound_engine::{Engine, Orientation, Source, Tween, VoiceError, Volume};

use crate::components::{Emitter, Listener, PlayEmitter, StopEmitter};
use crate::error::ResoundError;
use crate::resource::{ListenerState, OfflineAudio, Playing, Resound, ResoundStatus};
use crate::voxel::{GameWorldSource, VoxelWorld};

/// Bevy's position as the engine's (metres, the same axes).
fn position(t: &GlobalTransform) -> DVec3 {
    let p = t.translation();
    DVec3::new(f64::from(p.x), f64::from(p.y), f64::from(p.z))
}

/// Bevy's orientation as the engine's: forward is −Z, up is +Y, as in the engine. A transform
/// scaled to nothing gives zero vectors, which the engine refuses (`GlobalTransform::forward`
/// would assert on them instead).
fn orientation(t: &GlobalTransform) -> Orientation {
    let a = t.affine();
    let f = a.transform_vector3(Vec3::NEG_Z).normalize_or_zero();
    let u = a.transform_vector3(Vec3::Y).normalize_or_zero();
    Orientation {
        forward: DVec3::new(f64::from(f.x), f64::from(f.y), f64::from(f.z)),
        up: DVec3::new(f64::from(u.x), f64::from(u.y), f64::from(u.z)),
    }
}

/// Stops the voices of emitters removed or despawned since the last frame, with their fade.
pub(crate) fn stop_removed(
    mut removed: RemovedComponents<Emitter>,
    mut resound: ResMut<Resound>,
    mut status: ResMut<ResoundStatus>,
) {
    let resound = &mut *resound;
    for entity in removed.read() {
        if let Some(p) = resound.voices.remove(&entity) {
            status.check(stop(resound.engine_mut(), entity, p, p.stop_fade));
        }
    }
}

/// Stops a voice with a fade; one that already ended is no error.
fn stop(engine: &mut Engine, entity: Entity, p: Playing, fade: Tween) -> Result<(), ResoundError> {
    let Some(h) = p.voice else { return Ok(()) };
    match engine.voice(h).and_then(|mut v| v.stop(fade)) {
        Ok(()) | Err(VoiceError::Ended) => Ok(()),
        Err(error) => Err(ResoundError::Voice { entity, error }),
    }
}

/// The engine's listener follows the one [`Listener`] entity (the rule is on [`Listener`]).
pub(crate) fn sync_listener(
    listeners: Query<(Entity, Ref<GlobalTransform>), With<Listener>>,
    mut resound: ResMut<Resound>,
    mut status: ResMut<ResoundStatus>,
) {
    let count = listeners.iter().len();
    let Ok((entity, t)) = listeners.single() else {
        let state = if count == 0 {
            ListenerState::Missing
        } else {
            ListenerState::Many(count)
        };
        if state != status.listener {
            status.listener = state;
            if count > 1 {
                status.report(ResoundError::ManyListeners(count));
            }
        }
        return;
    };
    let fresh = status.listener != ListenerState::Following(entity);
    if fresh || t.is_changed() {
        status.listener = ListenerState::Following(entity);
        if let Err(e) = resound
            .engine_mut()
            .set_listener(position(&t), orientation(&t))
        {
            status.report(ResoundError::ListenerPose(e));
        }
    }
}

/// Pushes the frame's world edits: the game's own world if it gave one, else the voxel world.
pub(crate) fn push_world(
    voxels: Option<ResMut<VoxelWorld>>,
    game: Option<ResMut<GameWorldSource>>,
    mut resound: ResMut<Resound>,
    mut status: ResMut<ResoundStatus>,
) {
    if let Some(mut g) = game {
        // Only a changed source has anything to push (a plain read keeps the frame cheap).
        if g.is_changed() {
            let r = g.bypass_change_detection().push(resound.engine_mut());
            status.check(r);
        }
    }
    if let Some(mut v) = voxels
        && v.pending() > 0
    {
        let r = v.bypass_change_detection().push(resound.engine_mut());
        status.check(r);
    }
}

/// The engine's source for an emitter at `t`.
fn source(e: &Emitter, t: &GlobalTransform) -> Source {
    Source {
        position: position(t),
        volume: e.volume,
        range: e.range,
        looping: e.looping,
        impulsive: e.impulsive,
        power: e.power,
        track: e.track,
        fade_in: e.fade_in,
        ..Source::default()
    }
}

/// Starts `entity`'s emitter (stopping a voice it still had).
fn start(
    resound: &mut Resound,
    entity: Entity,
    e: &Emitter,
    t: &GlobalTransform,
) -> Result<(), ResoundError> {
    let old = resound.voices.remove(&entity);
    let stopped = match old {
        Some(p) => stop(resound.engine_mut(), entity, p, p.stop_fade),
        None => Ok(()),
    };
    let played = resound.engine_mut().play(e.sound, source(e, t));
    let voice = played.as_ref().ok().copied();
    resound.voices.insert(
        entity,
        Playing {
            voice,
            stop_fade: e.stop_fade,
        },
    );
    stopped?;
    played
        .map(|_| ())
        .map_err(|error| ResoundError::Play { entity, error })
}

/// Emitters start when added (autoplay), follow their transform and take volume and range.
pub(crate) fn sync_emitters(
    emitters: Query<(Entity, Ref<Emitter>, Ref<GlobalTransform>)>,
    mut resound: ResMut<Resound>,
    mut status: ResMut<ResoundStatus>,
) {
    let resound = &mut *resound;
    for (entity, e, t) in &emitters {
        if e.is_added() {
            if e.autoplay {
                status.check(start(resound, entity, &e, &t));
            }
            continue;
        }
        let (moved, changed) = (t.is_changed(), e.is_changed());
        if !moved && !changed {
            continue;
        }
        let Some(p) = resound.voices.get_mut(&entity) else {
            continue;
        };
        p.stop_fade = e.stop_fade;
        let Some(h) = p.voice else { continue };
        let engine = &mut resound.engine;
        if !engine.is_playing(h) {
            p.voice = None;
            continue;
        }
        let r = engine.voice(h).and_then(|mut v| {
            if moved {
                v.set_position(position(&t))?;
            }
            if changed {
                v.set_volume(Volume::Amplitude(e.volume), Tween::IMMEDIATE)?;
                v.set_range(e.range)?;
            }
            Ok(())
        });
        match r {
            Ok(()) => {}
            Err(VoiceError::Ended) => p.voice = None,
            Err(error) => status.report(ResoundError::Voice { entity, error }),
        }
    }
}

/// Ticks the engine with Bevy's frame time and, offline, renders the frame's audio: the
/// frames from the last render up to `elapsed × rate` (rounded down, in integer nanoseconds),
/// so the audio keeps Bevy's clock exactly.
pub(crate) fn tick(
    time: Res<Time>,
    mut resound: ResMut<Resound>,
    mut status: ResMut<ResoundStatus>,
) {
    let resound = &mut *resound;
    let engine = &mut resound.engine;
    if let Err(e) = engine.update(time.delta_secs_f64()) {
        status.report(e.into());
    }
    let Some(out) = resound.offline.as_mut() else {
        return;
    };
    let rate = u128::from(engine.sample_rate());
    let target = time.elapsed().as_nanos() * rate / 1_000_000_000;
    status.check(render(engine, out, target));
}

/// Renders up to audio frame `target` into the frame's block (and the recording).
fn render(engine: &mut Engine, out: &mut OfflineAudio, target: u128) -> Result<(), ResoundError> {
    let frames = usize::try_from(target.saturating_sub(u128::from(out.frames))).unwrap_or(0);
    out.block.clear();
    out.block.resize(2 * frames, 0.0);
    if frames == 0 {
        return Ok(());
    }
    engine.render(&mut out.block)?;
    out.frames += frames as u64;
    if let Some(r) = out.recording.as_mut() {
        r.extend_from_slice(&out.block);
    }
    Ok(())
}

/// [`PlayEmitter`]: (re)start the emitter.
pub(crate) fn on_play(
    ev: On<PlayEmitter>,
    emitters: Query<(&Emitter, &GlobalTransform)>,
    resound: Option<ResMut<Resound>>,
    mut status: ResMut<ResoundStatus>,
) {
    let (Some(mut resound), Ok((e, t))) = (resound, emitters.get(ev.entity)) else {
        return;
    };
    status.check(start(&mut resound, ev.entity, e, t));
}

/// [`StopEmitter`]: stop the emitter's voice, keeping the component.
pub(crate) fn on_stop(
    ev: On<StopEmitter>,
    resound: Option<ResMut<Resound>>,
    mut status: ResMut<ResoundStatus>,
) {
    let Some(mut resound) = resound else { return };
    let Some(p) = resound.voices.get_mut(&ev.entity) else {
        return;
    };
    let playing = *p;
    p.voice = None;
    let fade = ev.fade.unwrap_or(playing.stop_fade);
    status.check(stop(resound.engine_mut(), ev.entity, playing, fade));
}
