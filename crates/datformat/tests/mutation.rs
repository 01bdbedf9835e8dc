//! The CI mutation sweep (issue 15): seeded mutations of the fixture world's records and dats
//! through every record parser and the container, on stable Rust.
//!
//! Every record of the compact fixture world (Region, SoundTables, Waves, LandBlocks,
//! LandBlockInfos) and both dats are the seeds. Each case takes one seed and applies one to
//! three mutations: bit flips, a truncation, inserted bytes, deleted bytes, or an extreme count
//! (`0xFFFFFFFF`, `0x7FFFFFFF`, `0x80000000`, `0x00010000`, the input length, …) written over
//! an aligned `u32` or `u16`. On top of the random cases, every 4-aligned offset of every
//! record (the first 4 KiB of a Wave) gets `0xFFFFFFFF` and `0x7FFFFFFF` once, so each count
//! field sees both.
//!
//! A case fails when the parser panics (each case runs under `catch_unwind`; the report names
//! the target, the seed record, the case seed and the mutations), when a record it accepts
//! does not write back to the same bytes, or when any single allocation made while parsing is
//! larger than [`ALLOC_FACTOR`] (4) × the input length + a constant: [`RECORD_SLACK_LIMIT`]
//! (4 KiB: error messages, small vectors) for a record, [`DAT_SLACK_LIMIT`] (64 KiB: the fixed
//! zlib inflate state, ~43 KiB) for a dat. A counting global allocator, armed only around the
//! parse, measures it. Measured: at most 2.7 × input + 1 KiB (a Region), 2 × for a dat.
//!
//! `RESOUND_MUTATIONS=N` scales the random cases (default 100 000 in all); the large run of
//! `docs/reliability.md` used it.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use resound_datformat::container::{DatReader, DatWriter, EntryOptions};
use resound_datformat::entry_type::{RecordType, entry_type};
use resound_datformat::record::{LandBlock, LandBlockInfo, Record, Region, SoundTable, Wave};
use resound_fixture::{FixtureOptions, write_world_with};

/// Largest single allocation per input byte a parse may make.
const ALLOC_FACTOR: usize = 4;
/// Allowance on top of `ALLOC_FACTOR × len` for a record (error strings, small vectors).
const RECORD_SLACK_LIMIT: usize = 4 * 1024;
/// Allowance on top of `ALLOC_FACTOR × len` for a dat (the zlib inflate state, ~43 KiB).
const DAT_SLACK_LIMIT: usize = 64 * 1024;
/// Small constant the ratio figure leaves out (error messages, small maps).
const RECORD_SLACK: usize = 1024;
/// Random cases over all targets unless `RESOUND_MUTATIONS` says otherwise.
const DEFAULT_CASES: u64 = 100_000;
/// The sweep's base seed.
const SEED: u64 = 0x0150_FA11_5EED;
/// Entries read from one mutated dat at most.
const MAX_DAT_ENTRIES: usize = 256;
/// Extreme values written over counts.
const EXTREME_U32: [u32; 6] = [u32::MAX, 0x7FFF_FFFF, 0x8000_0000, 0x0001_0000, 0xFFFF, 0];
const EXTREME_U16: [u16; 4] = [u16::MAX, 0x7FFF, 0x8000, 0];

/// The counting allocator: the largest request made on this thread while measured.
#[global_allocator]
static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;

/// SplitMix64: small, seedable, the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Record(RecordType),
    Dat,
}

struct Seed {
    target: Target,
    name: String,
    bytes: Vec<u8>,
    /// Where mutations of a dat concentrate (header, root node); empty for records.
    hot: Vec<std::ops::Range<usize>>,
}

/// Every record of the compact fixture world, and both dats.
fn seeds() -> Vec<Seed> {
    let world = write_world_with(&FixtureOptions::compact()).unwrap();
    let mut out = Vec::new();
    for (label, dat) in [("portal", &world.portal), ("cell", &world.cell)] {
        let mut reader = DatReader::new(Cursor::new(&dat[..])).unwrap();
        let header = reader.header().clone();
        for entry in reader.entries().unwrap() {
            let Some(t) = entry_type(header.dat_type, entry.id).parsed else {
                continue;
            };
            if t == RecordType::Iteration {
                continue;
            }
            out.push(Seed {
                target: Target::Record(t),
                name: format!("{t} {:#010x}", entry.id),
                bytes: reader.read_entry(&entry).unwrap(),
                hot: Vec::new(),
            });
        }
        let root = header.root_block as usize;
        let bs = header.block_size as usize;
        out.push(Seed {
            target: Target::Dat,
            name: format!("{label} dat"),
            bytes: dat.clone(),
            hot: vec![0..400, root..(root + bs).min(dat.len())],
        });
    }
    out
}

/// One mutation, described for the report.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, hot: &[std::ops::Range<usize>]) -> String {
    let pick = |rng: &mut Rng, len: usize| -> usize {
        if !hot.is_empty() && rng.below(3) < 2 {
            let r = &hot[rng.below(hot.len())];
            (r.start + rng.below(r.len())).min(len.saturating_sub(1))
        } else {
            rng.below(len)
        }
    };
    let len = bytes.len();
    if len == 0 {
        bytes.push(rng.next() as u8);
        return "grow empty".into();
    }
    match rng.below(6) {
        0 => {
            let n = 1 + rng.below(4);
            for _ in 0..n {
                let at = pick(rng, len);
                bytes[at] ^= 1 << rng.below(8);
            }
            format!("flip {n} bits")
        }
        1 => {
            let at = rng.below(len);
            bytes.truncate(at);
            format!("truncate at {at}")
        }
        2 => {
            let at = pick(rng, len);
            let n = 1 + rng.below(16);
            let ins: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            bytes.splice(at..at, ins);
            format!("insert {n} bytes at {at}")
        }
        3 => {
            let at = pick(rng, len);
            let n = (1 + rng.below(16)).min(len - at);
            bytes.drain(at..at + n);
            format!("delete {n} bytes at {at}")
        }
        4 if len >= 4 => {
            let at = (pick(rng, len) & !3).min(len - 4);
            let v = match rng.below(EXTREME_U32.len() + 1) {
                i if i < EXTREME_U32.len() => EXTREME_U32[i],
                _ => len as u32,
            };
            bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            format!("u32 {v:#x} at {at}")
        }
        _ if len >= 2 => {
            let at = (pick(rng, len) & !1).min(len - 2);
            let v = EXTREME_U16[rng.below(EXTREME_U16.len())];
            bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
            format!("u16 {v:#x} at {at}")
        }
        _ => {
            bytes[0] = !bytes[0];
            "invert byte 0".into()
        }
    }
}

/// Parses `bytes` as `T`; what it accepts must write back unchanged.
fn record<T: Record>(bytes: &[u8]) -> Result<bool, String> {
    let Ok(padded) = T::from_bytes_padded(bytes) else {
        return Ok(false);
    };
    let written = padded
        .to_bytes()
        .map_err(|e| format!("{} parsed but cannot be written: {e}", T::NAME))?;
    if written != bytes {
        return Err(format!(
            "{} round trip differs ({} bytes in, {} out)",
            T::NAME,
            bytes.len(),
            written.len()
        ));
    }
    Ok(true)
}

fn parse(t: RecordType, bytes: &[u8]) -> Result<bool, String> {
    match t {
        RecordType::Region => record::<Region>(bytes),
        RecordType::SoundTable => record::<SoundTable>(bytes),
        RecordType::Wave => record::<Wave>(bytes),
        RecordType::LandBlock => record::<LandBlock>(bytes),
        RecordType::LandBlockInfo => record::<LandBlockInfo>(bytes),
        RecordType::Iteration => Ok(false),
    }
}

/// Opens, walks and reads a dat, parses every record it reads, reads its Iteration and opens
/// it for editing (one insert and one remove).
fn dat(bytes: &[u8]) -> Result<bool, String> {
    if let Ok(mut w) = DatWriter::from_bytes(bytes.to_vec()) {
        let _ = w.insert(0x0A00_7777, b"mutation", EntryOptions::default());
        let _ = w.remove(0x1300_0000);
    }
    let Ok(mut reader) = DatReader::new(Cursor::new(bytes)) else {
        return Ok(false);
    };
    let kind = reader.header().dat_type;
    let _ = reader.iteration();
    let _ = reader.entry(0x1300_0000);
    let Ok(entries) = reader.entries() else {
        return Ok(true);
    };
    let mut payload = Vec::new();
    for entry in entries.iter().take(MAX_DAT_ENTRIES) {
        if reader.read_entry_into(entry, &mut payload).is_ok()
            && let Some(t) = entry_type(kind, entry.id).parsed
        {
            parse(t, &payload)?;
        }
    }
    Ok(true)
}

fn check(target: Target, bytes: &[u8]) -> Result<bool, String> {
    match target {
        Target::Record(t) => parse(t, bytes),
        Target::Dat => dat(bytes),
    }
}

/// What one target saw.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    cases: u64,
    accepted: u64,
    largest_ratio: f64,
    largest: usize,
}

struct Sweep {
    failures: Vec<String>,
    tallies: Vec<(Target, Tally)>,
}

impl Sweep {
    fn run_case(&mut self, seed: &Seed, bytes: &[u8], what: &str) {
        let slack = match seed.target {
            Target::Record(_) => RECORD_SLACK_LIMIT,
            Target::Dat => DAT_SLACK_LIMIT,
        };
        let limit = ALLOC_FACTOR * bytes.len() + slack;
        // A panic inside the measure unwinds through it, which disarms the count.
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let (out, usage) = resound_testalloc::on_this_thread(|| check(seed.target, bytes));
            (out, usage.largest)
        }));
        let tally = match self.tallies.iter_mut().find(|(t, _)| *t == seed.target) {
            Some((_, t)) => t,
            None => {
                self.tallies.push((seed.target, Tally::default()));
                &mut self.tallies.last_mut().unwrap().1
            }
        };
        tally.cases += 1;
        let fail = match outcome {
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                Some(format!("panic: {msg}"))
            }
            Ok((Err(e), _)) => Some(e),
            Ok((Ok(accepted), largest)) => {
                tally.accepted += u64::from(accepted);
                let ratio = largest.saturating_sub(RECORD_SLACK) as f64 / bytes.len().max(1) as f64;
                tally.largest = tally.largest.max(largest);
                tally.largest_ratio = tally.largest_ratio.max(ratio);
                (largest > limit).then(|| {
                    format!(
                        "allocated {largest} bytes at once for a {}-byte input (limit {limit})",
                        bytes.len()
                    )
                })
            }
        };
        if let Some(f) = fail {
            self.failures.push(format!("{} ({what}): {f}", seed.name));
        }
    }
}

fn cases() -> u64 {
    std::env::var("RESOUND_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

#[test]
fn seeded_mutations_never_panic_and_allocate_in_proportion() {
    let started = Instant::now();
    let seeds = seeds();
    for t in [
        RecordType::Region,
        RecordType::SoundTable,
        RecordType::Wave,
        RecordType::LandBlock,
        RecordType::LandBlockInfo,
    ] {
        assert!(
            seeds.iter().any(|s| s.target == Target::Record(t)),
            "the fixture world has a {t}"
        );
    }
    let mut sweep = Sweep {
        failures: Vec::new(),
        tallies: Vec::new(),
    };
    // Every seed unmodified: accepted, round-trips.
    for seed in &seeds {
        sweep.run_case(seed, &seed.bytes, "unmodified");
    }
    // Extreme counts at every aligned offset.
    let mut systematic = 0u64;
    for seed in seeds.iter().filter(|s| s.target != Target::Dat) {
        let end = seed.bytes.len().min(4096).saturating_sub(3);
        for at in (0..end).step_by(4) {
            for v in [u32::MAX, 0x7FFF_FFFF] {
                let mut b = seed.bytes.clone();
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                sweep.run_case(seed, &b, &format!("u32 {v:#x} at {at}"));
                systematic += 1;
            }
        }
    }
    // Random cases: targets in turn (the dats get a sixth of the cases), seeds in turn within.
    let total = cases();
    let targets: Vec<Target> = {
        let mut t: Vec<Target> = Vec::new();
        for s in &seeds {
            if !t.contains(&s.target) {
                t.push(s.target);
            }
        }
        t
    };
    for case in 0..total {
        let target = targets[(case % targets.len() as u64) as usize];
        let of_target: Vec<&Seed> = seeds.iter().filter(|s| s.target == target).collect();
        let seed = of_target[((case / targets.len() as u64) % of_target.len() as u64) as usize];
        let case_seed = SEED ^ case.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let mut rng = Rng(case_seed);
        let mut bytes = seed.bytes.clone();
        let mut what = Vec::new();
        for _ in 0..1 + rng.below(3) {
            what.push(mutate(&mut rng, &mut bytes, &seed.hot));
        }
        let what = format!("case seed {case_seed:#018x}: {}", what.join(", "));
        sweep.run_case(seed, &bytes, &what);
    }
    let elapsed = started.elapsed();
    let all: u64 = sweep.tallies.iter().map(|(_, t)| t.cases).sum();
    eprintln!(
        "mutation sweep: {all} cases ({systematic} systematic, {total} random) in {:.1} s",
        elapsed.as_secs_f64()
    );
    for (target, t) in &sweep.tallies {
        eprintln!(
            "  {target:?}: {} cases, {} accepted, largest single allocation {} bytes, \
             (largest − 1 KiB) / input ≤ {:.2}",
            t.cases, t.accepted, t.largest, t.largest_ratio
        );
    }
    assert!(all >= DEFAULT_CASES.min(total), "{all} cases");
    assert!(
        sweep.failures.is_empty(),
        "{} failing cases, first ones:\n{}",
        sweep.failures.len(),
        sweep.failures[..sweep.failures.len().min(20)].join("\n")
    );
}
