//! `resound ambient`: the retail ambient sound runtime on a set of DAT files.
//!
//! - `--at CELL:X,Y,Z` puts the player there (`Ambient::teleport`: camera and player at once),
//!   rebuilds the ambient sounds and prints the result: total weight, every sound instance (STB
//!   id, index, kind, `sound_count`, `play_chance` or `current_volume`, the directions with their
//!   distance ranges) and the sounds that play at once.
//! - `--at CELL:X,Y,Z --out OUT.wav [--seconds N]` renders the ambient heard standing there
//!   (a walk of one waypoint; 10 s unless `--seconds` says otherwise).
//! - `--walk PATH.json [--seconds N]` runs the per-frame tick along a path (for the walk's
//!   length unless `--seconds` says otherwise) and prints the log of rebuilds and played/dropped
//!   sounds. The path format is documented in `resound_ambient::walk`;
//!   `crates/ambient/examples-data/walk.json` walks the fixture world.
//! - `--walk PATH.json --out OUT.wav` renders the walk through the engine
//!   (`Engine::attach_ambient`, `Engine::render_walk`): `retail16` plays the retail output
//!   exactly; `modern` places positioned sounds in 3-D on the terrain with the acoustic path.
//!
//! The dats are `DIR/client_portal.dat` (Region, SoundTables) and `DIR/client_cell_1.dat`
//! (LandBlocks), read lazily through `resound_ambient::DatSource`.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use resound_engine::advanced::ambient::walk::Walk;
use resound_engine::advanced::ambient::{
    Ambient, Listener, Player, Position, PositionChange, RebuildReport, Seeds, SoundSettings,
};
use resound_engine::advanced::datformat::id::parse_region_id;
use resound_engine::advanced::datformat::record::Region;
use resound_engine::sound::{AmbientPolicy, AmbientSettings};
use resound_engine::terrain::parse_position;
use resound_studio::walk_render::render_ambient_walk;
use resound_studio::wav_write::{WavFormat, WavStream};

use crate::out_file::OutFile;

use crate::report::emit;

/// Arguments of `resound ambient`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["at", "walk"])))]
pub struct Args {
    /// Folder holding client_portal.dat and client_cell_1.dat.
    #[arg(long, value_name = "DIR")]
    dat_dir: PathBuf,
    /// Rebuild at a position: CELL:X,Y,Z (a valid cell id in hex, landblock-relative metres
    /// inside that cell, |Z| ≤ 10000).
    #[arg(long, value_name = "CELL:X,Y,Z", value_parser = |t: &str| parse_position(t))]
    at: Option<Position>,
    /// With --at: the (EnvCell) cell sees outside, so the outdoor set is gathered.
    #[arg(long, requires = "at")]
    seen_outside: bool,
    /// Walk a path file: JSON waypoints with times, AC positions and headings (the format:
    /// `crates/ambient/examples-data/walk.json`; `resound_ambient::walk` documents it).
    #[arg(long, value_name = "PATH.json")]
    walk: Option<PathBuf>,
    /// How many seconds to run: with --walk, default the walk's length (first to last
    /// waypoint); with --at --out, default 10. At most 2 160 000 frames of the walk's frame
    /// rate; a render at most 600 s.
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_seconds,
        allow_negative_numbers = true
    )]
    seconds: Option<f64>,
    /// Render through the engine to this WAV file (stereo f32): the walk, or the ambient
    /// heard standing at --at.
    #[arg(long, value_name = "OUT.wav")]
    out: Option<PathBuf>,
    /// With --out: `retail16` (the retail output exactly) or `modern` (3-D with acoustics on
    /// the terrain).
    #[arg(long, value_parser = ["retail16", "modern"], default_value = "retail16", requires = "out")]
    policy: String,
    /// Seed of both random generators (retail seeds them with the clock).
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// Region id in the portal dat (0x13000000..=0x1300FFFF).
    #[arg(long, value_name = "ID", default_value = "0x13000000", value_parser = |t: &str| parse_region_id(t))]
    region: u32,
    /// The ambient volume slider, 0..=1 (applied twice, as retail does).
    #[arg(long, default_value_t = 1.0, value_parser = parse_volume, allow_negative_numbers = true)]
    ambient_volume: f32,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `resound ambient`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let region_id = args.region;
    let dats = crate::dat_dir::DatDir::open(&args.dat_dir)?;
    let (mut portal, mut cell) = dats.sources()?;
    let region: Region = portal
        .load_record(region_id)
        .with_context(|| format!("reading Region 0x{region_id:08X}"))?
        .with_context(|| format!("the portal dat has no Region 0x{region_id:08X}"))?;
    let settings = SoundSettings {
        ambient_sound_volume: args.ambient_volume,
        ..SoundSettings::default()
    };
    let seeds = Seeds {
        ran2: i32::from_ne_bytes(args.seed.to_ne_bytes()),
        crt: args.seed,
    };
    let mut ambient = Ambient::new(&region, seeds, settings).context("resolving the Region")?;
    let render_settings = AmbientSettings {
        seeds,
        sound: settings,
        region_id,
        ..Default::default()
    };
    if let (Some(pos), Some(out)) = (args.at, &args.out) {
        let walk = standing_walk(pos, args.seen_outside)?;
        let seconds = args.seconds.unwrap_or(AT_SECONDS);
        return render(&args, &dats, &walk, seconds, out, render_settings);
    }
    if let Some(pos) = args.at {
        if args.seconds.is_some() {
            bail!(
                "--seconds with --at needs --out OUT.wav (a rebuild at a position takes no time)"
            );
        }
        let mut events = Vec::new();
        let player = Player {
            position: pos,
            seen_outside: args.seen_outside,
        };
        let camera = Listener {
            position: pos,
            heading_deg: 0.0,
        };
        let change = ambient
            .teleport(0.0, player, camera, &mut portal, &mut cell, &mut events)
            .context("rebuilding")?;
        let PositionChange::Rebuilt(rebuild) = change else {
            bail!("no rebuild happened (the player's cell did not change)");
        };
        let snapshot = ambient.snapshot();
        let report = RebuildReport {
            position: &pos,
            rebuild: &rebuild,
            snapshot: &snapshot,
            events: &events,
            // the portal source also loaded the Region
            sound_table_loads: portal.loads.saturating_sub(1),
            sound_table_releases: portal.releases,
        };
        return crate::report::emit_doc(args.json, &report, report);
    }
    let Some(path) = &args.walk else {
        bail!("give --at CELL:X,Y,Z or --walk PATH.json");
    };
    let walk = read_walk(path)?;
    let seconds = args.seconds.unwrap_or_else(|| walk_length(&walk));
    if let Some(out) = &args.out {
        return render(&args, &dats, &walk, seconds, out, render_settings);
    }
    let log = walk
        .run(&mut ambient, seconds, &mut portal, &mut cell)
        .with_context(|| format!("walking {}", path.display()))?;
    let text: String = log.iter().map(|e| format!("{e}\n")).collect();
    let doc = serde_json::json!({ "duration_s": seconds, "entries": log });
    crate::report::emit_doc(args.json, &doc, text)
}

/// `--at --out` renders this long unless `--seconds` says otherwise.
const AT_SECONDS: f64 = 10.0;

/// A walk's length: from its first waypoint's time to its last's.
fn walk_length(walk: &Walk) -> f64 {
    match (walk.waypoints.first(), walk.waypoints.last()) {
        (Some(a), Some(b)) => (b.t - a.t).max(0.0),
        _ => 0.0,
    }
}

/// A walk that stands at `pos` (one waypoint): the ambient heard there.
fn standing_walk(pos: Position, seen_outside: bool) -> anyhow::Result<Walk> {
    let o = pos.origin;
    let doc = serde_json::json!({
        "waypoints": [{
            "t": 0.0,
            "cell": crate::json_out::hex(pos.objcell_id.0),
            "origin": [o.x, o.y, o.z],
            "seen_outside": seen_outside,
        }],
    });
    let walk: Walk = serde_json::from_value(doc).context("placing the listener")?;
    walk.validate().context("placing the listener")?;
    Ok(walk)
}

/// `--out`: renders the walk through the engine and prints what the ambient bridge did.
fn render(
    args: &Args,
    dats: &crate::dat_dir::DatDir,
    walk: &Walk,
    seconds: f64,
    out: &Path,
    settings: AmbientSettings,
) -> anyhow::Result<()> {
    let policy = match args.policy.as_str() {
        "modern" => AmbientPolicy::Modern,
        _ => AmbientPolicy::Retail16,
    };
    let mut file = OutFile::create(out)?;
    let to_stdout = file.is_stdout();
    let renderer = render_ambient_walk(dats.path(), walk, seconds, policy, settings)?;
    let (frames, rate) = (renderer.frames(), renderer.rate());
    if frames == 0 {
        bail!(
            "--seconds {} at {rate} Hz is shorter than one frame",
            crate::report::num(seconds),
        );
    }
    // Streamed walk frame by walk frame into the file: memory does not grow with --seconds.
    let shown = out.display().to_string();
    let temp = file.temp_path();
    let mut wav = WavStream::new(file.writer(), 2, rate, WavFormat::F32, frames)
        .with_context(|| format!("output {shown}"))?;
    crate::interrupt::catch();
    let r = renderer.render(&mut |block| {
        if crate::interrupt::interrupted() {
            // The engine's walk has no way out midway: leave now, without the temporary file.
            if let Some(path) = &temp {
                let _ = std::fs::remove_file(path);
            }
            let line = format!("error: {}", crate::interrupt::Interrupted(shown.clone()));
            let _ = crate::fail(&line, 130);
            std::process::exit(130);
        }
        wav.write(block).with_context(|| format!("output {shown}"))
    });
    let r = r?;
    wav.finish().with_context(|| format!("output {shown}"))?;
    file.commit()?;
    let (s, rate, policy) = (&r.status, r.rate, &args.policy);
    let emit = if to_stdout {
        crate::report::emit_to_stderr
    } else {
        emit
    };
    emit(&if args.json {
        let doc = serde_json::json!({
            "written": [crate::json_out::written(out, "wav-f32")],
            "duration_s": seconds, "rate_hz": rate, "policy": policy, "peak": s.peak,
            "rays": s.rays, "ambient": resound_studio::describe::ambient_json(&s.ambient),
        });
        crate::report::json_text(&doc)?
    } else {
        let (ambient, peak) = (&s.ambient, s.peak);
        format!(
            "wrote {} ({seconds} s at {rate} Hz, {policy}): {ambient}, peak {peak:.3}\n",
            out.display()
        )
    })
}

/// Walk files are capped at 64 MiB (a waypoint is ~60 bytes of JSON: about a million of them).
const MAX_WALK_BYTES: u64 = 64 << 20;

/// A walk's `frame_rate` lies in this range (frames per second; retail runs at about 30).
const FRAME_RATES: std::ops::RangeInclusive<f64> = 0.1..=1000.0;

fn read_walk(path: &Path) -> anyhow::Result<Walk> {
    let text = resound_studio::capped_read::read_text_capped(path, MAX_WALK_BYTES, "walk file")?;
    let shown = crate::report::quoted(&path.display().to_string());
    let walk: Walk = serde_json::from_str(&text).with_context(|| format!("parsing {shown}"))?;
    let rate = walk.frame_rate;
    if !(rate.is_finite() && FRAME_RATES.contains(&rate)) {
        bail!(
            "walk {shown}: frame_rate {} is outside {}..={} frames per second (the frame-rate cap)",
            crate::report::num(rate),
            FRAME_RATES.start(),
            FRAME_RATES.end()
        );
    }
    walk.validate()
        .with_context(|| format!("checking {shown}"))?;
    Ok(walk)
}

/// `--ambient-volume`: a number from 0 to 1.
fn parse_volume(text: &str) -> anyhow::Result<f32> {
    match text.trim().parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => bail!(
            "{} is not a volume from 0 to 1",
            crate::report::quoted(text)
        ),
    }
}

/// `--seconds`: a finite number of seconds ≥ 0 (the walk checks its frame limit).
fn parse_seconds(text: &str) -> anyhow::Result<f64> {
    let max = resound_engine::advanced::ambient::walk::MAX_FRAMES;
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=max as f64).contains(&s) => Ok(s),
        _ => bail!(
            "{} is not a number of seconds from 0 to {max} (a walk runs at most {max} frames)",
            crate::report::quoted(text)
        ),
    }
}
