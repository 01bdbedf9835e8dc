//! Fuzz target: `LandBlockInfo::from_bytes` never panics, and what it accepts writes back
//! unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use resound_datformat::record::LandBlockInfo;

fuzz_target!(|data: &[u8]| resound_datformat_fuzz::round_trip::<LandBlockInfo>(data));
