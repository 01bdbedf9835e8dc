//! Fuzz target: any text given to `Scene::from_json` is a scene or a typed error, never a
//! panic; a scene that parses builds its world.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| resound_datformat_fuzz::scene::text(data));
