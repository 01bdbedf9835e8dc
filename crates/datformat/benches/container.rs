//! Criterion benches: container.
//!
//! - `lookup/cell_100k_hit` / `_miss`: one B-tree lookup in a cell-style dat (256-byte blocks)
//!   of 100 000 entries (landblock-like ids across the whole u32 range); target ≤ 2 µs.
//! - `iterate/*`: walk all entries in id order and read every payload into a reused buffer;
//!   throughput in bytes of payload per second; target ≥ 500 MB/s. `*_file_order` reads the
//!   same payloads sorted by offset.
//!
//! The dats live in a `Cursor<Vec<u8>>` (in memory), so the numbers are the container's own
//! cost, not the disk's.

use std::hint::black_box;
use std::io::Cursor;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use resound_datformat::container::{DatKind, DatReader, DatWriter, EntryOptions};

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn payload(seed: u32, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (seed as usize).wrapping_mul(31).wrapping_add(i) as u8)
        .collect()
}

/// 100 000 entries of 252 bytes (a LandBlock's size) in a 256-byte-block dat.
fn cell_dat() -> (Vec<u8>, Vec<u32>) {
    let mut w = DatWriter::new(DatKind::Cell, 256).expect("block size");
    let mut ids = Vec::with_capacity(100_000);
    for i in 0..100_000u32 {
        // xxyy landblock coordinates times a few cell numbers: spread over the u32 range
        let block = i / 4;
        let id = ((block % 255) << 24)
            | ((block / 255) << 16)
            | [0xFFFF, 0xFFFE, 0x0100, 0x0101][i as usize % 4];
        w.insert(id, &payload(id, 252), EntryOptions::default())
            .expect("insert");
        ids.push(id);
    }
    (w.finish(), ids)
}

/// 4000 entries of 1–16 KiB in a 1024-byte-block dat (Wave-like payloads).
fn portal_dat() -> Vec<u8> {
    let mut w = DatWriter::new(DatKind::Portal, 1024).expect("block size");
    let mut rng = Rng(0x5EED_0000_0000_0001);
    for i in 0..4000u32 {
        let len = 1024 + (rng.next() % (15 * 1024)) as usize;
        w.insert(0x0A00_0000 + i, &payload(i, len), EntryOptions::default())
            .expect("insert");
    }
    w.finish()
}

fn total_payload(bytes: &[u8]) -> u64 {
    let mut r = DatReader::new(Cursor::new(bytes)).expect("open");
    r.entries()
        .expect("entries")
        .iter()
        .map(|e| u64::from(e.size))
        .sum()
}

fn iterate(r: &mut DatReader<Cursor<Vec<u8>>>, buf: &mut Vec<u8>) -> u64 {
    let mut sum = 0u64;
    for e in r.entries().expect("entries") {
        r.read_entry_into(&e, buf).expect("read");
        sum += buf.len() as u64 + u64::from(buf.first().copied().unwrap_or(0));
    }
    sum
}

/// The same walk, but payloads read in file (offset) order: shows what memory locality is
/// worth when a caller scans a whole dat.
fn iterate_file_order(r: &mut DatReader<Cursor<Vec<u8>>>, buf: &mut Vec<u8>) -> u64 {
    let mut entries = r.entries().expect("entries");
    entries.sort_unstable_by_key(|e| e.offset);
    let mut sum = 0u64;
    for e in entries {
        r.read_entry_into(&e, buf).expect("read");
        sum += buf.len() as u64 + u64::from(buf.first().copied().unwrap_or(0));
    }
    sum
}

fn benches(c: &mut Criterion) {
    let (cell, ids) = cell_dat();
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let queries: Vec<u32> = (0..4096)
        .map(|_| ids[(rng.next() % ids.len() as u64) as usize])
        .collect();
    let misses: Vec<u32> = queries.iter().map(|id| id ^ 0x0000_0F00).collect();

    let mut lookup = c.benchmark_group("lookup");
    let mut r = DatReader::new(Cursor::new(cell.clone())).expect("open");
    let mut i = 0usize;
    lookup.bench_function("cell_100k_hit", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(r.entry(black_box(queries[i])).expect("lookup"))
        })
    });
    lookup.bench_function("cell_100k_miss", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(r.entry(black_box(misses[i])).expect("lookup"))
        })
    });
    lookup.bench_function("cell_100k_read", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(r.read(black_box(queries[i])).expect("read"))
        })
    });
    lookup.finish();

    let portal = portal_dat();
    let mut group = c.benchmark_group("iterate");
    group.sample_size(10);
    for (name, bytes) in [("cell_100k", cell), ("portal_4k", portal)] {
        group.throughput(Throughput::Bytes(total_payload(&bytes)));
        let mut r = DatReader::new(Cursor::new(bytes)).expect("open");
        let mut buf = Vec::new();
        group.bench_function(name, |b| b.iter(|| black_box(iterate(&mut r, &mut buf))));
        group.bench_function(format!("{name}_file_order"), |b| {
            b.iter(|| black_box(iterate_file_order(&mut r, &mut buf)))
        });
    }
    group.finish();
}

criterion_group!(container, benches);
criterion_main!(container);
