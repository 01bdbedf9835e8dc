//! [`Engine`]: the game-facing API, a thin facade over its parts. Sounds, voices, the listener,
//! the world, the mode, the tick (`update`), the offline render and the status.
//!
//! | part | holds |
//! |---|---|
//! | [`shared`] | what every part reads: settings, clock, mode, listener, model, world, mixer handle, counters |
//! | [`voices`] | the voices: play, steal, reap, setters, the hand-over to the mixer |
//! | [`tick`] | the tick: schedule, worker link, replies applied, inline trace |
//! | [`sounds`] | the loaded sounds and the decoding of sound bytes |
//! | [`ambient`] | the retail ambient runtime, its wave cache and its plays' accounting |
//! | [`retail`] | the `Retail16` cap: the retail 16-voice pool over the voices the mixer reports playing |
//! | [`terrain`] | AC terrain as the traced world |
//!
//! Per tick the engine decides classes and jobs ([`crate::schedule`]), sends them with a
//! copy-on-write world snapshot to the worker ([`crate::worker`]), and applies finished results
//! through the one conversion (`convert`). With [`Pacing::RenderClock`] a tick runs
//! every `tick_frames` rendered frames and the render waits for it; with [`Pacing::Update`] a
//! tick runs per `update` and results apply at the start of the next one.
//!

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use glam::{DVec3, IVec3};
use resound_acoustics::{
    AcousticModel, Budgets as StageBudgets, Cell, Mode, RequestError, SoundRequest, Stages,
    WorldStore, run_stages,
};
use resound_ambient::voice_pool::{VOICE_SLOTS, VoicePool};
use resound_ambient::walk::Walk;
use resound_datformat::record::Wave;
use resound_mixer::{MixerRenderer, MixerSettings, Resampler, SoundId, VoiceId};

use crate::builder::{AudioGuard, EngineBuilder, Pacing, VoicePolicy};
use crate::error::{
    BuildError, InputError, LoadError, PlayError, Problem, TickError, UnloadError, VoiceError,
    WorldError,
};
use crate::game_world::GameWorld;
use crate::output::{Live, Opened, Resolved, open};
use crate::playback::{Tween, Volume};
use crate::sound::{AmbientBridge, AmbientPlay, AmbientSettings, AttachError, WaveCache};
use crate::source::{Listener, Orientation, Source, check_position};
use crate::status::Status;
use crate::terrain::{TerrainWorld, ac_to_voxel};
use crate::worker::{CoreSpec, WorkerLink};
use crate::world::WorldEdit;

mod ambient;
mod control;
mod retail;
mod shared;
mod sounds;
mod terrain;
mod tick;
mod travel;
mod voices;

use self::ambient::{AmbientState, modern_source};
use self::retail::{RetailPool, RetailRefused};
use self::shared::Shared;
use self::sounds::{Encoded, Sounds, decode, read_sound_file, sniff};
use self::tick::Ticker;
use self::voices::{NewVoice, Voices};

pub use self::ambient::{AMBIENT_RANGE, heading_orientation};
pub use self::control::{MAX_TRACK_NAME, VoiceMut};
pub use self::sounds::{MAX_SOUND_FILE_BYTES, SoundError, SoundHandle};
pub use self::terrain::AttachTerrainError;
pub use self::travel::{
    GLIDE_SPEED, SPEED_OF_SOUND, TELEPORT_M, propagation_delay, retarded_delay,
};
pub use self::voices::{VoiceAcoustics, VoiceHandle};
pub use crate::status::AmbientStatus;

/// Mixer voice slots kept beyond the policy's cap, for stolen voices that are still fading.
const STEAL_RESERVE: usize = 64;
/// Largest accepted `dt` of one update, in seconds.
pub const MAX_DT: f64 = 60.0;

/// The game-facing engine. Build it with [`Engine::builder`].
#[derive(Debug)]
pub struct Engine {
    shared: Shared,
    voices: Voices,
    ticker: Ticker,
    sounds: Sounds,
    ambient: Option<Box<AmbientState>>,
    /// `true` while the ambient state is out of `ambient` for its frame.
    ambient_out: bool,
    /// The `Retail16` voice pool.
    retail: RetailPool,
    /// Voices the mixer reported ended that the ambient state has not seen yet.
    ended: Vec<VoiceId>,
    guard: Option<AudioGuard>,
    /// Offline: the mixer's audio half. In a `Mutex` only so that the engine is `Sync`: it is
    /// reached through `get_mut` (`&mut self`), never locked. The device below is locked only
    /// by `status` (`&self`) on the game thread; the callback never takes that lock.
    renderer: Option<Mutex<MixerRenderer>>,
    /// The device output (the renderer lives in its callback).
    device: Option<Mutex<Live>>,
}

impl EngineBuilder {
    /// Checks the settings and builds the engine (starts the worker thread). For
    /// [`crate::Output::Device`] the device is resolved first (before anything is built), the
    /// mixer runs at its rate, and its stream starts here (unless [`Self::start_paused`]).
    ///
    /// # Errors
    /// [`BuildError`]; [`BuildError::Output`] names the device and why it cannot be used.
    pub fn build(self) -> Result<Engine, BuildError> {
        let resolved = self.check()?;
        Engine::from_builder(self, resolved)
    }
}

impl Engine {
    /// A builder with the defaults: 48 kHz, offline, mode `off`, own model.
    #[must_use]
    pub fn builder() -> EngineBuilder {
        EngineBuilder::default()
    }

    fn from_builder(b: EngineBuilder, output: Resolved) -> Result<Self, BuildError> {
        let rate = output.sample_rate(b.sample_rate);
        let pacing = b.effective_pacing();
        let budgets = b.effective_budgets();
        let cap = match b.policy {
            VoicePolicy::Modern => b.capacities.voices,
            VoicePolicy::Retail16 => VOICE_SLOTS,
        };
        let mut settings = MixerSettings {
            sample_rate: rate,
            limiter: b.limiter,
            reverb: b.model.reverb_bus(),
            spatial: b.spatial,
            // Modern voices read sounds raised at load (issue 31); Retail16 keeps the linear read.
            resampler: match b.policy {
                VoicePolicy::Modern => Resampler::Oversampled,
                VoicePolicy::Retail16 => Resampler::Linear,
            },
            ..MixerSettings::default()
        };
        settings.capacities.voices = cap + STEAL_RESERVE;
        settings.capacities.sounds = b.capacities.sounds;
        settings.capacities.tap_sets = 2 * b.capacities.echo_voices;
        let built = match b.hrtf_bank(rate)? {
            Some(bank) => resound_mixer::build_with_hrtf(settings, bank),
            None => resound_mixer::build(settings),
        };
        let (mixer, renderer) = built.map_err(|e| BuildError::Mixer(e.to_string()))?;
        let (renderer, device) = match open(output, renderer, b.start_paused)? {
            Opened::Offline(r) => (Some(Mutex::new(r)), None),
            Opened::Device(d) => (None, Some(Mutex::new(d))),
        };
        let core = CoreSpec::new(
            b.model.clone(),
            budgets.queue(),
            budgets.air(),
            b.worker_delay,
        );
        let worker = WorkerLink::start(core, b.inline_worker).map_err(BuildError::Worker)?;
        let tick_frames = ((f64::from(rate) * b.tick_seconds).round() as u64).max(1);
        let mut shared = Shared::new(&b, rate, pacing, budgets, mixer);
        if let Some(w) = b.world.clone() {
            shared.world.set_game(w);
        }
        Ok(Self {
            shared,
            voices: Voices::new(),
            ticker: Ticker::new(worker, tick_frames, rate, budgets.inline_cells),
            sounds: Sounds::default(),
            ambient: None,
            ambient_out: false,
            retail: RetailPool::default(),
            ended: Vec::new(),
            guard: b.audio_guard,
            renderer,
            device,
        })
    }

    /// Output sample rate in Hz.
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.shared.rate
    }

    /// Frames per acoustic tick (render-clock pacing; 50 ms).
    #[must_use]
    pub fn tick_frames(&self) -> u64 {
        self.ticker.tick_frames
    }

    /// Acoustic ticks run so far.
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.ticker.tick
    }

    /// The acoustics mode.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.shared.mode
    }

    /// The model's short name (`"own"`, `"spr"`).
    #[must_use]
    pub fn model_name(&self) -> &'static str {
        self.shared.model.name()
    }

    /// The listener.
    #[must_use]
    pub fn listener(&self) -> Listener {
        self.shared.listener
    }

    /// Engine time in seconds (rendered frames with render-clock pacing, else the sum of `dt`).
    #[must_use]
    pub fn time(&self) -> f64 {
        self.shared.time()
    }

    // ---- sounds ----------------------------------------------------------------------------

    /// Loads mono samples at `sample_rate` into the mixer.
    ///
    /// # Errors
    /// [`LoadError`]: bad rate, empty, too long, a non-finite or oversized sample, capacity.
    pub fn load_mono(
        &mut self,
        samples: Arc<[f32]>,
        sample_rate: u32,
    ) -> Result<SoundHandle, LoadError> {
        self.sounds
            .load(&mut self.shared.mixer, samples, sample_rate)
    }

    /// Loads a WAV file's bytes (PCM 8/16/24/32-bit or float, mono or stereo; stereo is
    /// downmixed to mono).
    ///
    /// # Errors
    /// [`SoundError::Decode`] for bytes that are not a supported WAV; [`SoundError::Load`].
    pub fn load_wav(&mut self, bytes: &[u8]) -> Result<SoundHandle, SoundError> {
        self.load_encoded(Encoded::Wav(bytes))
    }

    /// Loads a DAT `Wave` record (PCM 8/16-bit at any rate, mono or stereo, or MPEG Layer-3,
    /// format tag 0x55; stereo is downmixed to mono).
    ///
    /// # Errors
    /// [`SoundError::Decode`] for a Wave that fails to decode; [`SoundError::Load`].
    pub fn load_wave(&mut self, wave: &Wave) -> Result<SoundHandle, SoundError> {
        self.load_encoded(Encoded::Wave(wave))
    }

    /// Loads an MP3 stream (decoded with `symphonia`; stereo is downmixed to mono).
    ///
    /// # Errors
    /// [`SoundError::Decode`] for bytes without a decodable MPEG stream; [`SoundError::Load`].
    pub fn load_mp3(&mut self, bytes: &[u8]) -> Result<SoundHandle, SoundError> {
        self.load_encoded(Encoded::Mp3(bytes))
    }

    /// Loads a sound file, WAV or MP3 (told apart by its first bytes, not its name), of at
    /// most [`MAX_SOUND_FILE_BYTES`](crate::MAX_SOUND_FILE_BYTES). A stereo file plays as stereo on
    /// non-positional (relative) voices and as its downmix on positional ones.
    ///
    /// # Errors
    /// [`SoundError::File`] (unreadable, not a regular file, too large),
    /// [`SoundError::UnknownFormat`], [`SoundError::Decode`], [`SoundError::Load`].
    pub fn load_file(
        &mut self,
        path: impl AsRef<std::path::Path>,
    ) -> Result<SoundHandle, SoundError> {
        let bytes = read_sound_file(path.as_ref())?;
        let encoded = sniff(&bytes).ok_or(SoundError::UnknownFormat)?;
        self.load_encoded(encoded)
    }

    fn load_encoded(&mut self, encoded: Encoded<'_>) -> Result<SoundHandle, SoundError> {
        let data = decode(encoded)?;
        self.sounds
            .load_data(&mut self.shared.mixer, data)
            .map_err(SoundError::Load)
    }

    /// Unloads a sound that no voice plays.
    ///
    /// # Errors
    /// [`UnloadError`]: unknown (or already unloaded) sound, still playing, ring full.
    pub fn unload(&mut self, sound: SoundHandle) -> Result<(), UnloadError> {
        if !self.sounds.contains(sound.0) {
            return Err(UnloadError::UnknownSound);
        }
        self.reap();
        if self.voices.plays(sound.0) {
            return Err(UnloadError::Playing);
        }
        self.sounds.unload(&mut self.shared.mixer, sound.0)
    }

    /// Length of a loaded sound in seconds.
    #[must_use]
    pub fn sound_length(&self, sound: SoundHandle) -> Option<f64> {
        self.sounds.length(sound.0)
    }

    // ---- listener and voices ---------------------------------------------------------------

    /// Moves and turns the listener (the camera).
    ///
    /// # Errors
    /// [`InputError`] for a non-finite or out-of-world position or a degenerate orientation.
    pub fn set_listener(
        &mut self,
        position: DVec3,
        orientation: Orientation,
    ) -> Result<(), InputError> {
        check_position("listener position", position)?;
        orientation.validate()?;
        self.shared.listener = Listener {
            position,
            orientation,
        };
        self.voices.push_all(&mut self.shared);
        Ok(())
    }

    /// Starts a voice. A positioned voice gets one inline 1-path trace before its first buffer
    /// (within the inline cell budget); the worker refines it from the next tick. Under
    /// [`VoicePolicy::Retail16`] it takes a slot of the retail 16-voice pool (none free: the
    /// voice limit).
    ///
    /// # Errors
    /// [`PlayError`]: a bad source field, an unknown (unloaded) sound, the voice limit.
    pub fn play(&mut self, sound: SoundHandle, source: Source) -> Result<VoiceHandle, PlayError> {
        source.validate()?;
        if control::check_track(self.shared.tracks.len(), source.track).is_err() {
            return Err(PlayError::UnknownTrack);
        }
        let length_s = self.sounds.length(sound.0).ok_or(PlayError::UnknownSound)?;
        self.play_sound(sound.0, length_s, source)
    }

    /// [`Engine::play`] of a loaded mixer sound `length_s` seconds long (a checked source).
    fn play_sound(
        &mut self,
        sound: SoundId,
        length_s: f64,
        source: Source,
    ) -> Result<VoiceHandle, PlayError> {
        self.reap();
        let slot = match self.shared.policy {
            VoicePolicy::Retail16 => {
                let Some(slot) = self.retail.claim(self.shared.time()) else {
                    self.shared.status.dropped_voices += 1;
                    return Err(PlayError::VoiceLimit);
                };
                Some(slot)
            }
            VoicePolicy::Modern => {
                if self.voices.len() >= self.shared.capacities.voices {
                    self.shared.status.dropped_voices += 1;
                    self.voices.steal_quietest(&mut self.shared);
                }
                None
            }
        };
        let echo = self.voices.echo_at_start(&self.shared, &source, length_s);
        // A device stream that has not started waits for nothing: evaluate as offline.
        let before_start = self.device_mut().is_some_and(|d| !d.started());
        let inline = self
            .ticker
            .inline_trace(&mut self.shared, &source, echo, before_start);
        let new = NewVoice {
            sound,
            source,
            length_s,
            echo,
            inline,
            tick: self.ticker.tick,
        };
        let started = self.voices.start(&mut self.shared, new);
        if let Some(slot) = slot {
            match started.as_ref().ok().and_then(|h| self.voices.mixer_id(*h)) {
                Some(voice) => self.retail.bind(slot, voice),
                None => self.retail.unclaim(slot),
            }
        }
        started
    }

    /// Takes the voices the mixer reports ended: their retail pool slots free at once; the
    /// ambient state (when it is in place) releases their Waves.
    fn take_ended(&mut self) {
        let seen = self.ended.len();
        self.ended.extend(self.shared.mixer.drain_ended());
        for v in &self.ended[seen..] {
            self.retail.ended(*v);
        }
        if self.ambient_out {
            return;
        }
        if let Some(st) = self.ambient.as_deref_mut() {
            for v in &self.ended {
                st.voice_ended(*v);
            }
        }
        self.ended.clear();
    }

    /// [`Engine::take_ended`], then the voices the mixer reports ended leave the books.
    fn reap(&mut self) {
        self.take_ended();
        self.voices.reap(&mut self.shared);
    }

    /// True while the voice plays or is paused, as of the last [`Engine::update`] or render.
    #[must_use]
    pub fn is_playing(&self, h: VoiceHandle) -> bool {
        self.voices.get(h).is_some()
    }

    /// Moves a voice: `engine.voice(h)?.set_position(position)`.
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite or out-of-world position, or the voice has ended.
    pub fn set_position(&mut self, h: VoiceHandle, position: DVec3) -> Result<(), VoiceError> {
        // A bad value is reported as such, whether the voice lives or not.
        check_position("position", position)?;
        self.voice(h)?.set_position(position).map(|_| ())
    }

    /// Sets a voice's volume at once (linear): `engine.voice(h)?.set_volume(…)` tweens it.
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite, negative or too large volume, or the voice has ended.
    pub fn set_volume(&mut self, h: VoiceHandle, volume: f32) -> Result<(), VoiceError> {
        Volume::Amplitude(volume).amplitude()?;
        self.voice(h)?
            .set_volume(Volume::Amplitude(volume), Tween::IMMEDIATE)
            .map(|_| ())
    }

    /// Sets a voice's range: `engine.voice(h)?.set_range(range)`.
    ///
    /// # Errors
    /// [`VoiceError`]: a non-finite, zero or negative range, or the voice has ended.
    pub fn set_range(&mut self, h: VoiceHandle, range: f32) -> Result<(), VoiceError> {
        crate::source::check_range(range)?;
        self.voice(h)?.set_range(range).map(|_| ())
    }

    /// Stops a voice with the mixer's short click-free fade: `engine.voice(h)?.stop(…)` stops
    /// it with a fade of your choice.
    ///
    /// # Errors
    /// [`VoiceError::Ended`] if it has ended already; [`VoiceError::QueueFull`].
    pub fn stop(&mut self, h: VoiceHandle) -> Result<(), VoiceError> {
        self.stop_with(h, Tween::IMMEDIATE)
    }

    /// Stops every voice; the reverb bus resets once they are gone.
    ///
    /// # Errors
    /// `Mixer` if the command ring is full.
    pub fn stop_all(&mut self) -> Result<(), VoiceError> {
        self.shared.mixer.stop_all()?;
        self.voices.end_all(&mut self.shared);
        self.retail.stopped_all();
        if let Some(st) = self.ambient.as_deref_mut() {
            st.stopped_all();
        }
        Ok(())
    }

    /// Voices the engine counts as playing (or paused), as of the last update or render.
    #[must_use]
    pub fn live_voices(&self) -> usize {
        self.voices.len()
    }

    /// What the acoustics did for a voice (`None` once it has ended).
    #[must_use]
    pub fn voice_acoustics(&self, h: VoiceHandle) -> Option<VoiceAcoustics> {
        self.voices.acoustics(h)
    }

    // ---- mode --------------------------------------------------------------------------------

    /// Switches the acoustics mode. To `off`: shelves slew to 1, sends to 0, taps fade out, queued
    /// work is cancelled; from `off`: every voice is traced at the next tick.
    pub fn set_mode(&mut self, mode: Mode) {
        if mode == self.shared.mode {
            return;
        }
        self.shared.mode = mode;
        self.voices.set_mode(&mut self.shared, mode);
    }

    // ---- world -------------------------------------------------------------------------------

    /// The engine's voxel world, to edit (blocks, boxes, sections, epoch, replacement). While
    /// the game's own world is traced ([`Engine::set_world`]) edits are refused with
    /// [`WorldError::GameOwned`].
    pub fn world(&mut self) -> WorldEdit<'_> {
        WorldEdit::new(&mut self.shared.world)
    }

    /// Traces the game's own world ([`GameWorld`]: an immutable snapshot the worker reads)
    /// instead of the engine's store or terrain; every voice is traced again at the next tick.
    pub fn set_world(&mut self, world: Arc<dyn GameWorld>) {
        self.shared.world.set_game(world);
    }

    /// The game's world changed: `world` is its new snapshot and `sections` the 16³ sections
    /// (section coordinates: cell >> 4) whose cells changed. Cached results there are dropped
    /// and the voices whose rays crossed them are traced again at the next tick.
    ///
    /// # Errors
    /// [`WorldError::NotGameOwned`] when no game world is set ([`Engine::set_world`]).
    pub fn world_changed(
        &mut self,
        world: Arc<dyn GameWorld>,
        sections: &[IVec3],
    ) -> Result<(), WorldError> {
        if self.shared.world.game_changed(world, sections) {
            Ok(())
        } else {
            Err(WorldError::NotGameOwned)
        }
    }

    /// The voxel world, read-only.
    #[must_use]
    pub fn world_store(&self) -> &WorldStore {
        self.shared.world.store()
    }

    /// Traces Asheron's Call terrain from `dat_dir` (`client_portal.dat` for the Region's height
    /// table, `client_cell_1.dat` for the landblocks) from now on, instead of the voxel store:
    /// a new epoch (every cached result is dropped). The ring around the listener is loaded now
    /// and follows the listener in [`Engine::update`].
    ///
    /// # Errors
    /// [`AttachTerrainError`]: a missing or invalid dat, no Region 0x13000000, a material the
    /// model lacks, a corrupt landblock in the first ring.
    pub fn attach_terrain(&mut self, dat_dir: &Path) -> Result<(), AttachTerrainError> {
        let state = terrain::open(
            dat_dir,
            self.shared.model.materials(),
            self.shared.listener.position,
        )?;
        self.shared.world.attach_terrain(state);
        Ok(())
    }

    /// Traces Asheron's Call terrain from a portal and a cell dat held in memory (a browser's
    /// file picker, a client that packs its dats), as [`Engine::attach_terrain`] does from a
    /// folder: the same terrain, the same bits. The portal dat is read now (its Region); the
    /// cell dat is kept and its landblocks read as the listener moves.
    ///
    /// # Errors
    /// As [`Engine::attach_terrain`]; bytes that are not a dat name which one.
    pub fn attach_terrain_bytes(
        &mut self,
        portal: &[u8],
        cell: Arc<[u8]>,
    ) -> Result<(), AttachTerrainError> {
        let state = terrain::open_bytes(
            portal,
            cell,
            self.shared.model.materials(),
            self.shared.listener.position,
        )?;
        self.shared.world.attach_terrain(state);
        Ok(())
    }

    /// The attached terrain (`None` while the voxel store is traced).
    #[must_use]
    pub fn terrain(&self) -> Option<&TerrainWorld> {
        self.shared.world.terrain().map(|t| &t.terrain)
    }

    /// Places an inclusive box of `cell` (a material, or air to carve) in the world: over the
    /// attached terrain (it wins where it overlaps the ground), else into the voxel store.
    /// Voices are re-traced.
    ///
    /// # Errors
    /// [`WorldError`]: an inverted or out-of-world box, a bad material, too many boxes.
    pub fn place_box(&mut self, min: IVec3, max: IVec3, cell: Cell) -> Result<(), WorldError> {
        self.world().fill_box(min, max, cell)
    }

    /// Evaluates one request on the traced world (store or terrain) synchronously, stage by
    /// stage, under the offline budgets (`resound acoustics`; tools and tests).
    ///
    /// # Errors
    /// [`RequestError`] for an invalid request.
    pub fn evaluate(&self, request: &SoundRequest, mode: Mode) -> Result<Stages, RequestError> {
        run_stages(
            &self.shared.model,
            &self.shared.world,
            request,
            mode,
            StageBudgets::offline(),
        )
    }

    // ---- ambient -----------------------------------------------------------------------------

    /// Attaches the retail ambient runtime to the dats in `dat_dir` (`client_portal.dat`,
    /// `client_cell_1.dat`); every [`Engine::update`] then ticks it with the engine clock and
    /// the listener as its camera. Its plays follow the engine's voice policy.
    ///
    /// # Errors
    /// [`AttachError`]: a missing or invalid dat, no usable Region.
    pub fn attach_ambient(
        &mut self,
        dat_dir: &Path,
        settings: AmbientSettings,
    ) -> Result<(), AttachError> {
        let bridge = AmbientBridge::open(dat_dir, self.shared.policy, settings)?;
        self.take_ended();
        self.ambient = Some(Box::new(AmbientState::new(bridge, &settings)));
        Ok(())
    }

    /// The attached ambient bridge.
    #[must_use]
    pub fn ambient_bridge(&self) -> Option<&AmbientBridge> {
        self.ambient.as_deref().map(AmbientState::bridge)
    }

    /// The ambient runtime's wave cache (its counters are in `Status::ambient`).
    #[must_use]
    pub fn ambient_cache(&self) -> Option<&WaveCache> {
        self.ambient.as_deref().map(AmbientState::cache)
    }

    /// The retail 16-voice pool: the one cap of [`VoicePolicy::Retail16`], game and ambient
    /// voices alike (empty under `Modern`).
    #[must_use]
    pub fn retail_pool(&self) -> &VoicePool {
        self.retail.pool()
    }

    /// A teleport or blip: the listener moves to `position` and the ambient runtime rebuilds
    /// there at once (camera and player together, no one-frame lag; `Ambient::teleport`).
    /// The terrain ring follows. Call [`Engine::update`] for the frame as usual.
    ///
    /// # Errors
    /// [`TickError`]: a bad position or orientation; the runtime refused the pose; a landblock
    /// that cannot be read.
    pub fn teleport(&mut self, position: DVec3, orientation: Orientation) -> Result<(), TickError> {
        self.set_listener(position, orientation)?;
        let terrain = terrain::follow(&mut self.shared.world, self.shared.listener.position);
        let ambient = self.ambient_tick(true);
        terrain.and(ambient)
    }

    /// Renders `seconds` of a walk (offline): per walk frame, the camera's pose becomes the
    /// listener (a `teleport` waypoint maps to [`Engine::teleport`]), then [`Engine::update`]
    /// by one frame and the frame's samples are rendered and handed to `sink` (interleaved
    /// stereo). Sample positions are rounded from the frame times, so the output depends only
    /// on the inputs.
    ///
    /// # Errors
    /// [`TickError`] from the first frame that failed (not offline, a refused pose, a
    /// landblock that cannot be read).
    pub fn render_walk(
        &mut self,
        walk: &Walk,
        seconds: f64,
        sink: &mut dyn FnMut(&[f32]),
    ) -> Result<(), TickError> {
        let Some(mut cursor) = walk.cursor() else {
            return Ok(());
        };
        let fps = walk.frame_rate;
        let frames = (seconds * fps).floor().max(0.0) as u64;
        let rate = f64::from(self.shared.rate);
        let mut buf = Vec::new();
        let mut done = 0u64;
        for i in 0..frames {
            let pose = cursor.pose(i as f64 / fps);
            let position = ac_to_voxel(&pose.camera.position);
            let orientation = heading_orientation(pose.camera.heading_deg);
            if pose.teleported {
                self.teleport(position, orientation)?;
            } else {
                self.set_listener(position, orientation)?;
            }
            self.update(1.0 / fps)?;
            let end = ((i + 1) as f64 * rate / fps).round() as u64;
            buf.clear();
            buf.resize(2 * (end - done) as usize, 0.0);
            self.render(&mut buf)?;
            sink(&buf);
            done = end;
        }
        Ok(())
    }

    /// Retail ambient voices still playing.
    fn ambient_retail_live(&self) -> usize {
        self.ambient.as_deref().map_or(0, AmbientState::retail_live)
    }

    fn ambient_tick(&mut self, teleport: bool) -> Result<(), TickError> {
        self.take_ended();
        let Some(mut st) = self.ambient.take() else {
            return Ok(());
        };
        self.ambient_out = true;
        let r = self.ambient_frame(&mut st, teleport);
        self.ambient_out = false;
        self.ambient = Some(st);
        self.take_ended();
        r
    }

    /// One frame of the ambient runtime and its plays started as voices.
    fn ambient_frame(&mut self, st: &mut AmbientState, teleport: bool) -> Result<(), TickError> {
        let Some(pose) = st.pose(&self.shared.listener) else {
            return Err(TickError::Ambient);
        };
        self.reap();
        let (plays, result) = st.run(&self.shared, pose, teleport);
        for play in &plays {
            let Some(wave) = st.wave(&mut self.shared.mixer, play) else {
                continue;
            };
            let voice = match play {
                AmbientPlay::Retail { .. } => {
                    let now = self.shared.time();
                    match self
                        .retail
                        .start(&mut self.shared.mixer, now, wave.sound, play)
                    {
                        Ok(v) => Some(v),
                        Err(RetailRefused::PoolFull) => {
                            st.pool_full();
                            continue;
                        }
                        Err(RetailRefused::Mixer) => {
                            self.shared.status.dropped_voices += 1;
                            None
                        }
                    }
                }
                _ => modern_source(play)
                    .filter(|source| source.validate().is_ok())
                    .and_then(|source| self.play_sound(wave.sound, wave.seconds(), source).ok())
                    .and_then(|h| self.voices.mixer_id(h)),
            };
            st.started(play, voice);
        }
        st.done(plays);
        result
    }

    // ---- ticks -------------------------------------------------------------------------------

    /// The game tick. With [`Pacing::Update`]: applies the worker's finished results, then
    /// schedules and sends this tick's work. With [`Pacing::RenderClock`] ticks follow the
    /// rendered frames instead and `update` only advances the clock and publishes changes.
    ///
    /// # Errors
    /// [`TickError`]: a bad `dt`; the worker has stopped (the mix goes on).
    pub fn update(&mut self, dt: f64) -> Result<(), TickError> {
        if !dt.is_finite() {
            return Err(InputError::new("dt", Problem::NotFinite).into());
        }
        if dt < 0.0 {
            return Err(InputError::new("dt", Problem::Negative).into());
        }
        if dt > MAX_DT {
            return Err(InputError::new("dt", Problem::TooLarge).into());
        }
        self.shared.clock += dt;
        if let Some(d) = self.device_mut() {
            d.poll();
        }
        // Terrain ring and ambient sounds follow the listener before this tick's scheduling.
        let terrain = terrain::follow(&mut self.shared.world, self.shared.listener.position);
        let side = terrain.and(self.ambient_tick(false));
        let r = match self.shared.pacing {
            Pacing::Update => self.ticker.run(&mut self.shared, &mut self.voices, false),
            Pacing::RenderClock => {
                self.reap();
                Ok(())
            }
        };
        self.shared.mixer.flush();
        self.observe();
        r.and(side)
    }

    /// After an update or a render: the voices the mixer reports ended leave the books, and
    /// the mixer's counters and clock are kept for the `&self` queries.
    fn observe(&mut self) {
        self.reap();
        self.shared.mixer_status = self.shared.mixer.status();
        self.shared.audio_frames = self.shared.mixer_status.frames_rendered;
    }

    /// Waits for the worker to answer every tick sent and applies the results (tools, tests,
    /// shutdown). Render-clock pacing never leaves work in flight.
    ///
    /// # Errors
    /// [`TickError::WorkerGone`].
    pub fn settle(&mut self) -> Result<(), TickError> {
        self.ticker.settle(&mut self.shared, &mut self.voices)?;
        self.shared.mixer.flush();
        Ok(())
    }

    /// Fault injection (tests, `docs/reliability.md`): the acoustic worker panics at its next
    /// tick; it is restarted and [`Status::worker_restarts`] counts it.
    #[doc(hidden)]
    pub fn inject_worker_panic(&mut self) {
        self.ticker.inject_worker_panic();
    }

    // ---- render ------------------------------------------------------------------------------

    /// Renders interleaved stereo into `out` (offline output). With render-clock pacing the
    /// acoustics tick every [`Engine::tick_frames`] frames, synchronously, so the output depends
    /// on nothing but the inputs and the frames at which the host called the API.
    ///
    /// # Errors
    /// [`TickError`]: not offline, odd length; the worker has stopped (the buffer is still
    /// rendered, with acoustics frozen).
    pub fn render(&mut self, out: &mut [f32]) -> Result<(), TickError> {
        if self.renderer.is_none() {
            return Err(TickError::NotOffline);
        }
        if !out.len().is_multiple_of(2) {
            return Err(TickError::OddLength(out.len()));
        }
        let mut result = Ok(());
        let mut pos = 0;
        while pos < out.len() {
            let mut frames = (out.len() - pos) / 2;
            if self.shared.pacing == Pacing::RenderClock {
                let tick_frames = self.ticker.tick_frames;
                let phase = self.shared.frames % tick_frames;
                if self.ticker.due_at(self.shared.frames)
                    && let Err(e) = self.ticker.run(&mut self.shared, &mut self.voices, true)
                {
                    result = Err(e);
                }
                frames = frames.min((tick_frames - phase) as usize);
            }
            self.shared.mixer.flush();
            let chunk = &mut out[pos..pos + 2 * frames];
            if let Some(r) = self
                .renderer
                .as_mut()
                .map(|m| m.get_mut().unwrap_or_else(PoisonError::into_inner))
            {
                match self.guard {
                    Some(g) => g(&mut || r.render(chunk)),
                    None => r.render(chunk),
                }
            }
            pos += 2 * frames;
            self.shared.frames += frames as u64;
        }
        self.shared.status.frames_rendered = self.shared.frames;
        self.observe();
        result
    }

    /// Starts the device stream of an engine built with
    /// [`EngineBuilder::start_paused`] (a no-op offline or once started). Flushes the voices
    /// and parameters set up so far, so the first buffer holds them.
    ///
    /// # Errors
    /// [`crate::OutputError`] if the stream cannot start (the engine then reopens it from the
    /// next `update`, as after a loss).
    pub fn start_output(&mut self) -> Result<(), crate::output::OutputError> {
        self.shared.mixer.flush();
        match self.device_mut() {
            Some(d) => d.start(),
            None => Ok(()),
        }
    }

    /// Renders `frames` frames (at most [`MAX_DT`] seconds) into a new buffer (interleaved
    /// stereo).
    ///
    /// # Errors
    /// As [`Engine::render`]; `frames` beyond [`MAX_DT`] seconds is refused as too large.
    pub fn render_frames(&mut self, frames: usize) -> Result<Vec<f32>, TickError> {
        if frames as f64 > MAX_DT * f64::from(self.shared.rate) {
            return Err(InputError::new("frames", Problem::TooLarge).into());
        }
        let mut out = vec![0.0; 2 * frames];
        self.render(&mut out)?;
        Ok(out)
    }

    /// The device output, when the engine plays live.
    fn device_mut(&mut self) -> Option<&mut Live> {
        self.device
            .as_mut()
            .map(|m| m.get_mut().unwrap_or_else(PoisonError::into_inner))
    }

    // ---- status ------------------------------------------------------------------------------

    /// Counters, as of the last update or render.
    #[must_use]
    pub fn status(&self) -> Status {
        let m = self.shared.mixer_status;
        let mut s = self.shared.status.clone();
        // The device's own counters are read live: its lock is the engine's alone (the
        // callback never takes it), so this never waits.
        let device = self
            .device
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(PoisonError::into_inner).status());
        if let Some(ds) = device {
            s.xruns = ds.xruns + ds.device_xruns;
            s.device = Some(ds);
        }
        s.live_voices = self.voices.len() + self.ambient_retail_live();
        s.ambient = match self.ambient.as_deref() {
            Some(st) => st.status(),
            None => AmbientStatus::default(),
        };
        s.echo_voices = self.voices.echo_voices();
        s.limiter_engagements = m.limiter_engagements;
        s.peak = m.peak;
        s.ticks_in_flight = self.ticker.in_flight();
        s
    }
}
