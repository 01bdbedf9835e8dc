//! Sound loading and the ambient bridge: everything between sound bytes or the portal dat and
//! the mixer's loaded sounds.
//!
//! | module | holds |
//! |---|---|
//! | [`decode`] | WAV / DAT `Wave` / MP3 bytes → [`DecodedSound`], typed [`DecodeError`] |
//! | [`cache`] | [`WaveCache`]: Wave id → loaded mixer sound, byte cap, LRU unloading |
//! | [`ambient_bridge`] | [`AmbientBridge`]: runs `resound-ambient` in the retail frame order and turns its events into [`AmbientPlay`]s |

pub mod ambient_bridge;
pub mod cache;
pub mod decode;

pub use ambient_bridge::{
    AmbientBridge, AmbientCounters, AmbientPlay, AmbientPolicy, AmbientSettings, AmbientTickError,
    AttachError, BoxedCells, BoxedPortal, CELL_DAT, DEFAULT_REGION_ID, DropCounts, ListenerPose,
    PORTAL_DAT, PortalPair, SourceError, open_dat,
};
pub use cache::{
    CacheError, CacheStats, CachedWave, DEFAULT_CACHE_BYTES, MemoryWaves, WaveCache, WaveSource,
};
pub use decode::{
    DEFAULT_MAX_FRAMES, DecodeError, DecodeLimits, DecodedSound, MAX_CHANNELS, decode_mp3,
    decode_wav, decode_wave, mp3_frames, wave_frames,
};
