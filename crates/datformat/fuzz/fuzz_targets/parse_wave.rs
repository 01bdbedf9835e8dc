//! Fuzz target: `Wave::from_bytes` never panics, and what it accepts writes back unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use resound_datformat::record::Wave;

fuzz_target!(|data: &[u8]| resound_datformat_fuzz::round_trip::<Wave>(data));
