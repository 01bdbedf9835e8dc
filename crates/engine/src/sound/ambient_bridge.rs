//! The ambient bridge: runs the retail ambient runtime (`resound-ambient`) for the engine and
//! turns what it emits into play requests.
//!
//! It owns the [`Ambient`] runtime and its two data sources, held boxed ([`BoxedPortal`],
//! [`BoxedCells`]) so one bridge type serves any source a game implements
//! ([`AmbientBridge::from_sources`]); a DAT folder ([`AmbientBridge::open`], a [`DatSource`] on
//! each side) is one implementation.
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
//! Each emitted event becomes an [`AmbientPlay`] (a play request and nothing more) or a counted
//! drop ([`AmbientCounters`]), by the engine's voice policy:
//! - [`AmbientPolicy::Retail16`]: [`AmbientPlay::Retail`], the event's integer dB and pan
//!   (±14) as retail plays them, for the engine to convert once (`convert::retail`)
//!   and start through its retail 16-voice pool (`SoundManager::PlaySoundInternal`
//!   @ 0x0054FEC0), no acoustics.
//! - [`AmbientPolicy::Modern`]: a positioned event becomes [`AmbientPlay::Positioned`] (the AC
//!   [`Position`] as emitted; the engine maps it to voxels and gives it the acoustic path); a
//!   "from centre" event stays centred ([`AmbientPlay::Centred`]).
//!
//! The engine loads the Waves ([`super::WaveCache`], read through
//! [`AmbientBridge::waves`]), owns the voice pool and counts what it drops (a Wave absent or
//! undecodable, no room, all 16 voices busy); the bridge's counters hold what the runtime did.

mod sources;

use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use resound_ambient::{
    Ambient, AmbientEvent, DatSource, DatSourceError, DropReason, FrameError, LandBlockSource,
    Listener, Outcome, Player, Position, PositionChange, Rebuild, ResolveRegionError, Seeds,
    SoundSettings, SoundTableSource, Voice,
};
use resound_datformat::container::{DatReader, OpenDatError};
use resound_datformat::id::CellId;
use resound_datformat::record::Region;
use resound_mixer::{Pan, VoiceParams};
use thiserror::Error;

use super::cache::DEFAULT_CACHE_BYTES;
use super::cache::WaveSource;
use super::decode::DecodeLimits;

pub use sources::{BoxedCells, BoxedPortal, PortalPair, SourceError};

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

/// How to attach the ambient runtime (the voice policy is the engine's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AmbientSettings {
    /// The runtime's two random seeds.
    pub seeds: Seeds,
    /// The retail sound preferences (ambient slider, mono, …).
    pub sound: SoundSettings,
    /// The Region record to load from the portal dat (unused by
    /// [`AmbientBridge::from_sources`], which is handed the Region).
    pub region_id: u32,
    /// Byte cap of the engine's wave cache.
    pub cache_bytes: usize,
    /// Decode limits for Waves.
    pub decode_limits: DecodeLimits,
}

impl Default for AmbientSettings {
    fn default() -> Self {
        Self {
            seeds: Seeds { ran2: 1, crt: 1 },
            sound: SoundSettings::default(),
            region_id: DEFAULT_REGION_ID,
            cache_bytes: DEFAULT_CACHE_BYTES,
            decode_limits: DecodeLimits::default(),
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
    /// [`AmbientPolicy::Retail16`]: a one-shot for a retail pool slot, exactly as retail plays
    /// it.
    Retail {
        /// The clock when it starts.
        time: f64,
        /// The Wave.
        wave_id: u32,
        /// Whole-dB level (−50..=0).
        db: i32,
        /// Pan in dB (±14; positive attenuates the left).
        pan: i32,
    },
    /// [`AmbientPolicy::Modern`]: a positioned sound for a 3-D voice.
    Positioned {
        /// The clock when it starts.
        time: f64,
        /// The Wave.
        wave_id: u32,
        /// Where it sounds (the listener's cell, origin possibly outside 0..192).
        position: Position,
        /// Linear source volume before any distance law: `min(A·volume, 1)·A` (retail's level
        /// within 5 m, unrounded; `A` is the ambient slider, applied twice as retail does).
        volume: f32,
        /// Its distance from the listener when emitted (m).
        distance: f32,
    },
    /// [`AmbientPolicy::Modern`]: a "from centre" bed, played centred.
    Centred {
        /// The clock when it starts.
        time: f64,
        /// The Wave.
        wave_id: u32,
        /// Linear volume (the event's gain, unrounded).
        volume: f32,
    },
}

impl AmbientPlay {
    /// The Wave id.
    #[must_use]
    pub fn wave_id(&self) -> u32 {
        match *self {
            Self::Retail { wave_id, .. }
            | Self::Positioned { wave_id, .. }
            | Self::Centred { wave_id, .. } => wave_id,
        }
    }

    /// Mixer parameters for plays that need no placement: `Retail` (`convert::retail`,
    /// the retail law) and `Centred` (volume, centred). `None` for `Positioned`, which the
    /// engine places.
    #[must_use]
    pub fn params(&self) -> Option<VoiceParams> {
        match *self {
            Self::Retail { db, pan, .. } => Some(crate::convert::retail(db, pan)),
            Self::Centred { volume, .. } => Some(VoiceParams {
                volume,
                pan: Pan::EqualPower(0.0),
                // A bed, not a place: panned even in binaural output.
                direction: [0.0; 3],
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
    /// Engine, `Retail16`: all 16 voices busy (the 17th sound).
    pub pool_full: u64,
    /// Engine: the Wave is not in the portal dat or could not be read.
    pub wave_missing: u64,
    /// Engine: the Wave failed to decode (or was larger than the whole cache).
    pub decode_failed: u64,
    /// Engine: the cache or the mixer had no room (everything loaded was playing).
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

/// What the bridge has done since it was attached (the bridge's own counters hold the runtime's
/// drops; the engine's status adds its own and takes them from `played`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AmbientCounters {
    /// Ticks run.
    pub frames: u64,
    /// Rebuilds (cell changes).
    pub rebuilds: u64,
    /// Events the runtime emitted.
    pub events: u64,
    /// Plays handed on; `events == played + dropped.total()`.
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

/// The ambient bridge over a portal-side and a cell-side source, held boxed. `R` only names the
/// reader type of [`AmbientBridge::from_readers`] (files by default); every bridge holds its
/// sources the same way, whatever they are.
#[derive(Debug)]
pub struct AmbientBridge<R = BufReader<File>> {
    ambient: Ambient,
    portal: BoxedPortal,
    cell: BoxedCells,
    policy: AmbientPolicy,
    last_now: f64,
    events: Vec<AmbientEvent>,
    counters: AmbientCounters,
    reader: PhantomData<fn() -> R>,
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
    /// Attaches to the dats in `dat_dir` (`client_portal.dat`, `client_cell_1.dat`), emitting
    /// plays for `policy` (the engine's).
    ///
    /// # Errors
    /// [`AttachError`] when a dat cannot be opened or holds no usable Region.
    pub fn open(
        dat_dir: &Path,
        policy: AmbientPolicy,
        settings: AmbientSettings,
    ) -> Result<Self, AttachError> {
        let portal = open_dat(dat_dir, PORTAL_DAT)?;
        let cell = open_dat(dat_dir, CELL_DAT)?;
        Self::with_dats(portal, cell, policy, settings)
    }

    /// Attaches to any sources the game implements: `portal` gives the sound tables
    /// ([`SoundTableSource`]) and the Waves the plays name ([`WaveSource`]; join two objects
    /// with [`PortalPair`]), `cell` the landblocks and EnvCells ([`LandBlockSource`]). The
    /// runtime is built from `region` (`settings.region_id` is not used).
    ///
    /// # Errors
    /// [`AttachError::ResolveRegion`] when the Region's indices are inconsistent.
    pub fn from_sources<P, C>(
        region: &Region,
        portal: P,
        cell: C,
        policy: AmbientPolicy,
        settings: AmbientSettings,
    ) -> Result<Self, AttachError>
    where
        P: SoundTableSource + WaveSource + Send + 'static,
        <P as SoundTableSource>::Error: Send + Sync + 'static,
        C: LandBlockSource + Send + 'static,
        C::Error: Send + Sync + 'static,
    {
        Self::build(
            region,
            BoxedPortal::new(portal),
            BoxedCells::new(cell),
            policy,
            settings,
        )
    }
}

impl<R: Read + Seek + Send + 'static> AmbientBridge<R> {
    /// Attaches to a portal and a cell dat read through any readers (`Cursor`s in tests),
    /// emitting plays for `policy`.
    ///
    /// # Errors
    /// [`AttachError`] when a dat is invalid or holds no usable Region.
    pub fn from_readers(
        portal: R,
        cell: R,
        policy: AmbientPolicy,
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
        Self::with_dats(
            DatSource::new(portal),
            DatSource::new(cell),
            policy,
            settings,
        )
    }

    /// The DAT-folder implementation: the Region `settings.region_id` from the portal dat,
    /// then both dats as the sources.
    fn with_dats(
        mut portal: DatSource<R>,
        cell: DatSource<R>,
        policy: AmbientPolicy,
        settings: AmbientSettings,
    ) -> Result<Self, AttachError> {
        let region: Region = portal
            .load_record(settings.region_id)
            .map_err(AttachError::Region)?
            .ok_or(AttachError::NoRegion(settings.region_id))?;
        Self::build(
            &region,
            BoxedPortal::new(portal),
            BoxedCells::new(cell),
            policy,
            settings,
        )
    }
}

impl<R> AmbientBridge<R> {
    fn build(
        region: &Region,
        portal: BoxedPortal,
        cell: BoxedCells,
        policy: AmbientPolicy,
        settings: AmbientSettings,
    ) -> Result<Self, AttachError> {
        let ambient = Ambient::new(region, settings.seeds, settings.sound)
            .map_err(AttachError::ResolveRegion)?;
        Ok(Self {
            ambient,
            portal,
            cell,
            policy,
            last_now: f64::NEG_INFINITY,
            events: Vec::new(),
            counters: AmbientCounters::default(),
            reader: PhantomData,
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

    /// The portal side as the source of the Waves the plays name (for the engine's
    /// [`super::WaveCache`]).
    pub fn waves(&mut self) -> &mut BoxedPortal {
        &mut self.portal
    }

    /// Whether EnvCell `cell` sees outside, read from the cell side's EnvCell record
    /// (`Flags & SeenOutside`, which retail's `CEnvCell` unpacks into `seen_outside`);
    /// `Ok(None)` when the source has no such EnvCell.
    ///
    /// # Errors
    /// [`SourceError`] when the record exists but cannot be read.
    pub fn env_cell_seen_outside(&mut self, cell: CellId) -> Result<Option<bool>, SourceError> {
        Ok(self.cell.load_env_cell(cell)?.map(|c| c.seen_outside()))
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

    /// One engine tick at clock `now` (seconds since attach, never decreasing) with the
    /// listener at `pose`, in the retail frame order (module docs; [`Ambient::frame`] applies
    /// the one-frame lag of player and camera). Plays are appended to `plays`. Returns the
    /// rebuild, if `ChangePosition` rebuilt (of the previous frame's cell).
    ///
    /// # Errors
    /// [`AmbientTickError`] for a bad clock or pose; nothing changes then.
    pub fn tick(
        &mut self,
        now: f64,
        pose: ListenerPose,
        plays: &mut Vec<AmbientPlay>,
    ) -> Result<Option<Rebuild>, AmbientTickError> {
        self.step(false, now, pose, plays)
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
        now: f64,
        pose: ListenerPose,
        plays: &mut Vec<AmbientPlay>,
    ) -> Result<Option<Rebuild>, AmbientTickError> {
        self.step(true, now, pose, plays)
    }

    /// A frame ([`Ambient::frame`]) or a teleport ([`Ambient::teleport`], which is no frame:
    /// `UseTime` does not run and the frame count stays), then the plays of its events.
    fn step(
        &mut self,
        teleport: bool,
        now: f64,
        pose: ListenerPose,
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
        self.play_events(now, plays);
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

    fn play_events(&mut self, now: f64, plays: &mut Vec<AmbientPlay>) {
        for i in 0..self.events.len() {
            let event = self.events[i];
            self.counters.events += 1;
            match event.outcome {
                Outcome::Drop(reason) => self.count_drop(reason),
                Outcome::Play(voice) => {
                    self.counters.played += 1;
                    plays.push(self.play(now, &event, &voice));
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

    fn play(&self, now: f64, event: &AmbientEvent, voice: &Voice) -> AmbientPlay {
        let wave_id = voice.wave_id.get();
        match (self.policy, voice.position) {
            (AmbientPolicy::Retail16, _) => AmbientPlay::Retail {
                time: now,
                wave_id,
                db: voice.db,
                pan: voice.pan,
            },
            (AmbientPolicy::Modern, Some(position)) => {
                let a = self.ambient.settings().ambient_sound_volume;
                let volume = (a * event.volume).min(1.0) * a;
                AmbientPlay::Positioned {
                    time: now,
                    wave_id,
                    position,
                    volume: if volume.is_finite() {
                        volume.max(0.0)
                    } else {
                        0.0
                    },
                    distance: voice.distance,
                }
            }
            (AmbientPolicy::Modern, None) => AmbientPlay::Centred {
                time: now,
                wave_id,
                volume: voice.gain as f32,
            },
        }
    }
}
