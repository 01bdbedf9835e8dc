//! `resound dat`: list, dump, export and check DAT files.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use resound_engine::datformat::container::{DatReader, Iteration};
use resound_engine::datformat::record::{
    LandBlock, LandBlockInfo, Record, Region, SoundTable, Wave,
};

use crate::dat_check;
use crate::dat_dump;
use crate::dat_type::{Parsed, classify, kind_name};

/// Arguments of `resound dat`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// List the entries of a dat: id, size, record type.
    Ls {
        /// The .dat file.
        file: PathBuf,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Decode one record (Region, SoundTable, Wave header, LandBlock, LandBlockInfo, Iteration).
    ///
    /// `dat dump FILE ID` reads entry ID of a dat; `dat dump --raw TYPE FILE` decodes a bare
    /// record file (one entry's payload).
    Dump {
        /// Decode FILE as a bare record of this type instead of a dat.
        #[arg(long, value_enum, value_name = "TYPE")]
        raw: Option<Parsed>,
        /// The .dat file (or, with --raw, the record file).
        file: PathBuf,
        /// The entry id (decimal or 0x hex); not used with --raw.
        #[arg(required_unless_present = "raw", conflicts_with = "raw")]
        id: Option<String>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Export a Wave as a playable file: OUT.wav (RIFF), or the raw MPEG stream when the wave is
    /// MPEG Layer-3 (tag 0x55) and OUT ends in .mp3.
    Wave {
        /// The portal .dat file.
        file: PathBuf,
        /// The Wave id (decimal or 0x hex).
        id: String,
        /// Output path.
        out: PathBuf,
    },
    /// Parse and round-trip every entry of every *.dat in DIR (in parallel); exits non-zero if
    /// any entry fails. Record types resound does not parse are only read from the container
    /// and counted as skipped.
    Check {
        /// Folder holding the .dat files.
        dir: PathBuf,
        /// Print one JSON document instead of the table.
        #[arg(long)]
        json: bool,
        /// How many failures to list per dat.
        #[arg(long, default_value_t = 20)]
        max_failures: usize,
    },
}

/// Runs `resound dat`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Ls { file, json } => ls(&file, json),
        Command::Dump {
            raw: Some(kind),
            file,
            json,
            ..
        } => {
            let payload =
                std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
            dump(kind, &payload, json)
        }
        Command::Dump {
            raw: None,
            file,
            id,
            json,
        } => {
            let id = parse_id(id.as_deref().unwrap_or_default())?;
            let mut r = open(&file)?;
            let kind = r.header().dat_type;
            let (name, parsed) = classify(kind, id);
            let payload = read(&mut r, &file, id)?;
            match parsed {
                Some(p) => dump(p, &payload, json),
                None => bail!(
                    "0x{id:08X} is a {name} ({} bytes); resound decodes Region, SoundTable, Wave, \
                     LandBlock, LandBlockInfo and Iteration",
                    payload.len()
                ),
            }
        }
        Command::Wave { file, id, out } => wave(&file, parse_id(&id)?, &out),
        Command::Check {
            dir,
            json,
            max_failures,
        } => dat_check::run(&dir, json, max_failures),
    }
}

/// A file id: `0x` hex or decimal.
fn parse_id(text: &str) -> anyhow::Result<u32> {
    let t = text.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(&hex.replace('_', ""), 16),
        None => t.replace('_', "").parse(),
    };
    parsed.with_context(|| format!("bad id {text:?}: use decimal or 0x hex (e.g. 0x13000000)"))
}

fn open(path: &Path) -> anyhow::Result<DatReader<BufReader<File>>> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    DatReader::new(BufReader::new(file)).with_context(|| format!("reading {}", path.display()))
}

fn read(r: &mut DatReader<BufReader<File>>, path: &Path, id: u32) -> anyhow::Result<Vec<u8>> {
    r.read(id)
        .with_context(|| format!("reading 0x{id:08X} from {}", path.display()))?
        .with_context(|| format!("0x{id:08X} is not in {}", path.display()))
}

fn ls(path: &Path, json: bool) -> anyhow::Result<()> {
    let mut r = open(path)?;
    let header = r.header().clone();
    let entries = r
        .entries()
        .with_context(|| format!("walking the B-tree of {}", path.display()))?;
    if json {
        let list: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                serde_json::json!({
                    "id": e.id,
                    "id_hex": format!("0x{:08X}", e.id),
                    "size": e.size,
                    "record_type": classify(header.dat_type, e.id).0,
                    "offset": e.offset,
                    "flags": e.flags,
                    "version": e.version,
                    "compressed": e.is_compressed(),
                    "raw_date": e.raw_date,
                    "iteration": e.iteration,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "file": path.display().to_string(),
            "dat_type": kind_name(header.dat_type),
            "block_size": header.block_size,
            "file_size": header.file_size,
            "engine_version": header.engine_version,
            "minor_version": header.minor_version,
            "entries": list,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    println!(
        "{}: {} dat, block_size {}, file_size {}, {} entries",
        path.display(),
        kind_name(header.dat_type),
        header.block_size,
        header.file_size,
        entries.len()
    );
    println!("{:<12} {:>10}  record type", "id", "size");
    for e in &entries {
        let z = if e.is_compressed() { " (zlib)" } else { "" };
        println!(
            "0x{:08X}   {:>10}  {}{z}",
            e.id,
            e.size,
            classify(header.dat_type, e.id).0
        );
    }
    Ok(())
}

fn parse<T: Record>(payload: &[u8]) -> anyhow::Result<T> {
    T::from_bytes(payload).map_err(|e| anyhow::anyhow!(dat_check::chain(&e)))
}

fn dump(kind: Parsed, payload: &[u8], json: bool) -> anyhow::Result<()> {
    let (text, value) = match kind {
        Parsed::Region => {
            let r: Region = parse(payload)?;
            (dat_dump::region_text(&r), serde_json::to_value(&r)?)
        }
        Parsed::SoundTable => {
            let t: SoundTable = parse(payload)?;
            (dat_dump::sound_table_text(&t), serde_json::to_value(&t)?)
        }
        Parsed::Wave => {
            let w: Wave = parse(payload)?;
            (dat_dump::wave_text(&w), dat_dump::wave_json(&w))
        }
        Parsed::LandBlock => {
            let b: LandBlock = parse(payload)?;
            (dat_dump::land_block_text(&b), serde_json::to_value(&b)?)
        }
        Parsed::LandBlockInfo => {
            let i: LandBlockInfo = parse(payload)?;
            (
                dat_dump::land_block_info_text(&i),
                serde_json::to_value(&i)?,
            )
        }
        Parsed::Iteration => {
            let it = Iteration::from_bytes(payload)
                .map_err(|e| anyhow::anyhow!(dat_check::chain(&e)))?;
            (dat_dump::iteration_text(&it), dat_dump::iteration_json(&it))
        }
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print!("{text}");
    }
    Ok(())
}

fn wave(path: &Path, id: u32, out: &Path) -> anyhow::Result<()> {
    let mut r = open(path)?;
    let payload = read(&mut r, path, id)?;
    let wave: Wave = parse(&payload)?;
    let wants_mp3 = out
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("mp3"));
    let (bytes, what) = match (wants_mp3, wave.mp3_bytes()) {
        (true, Some(mp3)) => (mp3.to_vec(), "raw MPEG Layer-3 stream"),
        (true, None) => bail!(
            "0x{id:08X} is not MPEG Layer-3 (format tag {}); write a .wav instead",
            wave.format_tag()
                .map_or_else(|| "?".to_owned(), |t| format!("{t:#06x}"))
        ),
        (false, _) => (wave.to_wav_bytes(), "RIFF WAVE"),
    };
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {} ({what}, {} bytes)", out.display(), bytes.len());
    Ok(())
}
