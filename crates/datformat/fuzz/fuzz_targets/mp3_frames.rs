//! Fuzz target: the engine's MP3 frame count never panics and bounds what the decoder gives.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| resound_datformat_fuzz::mp3::count_bounds_decode(data));
