//! Typed errors, one enum per operation. None of them allocates.

/// Which check a parameter failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamProblem {
    /// NaN or infinite.
    NotFinite,
    /// Finite but outside the documented range.
    OutOfRange,
}

/// A rejected parameter value: which field and why. It never reaches the renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("parameter `{field}` is {problem:?}")]
pub struct ParamError {
    /// Name of the field (`"volume"`, `"sends[2]"`, `"taps[1].delay"`…).
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: ParamProblem,
}

/// Building a mixer failed: a setting is out of range.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The sample rate is outside 8 kHz–384 kHz.
    #[error("sample rate {0} Hz is outside 8000..=384000")]
    SampleRate(u32),
    /// `max_block` is zero or above [`MAX_BLOCK_LIMIT`](crate::MAX_BLOCK_LIMIT).
    #[error("max_block {0} is outside 1..=16384")]
    MaxBlock(usize),
    /// A capacity is zero (where not allowed) or above [`CAPACITY_LIMIT`](crate::CAPACITY_LIMIT).
    #[error("capacity `{name}` = {value} is out of range")]
    Capacity {
        /// The capacity's field name.
        name: &'static str,
        /// The rejected value.
        value: usize,
    },
    /// The stop fade is not a finite number of seconds in 0..=1.
    #[error("stop fade must be finite and within 0..=1 s")]
    StopFade,
    /// Binaural output was asked for without an HRIR bank (use `build_with_hrtf`).
    #[error("binaural output needs an HRIR set")]
    NoHrtf,
    /// The HRIR bank is not at the mix rate.
    #[error("HRIR set is at {bank} Hz, the mix at {mix} Hz")]
    HrtfRate {
        /// The bank's rate.
        bank: f32,
        /// The mixer's rate.
        mix: u32,
    },
}

/// Loading a sound failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadSoundError {
    /// Every sound slot is in use (`Capacities::sounds`).
    #[error("sound capacity reached")]
    Full,
    /// The sample buffer is empty.
    #[error("sound has no samples")]
    Empty,
    /// The buffer is longer than 2³¹ frames.
    #[error("sound is too long")]
    TooLong,
    /// The sample rate is outside 1 Hz–384 kHz.
    #[error("sound sample rate {0} Hz is out of range")]
    SampleRate(u32),
    /// A sample is NaN or infinite.
    #[error("sample {index} is not finite")]
    NonFiniteSample {
        /// Index of the first bad sample.
        index: usize,
    },
    /// A sample's magnitude exceeds [`MAX_SAMPLE_MAGNITUDE`](crate::MAX_SAMPLE_MAGNITUDE).
    #[error("sample {index} exceeds the accepted magnitude")]
    SampleTooLarge {
        /// Index of the first bad sample.
        index: usize,
    },
    /// A stereo sound's channels differ in length from each other or from its mono signal.
    #[error("stereo channels differ in length")]
    ChannelLengths,
    /// The command ring is full; call again after the renderer has run.
    #[error("command queue full")]
    CommandQueueFull,
}

/// Unloading a sound failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UnloadSoundError {
    /// The id is not a loaded sound (never loaded, or already unloaded).
    #[error("unknown sound")]
    UnknownSound,
    /// The command ring is full; call again after the renderer has run.
    #[error("command queue full")]
    CommandQueueFull,
}

/// Starting a voice failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// Every voice slot is in use (`Capacities::voices`).
    #[error("voice capacity reached")]
    Full,
    /// The sound id is not loaded (or is being unloaded).
    #[error("unknown sound")]
    UnknownSound,
    /// A parameter is NaN, infinite or out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The command ring is full; call again after the renderer has run.
    #[error("command queue full")]
    CommandQueueFull,
    /// The track index is not below [`TRACKS`](crate::TRACKS).
    #[error("unknown track")]
    UnknownTrack,
}

/// Changing a playing voice failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UpdateError {
    /// The voice has ended (or the id was never valid).
    #[error("unknown voice")]
    UnknownVoice,
    /// A parameter is NaN, infinite or out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// Every tap set is in use (`Capacities::tap_sets`).
    #[error("tap set capacity reached")]
    TapSetsFull,
    /// Taps were given to a looping voice (only one-shots take echo taps).
    #[error("looping voices take no echo taps")]
    LoopingVoice,
    /// The command ring is full; call again after the renderer has run.
    #[error("command queue full")]
    CommandQueueFull,
    /// The track index is not below [`TRACKS`](crate::TRACKS).
    #[error("unknown track")]
    UnknownTrack,
}

/// Stopping voices failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StopError {
    /// The voice has ended (or the id was never valid).
    #[error("unknown voice")]
    UnknownVoice,
    /// The command ring is full; call again after the renderer has run.
    #[error("command queue full")]
    CommandQueueFull,
}
