//! The audio-thread half: [`MixerRenderer`].
//!
//! [`MixerRenderer::render`] is the one entry point for the device callback and for offline
//! renders. It never allocates, locks, waits or frees: commands arrive on a wait-free ring,
//! parameters through a triple buffer, and everything owning heap memory leaves on the return
//! ring to be dropped on the game thread.

use resound_dsp::shelf::BANK_LANES;
use resound_dsp::{OcclusionShelf, RAMP_SEGMENT};
use rtrb::{Consumer, Producer};

use crate::binaural::Binaural;
use crate::block::ParamBlock;
use crate::command::{Command, Returned, StartControls};
use crate::control::{TRACKS, Tweened};
use crate::master::Master;
use crate::params::{REVERB_DECAY_BANDS, SENDS};
use crate::sound::{RenderSound, SoundRates};
use crate::status::MixerStatus;
use crate::tap::TapSetState;
use crate::voice::{StartAt, Voice, VoiceState};
use resound_dsp::interpolate::step_for;
use resound_dsp::tap::Feeds;

/// How many voices ahead of the one being rendered its sound's samples are prefetched: one
/// lane group, so a group's loads are in flight while the group before it is filtered.
const PREFETCH_AHEAD: usize = BANK_LANES;

/// The audio-thread side of the mixer. `Send` (move it to the audio thread), not `Sync`.
///
/// Dropping it frees its sounds on the dropping thread; drop it off the audio thread (or
/// after the stream has stopped).
#[derive(Debug)]
pub struct MixerRenderer {
    commands: Consumer<Command>,
    returns: Producer<Returned>,
    /// Returns that did not fit the ring (cannot happen by construction; kept, never dropped).
    overflow: Vec<Returned>,
    params_out: triple_buffer::Output<ParamBlock>,
    status_in: triple_buffer::Input<MixerStatus>,
    status: MixerStatus,
    sample_rate: u32,
    max_block: usize,
    sounds: Vec<RenderSound>,
    voices: Vec<Voice>,
    tap_sets: Vec<TapSetState>,
    scratch: Vec<f32>,
    mix_l: Vec<f32>,
    mix_r: Vec<f32>,
    bus_in: [Vec<f32>; SENDS],
    /// Sources of the voices whose shelves are filtered side by side (filtered in place),
    /// one buffer per lane.
    lane_bufs: [Vec<f32>; BANK_LANES],
    /// A stereo voice's right channel and gain envelope.
    stereo_bufs: [Vec<f32>; 2],
    /// The tracks' gains.
    tracks: [Tweened; TRACKS],
    master: Master,
    reset_bus_when_idle: bool,
    /// Binaural output's renderers (`Spatial::Binaural` only).
    binaural: Option<Box<Binaural>>,
    /// Commands arrived since the reverb slots were last tuned (`tune_reverb_slots`).
    tuning_stale: bool,
    /// Frames rendered so far (block starts): new voices start on this grid phase.
    frame: u64,
    /// Test only: filter every shelf on its own (the reference the lanes must match).
    #[cfg(test)]
    pub(crate) no_lanes: bool,
}

impl MixerRenderer {
    #[allow(clippy::too_many_arguments)] // private constructor fed by `build`
    pub(crate) fn new(
        commands: Consumer<Command>,
        returns: Producer<Returned>,
        overflow_capacity: usize,
        params_out: triple_buffer::Output<ParamBlock>,
        status_in: triple_buffer::Input<MixerStatus>,
        settings: &crate::MixerSettings,
    ) -> Self {
        let fs = settings.sample_rate as f32;
        let c = settings.capacities;
        let mb = settings.max_block;
        let cubic = settings.resampler == crate::Resampler::Oversampled;
        Self {
            commands,
            returns,
            overflow: Vec::with_capacity(overflow_capacity),
            params_out,
            status_in,
            status: MixerStatus::default(),
            sample_rate: settings.sample_rate,
            max_block: mb,
            sounds: (0..c.sounds).map(|_| RenderSound::default()).collect(),
            voices: (0..c.voices)
                .map(|_| Voice::new(fs, settings.stop_fade_seconds, cubic))
                .collect(),
            tap_sets: (0..c.tap_sets)
                .map(|i| TapSetState::new(i as u32, fs, mb, cubic))
                .collect(),
            scratch: vec![0.0; mb],
            mix_l: vec![0.0; mb],
            mix_r: vec![0.0; mb],
            bus_in: std::array::from_fn(|_| vec![0.0; mb]),
            lane_bufs: std::array::from_fn(|_| vec![0.0; mb]),
            stereo_bufs: std::array::from_fn(|_| vec![0.0; mb]),
            tracks: [Tweened::constant(1.0); TRACKS],
            master: Master::new(fs, mb, settings.reverb, settings.limiter),
            reset_bus_when_idle: false,
            binaural: None,
            frame: 0,
            #[cfg(test)]
            no_lanes: false,
            tuning_stale: false,
        }
    }

    /// Turns on binaural output (at build).
    pub(crate) fn set_binaural(&mut self, b: Binaural) {
        self.binaural = Some(Box::new(b));
    }

    /// Output sample rate in Hz.
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Renders interleaved stereo into `out` (`out.len() / 2` frames; an odd last sample is
    /// zeroed). Applies pending commands and the latest parameters first. Every output sample
    /// is finite. Never allocates, locks or frees.
    pub fn render(&mut self, out: &mut [f32]) {
        let frames = out.len() / 2;
        if out.len() % 2 == 1 {
            out[out.len() - 1] = 0.0;
        }
        let mut done = 0;
        while done < frames {
            let n = (frames - done).min(self.max_block);
            self.render_block(&mut out[done * 2..(done + n) * 2]);
            done += n;
        }
        self.status.frames_rendered += frames as u64;
        self.status.active_voices = self
            .voices
            .iter()
            .filter(|v| v.state != VoiceState::Idle)
            .count() as u32;
        self.status.limiter_engagements = self.master.engagements();
        *self.status_in.input_buffer_mut() = self.status;
        self.status_in.publish();
    }

    fn render_block(&mut self, out: &mut [f32]) {
        let n = out.len() / 2;
        self.flush_overflow();
        let commands = self.apply_commands();
        let fresh = self.params_out.update();
        let block = self.params_out.output_buffer();
        for (i, (v, t)) in self.voices.iter_mut().zip(&block.voices).enumerate() {
            if v.state != VoiceState::Idle && t.generation == v.generation {
                v.retarget_delay(t, self.frame);
                match self.binaural.as_mut() {
                    Some(b) => v.retarget(&b.retarget(i, t)),
                    None => v.retarget(t),
                }
            }
        }
        for (ts, t) in self.tap_sets.iter_mut().zip(&block.tap_sets) {
            ts.apply(t, &mut self.voices, SoundRates(&self.sounds));
        }
        if let Some(b) = self.binaural.as_mut() {
            if commands || fresh {
                b.rank(&mut self.voices, &mut self.tap_sets, self.frame);
            }
            b.begin_block(n, self.frame, &self.tap_sets);
        }

        self.mix_l[..n].fill(0.0);
        self.mix_r[..n].fill(0.0);
        for b in &mut self.bus_in {
            b[..n].fill(0.0);
        }

        // Voices in id order. Runs of voices with a steady shelf have their shelves filtered
        // side by side (`BANK_LANES` per loop); each run is mixed, in id order, before the
        // next voice that is not in it, so the sums are the same as voice by voice.
        let lanes_enabled = self.lanes_enabled();
        let scratch = &mut self.scratch[..n];
        let mut lanes = LaneGroup::default();
        // Sounds are read from memory a cache line at a time: the loads for the voice
        // `PREFETCH_AHEAD` places on start now and overlap with the work on the voices before
        // it (a whole lane group's filtering and mixing), instead of stalling its resampler.
        for j in 0..PREFETCH_AHEAD {
            prefetch_voice(&self.voices, &self.sounds, j, n);
        }
        for i in 0..self.voices.len() {
            prefetch_voice(&self.voices, &self.sounds, i + PREFETCH_AHEAD, n);
            let frame = self.frame;
            let v = &mut self.voices[i];
            if v.state == VoiceState::Scheduled {
                v.wake(frame, n);
            }
            match v.state {
                VoiceState::Playing | VoiceState::Stopping => {}
                VoiceState::Scheduled | VoiceState::Paused => {
                    v.idle_block(n);
                    continue;
                }
                VoiceState::Idle | VoiceState::Finished => {
                    v.active_frames = 0;
                    continue;
                }
            }
            let data = self
                .sounds
                .get(v.sound as usize)
                .and_then(|s| s.data.as_ref());
            let samples: &[f32] = data.map_or(&[], |d| &d.samples);
            let track = self.tracks[usize::from(v.track) % TRACKS];
            let active = v.begin_block(samples.len(), n, frame, track);
            if v.stereo
                && let Some([l, r]) = data.and_then(|d| d.stereo.as_ref())
            {
                lanes.flush(
                    &mut self.voices,
                    &mut self.lane_bufs,
                    n,
                    MixTargets::first(n, &mut self.mix_l, &mut self.mix_r, &mut self.bus_in),
                );
                let [b2, b3] = &mut self.stereo_bufs;
                if let Some(v) = self.voices.get_mut(i) {
                    v.render_stereo(
                        [l, r],
                        [&mut scratch[..active], &mut b2[..active], &mut b3[..active]],
                        n,
                        &mut self.mix_l,
                        &mut self.mix_r,
                        &mut self.bus_in,
                    );
                }
                continue;
            }
            if let Some((bl, br)) = self.binaural.as_mut().and_then(|b| b.inputs(i)) {
                lanes.flush(
                    &mut self.voices,
                    &mut self.lane_bufs,
                    n,
                    MixTargets::first(n, &mut self.mix_l, &mut self.mix_r, &mut self.bus_in),
                );
                if let Some(v) = self.voices.get_mut(i) {
                    v.render_active(samples, &mut scratch[..active], n, bl, br, &mut self.bus_in);
                }
                continue;
            }
            let mix = MixTargets::first(n, &mut self.mix_l, &mut self.mix_r, &mut self.bus_in);
            if active == n && v.lane_ready() && lanes_enabled {
                v.source_lane(samples, &mut self.lane_bufs[lanes.len][..n]);
                lanes.push(i);
                if lanes.len == BANK_LANES {
                    lanes.flush(&mut self.voices, &mut self.lane_bufs, n, mix);
                }
            } else {
                lanes.flush(&mut self.voices, &mut self.lane_bufs, n, mix);
                if let Some(v) = self.voices.get_mut(i) {
                    v.render_active(
                        samples,
                        &mut scratch[..active],
                        n,
                        &mut self.mix_l,
                        &mut self.mix_r,
                        &mut self.bus_in,
                    );
                }
            }
        }
        lanes.flush(
            &mut self.voices,
            &mut self.lane_bufs,
            n,
            MixTargets::first(n, &mut self.mix_l, &mut self.mix_r, &mut self.bus_in),
        );

        // Taps before the binaural renderers run: a tap holding one feeds its input.
        for (set, ts) in self.tap_sets.iter_mut().enumerate() {
            if let Some(slot) = ts.owner()
                && let Some(v) = self.voices.get(slot as usize)
                && let Some(data) = self
                    .sounds
                    .get(v.sound as usize)
                    .and_then(|s| s.data.as_ref())
            {
                let mut feeds = match self.binaural.as_mut() {
                    Some(b) => b.tap_feeds(set, n),
                    None => Feeds::default(),
                };
                if v.controls_unity() {
                    ts.render(
                        v,
                        data,
                        &mut self.mix_l[..n],
                        &mut self.mix_r[..n],
                        &mut feeds,
                    );
                } else {
                    // The taps follow the voice's gain, pause fade and track: rendered apart,
                    // scaled, then mixed (a renderer's input holds only its tap).
                    let [tl, tr] = &mut self.stereo_bufs;
                    let (tl, tr) = (&mut tl[..n], &mut tr[..n]);
                    tl.fill(0.0);
                    tr.fill(0.0);
                    ts.render(v, data, tl, tr, &mut feeds);
                    v.scale_by_controls(tl, 0);
                    v.scale_by_controls(tr, 0);
                    for f in feeds.iter_mut().flatten() {
                        v.scale_by_controls(f, 0);
                    }
                    for ((m, t), (mr, r)) in self.mix_l[..n]
                        .iter_mut()
                        .zip(tl.iter())
                        .zip(self.mix_r[..n].iter_mut().zip(tr.iter()))
                    {
                        *m += *t;
                        *mr += *r;
                    }
                }
            }
            ts.check_release();
        }
        for i in 0..self.tap_sets.len() {
            if let Some(slot) = self.tap_sets[i].take_release() {
                self.push_return(Returned::TapSetReleased { slot });
            }
        }
        if let Some(b) = self.binaural.as_mut() {
            b.render(n, self.frame, &mut self.mix_l, &mut self.mix_r);
        }

        self.tune_reverb_slots();
        self.master
            .process(&self.bus_in, &mut self.mix_l[..n], &mut self.mix_r[..n]);
        self.status.busy_reverb_slots = self.master.busy_slots();

        let mut peak = self.status.peak;
        for ((o, l), r) in out
            .chunks_exact_mut(2)
            .zip(&self.mix_l[..n])
            .zip(&self.mix_r[..n])
        {
            let l = if l.is_finite() { *l } else { 0.0 };
            let r = if r.is_finite() { *r } else { 0.0 };
            peak = peak.max(l.abs()).max(r.abs());
            o[0] = l;
            o[1] = r;
        }
        self.status.peak = peak;

        self.retire_finished();
        self.frame += n as u64;
    }

    /// Tunes each reverb slot to the decay of the voices sending to it: the mean of their
    /// `reverb_decay` on a log scale, weighted by their send's energy (a voice with no decay
    /// set counts as the slot's nominal decays).
    ///
    /// When: only in a call where commands arrived (play, parameters, stop: the game's tick),
    /// never at the block where a voice's end is noticed, which depends on how the calls are cut
    /// (the output stays bit-identical across call sizes). Who: the voices not ended (`Idle`)
    /// at that moment — scheduled, playing, paused or fading out. An ended voice's tail rings
    /// on in the slot at the decay it was tuned to until the game's next command batch, which
    /// drops it: a slot does not keep the decay of voices long gone, and a new voice in a slot
    /// is tuned to its own space, not to the mean with spaces heard minutes ago. A slot no
    /// live voice sends to keeps its decays (its tail rings out as it began). One pass over
    /// the voices' targets.
    fn tune_reverb_slots(&mut self) {
        if !std::mem::take(&mut self.tuning_stale) {
            return;
        }
        let mut sum = [[0.0f32; REVERB_DECAY_BANDS]; SENDS];
        let mut weight = [0.0f32; SENDS];
        let nominal: [[f32; REVERB_DECAY_BANDS]; SENDS] =
            std::array::from_fn(|k| self.master.nominal_decays(k));
        for v in &self.voices {
            if v.generation == 0 || v.state == VoiceState::Idle {
                continue;
            }
            let t = &v.targets;
            for k in 0..SENDS {
                let w = t.sends[k] * t.sends[k];
                if w > 0.0 {
                    let d = if t.decay.iter().all(|d| *d > 0.0) {
                        t.decay
                    } else {
                        nominal[k]
                    };
                    for b in 0..REVERB_DECAY_BANDS {
                        sum[k][b] += w * d[b].ln();
                    }
                    weight[k] += w;
                }
            }
        }
        for k in 0..SENDS {
            if weight[k] > 0.0 {
                let d = sum[k].map(|s| (s / weight[k]).exp());
                self.master.set_slot_decays(k, d);
            }
        }
    }

    /// The decays reverb slot `k` renders now (tests).
    #[cfg(test)]
    pub(crate) fn slot_decays(&self, k: usize) -> [f32; REVERB_DECAY_BANDS] {
        self.master.slot_decays(k)
    }

    #[cfg(test)]
    fn lanes_enabled(&self) -> bool {
        !self.no_lanes
    }

    #[cfg(not(test))]
    #[inline(always)]
    fn lanes_enabled(&self) -> bool {
        true
    }

    /// Applies the pending commands; true if there were any.
    fn apply_commands(&mut self) -> bool {
        let mut any = false;
        while let Ok(cmd) = self.commands.pop() {
            any = true;
            self.tuning_stale = true;
            match cmd {
                Command::LoadSound { slot, sound } => {
                    let old = match self.sounds.get_mut(slot as usize) {
                        Some(s) => {
                            s.users = 0;
                            s.unloading = false;
                            s.data.replace(sound)
                        }
                        None => Some(sound),
                    };
                    if let Some(old) = old {
                        // Cannot happen (the handle frees a slot only after its release);
                        // hand the buffer back rather than drop it here.
                        self.push_return(Returned::SoundReleased {
                            slot: u32::MAX,
                            sound: old,
                        });
                    }
                }
                Command::UnloadSound { slot } => {
                    if let Some(s) = self.sounds.get_mut(slot as usize) {
                        s.unloading = true;
                    }
                    for v in &mut self.voices {
                        if v.sound == slot && v.state != VoiceState::Idle {
                            v.stop();
                        }
                    }
                    self.release_sound_if_unused(slot);
                }
                Command::Play {
                    slot,
                    generation,
                    sound,
                    looping,
                    targets,
                    start,
                    controls,
                } => self.start_voice(slot, generation, sound, looping, targets, (start, controls)),
                Command::Tween {
                    slot,
                    generation,
                    control,
                    target,
                    frames,
                    easing,
                } => {
                    if let Some(v) = self.voices.get_mut(slot as usize)
                        && v.generation == generation
                    {
                        v.tween(self.frame, control, target, frames, easing);
                    }
                }
                Command::Pause {
                    slot,
                    generation,
                    pause,
                    frames,
                    end,
                } => {
                    if let Some(v) = self.voices.get_mut(slot as usize)
                        && v.generation == generation
                    {
                        v.pause(self.frame, pause, frames, end);
                    }
                }
                Command::TrackGain {
                    track,
                    target,
                    frames,
                    easing,
                } => {
                    if let Some(t) = self.tracks.get_mut(usize::from(track)) {
                        t.retarget(self.frame, target, frames, easing);
                    }
                }
                Command::Stop { slot, generation } => {
                    if let Some(v) = self.voices.get_mut(slot as usize)
                        && v.generation == generation
                    {
                        v.stop();
                    }
                }
                Command::StopAll => {
                    for v in &mut self.voices {
                        v.stop();
                    }
                    self.reset_bus_when_idle = true;
                }
            }
        }
        any
    }

    fn start_voice(
        &mut self,
        slot: u32,
        generation: u32,
        sound: u32,
        looping: bool,
        t: crate::params::VoiceTargets,
        (start, controls): (u64, StartControls),
    ) {
        let fs = self.sample_rate;
        let rate = match self.sounds.get_mut(sound as usize) {
            Some(s) if !s.unloading => s.data.as_ref().map(|d| d.sample_rate),
            _ => None,
        };
        let Some(v) = self.voices.get_mut(slot as usize) else {
            return;
        };
        match rate {
            Some(rate) if v.state == VoiceState::Idle => {
                let t = match self.binaural.as_mut() {
                    Some(b) => b.start(slot as usize, t, self.frame),
                    None => t,
                };
                let phase = self.frame % RAMP_SEGMENT as u64;
                let at = StartAt {
                    now: self.frame,
                    frame: start,
                    controls,
                };
                v.start(generation, sound, looping, step_for(rate, fs), t, phase, at);
                if let Some(s) = self.sounds.get_mut(sound as usize) {
                    s.users += 1;
                }
            }
            _ => {
                // Unknown sound (or a busy slot, which the handle never sends): report it ended.
                self.push_return(Returned::VoiceEnded { slot, generation });
            }
        }
    }

    fn retire_finished(&mut self) {
        for i in 0..self.voices.len() {
            let v = &mut self.voices[i];
            if v.state != VoiceState::Finished {
                continue;
            }
            v.state = VoiceState::Idle;
            let (slot, generation, sound) = (i as u32, v.generation, v.sound);
            for ts in &mut self.tap_sets {
                ts.voice_ended(slot, generation);
            }
            if let Some(b) = self.binaural.as_mut() {
                b.ended(i, self.frame + v.active_frames as u64);
            }
            if let Some(s) = self.sounds.get_mut(sound as usize) {
                s.users = s.users.saturating_sub(1);
            }
            self.push_return(Returned::VoiceEnded { slot, generation });
            self.release_sound_if_unused(sound);
        }
        if self.reset_bus_when_idle && self.voices.iter().all(|v| v.state == VoiceState::Idle) {
            self.master.reset_bus();
            self.reset_bus_when_idle = false;
        }
    }

    fn release_sound_if_unused(&mut self, slot: u32) {
        let Some(s) = self.sounds.get_mut(slot as usize) else {
            return;
        };
        if s.unloading
            && s.users == 0
            && let Some(sound) = s.data.take()
        {
            s.unloading = false;
            self.push_return(Returned::SoundReleased { slot, sound });
        }
    }

    fn push_return(&mut self, msg: Returned) {
        if !self.overflow.is_empty() {
            self.keep(msg);
            return;
        }
        if let Err(rtrb::PushError::Full(msg)) = self.returns.push(msg) {
            self.keep(msg);
        }
    }

    fn keep(&mut self, msg: Returned) {
        if self.overflow.len() < self.overflow.capacity() {
            self.overflow.push(msg);
        } else {
            // Never free on the audio thread: leak instead (unreachable by construction).
            std::mem::forget(msg);
        }
    }

    fn flush_overflow(&mut self) {
        while !self.overflow.is_empty() {
            let msg = self.overflow.remove(0);
            if let Err(rtrb::PushError::Full(msg)) = self.returns.push(msg) {
                self.overflow.insert(0, msg);
                break;
            }
        }
    }
}

/// Where voices mix to: the dry mix and the reverb bus inputs.
struct MixTargets<'a> {
    left: &'a mut [f32],
    right: &'a mut [f32],
    bus_in: &'a mut [Vec<f32>; SENDS],
}

impl<'a> MixTargets<'a> {
    /// The first `n` frames of the dry mix, and the send buses.
    fn first(
        n: usize,
        left: &'a mut [f32],
        right: &'a mut [f32],
        bus_in: &'a mut [Vec<f32>; SENDS],
    ) -> Self {
        Self {
            left: &mut left[..n],
            right: &mut right[..n],
            bus_in,
        }
    }
}

/// Voices (ids in increasing order) whose sources wait in the lane buffers for their shelves
/// to be filtered together.
#[derive(Default)]
struct LaneGroup {
    voices: [usize; BANK_LANES],
    len: usize,
}

impl LaneGroup {
    fn push(&mut self, voice: usize) {
        self.voices[self.len] = voice;
        self.len += 1;
    }

    /// Filters the waiting voices' shelves side by side, then mixes them in id order.
    fn flush(
        &mut self,
        voices: &mut [Voice],
        bufs: &mut [Vec<f32>; BANK_LANES],
        n: usize,
        mix: MixTargets<'_>,
    ) {
        let ids = self.voices;
        match self.len {
            0 => {}
            1 => lanes::<1>(voices, [ids[0]], bufs, n, mix),
            2 => lanes::<2>(voices, [ids[0], ids[1]], bufs, n, mix),
            3 => lanes::<3>(voices, [ids[0], ids[1], ids[2]], bufs, n, mix),
            4 => lanes::<4>(voices, [ids[0], ids[1], ids[2], ids[3]], bufs, n, mix),
            5 => lanes::<5>(voices, std::array::from_fn(|k| ids[k]), bufs, n, mix),
            6 => lanes::<6>(voices, std::array::from_fn(|k| ids[k]), bufs, n, mix),
            7 => lanes::<7>(voices, std::array::from_fn(|k| ids[k]), bufs, n, mix),
            _ => lanes::<8>(voices, ids, bufs, n, mix),
        }
        self.len = 0;
    }
}

/// [`LaneGroup::flush`] for `N` voices (distinct ids, in increasing order) whose sources are
/// the first `n` frames of `bufs[0..N]`.
fn lanes<const N: usize>(
    voices: &mut [Voice],
    ids: [usize; N],
    bufs: &mut [Vec<f32>; BANK_LANES],
    n: usize,
    mix: MixTargets<'_>,
) {
    let Ok(mut vs) = voices.get_disjoint_mut(ids) else {
        return;
    };
    let mut shelves = vs.each_mut().map(|v| v.lane_shelf());
    let lanes = bufs.each_mut().map(|b| &mut b[..n]);
    if !OcclusionShelf::process_bufs(&mut shelves, lanes) {
        // Not reached (every voice here is lane-ready), but keep the result right anyway.
        for (s, b) in shelves.iter_mut().zip(bufs.iter_mut()) {
            s.process(&mut b[..n]);
        }
    }
    for (v, b) in vs.iter_mut().zip(bufs.iter()) {
        v.finish_lane(&b[..n], n, mix.left, mix.right, mix.bus_in);
    }
}

/// Starts loading the samples voice `i` (if playing) reads in the coming block of `n`
/// frames: a hint that overlaps its cache misses with the voices before it.
fn prefetch_voice(voices: &[Voice], sounds: &[RenderSound], i: usize, n: usize) {
    let Some(v) = voices.get(i) else {
        return;
    };
    if !matches!(v.state, VoiceState::Playing | VoiceState::Stopping) {
        return;
    }
    if let Some(d) = sounds.get(v.sound as usize).and_then(|s| s.data.as_ref()) {
        let p = crate::voice::wrapped(v.played, d.samples.len(), v.looping);
        resound_dsp::interpolate::prefetch(&d.samples, p, v.step, n);
    }
}
