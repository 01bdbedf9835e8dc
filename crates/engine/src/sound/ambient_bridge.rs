//! The ambient bridge: runs the retail ambient runtime (`resound-ambient`) for the engine and
//! turns what it emits into plays.
//!
//! It owns the [`Ambient`] runtime, the portal and cell [`DatSource`]s and the [`WaveCache`].
//! Every engine tick hands it the clock (seconds since attach) and the listener's pose (the
//! retail camera is the listener; the player is the same pose). It follows the retail order
//! within a frame (spec `ambient-runtime.md` §6.1, `SmartBox::UseTime` @ 0x00455410): at frame
//! N, `CellManager::ChangePosition` runs on the pose of frame N−1, then `Ambient::UseTime` plays
//! with the clock of frame N and the camera of frame N−1 (`SoundManager::SetPlayerPosition`
//! @ 0x005503C0 runs only during the previous frame's Draw); then both move to frame N. At
//! frame 0 both are the first pose. The runtime's [`Ambient::frame`] applies that lag; the
//! bridge hands it the same pose as player and camera. [`AmbientBridge::teleport`]
//! ([`Ambient::teleport`]) applies camera and player at once (`PlayerPositionUpdated`
//! @ 0x00453870), with no lag.
//!
//! Each emitted event becomes an [`AmbientPlay`] or a counted drop ([`AmbientCounters`]):
//! - [`AmbientPolicy::Retail16`]: the retail output exactly: the event's integer dB and pan
//!   (±14) through the retail 16-voice pool (`SoundManager::PlaySoundInternal` @ 0x0054FEC0;
//!   the 17th simultaneous sound is dropped and counted), converted once by
//!   [`crate::convert::retail`], no acoustics. A pool slot counts as playing
//!   (`DSBSTATUS_PLAYING`) until the one-shot's length at the mixer's output rate has passed,
//!   the renderer's own length for the voice, so the pool and the mixer agree on live voices
//!   (the engine must start every `Retail` play it is given; one it fails to start keeps its
//!   slot for that long).
//! - [`AmbientPolicy::Modern`]: a positioned event becomes [`AmbientPlay::Positioned`] (the AC
//!   [`Position`] as emitted; the engine maps it to voxels and gives it the acoustic path); a
//!   "from centre" event stays centred ([`AmbientPlay::Centred`]).
//!
//! A Wave that is absent or fails to decode skips that play (counted), never a panic.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::{Path, PathBuf};

use resound_ambient::voice_pool::VoicePool;
use resound_ambient::{
    Ambient, AmbientEvent, DatSource, DatSourceError, DropReason, FrameError, Listener, Outcome,
    Player, Position, PositionChange, Rebuild, ResolveRegionError, Seeds, SoundSettings, Voice,
};
use resound_datformat::container::{DatReader, OpenDatError};
use resound_datformat::record::Region;
use resound_dsp::interpolate::{FRAC_BITS, step_for};
use resound_mixer::{MAX_TAP_DELAY, MixerHandle, Pan, SoundId, VoiceParams};
use thiserror::Error;

use super::cache::{CacheError, CacheStats, CachedWave, DEFAULT_CACHE_BYTES, WaveCache};
use super::decode::DecodeLimits;

/// The portal dat's file name in a dat folder.
pub const PORTAL_DAT: &str = "client_portal.dat";
/// The cell dat's file name in a dat folder.
pub const CELL_DAT: &str = "client_cell_1.dat";
/// The Region the retail client loads (`0x13000000`, "Dereth").
pub const DEFAULT_REGION_ID: u32 = 0x1300_0000;

/// How ambient events become voices: the engine's one voice policy
/// ([`crate::VoicePolicy`]). `Modern`: positioned events are 3-D voices with the acoustic path,
/// centred beds stay centred. `Retail16`: the retail output exactly: integer dB, the retail pan,
/// 16 voices, no acoustics.
pub use crate::builder::VoicePolicy as AmbientPolicy;

/// How to attach the bridge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AmbientSettings {
    /// Voice policy.
    pub policy: AmbientPolicy,
    /// The runtime's two random seeds.
    pub seeds: Seeds,
    /// The retail sound preferences (ambient slider, mono, …).
    pub sound: SoundSettings,
    /// The Region record to load from the portal dat.
    pub region_id: u32,
    /// Byte cap of the wave cache.
    pub cache_bytes: usize,
    /// Decode limits for Waves.
    pub decode_limits: DecodeLimits,
    /// The mixer's output rate in Hz (a one-shot's length in output frames decides when its
    /// retail voice slot frees).
    pub output_rate: u32,
}

impl Default for AmbientSettings {
    fn default() -> Self {
        Self {
            policy: AmbientPolicy::default(),
            seeds: Seeds { ran2: 1, crt: 1 },
            sound: SoundSettings::default(),
            region_id: DEFAULT_REGION_ID,
            cache_bytes: DEFAULT_CACHE_BYTES,
            decode_limits: DecodeLimits::default(),
            output_rate: 48_000,
        }
    }
}

/// The listener's pose in AC terms for one tick (camera and player alike).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListenerPose {
    /// Cell and landblock-local origin.
    pub position: Position,
    /// Compass heading in degrees (0 = north, 90 = east).
    pub heading_deg: f32,
    /// Whether the cell sees outside (an EnvCell that gathers the outdoor sounds).
    pub seen_outside: bool,
}

/// One play the bridge asks the engine for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AmbientPlay {
    /// [`AmbientPolicy::Retail16`]: a one-shot in a retail pool slot, exactly as retail plays it.
    Retail {
        /// The clock when it starts.
        time: f64,
        /// The Wave.
        wave_id: u32,
        /// The loaded sound.
        sound: SoundId,
        /// The retail pool slot (0..16).
        slot: usize,
        /// Whole-dB level (−50..=0).
        db: i32,
        /// Pan in dB (±14; positive attenuates the left).
        pan: i32,
        /// The voice's seconds at the output rate.
        seconds: f64,
    },
    /// [`AmbientPolicy::Modern`]: a positioned sound for a 3-D voice.
    Positioned {
        /// The clock when it starts.
        time: f64,
        /// The Wave.
        wave_id: u32,
        /// The loaded sound.
        sound: SoundId,
        /// Where it sounds (the listener's cell, origin possibly outside 0..192).
        position: Position,
        /// Linear source volume before any distance law: `min(A·volume, 1)·A` (retail's level
        /// within 5 m, unrounded; `A` is the ambient slider, applied twice as retail does).
        volume: f32,
        /// Its distance from the listener when emitted (m).
        distance: f32,
        /// The sound's seconds.
        seconds: f64,
    },
    /// [`AmbientPolicy::Modern`]: a "from centre" bed, played centred.
    Centred {
        /// The clock when it starts.
        time: f64,
        /// The Wave.
        wave_id: u32,
        /// The loaded sound.
        sound: SoundId,
        /// Linear volume (the event's gain, unrounded).
        volume: f32,
        /// The sound's seconds.
        seconds: f64,
    },
}

impl AmbientPlay {
    /// The loaded sound.
    #[must_use]
    pub fn sound(&self) -> SoundId {
        match *self {
            Self::Retail { sound, .. }
            | Self::Positioned { sound, .. }
            | Self::Centred { sound, .. } => sound,
        }
    }

    /// The Wave id.
    #[must_use]
    pub fn wave_id(&self) -> u32 {
        match *self {
            Self::Retail { wave_id, .. }
            | Self::Positioned { wave_id, .. }
            | Self::Centred { wave_id, .. } => wave_id,
        }
    }

    /// Mixer parameters for plays that need no placement: `Retail` ([`crate::convert::retail`],
    /// the retail law) and `Centred` (volume, centred). `None` for `Positioned`, which the
    /// engine places.
    #[must_use]
    pub fn params(&self) -> Option<VoiceParams> {
        match *self {
            Self::Retail { db, pan, .. } => Some(crate::convert::retail(db, pan)),
            Self::Centred { volume, .. } => Some(VoiceParams {
                volume,
                pan: Pan::EqualPower(0.0),
                ..VoiceParams::default()
            }),
            Self::Positioned { .. } => None,
        }
    }
}

/// Events the bridge did not turn into a play, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DropCounts {
    /// Retail: the descriptor had no loaded table.
    pub no_sound_table: u64,
    /// Retail: the table had no row for the sound type.
    pub no_entry: u64,
    /// Retail: the chosen row's wave id was 0.
    pub silent_wave: u64,
    /// Retail: the probability gate failed.
    pub probability: u64,
    /// Retail: the window was inactive.
    pub inactive: u64,
    /// Retail: attenuated below −50 dB.
    pub inaudible: u64,
    /// `Retail16`: all 16 voices busy (the 17th sound).
    pub pool_full: u64,
    /// The Wave is not in the portal dat or could not be read.
    pub wave_missing: u64,
    /// The Wave failed to decode (or was larger than the whole cache).
    pub decode_failed: u64,
    /// The cache or the mixer had no room (everything loaded was playing).
    pub no_room: u64,
}

impl DropCounts {
    /// All drops.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.no_sound_table
            + self.no_entry
            + self.silent_wave
            + self.probability
            + self.inactive
            + self.inaudible
            + self.pool_full
            + self.wave_missing
            + self.decode_failed
            + self.no_room
    }
}

/// What the bridge has done since it was attached.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AmbientCounters {
    /// Ticks run.
    pub frames: u64,
    /// Rebuilds (cell changes).
    pub rebuilds: u64,
    /// Events the runtime emitted.
    pub events: u64,
    /// Plays handed to the engine; `events == played + dropped.total()`.
    pub played: u64,
    /// Events not played, by reason.
    pub dropped: DropCounts,
}

/// Why the bridge could not attach.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum AttachError {
    /// A dat file could not be opened.
    #[error("cannot open {path}")]
    Open {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A dat file is not a valid dat.
    #[error("{dat} is not a valid dat")]
    Dat {
        /// `client_portal.dat` or `client_cell_1.dat`.
        dat: &'static str,
        /// Why.
        #[source]
        source: OpenDatError,
    },
    /// The Region record could not be read.
    #[error("the Region could not be read")]
    Region(#[source] DatSourceError),
    /// The portal dat has no such Region.
    #[error("the portal dat has no Region {0:#010x}")]
    NoRegion(u32),
    /// The Region's indices are inconsistent.
    #[error("the Region could not be resolved")]
    ResolveRegion(#[source] ResolveRegionError),
    /// The output rate is 0.
    #[error("output rate must be positive")]
    OutputRate,
}

/// Why a tick was refused (the bridge is left as it was).
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum AmbientTickError {
    /// The clock is earlier than the last tick's.
    #[error("clock {now} s runs backwards (last {last} s)")]
    ClockBackwards {
        /// The clock given.
        now: f64,
        /// The last tick's clock.
        last: f64,
    },
    /// The runtime refused the clock or the pose (NaN or infinite values, an invalid cell id).
    #[error("the ambient runtime refused the frame")]
    Frame(#[source] FrameError),
}

/// The ambient bridge over two dat readers (files by default).
#[derive(Debug)]
pub struct AmbientBridge<R = BufReader<File>> {
    ambient: Ambient,
    portal: DatSource<R>,
    cell: DatSource<R>,
    cache: WaveCache,
    pool: VoicePool,
    policy: AmbientPolicy,
    output_rate: u32,
    last_now: f64,
    /// Sound → the clock until which a voice of ours may still be playing it.
    busy: HashMap<SoundId, f64>,
    events: Vec<AmbientEvent>,
    counters: AmbientCounters,
}

/// The pose as the runtime's player (physics position) and camera (listener): the same pose.
fn split(pose: &ListenerPose) -> (Player, Listener) {
    (
        Player {
            position: pose.position,
            seen_outside: pose.seen_outside,
        },
        Listener {
            position: pose.position,
            heading_deg: pose.heading_deg,
        },
    )
}

/// Opens `dir/name` as a dat source (`client_portal.dat`, `client_cell_1.dat`).
///
/// # Errors
/// [`AttachError::Open`] / [`AttachError::Dat`].
pub fn open_dat(dir: &Path, name: &'static str) -> Result<DatSource<BufReader<File>>, AttachError> {
    let path = dir.join(name);
    let file = File::open(&path).map_err(|source| AttachError::Open { path, source })?;
    let reader = DatReader::new(BufReader::new(file))
        .map_err(|source| AttachError::Dat { dat: name, source })?;
    Ok(DatSource::new(reader))
}

impl AmbientBridge<BufReader<File>> {
    /// Attaches to the dats in `dat_dir` (`client_portal.dat`, `client_cell_1.dat`).
    ///
    /// # Errors
    /// [`AttachError`] when a dat cannot be opened or holds no usable Region.
    pub fn open(dat_dir: &Path, settings: AmbientSettings) -> Result<Self, AttachError> {
        let portal = open_dat(dat_dir, PORTAL_DAT)?;
        let cell = open_dat(dat_dir, CELL_DAT)?;
        Self::with_sources(portal, cell, settings)
    }
}

impl<R: Read + Seek> AmbientBridge<R> {
    /// Attaches to a portal and a cell dat read through any readers (`Cursor`s in tests).
    ///
    /// # Errors
    /// [`AttachError`] when a dat is invalid or holds no usable Region.
    pub fn from_readers(
        portal: R,
        cell: R,
        settings: AmbientSettings,
    ) -> Result<Self, AttachError> {
        let portal = DatReader::new(portal).map_err(|source| AttachError::Dat {
            dat: PORTAL_DAT,
            source,
        })?;
        let cell = DatReader::new(cell).map_err(|source| AttachError::Dat {
            dat: CELL_DAT,
            source,
        })?;
        Self::with_sources(DatSource::new(portal), DatSource::new(cell), settings)
    }

    fn with_sources(
        mut portal: DatSource<R>,
        cell: DatSource<R>,
        settings: AmbientSettings,
    ) -> Result<Self, AttachError> {
        if settings.output_rate == 0 {
            return Err(AttachError::OutputRate);
        }
        let region: Region = portal
            .load_record(settings.region_id)
            .map_err(AttachError::Region)?
            .ok_or(AttachError::NoRegion(settings.region_id))?;
        let ambient = Ambient::new(&region, settings.seeds, settings.sound)
            .map_err(AttachError::ResolveRegion)?;
        Ok(Self {
            ambient,
            portal,
            cell,
            cache: WaveCache::new(settings.cache_bytes, settings.decode_limits),
            pool: VoicePool::new(),
            policy: settings.policy,
            output_rate: settings.output_rate,
            last_now: f64::NEG_INFINITY,
            busy: HashMap::new(),
            events: Vec::new(),
            counters: AmbientCounters::default(),
        })
    }

    /// The runtime.
    #[must_use]
    pub fn ambient(&self) -> &Ambient {
        &self.ambient
    }

    /// The voice policy.
    #[must_use]
    pub fn policy(&self) -> AmbientPolicy {
        self.policy
    }

    /// The retail voice pool (used by `Retail16`).
    #[must_use]
    pub fn pool(&self) -> &VoicePool {
        &self.pool
    }

    /// The wave cache.
    #[must_use]
    pub fn cache(&self) -> &WaveCache {
        &self.cache
    }

    /// The wave cache's counters.
    #[must_use]
    pub fn cache_stats(&self) -> CacheStats {
        self.cache.stats()
    }

    /// The counters.
    #[must_use]
    pub fn counters(&self) -> AmbientCounters {
        self.counters
    }

    /// The events the runtime emitted in the last [`tick`](Self::tick) or
    /// [`teleport`](Self::teleport), in order.
    #[must_use]
    pub fn last_events(&self) -> &[AmbientEvent] {
        &self.events
    }

    /// `true` while a voice the bridge asked for may still be playing `sound` at `now`.
    #[must_use]
    pub fn sound_busy(&self, sound: SoundId, now: f64) -> bool {
        self.busy.get(&sound).is_some_and(|&until| now < until)
    }

    /// One engine tick at clock `now` (seconds since attach, never decreasing) with the
    /// listener at `pose`, in the retail frame order (module docs; [`Ambient::frame`] applies
    /// the one-frame lag of player and camera). Plays are appended to `plays`; `in_use` names
    /// sounds the engine still plays (the bridge also tracks its own), which the cache never
    /// unloads. Returns the rebuild, if `ChangePosition` rebuilt (of the previous frame's cell).
    ///
    /// # Errors
    /// [`AmbientTickError`] for a bad clock or pose; nothing changes then.
    pub fn tick(
        &mut self,
        handle: &mut MixerHandle,
        now: f64,
        pose: ListenerPose,
        in_use: &dyn Fn(SoundId) -> bool,
        plays: &mut Vec<AmbientPlay>,
    ) -> Result<Option<Rebuild>, AmbientTickError> {
        self.step(false, handle, now, pose, in_use, plays)
    }

    /// A teleport or blip ([`Ambient::teleport`], `PlayerPositionUpdated` @ 0x00453870): the
    /// camera and the player move to `pose` at once and the cell is rebuilt now, with no
    /// one-frame lag (sounds a rebuild makes audible play at once); `UseTime` does not run, so
    /// call [`tick`](Self::tick) for the frame as usual.
    ///
    /// # Errors
    /// [`AmbientTickError`] for a bad clock or pose; nothing changes then.
    pub fn teleport(
        &mut self,
        handle: &mut MixerHandle,
        now: f64,
        pose: ListenerPose,
        in_use: &dyn Fn(SoundId) -> bool,
        plays: &mut Vec<AmbientPlay>,
    ) -> Result<Option<Rebuild>, AmbientTickError> {
        self.step(true, handle, now, pose, in_use, plays)
    }

    /// A frame ([`Ambient::frame`]) or a teleport ([`Ambient::teleport`], which is no frame:
    /// `UseTime` does not run and the frame count stays), then the plays of its events.
    fn step(
        &mut self,
        teleport: bool,
        handle: &mut MixerHandle,
        now: f64,
        pose: ListenerPose,
        in_use: &dyn Fn(SoundId) -> bool,
        plays: &mut Vec<AmbientPlay>,
    ) -> Result<Option<Rebuild>, AmbientTickError> {
        self.check_clock(now)?;
        self.events.clear();
        let (player, camera) = split(&pose);
        let (tables, blocks, events) = (&mut self.portal, &mut self.cell, &mut self.events);
        let change = if teleport {
            self.ambient
                .teleport(now, player, camera, tables, blocks, events)
        } else {
            self.ambient
                .frame(now, player, camera, tables, blocks, events)
        }
        .map_err(AmbientTickError::Frame)?;
        self.last_now = now;
        if !teleport {
            self.counters.frames += 1;
        }
        let rebuild = self.count_change(change);
        self.play_events(handle, now, in_use, plays);
        Ok(rebuild)
    }

    fn check_clock(&self, now: f64) -> Result<(), AmbientTickError> {
        // NaN and infinities are the runtime's to refuse (FrameError); only order is checked here.
        if now < self.last_now {
            return Err(AmbientTickError::ClockBackwards {
                now,
                last: self.last_now,
            });
        }
        Ok(())
    }

    fn count_change(&mut self, change: PositionChange) -> Option<Rebuild> {
        match change {
            PositionChange::Rebuilt(r) => {
                self.counters.rebuilds += 1;
                Some(r)
            }
            PositionChange::Unchanged => None,
        }
    }

    /// Seconds a one-shot of `wave` plays in the mixer at the output rate: the renderer's own
    /// length, `ceil(frames·2³² / step)` output frames.
    fn voice_seconds(&self, wave: &CachedWave) -> f64 {
        let step = step_for(wave.sample_rate, self.output_rate).max(1);
        let end = (wave.frames as u128) << FRAC_BITS;
        let out_frames = end.div_ceil(u128::from(step));
        out_frames as f64 / f64::from(self.output_rate)
    }

    fn play_events(
        &mut self,
        handle: &mut MixerHandle,
        now: f64,
        in_use: &dyn Fn(SoundId) -> bool,
        plays: &mut Vec<AmbientPlay>,
    ) {
        self.busy.retain(|_, until| now < *until);
        for i in 0..self.events.len() {
            let event = self.events[i];
            self.counters.events += 1;
            match event.outcome {
                Outcome::Drop(reason) => self.count_drop(reason),
                Outcome::Play(voice) => {
                    if let Some(play) = self.play_voice(handle, now, &event, &voice, in_use) {
                        self.counters.played += 1;
                        plays.push(play);
                    }
                }
            }
        }
    }

    fn count_drop(&mut self, reason: DropReason) {
        let d = &mut self.counters.dropped;
        match reason {
            DropReason::NoSoundTable => d.no_sound_table += 1,
            DropReason::NoEntry => d.no_entry += 1,
            DropReason::SilentWave { .. } => d.silent_wave += 1,
            DropReason::Probability { .. } => d.probability += 1,
            DropReason::Inactive { .. } => d.inactive += 1,
            DropReason::Inaudible { .. } => d.inaudible += 1,
        }
    }

    fn play_voice(
        &mut self,
        handle: &mut MixerHandle,
        now: f64,
        event: &AmbientEvent,
        voice: &Voice,
        in_use: &dyn Fn(SoundId) -> bool,
    ) -> Option<AmbientPlay> {
        let busy = &self.busy;
        let used = |s: SoundId| in_use(s) || busy.get(&s).is_some_and(|&until| now < until);
        let wave = match self
            .cache
            .get(voice.wave_id.get(), &mut self.portal, handle, &used)
        {
            Ok(w) => w,
            Err(e) => {
                let d = &mut self.counters.dropped;
                match e {
                    CacheError::Missing { .. } | CacheError::Read { .. } => d.wave_missing += 1,
                    CacheError::Decode { .. } | CacheError::TooLarge { .. } => {
                        d.decode_failed += 1;
                    }
                    _ => d.no_room += 1,
                }
                return None;
            }
        };
        let seconds = self.voice_seconds(&wave);
        let wave_id = voice.wave_id.get();
        let sound = wave.sound;
        let (play, until) = match self.policy {
            AmbientPolicy::Retail16 => {
                let Some(slot) = self.pool.play_sound_internal(now, seconds) else {
                    self.counters.dropped.pool_full += 1;
                    return None;
                };
                (
                    AmbientPlay::Retail {
                        time: now,
                        wave_id,
                        sound,
                        slot,
                        db: voice.db,
                        pan: voice.pan,
                        seconds,
                    },
                    now + seconds,
                )
            }
            AmbientPolicy::Modern => {
                // Echo taps may read the buffer for up to MAX_TAP_DELAY after the dry end.
                let until = now + seconds + f64::from(MAX_TAP_DELAY);
                let play = match voice.position {
                    Some(position) => {
                        let a = self.ambient.settings().ambient_sound_volume;
                        let volume = (a * event.volume).min(1.0) * a;
                        AmbientPlay::Positioned {
                            time: now,
                            wave_id,
                            sound,
                            position,
                            volume: if volume.is_finite() {
                                volume.max(0.0)
                            } else {
                                0.0
                            },
                            distance: voice.distance,
                            seconds,
                        }
                    }
                    None => AmbientPlay::Centred {
                        time: now,
                        wave_id,
                        sound,
                        volume: voice.gain as f32,
                        seconds,
                    },
                };
                (play, until)
            }
        };
        let e = self.busy.entry(sound).or_insert(until);
        *e = e.max(until);
        Some(play)
    }

    /// Unloads every cached wave that no voice of the bridge (nor `in_use`) still plays, e.g.
    /// before detaching; returns how many were unloaded.
    ///
    /// # Errors
    /// [`CacheError::Unload`] when the mixer's command ring is full.
    pub fn unload_idle(
        &mut self,
        handle: &mut MixerHandle,
        now: f64,
        in_use: &dyn Fn(SoundId) -> bool,
    ) -> Result<usize, CacheError> {
        let busy = &self.busy;
        let used = |s: SoundId| in_use(s) || busy.get(&s).is_some_and(|&until| now < until);
        self.cache.clear(handle, &used)
    }
}
