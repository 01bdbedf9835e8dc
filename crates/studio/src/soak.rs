//! `resound soak [--seconds S] [--voices N] [--out DIR] [--seed X]`: the engine under churn,
//! offline (issue 15).
//!
//! Simulated time, rendered by the real engine at 48 kHz with the render clock (one acoustic
//! tick per 50 ms): up to `N` voices (256) start and stop at random (seeded), a quarter of them
//! move every tick, volumes change, the listener walks, the world is edited every tick (a cell
//! toggled, a box filled or cleared, every 10 s the whole world replaced) and the mode cycles
//! Off → Direct → Reflect → Full every 5 s (runs under 2 minutes: every 2 s, the world replaced
//! every 4 s). The engine has the live budgets ([`Budgets::live`]).
//!
//! It checks, and fails otherwise:
//! - every output sample is finite;
//! - resident memory (`/proc/self/statm`) after the warm-up (the first 20 % of the run, at
//!   least two mode cycles — four world replacements — and 2 s) stays within 5 % of its value
//!   at the end of the warm-up;
//! - the output hash is the same in a second run with the same seed (the second run covers
//!   the whole soak up to 60 s, and the first 60 s of a longer one).
//!
//! It writes `soak_memory.png` (resident memory over simulated time) and `soak.json` into
//! `--out` (default `target/soak`). The default length is 600 s; `cargo xtask test` runs 30 s.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::test_signal as signal;
use anyhow::{Context, anyhow, bail};
use plotters::prelude::*;
use resound_engine::advanced::acoustics::{Absent, Cell, MaterialTable, WorldStore};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Budgets, Engine, Mode, Orientation, SoundHandle, Source, VoiceHandle};

/// Output sample rate.
const RATE: u32 = 48_000;
/// Seconds between mode switches in a run of at least 2 minutes (2 s in a shorter one).
const MODE_EVERY_S: u64 = 5;
/// Share of the run before memory must be flat (at least two mode cycles and 2 s more: the
/// caches and pools reach their size over the first few world replacements; with one cycle a
/// 30-s release run could read +5 % from a pool's last growth at 20 s).
const WARM_UP: f64 = 0.2;
/// Voices started per tick at most in the first second (the pool fills at once).
const RAMP_STARTS: u64 = 24;
/// Allowed memory drift after the warm-up.
const FLAT: f64 = 0.05;
/// The second run (hash stability) covers at most this many seconds.
const REPEAT_S: u64 = 60;
/// Half the side of the area voices and edits stay in, in blocks.
const AREA: i32 = 48;

/// The soak's options.
#[derive(Debug, Clone)]
struct Options {
    seconds: u64,
    /// Seconds between mode switches; the world is replaced every two switches.
    mode_every: u64,
    voices: usize,
    seed: u64,
    out: PathBuf,
}

fn parse(args: &[String]) -> anyhow::Result<Options> {
    let mut o = Options {
        seconds: 600,
        mode_every: MODE_EVERY_S,
        voices: 256,
        seed: 0x50A4_0015,
        out: PathBuf::from("target").join("soak"),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .with_context(|| format!("{name} needs a value"))
                .cloned()
        };
        match arg.as_str() {
            "--seconds" => o.seconds = value("--seconds")?.parse().context("--seconds")?,
            "--voices" => o.voices = value("--voices")?.parse().context("--voices")?,
            "--seed" => o.seed = value("--seed")?.parse().context("--seed")?,
            "--out" => o.out = PathBuf::from(value("--out")?),
            other => bail!(
                "unknown argument `{other}` (resound soak [--seconds S] [--voices N] \
                 [--seed X] [--out DIR])"
            ),
        }
    }
    if o.seconds < 5 || o.voices == 0 {
        bail!("the soak needs --seconds >= 5 and --voices >= 1");
    }
    if o.seconds < 120 {
        o.mode_every = 2;
    }
    Ok(o)
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn coord(&mut self) -> f64 {
        (self.unit() * 2.0 - 1.0) * f64::from(AREA)
    }

    fn cell(&mut self) -> IVec3 {
        IVec3::new(
            self.below(2 * AREA as u64) as i32 - AREA,
            self.below(12) as i32,
            self.below(2 * AREA as u64) as i32 - AREA,
        )
    }
}

/// What one run measured.
#[derive(Debug, Default)]
struct Run {
    /// FNV-1a of every output sample's bytes, checkpointed once per simulated second.
    hashes: Vec<u64>,
    /// (simulated second, resident bytes).
    memory: Vec<(f64, u64)>,
    starts: u64,
    stops: u64,
    refused: u64,
    edits: u64,
    replacements: u64,
    mode_switches: u64,
    max_live: usize,
    peak: f32,
    non_finite: u64,
    wall_s: f64,
}

/// Resident set size of this process in bytes (Linux `/proc/self/statm`, 4 KiB pages).
fn resident_bytes() -> anyhow::Result<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").context("reading /proc/self/statm")?;
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| anyhow!("unexpected /proc/self/statm: {statm}"))?;
    Ok(pages * 4096)
}

/// The starting world: a floor, a few walls and a roofed room.
fn base_world(stone: Cell) -> anyhow::Result<WorldStore> {
    let mut w = WorldStore::new(Absent::Air);
    let fill = |w: &mut WorldStore, a: IVec3, b: IVec3| {
        w.fill_box(a, b, stone)
            .map_err(|e| anyhow!("building the soak world: {e}"))
    };
    fill(
        &mut w,
        IVec3::new(-AREA, -1, -AREA),
        IVec3::new(AREA, -1, AREA),
    )?;
    for k in [-24, 0, 24] {
        fill(&mut w, IVec3::new(k, 0, -16), IVec3::new(k + 1, 8, 16))?;
    }
    fill(&mut w, IVec3::new(-40, 0, 20), IVec3::new(-20, 6, 40))?;
    fill(&mut w, IVec3::new(-39, 0, 21), IVec3::new(-21, 5, 39)).and_then(|()| {
        w.fill_box(IVec3::new(-39, 0, 21), IVec3::new(-21, 5, 39), Cell::Air)
            .map_err(|e| anyhow!("building the soak world: {e}"))
    })?;
    Ok(w)
}

/// One soak run of `seconds` simulated seconds.
fn run(o: &Options, seconds: u64, sample_memory: bool) -> anyhow::Result<Run> {
    let started = Instant::now();
    let mut rng = Rng(o.seed);
    let stone = Cell::solid(
        MaterialTable::standard()
            .by_name("stone")
            .ok_or_else(|| anyhow!("no stone material"))?,
    );
    // A game's budgets (the live ones): the soak is about churn, not about trace depth.
    let mut e = Engine::builder()
        .mode(Mode::Off)
        .budgets(Budgets::live())
        .build()
        .context("building the engine")?;
    e.world().replace(base_world(stone)?);
    let mut sounds: Vec<SoundHandle> = Vec::new();
    for samples in [
        signal::looped(RATE),
        signal::click(RATE),
        signal::shot(RATE),
        signal::noise(RATE),
    ] {
        sounds.push(
            e.load_mono(Arc::from(samples), RATE)
                .context("loading a test signal")?,
        );
    }
    let modes = [Mode::Off, Mode::Direct, Mode::Reflect, Mode::Full];
    let tf = e.tick_frames() as usize;
    let ticks_per_s = (u64::from(RATE) / tf as u64).max(1);
    let mut out = vec![0.0f32; 2 * tf];
    let mut live: Vec<VoiceHandle> = Vec::new();
    let mut r = Run::default();
    let mut hash = 0xCBF2_9CE4_8422_2325u64;
    for tick in 0..seconds * ticks_per_s {
        let second = tick / ticks_per_s;
        if tick.is_multiple_of(ticks_per_s) {
            if second.is_multiple_of(o.mode_every) {
                e.set_mode(modes[(second / o.mode_every) as usize % modes.len()]);
                r.mode_switches += 1;
            }
            if second > 0 && second.is_multiple_of(2 * o.mode_every) {
                e.world().replace(base_world(stone)?);
                r.replacements += 1;
            }
        }
        // The listener walks a slow circle.
        let a = tick as f64 * 0.01;
        e.set_listener(
            DVec3::new(20.0 * a.cos(), 1.5, 20.0 * a.sin()),
            Orientation::default(),
        )
        .map_err(|err| anyhow!("listener: {err}"))?;
        // Churn: stop some, start some.
        live.retain(|v| e.is_playing(*v));
        for _ in 0..rng.below(6) {
            if live.is_empty() {
                break;
            }
            let i = rng.below(live.len() as u64) as usize;
            let v = live.swap_remove(i);
            if e.stop(v).is_ok() {
                r.stops += 1;
            }
        }
        let starts = if second == 0 { RAMP_STARTS } else { 12 };
        for _ in 0..rng.below(starts) {
            if live.len() >= o.voices {
                break;
            }
            let sound = sounds[rng.below(sounds.len() as u64) as usize];
            let source = Source {
                position: DVec3::new(rng.coord(), 1.0 + rng.unit() * 6.0, rng.coord()),
                volume: 0.05 + 0.2 * rng.unit() as f32,
                range: 16.0 + 112.0 * rng.unit() as f32,
                looping: rng.below(3) == 0,
                impulsive: rng.below(4) == 0,
                ..Source::default()
            };
            match e.play(sound, source) {
                Ok(v) => {
                    live.push(v);
                    r.starts += 1;
                }
                Err(_) => r.refused += 1,
            }
        }
        // A quarter of the voices move; a few change volume.
        for v in &live {
            if rng.below(4) == 0 {
                let p = DVec3::new(rng.coord(), 1.0 + rng.unit() * 6.0, rng.coord());
                let _ = e.set_position(*v, p);
            }
            if rng.below(16) == 0 {
                let _ = e.set_volume(*v, 0.05 + 0.2 * rng.unit() as f32);
            }
        }
        // A world edit every tick.
        let cell = rng.cell();
        let edit = match tick % 3 {
            0 => e.world().set_cell(cell, stone),
            1 => e.world().set_cell(cell, Cell::Air),
            _ => {
                let value = if rng.below(2) == 0 { stone } else { Cell::Air };
                e.world().fill_box(cell, cell + IVec3::new(2, 2, 2), value)
            }
        };
        edit.map_err(|err| anyhow!("world edit: {err}"))?;
        r.edits += 1;
        e.update(tf as f64 / f64::from(RATE))
            .map_err(|err| anyhow!("update: {err}"))?;
        e.render(&mut out).map_err(|err| anyhow!("render: {err}"))?;
        for s in &out {
            if !s.is_finite() {
                r.non_finite += 1;
            }
            for b in s.to_le_bytes() {
                hash ^= u64::from(b);
                hash = hash.wrapping_mul(0x0100_0000_01B3);
            }
        }
        r.max_live = r.max_live.max(live.len());
        if (tick + 1).is_multiple_of(ticks_per_s) {
            r.hashes.push(hash);
            if sample_memory {
                r.memory.push(((second + 1) as f64, resident_bytes()?));
            }
        }
    }
    r.peak = e.status().peak;
    r.wall_s = started.elapsed().as_secs_f64();
    Ok(r)
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn plot(path: &Path, memory: &[(f64, u64)], warm_up_s: f64, reference: u64) -> anyhow::Result<()> {
    crate::font::ensure();
    let err = |e: &dyn std::fmt::Display| anyhow!("drawing the soak plot failed: {e}");
    let end = memory.last().map_or(1.0, |m| m.0);
    let top = memory.iter().map(|m| mib(m.1)).fold(0.0, f64::max) * 1.15;
    let root = BitMapBackend::new(path, (1100, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Resound soak: resident memory over simulated time",
            (crate::font::FAMILY, 24),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..end, 0.0..top)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .y_desc("resident memory (MiB)")
        .label_style((crate::font::FAMILY, 15))
        .axis_desc_style((crate::font::FAMILY, 18))
        .draw()
        .map_err(|e| err(&e))?;
    let band = |f: f64| mib(reference) * f;
    for f in [1.0 - FLAT, 1.0 + FLAT] {
        chart
            .draw_series(DashedLineSeries::new(
                [(warm_up_s, band(f)), (end, band(f))],
                6,
                6,
                RED.mix(0.6).stroke_width(1),
            ))
            .map_err(|e| err(&e))?;
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            Vec::<(f64, f64)>::new(),
            RED.mix(0.6),
        )))
        .map_err(|e| err(&e))?
        .label("±5 % of the value at the end of the warm-up")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], RED.mix(0.6)));
    chart
        .draw_series(DashedLineSeries::new(
            [(warm_up_s, 0.0), (warm_up_s, top)],
            4,
            4,
            BLACK.mix(0.4).stroke_width(1),
        ))
        .map_err(|e| err(&e))?;
    let blue = RGBColor(0, 114, 178);
    chart
        .draw_series(LineSeries::new(
            memory.iter().map(|m| (m.0, mib(m.1))),
            blue.stroke_width(2),
        ))
        .map_err(|e| err(&e))?
        .label("resident set (/proc/self/statm)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], blue.stroke_width(3)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font((crate::font::FAMILY, 15))
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Runs the soak.
pub fn run_cli(args: &[String]) -> anyhow::Result<()> {
    let o = parse(args)?;
    std::fs::create_dir_all(&o.out).with_context(|| format!("creating {}", o.out.display()))?;
    eprintln!(
        "soak: {} s simulated, up to {} voices, seed {:#x}",
        o.seconds, o.voices, o.seed
    );
    let first = run(&o, o.seconds, true)?;
    let repeat_s = o.seconds.min(REPEAT_S);
    let second = run(&o, repeat_s, false)?;
    let n = repeat_s as usize;
    // two mode cycles (four switches each) and 2 s more
    let least_warm_up = 2 * 4 * o.mode_every + 2;
    let warm = ((o.seconds as f64 * WARM_UP).ceil() as usize)
        .max(least_warm_up as usize)
        .clamp(1, first.memory.len());
    let reference = first.memory[warm - 1].1;
    let after = &first.memory[warm..];
    let low = after.iter().map(|m| m.1).min().unwrap_or(reference);
    let high = after.iter().map(|m| m.1).max().unwrap_or(reference);
    let start = first.memory.first().map_or(0, |m| m.1);
    let end = first.memory.last().map_or(0, |m| m.1);
    let png = o.out.join("soak_memory.png");
    plot(&png, &first.memory, warm as f64, reference)?;
    let drift = |v: u64| (v as f64 - reference as f64) / reference as f64;
    let summary = format!(
        "{{\"seconds\": {}, \"voices\": {}, \"seed\": {}, \"starts\": {}, \"stops\": {}, \
         \"refused\": {}, \"edits\": {}, \"replacements\": {}, \"mode_switches\": {}, \
         \"max_live\": {}, \"peak\": {}, \"non_finite\": {}, \"memory_start\": {start}, \
         \"memory_warm\": {reference}, \"memory_end\": {end}, \"memory_low\": {low}, \
         \"memory_high\": {high}, \"hash\": \"{:#018x}\", \"repeat_seconds\": {repeat_s}, \
         \"wall_seconds\": {:.1}}}\n",
        o.seconds,
        o.voices,
        o.seed,
        first.starts,
        first.stops,
        first.refused,
        first.edits,
        first.replacements,
        first.mode_switches,
        first.max_live,
        first.peak,
        first.non_finite,
        first.hashes.last().copied().unwrap_or(0),
        first.wall_s + second.wall_s,
    );
    std::fs::write(o.out.join("soak.json"), &summary)?;
    println!(
        "soak: {} s in {:.1} s wall: {} starts, {} stops, {} refused, max {} live, {} edits, \
         {} world replacements, {} mode switches, peak {:.3}",
        o.seconds,
        first.wall_s,
        first.starts,
        first.stops,
        first.refused,
        first.max_live,
        first.edits,
        first.replacements,
        first.mode_switches,
        first.peak
    );
    println!(
        "soak: resident memory {:.1} MiB at 1 s, {:.1} MiB after warm-up ({} s), {:.1}..{:.1} MiB \
         after ({:+.2} %..{:+.2} %), {:.1} MiB at the end",
        mib(start),
        mib(reference),
        warm,
        mib(low),
        mib(high),
        100.0 * drift(low),
        100.0 * drift(high),
        mib(end)
    );
    println!(
        "soak: output hash {:#018x}; second run of {repeat_s} s: {}",
        first.hashes.last().copied().unwrap_or(0),
        if first.hashes[..n] == second.hashes[..n] {
            "identical"
        } else {
            "DIFFERENT"
        }
    );
    println!("soak: memory plot {}", png.display());
    if first.non_finite > 0 {
        bail!("{} output samples were NaN or infinite", first.non_finite);
    }
    if drift(low).abs() > FLAT || drift(high).abs() > FLAT {
        bail!(
            "resident memory moved {:+.2} %..{:+.2} % after the warm-up (limit ±5 %)",
            100.0 * drift(low),
            100.0 * drift(high)
        );
    }
    if first.hashes[..n] != second.hashes[..n] {
        let at = first
            .hashes
            .iter()
            .zip(&second.hashes)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        bail!("the output differs between two runs from second {}", at + 1);
    }
    if first.starts == 0 || first.max_live == 0 {
        bail!("no voice ever started");
    }
    Ok(())
}
