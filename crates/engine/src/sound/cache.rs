//! The wave cache: Wave id → a sound loaded in the mixer, read and decoded once from the portal
//! dat on first use, under a byte cap.
//!
//! - The cap counts the mono f32 buffers the mixer holds (4 bytes a frame). It is hard: before
//!   a new wave is loaded, the least recently used waves that are not playing are unloaded until
//!   it fits; if it cannot fit because everything left is playing, the request fails with
//!   [`CacheError::Full`] (the caller skips that play) and nothing goes over the cap.
//! - A wave that is playing is never unloaded: the cache counts references, one per voice
//!   that plays it ([`WaveCache::acquire`] when the voice starts, [`WaveCache::release`] when
//!   the mixer reports it ended).
//! - A wave that cannot be used (absent, undecodable, larger than the whole cap) is remembered,
//!   so it is read and decoded once, not on every event that names it.
//! - Hits, misses, bytes, evictions and decode failures are counted ([`CacheStats`]).

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::io::{Read, Seek};
use std::sync::Arc;

use resound_ambient::{DatSource, DatSourceError};
use resound_datformat::record::Wave;
use resound_mixer::{LoadSoundError, MixerHandle, SoundId, UnloadSoundError};
use thiserror::Error;

use super::decode::{DecodeError, DecodeLimits, decode_wave, wave_frames};

/// Default byte cap: 64 MiB of mono f32 (about 5.8 minutes of 48 kHz audio).
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// Where Wave records come from (the portal dat, or memory in tests).
pub trait WaveSource {
    /// Why a wave could not be read (an absent wave is `Ok(None)`).
    type Error: std::error::Error + Send + Sync + 'static;

    /// Reads Wave `wave_id` (`0x0A…`), `Ok(None)` when there is none.
    ///
    /// # Errors
    /// When the record exists but cannot be read or parsed.
    fn load_wave(&mut self, wave_id: u32) -> Result<Option<Wave>, Self::Error>;

    /// The size in bytes Wave `wave_id`'s record declares, known before it is read (a dat
    /// entry's size prefix); `Ok(None)` when unknown or absent. The cache refuses a record
    /// larger than its byte cap without reading it. The default knows nothing.
    ///
    /// # Errors
    /// When the size cannot be read.
    fn wave_size(&mut self, wave_id: u32) -> Result<Option<u64>, Self::Error> {
        let _ = wave_id;
        Ok(None)
    }
}

impl<R: Read + Seek> WaveSource for DatSource<R> {
    type Error = DatSourceError;

    fn load_wave(&mut self, wave_id: u32) -> Result<Option<Wave>, DatSourceError> {
        self.load_record::<Wave>(wave_id)
    }

    fn wave_size(&mut self, wave_id: u32) -> Result<Option<u64>, DatSourceError> {
        self.payload_size(wave_id)
    }
}

/// Waves held in memory, counting loads.
#[derive(Debug, Clone, Default)]
pub struct MemoryWaves {
    waves: BTreeMap<u32, Wave>,
    /// Number of `load_wave` calls.
    pub loads: usize,
}

impl MemoryWaves {
    /// A source holding these waves, keyed by their `id`.
    #[must_use]
    pub fn new(waves: impl IntoIterator<Item = Wave>) -> Self {
        Self {
            waves: waves.into_iter().map(|w| (w.id, w)).collect(),
            loads: 0,
        }
    }

    /// Adds or replaces one wave.
    pub fn insert(&mut self, wave: Wave) {
        self.waves.insert(wave.id, wave);
    }
}

impl WaveSource for MemoryWaves {
    type Error = Infallible;

    fn load_wave(&mut self, wave_id: u32) -> Result<Option<Wave>, Infallible> {
        self.loads += 1;
        Ok(self.waves.get(&wave_id).cloned())
    }
}

/// A wave the mixer holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CachedWave {
    /// The mixer's sound.
    pub sound: SoundId,
    /// Frames of the (mono) buffer.
    pub frames: usize,
    /// Its sample rate.
    pub sample_rate: u32,
    /// Channels of the Wave as stored (a stereo wave is held downmixed to mono).
    pub channels: u16,
    /// Bytes counted against the cap (`frames · 4`).
    pub bytes: usize,
}

impl CachedWave {
    /// Length in seconds at the wave's own rate.
    #[must_use]
    pub fn seconds(&self) -> f64 {
        self.frames as f64 / f64::from(self.sample_rate.max(1))
    }
}

/// The cache's counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Requests served from a loaded wave.
    pub hits: u64,
    /// Requests that had to read (and decode and load) the wave.
    pub misses: u64,
    /// Requests for a wave already known to be unusable (not read again).
    pub known_failures: u64,
    /// Bytes loaded now.
    pub bytes: usize,
    /// Most bytes ever loaded at once.
    pub peak_bytes: usize,
    /// Waves loaded now.
    pub entries: usize,
    /// Waves unloaded to make room.
    pub evictions: u64,
    /// Waves that failed to decode (each counted once).
    pub decode_failures: u64,
    /// Requests refused because the cap could not be met with everything else playing.
    pub full: u64,
}

/// Why the cache could not supply a wave.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum CacheError {
    /// The portal dat has no such Wave.
    #[error("wave {wave_id:#010x} is not in the portal dat")]
    Missing {
        /// The wave.
        wave_id: u32,
    },
    /// The Wave record could not be read or parsed.
    #[error("wave {wave_id:#010x} could not be read")]
    Read {
        /// The wave.
        wave_id: u32,
        /// The source's error.
        #[source]
        source: Arc<dyn std::error::Error + Send + Sync>,
    },
    /// The Wave record could not be decoded.
    #[error("wave {wave_id:#010x} could not be decoded")]
    Decode {
        /// The wave.
        wave_id: u32,
        /// Why.
        #[source]
        source: DecodeError,
    },
    /// The Wave record declares more bytes than the whole cap (its decoded mono f32 is at
    /// least as large, less its header: PCM of 8 or 16 bits in one or two channels gives 4
    /// bytes a frame from 1 to 4, MP3 inflates); refused before it is read.
    #[error(
        "wave {wave_id:#010x} declares {declared} bytes, more than {cap} (the wave cache's byte cap)"
    )]
    Declared {
        /// The wave.
        wave_id: u32,
        /// The record's declared size.
        declared: u64,
        /// The cap.
        cap: usize,
    },
    /// The decoded wave alone is larger than the whole cap (found from its header or its MP3
    /// frame headers, before it is decoded).
    #[error(
        "wave {wave_id:#010x} needs {bytes} bytes, more than {cap} (the wave cache's byte cap)"
    )]
    TooLarge {
        /// The wave.
        wave_id: u32,
        /// Its size.
        bytes: usize,
        /// The cap.
        cap: usize,
    },
    /// The cap cannot be met: the waves loaded are all playing.
    #[error(
        "wave {wave_id:#010x} does not fit: {needed} bytes more are needed and every loaded wave is playing"
    )]
    Full {
        /// The wave.
        wave_id: u32,
        /// Bytes that could not be freed.
        needed: usize,
    },
    /// The mixer refused the buffer.
    #[error("the mixer refused wave {wave_id:#010x}")]
    Load {
        /// The wave.
        wave_id: u32,
        /// The mixer's error.
        #[source]
        source: LoadSoundError,
    },
    /// The mixer refused to unload a wave to make room.
    #[error("the mixer could not unload a cached wave")]
    Unload(#[source] UnloadSoundError),
}

impl CacheError {
    /// `true` when the wave itself is unusable (remembered, never read again), rather than the
    /// cache or mixer being momentarily full.
    #[must_use]
    pub fn is_permanent(&self) -> bool {
        matches!(
            self,
            Self::Missing { .. }
                | Self::Read { .. }
                | Self::Decode { .. }
                | Self::Declared { .. }
                | Self::TooLarge { .. }
        )
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    wave: CachedWave,
    last_used: u64,
    /// Voices playing it.
    users: u32,
}

/// Wave id → loaded mixer sound, with a byte cap and least-recently-used unloading.
#[derive(Debug, Clone)]
pub struct WaveCache {
    cap: usize,
    limits: DecodeLimits,
    entries: HashMap<u32, Entry>,
    failed: HashMap<u32, CacheError>,
    clock: u64,
    stats: CacheStats,
}

impl WaveCache {
    /// An empty cache holding at most `cap_bytes` of loaded sound, decoding under `limits`.
    #[must_use]
    pub fn new(cap_bytes: usize, limits: DecodeLimits) -> Self {
        Self {
            cap: cap_bytes,
            limits,
            entries: HashMap::new(),
            failed: HashMap::new(),
            clock: 0,
            stats: CacheStats::default(),
        }
    }

    /// The byte cap.
    #[must_use]
    pub fn cap_bytes(&self) -> usize {
        self.cap
    }

    /// The counters.
    #[must_use]
    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// The loaded wave `wave_id`, if it is loaded (does not count as a use).
    #[must_use]
    pub fn peek(&self, wave_id: u32) -> Option<CachedWave> {
        self.entries.get(&wave_id).map(|e| e.wave)
    }

    /// Voices playing wave `wave_id` (acquired and not yet released).
    #[must_use]
    pub fn users(&self, wave_id: u32) -> u32 {
        self.entries.get(&wave_id).map_or(0, |e| e.users)
    }

    /// A voice starts playing the loaded wave `wave_id`: it is not unloaded until as many
    /// [`release`](Self::release)s. `false` when the wave is not loaded.
    pub fn acquire(&mut self, wave_id: u32) -> bool {
        match self.entries.get_mut(&wave_id) {
            Some(e) => {
                e.users += 1;
                true
            }
            None => false,
        }
    }

    /// A voice that [`acquire`](Self::acquire)d wave `wave_id` has ended.
    pub fn release(&mut self, wave_id: u32) {
        if let Some(e) = self.entries.get_mut(&wave_id) {
            e.users = e.users.saturating_sub(1);
        }
    }

    /// The loaded waves' sounds.
    pub fn sounds(&self) -> impl Iterator<Item = (u32, CachedWave)> + '_ {
        self.entries.iter().map(|(id, e)| (*id, e.wave))
    }

    /// The wave `wave_id` as a loaded mixer sound: from the cache, or read from `source`,
    /// decoded and loaded (making room first by unloading the least recently used waves no
    /// voice plays).
    ///
    /// # Errors
    /// [`CacheError`]; a permanent one ([`CacheError::is_permanent`]) is remembered and
    /// returned again without reading the wave.
    pub fn get<S: WaveSource>(
        &mut self,
        wave_id: u32,
        source: &mut S,
        handle: &mut MixerHandle,
    ) -> Result<CachedWave, CacheError> {
        self.clock += 1;
        if let Some(e) = self.entries.get_mut(&wave_id) {
            e.last_used = self.clock;
            self.stats.hits += 1;
            return Ok(e.wave);
        }
        if let Some(err) = self.failed.get(&wave_id) {
            self.stats.known_failures += 1;
            return Err(err.clone());
        }
        self.stats.misses += 1;
        match self.load(wave_id, source, handle) {
            Ok(w) => Ok(w),
            Err(e) => {
                if matches!(e, CacheError::Decode { .. }) {
                    self.stats.decode_failures += 1;
                }
                if matches!(e, CacheError::Full { .. }) {
                    self.stats.full += 1;
                }
                if e.is_permanent() {
                    self.failed.insert(wave_id, e.clone());
                }
                Err(e)
            }
        }
    }

    fn load<S: WaveSource>(
        &mut self,
        wave_id: u32,
        source: &mut S,
        handle: &mut MixerHandle,
    ) -> Result<CachedWave, CacheError> {
        let read = |e: S::Error| CacheError::Read {
            wave_id,
            source: Arc::new(e),
        };
        // The declared size first: a record over the cap is never read or inflated.
        if let Some(declared) = source.wave_size(wave_id).map_err(read)?
            && declared > self.cap as u64
        {
            return Err(CacheError::Declared {
                wave_id,
                declared,
                cap: self.cap,
            });
        }
        let wave = source
            .load_wave(wave_id)
            .map_err(read)?
            .ok_or(CacheError::Missing { wave_id })?;
        // Then the decoded length, from the header or the MP3 frame headers (counted, not
        // decoded): nothing over the cap is decoded.
        let frame_bytes = std::mem::size_of::<f32>();
        let frames = wave_frames(&wave, &self.limits)
            .map_err(|source| CacheError::Decode { wave_id, source })?;
        let too_large = |frames: usize| CacheError::TooLarge {
            wave_id,
            bytes: frames.saturating_mul(frame_bytes),
            cap: self.cap,
        };
        if frames.saturating_mul(frame_bytes) > self.cap {
            return Err(too_large(frames));
        }
        let decoded = decode_wave(&wave, &self.limits)
            .map_err(|source| CacheError::Decode { wave_id, source })?;
        drop(wave);
        let channels = decoded.channels;
        let data = decoded.into_sound_data();
        let frames = data.samples.len();
        let bytes = frames.saturating_mul(frame_bytes);
        if bytes > self.cap {
            return Err(too_large(frames));
        }
        while self.stats.bytes + bytes > self.cap {
            if !self.evict_one(handle)? {
                return Err(CacheError::Full {
                    wave_id,
                    needed: self.stats.bytes + bytes - self.cap,
                });
            }
        }
        let sound = match handle.load_sound(data.clone()) {
            Ok(id) => id,
            // The mixer's sound slots are full: unload our least recently used wave. Its slot
            // frees once the renderer hands the buffer back (asynchronously), so this request
            // fails unless it is already free; a later one finds the slot.
            Err(LoadSoundError::Full) if self.evict_one(handle)? => handle
                .load_sound(data.clone())
                .map_err(|source| CacheError::Load { wave_id, source })?,
            Err(source) => return Err(CacheError::Load { wave_id, source }),
        };
        let cached = CachedWave {
            sound,
            frames,
            sample_rate: data.sample_rate,
            channels,
            bytes,
        };
        self.entries.insert(
            wave_id,
            Entry {
                wave: cached,
                last_used: self.clock,
                users: 0,
            },
        );
        self.stats.bytes += bytes;
        self.stats.peak_bytes = self.stats.peak_bytes.max(self.stats.bytes);
        self.stats.entries = self.entries.len();
        Ok(cached)
    }

    /// Unloads the least recently used wave no voice plays; `Ok(false)` when there is none.
    fn evict_one(&mut self, handle: &mut MixerHandle) -> Result<bool, CacheError> {
        let victim = self
            .entries
            .iter()
            .filter(|(_, e)| e.users == 0)
            .min_by_key(|(id, e)| (e.last_used, **id))
            .map(|(id, e)| (*id, e.wave));
        let Some((id, wave)) = victim else {
            return Ok(false);
        };
        match handle.unload_sound(wave.sound) {
            // Already gone from the mixer (unloaded behind the cache's back): just forget it.
            Ok(()) | Err(UnloadSoundError::UnknownSound) => {}
            Err(e) => return Err(CacheError::Unload(e)),
        }
        self.entries.remove(&id);
        self.stats.bytes -= wave.bytes;
        self.stats.entries = self.entries.len();
        self.stats.evictions += 1;
        Ok(true)
    }

    /// Unloads every wave no voice plays (for example before the ambient runtime detaches);
    /// returns how many were unloaded.
    ///
    /// # Errors
    /// [`CacheError::Unload`] when the mixer's command ring is full (call again later).
    pub fn clear(&mut self, handle: &mut MixerHandle) -> Result<usize, CacheError> {
        let mut n = 0;
        while self.evict_one(handle)? {
            n += 1;
        }
        Ok(n)
    }
}
