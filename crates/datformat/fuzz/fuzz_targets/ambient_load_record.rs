//! Fuzz target: the ambient runtime's trimmed record loads (`DatSource::load_record`) give what
//! the whole payload's parse gives, and never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| resound_datformat_fuzz::ambient::load_records(data));
