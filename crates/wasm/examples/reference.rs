//! Writes the native renders the WebAssembly build must equal, byte for byte, into `DIR`:
//! `DIR/NAME.f32` (interleaved stereo, little-endian `f32`) and `DIR/cases.json` naming each
//! case's inputs (the demo tour among them: `resound demo --seconds 12`'s samples, which the
//! native test `tests/tour.rs` holds equal to the tool's). `cargo xtask web-test` runs this, then the Node test and the browser test.
//!
//! ```sh
//! cargo run -p resound-wasm --example reference -- target/web-reference
//! ```

use std::path::PathBuf;

use resound_wasm::{
    Dats, EXAMPLE_WALK, Hearing, parse_mode, parse_walk, render_ambient_at, render_scene,
    render_tour, render_walk,
};

/// Why the full-hearing tour is reported, not failed, in Node: natively the tour is the demo's
/// render bit for bit (`tests/tour.rs`), and in retail hearing wasm32 matches it too, but in
/// full hearing wasm32 differs in the last bits from the shot behind the ridge on.
const TOUR_TODO: &str = "known: in full hearing wasm32 leaves x86-64 in the last bits from 2.95 s on (the shot behind the ridge); retail is byte-identical since the pan law uses libm, so the rest is the modern path, which still calls the platform's powf/exp (glibc natively, Rust's libm port on wasm32)";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).ok_or("usage: reference DIR")?);
    std::fs::create_dir_all(&dir)?;
    let dats = Dats::fixture();
    let walk = parse_walk(EXAMPLE_WALK)?;
    let at = "0xA9B40025:96,96,70";
    let cases = serde_json::json!([
        { "name": "ambient_at", "kind": "at", "at": at, "seconds": 10.0, "hearing": "retail" },
        { "name": "walk", "kind": "walk", "seconds": 30.0, "hearing": "retail" },
        { "name": "walk_full", "kind": "walk", "seconds": 10.0, "hearing": "full" },
        { "name": "scene_g_reflect", "kind": "scene", "scene": "G", "mode": "reflect", "seconds": 2.0 },
        { "name": "tour_retail", "kind": "tour", "seconds": 12.0, "hearing": "retail" },
        { "name": "tour_full", "kind": "tour", "seconds": 12.0, "hearing": "full", "todo": TOUR_TODO },
    ]);
    for case in cases.as_array().ok_or("cases")? {
        let text = |k: &str| case[k].as_str().unwrap_or_default().to_owned();
        let seconds = case["seconds"].as_f64().unwrap_or_default();
        let started = std::time::Instant::now();
        let samples = match text("kind").as_str() {
            "at" => render_ambient_at(
                &dats,
                &text("at"),
                seconds,
                Hearing::parse(&text("hearing"))?,
            )?,
            "walk" => render_walk(&dats, &walk, seconds, Hearing::parse(&text("hearing"))?)?,
            "tour" => render_tour(&dats, seconds, Hearing::parse(&text("hearing"))?)?,
            _ => render_scene(&text("scene"), parse_mode(&text("mode"))?, seconds)?,
        };
        let bytes: Vec<u8> = samples.iter().flat_map(|v| v.to_le_bytes()).collect();
        let path = dir.join(format!("{}.f32", text("name")));
        std::fs::write(&path, bytes)?;
        println!(
            "{}: {} frames in {:.2} s -> {}",
            text("name"),
            samples.len() / 2,
            started.elapsed().as_secs_f64(),
            path.display()
        );
    }
    std::fs::write(
        dir.join("cases.json"),
        serde_json::to_string_pretty(&cases)?,
    )?;
    Ok(())
}
