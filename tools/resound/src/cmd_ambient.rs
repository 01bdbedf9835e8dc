//! `resound ambient`: the retail ambient sound runtime on a set of DAT files.
//!
//! - `--at CELL:X,Y,Z` rebuilds the ambient sounds for a player standing there and prints the
//!   result: total weight, every sound instance (STB id, index, kind, `sound_count`,
//!   `play_chance` or `current_volume`, the directions with their distance ranges) and the
//!   sounds that play at once.
//! - `--walk PATH.json --seconds N` runs the per-frame tick along a path and prints the log of
//!   rebuilds and played/dropped sounds. The path format is documented in
//!   `resound_ambient::walk`; `crates/ambient/examples-data/walk.json` walks the fixture world.
//!
//! The dats are `DIR/client_portal.dat` (Region, SoundTables) and `DIR/client_cell_1.dat`
//! (LandBlocks), read lazily through `resound_ambient::DatSource`.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use resound_engine::ambient::glam::Vec3;
use resound_engine::ambient::walk::{Walk, WalkEntry};
use resound_engine::ambient::{
    Ambient, AmbientEvent, AmbientSnapshot, DatSource, DropReason, Outcome, Position,
    PositionChange, Rebuild, Seeds, SoundKind, SoundSettings,
};
use resound_engine::datformat::container::DatReader;
use resound_engine::datformat::record::Region;

#[cfg(test)]
#[path = "ambient_tests.rs"]
mod tests;

/// The portal dat's file name.
const PORTAL_DAT: &str = "client_portal.dat";
/// The cell dat's file name.
const CELL_DAT: &str = "client_cell_1.dat";

/// Arguments of `resound ambient`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["at", "walk"])))]
pub struct Args {
    /// Folder holding client_portal.dat and client_cell_1.dat.
    #[arg(long, value_name = "DIR")]
    dat_dir: PathBuf,
    /// Rebuild at a position: CELL:X,Y,Z (cell id in hex, landblock-relative metres).
    #[arg(long, value_name = "CELL:X,Y,Z")]
    at: Option<String>,
    /// With --at: the (EnvCell) cell sees outside, so the outdoor set is gathered.
    #[arg(long, requires = "at")]
    seen_outside: bool,
    /// Walk a path file (see `resound_ambient::walk` for the format).
    #[arg(long, value_name = "PATH.json", requires = "seconds")]
    walk: Option<PathBuf>,
    /// With --walk: how many seconds to run.
    #[arg(long, value_name = "N")]
    seconds: Option<f64>,
    /// Seed of both random generators (retail seeds them with the clock).
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// Region id in the portal dat.
    #[arg(long, value_name = "ID", default_value = "0x13000000")]
    region: String,
    /// The ambient volume slider, 0..1 (applied twice, as retail does).
    #[arg(long, default_value_t = 1.0)]
    ambient_volume: f32,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `resound ambient`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let region_id = parse_hex(&args.region).context("--region")?;
    let mut portal = open(&args.dat_dir.join(PORTAL_DAT))?;
    let mut cell = open(&args.dat_dir.join(CELL_DAT))?;
    let region: Region = portal
        .load_record(region_id)
        .with_context(|| format!("reading Region {region_id:#010x}"))?
        .with_context(|| format!("the portal dat has no Region {region_id:#010x}"))?;
    let settings = SoundSettings {
        ambient_sound_volume: args.ambient_volume,
        ..SoundSettings::default()
    };
    let seeds = Seeds {
        ran2: i32::from_ne_bytes(args.seed.to_ne_bytes()),
        crt: args.seed,
    };
    let mut ambient = Ambient::new(&region, seeds, settings).context("resolving the Region")?;
    if let Some(at) = &args.at {
        let pos = parse_at(at)?;
        let mut events = Vec::new();
        let change = ambient
            .change_position(
                &pos,
                args.seen_outside,
                0.0,
                &mut portal,
                &mut cell,
                &mut events,
            )
            .context("rebuilding")?;
        let PositionChange::Rebuilt(rebuild) = change else {
            bail!("no rebuild happened ({change:?})");
        };
        let snapshot = ambient.snapshot();
        if args.json {
            let doc = rebuild_doc(&pos, &rebuild, &snapshot, &events, &portal);
            emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
        } else {
            emit(&format_rebuild(&pos, &rebuild, &snapshot, &events))?;
        }
        return Ok(());
    }
    let (Some(path), Some(seconds)) = (&args.walk, args.seconds) else {
        bail!("give --at CELL:X,Y,Z or --walk PATH.json --seconds N");
    };
    let walk = read_walk(path)?;
    let log = walk
        .run(&mut ambient, seconds, &mut portal, &mut cell)
        .with_context(|| format!("walking {}", path.display()))?;
    let text = if args.json {
        serde_json::to_string_pretty(&log)? + "\n"
    } else {
        log.iter().map(|e| format_entry(e) + "\n").collect()
    };
    emit(&text)
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("writing to stdout"),
    }
}

/// The `--at --json` document.
fn rebuild_doc<R>(
    pos: &Position,
    rebuild: &Rebuild,
    snapshot: &AmbientSnapshot,
    events: &[AmbientEvent],
    portal: &DatSource<R>,
) -> serde_json::Value {
    serde_json::json!({
        "position": pos,
        "rebuild": rebuild,
        "snapshot": snapshot,
        "events": events,
        // the portal source also loaded the Region
        "sound_table_loads": portal.loads.saturating_sub(1),
        "sound_table_releases": portal.releases,
    })
}

fn open(path: &Path) -> anyhow::Result<DatSource<BufReader<File>>> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let reader = DatReader::new(BufReader::new(file))
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(DatSource::new(reader))
}

/// Walk files are capped at 64 MiB (a waypoint is ~60 bytes of JSON: about a million of them).
const MAX_WALK_BYTES: u64 = 64 << 20;

fn read_walk(path: &Path) -> anyhow::Result<Walk> {
    let text = crate::input::read_text_capped(path, MAX_WALK_BYTES, "walk file")?;
    let walk: Walk =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    walk.validate()
        .with_context(|| format!("checking {}", path.display()))?;
    Ok(walk)
}

/// A hexadecimal id, with or without `0x`.
fn parse_hex(text: &str) -> anyhow::Result<u32> {
    let t = text.trim();
    let digits = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    u32::from_str_radix(digits, 16).with_context(|| format!("{text:?} is not a hexadecimal id"))
}

/// `CELL:X,Y,Z` → a position.
fn parse_at(text: &str) -> anyhow::Result<Position> {
    let (cell, xyz) = text
        .split_once(':')
        .with_context(|| format!("{text:?}: expected CELL:X,Y,Z"))?;
    let cell = parse_hex(cell)?;
    let v: Vec<f32> = xyz
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<f32>()
                .with_context(|| format!("{s:?} is not a number"))
        })
        .collect::<anyhow::Result<_>>()?;
    let [x, y, z] = v[..] else {
        bail!("{text:?}: expected three coordinates X,Y,Z");
    };
    Ok(Position::new(cell, Vec3::new(x, y, z)))
}

fn format_rebuild(
    pos: &Position,
    r: &Rebuild,
    s: &AmbientSnapshot,
    events: &[AmbientEvent],
) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "cell {:#010x} at ({:.2}, {:.2}, {:.2}){}",
        pos.objcell_id,
        pos.origin.x,
        pos.origin.y,
        pos.origin.z,
        if r.outdoorish {
            ""
        } else {
            " (indoors: no outdoor gather)"
        }
    );
    let _ = writeln!(
        o,
        "landblocks: {} gathered, {} missing{}; {} AddSound calls, {} contributing cells",
        r.land_blocks.len(),
        r.missing_land_blocks.len(),
        if r.missing_land_blocks.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                r.missing_land_blocks
                    .iter()
                    .map(|id| format!("{id:#010x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        r.add_sound_calls,
        r.contributing_cells
    );
    for f in &r.failures {
        let _ = writeln!(o, "failure: {:?} {:#010x}: {}", f.kind, f.id, f.message);
    }
    let _ = writeln!(
        o,
        "total weight {:.6}, {} instances",
        s.total_sound_count,
        s.sounds.len()
    );
    let _ = writeln!(
        o,
        "{:>3}  {:<10}  {:>3}  {:<8}  {:>5}  {:>10}  {:<16}  directions",
        "#", "stb", "idx", "kind", "stype", "count", "chance/volume"
    );
    for snd in &s.sounds {
        let value = match (snd.play_chance, snd.current_volume) {
            (Some(c), _) => format!("chance {c:.6}"),
            (_, Some(v)) => format!("volume {v:.6}"),
            _ => String::new(),
        };
        let dirs = snd
            .directions
            .iter()
            .map(|d| format!("{:?} {:.1}–{:.1} m", d.dir, d.min_dist, d.max_dist))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            o,
            "{:>3}  {:#010x}  {:>3}  {:<8}  {:#5x}  {:>10.6}  {:<16}  {}",
            snd.index,
            snd.stb_id,
            snd.ambient_sound_id,
            kind(snd.kind),
            snd.s_type,
            snd.sound_count,
            value,
            dirs
        );
    }
    if !events.is_empty() {
        let _ = writeln!(o, "played at once:");
        for e in events {
            let _ = writeln!(o, "  {}", format_event(e));
        }
    }
    o
}

fn kind(k: SoundKind) -> &'static str {
    match k {
        SoundKind::Intermit => "intermit",
        SoundKind::Constant => "constant",
    }
}

fn format_event(e: &AmbientEvent) -> String {
    let who = format!(
        "{:#010x}/{} {:<8} stype {:#x}",
        e.stb_id,
        e.ambient_sound_id,
        kind(e.kind),
        e.s_type
    );
    match e.outcome {
        Outcome::Play(v) => {
            let place = match v.position {
                Some(p) => format!(
                    "at {:.1} m ({:.1}, {:.1}, {:.1} in {:#010x})",
                    v.distance, p.origin.x, p.origin.y, p.origin.z, p.objcell_id
                ),
                None => "from centre".to_owned(),
            };
            format!(
                "{:>9.3}  play  {who}  wave {:#010x} row {}  {:>3} dB  pan {:+}  {place}",
                e.time, v.wave_id, v.row, v.db, v.pan
            )
        }
        Outcome::Drop(reason) => {
            let why = match reason {
                DropReason::NoSoundTable => "no sound table".to_owned(),
                DropReason::NoEntry => "no table entry".to_owned(),
                DropReason::SilentWave { row } => format!("row {row} has no wave"),
                DropReason::Probability { row } => format!("row {row} failed its probability"),
                DropReason::Inactive { row } => format!("row {row}: window inactive"),
                DropReason::Inaudible { row, distance } => {
                    format!("row {row} inaudible at {distance:.1} m")
                }
            };
            format!("{:>9.3}  drop  {who}  {why}", e.time)
        }
    }
}

fn format_entry(entry: &WalkEntry) -> String {
    match entry {
        WalkEntry::Rebuild {
            time,
            position,
            total_sound_count,
            instances,
            teleport,
            rebuild,
        } => format!(
            "{time:>9.3}  {}  cell {:#010x} ({:.1}, {:.1}, {:.1})  total {total_sound_count:.4}  instances {instances}  landblocks {} ({} missing)  AddSound {}",
            if *teleport { "teleport" } else { "rebuild " },
            position.objcell_id,
            position.origin.x,
            position.origin.y,
            position.origin.z,
            rebuild.land_blocks.len(),
            rebuild.missing_land_blocks.len(),
            rebuild.add_sound_calls
        ),
        WalkEntry::Event(e) => format_event(e),
    }
}
