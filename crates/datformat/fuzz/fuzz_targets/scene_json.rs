//! Fuzz target (structure-aware): a scene built from the fuzzer's bytes goes through JSON and
//! `Scene::from_json` unchanged when valid (a typed error otherwise).
#![no_main]

use libfuzzer_sys::fuzz_target;
use resound_datformat_fuzz::scene;

fuzz_target!(|data: &[u8]| {
    let mut u = arbitrary::Unstructured::new(data);
    if let Ok(s) = scene::build(&mut u) {
        scene::round_trip(&s);
    }
});
