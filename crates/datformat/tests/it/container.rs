//! Integration tests: container (reader, writer, B-tree, corruption robustness).
//!
//! A counting global allocator (`resound_testalloc::Probe`) records the largest single
//! allocation made on the current thread, so the corruption tests can check that no count or size read from a damaged file
//! makes the reader allocate more than the file is long.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers outside #[test] fns: a failed unwrap is a failed test"
)]

use std::collections::BTreeMap;
use std::io::Cursor;

use proptest::prelude::*;
use resound_datformat::container::{
    BRANCH_FILL, DRW_TRANSACTIONS, DatEntry, DatHeader, DatKind, DatReader, DatWriter,
    EntryOptions, FLAG_COMPRESSED, HEADER_SIZE, ITERATION_ID, Iteration, IterationError,
    IterationRange, LookupError, MAX_ENTRIES, OpenDatError, ReadEntryError,
};

// ----- allocation tracking ------------------------------------------------------------------

#[global_allocator]
static ALLOCATOR: resound_testalloc::Probe = resound_testalloc::Probe;

/// Fixed allocations that do not depend on the input: the zlib decoder's state (~43 KiB).
const FIXED_OVERHEAD: usize = 64 * 1024;

/// Runs `f` and returns the largest single allocation it made on this thread.
fn largest_allocation(f: impl FnOnce()) -> usize {
    resound_testalloc::on_this_thread(f).1.largest
}

// ----- helpers ------------------------------------------------------------------------------

fn payload(id: u32, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (id as usize).wrapping_mul(131).wrapping_add(i * 7) as u8)
        .collect()
}

fn opts() -> EntryOptions {
    EntryOptions::default()
}

fn reader(bytes: &[u8]) -> DatReader<Cursor<&[u8]>> {
    DatReader::new(Cursor::new(bytes)).unwrap()
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn header_of(b: &[u8]) -> DatHeader {
    DatHeader::from_bytes(b[..HEADER_SIZE].try_into().unwrap())
}

/// Byte offset of the node entry for `id` inside the root node's first block (root must be a
/// leaf small enough that the entry lies in the first block).
fn root_entry_at(bytes: &[u8], index: usize) -> usize {
    header_of(bytes).root_block as usize + 4 + 252 + 24 * index
}

/// Reads everything a caller could read; returns a summary. Must never panic.
fn exercise(bytes: &[u8], ids: &[u32]) -> Result<usize, String> {
    let mut r = DatReader::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
    let mut total = 0;
    if let Ok(entries) = r.entries() {
        assert!(
            entries.windows(2).all(|w| w[0].id < w[1].id),
            "entries() is ascending"
        );
        for e in &entries {
            if let Ok(data) = r.read_entry(e) {
                if !e.is_compressed() {
                    assert_eq!(data.len(), e.size as usize);
                }
                total += data.len();
            }
        }
    }
    for &id in ids {
        if let Ok(Some(e)) = r.entry(id) {
            assert_eq!(e.id, id, "a found entry has the id asked for");
            let _ = r.read_entry(&e);
        }
    }
    let _ = r.iteration();
    Ok(total)
}

/// A written dat with a three-level tree, compressed and uncompressed entries, an Iteration.
fn sample_dat(block_size: u32, n: u32) -> (Vec<u8>, BTreeMap<u32, Vec<u8>>) {
    let mut w = DatWriter::new(DatKind::Cell, block_size).unwrap();
    let mut model = BTreeMap::new();
    for i in 0..n {
        let id = i.wrapping_mul(0x9E37_79B9);
        let data = payload(id, (i as usize * 37) % 900);
        let compress = i % 3 == 0;
        w.insert(
            id,
            &data,
            EntryOptions {
                compress,
                raw_date: 1_700_000_000 + i,
                iteration: 0,
            },
        )
        .unwrap();
        model.insert(id, data);
    }
    w.write_iteration(&Iteration::new(3), 1_700_000_000)
        .unwrap();
    model.insert(ITERATION_ID, Iteration::new(3).to_bytes());
    (w.finish(), model)
}

// ----- header and writer layout -------------------------------------------------------------

#[test]
fn new_dat_header_is_laid_out_like_drw() {
    let w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    let b = w.as_bytes();
    assert_eq!(b.len(), 0x400, "first block at ceil(400/1024)*1024");
    assert_eq!(&b[0x100..0x104], &[0x00, 0x50, 0x4C, 0x00]);
    assert!(b[0x104..0x140].iter().all(|&x| x == 0));
    assert_eq!(&b[0x140..0x144], &[0x42, 0x54, 0, 0]);
    assert_eq!(le32(b, 0x144), 1024);
    assert_eq!(le32(b, 0x148), 0x400);
    assert_eq!(le32(b, 0x14C), 1);
    assert_eq!(le32(b, 0x160), 0, "empty tree");
    let h = header_of(b);
    assert_eq!(h.transactions, DRW_TRANSACTIONS);
    assert_eq!(DatHeader::from_bytes(&h.to_bytes()), h);
    let cell = DatWriter::new(DatKind::Cell, 256).unwrap();
    assert_eq!(cell.as_bytes().len(), 512);
    assert_eq!(le32(cell.as_bytes(), 0x14C), 2);
    assert!(DatWriter::new(DatKind::Local, 4).is_err());
    let mut r = reader(cell.as_bytes());
    assert_eq!(r.entries().unwrap(), vec![]);
    assert_eq!(r.read(1).unwrap(), None);
}

#[test]
fn header_mut_edits_info_fields_only() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(1, b"abc", opts()).unwrap();
    let root = w.header().root_block;
    {
        let mut h = w.header_mut();
        h.engine_version = 110;
        h.minor_version = 6657;
        h.version[..3].copy_from_slice(b"1.0");
        h.root_block = 0xDEAD; // writer-owned, restored on drop
        h.block_size = 7;
    }
    let h = header_of(w.as_bytes());
    assert_eq!(
        (
            h.engine_version,
            h.minor_version,
            h.root_block,
            h.block_size
        ),
        (110, 6657, root, 1024)
    );
    assert_eq!(h.version_string(), "1.0");
    assert_eq!(reader(w.as_bytes()).read(1).unwrap().unwrap(), b"abc");
}

#[test]
fn entries_carry_version_2_flags_date_iteration() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(
        0x0A00_0001,
        &[1, 2, 3, 4, 5, 6, 7],
        EntryOptions {
            compress: false,
            raw_date: 1234,
            iteration: 1,
        },
    )
    .unwrap();
    let e = reader(w.as_bytes()).entry(0x0A00_0001).unwrap().unwrap();
    assert_eq!(
        e,
        DatEntry {
            flags: 0,
            version: 2,
            id: 0x0A00_0001,
            offset: 0x400,
            size: 7,
            raw_date: 1234,
            iteration: 1
        }
    );
    // a leaf written by the writer has the fill pattern in slot 0 (as DatReaderWriter)
    let root = w.header().root_block as usize;
    assert_eq!(le32(w.as_bytes(), root + 4), BRANCH_FILL);
}

// ----- B-tree -------------------------------------------------------------------------------

#[test]
fn more_than_61_entries_split_the_root() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    for id in 0..MAX_ENTRIES as u32 {
        w.insert(id * 10, &payload(id, 40), opts()).unwrap();
    }
    let root = w.header().root_block as usize;
    assert_eq!(
        le32(w.as_bytes(), root + 4),
        BRANCH_FILL,
        "61 entries: one leaf"
    );
    assert_eq!(le32(w.as_bytes(), root + 4 + 248), 61);
    w.insert(5, b"62nd", opts()).unwrap();
    let b = w.as_bytes();
    let root = w.header().root_block as usize;
    assert_ne!(le32(b, root + 4), BRANCH_FILL, "root became internal");
    assert_eq!(le32(b, root + 4 + 248), 1, "the median moved up");
    assert_eq!(
        le32(b, root + 4 + 12),
        BRANCH_FILL,
        "slots after the two branches are filled"
    );
    assert_eq!(
        le32(b, root + 4 + 252 + 4),
        300,
        "median = entry 30 of the full node"
    );
    let mut r = reader(b);
    let ids: Vec<u32> = r.entries().unwrap().iter().map(|e| e.id).collect();
    let mut want: Vec<u32> = (0..61).map(|i| i * 10).collect();
    want.insert(1, 5);
    assert_eq!(ids, want);
    assert_eq!(r.read(5).unwrap().unwrap(), b"62nd");
    for id in 0..61u32 {
        assert_eq!(r.read(id * 10).unwrap().unwrap(), payload(id, 40));
    }
}

#[test]
fn thousands_of_entries_deep_tree_and_unsigned_order() {
    let mut w = DatWriter::new(DatKind::Cell, 256).unwrap();
    let mut model = BTreeMap::new();
    for i in 0..6000u32 {
        // landblock-like ids, half of them above 0x7FFFFFFF
        let id = (i % 255) << 24 | (i / 255) << 16 | 0xFFFF;
        let data = payload(id, 252);
        w.insert(id, &data, opts()).unwrap();
        model.insert(id, data);
    }
    for extra in [0x7FFF_FFFFu32, 0x8000_0000, 0xFFFF_FFFE, 0, 1] {
        w.insert(extra, &extra.to_le_bytes(), opts()).unwrap();
        model.insert(extra, extra.to_le_bytes().to_vec());
    }
    let mut r = reader(w.as_bytes());
    let entries = r.entries().unwrap();
    assert_eq!(
        entries.iter().map(|e| e.id).collect::<Vec<_>>(),
        model.keys().copied().collect::<Vec<_>>()
    );
    for (id, data) in &model {
        assert_eq!(r.read(*id).unwrap().as_ref(), Some(data), "id {id:#x}");
    }
    assert_eq!(r.read(0x8000_0001).unwrap(), None);
    assert_eq!(r.read(0xFFFF_FFFF).unwrap(), None);
    // three levels: the root's first child is internal too
    let b = w.as_bytes();
    let root = w.header().root_block as usize;
    let child = le32(b, root + 4) as usize;
    assert_ne!(le32(b, child + 4), BRANCH_FILL, "depth ≥ 3");
}

#[test]
fn deletes_rebalance_and_everything_stays_readable() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    let mut model = BTreeMap::new();
    for i in 0..4000u32 {
        let id = i.wrapping_mul(2_654_435_761);
        let data = payload(id, (i as usize % 50) * 40);
        w.insert(id, &data, opts()).unwrap();
        model.insert(id, data);
    }
    let keys: Vec<u32> = model.keys().copied().collect();
    // delete every other id from the front, then a contiguous block from the back
    for (k, id) in keys.iter().enumerate() {
        if k % 2 == 0 || k > 3000 {
            assert!(w.remove(*id).unwrap());
            model.remove(id);
        }
    }
    assert!(!w.remove(keys[0]).unwrap(), "already removed");
    let mut r = reader(w.as_bytes());
    assert_eq!(
        r.entries()
            .unwrap()
            .iter()
            .map(|e| e.id)
            .collect::<Vec<_>>(),
        model.keys().copied().collect::<Vec<_>>()
    );
    for (id, data) in &model {
        assert_eq!(r.read(*id).unwrap().as_ref(), Some(data));
    }
    for id in keys.iter().filter(|id| !model.contains_key(id)) {
        assert_eq!(r.entry(*id).unwrap(), None);
    }
    // removing everything leaves an empty but valid dat
    for id in model.keys() {
        assert!(w.remove(*id).unwrap());
    }
    assert_eq!(reader(w.as_bytes()).entries().unwrap(), vec![]);
    assert!(
        w.header().free_block_count > 1000,
        "released blocks are on the free list"
    );
}

#[test]
fn replace_with_larger_and_smaller_payload_reuses_blocks() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    for id in 0..10u32 {
        w.insert(id, &payload(id, 500), opts()).unwrap();
    }
    let start = w.entry(3).unwrap().unwrap().offset;
    let size0 = w.as_bytes().len();
    w.insert(3, &payload(99, 10_000), opts()).unwrap();
    let e = w.entry(3).unwrap().unwrap();
    assert_eq!(e.offset, start, "the chain's first block is kept");
    assert_eq!(w.as_bytes().len(), size0 + 9 * 1024, "nine more blocks");
    assert_eq!(w.header().free_block_count, 0);
    w.insert(3, &payload(98, 100), opts()).unwrap();
    assert_eq!(w.header().free_block_count, 9, "surplus blocks released");
    w.insert(42, &payload(42, 9000), opts()).unwrap();
    assert_eq!(w.header().free_block_count, 0, "and reused");
    assert_eq!(
        w.as_bytes().len(),
        size0 + 9 * 1024,
        "without growing the file"
    );
    let mut r = reader(w.as_bytes());
    assert_eq!(r.read(3).unwrap().unwrap(), payload(98, 100));
    assert_eq!(r.read(42).unwrap().unwrap(), payload(42, 9000));
    for id in (0..10u32).filter(|&id| id != 3) {
        assert_eq!(r.read(id).unwrap().unwrap(), payload(id, 500));
    }
}

#[test]
fn compressed_entries_round_trip() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    let text: Vec<u8> = b"the quick brown fox "
        .iter()
        .copied()
        .cycle()
        .take(50_000)
        .collect();
    let compress = EntryOptions {
        compress: true,
        ..opts()
    };
    w.insert(1, &text, compress).unwrap();
    w.insert(2, b"short", compress).unwrap(); // under 16 bytes: stored plain
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let noise: Vec<u8> = (0..4000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    w.insert(3, &noise, compress).unwrap(); // incompressible: stored plain
    let mut r = reader(w.as_bytes());
    let e1 = r.entry(1).unwrap().unwrap();
    assert!(e1.is_compressed());
    assert_eq!(e1.flags & FLAG_COMPRESSED, 1);
    assert!(e1.size < 2000, "stored {} bytes", e1.size);
    assert_eq!(r.read(1).unwrap().unwrap(), text);
    assert!(!r.entry(2).unwrap().unwrap().is_compressed());
    assert!(!r.entry(3).unwrap().unwrap().is_compressed());
    assert_eq!(r.read(3).unwrap().unwrap(), noise);
    // replacing a compressed entry uncompressed clears the flag
    w.insert(1, b"plain now", opts()).unwrap();
    let mut r = reader(w.as_bytes());
    assert!(!r.entry(1).unwrap().unwrap().is_compressed());
    assert_eq!(r.read(1).unwrap().unwrap(), b"plain now");
}

#[test]
fn from_bytes_edits_an_existing_dat() {
    let (bytes, mut model) = sample_dat(256, 500);
    let mut w = DatWriter::from_bytes(bytes.clone()).unwrap();
    assert_eq!(w.as_bytes(), &bytes[..], "untouched until the first change");
    assert_eq!(w.current_iteration(), 3);
    let victim = *model.keys().nth(10).unwrap();
    assert!(w.remove(victim).unwrap());
    model.remove(&victim);
    w.insert(0xABCD_0000, b"new", opts()).unwrap();
    model.insert(0xABCD_0000, b"new".to_vec());
    let mut r = reader(w.as_bytes());
    for (id, data) in &model {
        assert_eq!(r.read(*id).unwrap().as_ref(), Some(data));
    }
}

// ----- Iteration ------------------------------------------------------------------------------

#[test]
fn iteration_record() {
    let it = Iteration::new(5);
    assert_eq!(
        it.to_bytes(),
        [5, 0, 0, 0, 0xFB, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0]
    );
    assert_eq!(Iteration::from_bytes(&it.to_bytes()).unwrap(), it);
    assert_eq!(
        it.ranges,
        vec![IterationRange {
            consecutive: -5,
            starting: 1
        }]
    );
    // two runs: 3 + (-2) = 1 > 0, then 1 + (-1) = 0
    let two = [
        3, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0,
    ];
    assert_eq!(Iteration::from_bytes(&two).unwrap().ranges.len(), 2);
    assert_eq!(Iteration::from_bytes(&[0, 0, 0, 0]).unwrap().ranges, vec![]);
    assert_eq!(
        Iteration::from_bytes(&[1, 0]),
        Err(IterationError::Truncated { offset: 0 })
    );
    // a run that never brings the sum down ends at the end of the payload, not in a hang
    let up = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    assert_eq!(
        Iteration::from_bytes(&up),
        Err(IterationError::Truncated { offset: 12 })
    );
    let mut trailing = it.to_bytes();
    trailing.push(0);
    assert_eq!(
        Iteration::from_bytes(&trailing),
        Err(IterationError::TrailingBytes { offset: 12, len: 1 })
    );
}

#[test]
fn iteration_entry_written_like_drw() {
    // a new dat has no Iteration entry; an entry with a later iteration creates it
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(
        1,
        b"a",
        EntryOptions {
            iteration: 1,
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(reader(w.as_bytes()).iteration().unwrap(), None);
    w.insert(
        2,
        b"b",
        EntryOptions {
            iteration: 4,
            raw_date: 77,
            ..opts()
        },
    )
    .unwrap();
    let mut r = reader(w.as_bytes());
    assert_eq!(r.iteration().unwrap(), Some(Iteration::new(4)));
    let e = r.entry(ITERATION_ID).unwrap().unwrap();
    assert_eq!((e.iteration, e.raw_date, e.size), (0, 77, 12));
    assert_eq!(w.current_iteration(), 4);
    assert_eq!(
        r.entries().unwrap().last().unwrap().id,
        ITERATION_ID,
        "largest id sorts last"
    );
}

// ----- hand-built dat with garbage branch slots ---------------------------------------------------

/// Builds a 256-byte-block cell dat by hand: a root with one entry whose branch slots are
/// `[leaf A, leaf B, leaf B (duplicate), 0xCDCDCDCD, garbage…]`; leaf A marks itself with
/// `Branches[0] = 0` (ACE style) and has junk in the other slots, leaf B uses 0xCDCDCDCD.
fn hand_built() -> (Vec<u8>, BTreeMap<u32, Vec<u8>>) {
    const BS: usize = 256;
    let mut blocks: Vec<[u8; BS]> = Vec::new(); // blocks[0] sits at 512
    let at = |i: usize| (512 + i * BS) as u32;
    let write = |blocks: &mut Vec<[u8; BS]>, data: &[u8]| -> u32 {
        let n = data.len().div_ceil(BS - 4).max(1);
        let first = blocks.len();
        for k in 0..n {
            let mut b = [0x5Au8; BS]; // junk everywhere a reader must not look
            let next = if k + 1 < n { at(first + k + 1) } else { 0 };
            b[..4].copy_from_slice(&next.to_le_bytes());
            let chunk = &data[(k * (BS - 4)).min(data.len())..((k + 1) * (BS - 4)).min(data.len())];
            b[4..4 + chunk.len()].copy_from_slice(chunk);
            blocks.push(b);
        }
        at(first)
    };
    let mut model = BTreeMap::new();
    let mut entry = |blocks: &mut Vec<[u8; BS]>, id: u32, data: Vec<u8>| -> [u8; 24] {
        let off = write(blocks, &data);
        let mut e = [0u8; 24];
        e[2] = 2;
        e[4..8].copy_from_slice(&id.to_le_bytes());
        e[8..12].copy_from_slice(&off.to_le_bytes());
        e[12..16].copy_from_slice(&(data.len() as u32).to_le_bytes());
        model.insert(id, data);
        e
    };
    let node = |branches: &[u32], entries: &[[u8; 24]]| -> Vec<u8> {
        let mut n = vec![0u8; 1716];
        for (i, b) in branches.iter().enumerate() {
            put32(&mut n, 4 * i, *b);
        }
        put32(&mut n, 248, entries.len() as u32);
        for (i, e) in entries.iter().enumerate() {
            n[252 + 24 * i..276 + 24 * i].copy_from_slice(e);
        }
        n
    };
    let a_entries: Vec<[u8; 24]> = (0..3u32)
        .map(|i| entry(&mut blocks, 0x1000_0000 + i, payload(i, 300 + i as usize)))
        .collect();
    let b_entries: Vec<[u8; 24]> = (0..2u32)
        .map(|i| entry(&mut blocks, 0x9000_0000 + i, payload(i + 9, 10)))
        .collect();
    let root_entry = entry(&mut blocks, 0x8000_0000, b"separator".to_vec());
    let mut a_branches = vec![0u32];
    a_branches.extend(std::iter::repeat_n(0x1111_1111, 61)); // junk after slot 0
    let leaf_a = write(&mut blocks, &node(&a_branches, &a_entries));
    let leaf_b = write(&mut blocks, &node(&[BRANCH_FILL; 62], &b_entries));
    let mut root_branches = vec![leaf_a, leaf_b, leaf_b, BRANCH_FILL];
    root_branches.extend(std::iter::repeat_n(0xDEAD_BEEF, 58));
    let root = write(&mut blocks, &node(&root_branches, &[root_entry]));
    let mut h = DatHeader::new(DatKind::Cell, BS as u32);
    h.root_block = root;
    h.file_size = (512 + blocks.len() * BS) as u32;
    let mut bytes = h.to_bytes().to_vec();
    bytes.resize(512, 0);
    for b in &blocks {
        bytes.extend_from_slice(b);
    }
    (bytes, model)
}

#[test]
fn hand_built_dat_with_garbage_branch_slots() {
    let (bytes, model) = hand_built();
    let mut r = reader(&bytes);
    let ids: Vec<u32> = r.entries().unwrap().iter().map(|e| e.id).collect();
    assert_eq!(ids, model.keys().copied().collect::<Vec<_>>());
    for (id, data) in &model {
        assert_eq!(r.read(*id).unwrap().as_ref(), Some(data), "id {id:#x}");
    }
    for absent in [0u32, 0x1000_0003, 0x8000_0001, 0x9000_0002, 0xFFFF_FFFF] {
        assert_eq!(r.entry(absent).unwrap(), None);
    }
    // the writer can edit it: inserting into leaf A and removing from leaf B
    let mut w = DatWriter::from_bytes(bytes).unwrap();
    w.insert(0x1000_0010, b"added", opts()).unwrap();
    assert!(w.remove(0x9000_0001).unwrap());
    let mut r = reader(w.as_bytes());
    assert_eq!(r.read(0x1000_0010).unwrap().unwrap(), b"added");
    assert_eq!(r.read(0x9000_0001).unwrap(), None);
    assert_eq!(r.read(0x9000_0000).unwrap().unwrap(), payload(9, 10));
    assert_eq!(r.entries().unwrap().len(), model.len());
}

// ----- corruption -----------------------------------------------------------------------------

#[test]
fn truncation_at_every_97th_byte() {
    let (bytes, model) = sample_dat(256, 150);
    let ids: Vec<u32> = model.keys().copied().collect();
    for cut in (0..bytes.len()).step_by(97) {
        let short = bytes[..cut].to_vec();
        // as is: the header's file size no longer fits
        assert!(
            DatReader::new(Cursor::new(&short[..])).is_err(),
            "cut at {cut}"
        );
        assert!(DatWriter::from_bytes(short.clone()).is_err());
        // with the header patched to the new length, the damage is found further in
        if cut >= HEADER_SIZE {
            let mut patched = short;
            put32(&mut patched, 0x148, cut as u32);
            let largest = largest_allocation(|| {
                let _ = exercise(&patched, &ids);
                if let Ok(mut w) = DatWriter::from_bytes(patched.clone()) {
                    let _ = w.insert(0x4242_4242, b"x", opts());
                    let _ = w.remove(ids[cut % ids.len()]);
                }
            });
            assert!(
                largest <= 2 * bytes.len() + FIXED_OVERHEAD,
                "cut {cut}: allocated {largest} bytes"
            );
        }
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let (bytes, model) = sample_dat(256, 150);
    let ids: Vec<u32> = model.keys().copied().collect();
    let mut state = 0x0DDB_1A5E_5BAD_5EEDu64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut opened = 0;
    for round in 0..250 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + next() % 8 {
            let at = (next() % damaged.len() as u64) as usize;
            damaged[at] ^= 1 << (next() % 8);
        }
        let largest = largest_allocation(|| {
            if exercise(&damaged, &ids).is_ok() {
                opened += 1;
            }
            if let Ok(mut w) = DatWriter::from_bytes(damaged.clone()) {
                let _ = w.insert(ids[round % ids.len()], &payload(7, 2000), opts());
                let _ = w.remove(ids[(round * 7) % ids.len()]);
                let _ = exercise(w.as_bytes(), &ids);
            }
        });
        assert!(
            largest <= 3 * bytes.len() + FIXED_OVERHEAD,
            "round {round}: allocated {largest} bytes"
        );
    }
    assert!(
        opened > 60,
        "most single flips leave the header intact ({opened})"
    );
}

#[test]
fn counts_set_to_all_ones() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(1, &payload(1, 100), opts()).unwrap();
    w.insert(
        2,
        &vec![7u8; 5000],
        EntryOptions {
            compress: true,
            ..opts()
        },
    )
    .unwrap();
    let bytes = w.finish();
    let check = |damaged: &[u8]| {
        largest_allocation(|| {
            let _ = exercise(damaged, &[1, 2]);
        })
    };
    // node entry count
    let mut d = bytes.clone();
    let at = header_of(&d).root_block as usize + 4 + 248;
    put32(&mut d, at, u32::MAX);
    let mut r = reader(&d);
    assert!(matches!(
        r.entry(1),
        Err(LookupError::EntryCount {
            count: u32::MAX,
            ..
        })
    ));
    assert!(matches!(r.entries(), Err(LookupError::EntryCount { .. })));
    let big = check(&d);
    assert!(
        big < bytes.len() * 2 + FIXED_OVERHEAD,
        "{big} vs {}",
        bytes.len()
    );
    // entry size
    let mut d = bytes.clone();
    put32(&mut d, root_entry_at(&bytes, 0) + 12, u32::MAX);
    assert!(matches!(
        reader(&d).read(1),
        Err(ReadEntryError::SizeTooLarge { id: 1, .. })
    ));
    let big = check(&d);
    assert!(
        big < bytes.len() * 2 + FIXED_OVERHEAD,
        "{big} vs {}",
        bytes.len()
    );
    // declared uncompressed size
    let mut d = bytes.clone();
    let e2 = reader(&bytes).entry(2).unwrap().unwrap();
    put32(&mut d, e2.offset as usize + 4, u32::MAX);
    assert!(matches!(
        reader(&d).read(2),
        Err(ReadEntryError::InflatedTooLarge { id: 2, .. })
    ));
    let big = check(&d);
    assert!(
        big < bytes.len() * 2 + FIXED_OVERHEAD,
        "{big} vs {}",
        bytes.len()
    );
    // declared size a little off: inflating gives a size mismatch, not a huge buffer
    put32(&mut d, e2.offset as usize + 4, 5001);
    assert!(matches!(
        reader(&d).read(2),
        Err(ReadEntryError::InflatedSize { actual: 5000, .. })
    ));
    // header file size and free block count
    let mut d = bytes.clone();
    put32(&mut d, 0x148, u32::MAX);
    assert!(matches!(
        DatReader::new(Cursor::new(&d[..])),
        Err(OpenDatError::Truncated { .. })
    ));
    let mut d = bytes.clone();
    put32(&mut d, 0x15C, u32::MAX);
    assert!(
        reader(&d).read(1).unwrap().is_some(),
        "the reader ignores the free list"
    );
    assert!(matches!(
        DatWriter::from_bytes(d),
        Err(OpenDatError::FreeList { .. })
    ));
    // block size
    let mut d = bytes.clone();
    put32(&mut d, 0x144, u32::MAX);
    assert!(matches!(
        DatReader::new(Cursor::new(&d[..])),
        Err(OpenDatError::BadBlockSize { .. })
    ));
    // magic
    let mut d = bytes;
    put32(&mut d, 0x140, 0x5443);
    assert!(matches!(
        DatReader::new(Cursor::new(&d[..])),
        Err(OpenDatError::BadMagic { .. })
    ));
}

#[test]
fn block_chain_loops_are_detected() {
    let mut w = DatWriter::new(DatKind::Cell, 256).unwrap();
    w.insert(1, &payload(1, 2000), opts()).unwrap(); // 8 blocks
    w.insert(2, &payload(2, 10), opts()).unwrap();
    // enough entries that the root's entries reach its fifth block (252 + 24 * 45 bytes)
    for id in 100..143u32 {
        w.insert(id, b"e", opts()).unwrap();
    }
    let bytes = w.finish();
    let e1 = reader(&bytes).entry(1).unwrap().unwrap();
    // payload: block 3 points back to block 1
    let mut d = bytes.clone();
    let chain: Vec<u32> = (0..8).map(|k| e1.offset + 256 * k).collect();
    put32(&mut d, chain[3] as usize, chain[1]);
    assert!(matches!(
        reader(&d).read(1),
        Err(ReadEntryError::ChainLoop { id: 1, .. })
    ));
    assert_eq!(
        reader(&d).read(2).unwrap().unwrap(),
        payload(2, 10),
        "other files still read"
    );
    let mut dw = DatWriter::from_bytes(d.clone()).unwrap();
    assert!(
        dw.insert(1, b"x", opts()).is_err(),
        "the writer refuses to follow the loop"
    );
    assert!(dw.remove(1).is_err());
    // a block pointing to itself
    put32(&mut d, chain[0] as usize, chain[0]);
    assert!(matches!(
        reader(&d).read(1),
        Err(ReadEntryError::ChainLoop { .. })
    ));
    // node chain (7 blocks of 256): the root's 4th block points back to its 2nd
    let mut d = bytes.clone();
    let root = header_of(&d).root_block;
    let second = le32(&d, root as usize);
    let third = le32(&d, second as usize);
    let fourth = le32(&d, third as usize);
    put32(&mut d, fourth as usize, second);
    assert!(matches!(
        reader(&d).entry(1),
        Err(LookupError::ChainLoop { .. })
    ));
    assert!(matches!(
        reader(&d).entries(),
        Err(LookupError::ChainLoop { .. })
    ));
    // a chain that ends early
    let mut d = bytes;
    put32(&mut d, chain[4] as usize, 0);
    assert!(matches!(
        reader(&d).read(1),
        Err(ReadEntryError::ChainTooShort { .. })
    ));
}

/// A next-block word ≤ 0 as i32 (bit 31 = free block) ends a chain, as in DatReaderWriter: a
/// payload whose chain reaches one early is too short, never a read of the marked block.
#[test]
fn block_chain_ends_at_a_negative_next_word() {
    let mut w = DatWriter::new(DatKind::Cell, 256).unwrap();
    w.insert(1, &payload(1, 2000), opts()).unwrap(); // 8 blocks
    w.insert(2, &payload(2, 10), opts()).unwrap();
    let bytes = w.finish();
    let e1 = reader(&bytes).entry(1).unwrap().unwrap();
    let chain: Vec<u32> = (0..8).map(|k| e1.offset + 256 * k).collect();
    for word in [0x8000_0000 | chain[5], 0xFFFF_FFFF, 0x8000_0000] {
        let mut d = bytes.clone();
        put32(&mut d, chain[4] as usize, word);
        match reader(&d).read(1) {
            Err(ReadEntryError::ChainTooShort { id: 1, block }) => assert_eq!(block, chain[4]),
            other => panic!("next word {word:#x}: expected ChainTooShort, got {other:?}"),
        }
        let mut dw = DatWriter::from_bytes(d.clone()).unwrap();
        assert!(dw.remove(1).is_err(), "the writer stops at {word:#x} too");
    }
    // the last block's next word is not followed: a free mark there changes nothing
    let mut d = bytes;
    put32(&mut d, chain[7] as usize, 0x8000_0000 | chain[0]);
    assert_eq!(reader(&d).read(1).unwrap().unwrap(), payload(1, 2000));
}

#[test]
fn tree_cycles_terminate() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    for id in 0..200u32 {
        w.insert(id, b"v", opts()).unwrap();
    }
    let mut d = w.finish();
    let root = header_of(&d).root_block;
    // the root's last branch points back to the root
    let count = le32(&d, root as usize + 4 + 248) as usize;
    put32(&mut d, root as usize + 4 + 4 * count, root);
    let mut r = reader(&d);
    assert!(matches!(r.entry(199), Err(LookupError::TooDeep { .. })));
    assert!(matches!(r.entries(), Err(LookupError::Cycle { .. })));
    assert_eq!(
        r.entry(0).unwrap().unwrap().id,
        0,
        "paths without the cycle still work"
    );
    // the writer looks up the Iteration entry (largest id, behind the cycle) when opening
    assert!(matches!(
        DatWriter::from_bytes(d),
        Err(OpenDatError::Iteration { .. })
    ));
}

#[test]
fn root_and_blocks_outside_the_file() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(1, &payload(1, 3000), opts()).unwrap();
    // 40 entries: the root's entries spill into its second block
    for id in 100..139u32 {
        w.insert(id, b"e", opts()).unwrap();
    }
    let bytes = w.finish();
    for root in [
        bytes.len() as u32,
        bytes.len() as u32 - 2,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
        100,
    ] {
        let mut d = bytes.clone();
        put32(&mut d, 0x160, root);
        assert!(
            matches!(
                DatReader::new(Cursor::new(&d[..])),
                Err(OpenDatError::RootOutOfBounds { .. })
            ),
            "root {root:#x}"
        );
        assert!(DatWriter::from_bytes(d).is_err());
    }
    // a root inside the file whose second block is not (a lookup needs entries from it)
    let mut d = bytes.clone();
    let root = header_of(&d).root_block as usize;
    put32(&mut d, root, 0x7FFF_0000);
    assert!(matches!(
        reader(&d).entry(1),
        Err(LookupError::BlockOutOfBounds {
            block: 0x7FFF_0000,
            ..
        })
    ));
    // with bit 31 set the word ends the chain (a free mark), so the node is too short
    put32(&mut d, root, 0xFFFF_0000);
    assert!(matches!(
        reader(&d).entry(1),
        Err(LookupError::ChainTooShort { .. })
    ));
    // an entry whose first block is past the end
    let mut d = bytes;
    let at = root_entry_at(&d, 0) + 8;
    put32(&mut d, at, 0x00F0_0000);
    assert!(matches!(
        reader(&d).read(1),
        Err(ReadEntryError::BlockOutOfBounds { id: 1, .. })
    ));
}

#[test]
fn short_and_garbage_inputs() {
    for len in [0usize, 1, 399, 400, 401, 1024] {
        let zeros = vec![0u8; len];
        assert!(DatReader::new(Cursor::new(&zeros[..])).is_err());
        assert!(DatWriter::from_bytes(zeros).is_err());
    }
    let mut junk = vec![0xCDu8; 4096];
    put32(&mut junk, 0x140, 0x5442);
    put32(&mut junk, 0x144, 256);
    put32(&mut junk, 0x148, 4096);
    put32(&mut junk, 0x160, 0x200);
    let _ = exercise(&junk, &[0, 0xCDCD_CDCD]);
    let mut r = reader(&junk);
    assert!(r.entries().is_err());
}

// ----- model-based property test ------------------------------------------------------------

#[derive(Clone, Debug)]
enum Op {
    Insert { id: u32, len: usize, compress: bool },
    Remove { id: u32 },
}

fn op() -> impl Strategy<Value = Op> {
    // a small id space so removes and replaces hit; both halves of the u32 range
    let id =
        (0u32..300, any::<bool>()).prop_map(|(i, hi)| if hi { i | 0x8000_0000 } else { i * 3 });
    prop_oneof![
        3 => (id.clone(), 0usize..1500, any::<bool>())
            .prop_map(|(id, len, compress)| Op::Insert { id, len, compress }),
        2 => id.prop_map(|id| Op::Remove { id }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_operations_match_a_btreemap(ops in prop::collection::vec(op(), 1..700), bs in prop::sample::select(vec![256u32, 1024])) {
        let mut w = DatWriter::new(DatKind::Cell, bs).unwrap();
        let mut model: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
        for (step, op) in ops.iter().enumerate() {
            match *op {
                Op::Insert { id, len, compress } => {
                    let data = payload(id ^ step as u32, len);
                    w.insert(id, &data, EntryOptions { compress, raw_date: step as u32, iteration: 0 }).unwrap();
                    model.insert(id, data);
                }
                Op::Remove { id } => {
                    prop_assert_eq!(w.remove(id).unwrap(), model.remove(&id).is_some());
                }
            }
        }
        let mut r = reader(w.as_bytes());
        let ids: Vec<u32> = r.entries().unwrap().iter().map(|e| e.id).collect();
        prop_assert_eq!(ids, model.keys().copied().collect::<Vec<_>>());
        for (id, data) in &model {
            let got = r.read(*id).unwrap();
            prop_assert_eq!(got.as_ref(), Some(data));
        }
        // and the bytes survive a reopen for editing
        let reopened = DatWriter::from_bytes(w.as_bytes().to_vec()).unwrap();
        prop_assert_eq!(reopened.as_bytes(), w.as_bytes());
    }
}
