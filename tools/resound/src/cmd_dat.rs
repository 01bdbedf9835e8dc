//! `resound dat`: list, dump, export and check DAT files (the format knowledge lives in
//! `resound-datformat`: `entry_type`, `describe`, `check`).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use resound_engine::advanced::datformat::check::report::CHECK_CAP;
use resound_engine::advanced::datformat::container::{DatReader, Trimmed};
use resound_engine::advanced::datformat::describe::Decoded;
use resound_engine::advanced::datformat::entry_type::{RecordType, entry_type};
use resound_engine::advanced::datformat::id::parse_id;
use resound_engine::advanced::datformat::listing::Listing;
use resound_engine::advanced::datformat::record::{Padded, Record, Wave};

use crate::dat_check;
use crate::dat_file::open;

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
        /// Decode FILE as a bare record of this type instead of a dat: region, sound-table,
        /// wave, land-block, land-block-info or iteration.
        #[arg(long, value_name = "TYPE")]
        raw: Option<RecordType>,
        /// The .dat file (or, with --raw, the record file).
        file: PathBuf,
        /// The entry id (0x hex, as `dat ls` shows it, or decimal); not used with --raw.
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
        /// The Wave id (0x hex, as `dat ls` shows it, or decimal).
        id: String,
        /// Output path.
        out: PathBuf,
    },
    /// Parse and round-trip every entry of every *.dat in DIR (in parallel); exits non-zero if
    /// any entry or file fails. Record types resound does not parse are only read from the
    /// container and counted as skipped; zero bytes after a record's last field are padding.
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
                resound_studio::capped_read::read_capped(&file, MAX_RAW_BYTES, "record file")?;
            dump(kind, None, &payload, json)
        }
        Command::Dump {
            raw: None,
            file,
            id,
            json,
        } => {
            let id = parse_id(id.as_deref().unwrap_or_default())?;
            let mut r = open(&file)?;
            let t = entry_type(r.header().dat_type, id);
            let payload = read_trimmed(&mut r, &file, id)?;
            match t.parsed {
                // the record's error names the id its bytes hold; say which entry was asked for
                Some(p) => dump_trimmed(p, id, &payload, json)
                    .with_context(|| format!("decoding 0x{id:08X} of {}", file.display())),
                None => bail!(
                    "0x{id:08X} ({} bytes) {}, which resound does not decode; it decodes Region, \
                     SoundTable, Wave, LandBlock, LandBlockInfo and Iteration",
                    payload.len(),
                    if t.is_unknown() {
                        "has an unknown record type".to_owned()
                    } else {
                        format!("has record type {}", t.name)
                    }
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

/// Largest bare record file `dat dump --raw` reads (a retail entry is far smaller).
const MAX_RAW_BYTES: u64 = 64 << 20;

fn read(r: &mut DatReader<BufReader<File>>, path: &Path, id: u32) -> anyhow::Result<Vec<u8>> {
    r.read(id)
        .with_context(|| format!("reading 0x{id:08X} from {}", path.display()))?
        .with_context(|| format!("0x{id:08X} is not in {}", path.display()))
}

/// An entry read with its trailing zero run counted, not held (at most [`CHECK_CAP`] bytes
/// before it).
fn read_trimmed(
    r: &mut DatReader<BufReader<File>>,
    path: &Path,
    id: u32,
) -> anyhow::Result<Trimmed> {
    let entry = r
        .entry(id)
        .with_context(|| format!("reading 0x{id:08X} from {}", path.display()))?
        .with_context(|| format!("0x{id:08X} is not in {}", path.display()))?;
    r.read_entry_trimmed(&entry, CHECK_CAP)
        .with_context(|| format!("reading 0x{id:08X} from {}", path.display()))
}

/// [`dump`] of an entry read by [`read_trimmed`].
fn dump_trimmed(kind: RecordType, id: u32, payload: &Trimmed, json: bool) -> anyhow::Result<()> {
    let decoded = Decoded::parse_trimmed(kind, payload)?;
    emit_decoded(kind, Some(id), &decoded, json)
}

fn ls(path: &Path, json: bool) -> anyhow::Result<()> {
    let mut r = open(path)?;
    let entries = r
        .entries()
        .with_context(|| format!("walking the B-tree of {}", path.display()))?;
    let listing = Listing::new(path.display().to_string(), r.header(), &entries);
    crate::report::emit_doc(json, &listing, &listing)
}

/// Prints a decoded record; its JSON is `{record_type, id, record}`, the record under the
/// file format's own field names (`docs/json.md`).
fn dump(kind: RecordType, id: Option<u32>, payload: &[u8], json: bool) -> anyhow::Result<()> {
    let decoded = Decoded::parse(kind, payload)?;
    emit_decoded(kind, id, &decoded, json)
}

fn emit_decoded(
    kind: RecordType,
    id: Option<u32>,
    decoded: &Padded<Decoded>,
    json: bool,
) -> anyhow::Result<()> {
    let doc = serde_json::json!({
        "record_type": kind.name(),
        "id": id.map(crate::json_out::hex),
        crate::json_out::RECORD_KEY: decoded.record,
    });
    crate::report::emit_doc(json, &doc, decoded)
}

/// Largest Wave `dat wave` exports (its declared size, checked before anything inflates).
const MAX_WAVE_BYTES: u64 = 64 << 20;

fn wave(path: &Path, id: u32, out: &Path) -> anyhow::Result<()> {
    let mut r = open(path)?;
    if let Some(entry) = r.entry(id).ok().flatten() {
        let size = r
            .payload_size(&entry)
            .with_context(|| format!("reading 0x{id:08X} from {}", path.display()))?;
        if size > MAX_WAVE_BYTES {
            bail!(
                "0x{id:08X} declares {size} bytes, more than {} MiB (the wave-export cap)",
                MAX_WAVE_BYTES >> 20
            );
        }
    }
    let payload = read(&mut r, path, id)?;
    let wave = Wave::from_bytes(&payload)?;
    let wants_mp3 = out
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("mp3"));
    if !wants_mp3 {
        let (channels, rate) = (
            wave.channels().unwrap_or(0),
            wave.sample_rate().unwrap_or(0),
        );
        if channels == 0 || rate == 0 {
            bail!(
                "0x{id:08X} has {channels} channel(s) at {rate} Hz; a WAV needs at least 1 channel \
                 and a sample rate above 0 Hz"
            );
        }
    }
    let Some((bytes, what)) = wave.export(wants_mp3) else {
        let tag = wave
            .format_tag()
            .map_or_else(|| "?".to_owned(), |t| format!("{t:#06x}"));
        bail!("0x{id:08X} is not MPEG Layer-3 (format tag {tag}); write a .wav instead");
    };
    let file = crate::out_file::OutFile::create(out)?;
    let to_stdout = file.is_stdout();
    crate::out_file::write_bytes(file, &bytes)?;
    let line = format!("wrote {} ({what}, {} bytes)\n", out.display(), bytes.len());
    if to_stdout {
        // standard output holds the file
        return crate::report::emit_to_stderr(&line);
    }
    crate::report::emit(&line)
}
