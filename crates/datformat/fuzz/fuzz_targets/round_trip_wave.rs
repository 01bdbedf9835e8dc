//! Fuzz target (structure-aware): a `Wave` built from the fuzzer's bytes through `arbitrary`
//! writes, reads back equal, and writes the same bytes again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use resound_datformat_fuzz::structured;

fuzz_target!(|data: &[u8]| {
    let mut u = arbitrary::Unstructured::new(data);
    if let Ok(record) = structured::wave(&mut u) {
        structured::write_read_eq(&record);
    }
});
