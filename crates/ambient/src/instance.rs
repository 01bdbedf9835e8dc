//! The two ambient sound instance kinds, `IntermitSound` (random one-shots, 0x80 bytes,
//! vftable 0x007CB0C4) and `ConstantSound` (re-triggered "continuous" ambience, 0x1C bytes,
//! vftable 0x007CB0E4) — spec `ambient-runtime.md` §3.4–3.5, `ambient-data-path.md` §2.
//!
//! An instance is keyed on `(STB descriptor, ambient sound index)` and lives for the life of
//! the [`crate::Ambient`]; a rebuild only resets its counts.

#[cfg(test)]
mod tests;

use glam::Vec3;
use resound_datformat::record::AmbientSoundDesc;
use serde::Serialize;

use crate::geometry::{Direction, Position};
use crate::rng::Ran2;
use crate::weight::{AMBIENT_SOUND_MIN_DIST, AMBIENT_SOUND_MIN_VOL, DIRECTION_JITTER};

/// Which subclass an instance is (`Ambient::GetSound` @ 0x005510B0 picks it from the
/// descriptor's derived `is_continuous = (base_chance == 0.0)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SoundKind {
    /// `IntermitSound`: random one-shots, chance-weighted, positioned around the listener.
    Intermit,
    /// `ConstantSound`: "continuous" ambience, volume-weighted, re-triggered every `min_rate`
    /// seconds from the centre.
    Constant,
}

/// One direction slot of an `IntermitSound` (`sound_dir[i]`, `min_dist[i]`, `max_dist[i]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DirectionSlot {
    /// `LandDefs::Direction`.
    pub dir: Direction,
    /// The nearest distance a sound may be placed in that direction.
    pub min_dist: f32,
    /// The farthest.
    pub max_dist: f32,
}

/// The `IntermitSound` fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntermitState {
    /// `play_chance` (+0x18).
    pub play_chance: f32,
    num_dir: u8,
    dirs: [DirectionSlot; 8],
}

impl IntermitState {
    fn new() -> Self {
        Self {
            play_chance: 0.0,
            num_dir: 0,
            dirs: [DirectionSlot {
                dir: Direction::InViewerBlock,
                min_dist: 0.0,
                max_dist: 0.0,
            }; 8],
        }
    }

    /// The gathered direction slots, in the order they were first seen.
    #[must_use]
    pub fn directions(&self) -> &[DirectionSlot] {
        &self.dirs[..usize::from(self.num_dir).min(8)]
    }

    /// `IntermitSound::AddDir` @ 0x00550CF0: widen the slot of `dir` to cover `[min, max]`, or
    /// append a new slot. At most 8 distinct directions exist, so the array never overflows
    /// (retail has no check; a ninth is ignored here).
    fn add_dir(&mut self, dir: Direction, min: f32, max: f32) {
        let n = usize::from(self.num_dir).min(8);
        if let Some(slot) = self.dirs[..n].iter_mut().find(|s| s.dir == dir) {
            if min < slot.min_dist {
                slot.min_dist = min;
            }
            if max > slot.max_dist {
                slot.max_dist = max;
            }
            return;
        }
        if n < 8 {
            self.dirs[n] = DirectionSlot {
                dir,
                min_dist: min,
                max_dist: max,
            };
            self.num_dir += 1;
        }
    }
}

/// The subclass state of an instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SoundState {
    /// `IntermitSound`.
    Intermit(IntermitState),
    /// `ConstantSound` with its `current_volume` (+0x18).
    Constant {
        /// `current_volume`.
        current_volume: f32,
    },
}

/// One `AmbientSound` instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AmbientSound {
    /// Index of the STB descriptor in the region's `stb_desc` (retail: the `desc` pointer).
    pub desc: usize,
    /// `ambient_sound_id`: the index into the descriptor's `ambient_sounds`.
    pub ambient_sound_id: usize,
    /// `on_queue`: whether the sound has a node in the play queue.
    pub on_queue: bool,
    /// `sound_count`: the weight accumulated in this rebuild.
    pub sound_count: f32,
    /// The subclass fields.
    pub state: SoundState,
}

impl AmbientSound {
    /// A new instance (`Ambient::GetSound` @ 0x005510B0 allocation): `ConstantSound` when the
    /// descriptor is continuous, otherwise `IntermitSound`.
    #[must_use]
    pub(crate) fn new(desc: usize, ambient_sound_id: usize, is_continuous: bool) -> Self {
        let state = if is_continuous {
            SoundState::Constant {
                current_volume: 0.0,
            }
        } else {
            SoundState::Intermit(IntermitState::new())
        };
        Self {
            desc,
            ambient_sound_id,
            on_queue: false,
            sound_count: 0.0,
            state,
        }
    }

    /// The subclass.
    #[must_use]
    #[inline]
    pub fn kind(&self) -> SoundKind {
        match self.state {
            SoundState::Intermit(_) => SoundKind::Intermit,
            SoundState::Constant { .. } => SoundKind::Constant,
        }
    }

    /// `IntermitSound::ResetCount` @ 0x00550CD0 (zeroes `play_count`, `sound_count`, `num_dir`,
    /// `play_chance`) / `ConstantSound::ResetCount` @ 0x00550D70 (zeroes `play_count` and
    /// `sound_count` but keeps `current_volume`).
    pub(crate) fn reset_count(&mut self, play_count: &mut u32) {
        *play_count = 0;
        self.sound_count = 0.0;
        if let SoundState::Intermit(s) = &mut self.state {
            s.num_dir = 0;
            s.play_chance = 0.0;
        }
    }

    /// `IntermitSound::AddTo` @ 0x00551450 / `ConstantSound::AddTo`: add the cell's weight;
    /// an intermittent sound also widens its direction slot to `|diff| ± 10` m (the 3-D
    /// length), or, for a cell in the viewer block, all eight slots (N, S, E, W, NW, NE, SW, SE)
    /// to `[4, 10]` m (retail writes 4 as `5.0 − 1.0`).
    pub(crate) fn add_to(&mut self, w: f32, diff: Vec3, dir: Direction) {
        self.sound_count += w;
        if let SoundState::Intermit(s) = &mut self.state {
            let half = AMBIENT_SOUND_MIN_DIST * 0.5;
            if dir == Direction::InViewerBlock {
                for d in Direction::ADD_TO_ORDER {
                    s.add_dir(d, 5.0 - 1.0, half);
                }
            } else {
                let d = diff.length();
                s.add_dir(dir, d - half, d + half);
            }
        }
    }

    /// `IntermitSound::UpdateSound` @ 0x00551310 / `ConstantSound::UpdateSound` @ 0x00551540.
    ///
    /// Intermittent: if `sound_count > 0`, `play_count += 1` and
    /// `play_chance = base_chance / total · sound_count`. Constant: `current_volume = 0` when
    /// `sound_count == 0`, else `play_count += 1` and `current_volume = volume / total ·
    /// sound_count` — which can exceed `volume` for an STB with several entries, because
    /// `total` is bumped once per cell (retail; kept).
    pub(crate) fn update_sound(
        &mut self,
        total: f32,
        desc: &AmbientSoundDesc,
        play_count: &mut u32,
    ) {
        match &mut self.state {
            SoundState::Intermit(s) => {
                if self.sound_count > 0.0 {
                    *play_count = play_count.saturating_add(1);
                    s.play_chance = desc.base_chance / total * self.sound_count;
                }
            }
            SoundState::Constant { current_volume } =>
            {
                #[allow(clippy::float_cmp, reason = "retail tests sound_count == 0")]
                if self.sound_count == 0.0 {
                    *current_volume = 0.0;
                } else {
                    *play_count = play_count.saturating_add(1);
                    *current_volume = desc.volume / total * self.sound_count;
                }
            }
        }
    }

    /// `IntermitSound::CanHear` (`play_chance > 0`, no table check) /
    /// `ConstantSound::CanHear` @ 0x00550FD0 (`current_volume >= 0.03` and a loaded table).
    #[must_use]
    #[inline]
    pub(crate) fn can_hear(&self, has_table: bool) -> bool {
        match self.state {
            SoundState::Intermit(s) => s.play_chance > 0.0,
            SoundState::Constant { current_volume } => {
                current_volume >= AMBIENT_SOUND_MIN_VOL && has_table
            }
        }
    }

    /// `IntermitSound::PlayNow` @ 0x00550FA0: `RollDice(0, 1) <= play_chance` (one draw; HR
    /// shows `<=`). `ConstantSound::PlayNow` (folded @ 0x005269F0) is always true, no draw.
    #[inline]
    pub(crate) fn play_now(&self, rng: &mut Ran2) -> bool {
        match self.state {
            SoundState::Intermit(s) => rng.roll_dice(0.0, 1.0) <= s.play_chance,
            SoundState::Constant { .. } => true,
        }
    }

    /// `IntermitSound::GetVolume` @ 0x00551070: the authored `volume`, unweighted.
    /// `ConstantSound::GetVolume`: `current_volume`.
    #[must_use]
    #[inline]
    pub(crate) fn get_volume(&self, desc: &AmbientSoundDesc) -> f32 {
        match self.state {
            SoundState::Intermit(_) => desc.volume,
            SoundState::Constant { current_volume } => current_volume,
        }
    }

    /// `IntermitSound::GetPlayInterval` @ 0x00551080: `RollDice(min_rate, max_rate)` (no draw
    /// when they are equal). `ConstantSound::GetPlayInterval` @ 0x005510A0: exactly
    /// `min_rate`, no draw.
    #[inline]
    pub(crate) fn get_play_interval(&self, desc: &AmbientSoundDesc, rng: &mut Ran2) -> f32 {
        match self.state {
            SoundState::Intermit(_) => rng.roll_dice(desc.min_rate, desc.max_rate),
            SoundState::Constant { .. } => desc.min_rate,
        }
    }

    /// `IntermitSound::GetSoundPos` @ 0x00551350 (acclient.c:384211): from the listener's
    /// position, pick a gathered direction uniformly (`floor(RollDice(0, num_dir))`), jitter
    /// its heading by `RollDice(0, π/8) − π/16`, pick `r = min + (max − min)·u²`, and move
    /// `x += sin(h)·r`, `y += cos(h)·r` (z and the cell id stay the listener's; the origin is
    /// not renormalised). Three draws; returns `true`. `ConstantSound` (folded @ 0x004F0EA0)
    /// returns `false` — play from the centre — with no draw.
    #[inline]
    pub(crate) fn get_sound_pos(&self, pos: &mut Position, rng: &mut Ran2) -> bool {
        let SoundState::Intermit(s) = &self.state else {
            return false;
        };
        let n = usize::from(s.num_dir).min(8);
        // `floor(x) as usize` is `x as usize` for every f32 (the cast truncates, which is floor
        // for x >= 0, and sends negatives and NaN to 0 either way): no `floorf` call.
        let i = (rng.roll_dice(0.0, n as f32) as usize).min(n.saturating_sub(1));
        let slot = s.dirs[i];
        let h = f64::from(slot.dir.heading()) + f64::from(rng.roll_dice(0.0, DIRECTION_JITTER))
            - f64::from(DIRECTION_JITTER) * 0.5;
        let u = f64::from(rng.roll_dice(0.0, 1.0));
        let min = f64::from(slot.min_dist);
        let r = min + (f64::from(slot.max_dist) - min) * u * u;
        // libm (not the platform's maths): the same positions on every target.
        pos.origin.x = (f64::from(pos.origin.x) + libm::sin(h) * r) as f32;
        pos.origin.y = (f64::from(pos.origin.y) + libm::cos(h) * r) as f32;
        true
    }
}
