//! Fuzz target: opening, walking and reading a dat never panics, and every payload it reads
//! survives a rewrite into a fresh dat.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| resound_datformat_fuzz::read_dat(data));
