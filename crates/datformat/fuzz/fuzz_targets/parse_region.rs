//! Fuzz target: `Region::from_bytes` never panics, and what it accepts writes back unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use resound_datformat::record::Region;

fuzz_target!(|data: &[u8]| resound_datformat_fuzz::round_trip::<Region>(data));
