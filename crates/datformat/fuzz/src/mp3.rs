//! The engine's MP3 frame count (`mp3_frames`), which bounds memory before any frame is
//! decoded: on any bytes neither it nor the decoder panics, and when both succeed the count is
//! never below the frames the decoder produced.

use resound_engine::sound::{DecodeLimits, decode_mp3, mp3_frames};

/// A small frame cap, so a fuzzer input cannot make one run decode for long.
const MAX_FRAMES: usize = 1 << 20;

/// Counts and decodes `data` as an MPEG audio stream and checks the count bounds the decode.
pub fn count_bounds_decode(data: &[u8]) {
    let limits = DecodeLimits {
        max_frames: MAX_FRAMES,
    };
    let counted = mp3_frames(data, &limits);
    let decoded = decode_mp3(data, &limits);
    if let (Ok(n), Ok(sound)) = (&counted, &decoded) {
        assert!(
            sound.frames() <= *n,
            "{} frames decoded, {n} counted",
            sound.frames()
        );
    }
    if let Ok(sound) = &decoded {
        assert!(
            sound.frames() <= MAX_FRAMES,
            "the decode passed its frame cap"
        );
    }
}
