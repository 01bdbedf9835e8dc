//! The C ABI as C and Python see it: `tests/c/resound_test.c` built with the system `cc`
//! (`-Wall -Wextra -Werror`) against `include/resound.h` and the cdylib, run plain and under
//! valgrind (when installed), its stone-hall render and ambient events compared with the Rust
//! API's; `tests/python/resound_test.py` renders the same hall through `ctypes`; and `nm -D`
//! of the cdylib exports only `resound_` symbols.
//!
//! A missing `cc`, `python3`, `valgrind` or `nm` skips its part with a message (CI installs
//! valgrind; the others are on every machine the project builds on).

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failure is the test failing"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use resound_engine::advanced::ambient::glam::Vec3;
use resound_engine::advanced::ambient::{Outcome, Position};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::sound::AmbientSettings;
use resound_engine::terrain::ac_to_voxel;
use resound_engine::{Engine, Material, Mode, Orientation, Source, VoicePolicy};

const HALL_BLOCKS: usize = 12;
const HALL_BLOCK: usize = 2048;
const AMBIENT_UPDATES: usize = 300;
const AMBIENT_FRAME: usize = 800;

/// The folder holding `libresound_capi.so` (built by cargo with this test's dependencies).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for dir in [deps.parent().unwrap(), deps] {
        if dir.join(lib_name()).is_file() {
            return dir.to_path_buf();
        }
    }
    panic!("{} not found next to {}", lib_name(), exe.display());
}

fn lib_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "libresound_capi.dylib"
    } else {
        "libresound_capi.so"
    }
}

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// True when `tool --version` runs.
fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The test sound of the C and Python programs: 0.1 s of integer noise, 16-bit mono.
fn test_pcm() -> Vec<i16> {
    (0..4800usize)
        .map(|i| ((((i * 7919) % 2001) as i64 - 1000) * 16) as i16)
        .collect()
}

/// `pcm` as a 16-bit mono 48 kHz WAV file's bytes.
fn wav(pcm: &[i16]) -> Vec<u8> {
    let data: Vec<u8> = pcm.iter().flat_map(|s| s.to_le_bytes()).collect();
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    for v in [16u32, 0x0001_0001, 48_000, 96_000, 0x0010_0002] {
        w.extend_from_slice(&v.to_le_bytes());
    }
    w.extend_from_slice(b"data");
    w.extend_from_slice(&(data.len() as u32).to_le_bytes());
    w.extend_from_slice(&data);
    w
}

/// The stone hall through the Rust API, as the C and Python programs build it.
fn rust_hall() -> Vec<f32> {
    let mut e = Engine::builder().mode(Mode::Full).build().unwrap();
    let mut world = e.world();
    world
        .fill(IVec3::ZERO, IVec3::new(15, 7, 15), Material::STONE)
        .unwrap();
    world
        .fill(IVec3::ONE, IVec3::new(14, 6, 14), Material::AIR)
        .unwrap();
    e.set_listener(DVec3::new(4.5, 2.5, 4.5), Orientation::default())
        .unwrap();
    let sound = e.load_wav(&wav(&test_pcm())).unwrap();
    e.play(
        sound,
        Source {
            position: DVec3::new(11.5, 2.5, 10.5),
            looping: true,
            ..Source::default()
        },
    )
    .unwrap();
    let mut out = vec![0.0f32; HALL_BLOCKS * HALL_BLOCK * 2];
    for chunk in out.chunks_mut(HALL_BLOCK * 2) {
        e.update(HALL_BLOCK as f64 / 48_000.0).unwrap();
        e.render(chunk).unwrap();
    }
    out
}

/// Where the ambient run stands: the fixture's cottage spot, outdoors.
fn ambient_spot() -> DVec3 {
    ac_to_voxel(&Position::new(0xA9B4_0016, Vec3::new(60.0, 130.0, 10.0)))
}

/// One ambient event as the C program writes it: time, table, type, played, wave, dB, pan.
type Event = (f64, u32, u32, u32, u32, i32, i32);

/// The retail ambient over the fixture world through the Rust API.
fn rust_ambient(dats: &Path) -> (Vec<Event>, Vec<f32>) {
    let mut e = Engine::builder()
        .voice_policy(VoicePolicy::Retail16)
        .build()
        .unwrap();
    e.set_listener(ambient_spot(), Orientation::default())
        .unwrap();
    e.attach_ambient(dats, AmbientSettings::default()).unwrap();
    let mut events = Vec::new();
    let mut samples = vec![0.0f32; AMBIENT_UPDATES * AMBIENT_FRAME * 2];
    for chunk in samples.chunks_mut(AMBIENT_FRAME * 2) {
        e.update(1.0 / 60.0).unwrap();
        for ev in e.ambient_bridge().unwrap().last_events() {
            let (played, wave, db, pan) = match ev.outcome {
                Outcome::Play(v) => (1, v.wave_id.0, v.db, v.pan),
                Outcome::Drop(_) => (0, 0, 0, 0),
            };
            events.push((ev.time, ev.stb_id.0, ev.s_type, played, wave, db, pan));
        }
        e.render(chunk).unwrap();
    }
    (events, samples)
}

/// The C program's ambient file: events, then the samples.
fn read_ambient(bytes: &[u8]) -> (Vec<Event>, Vec<f32>) {
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut events = Vec::with_capacity(n);
    let mut o = 8;
    for _ in 0..n {
        let time = f64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
        events.push((
            time,
            u32_at(o + 8),
            u32_at(o + 12),
            u32_at(o + 16),
            u32_at(o + 20),
            u32_at(o + 24) as i32,
            u32_at(o + 28) as i32,
        ));
        o += 32;
    }
    (events, floats(&bytes[o..]))
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

fn bits(samples: &[f32]) -> Vec<u32> {
    samples.iter().map(|s| s.to_bits()).collect()
}

/// The fixture world written to a temporary DAT folder.
fn fixture_dats() -> tempfile::TempDir {
    let world = resound_fixture::write_world();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("client_portal.dat"), &world.portal).unwrap();
    std::fs::write(dir.path().join("client_cell_1.dat"), &world.cell).unwrap();
    dir
}

/// Builds the C test program into `dir`.
fn build_c(dir: &Path) -> PathBuf {
    let lib = lib_dir();
    let exe = dir.join("resound_test");
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-g", "-I"])
        .arg(crate_dir().join("include"))
        .arg(crate_dir().join("tests/c/resound_test.c"))
        .arg("-L")
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .args(["-lresound_capi", "-lm", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// The C program's arguments: dats, outputs, the ambient spot.
fn c_args(dats: &Path, dir: &Path) -> Vec<String> {
    let p = ambient_spot();
    vec![
        dats.display().to_string(),
        dir.join("hall.f32").display().to_string(),
        dir.join("ambient.bin").display().to_string(),
        format!("{:.17e}", p.x),
        format!("{:.17e}", p.y),
        format!("{:.17e}", p.z),
    ]
}

#[test]
fn the_c_program_matches_the_rust_api_and_walks_the_error_paths() {
    if !have("cc") {
        eprintln!("SKIPPED: no `cc` on this machine: the C test did not run");
        return;
    }
    let dats = fixture_dats();
    let dir = tempfile::tempdir().unwrap();
    let exe = build_c(dir.path());
    let out = Command::new(&exe)
        .args(c_args(dats.path(), dir.path()))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(out.status.success(), "C test failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");

    let c_hall = floats(&std::fs::read(dir.path().join("hall.f32")).unwrap());
    let hall = rust_hall();
    assert!(
        hall.iter().any(|s| s.abs() > 0.01),
        "the Rust hall is silent"
    );
    assert_eq!(c_hall.len(), hall.len());
    assert!(
        bits(&c_hall) == bits(&hall),
        "the C and Rust hall renders differ"
    );

    let (c_events, c_samples) =
        read_ambient(&std::fs::read(dir.path().join("ambient.bin")).unwrap());
    let (events, samples) = rust_ambient(dats.path());
    assert!(
        events.iter().filter(|e| e.3 == 1).count() >= 2,
        "the Rust ambient run played {events:?}"
    );
    assert_eq!(c_events, events, "the C and Rust ambient events differ");
    assert!(
        bits(&c_samples) == bits(&samples),
        "the C and Rust ambient renders differ"
    );
}

#[test]
fn the_c_program_runs_clean_under_valgrind() {
    if !have("cc") || !have("valgrind") {
        eprintln!("SKIPPED: no `cc` or `valgrind` here: the memcheck run did not happen");
        return;
    }
    let dats = fixture_dats();
    let dir = tempfile::tempdir().unwrap();
    let exe = build_c(dir.path());
    let out = Command::new("valgrind")
        .args([
            "--tool=memcheck",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite",
            "--error-exitcode=99",
        ])
        .arg(&exe)
        .args(c_args(dats.path(), dir.path()))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("ERROR SUMMARY") || l.contains("definitely lost"))
        .collect();
    println!("{}", summary.join("\n"));
    assert!(out.status.success(), "under valgrind:\n{stdout}\n{stderr}");
    assert!(stderr.contains("ERROR SUMMARY: 0 errors"), "{stderr}");
    assert!(
        !stderr.contains("definitely lost:") || stderr.contains("definitely lost: 0 bytes"),
        "{stderr}"
    );
}

#[test]
fn python_ctypes_renders_the_same_hall() {
    if !have("python3") {
        eprintln!("SKIPPED: no `python3` here: the ctypes test did not run");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("hall.f32");
    let out = Command::new("python3")
        .arg(crate_dir().join("tests/python/resound_test.py"))
        .arg(lib_dir().join(lib_name()))
        .arg(&out_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "python test failed:\n{stdout}\n{stderr}"
    );
    let py = floats(&std::fs::read(&out_path).unwrap());
    let hall = rust_hall();
    assert!(
        bits(&py) == bits(&hall),
        "the Python and Rust hall renders differ"
    );
}

#[test]
fn the_cdylib_exports_only_resound_symbols() {
    if !have("nm") {
        eprintln!("SKIPPED: no `nm` here: the export check did not run");
        return;
    }
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib_dir().join(lib_name()))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    assert!(names.contains(&"resound_engine_create"), "{text}");
    assert!(names.len() > 30, "{names:?}");
    let others: Vec<&&str> = names
        .iter()
        .filter(|n| !n.starts_with("resound_"))
        .collect();
    assert!(others.is_empty(), "exported beyond resound_: {others:?}");
}

/// Memory f32 PCM through the C ABI (wrapped as a float WAV) gives the samples the Rust API's
/// `load_mono` gives, bit for bit.
#[test]
fn memory_pcm_through_the_c_abi_sounds_like_load_mono() {
    use resound_capi::*;
    let mut engine: ResoundEngine = 0;
    assert_eq!(
        resound_engine_create(std::ptr::null(), &mut engine),
        ResoundResult::Ok
    );
    let pcm: Vec<f32> = (0..4800)
        .map(|i| if i % 480 == 0 { 0.5 } else { 0.0 })
        .collect();
    let mut sound: ResoundSound = 0;
    assert_eq!(
        resound_load_pcm_f32(engine, pcm.as_ptr(), pcm.len(), 1, 48_000, &mut sound),
        ResoundResult::Ok
    );
    let mut voice: ResoundVoice = 0;
    assert_eq!(
        resound_play(engine, sound, std::ptr::null(), &mut voice),
        ResoundResult::Ok
    );
    let mut c_out = vec![0.0f32; 2 * 4800];
    assert_eq!(
        resound_render(engine, c_out.as_mut_ptr(), c_out.len()),
        ResoundResult::Ok
    );
    assert_eq!(resound_engine_destroy(engine), ResoundResult::Ok);

    let mut e = Engine::builder().build().unwrap();
    let s = e.load_mono(Arc::from(pcm), 48_000).unwrap();
    e.play(s, Source::default()).unwrap();
    let mut out = vec![0.0f32; 2 * 4800];
    e.render(&mut out).unwrap();
    assert!(out.iter().any(|s| *s != 0.0));
    assert!(
        bits(&c_out) == bits(&out),
        "f32 PCM through a WAV differs from load_mono"
    );
}

/// The C example of the README's "From C, C# and Python" section compiles with
/// `-Wall -Wextra -Werror` and runs.
#[test]
fn the_readme_c_example_compiles_and_runs() {
    if !have("cc") {
        eprintln!("SKIPPED: no `cc` here: the README example was not built");
        return;
    }
    let readme = std::fs::read_to_string(crate_dir().join("../../README.md")).unwrap();
    let section = readme
        .split("## From C, C# and Python")
        .nth(1)
        .expect("the README has the section");
    let code = section
        .split("```c\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the section has a C block");
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("app.c");
    std::fs::write(&src, code).unwrap();
    let exe = dir.path().join("app");
    let lib = lib_dir();
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .arg(&src)
        .arg("-L")
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .args(["-lresound_capi", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cc failed on the README example:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(
        run.status.success(),
        "the README example failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}
