//! Hostile input at the CLI, the memory half (issue 37): renders over 4 GiB stream as RF64,
//! walk renders stream and stop at once on SIGINT, scene fields nobody reads are never built,
//! a slab of voxels over the cap is refused naming it, and `--dat-dir` dats are read through
//! the handles that were checked.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::bad_input::fails_with_one_line;
use crate::hostile::{
    GUARD, WALK, interrupt_once_the_part_grows, refused, run, s, scene_file, world,
};

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn le64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

#[test]
fn a_render_over_4_gib_streams_as_rf64() {
    // 3600 s at 384 kHz, stereo f32: 11 059 200 000 bytes of samples.
    let mut child = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(["render", "G", "--seconds", "3600", "--rate", "384000"])
        .args(["--out", "-"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut head = vec![0u8; 1 << 20];
    let started = Instant::now();
    let read = child.stdout.take().unwrap().read_exact(&mut head);
    let _ = child.kill();
    let _ = child.wait();
    read.unwrap();
    assert!(started.elapsed() < GUARD);
    assert_eq!(&head[..4], b"RF64");
    assert_eq!(le32(&head, 4), u32::MAX);
    assert_eq!(&head[8..16], b"WAVEds64");
    let data = 3600 * 384_000 * 8;
    assert_eq!(le64(&head, 28), data);
    assert_eq!(le64(&head, 36), 3600 * 384_000);
    let at = (48..head.len() - 8)
        .find(|&i| &head[i..i + 4] == b"data")
        .unwrap();
    assert_eq!(le32(&head, at + 4), u32::MAX);
    // RIFF size: the header after its first 8 bytes, and the samples
    assert_eq!(le64(&head, 20), (at + 8 - 8) as u64 + data);
    // the render's first samples follow: a click is not silence
    assert!(head[at + 8..].iter().any(|&b| b != 0));
}

#[test]
fn sigint_stops_a_walk_render_at_once_and_leaves_nothing() {
    let w = world();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("walk.wav");
    std::fs::write(&target, b"old").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(["ambient", "--dat-dir", s(w.path()), "--walk", WALK])
        .args(["--seconds", "600", "--out", s(&target)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // streamed: the temporary file grows while the walk renders
    let grew = interrupt_once_the_part_grows(&child, dir.path());
    let interrupted = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(grew, "the walk's WAV did not grow while it rendered");
    assert!(interrupted.elapsed() < Duration::from_secs(5));
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim_end(),
        format!("error: interrupted: {} was not written", target.display())
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_walk_render_is_a_valid_wav_of_its_length() {
    let w = world();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("walk.wav");
    let out = run(&[
        "ambient",
        "--dat-dir",
        s(w.path()),
        "--walk",
        WALK,
        "--seconds",
        "2",
        "--out",
        s(&target),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&target).unwrap();
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(le32(&bytes, 4) as usize + 8, bytes.len());
    let r = hound::WavReader::new(std::io::Cursor::new(&bytes)).unwrap();
    assert_eq!(r.spec().channels, 2);
    // 2 s of a 30-frame-per-second walk at 48 kHz: 60 walk frames of 1600 frames
    assert_eq!(r.duration(), 96_000);
}

#[test]
fn an_unread_expected_field_is_skimmed_not_built() {
    let dir = tempfile::tempdir().unwrap();
    // 8 MB of numbers nobody reads, between fields that are read
    let numbers = vec!["1.5"; 2_000_000].join(",");
    let text = format!(
        "{{\"name\": \"big\", \"expected\": {{\"a\": [{numbers}],\n \"b\": \"}}\"}},\n \"boxes\": [], \"source\": [0,0,0], \"listener\": [4,0,0]}}"
    );
    let path = scene_file(dir.path(), "big.json", &text);
    let out = run(&["acoustics", "--scene", s(&path)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("scene big:")
    );
    // a type error after the blanked field still names its line
    let bad = text.replace("\"listener\": [4,0,0]", "\"listener\": 4");
    let path = scene_file(dir.path(), "bad.json", &bad);
    let out = run(&["acoustics", "--scene", s(&path)]);
    fails_with_one_line(&out, "at line 3");
}

#[test]
fn a_thin_slab_shares_its_cells_and_stacked_slabs_over_the_cap_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    // One stone slab one cell thick across 256 × 256 sections: the store shares one array
    // among the sections it cuts alike (512 MiB before), so it renders in a few MiB.
    let slab = r#"{"name": "slab", "boxes": [{"min": [0, 0, 0], "max": [4095, 0, 4095], "material": "stone"}], "source": [0,2,0], "listener": [4,2,0]}"#;
    let path = scene_file(dir.path(), "slab.json", slab);
    let wav = dir.path().join("slab.wav");
    let (code, mib) = peak_mib(&["render", s(&path), "--out", s(&wav)]);
    assert_eq!(code, 0);
    assert!(mib < 64, "slab render peaked at {mib} MiB");
    assert!(wav.exists());
    // A second slab over the first cuts the same sections again: each would be copied
    // (65 536 arrays, 512 MiB), which the scene's cut-section cap refuses before building.
    let stacked = r#"{"name": "slabs", "boxes": [{"min": [0, 0, 0], "max": [4095, 0, 4095], "material": "stone"}, {"min": [0, 1, 0], "max": [4095, 1, 4095], "material": "wood"}], "source": [0,4,0], "listener": [4,4,0]}"#;
    let path = scene_file(dir.path(), "slabs.json", stacked);
    let wav = dir.path().join("x.wav");
    let line = "boxes cut 131072 sections in part, more than 65536 (the scene's cut-section cap)";
    for out in [
        run(&["render", s(&path), "--out", s(&wav)]),
        run(&["acoustics", "--scene", s(&path)]),
    ] {
        fails_with_one_line(&out, line);
    }
    assert!(!wav.exists());
}

#[test]
fn a_dat_dir_is_read_through_the_handles_that_were_checked() {
    let w = world();
    let missing = tempfile::tempdir().unwrap();
    std::fs::copy(
        w.path().join("client_cell_1.dat"),
        missing.path().join("client_cell_1.dat"),
    )
    .unwrap();
    let portal = missing.path().join("client_portal.dat");
    refused(
        &run(&[
            "ambient",
            "--dat-dir",
            s(missing.path()),
            "--at",
            "0xA9B40025:100,100,72",
        ]),
        &format!(
            "error: cannot open {}: No such file or directory (os error 2)",
            portal.display()
        ),
    );
    // a walk rendered through the pinned folder is the walk rendered from the folder itself
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.wav");
    let out = run(&[
        "ambient",
        "--dat-dir",
        s(w.path()),
        "--walk",
        WALK,
        "--seconds",
        "1",
        "--policy",
        "modern",
        "--out",
        s(&a),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&a).unwrap();
    let r = hound::WavReader::new(std::io::Cursor::new(&bytes)).unwrap();
    assert_eq!(r.duration(), 48_000);
}

/// Runs `resound ARGS…` and returns its exit code and its peak resident memory in MiB, the
/// largest `VmHWM` read from `/proc/PID/status` while it runs (every 2 ms; `wait4`'s
/// `ru_maxrss` would not do: a child spawned with `CLONE_VM` inherits the test process's own
/// high-water mark at `exec`).
fn peak_mib(args: &[&str]) -> (i32, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let started = Instant::now();
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_path)
            && let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kib = line
                .split_whitespace()
                .nth(1)
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < GUARD * 3, "resound {args:?} hung");
        std::thread::sleep(Duration::from_millis(2));
    };
    (status.code().unwrap_or(-1), peak_kib >> 10)
}

/// `into/P`: the fixture world `fx` with its LandBlock 0xA9B4FFFF followed by 128 MiB of
/// zeros, zlib-compressed (a 150 KB cell dat).
fn padded_world(fx: &std::path::Path, into: &std::path::Path) -> std::path::PathBuf {
    use resound_datformat::container::{DatReader, DatWriter, EntryOptions};

    let padded = into.join("P");
    std::fs::create_dir(&padded).unwrap();
    std::fs::copy(
        fx.join("client_portal.dat"),
        padded.join("client_portal.dat"),
    )
    .unwrap();
    let cell = std::fs::read(fx.join("client_cell_1.dat")).unwrap();
    let mut payload = DatReader::new(std::io::Cursor::new(&cell))
        .unwrap()
        .read(0xA9B4_FFFF)
        .unwrap()
        .unwrap();
    payload.resize(payload.len() + (128 << 20), 0);
    let mut writer = DatWriter::from_bytes(cell).unwrap();
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    writer.insert(0xA9B4_FFFF, &payload, options).unwrap();
    drop(payload);
    let bytes = writer.finish();
    assert!(bytes.len() < 200_000, "{}", bytes.len());
    std::fs::write(padded.join("client_cell_1.dat"), bytes).unwrap();
    padded
}

#[test]
fn the_runtime_and_the_terrain_read_a_padded_land_block_at_its_own_cost() {
    let w = world();
    let dir = tempfile::tempdir().unwrap();
    let padded = padded_world(w.path(), dir.path());
    // the ambient runtime's landblocks (DatSource)
    let (code, mib) = peak_mib(&[
        "ambient",
        "--dat-dir",
        s(&padded),
        "--at",
        "0xA9B40025:100,100,72",
    ]);
    assert_eq!(code, 0);
    assert!(mib < 64, "ambient --dat-dir P: {mib} MiB");
    // the engine's terrain (the same source, through attach_terrain)
    let (code, mib) = peak_mib(&[
        "acoustics",
        "--dat-dir",
        s(&padded),
        "--listener",
        "0xA9B40025:100,100,72",
        "--source",
        "0xA9B40025:110,100,72",
    ]);
    assert_eq!(code, 0);
    assert!(mib < 64, "acoustics --dat-dir P: {mib} MiB");
}

#[test]
fn waves_declaring_more_than_the_wave_cache_are_skipped_unread() {
    use resound_datformat::container::{DatReader, DatWriter, EntryOptions};
    use resound_datformat::record::{Record, Wave};

    let w = world();
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("W");
    std::fs::create_dir(&big).unwrap();
    std::fs::copy(
        w.path().join("client_cell_1.dat"),
        big.join("client_cell_1.dat"),
    )
    .unwrap();
    // Every Wave replaced by one declaring 2^25 frames of 16-bit silence (64 MiB and a
    // header: just over the 64 MiB wave cache), each a small compressed entry.
    let portal = std::fs::read(w.path().join("client_portal.dat")).unwrap();
    let ids: Vec<u32> = DatReader::new(std::io::Cursor::new(&portal))
        .unwrap()
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .filter(|id| id >> 24 == 0x0A)
        .collect();
    let mut writer = DatWriter::from_bytes(portal).unwrap();
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    let mut wave = Wave {
        id: 0,
        header: resound_fixture::wave_format_ex(1, 22_050, 16).to_vec(),
        data: vec![0; 2 << 25],
    };
    for &id in &ids {
        wave.id = id;
        writer
            .insert(id, &wave.to_bytes().unwrap(), options)
            .unwrap();
    }
    drop(wave);
    let bytes = writer.finish();
    assert!(bytes.len() < 4 << 20, "{}", bytes.len());
    std::fs::write(big.join("client_portal.dat"), bytes).unwrap();
    let walk = dir.path().join("walk.wav");
    let (code, mib) = peak_mib(&[
        "ambient",
        "--dat-dir",
        s(&big),
        "--walk",
        WALK,
        "--seconds",
        "30",
        "--out",
        s(&walk),
    ]);
    assert_eq!(code, 0);
    assert!(mib < 64, "ambient --walk over 64 MiB Waves: {mib} MiB");
    // the skips are counted, as Waves that cannot be used
    let out = run(&[
        "ambient",
        "--dat-dir",
        s(&big),
        "--walk",
        WALK,
        "--seconds",
        "30",
        "--out",
        s(&walk),
        "--json",
    ]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed = doc
        .pointer("/ambient/dropped_by_reason/decode_failed")
        .and_then(|v| v.as_u64());
    assert!(failed.is_some_and(|n| n > 0), "{doc}");
}

#[test]
fn the_demo_tour_streams_its_render() {
    let dir = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for seconds in ["5", "60"] {
        let out = dir.path().join(seconds);
        let (code, mib) = peak_mib(&[
            "demo",
            "--retail",
            "--no-play",
            "--seconds",
            seconds,
            "--out",
            s(&out),
        ]);
        assert_eq!(code, 0);
        let wav = std::fs::metadata(out.join("demo.wav")).unwrap().len();
        let frames = seconds.parse::<u64>().unwrap() * 48_000;
        assert!((44..=100).contains(&(wav - frames * 8)), "{wav}");
        peaks.push(mib);
    }
    // 55 s more is 21 MB more of f32 stereo: none of it is held
    assert!(
        peaks[1] < peaks[0] + 8,
        "5 s: {} MiB, 60 s: {} MiB",
        peaks[0],
        peaks[1]
    );
}

#[test]
fn memory_follows_what_is_used_not_what_is_declared() {
    let w = world();
    let dir = tempfile::tempdir().unwrap();
    let padded = padded_world(w.path(), dir.path());
    let (code, mib) = peak_mib(&["dat", "check", s(&padded)]);
    assert_eq!(code, 0);
    assert!(mib < 64, "dat check: {mib} MiB");
    let cell_dat = padded.join("client_cell_1.dat");
    let dump = ["dat", "dump", s(&cell_dat), "0xA9B4FFFF"];
    let (code, mib) = peak_mib(&dump);
    assert_eq!(code, 0);
    assert!(mib < 64, "dat dump: {mib} MiB");
    let text = String::from_utf8(run(&dump).stdout).unwrap();
    assert!(text.contains("134217728"), "the padding is counted: {text}");
    // a scene with 16 MB of numbers nobody reads
    let numbers = vec!["0.123456"; 1_800_000].join(",");
    let g = scene_g();
    let text = format!(
        "{}, \"expected\": [{numbers}]}}",
        &g[..g.rfind('}').unwrap()]
    );
    let path = scene_file(dir.path(), "big.json", &text);
    let (code, mib) = peak_mib(&["acoustics", "--scene", s(&path)]);
    assert_eq!(code, 0);
    assert!(mib < 64 + 2 * 16, "acoustics --scene: {mib} MiB");
    // 300 s of a walk (110 MB of f32 samples) streams to its file
    let out = dir.path().join("walk.wav");
    let (code, mib) = peak_mib(&[
        "ambient",
        "--dat-dir",
        s(w.path()),
        "--walk",
        WALK,
        "--seconds",
        "300",
        "--out",
        s(&out),
    ]);
    assert_eq!(code, 0);
    let header = std::fs::metadata(&out).unwrap().len() - 300 * 48_000 * 8;
    assert!((44..=100).contains(&header), "{header}");
    assert!(mib < 64, "ambient --walk --out: {mib} MiB");
}

/// The built-in scene G's text, without its `expected` field.
fn scene_g() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/acoustics-core/scenes/G.json"
    );
    let mut g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    g.as_object_mut().unwrap().remove("expected");
    g.to_string()
}

#[test]
fn a_wave_declaring_more_than_the_export_cap_is_refused_before_it_inflates() {
    use resound_datformat::container::{DatReader, DatWriter, EntryOptions};

    let w = world();
    let portal = std::fs::read(w.path().join("client_portal.dat")).unwrap();
    let mut payload = DatReader::new(std::io::Cursor::new(&portal))
        .unwrap()
        .read(0x0A00_0121)
        .unwrap()
        .unwrap();
    let declared = payload.len() + (65 << 20);
    payload.resize(declared, 0);
    let mut writer = DatWriter::from_bytes(portal).unwrap();
    let options = EntryOptions {
        compress: true,
        ..EntryOptions::default()
    };
    writer.insert(0x0A00_0121, &payload, options).unwrap();
    drop(payload);
    let dir = tempfile::tempdir().unwrap();
    let dat = dir.path().join("p.dat");
    std::fs::write(&dat, writer.finish()).unwrap();
    let wav = dir.path().join("w.wav");
    refused(
        &run(&["dat", "wave", s(&dat), "0x0A000121", s(&wav)]),
        &format!(
            "error: 0x0A000121 declares {declared} bytes, more than 64 MiB (the wave-export cap)"
        ),
    );
    assert!(!wav.exists());
}
