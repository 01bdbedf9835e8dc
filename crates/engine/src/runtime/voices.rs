//! The engine's voices: [`Voices`] holds each started voice's source, class, echo set and
//! acoustic result; it starts voices in the mixer, steals, reaps the ones the mixer reports
//! ended, changes them ([`Voices::live`]) and hands each change to the mixer through the one
//! conversion (`convert`). The tick ([`super::tick`]) decides classes and jobs over it.

use std::collections::{BTreeMap, BTreeSet};

use glam::DVec3;
use resound_acoustics::airpath::DirectSound;
use resound_acoustics::cache::RETRACE_AFTER_TICKS;
use resound_acoustics::{AcousticResult, Mode, Paths};
use resound_mixer::{PlaySettings, SoundId, VoiceControl, VoiceId};

use super::shared::Shared;
use super::travel::{Travel, propagates, start_delay};
use crate::convert::{Acoustics, Applied, Converted, convert};
use crate::error::{PlayError, VoiceError};
use crate::playback::StartTime;
use crate::schedule::{Class, EchoFacts, deserves_echo, loudness};
use crate::source::Source;

/// A started voice (move it, set its volume, stop it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VoiceHandle(pub(crate) u64);

impl VoiceHandle {
    /// The voice id (voices are ordered by it).
    #[must_use]
    pub fn id(self) -> u64 {
        self.0
    }
}

/// What the acoustics did for one voice (for tools and tests).
#[derive(Debug, Clone, PartialEq)]
pub struct VoiceAcoustics {
    /// The voice's class (None: not classified yet, relative, or mode `off`).
    pub class: Option<Class>,
    /// The voice holds one of the echo sets.
    pub echo: bool,
    /// The acoustic result applied last (inline trace or worker).
    pub result: Option<AcousticResult>,
    /// What the mixer was given.
    pub applied: Applied,
    /// Tick at which the last worker result was applied.
    pub applied_tick: Option<u64>,
    /// Worker results applied to this voice.
    pub results: u64,
    /// The direct sound of the last result: which way it came (`line`, `around` round corners
    /// through the air, or `through` the walls), the path's length, bends and apparent
    /// direction (acoustics §4a). `None` before a result, in mode `off`, or with the SPR model.
    pub direct: Option<DirectSound>,
    /// The direct path's propagation delay at the voice's start in seconds (0 when the sound
    /// does not travel: relative, `Retail16`, modes `off`/`direct`, or switched off).
    pub start_delay_s: f64,
    /// The Doppler factor the voice plays with (its source's).
    pub doppler: f32,
}

/// An event group: layers of one event share one acoustic job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Group {
    Event(u64),
    Voice(u64),
}

/// What produced a voice's result: paths, mode, echo search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kind {
    pub(crate) paths: Paths,
    pub(crate) mode: Mode,
    pub(crate) echo: bool,
}

impl Kind {
    /// True if a result of this kind serves a voice that needs `need`.
    pub(crate) fn covers(self, need: Kind) -> bool {
        (self.paths == Paths::Nine || need.paths == Paths::One)
            && self.mode >= need.mode
            && (self.echo || !need.echo)
    }
}

/// Where source and listener were when a voice was last traced.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Traced {
    pub(crate) source: DVec3,
    pub(crate) listener: DVec3,
    pub(crate) distance: f64,
}

/// One voice as the engine tracks it.
#[derive(Debug, Clone)]
pub(crate) struct VoiceState {
    pub(crate) mixer: VoiceId,
    pub(crate) sound: SoundId,
    pub(crate) source: Source,
    pub(crate) length_s: f64,
    pub(crate) start_s: f64,
    pub(crate) class: Option<Class>,
    pub(crate) echo: bool,
    pub(crate) has_taps: bool,
    pub(crate) result: Option<AcousticResult>,
    /// The direct sound behind `result` (line, around or through).
    pub(crate) direct: Option<DirectSound>,
    /// What produced `result`.
    pub(crate) result_kind: Option<Kind>,
    /// What the job in flight will produce.
    pub(crate) sent_kind: Option<Kind>,
    pub(crate) applied_tick: Option<u64>,
    pub(crate) results: u64,
    pub(crate) traced: Option<Traced>,
    pub(crate) sent_tick: Option<u64>,
    pub(crate) outstanding: bool,
    pub(crate) retrace_at: Option<u64>,
    /// Traced again at the next tick (its rays crossed a changed section, a restart).
    pub(crate) dirty: bool,
    /// [`crate::world::World::retraces`] when the voice was last traced (or started): a
    /// smaller count than the world's makes the voice dirty.
    pub(crate) retraces: u64,
    pub(crate) converted: Option<Converted>,
    /// Paused by the game (or fading out to pause).
    pub(crate) paused: bool,
    /// The direct path's propagation delay handed to the mixer.
    pub(crate) travel: Travel,
}

impl VoiceState {
    /// The voice's event group.
    pub(crate) fn group(&self, id: u64) -> Group {
        self.source.event.map_or(Group::Voice(id), Group::Event)
    }

    /// Must be traced again: marked dirty, or the whole world changed since its last trace.
    pub(crate) fn is_dirty(&self, world_retraces: u64) -> bool {
        self.dirty || self.retraces != world_retraces
    }
}

/// A voice to start ([`Voices::start`]).
#[derive(Debug)]
pub(crate) struct NewVoice {
    /// The sound it plays.
    pub(crate) sound: SoundId,
    /// Its source.
    pub(crate) source: Source,
    /// The sound's length in seconds.
    pub(crate) length_s: f64,
    /// It takes an echo set (if its result has taps).
    pub(crate) echo: bool,
    /// The inline trace's result, its kind and its direct sound.
    pub(crate) inline: Option<(AcousticResult, Kind, Option<DirectSound>)>,
    /// The tick it starts at.
    pub(crate) tick: u64,
}

/// The voices the engine plays, by id (the mixer's own voices for the retail ambient path are
/// not here).
#[derive(Debug)]
pub(crate) struct Voices {
    pub(crate) map: BTreeMap<u64, VoiceState>,
    next: u64,
    /// Voices whose job the worker should drop.
    cancels: Vec<u64>,
    /// [`Voices::reap`]'s list of ended voices, kept so a steady frame allocates nothing.
    ended: Vec<u64>,
}

impl Voices {
    /// No voices.
    pub(crate) fn new() -> Self {
        Self {
            map: BTreeMap::new(),
            next: 1,
            cancels: Vec::new(),
            ended: Vec::new(),
        }
    }

    /// Voices tracked.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// True if a voice plays `sound`.
    pub(crate) fn plays(&self, sound: SoundId) -> bool {
        self.map.values().any(|v| v.sound == sound)
    }

    /// The voice behind `h` as of the last reap.
    pub(crate) fn get(&self, h: VoiceHandle) -> Option<&VoiceState> {
        self.map.get(&h.0)
    }

    /// The mixer voice behind `h`, while it is tracked.
    pub(crate) fn mixer_id(&self, h: VoiceHandle) -> Option<VoiceId> {
        self.map.get(&h.0).map(|v| v.mixer)
    }

    /// Voices carrying an echo tap set.
    pub(crate) fn echo_voices(&self) -> usize {
        self.map.values().filter(|v| v.has_taps).count()
    }

    /// The ids to cancel on the worker (taken).
    pub(crate) fn take_cancels(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.cancels)
    }

    /// Asks the worker to drop voice `id`'s job.
    pub(crate) fn cancel(&mut self, id: u64) {
        self.cancels.push(id);
    }

    /// Starts a voice in the mixer with the acoustics it starts with, and tracks it.
    ///
    /// # Errors
    /// [`PlayError::Full`] or [`PlayError::QueueFull`] when the mixer refuses the voice.
    pub(crate) fn start(
        &mut self,
        shared: &mut Shared,
        new: NewVoice,
    ) -> Result<VoiceHandle, PlayError> {
        let NewVoice {
            sound,
            source,
            length_s,
            echo,
            inline,
            tick,
        } = new;
        let (result, result_kind, direct) = match inline {
            Some((r, k, d)) => (Some(r), Some(k), d),
            None => (None, None, None),
        };
        let echo = echo && result.as_ref().is_some_and(|r| !r.taps.is_empty());
        let retrace_at = result.as_ref().and_then(|r| {
            shared.count(&r.telemetry);
            r.telemetry
                .met_unknown
                .then_some(tick + RETRACE_AFTER_TICKS)
        });
        let listener = shared.listener;
        let traced = result.as_ref().map(|_| Traced {
            source: source.position,
            listener: listener.position,
            distance: (source.position - listener.position).length(),
        });
        let id = self.next;
        let acoustics = match (&result, shared.mode, source.relative) {
            (_, Mode::Off, _) | (_, _, true) => Acoustics::Off,
            (Some(r), _, _) => Acoustics::Result(r),
            (None, _, _) => Acoustics::Free,
        };
        let converted = convert(&source, &listener, acoustics);
        let start_frame = match source.start {
            StartTime::Now => None,
            StartTime::At(t) => Some((t.max(0.0) * f64::from(shared.rate)).round() as u64),
        };
        let fades_in = source.fade_in.duration > 0.0;
        let delay = start_delay(shared, &source, &listener, direct.as_ref());
        let travel = Travel::new(
            propagates(shared, &source),
            delay,
            shared.time(),
            source.position,
            listener.position,
        );
        let mixer_id = shared.mixer.play(
            sound,
            PlaySettings {
                looping: source.looping,
                params: converted.params,
                start_frame,
                gain: if fades_in { 0.0 } else { source.volume },
                rate: source.rate as f32,
                track: source.track.0,
                // Non-positional voices play a stereo sound's two channels.
                stereo: source.relative,
                delay: delay as f32,
            },
        )?;
        if fades_in {
            shared
                .mixer
                .tween(mixer_id, VoiceControl::Gain, source.volume, source.fade_in)
                .map_err(|_| PlayError::QueueFull)?;
        }
        self.next += 1;
        self.map.insert(
            id,
            VoiceState {
                mixer: mixer_id,
                sound,
                source,
                length_s,
                start_s: shared.time(),
                class: None,
                echo,
                has_taps: false,
                result_kind,
                result,
                direct,
                sent_kind: None,
                applied_tick: None,
                results: 0,
                traced,
                sent_tick: None,
                outstanding: false,
                retrace_at,
                dirty: false,
                retraces: shared.world.retraces(),
                converted: Some(converted),
                paused: false,
                travel,
            },
        );
        if echo {
            // Offline the echo set starts with the voice (it fades in over the mixer's 50 ms).
            let taps = converted.taps();
            let ok = shared.mixer.set_taps(mixer_id, taps).is_ok();
            if let Some(v) = self.map.get_mut(&id) {
                v.has_taps = ok;
                v.echo = ok;
            }
        }
        Ok(VoiceHandle(id))
    }

    /// Would a new voice from `source` take an echo set now (a free set and `deserves_echo`)?
    pub(crate) fn echo_at_start(&self, shared: &Shared, source: &Source, length_s: f64) -> bool {
        let held: BTreeSet<Group> = self
            .map
            .iter()
            .filter(|(_, v)| v.echo)
            .map(|(id, v)| v.group(*id))
            .collect();
        let joins = source
            .event
            .is_some_and(|e| held.contains(&Group::Event(e)));
        shared.mode >= Mode::Reflect
            && (joins || held.len() < shared.capacities.echo_voices)
            && deserves_echo(&EchoFacts {
                looping: source.looping,
                relative: source.relative,
                volume: source.volume,
                range: source.range,
                length_s,
                played: 0.0,
            })
    }

    /// Stops the quietest voice (the `Modern` policy's steal).
    pub(crate) fn steal_quietest(&mut self, shared: &mut Shared) {
        let listener = shared.listener.position;
        let quietest = self
            .map
            .iter()
            .map(|(id, v)| {
                let d = if v.source.relative {
                    v.source.position.length()
                } else {
                    (v.source.position - listener).length()
                };
                (loudness(v.source.volume, d, v.source.range), *id)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((_, id)) = quietest {
            self.end(shared, id, true);
        }
    }

    /// Removes a voice (stopping it in the mixer if asked) and cancels its job.
    pub(crate) fn end(&mut self, shared: &mut Shared, id: u64, stop: bool) {
        if let Some(v) = self.map.remove(&id) {
            if stop {
                // Unknown voice means it already ended: nothing to stop.
                let _ = shared.mixer.stop(v.mixer);
            }
            if v.outstanding {
                self.cancels.push(id);
            }
        }
    }

    /// Drops voices the mixer reports ended.
    pub(crate) fn reap(&mut self, shared: &mut Shared) {
        let mut ended = std::mem::take(&mut self.ended);
        ended.clear();
        ended.extend(
            self.map
                .iter()
                .filter(|(_, v)| !shared.mixer.is_playing(v.mixer))
                .map(|(id, _)| *id),
        );
        for &id in &ended {
            self.end(shared, id, false);
        }
        self.ended = ended;
    }

    /// The voice behind `h` while it plays (one the mixer reports ended is dropped).
    ///
    /// # Errors
    /// [`VoiceError::Ended`].
    pub(crate) fn live(
        &mut self,
        shared: &mut Shared,
        h: VoiceHandle,
    ) -> Result<&mut VoiceState, VoiceError> {
        let alive = match self.map.get(&h.0) {
            Some(v) => shared.mixer.is_playing(v.mixer),
            None => return Err(VoiceError::Ended),
        };
        if !alive {
            self.end(shared, h.0, false);
            return Err(VoiceError::Ended);
        }
        self.map.get_mut(&h.0).ok_or(VoiceError::Ended)
    }

    /// Stops every voice in the mixer's books (after the mixer's `stop_all`).
    pub(crate) fn end_all(&mut self, shared: &mut Shared) {
        let ids: Vec<u64> = self.map.keys().copied().collect();
        for id in ids {
            self.end(shared, id, false);
        }
    }

    /// What the acoustics did for a voice.
    pub(crate) fn acoustics(&self, h: VoiceHandle) -> Option<VoiceAcoustics> {
        let v = self.map.get(&h.0)?;
        let converted = v.converted?;
        Some(VoiceAcoustics {
            class: v.class,
            echo: v.echo,
            result: v.result.clone(),
            applied: converted.applied(v.has_taps),
            applied_tick: v.applied_tick,
            results: v.results,
            direct: v.direct.filter(|_| v.result.is_some()),
            start_delay_s: v.travel.start,
            doppler: v.source.doppler,
        })
    }

    /// Hands every voice's current state to the mixer (after the listener moved).
    pub(crate) fn push_all(&mut self, shared: &mut Shared) {
        let ids: Vec<u64> = self.map.keys().copied().collect();
        for id in ids {
            self.push(shared, id);
        }
    }

    /// A new mode: every voice forgets its class, echo set and trace (and its result, to
    /// `off`), and is handed to the mixer again.
    pub(crate) fn set_mode(&mut self, shared: &mut Shared, mode: Mode) {
        let ids: Vec<u64> = self.map.keys().copied().collect();
        for id in &ids {
            if let Some(v) = self.map.get_mut(id) {
                if v.outstanding {
                    self.cancels.push(*id);
                }
                v.outstanding = false;
                v.class = None;
                v.echo = false;
                v.traced = None;
                v.sent_tick = None;
                v.retrace_at = None;
                v.result_kind = None;
                if mode == Mode::Off {
                    v.result = None;
                    v.direct = None;
                }
            }
        }
        for id in ids {
            self.push(shared, id);
        }
    }

    /// After a worker restart the jobs in flight are lost: every voice is traced again.
    pub(crate) fn lost_jobs(&mut self) {
        for v in self.map.values_mut() {
            v.outstanding = false;
            v.dirty = true;
        }
    }

    /// Converts a voice's current state and hands it to the mixer (only what changed).
    pub(crate) fn push(&mut self, shared: &mut Shared, id: u64) {
        let mode = shared.mode;
        let listener = shared.listener;
        let Some(v) = self.map.get_mut(&id) else {
            return;
        };
        let acoustics = if mode == Mode::Off || v.source.relative {
            Acoustics::Off
        } else if v.class == Some(Class::Free) {
            Acoustics::Free
        } else if let Some(r) = &v.result {
            Acoustics::Result(r)
        } else {
            Acoustics::Free
        };
        let converted = convert(&v.source, &listener, acoustics);
        if v.converted.map(|c| c.params) != Some(converted.params) {
            // An unknown voice has just ended; it is reaped at the next tick.
            let _ = shared.mixer.set_params(v.mixer, converted.params);
        }
        let want_taps = v.echo && !v.source.looping && mode >= Mode::Reflect;
        let taps = if want_taps { converted.taps() } else { &[] };
        let previous = v.converted.filter(|_| v.has_taps);
        let applied = previous.as_ref().map_or(&[][..], Converted::taps);
        if applied != taps {
            // Tap sets may be full while old sets drain: the voice plays without echo then
            // (and the set is asked for again at the next change).
            v.has_taps = shared.mixer.set_taps(v.mixer, taps).is_ok() && !taps.is_empty();
        }
        v.converted = Some(converted);
        let on = propagates(shared, &v.source);
        let now = shared.time();
        if let Some(change) = v
            .travel
            .update(on, now, &v.source, &listener, v.direct.as_ref())
        {
            // An unknown voice has just ended; it is reaped at the next tick.
            let _ = shared.mixer.set_delay(v.mixer, change);
        }
    }
}
