//! Echo taps (acoustics.md §5 "Mixer taps"): up to [`MAX_TAPS`] reads of a voice's decoded
//! samples at `position − delay·step`, each through a one-pole air low-pass and panned.
//!
//! No delay lines: the voice's whole decoded buffer is the history. A new tap set fades
//! in over 50 ms ([`TAP_FADE_S`]); a tap within 3 ms ([`TAP_MATCH_S`]) of a sounding
//! tap keeps that tap's delay and only moves its level and pan (50 ms ramp); taps
//! missing from the new set fade out over 50 ms and are then freed. If a set arrives while
//! all [`TAP_SLOTS`] slots are busy (two re-rankings within 50 ms), the quietest fading tap
//! is cut.
//!
//! **Routed taps (binaural output).** [`EchoTaps::set_routed`] sends one sounding tap to a
//! mono feed instead of the pan: its left/right gains ramp to 0 and its mono gain to its
//! level over the same 50 ms ramp (and back), so a tap that gains or loses an HRTF renderer
//! crossfades without a click. [`EchoTaps::mix_routed`] adds a routed tap's filtered signal
//! into the feed the caller hands it for that slot (the renderer's input). A tap set that is
//! never routed renders exactly as before (the mono ramps stay settled at 0).
//!
//! Per 64-frame piece, `mix` reads every tap with [`render_linear`] (a contiguous fast path
//! for step 1), runs the air low-passes six taps side by side (the only serial part), and
//! adds the ramped, panned result with vectorisable loops.

use crate::cubic::render_cubic;
use crate::denormal::flush_small;
use crate::gain::{MAX_GAIN, mix_ramp};
use crate::interpolate::render_linear;
use crate::one_pole::air_coefficient;
use crate::pan::equal_power_pan;
use crate::simd::multiversion;
use crate::smoothing::{DEFAULT_SAMPLE_RATE, LinearRamp, RAMP_SEGMENT, Ramp, TAP_FADE_S};
use crate::{sanitize, sanitize_sample_rate};

/// Most taps in one set (acoustics.md §5 item 6).
pub const MAX_TAPS: usize = 6;
/// Tap slots per voice: a sounding set plus a fading one.
pub const TAP_SLOTS: usize = 2 * MAX_TAPS;
/// Tap filters run in groups of this many slots (a full set of [`MAX_TAPS`] in one loop).
const FILTER_LANES: usize = MAX_TAPS;
/// A new tap within this delay of a sounding tap only changes that tap's level: 3 ms.
pub const TAP_MATCH_S: f32 = 0.003;
/// Longest accepted tap delay (delays are clamped to `0..=MAX_TAP_DELAY_S`): 10 s.
pub const MAX_TAP_DELAY_S: f32 = 10.0;

/// One echo tap as the mixer hands it over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TapParams {
    /// Delay after the direct sound in seconds (clamped to `0..=10`; NaN drops the tap).
    pub delay: f32,
    /// Linear level, already including voice volume and `distance_gain(path)`
    /// (clamped to `0..=16`; NaN → 0).
    pub level: f32,
    /// Gain of the tap's air low-pass at 5 kHz (acoustics.md §5 item 7), `0.001..=0.999`;
    /// 1 (or more) bypasses the filter; NaN → 1.
    pub hf: f32,
    /// Pan toward the reflection point, `-1..=1` (NaN → centre).
    pub pan: f32,
}

#[derive(Clone, Debug)]
struct TapSlot {
    active: bool,
    retiring: bool,
    delay: f32,
    /// Low-pass coefficients `(a, 1 − a)`; `(1, 0)` passes the signal unchanged.
    lp: (f32, f32),
    state: f32,
    left: LinearRamp,
    right: LinearRamp,
    /// Gain into the slot's mono feed (a routed tap).
    mono: LinearRamp,
    /// Linear level and pan gains of the tap (its targets when not routed).
    level: f32,
    pan: (f32, f32),
    /// The tap goes to its mono feed instead of the pan.
    routed: bool,
    /// Index of the tap in the last set that claimed the slot (`None` once retiring).
    tap: Option<u8>,
    /// Counts the slot's activations: a routed tap's identity across set updates.
    epoch: u32,
}

impl TapSlot {
    fn new() -> Self {
        Self {
            active: false,
            retiring: false,
            delay: 0.0,
            lp: (1.0, 0.0),
            state: 0.0,
            left: LinearRamp::new(0.0, TAP_FADE_S),
            right: LinearRamp::new(0.0, TAP_FADE_S),
            mono: LinearRamp::new(0.0, TAP_FADE_S),
            level: 0.0,
            pan: (0.0, 0.0),
            routed: false,
            tap: None,
            epoch: 0,
        }
    }

    fn silent_and_settled(&self) -> bool {
        self.left.is_settled()
            && self.right.is_settled()
            && self.mono.is_settled()
            && self.left.target() == 0.0
            && self.right.target() == 0.0
            && self.mono.target() == 0.0
    }

    /// Aims the ramps at the tap's level: on the pan, or into the mono feed when routed.
    fn aim(&mut self) {
        if self.routed {
            self.left.set_target(0.0);
            self.right.set_target(0.0);
            self.mono.set_target(self.level);
        } else {
            self.left.set_target(self.level * self.pan.0);
            self.right.set_target(self.level * self.pan.1);
            self.mono.set_target(0.0);
        }
    }
}

/// A sounding tap of an [`EchoTaps`] slot, as [`EchoTaps::sounding`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoundingTap {
    /// Index of the tap in the last set handed to [`EchoTaps::set_taps`].
    pub tap: usize,
    /// The slot's activation count: the same tap while it stays the same.
    pub epoch: u32,
    /// The tap's linear level (its target).
    pub level: f32,
    /// True while the tap goes to its mono feed.
    pub routed: bool,
}

/// The echo taps of one voice. Never allocates (fixed [`TAP_SLOTS`] slots).
#[derive(Clone, Debug)]
pub struct EchoTaps {
    slots: [TapSlot; TAP_SLOTS],
    sample_rate: f32,
    phase: usize,
    /// Read with the 4-point kernel of [`crate::cubic`] (a raised sound) instead of linearly.
    cubic: bool,
}

impl Default for EchoTaps {
    fn default() -> Self {
        Self::new()
    }
}

impl EchoTaps {
    /// No taps, prepared for 48 kHz.
    #[must_use]
    pub fn new() -> Self {
        let mut t = Self {
            slots: core::array::from_fn(|_| TapSlot::new()),
            sample_rate: DEFAULT_SAMPLE_RATE,
            phase: 0,
            cubic: false,
        };
        t.prepare(DEFAULT_SAMPLE_RATE, 0);
        t
    }

    /// Sets the sample rate (fade lengths, filters). No buffers are needed.
    pub fn prepare(&mut self, sample_rate: f32, _max_block: usize) {
        self.sample_rate = sanitize_sample_rate(sample_rate);
        for s in &mut self.slots {
            s.left.prepare(self.sample_rate);
            s.right.prepare(self.sample_rate);
            s.mono.prepare(self.sample_rate);
        }
    }

    /// Reads the source with the 4-point kernel of [`crate::cubic`] (`true`: a sound raised by
    /// [`crate::oversample`]) or linearly (`false`, the default). Not changed by `reset`.
    pub fn set_cubic(&mut self, on: bool) {
        self.cubic = on;
    }

    /// Replaces the tap set (at most [`MAX_TAPS`]; extra taps are ignored). See the
    /// module docs for fades and matching. Never allocates.
    pub fn set_taps(&mut self, taps: &[TapParams]) {
        let mut claimed = [false; TAP_SLOTS];
        for (ti, t) in taps.iter().take(MAX_TAPS).enumerate() {
            if t.delay.is_nan() {
                continue;
            }
            let delay = t.delay.clamp(0.0, MAX_TAP_DELAY_S);
            let level = sanitize(t.level, 0.0, MAX_GAIN, 0.0);
            let (pl, pr) = equal_power_pan(t.pan);
            let lp = air_coefficient(t.hf, self.sample_rate).map_or((1.0, 0.0), |a| (a, 1.0 - a));
            let index = self
                .match_slot(delay, &claimed)
                .or_else(|| self.free_slot(&claimed));
            let Some(k) = index else { continue };
            claimed[k] = true;
            let slot = &mut self.slots[k];
            if !slot.active {
                slot.active = true;
                slot.delay = delay;
                slot.state = 0.0;
                slot.left.set_immediate(0.0);
                slot.right.set_immediate(0.0);
                slot.mono.set_immediate(0.0);
                slot.routed = false;
                slot.epoch = slot.epoch.wrapping_add(1);
            }
            slot.retiring = false;
            slot.lp = lp;
            slot.level = level;
            slot.pan = (pl, pr);
            // MAX_TAPS fits in u8.
            slot.tap = Some(ti as u8);
            slot.aim();
        }
        for (slot, &c) in self.slots.iter_mut().zip(&claimed) {
            if slot.active && !c {
                slot.retiring = true;
                slot.tap = None;
                slot.left.set_target(0.0);
                slot.right.set_target(0.0);
                slot.mono.set_target(0.0);
            }
        }
    }

    /// The tap sounding in slot `slot` (`0..TAP_SLOTS`), if one does (active, not fading out).
    #[must_use]
    pub fn sounding(&self, slot: usize) -> Option<SoundingTap> {
        let s = self.slots.get(slot)?;
        if !s.active || s.retiring {
            return None;
        }
        Some(SoundingTap {
            tap: usize::from(s.tap?),
            epoch: s.epoch,
            level: s.level,
            routed: s.routed,
        })
    }

    /// True while slot `slot` is active (sounding or fading) with activation count `epoch`:
    /// its mono feed is still wanted.
    #[must_use]
    pub fn feeds(&self, slot: usize, epoch: u32) -> bool {
        self.slots
            .get(slot)
            .is_some_and(|s| s.active && s.epoch == epoch)
    }

    /// Routes the sounding tap in `slot` to its mono feed (`true`) or back to the pan, with a
    /// 50 ms crossfade (see the module docs). Does nothing for a slot that is not sounding or
    /// already routed that way.
    pub fn set_routed(&mut self, slot: usize, routed: bool) {
        if let Some(s) = self.slots.get_mut(slot)
            && s.active
            && !s.retiring
            && s.routed != routed
        {
            s.routed = routed;
            s.aim();
        }
    }

    /// Closest active slot within [`TAP_MATCH_S`] (sounding taps before fading ones).
    fn match_slot(&self, delay: f32, claimed: &[bool; TAP_SLOTS]) -> Option<usize> {
        let mut best: Option<(usize, bool, f32)> = None;
        for (k, s) in self.slots.iter().enumerate() {
            if !s.active || claimed[k] {
                continue;
            }
            let d = (s.delay - delay).abs();
            if d > TAP_MATCH_S {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, retiring, bd)) => {
                    (retiring && !s.retiring) || (retiring == s.retiring && d < bd)
                }
            };
            if better {
                best = Some((k, s.retiring, d));
            }
        }
        best.map(|(k, _, _)| k)
    }

    /// A free slot, else the quietest fading slot (which is cut).
    fn free_slot(&mut self, claimed: &[bool; TAP_SLOTS]) -> Option<usize> {
        if let Some(k) = self.slots.iter().position(|s| !s.active) {
            return Some(k);
        }
        let mut best: Option<(usize, f32)> = None;
        for (k, s) in self.slots.iter().enumerate() {
            if claimed[k] || !s.retiring {
                continue;
            }
            let level = s.left.current().abs() + s.right.current().abs();
            if best.is_none_or(|(_, l)| level < l) {
                best = Some((k, level));
            }
        }
        let k = best?.0;
        self.slots[k].active = false;
        Some(k)
    }

    /// Fades every tap out (50 ms).
    pub fn clear(&mut self) {
        self.set_taps(&[]);
    }

    /// True while any tap sounds or fades.
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.slots.iter().any(|s| s.active)
    }

    /// Number of slots in use (sounding or fading).
    #[must_use]
    pub fn active_count(&self) -> usize {
        self.slots.iter().filter(|s| s.active).count()
    }

    /// Longest delay among active taps in seconds (0 without taps): how long the voice
    /// must live after its sample ends (its tail).
    #[must_use]
    pub fn max_delay_s(&self) -> f32 {
        self.slots
            .iter()
            .filter(|s| s.active)
            .map(|s| s.delay)
            .fold(0.0, f32::max)
    }

    /// Adds the taps into `left` and `right` (the shorter length is used).
    ///
    /// `source` is the voice's decoded mono buffer, `position` its playback position (in
    /// source frames, may be past the end during the tail) at the first output frame, and
    /// `step` the source frames per output frame. Tap `k` reads
    /// `position + i·step − delay_k·sample_rate·step` at output frame `i` (so its delay is
    /// in output time whatever the resampling step). Non-finite `position`/`step` add nothing.
    pub fn mix(
        &mut self,
        source: &[f32],
        position: f64,
        step: f64,
        left: &mut [f32],
        right: &mut [f32],
    ) {
        let mut feeds: Feeds<'_> = Default::default();
        mix_taps(self, source, position, step, left, right, &mut feeds);
    }

    /// [`EchoTaps::mix`] that also adds each routed tap (see [`EchoTaps::set_routed`]) at its
    /// mono gain into `feeds[slot]` (same frames as `left`; a shorter feed or `None` drops
    /// the rest). A routed tap without a feed is silent.
    pub fn mix_routed(
        &mut self,
        source: &[f32],
        position: f64,
        step: f64,
        left: &mut [f32],
        right: &mut [f32],
        feeds: &mut Feeds<'_>,
    ) {
        mix_taps(self, source, position, step, left, right, feeds);
    }

    /// Returns to the state after construction (no taps, filters cleared).
    pub fn reset(&mut self) {
        for s in &mut self.slots {
            s.active = false;
            s.retiring = false;
            s.delay = 0.0;
            s.lp = (1.0, 0.0);
            s.state = 0.0;
            s.left.reset();
            s.right.reset();
            s.mono.reset();
            s.level = 0.0;
            s.pan = (0.0, 0.0);
            s.routed = false;
            s.tap = None;
        }
        self.phase = 0;
    }
}

multiversion! {
    /// [`EchoTaps::mix`] (compiled for the baseline and for AVX2, see [`crate::simd`]).
    fn mix_taps(
        taps: &mut EchoTaps,
        source: &[f32],
        position: f64,
        step: f64,
        left: &mut [f32],
        right: &mut [f32],
        feeds: &mut Feeds<'_>,
    ) {
        let frames = left.len().min(right.len());
        if !position.is_finite() || !step.is_finite() {
            return;
        }
        let fs = f64::from(taps.sample_rate);
        let mut xs = [[0.0f32; RAMP_SEGMENT]; TAP_SLOTS];
        let mut done = 0;
        while done < frames {
            let mut n = (frames - done).min(RAMP_SEGMENT - taps.phase);
            for s in &taps.slots {
                if s.active {
                    n = n
                        .min(s.left.frames_left())
                        .min(s.right.frames_left())
                        .min(s.mono.frames_left());
                }
            }
            let l = &mut left[done..done + n];
            let r = &mut right[done..done + n];
            let base_pos = position + done as f64 * step;
            // 1. Read each sounding tap's samples (linear interpolation).
            let mut live = [false; TAP_SLOTS];
            for ((slot, x), lv) in taps.slots.iter().zip(xs.iter_mut()).zip(live.iter_mut()) {
                if !slot.active {
                    continue;
                }
                let start = base_pos - f64::from(slot.delay) * fs * step;
                let end = start + n as f64 * step;
                // Entirely outside the buffer with a silent filter: contributes exactly 0.
                // (The 4-point read reaches one frame further each side.)
                let reach = if taps.cubic { 1.0 } else { 0.0 };
                if slot.state == 0.0 && (end <= -1.0 - reach || start >= source.len() as f64 + reach)
                {
                    continue;
                }
                if taps.cubic {
                    render_cubic(source, start, step, &mut x[..n]);
                } else {
                    render_linear(source, start, step, &mut x[..n]);
                }
                *lv = true;
            }
            // 2. Air low-passes, six taps side by side (bypass = coefficients (1, 0)).
            for ((group, xg), lg) in taps
                .slots
                .chunks_exact_mut(FILTER_LANES)
                .zip(xs.chunks_exact_mut(FILTER_LANES))
                .zip(live.chunks_exact(FILTER_LANES))
            {
                if !lg.iter().any(|&v| v) {
                    continue;
                }
                filter_group(group, xg, lg, n);
            }
            // 3. Ramped, panned gains.
            for (((slot, x), &lv), feed) in taps
                .slots
                .iter_mut()
                .zip(xs.iter())
                .zip(live.iter())
                .zip(feeds.iter_mut())
            {
                if !slot.active {
                    continue;
                }
                let gl = slot.left.advance(n);
                let gr = slot.right.advance(n);
                let gm = slot.mono.advance(n);
                if lv {
                    mix_ramp_stereo(&x[..n], l, r, gl, gr);
                    if !gm.is_exactly(0.0)
                        && let Some(f) = feed.as_deref_mut()
                        && let Some(f) = f.get_mut(done..done + n)
                    {
                        mix_ramp(&x[..n], f, gm);
                    }
                }
            }
            taps.phase += n;
            if taps.phase >= RAMP_SEGMENT {
                taps.phase = 0;
                for slot in &mut taps.slots {
                    slot.state = flush_small(slot.state);
                }
            }
            for slot in &mut taps.slots {
                if slot.active && slot.retiring && slot.silent_and_settled() {
                    slot.active = false;
                    slot.retiring = false;
                    slot.lp = (1.0, 0.0);
                    slot.state = 0.0;
                }
            }
            done += n;
        }
    }
}

/// Per tap slot, where a routed tap's mono signal goes ([`EchoTaps::mix_routed`]).
pub type Feeds<'a> = [Option<&'a mut [f32]>; TAP_SLOTS];

/// `mix_ramp(x, left, gl)` and `mix_ramp(x, right, gr)` in one pass over `x` when neither ramp
/// is exactly 0 (then both add; the same products and sums), else the two calls.
#[inline]
fn mix_ramp_stereo(x: &[f32], left: &mut [f32], right: &mut [f32], gl: Ramp, gr: Ramp) {
    if gl.is_exactly(0.0) || gr.is_exactly(0.0) {
        mix_ramp(x, left, gl);
        mix_ramp(x, right, gr);
        return;
    }
    let n = x.len().min(left.len()).min(right.len());
    let (x, left, right) = (&x[..n], &mut left[..n], &mut right[..n]);
    if let Some(ts) = gl.frames(n).filter(|_| gl.offset == gr.offset) {
        // One frame index for both, read from the table: exactly `Ramp::at`.
        for ((v, (ol, or)), t) in x.iter().zip(left.iter_mut().zip(right.iter_mut())).zip(ts) {
            *ol += v * (gl.start + gl.step * t);
            *or += v * (gr.start + gr.step * t);
        }
    } else if gl.offset == gr.offset {
        // One frame index for both (a fade's chunk past the first segment).
        let offset = gl.offset;
        for (i, (v, (ol, or))) in x
            .iter()
            .zip(left.iter_mut().zip(right.iter_mut()))
            .enumerate()
        {
            let t = ((offset + i) as i32) as f32;
            *ol += v * (gl.start + gl.step * t);
            *or += v * (gr.start + gr.step * t);
        }
    } else {
        for (i, (v, (ol, or))) in x
            .iter()
            .zip(left.iter_mut().zip(right.iter_mut()))
            .enumerate()
        {
            *ol += v * gl.at(i);
            *or += v * gr.at(i);
        }
    }
}

/// Runs the one-pole recursions of [`FILTER_LANES`] tap slots in one loop over
/// `xs[..][..n]` in place (independent chains side by side); lanes not `live` are left alone.
// Frame-major on purpose: each frame steps every lane's chain; an iterator over one
// lane's frames would serialise the chains again.
#[allow(clippy::needless_range_loop)]
#[inline]
fn filter_group(group: &mut [TapSlot], xs: &mut [[f32; RAMP_SEGMENT]], live: &[bool], n: usize) {
    let (Ok(group), Ok(xs), Ok(live)) = (
        <&mut [TapSlot; FILTER_LANES]>::try_from(group),
        <&mut [[f32; RAMP_SEGMENT]; FILTER_LANES]>::try_from(xs),
        <&[bool; FILTER_LANES]>::try_from(live),
    ) else {
        return;
    };
    let n = n.min(RAMP_SEGMENT);
    let a: [f32; FILTER_LANES] =
        core::array::from_fn(|k| if live[k] { group[k].lp.0 } else { 0.0 });
    let c: [f32; FILTER_LANES] =
        core::array::from_fn(|k| if live[k] { group[k].lp.1 } else { 0.0 });
    let mut s: [f32; FILTER_LANES] =
        core::array::from_fn(|k| if live[k] { group[k].state } else { 0.0 });
    for i in 0..n {
        for k in 0..FILTER_LANES {
            s[k] = a[k] * xs[k][i] + c[k] * s[k];
            xs[k][i] = s[k];
        }
    }
    for (k, slot) in group.iter_mut().enumerate() {
        if live[k] {
            slot.state = s[k];
        }
    }
}
