//! What the renderer reports back (latest value, through a triple buffer).

/// Renderer counters, published after every `render` call.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MixerStatus {
    /// Frames rendered since the mixer was built.
    pub frames_rendered: u64,
    /// Voices playing (including fading and tail) at the end of the last render.
    pub active_voices: u32,
    /// Reverb slots that were processed (not idle) in the last block.
    pub busy_reverb_slots: u32,
    /// Times the master limiter engaged since the mixer was built.
    pub limiter_engagements: u64,
    /// Largest absolute output sample (after the limiter) since the mixer was built.
    pub peak: f32,
}
