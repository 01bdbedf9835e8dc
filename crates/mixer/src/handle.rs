//! The game-thread half: [`MixerHandle`].
//!
//! Every method runs on the game thread and may allocate nothing beyond what `build` sized; it
//! never waits for the audio thread. Parameters are validated here, so NaN, infinities and
//! out-of-range values never reach the renderer.

use std::sync::{Arc, Mutex, PoisonError};

use rtrb::{Consumer, Producer};

use crate::block::ParamBlock;
use crate::command::{Command, Returned, StartControls};
use crate::control::{Control, MAX_RATE, TRACKS, Tween};
use crate::error::{
    LoadSoundError, ParamError, ParamProblem, PlayError, StopError, UnloadSoundError, UpdateError,
};
use crate::params::{
    MAX_TAPS, Tap, TapSetTargets, VoiceParams, VoiceTargets, set_tap_targets, validate_taps,
};
use crate::settings::Resampler;
use crate::sound::{SoundData, SoundId};
use crate::status::MixerStatus;
use crate::travel::{DirectDelay, MAX_DELAY_S};

/// Largest accepted sound length in frames.
pub const MAX_SOUND_FRAMES: usize = 1 << 31;
/// Largest accepted sample magnitude (nominal full scale is 1). Bounding the input keeps every
/// product in the chain (volume ≤ 16, shelf ≤ 4, sends ≤ 16, reverb gains) far from overflow,
/// so no infinity can enter a filter or the reverb's feedback loops.
pub const MAX_SAMPLE_MAGNITUDE: f32 = 1024.0;
/// Largest accepted sound sample rate in Hz.
pub const MAX_SOUND_RATE: u32 = 384_000;

/// Id of a started voice. Ids order voices the way the renderer sums them (by slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VoiceId {
    pub(crate) slot: u32,
    pub(crate) generation: u32,
}

impl VoiceId {
    /// Voice slot (0..`Capacities::voices`); the renderer sums voices in slot order.
    #[must_use]
    pub fn slot(self) -> u32 {
        self.slot
    }
}

/// How to start a voice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaySettings {
    /// Loop the sample forever (until stopped) instead of playing it once.
    pub looping: bool,
    /// Initial parameters; the voice starts at them (no ramp).
    pub params: VoiceParams,
    /// The renderer frame (frames rendered since build, [`MixerStatus::frames_rendered`]) of
    /// the voice's first sample; `None` or a frame already rendered: the next block's start.
    /// Sample-accurate.
    pub start_frame: Option<u64>,
    /// The game's gain (amplitude, 0..=[`MAX_GAIN`](crate::MAX_GAIN)) at the start; tween it
    /// with [`MixerHandle::tween`].
    pub gain: f32,
    /// Playback rate at the start, 0..=[`MAX_RATE`] (2 = an octave up and twice as fast).
    pub rate: f32,
    /// The sub-mix track (0..[`TRACKS`]) whose gain the voice follows; 0 is the main track.
    pub track: u8,
    /// Play a stereo sound's two channels (left to left, right to right; the pan is a
    /// balance). A mono sound plays mono. Stereo voices take no occlusion shelf and no taps.
    pub stereo: bool,
    /// The direct path's propagation delay at the start, seconds (0..=[`MAX_DELAY_S`]): the
    /// voice is silent this long, then plays from its first sample (its taps keep their delays
    /// after it). Change it with [`MixerHandle::set_delay`].
    pub delay: f32,
}

impl Default for PlaySettings {
    fn default() -> Self {
        Self {
            looping: false,
            params: VoiceParams::default(),
            start_frame: None,
            gain: 1.0,
            rate: 1.0,
            track: 0,
            stereo: false,
            delay: 0.0,
        }
    }
}

fn check_control(field: &'static str, v: f32, hi: f32) -> Result<(), ParamError> {
    if !v.is_finite() {
        return Err(ParamError {
            field,
            problem: ParamProblem::NotFinite,
        });
    }
    if !(0.0..=hi).contains(&v) {
        return Err(ParamError {
            field,
            problem: ParamProblem::OutOfRange,
        });
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum SoundSlot {
    Free,
    Loaded(Arc<SoundData>),
    Unloading,
}

#[derive(Debug, Clone, Copy)]
struct HandleVoice {
    generation: u32,
    params: VoiceParams,
    taps: [Tap; MAX_TAPS],
    tap_count: usize,
    tap_set: Option<u32>,
    stopping: bool,
    looping: bool,
    stereo: bool,
    /// The delay targets: seconds, glide seconds, cuts asked for.
    delay: (f32, f32, u32),
}

impl HandleVoice {
    /// The voice's renderer targets: its parameters and its delay.
    fn targets(&self) -> VoiceTargets {
        let mut t = self.params.targets_for(self.generation, self.stereo);
        (t.delay, t.glide, t.cuts) = self.delay;
        t
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TapSlot {
    Free,
    Active { voice: u32 },
    Draining { voice: u32 },
}

/// The game-thread side of the mixer: loads sounds, starts, changes and stops voices.
///
/// Commands go to the renderer through a wait-free ring; continuous parameters through a triple
/// buffer published by [`flush`](Self::flush) (call it once per game tick). Retired sample
/// buffers come back and are dropped here, never on the audio thread.
///
/// `Send + Sync`: the ring ends sit in `Mutex`es only to make the type `Sync`; every method takes
/// `&mut self` and uses `Mutex::get_mut`, so no lock is ever taken.
#[derive(Debug)]
pub struct MixerHandle {
    commands: Mutex<Producer<Command>>,
    returns: Mutex<Consumer<Returned>>,
    params_in: triple_buffer::Input<ParamBlock>,
    status_out: triple_buffer::Output<MixerStatus>,
    block: ParamBlock,
    dirty: bool,
    voices: Vec<Option<HandleVoice>>,
    sounds: Vec<SoundSlot>,
    sound_generations: Vec<u32>,
    tap_slots: Vec<TapSlot>,
    next_generation: u32,
    /// Voices the renderer reported ended and nobody has taken yet ([`MixerHandle::drain_ended`]).
    ended: Vec<VoiceId>,
    sample_rate: u32,
    /// Sounds are raised at load for [`Resampler::Oversampled`].
    resampler: Resampler,
}

fn get<T>(m: &mut Mutex<T>) -> &mut T {
    m.get_mut().unwrap_or_else(PoisonError::into_inner)
}

impl MixerHandle {
    #[allow(clippy::too_many_arguments)] // private constructor fed by `build`
    pub(crate) fn new(
        commands: Producer<Command>,
        returns: Consumer<Returned>,
        params_in: triple_buffer::Input<ParamBlock>,
        status_out: triple_buffer::Output<MixerStatus>,
        block: ParamBlock,
        sounds: usize,
        sample_rate: u32,
        resampler: Resampler,
    ) -> Self {
        let voices = block.voices.len();
        let taps = block.tap_sets.len();
        Self {
            commands: Mutex::new(commands),
            returns: Mutex::new(returns),
            params_in,
            status_out,
            block,
            dirty: false,
            voices: vec![None; voices],
            sounds: vec![SoundSlot::Free; sounds],
            sound_generations: vec![0; sounds],
            tap_slots: vec![TapSlot::Free; taps],
            next_generation: 1,
            ended: Vec::with_capacity(voices),
            sample_rate,
            resampler,
        }
    }

    fn push(&mut self, cmd: Command) -> Result<(), Command> {
        get(&mut self.commands)
            .push(cmd)
            .map_err(|rtrb::PushError::Full(c)| c)
    }

    fn command_slots(&mut self) -> usize {
        get(&mut self.commands).slots()
    }

    /// Drains the return ring: frees ended voices' slots and drops released sample buffers
    /// (here, on the game thread). Every other method calls it first; returns how many
    /// messages were handled.
    pub fn collect(&mut self) -> usize {
        let mut n = 0;
        while let Ok(msg) = get(&mut self.returns).pop() {
            n += 1;
            match msg {
                Returned::VoiceEnded { slot, generation } => self.voice_ended(slot, generation),
                Returned::SoundReleased { slot, sound } => {
                    if let Some(s) = self.sounds.get_mut(slot as usize) {
                        *s = SoundSlot::Free;
                    }
                    drop(sound);
                }
                Returned::TapSetReleased { slot } => {
                    if let Some(t) = self.tap_slots.get_mut(slot as usize)
                        && matches!(t, TapSlot::Draining { .. })
                    {
                        *t = TapSlot::Free;
                        self.block.tap_sets[slot as usize] = TapSetTargets::default();
                        self.dirty = true;
                    }
                }
            }
        }
        n
    }

    fn voice_ended(&mut self, slot: u32, generation: u32) {
        let s = slot as usize;
        let Some(Some(v)) = self.voices.get(s) else {
            return;
        };
        if v.generation != generation {
            return;
        }
        self.voices[s] = None;
        self.ended.push(VoiceId { slot, generation });
        self.block.voices[s] = Default::default();
        for (i, t) in self.tap_slots.iter_mut().enumerate() {
            if matches!(*t, TapSlot::Active { voice } | TapSlot::Draining { voice } if voice == slot)
            {
                *t = TapSlot::Free;
                self.block.tap_sets[i] = TapSetTargets::default();
            }
        }
        self.dirty = true;
    }

    /// The voices that have ended since the last call, in the order the renderer reported them
    /// (a one-shot's last frame played, a stop's fade done, a voice that could not start):
    /// the mixer's own account, so no caller needs to re-derive a voice's length. Drains the
    /// return ring first. Each started voice is reported once; the list holds one entry per
    /// voice slot before it grows (it only grows if voices end and restart faster than it is
    /// drained).
    pub fn drain_ended(&mut self) -> std::vec::Drain<'_, VoiceId> {
        self.collect();
        self.ended.drain(..)
    }

    /// Publishes the current parameter block to the renderer (latest value wins). Cheap when
    /// nothing changed; call once per game tick after changing parameters.
    pub fn flush(&mut self) {
        self.collect();
        if self.dirty {
            self.params_in.input_buffer_mut().copy_from(&self.block);
            self.params_in.publish();
            self.dirty = false;
        }
    }

    /// Loads a mono sample buffer; the renderer keeps it until [`unload_sound`](Self::unload_sound).
    ///
    /// # Errors
    /// [`LoadSoundError`]: empty, too long, bad rate, a non-finite sample or one above
    /// [`MAX_SAMPLE_MAGNITUDE`], capacity or ring full.
    pub fn load_sound(&mut self, sound: SoundData) -> Result<SoundId, LoadSoundError> {
        self.collect();
        if sound.samples.is_empty() {
            return Err(LoadSoundError::Empty);
        }
        if sound.samples.len() >= MAX_SOUND_FRAMES {
            return Err(LoadSoundError::TooLong);
        }
        if sound.sample_rate == 0 || sound.sample_rate > MAX_SOUND_RATE {
            return Err(LoadSoundError::SampleRate(sound.sample_rate));
        }
        let channels = std::iter::once(&sound.samples).chain(sound.stereo.iter().flatten());
        for ch in channels {
            if ch.len() != sound.samples.len() {
                return Err(LoadSoundError::ChannelLengths);
            }
            if let Some(index) = ch.iter().position(|s| !s.is_finite()) {
                return Err(LoadSoundError::NonFiniteSample { index });
            }
            if let Some(index) = ch.iter().position(|s| s.abs() > MAX_SAMPLE_MAGNITUDE) {
                return Err(LoadSoundError::SampleTooLarge { index });
            }
        }
        let slot = self
            .sounds
            .iter()
            .position(|s| matches!(s, SoundSlot::Free))
            .ok_or(LoadSoundError::Full)?;
        let sound = match self.resampler {
            Resampler::Linear => sound,
            Resampler::Oversampled => raise(sound)?,
        };
        let arc = Arc::new(sound);
        self.push(Command::LoadSound {
            slot: slot as u32,
            sound: Arc::clone(&arc),
        })
        .map_err(|_| LoadSoundError::CommandQueueFull)?;
        self.sound_generations[slot] = self.sound_generations[slot].wrapping_add(1).max(1);
        self.sounds[slot] = SoundSlot::Loaded(arc);
        Ok(SoundId {
            slot: slot as u32,
            generation: self.sound_generations[slot],
        })
    }

    /// Unloads a sound: voices playing it fade out, then the buffer comes back here to be
    /// dropped and the slot is free again.
    ///
    /// # Errors
    /// [`UnloadSoundError`]: unknown id or ring full.
    pub fn unload_sound(&mut self, id: SoundId) -> Result<(), UnloadSoundError> {
        self.collect();
        if !self.sound_loaded(id) {
            return Err(UnloadSoundError::UnknownSound);
        }
        self.push(Command::UnloadSound { slot: id.slot })
            .map_err(|_| UnloadSoundError::CommandQueueFull)?;
        self.sounds[id.slot as usize] = SoundSlot::Unloading;
        Ok(())
    }

    /// The sample buffer of a loaded sound (a clone of the `Arc`; drop it on a game thread).
    #[must_use]
    pub fn sound_data(&self, id: SoundId) -> Option<Arc<SoundData>> {
        match self.sounds.get(id.slot as usize) {
            Some(SoundSlot::Loaded(d))
                if self.sound_generations[id.slot as usize] == id.generation =>
            {
                Some(Arc::clone(d))
            }
            _ => None,
        }
    }

    fn sound_loaded(&self, id: SoundId) -> bool {
        let s = id.slot as usize;
        matches!(self.sounds.get(s), Some(SoundSlot::Loaded(_)))
            && self.sound_generations[s] == id.generation
    }

    /// Starts a voice (the lowest free slot); it starts at its targets, without a ramp.
    ///
    /// # Errors
    /// [`PlayError`]: bad parameter, unknown sound, voice capacity or ring full.
    pub fn play(&mut self, sound: SoundId, settings: PlaySettings) -> Result<VoiceId, PlayError> {
        self.collect();
        settings.params.validate()?;
        check_control("gain", settings.gain, crate::MAX_GAIN)?;
        check_control("rate", settings.rate, MAX_RATE)?;
        check_control("delay", settings.delay, MAX_DELAY_S)?;
        if usize::from(settings.track) >= TRACKS {
            return Err(PlayError::UnknownTrack);
        }
        if !self.sound_loaded(sound) {
            return Err(PlayError::UnknownSound);
        }
        let stereo = settings.stereo
            && matches!(&self.sounds[sound.slot as usize], SoundSlot::Loaded(d) if d.stereo.is_some());
        let slot = self
            .voices
            .iter()
            .position(Option::is_none)
            .ok_or(PlayError::Full)?;
        let generation = self.next_generation;
        let mut targets = settings.params.targets_for(generation, stereo);
        targets.delay = settings.delay;
        self.push(Command::Play {
            slot: slot as u32,
            generation,
            sound: sound.slot,
            looping: settings.looping,
            targets,
            start: settings.start_frame.unwrap_or(0),
            controls: StartControls {
                gain: settings.gain,
                rate: settings.rate,
                track: settings.track,
                stereo,
            },
        })
        .map_err(|_| PlayError::CommandQueueFull)?;
        self.next_generation = self.next_generation.wrapping_add(1).max(1);
        self.voices[slot] = Some(HandleVoice {
            generation,
            params: settings.params,
            taps: [Tap {
                delay: 0.0,
                level: 0.0,
                path: 0.0,
                hf: 1.0,
                pan: 0.0,
                direction: [0.0; 3],
            }; MAX_TAPS],
            tap_count: 0,
            tap_set: None,
            stopping: false,
            looping: settings.looping,
            stereo,
            delay: (settings.delay, 0.0, 0),
        });
        self.block.voices[slot] = targets;
        self.dirty = true;
        Ok(VoiceId {
            slot: slot as u32,
            generation,
        })
    }

    fn voice_mut(&mut self, id: VoiceId) -> Option<&mut HandleVoice> {
        match self.voices.get_mut(id.slot as usize) {
            Some(Some(v)) if v.generation == id.generation => Some(v),
            _ => None,
        }
    }

    /// `true` while the voice plays, fades or rings out its tail (as far as the game thread
    /// has heard from the renderer).
    pub fn is_playing(&mut self, id: VoiceId) -> bool {
        self.collect();
        self.voice_mut(id).is_some()
    }

    /// The parameters last set for a voice.
    pub fn params(&mut self, id: VoiceId) -> Option<VoiceParams> {
        self.collect();
        self.voice_mut(id).map(|v| v.params)
    }

    /// Sets a voice's parameters (applied at the next [`flush`](Self::flush), then smoothed:
    /// 80 ms for gain, shelf and pan, 0.3 s for sends).
    ///
    /// # Errors
    /// [`UpdateError`]: bad parameter or unknown voice.
    pub fn set_params(&mut self, id: VoiceId, params: VoiceParams) -> Result<(), UpdateError> {
        self.collect();
        params.validate()?;
        let v = self.voice_mut(id).ok_or(UpdateError::UnknownVoice)?;
        v.params = params;
        let v = *v;
        self.block.voices[id.slot as usize] = v.targets();
        if let Some(set) = v.tap_set {
            set_tap_targets(
                &mut self.block.tap_sets[set as usize],
                &v.taps[..v.tap_count],
                &params,
            );
        }
        self.dirty = true;
        Ok(())
    }

    /// Changes a voice's direct-path propagation delay (applied at the next
    /// [`flush`](Self::flush)): it glides there over `delay.glide` seconds from the renderer's
    /// next 64-frame grid point (the pitch shifts as a moving source's: Doppler), or with
    /// `delay.cut` jumps there between two 128-frame fades.
    ///
    /// # Errors
    /// [`UpdateError`]: bad value, unknown voice.
    pub fn set_delay(&mut self, id: VoiceId, delay: DirectDelay) -> Result<(), UpdateError> {
        self.collect();
        check_control("delay", delay.seconds, MAX_DELAY_S)?;
        check_control("glide", delay.glide, crate::MAX_TWEEN_S)?;
        let v = self.voice_mut(id).ok_or(UpdateError::UnknownVoice)?;
        let cuts = v.delay.2.wrapping_add(u32::from(delay.cut));
        v.delay = (delay.seconds, delay.glide, cuts);
        self.block.voices[id.slot as usize] = v.targets();
        self.dirty = true;
        Ok(())
    }

    /// Replaces a voice's echo taps (≤ 6; an empty slice clears them). Only one-shot voices
    /// take taps (acoustics §5: loops get no echo; taps read the decoded buffer, no delay line). A new set fades in over
    /// 50 ms while the old one fades out; a tap within 3 ms of an existing one only changes
    /// level. Applied at the next [`flush`](Self::flush).
    ///
    /// # Errors
    /// [`UpdateError`]: bad tap, unknown voice, or no free tap set.
    pub fn set_taps(&mut self, id: VoiceId, taps: &[Tap]) -> Result<(), UpdateError> {
        self.collect();
        validate_taps(taps)?;
        let v = *self.voice_mut(id).ok_or(UpdateError::UnknownVoice)?;
        if (v.looping || v.stereo) && !taps.is_empty() {
            return Err(UpdateError::LoopingVoice);
        }
        let set = match (v.tap_set, taps.is_empty()) {
            (None, true) => return Ok(()),
            (Some(set), true) => {
                self.tap_slots[set as usize] = TapSlot::Draining { voice: id.slot };
                let e = &mut self.block.tap_sets[set as usize];
                e.count = 0;
                if let Some(hv) = self.voice_mut(id) {
                    hv.tap_set = None;
                    hv.tap_count = 0;
                }
                self.dirty = true;
                return Ok(());
            }
            (Some(set), false) => set,
            (None, false) => {
                let set = self
                    .tap_slots
                    .iter()
                    .position(|t| *t == TapSlot::Free)
                    .ok_or(UpdateError::TapSetsFull)? as u32;
                self.tap_slots[set as usize] = TapSlot::Active { voice: id.slot };
                self.block.tap_sets[set as usize] = TapSetTargets {
                    voice_slot: id.slot,
                    voice_generation: id.generation,
                    ..TapSetTargets::default()
                };
                set
            }
        };
        set_tap_targets(&mut self.block.tap_sets[set as usize], taps, &v.params);
        if let Some(hv) = self.voice_mut(id) {
            hv.tap_set = Some(set);
            hv.taps[..taps.len()].copy_from_slice(taps);
            hv.tap_count = taps.len();
        }
        self.dirty = true;
        Ok(())
    }

    /// Tweens a voice's game gain (amplitude, 0..=[`MAX_GAIN`](crate::MAX_GAIN)) or its
    /// playback rate (0..=[`MAX_RATE`]) toward `target`, starting at the renderer's next
    /// block. The gain multiplies the acoustics' gains (distance, occlusion, sends, taps).
    ///
    /// # Errors
    /// [`UpdateError`]: bad value or tween, unknown voice, ring full.
    pub fn tween(
        &mut self,
        id: VoiceId,
        control: VoiceControl,
        target: f32,
        tween: Tween,
    ) -> Result<(), UpdateError> {
        self.collect();
        tween.validate()?;
        let (control, hi, field) = match control {
            VoiceControl::Gain => (Control::Gain, crate::MAX_GAIN, "gain"),
            VoiceControl::Rate => (Control::Rate, MAX_RATE, "rate"),
        };
        check_control(field, target, hi)?;
        self.voice_mut(id).ok_or(UpdateError::UnknownVoice)?;
        let frames = tween.frames(self.sample_rate);
        self.push(Command::Tween {
            slot: id.slot,
            generation: id.generation,
            control,
            target,
            frames,
            easing: tween.easing,
        })
        .map_err(|_| UpdateError::CommandQueueFull)
    }

    /// Pauses a voice: it fades out over `fade` and holds its place (its taps hold too);
    /// [`resume`](Self::resume) fades it back in from there.
    ///
    /// # Errors
    /// [`UpdateError`]: bad fade, unknown voice, ring full.
    pub fn pause(&mut self, id: VoiceId, fade: Tween) -> Result<(), UpdateError> {
        self.pause_command(id, true, fade)
    }

    /// Resumes a paused voice with a fade in over `fade`.
    ///
    /// # Errors
    /// [`UpdateError`]: bad fade, unknown voice, ring full.
    pub fn resume(&mut self, id: VoiceId, fade: Tween) -> Result<(), UpdateError> {
        self.pause_command(id, false, fade)
    }

    /// Fades a voice out over `fade` and ends it (its echo taps fade out as on
    /// [`stop`](Self::stop)). A stopping voice is left to its first fade.
    ///
    /// # Errors
    /// [`UpdateError`]: bad fade, unknown voice, ring full.
    pub fn stop_after(&mut self, id: VoiceId, fade: Tween) -> Result<(), UpdateError> {
        self.collect();
        fade.validate()?;
        let v = self.voice_mut(id).ok_or(UpdateError::UnknownVoice)?;
        if v.stopping {
            return Ok(());
        }
        let frames = fade.frames(self.sample_rate);
        self.push(Command::Pause {
            slot: id.slot,
            generation: id.generation,
            pause: true,
            frames,
            end: true,
        })
        .map_err(|_| UpdateError::CommandQueueFull)?;
        if let Some(v) = self.voice_mut(id) {
            v.stopping = true;
        }
        Ok(())
    }

    fn pause_command(&mut self, id: VoiceId, pause: bool, fade: Tween) -> Result<(), UpdateError> {
        self.collect();
        fade.validate()?;
        self.voice_mut(id).ok_or(UpdateError::UnknownVoice)?;
        let frames = fade.frames(self.sample_rate);
        self.push(Command::Pause {
            slot: id.slot,
            generation: id.generation,
            pause,
            frames,
            end: false,
        })
        .map_err(|_| UpdateError::CommandQueueFull)
    }

    /// Tweens a sub-mix track's gain (amplitude, 0..=[`MAX_GAIN`](crate::MAX_GAIN)); every
    /// voice on the track follows it, its sends and taps included.
    ///
    /// # Errors
    /// [`UpdateError`]: unknown track, bad value or tween, ring full.
    pub fn tween_track(&mut self, track: u8, target: f32, tween: Tween) -> Result<(), UpdateError> {
        self.collect();
        if usize::from(track) >= TRACKS {
            return Err(UpdateError::UnknownTrack);
        }
        tween.validate()?;
        check_control("track gain", target, crate::MAX_GAIN)?;
        let frames = tween.frames(self.sample_rate);
        self.push(Command::TrackGain {
            track,
            target,
            frames,
            easing: tween.easing,
        })
        .map_err(|_| UpdateError::CommandQueueFull)
    }

    /// Fades a voice out (the stop fade from the settings) and ends it.
    ///
    /// # Errors
    /// [`StopError`]: unknown voice or ring full.
    pub fn stop(&mut self, id: VoiceId) -> Result<(), StopError> {
        self.collect();
        let v = self.voice_mut(id).ok_or(StopError::UnknownVoice)?;
        if v.stopping {
            return Ok(());
        }
        self.push(Command::Stop {
            slot: id.slot,
            generation: id.generation,
        })
        .map_err(|_| StopError::CommandQueueFull)?;
        if let Some(v) = self.voice_mut(id) {
            v.stopping = true;
        }
        Ok(())
    }

    /// Fades every voice out; once they are gone the reverb bus is reset.
    ///
    /// # Errors
    /// [`StopError::CommandQueueFull`].
    pub fn stop_all(&mut self) -> Result<(), StopError> {
        self.collect();
        self.push(Command::StopAll)
            .map_err(|_| StopError::CommandQueueFull)?;
        for v in self.voices.iter_mut().flatten() {
            v.stopping = true;
        }
        Ok(())
    }

    /// Voices the handle counts as live (started and not yet reported ended).
    pub fn live_voices(&mut self) -> usize {
        self.collect();
        self.voices.iter().filter(|v| v.is_some()).count()
    }

    /// `true` once the renderer has been dropped (commands can no longer arrive).
    pub fn renderer_dropped(&mut self) -> bool {
        get(&mut self.commands).is_abandoned()
    }

    /// Free slots in the command ring right now.
    pub fn free_command_slots(&mut self) -> usize {
        self.command_slots()
    }

    /// The renderer's latest counters.
    pub fn status(&mut self) -> MixerStatus {
        *self.status_out.read()
    }

    /// The output sample rate in Hz.
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }
}

/// A voice's game control that [`MixerHandle::tween`] moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoiceControl {
    /// The game's gain (amplitude).
    Gain,
    /// The playback rate.
    Rate,
}

/// `sound` raised for the Modern read ([`Resampler::Oversampled`]): every channel
/// oversampled by `resound_dsp::oversample::factor_for` its rate (unchanged from 44.1 kHz up).
fn raise(sound: SoundData) -> Result<SoundData, LoadSoundError> {
    use resound_dsp::oversample::{factor_for, oversample};
    let factor = factor_for(sound.sample_rate);
    if factor == 1 {
        return Ok(sound);
    }
    if sound.samples.len().saturating_mul(factor as usize) >= MAX_SOUND_FRAMES {
        return Err(LoadSoundError::TooLong);
    }
    let up = |x: &Arc<[f32]>| -> Arc<[f32]> { oversample(x, factor).into() };
    Ok(SoundData {
        samples: up(&sound.samples),
        sample_rate: sound.sample_rate * factor,
        stereo: sound.stereo.as_ref().map(|[l, r]| [up(l), up(r)]),
    })
}
