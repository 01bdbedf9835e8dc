//! The renderer's voice: resample → stop fade → shelf → sends → dry gain and pan.
//!
//! Audio thread only. Nothing here allocates; all state is inline (no heap per voice).

use resound_dsp::gain::MAX_GAIN;
use resound_dsp::mix::{self, SixOutputs, SixRamps};
use resound_dsp::smoothing::{PAN_SMOOTHING_S, SEND_SMOOTHING_S, SmoothedSet, TAP_FADE_S};
use resound_dsp::{LinearRamp, OcclusionShelf, RAMP_SEGMENT, apply_ramp, mix_ramp};

use crate::control::{self, Control, Easing, Tweened};
use crate::params::{SENDS, VoiceTargets};
use crate::travel::{MAX_DELAY_S, Travel};
use resound_dsp::interpolate::{FRAC_BITS, resample, resample_mix};
use resound_dsp::{resample_cubic, resample_cubic_mix};

mod read;
mod start;
mod stereo;

pub(crate) use read::wrapped;
pub(crate) use start::StartAt;
use start::{run_step, scaled_step};

/// The tween grid in frames (the smoothing segment).
const GRID: u64 = RAMP_SEGMENT as u64;

/// The voice's gains, in the order of [`SixOutputs`]: dry left, dry right, sends 0..4.
const GAINS: usize = 2 + SENDS;
/// Lanes of the voice's gain set: the six gains and two idle lanes (always 0), so that the set
/// fills two 4-lane vectors and a segment start is whole-vector arithmetic.
const GAIN_LANES: usize = 8;
const LEFT: usize = 0;
const RIGHT: usize = 1;
const SEND0: usize = 2;
/// Smoothing segments whose ramps a voice gathers before mixing them in one call: a whole
/// 512-frame block (eight segments and a part when it starts mid-segment).
const PIECES: usize = 9;

/// Frames an idle smoother must advance to reach `clock` from `synced` (the grid phase only).
fn grid_lag(clock: u64, synced: u64) -> usize {
    ((clock - synced) % RAMP_SEGMENT as u64) as usize
}

/// Where a voice is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VoiceState {
    /// Slot unused.
    Idle,
    /// Started with a start frame still ahead; silent until then.
    Scheduled,
    /// Playing (or ringing out its tail).
    Playing,
    /// Held silent after a pause fade; resumes where it stopped.
    Paused,
    /// Fading out after a stop; ends when the fade (and any tap fade) is done.
    Stopping,
    /// Finished during this block; reported and freed at the end of the block.
    Finished,
}

/// A voice on the audio thread.
#[derive(Debug, Clone)]
pub(crate) struct Voice {
    pub state: VoiceState,
    pub generation: u32,
    pub sound: u32,
    pub looping: bool,
    /// Read position of the direct path in source frames since the start (signed fixed
    /// point, unwrapped: a loop's keeps growing; negative while the propagation delay holds
    /// the start back); taps read behind it.
    pub played: i64,
    /// `played` at the start of the current block.
    pub block_start: i64,
    /// `played` at the end of the current block (the reads the block plans).
    block_end: i64,
    /// The direct path's propagation delay.
    travel: Travel,
    /// The delay targets last applied: seconds, glide seconds, cut count.
    applied_delay: (f32, f32, u32),
    /// A cut's fade touches this block's active frames.
    cut_in_block: bool,
    /// The output sample rate.
    sample_rate: f32,
    /// Frames the voice rendered in the current block (its taps render as many).
    pub active_frames: usize,
    /// Fixed-point read step per output frame at the block start (the sound's rate at the mix
    /// rate, times the playback rate, less the delay's change per frame).
    pub step: u64,
    /// The step at playback rate 1.
    base_step: u64,
    /// The game's gain, pause fade and playback rate (tweened on the renderer's clock).
    gain: Tweened,
    pause: Tweened,
    rate: Tweened,
    /// Sub-mix track (index into the renderer's track gains).
    pub track: u8,
    /// Plays the sound's two channels (a stereo sound started as stereo).
    pub stereo: bool,
    /// Reads with the 4-point kernel (the sounds were raised at load: `Resampler::Oversampled`)
    /// rather than linearly.
    cubic: bool,
    /// Renderer frame at which a scheduled voice starts.
    start_frame: u64,
    /// Silent frames at the start of this block before the voice starts (its first block).
    lead: usize,
    /// The voice woke in this block (its `lead` is this block's).
    woke: bool,
    /// Renderer frame at the start of this block.
    block_frame: u64,
    /// This block's track gain, the game's controls as one factor, and whether the read step
    /// changes within the block (a moving rate, a gliding delay, a cut).
    track_gain: Tweened,
    ctl: Ctl,
    moving: bool,
    /// The block ends early because the pause fade reached silence (not the voice's end).
    pauses: bool,
    /// The pause under way ends the voice (a stop with a chosen fade).
    ends_at_pause: bool,
    /// Longest delay of the voice's taps in fixed-point source frames: a one-shot rings this
    /// long after its last sample.
    pub tail: u64,
    /// The targets last applied (from the play command or the parameter block).
    pub targets: VoiceTargets,
    /// Frames rendered since the voice started plus its start phase: the position of every
    /// smoother's 64-frame grid.
    clock: u64,
    /// `clock` up to which the shelf and the gains have been advanced. An idle shelf or gain
    /// set (settled where processing is a no-op) is not advanced every block; it catches up
    /// (`lag % 64` frames, identical state) before it is used or retargeted.
    shelf_synced: u64,
    gains_synced: u64,
    shelf: OcclusionShelf,
    /// Dry left, dry right, sends 0..4 (the order of [`SixOutputs`]), on one grid.
    gains: SmoothedSet<GAIN_LANES>,
    fade: LinearRamp,
    /// Frames left before a stopping voice ends: its dry fade, or the 50 ms tap fade when it
    /// has echo taps (they read the raw samples and fade on their own).
    stop_left: usize,
    /// Length of the tap fade in frames.
    tap_fade_frames: usize,
    /// Test only: take the general path and advance every smoother every block (the eager
    /// reference the fast path and the lazy grid catch-up must match bit for bit).
    #[cfg(test)]
    pub eager: bool,
}

impl Voice {
    pub(crate) fn new(sample_rate: f32, stop_fade_s: f32, cubic: bool) -> Self {
        let mut v = Self {
            state: VoiceState::Idle,
            generation: 0,
            sound: 0,
            looping: false,
            played: 0,
            block_start: 0,
            block_end: 0,
            travel: Travel::default(),
            applied_delay: (0.0, 0.0, 0),
            cut_in_block: false,
            sample_rate,
            active_frames: 0,
            step: 0,
            base_step: 0,
            gain: Tweened::constant(1.0),
            pause: Tweened::constant(1.0),
            rate: Tweened::constant(1.0),
            track: 0,
            stereo: false,
            cubic,
            start_frame: 0,
            lead: 0,
            woke: false,
            block_frame: 0,
            track_gain: Tweened::constant(1.0),
            ctl: Ctl::Unity,
            moving: false,
            pauses: false,
            ends_at_pause: false,
            tail: 0,
            targets: VoiceTargets::default(),
            clock: 0,
            shelf_synced: 0,
            gains_synced: 0,
            shelf: OcclusionShelf::new(),
            gains: SmoothedSet::new(
                [0.0; GAIN_LANES],
                std::array::from_fn(|k| {
                    if k < SEND0 {
                        PAN_SMOOTHING_S
                    } else {
                        SEND_SMOOTHING_S
                    }
                }),
                0.0,
                MAX_GAIN,
            ),
            fade: LinearRamp::new(1.0, stop_fade_s),
            stop_left: 0,
            // As `LinearRamp` rounds its length.
            tap_fade_frames: ((TAP_FADE_S * sample_rate).round() as usize).max(1),
            #[cfg(test)]
            eager: false,
        };
        v.shelf.prepare(sample_rate, 0);
        v.gains.prepare(sample_rate);
        v.fade.prepare(sample_rate);
        v
    }

    /// Starts the voice at its targets (no ramp), its smoothers' 64-frame grid at `phase`
    /// (the renderer's frame count modulo 64, so every voice's segments line up with every
    /// other's and shelves filtered side by side share their segment boundaries).
    #[allow(clippy::too_many_arguments)] // the renderer's one call site
    pub(crate) fn start(
        &mut self,
        generation: u32,
        sound: u32,
        looping: bool,
        step: u64,
        t: VoiceTargets,
        phase: u64,
        start: StartAt,
    ) {
        self.state = if start.frame > start.now {
            VoiceState::Scheduled
        } else {
            VoiceState::Playing
        };
        self.start_frame = start.frame;
        self.lead = 0;
        self.generation = generation;
        self.sound = sound;
        self.looping = looping;
        self.base_step = step;
        self.gain = Tweened::constant(start.controls.gain);
        self.pause = Tweened::constant(1.0);
        self.ends_at_pause = false;
        self.rate = Tweened::constant(start.controls.rate);
        self.step = scaled_step(step, start.controls.rate);
        let delay = self.delay_fixed(t.delay, self.step);
        self.travel = Travel::constant(delay);
        self.applied_delay = (t.delay, t.glide, t.cuts);
        self.cut_in_block = false;
        self.played = -delay;
        self.block_start = self.played;
        self.block_end = self.played;
        self.track = start.controls.track;
        self.stereo = start.controls.stereo;
        self.tail = 0;
        self.targets = t;
        // The smoothers start at a segment boundary (grid position 0) and lag `phase` frames
        // behind the clock: the lazy catch-up moves them onto the renderer's grid before use.
        self.clock = phase % RAMP_SEGMENT as u64;
        (self.shelf_synced, self.gains_synced) = (0, 0);
        self.shelf.reset();
        self.shelf.set_immediate(t.shelf_gain, t.shelf_hf);
        self.gains.reset();
        for (k, v) in gain_targets(&t).into_iter().enumerate() {
            self.gains.set_immediate(k, v);
        }
        self.fade.reset();
    }

    /// A delay of `seconds` in fixed-point source frames at read step `step`.
    fn delay_fixed(&self, seconds: f32, step: u64) -> i64 {
        let frames = f64::from(seconds.clamp(0.0, MAX_DELAY_S)) * f64::from(self.sample_rate);
        (frames * step as f64).round() as i64
    }

    /// Aims the direct path's propagation delay at `t`'s from renderer frame `now` (a no-op
    /// when it is unchanged): a glide, or a cut when `t` counts a new one.
    pub(crate) fn retarget_delay(&mut self, t: &VoiceTargets, now: u64) {
        let delay = (t.delay, t.glide, t.cuts);
        if delay == self.applied_delay {
            return;
        }
        let cut = t.cuts != self.applied_delay.2;
        self.applied_delay = delay;
        let step = scaled_step(self.base_step, self.rate.target());
        let target = self.delay_fixed(t.delay, step);
        let glide = (f64::from(t.glide.max(0.0)) * f64::from(self.sample_rate)) as u64;
        let max_delta = (step / 4) as i64;
        self.travel.retarget(now, target, glide, max_delta, cut);
    }

    /// Aims the smoothers at new targets (a no-op when they are unchanged).
    pub(crate) fn retarget(&mut self, t: &VoiceTargets) {
        if self.targets == *t {
            return;
        }
        let old = self.targets;
        self.targets = *t;
        if (old.shelf_gain, old.shelf_hf) != (t.shelf_gain, t.shelf_hf) {
            self.sync_shelf();
            self.shelf.set_targets(t.shelf_gain, t.shelf_hf);
        }
        let (old, new) = (gain_targets(&old), gain_targets(t));
        if old != new {
            self.sync_gains();
            for (k, v) in new.into_iter().enumerate() {
                self.gains.set_target(k, v);
            }
        }
    }

    /// Like [`Self::retarget`], but the dry left/right gains jump to `t`'s without a ramp: a
    /// voice handed between binaural and pan output, whose two paths the binaural pool
    /// crossfades (`crate::binaural`).
    pub(crate) fn retarget_dry_immediate(&mut self, t: &VoiceTargets) {
        self.retarget(t);
        self.sync_gains();
        self.gains.set_immediate(0, t.left);
        self.gains.set_immediate(1, t.right);
    }

    /// Brings an idle (bypassed) shelf's grid up to `clock`.
    fn sync_shelf(&mut self) {
        let lag = grid_lag(self.clock, self.shelf_synced);
        if lag > 0 {
            let mut idle = [0.0f32; RAMP_SEGMENT];
            self.shelf.process(&mut idle[..lag]);
        }
        self.shelf_synced = self.clock;
    }

    /// Brings idle (settled) gains' grid up to `clock`.
    fn sync_gains(&mut self) {
        let lag = grid_lag(self.clock, self.gains_synced);
        if lag > 0 {
            self.gains.skip(lag);
        }
        self.gains_synced = self.clock;
    }

    /// True when send `k` is exactly 0 and stays 0 (its bus need not be touched).
    fn send_silent(&self, k: usize) -> bool {
        self.gains.is_zero(SEND0 + k)
    }

    /// Begins the stop fade. A voice with echo taps lives on until its taps have faded
    /// (the tap set fades them when it sees the voice stopping).
    pub(crate) fn stop(&mut self) {
        if matches!(self.state, VoiceState::Scheduled | VoiceState::Paused) {
            // Nothing sounds: it ends at once.
            self.state = VoiceState::Finished;
            return;
        }
        if self.state == VoiceState::Playing {
            self.state = VoiceState::Stopping;
            self.fade.set_target(0.0);
            let dry = self.fade.frames_left();
            let dry = if dry == usize::MAX { 0 } else { dry };
            self.stop_left = if self.tail > 0 {
                dry.max(self.tap_fade_frames)
            } else {
                dry
            };
        }
    }

    /// Tweens one of the game's controls, from its value at renderer frame `now`.
    pub(crate) fn tween(
        &mut self,
        now: u64,
        control: Control,
        target: f32,
        frames: u64,
        e: Easing,
    ) {
        match control {
            Control::Gain => self.gain.retarget(now, target, frames, e),
            Control::Rate => self.rate.retarget(now, target, frames, e),
        }
    }

    /// Fades the voice out and holds it (`pause`) or fades it back in, from renderer frame
    /// `now` over `frames`. A paused voice resumes where it stopped.
    /// With `end`, the voice ends (its taps fading as on a stop) once it is silent.
    pub(crate) fn pause(&mut self, now: u64, pause: bool, frames: u64, end: bool) {
        if end && self.state == VoiceState::Scheduled {
            self.state = VoiceState::Finished;
            return;
        }
        self.ends_at_pause = end && pause;
        let target = if pause { 0.0 } else { 1.0 };
        match self.state {
            VoiceState::Paused if !pause => {
                self.state = VoiceState::Playing;
                self.pause = Tweened::constant(0.0);
                self.pause.retarget(now, 1.0, frames, Easing::Linear);
            }
            VoiceState::Playing | VoiceState::Scheduled => {
                self.pause.retarget(now, target, frames, Easing::Linear);
            }
            _ => {}
        }
    }

    /// A block of `n` frames in which the voice does not sound (scheduled ahead, paused):
    /// its smoothers' grid keeps step with the renderer.
    pub(crate) fn idle_block(&mut self, n: usize) {
        self.active_frames = 0;
        self.lead = 0;
        self.clock += n as u64;
    }

    /// A scheduled voice whose start falls in the block of `n` frames at renderer frame
    /// `frame` starts: it is silent for the frames before its start. Returns `false` (still
    /// waiting) otherwise.
    pub(crate) fn wake(&mut self, frame: u64, n: usize) -> bool {
        if self.start_frame >= frame + n as u64 {
            return false;
        }
        self.state = VoiceState::Playing;
        self.lead = self.start_frame.saturating_sub(frame) as usize;
        self.woke = true;
        true
    }

    #[cfg(test)]
    fn is_eager(&self) -> bool {
        self.eager
    }

    #[cfg(not(test))]
    #[inline(always)]
    fn is_eager(&self) -> bool {
        false
    }

    /// True when the voice is only resample × constant stereo gain this block.
    fn is_plain(&self) -> bool {
        !self.is_eager()
            && self.state == VoiceState::Playing
            && self.ctl == Ctl::Unity
            && !self.cut_in_block
            && self.lead == 0
            && !self.stereo
            && self.fade.is_settled()
            && self.fade.target() == 1.0
            && self.shelf.is_bypassed()
            && self.gains.is_settled(LEFT)
            && self.gains.is_settled(RIGHT)
            && (0..SENDS).all(|k| self.send_silent(k))
    }

    /// Renders up to `scratch.len()` frames and adds them to the dry mix and the bus inputs.
    ///
    /// A voice ends on an exact frame (the stop fade reaching 0, or a one-shot's last sample
    /// plus its tail), whatever the block size: only the frames before it are rendered and the
    /// voice becomes `Finished`. Returns the frames rendered. (The renderer calls its steps
    /// itself, to filter shelves side by side.)
    #[cfg(test)]
    pub(crate) fn render(
        &mut self,
        samples: &[f32],
        scratch: &mut [f32],
        mix_l: &mut [f32],
        mix_r: &mut [f32],
        bus_in: &mut [Vec<f32>; SENDS],
    ) -> usize {
        let n = scratch.len();
        let active = self.begin_block(samples.len(), n, self.clock, Tweened::constant(1.0));
        self.render_active(samples, &mut scratch[..active], n, mix_l, mix_r, bus_in);
        active
    }

    /// [`Voice::render`] after [`Voice::begin_block`]: renders the `x.len()` active frames
    /// (using `x` as scratch) and ends the block of `n` frames.
    pub(crate) fn render_active(
        &mut self,
        samples: &[f32],
        x: &mut [f32],
        n: usize,
        mix_l: &mut [f32],
        mix_r: &mut [f32],
        bus_in: &mut [Vec<f32>; SENDS],
    ) {
        self.render_body(samples, x, mix_l, mix_r, bus_in);
        self.end_block(n, x.len());
    }

    /// Starts a block of `n` frames: works out (and records) how many frames the voice
    /// renders in it. `samples_len` is the length of the voice's sound.
    ///
    /// `frame` is the renderer's frame at the block start, `track` the gain of the voice's
    /// track; together with the voice's own controls they decide this block's control factor
    /// and read steps.
    pub(crate) fn begin_block(
        &mut self,
        samples_len: usize,
        n: usize,
        frame: u64,
        track: Tweened,
    ) -> usize {
        self.block_frame = frame;
        if !std::mem::take(&mut self.woke) {
            self.lead = 0;
        }
        self.track_gain = track;
        let parts = [self.gain, self.pause, track];
        self.ctl = if parts.iter().all(|p| p.settled_at(frame)) {
            let c = parts.iter().map(Tweened::target).product::<f32>();
            if c == 1.0 { Ctl::Unity } else { Ctl::Const(c) }
        } else {
            Ctl::Moving
        };
        self.block_start = self.played;
        self.travel.settle(frame);
        self.moving = !self.rate.settled_at(frame) || !self.travel.quiet(frame, n as u64);
        let seg = frame - frame % GRID;
        self.step = run_step(
            self.base_step,
            self.rate.value(seg),
            self.travel.delta_at(seg),
        );
        let lead = self.lead.min(n);
        let mut stop_at = n;
        if self.state == VoiceState::Stopping {
            stop_at = n.min(self.stop_left);
        }
        // The pause fade ends on the grid point at or after its end: the voice holds there.
        self.pauses = false;
        if self.pause.target() == 0.0 && self.state == VoiceState::Playing {
            let end = self.pause.end().div_ceil(GRID) * GRID;
            let pause_at = usize::try_from(end.saturating_sub(frame)).unwrap_or(usize::MAX);
            if pause_at.max(lead) < stop_at {
                stop_at = pause_at.max(lead);
                self.pauses = true;
            }
        }
        let (active, end) = self.plan_reads(samples_len, lead, stop_at);
        if active < stop_at {
            self.pauses = false;
        }
        self.block_end = end;
        self.active_frames = active;
        self.cut_in_block = self.travel.cutting(frame, active as u64);
        active
    }

    /// Multiplies the block's active frames `x` by the game's controls (gain, pause fade,
    /// track gain).
    fn apply_controls(&self, x: &mut [f32]) {
        match self.ctl {
            Ctl::Unity => {}
            Ctl::Const(c) => x.iter_mut().for_each(|v| *v *= c),
            Ctl::Moving => {
                let parts = [self.gain, self.pause, self.track_gain];
                control::apply_product(x, self.block_frame, &parts);
            }
        }
    }

    /// True when the game's controls (and a cut's fade) leave this block's samples as they
    /// are.
    pub(crate) fn controls_unity(&self) -> bool {
        self.ctl == Ctl::Unity && !self.cut_in_block
    }

    /// Multiplies `x`, the frames from `offset` in this block, by the game's controls (the
    /// voice's echo taps follow its gain, pause fade and track).
    pub(crate) fn scale_by_controls(&self, x: &mut [f32], offset: usize) {
        match self.ctl {
            Ctl::Unity => {}
            Ctl::Const(c) => x.iter_mut().for_each(|v| *v *= c),
            Ctl::Moving => {
                let parts = [self.gain, self.pause, self.track_gain];
                control::apply_product(x, self.block_frame + offset as u64, &parts);
            }
        }
        // The taps jump with the direct read at a cut: they fade with it.
        self.apply_cut(x, offset);
    }

    /// Silent frames before the voice starts in this block.
    pub(crate) fn lead(&self) -> usize {
        self.lead
    }

    /// Renders the block's `x.len()` active frames (see [`Voice::render`]).
    fn render_body(
        &mut self,
        samples: &[f32],
        x: &mut [f32],
        mix_l: &mut [f32],
        mix_r: &mut [f32],
        bus_in: &mut [Vec<f32>; SENDS],
    ) {
        let active = x.len();
        if active > 0 && self.is_plain() {
            // Constant gains, shelf bypassed, no sends: resample straight into the mix
            // (bit-identical to the general path). The idle smoothers lag and catch up later.
            let gains = (self.gains.current(LEFT), self.gains.current(RIGHT));
            let (l, r) = (&mut mix_l[..active], &mut mix_r[..active]);
            self.read_mix(samples, gains, l, r);
        } else if active > 0 {
            self.source(samples, x);
            let end = self.clock + active as u64;
            if self.is_eager() || !self.shelf.is_bypassed() {
                self.sync_shelf();
                self.shelf.process(x);
                self.shelf_synced = end;
            }
            self.mix_out(x, mix_l, mix_r, bus_in);
        }
    }

    /// True when the voice's shelf can be filtered together with other voices' shelves
    /// ([`OcclusionShelf::process_bufs`]): a filtering shelf, steady or ramping (so the voice is
    /// not plain) and no stop fade in progress (its source is the plain resampled sound).
    pub(crate) fn lane_ready(&self) -> bool {
        !self.is_eager()
            && !self.stereo
            && self.shelf.is_lane_ready()
            && self.fade.is_settled()
            && self.fade.target() == 1.0
    }

    /// The source of a [lane-ready](Voice::lane_ready) voice (the resampled sound, no fade)
    /// into `x`, one sample per active frame. The caller then filters it with the voice's
    /// [`Voice::lane_shelf`] beside other voices' and finishes with [`Voice::finish_lane`].
    pub(crate) fn source_lane(&mut self, samples: &[f32], x: &mut [f32]) {
        self.read(samples, x);
        self.apply_controls(x);
    }

    /// The resampled, faded source of the block's active frames (`x.len()` of them) into `x`:
    /// the first step of the general path.
    fn source(&mut self, samples: &[f32], x: &mut [f32]) {
        self.read(samples, x);
        self.apply_controls(x);
        if !self.fade.is_settled() || self.fade.target() != 1.0 {
            let mut rest = &mut x[..];
            while !rest.is_empty() {
                let k = rest.len().min(self.fade.frames_left());
                let (chunk, tail) = rest.split_at_mut(k);
                let r = self.fade.advance(k);
                apply_ramp(chunk, r);
                rest = tail;
            }
        }
    }

    /// The voice's shelf, its grid brought up to the voice's clock, for filtering the block.
    pub(crate) fn lane_shelf(&mut self) -> &mut OcclusionShelf {
        self.sync_shelf();
        &mut self.shelf
    }

    /// Completes a lane-filtered block: mixes the shelf output `x` (the active frames) and
    /// ends the block of `n` frames.
    pub(crate) fn finish_lane(
        &mut self,
        x: &[f32],
        n: usize,
        mix_l: &mut [f32],
        mix_r: &mut [f32],
        bus_in: &mut [Vec<f32>; SENDS],
    ) {
        let active = x.len();
        self.shelf_synced = self.clock + active as u64;
        self.mix_out(x, mix_l, mix_r, bus_in);
        self.end_block(n, active);
    }

    /// Sends and dry gain/pan of the shelf output `x` (the block's active frames).
    fn mix_out(
        &mut self,
        x: &[f32],
        mix_l: &mut [f32],
        mix_r: &mut [f32],
        bus_in: &mut [Vec<f32>; SENDS],
    ) {
        let active = x.len();
        let eager = self.is_eager();
        let (l, r) = (&mut mix_l[..active], &mut mix_r[..active]);
        let [b0, b1, b2, b3] = bus_in;
        let mut outs = SixOutputs {
            left: l,
            right: r,
            sends: [&mut b0[..], &mut b1[..], &mut b2[..], &mut b3[..]],
        };
        let sends_open = !(0..SENDS).any(|k| self.send_silent(k));
        if !eager && sends_open && self.gains.all_settled() {
            // Every gain constant: one pass instead of six (same products and sums as
            // `mix_ramp`'s constant case; the settled gains lag and catch up later).
            let gains: [f32; GAINS] = std::array::from_fn(|k| self.gains.current(k));
            outs.mix(x, gains);
            return;
        }
        self.sync_gains();
        if !eager && sends_open {
            // Moving gains with all four sends open: one pass over `x` per 64-frame segment
            // for the six outputs (the same products and sums as six `mix_ramp` passes). The
            // segments' ramps are gathered, up to `PIECES` at a time, and mixed in one call.
            let mut pieces = [SixRamps::default(); PIECES];
            let (mut count, mut mixed, mut done) = (0, 0, 0);
            while done < active {
                let m = self.gains.segment_left().min(active - done);
                pieces[count] = SixRamps {
                    frames: m,
                    ramps: self.gains.advance(m).first(),
                };
                count += 1;
                done += m;
                if count == PIECES || done == active {
                    let mut part = outs.range(mixed..done);
                    part.mix_pieces(&x[mixed..done], &pieces[..count]);
                    (count, mixed) = (0, done);
                }
            }
        } else {
            // Some sends closed (or the eager reference): segment by segment, the dry pair in
            // one pass and each open send in its own (`mix_ramp`'s products and sums).
            let mut done = 0;
            while done < active {
                let m = self.gains.segment_left().min(active - done);
                let g = self.gains.advance(m);
                let range = done..done + m;
                let xs = &x[range.clone()];
                for k in 0..SENDS {
                    if eager || !self.send_silent(k) {
                        mix_ramp(xs, &mut outs.sends[k][range.clone()], g.ramp(SEND0 + k));
                    }
                }
                let (gl, gr) = (g.ramp(LEFT), g.ramp(RIGHT));
                let (l, r) = (&mut outs.left[range.clone()], &mut outs.right[range]);
                if eager {
                    mix_ramp(xs, l, gl);
                    mix_ramp(xs, r, gr);
                } else if gl.is_constant() && gr.is_constant() {
                    mix::mix_stereo(xs, l, r, [gl.start, gr.start]);
                } else {
                    mix::mix_stereo_ramped(xs, l, r, [gl, gr]);
                }
                done += m;
            }
        }
        self.gains_synced = self.clock + active as u64;
    }

    /// Ends a block of `n` frames of which the voice rendered `active`.
    pub(crate) fn end_block(&mut self, n: usize, active: usize) {
        self.played = self.block_end;
        if self.state == VoiceState::Stopping {
            self.stop_left -= active;
        }
        if active < n && self.pauses {
            // Held (or, ending, stopped: silent, its taps fading): the grid keeps step with
            // the renderer either way.
            self.state = VoiceState::Paused;
            self.clock += n as u64;
            if self.ends_at_pause {
                self.state = VoiceState::Playing;
                self.stop();
            }
        } else if active < n {
            self.clock += active as u64;
            self.state = VoiceState::Finished;
        } else {
            self.clock += active as u64;
        }
    }
}

/// The gain targets of `t` in the order of [`SixOutputs`].
fn gain_targets(t: &VoiceTargets) -> [f32; GAINS] {
    let [s0, s1, s2, s3] = t.sends;
    [t.left, t.right, s0, s1, s2, s3]
}

/// This block's product of the game's controls.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ctl {
    /// Exactly 1 all block: nothing to do.
    Unity,
    /// A constant other than 1.
    Const(f32),
    /// Moving: evaluated frame by frame on the grid.
    Moving,
}
