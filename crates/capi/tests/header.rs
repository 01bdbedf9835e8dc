//! The checked-in `include/resound.h` is what cbindgen makes of the sources today.
//! `RESOUND_BLESS=1 cargo test -p resound-capi --test header` rewrites it.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failure is the test failing"
)]

use std::path::Path;

/// A fresh generation of the header from `src/lib.rs` and `cbindgen.toml`.
fn generate() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/lib.rs"))
        .generate()
        .unwrap();
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn the_checked_in_header_is_a_fresh_generation() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/resound.h");
    let fresh = generate();
    if std::env::var_os("RESOUND_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "crates/capi/include/resound.h differs from a fresh cbindgen generation: run \
         `RESOUND_BLESS=1 cargo test -p resound-capi --test header` and commit it"
    );
}

#[test]
fn the_header_declares_every_function_and_the_codes() {
    let h = generate();
    for item in [
        "ResoundResult resound_engine_create(const ResoundSettings *settings, ResoundEngine *out);",
        "const char *resound_last_error(void);",
        "RESOUND_RESULT_VOICE_ENDED = 9,",
        "RESOUND_MODE_FULL = 3,",
        "#define RESOUND_ABI_VERSION 1",
        "typedef uint64_t ResoundVoice;",
    ] {
        assert!(h.contains(item), "missing `{item}` in\n{h}");
    }
}
