//! Unit tests of the container internals: node encoding, B-tree invariants and block
//! accounting (every block is used exactly once or free).

use std::collections::BTreeMap;

use super::bytes::le32;
use super::chain::{blocks_for, chain_blocks, gather};
use super::header::first_block_offset;
use super::node::Node;
use super::*;

/// Structural facts about a written dat, or a description of the first broken invariant.
#[derive(Debug, Default)]
struct Audit {
    depth: usize,
    nodes: usize,
    entries: Vec<DatEntry>,
}

fn read_node(bytes: &[u8], bs: u32, offset: u32) -> Node {
    let blocks = chain_blocks(
        bytes,
        bs,
        offset,
        blocks_for(NODE_READ_SIZE, bs),
        blocks_for(NODE_WRITE_SIZE, bs),
    )
    .unwrap();
    let raw = gather(bytes, bs, &blocks, NODE_READ_SIZE);
    Node::decode(offset, raw[..].try_into().unwrap()).unwrap()
}

/// Checks every B-tree and allocation invariant of a dat written by `DatWriter`.
fn audit(bytes: &[u8]) -> Audit {
    let header = DatHeader::from_bytes(bytes[..HEADER_SIZE].try_into().unwrap());
    let bs = header.block_size;
    assert_eq!(header.file_size as usize, bytes.len(), "file size");
    assert_eq!(header.transactions, DRW_TRANSACTIONS);
    let first = first_block_offset(bs);
    assert_eq!((bytes.len() as u32 - first) % bs, 0, "whole blocks");
    let mut owner: BTreeMap<u32, String> = BTreeMap::new();
    let mut claim = |block: u32, what: String| {
        assert!(
            block >= first && (block - first).is_multiple_of(bs),
            "{what}: misaligned block {block:#x}"
        );
        if let Some(prev) = owner.insert(block, what.clone()) {
            panic!("block {block:#x} owned by both {prev} and {what}");
        }
    };
    let mut audit = Audit::default();
    if header.root_block != 0 {
        let mut leaf_depths = Vec::new();
        let mut stack = vec![(header.root_block, 0usize)];
        while let Some((offset, depth)) = stack.pop() {
            let node = read_node(bytes, bs, offset);
            audit.nodes += 1;
            let n = blocks_for(NODE_WRITE_SIZE, bs);
            for b in chain_blocks(bytes, bs, offset, n, n).unwrap() {
                claim(b, format!("node {offset:#x}"));
            }
            if offset != header.root_block {
                assert!(
                    node.entries.len() >= DEGREE - 1,
                    "underfull node {offset:#x}"
                );
            }
            assert!(node.entries.len() <= MAX_ENTRIES);
            // unused branch slots hold the fill pattern in non-empty nodes
            let raw = gather(
                bytes,
                bs,
                &chain_blocks(bytes, bs, offset, n, n).unwrap(),
                248,
            );
            for slot in node.branches.len()..MAX_BRANCHES {
                let want = if node.entries.is_empty() {
                    0
                } else {
                    BRANCH_FILL
                };
                assert_eq!(le32(&raw, 4 * slot), want, "slot {slot} of {offset:#x}");
            }
            for e in &node.entries {
                assert_eq!(e.version, ENTRY_VERSION);
                let k = blocks_for(e.size as usize, bs);
                for b in chain_blocks(bytes, bs, e.offset, k, k).unwrap() {
                    claim(b, format!("file {:#x}", e.id));
                }
            }
            if node.is_leaf() {
                leaf_depths.push(depth);
            } else {
                assert_eq!(node.branches.len(), node.entries.len() + 1);
                for &b in node.branches.iter().rev() {
                    stack.push((b, depth + 1));
                }
            }
        }
        leaf_depths.dedup();
        assert_eq!(
            leaf_depths.len(),
            1,
            "leaves at different depths: {leaf_depths:?}"
        );
        audit.depth = leaf_depths[0] + 1;
    }
    // free list
    let mut block = header.first_free_block;
    for i in 0..header.free_block_count {
        claim(block, format!("free #{i}"));
        let raw = le32(bytes, block as usize);
        assert_ne!(raw & 0x8000_0000, 0, "free mark");
        if i + 1 == header.free_block_count {
            assert_eq!(raw & 0x7FFF_FFFF, 0, "free list tail");
            assert_eq!(block, header.last_free_block, "LastFreeBlock is the tail");
        }
        block = raw & 0x7FFF_FFFF;
    }
    let total = (bytes.len() as u32 - first) / bs;
    assert_eq!(
        owner.len() as u32,
        total,
        "every block is used or free (no leaks)"
    );
    let mut r = DatReader::new(std::io::Cursor::new(bytes)).unwrap();
    audit.entries = r.entries().unwrap();
    audit
}

fn payload(id: u32, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (id as usize).wrapping_mul(31).wrapping_add(i) as u8)
        .collect()
}

#[test]
fn node_encoding_matches_drw_layout() {
    let mut leaf = Node::leaf();
    let mut raw = [0u8; NODE_WRITE_SIZE];
    leaf.encode(&mut raw);
    assert!(raw.iter().all(|&b| b == 0), "empty node is all zeros");
    leaf.entries.push(DatEntry {
        flags: 1,
        version: 2,
        id: 7,
        offset: 0x400,
        size: 3,
        raw_date: 9,
        iteration: 4,
    });
    leaf.encode(&mut raw);
    assert!((0..MAX_BRANCHES).all(|s| le32(&raw, 4 * s) == BRANCH_FILL));
    assert_eq!(le32(&raw, 248), 1);
    assert_eq!(&raw[252..256], &[1, 0, 2, 0]);
    let decoded = Node::decode(0x800, raw[..NODE_READ_SIZE].try_into().unwrap()).unwrap();
    assert!(decoded.is_leaf());
    assert_eq!(decoded.entries, leaf.entries);
    let internal = Node {
        offset: 0,
        branches: vec![0x400, 0xC00],
        entries: leaf.entries.clone(),
    };
    internal.encode(&mut raw);
    assert_eq!(le32(&raw, 0), 0x400);
    assert_eq!(le32(&raw, 4), 0xC00);
    assert_eq!(le32(&raw, 8), BRANCH_FILL);
    // garbage beyond EntryCount + 1 is ignored: a repeat of the last branch, then junk
    let mut raw2 = raw;
    raw2[8..12].copy_from_slice(&0xC00u32.to_le_bytes());
    raw2[12..16].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    let d = Node::decode(1, raw2[..NODE_READ_SIZE].try_into().unwrap()).unwrap();
    assert_eq!(d.branches, vec![0x400, 0xC00]);
    raw2[248..252].copy_from_slice(&62u32.to_le_bytes());
    assert_eq!(
        Node::decode(1, raw2[..NODE_READ_SIZE].try_into().unwrap()),
        Err(62)
    );
}

#[test]
fn first_insert_layout_is_payload_then_root() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(5, b"hello", EntryOptions::default()).unwrap();
    let h = w.header();
    assert_eq!(
        h.root_block, 0x800,
        "payload takes 0x400, the root the next two blocks"
    );
    assert_eq!(h.file_size, 0x400 + 3 * 1024);
    assert_eq!((h.free_block_count, h.first_free_block), (0, 0));
    assert_eq!(
        h.last_free_block, 0xC00,
        "kept non-zero for DatReaderWriter's allocator"
    );
    let e = w.entry(5).unwrap().unwrap();
    assert_eq!((e.offset, e.size, e.version, e.flags), (0x400, 5, 2, 0));
    let a = audit(w.as_bytes());
    assert_eq!((a.depth, a.nodes), (1, 1));
    let w = DatWriter::new(DatKind::Cell, 256).unwrap();
    assert_eq!(w.as_bytes().len(), 512);
}

#[test]
fn splits_keep_invariants_and_blocks_accounted() {
    for bs in [256u32, 1024] {
        let mut w = DatWriter::new(DatKind::Cell, bs).unwrap();
        // an order that exercises splits at every position
        let ids: Vec<u32> = (0..3000u32).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
        for (n, &id) in ids.iter().enumerate() {
            w.insert(
                id,
                &payload(id, (id % 700) as usize),
                EntryOptions::default(),
            )
            .unwrap();
            if n == 61 || n == 62 || n % 997 == 0 {
                audit(w.as_bytes());
            }
        }
        let a = audit(w.as_bytes());
        assert_eq!(a.entries.len(), ids.len());
        assert!(
            a.depth >= 3,
            "3000 entries need three levels, got {}",
            a.depth
        );
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(a.entries.iter().map(|e| e.id).collect::<Vec<_>>(), sorted);
    }
}

#[test]
fn deletes_rebalance_and_free_everything() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    let n = 2500u32;
    for id in 0..n {
        w.insert(
            id.wrapping_mul(7919),
            &payload(id, 1500),
            EntryOptions::default(),
        )
        .unwrap();
    }
    let full_size = w.as_bytes().len();
    // remove in an interleaved order: leaves, internal keys, merges and borrows all happen
    let mut order: Vec<u32> = (0..n).map(|i| i.wrapping_mul(7919)).collect();
    order.sort_by_key(|&id| id.wrapping_mul(0x85EB_CA6B).rotate_left(7));
    for (k, &id) in order.iter().enumerate() {
        assert!(w.remove(id).unwrap());
        assert!(!w.remove(id).unwrap());
        if k % 211 == 0 {
            let a = audit(w.as_bytes());
            assert_eq!(a.entries.len(), order.len() - k - 1);
        }
    }
    let a = audit(w.as_bytes());
    assert!(a.entries.is_empty());
    assert_eq!(a.nodes, 1, "an empty root leaf stays");
    // everything but the root is free, and reinserting reuses it without growing the file
    assert_eq!(w.as_bytes().len(), full_size);
    for id in 0..n {
        w.insert(
            id.wrapping_mul(7919),
            &payload(id, 1500),
            EntryOptions::default(),
        )
        .unwrap();
    }
    audit(w.as_bytes());
    assert!(w.as_bytes().len() <= full_size + 4 * 1024, "blocks reused");
}

#[test]
fn replace_frees_and_reuses_blocks() {
    let mut w = DatWriter::new(DatKind::Cell, 256).unwrap();
    for id in 0..100u32 {
        w.insert(id, &payload(id, 100), EntryOptions::default())
            .unwrap();
    }
    let before = w.as_bytes().len();
    w.insert(50, &payload(50, 5000), EntryOptions::default())
        .unwrap();
    let grown = w.as_bytes().len();
    assert!(grown > before);
    w.insert(50, &payload(50, 10), EntryOptions::default())
        .unwrap();
    assert_eq!(
        w.header().free_block_count as usize,
        blocks_for(5000, 256) - 1
    );
    audit(w.as_bytes());
    w.insert(51, &payload(51, 4000), EntryOptions::default())
        .unwrap();
    assert_eq!(w.as_bytes().len(), grown, "freed blocks were reused");
    let a = audit(w.as_bytes());
    assert_eq!(a.entries.len(), 100);
    let mut r = w.reader().unwrap();
    assert_eq!(r.read(50).unwrap().unwrap(), payload(50, 10));
    assert_eq!(r.read(51).unwrap().unwrap(), payload(51, 4000));
}

#[test]
fn model_check_random_operations() {
    // a small deterministic LCG drives inserts, replaces and removes
    let mut state = 0x1234_5678_9ABC_DEF0u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as u32
    };
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    let mut model = BTreeMap::new();
    for step in 0..6000 {
        let id = (next() % 400) | ((next() & 1) << 31);
        if next() % 3 == 0 {
            assert_eq!(w.remove(id).unwrap(), model.remove(&id).is_some());
        } else {
            let data = payload(id ^ step, (next() % 3000) as usize);
            let compress = next() % 2 == 0;
            w.insert(
                id,
                &data,
                EntryOptions {
                    compress,
                    raw_date: step,
                    iteration: 0,
                },
            )
            .unwrap();
            model.insert(id, data);
        }
    }
    let a = audit(w.as_bytes());
    assert_eq!(
        a.entries.iter().map(|e| e.id).collect::<Vec<_>>(),
        model.keys().copied().collect::<Vec<_>>()
    );
    let mut r = w.reader().unwrap();
    for (id, data) in &model {
        assert_eq!(r.read(*id).unwrap().as_ref(), Some(data));
    }
}

#[test]
fn from_bytes_converts_contiguous_free_run() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(1, b"x", EntryOptions::default()).unwrap();
    let mut bytes = w.finish();
    // append four zeroed free blocks described as a contiguous run (older DRW allocator)
    let start = bytes.len() as u32;
    bytes.resize(bytes.len() + 4 * 1024, 0);
    let mut h = DatHeader::from_bytes(bytes[..HEADER_SIZE].try_into().unwrap());
    h.file_size = bytes.len() as u32;
    h.first_free_block = start;
    h.last_free_block = start + 3 * 1024;
    h.free_block_count = 4;
    bytes[..HEADER_SIZE].copy_from_slice(&h.to_bytes());
    let mut w = DatWriter::from_bytes(bytes).unwrap();
    w.insert(2, &payload(2, 3000), EntryOptions::default())
        .unwrap();
    assert_eq!(w.header().free_block_count, 1);
    audit(w.as_bytes());
    assert_eq!(w.entry(2).unwrap().unwrap().offset, start);
}

#[test]
fn root_split_allocates_new_root_before_sibling() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    for id in 0..61u32 {
        w.insert(id, &[id as u8; 8], EntryOptions::default())
            .unwrap();
    }
    let old_root = w.header().root_block;
    let end = w.as_bytes().len() as u32;
    // the 62nd payload takes one block, then the new root two, then the new sibling two
    w.insert(100, b"x", EntryOptions::default()).unwrap();
    assert_eq!(w.entry(100).unwrap().unwrap().offset, end);
    let root = w.header().root_block;
    assert_eq!(root, end + 1024);
    let node = read_node(w.as_bytes(), 1024, root);
    assert_eq!(node.branches, vec![old_root, end + 3 * 1024]);
    assert_eq!(node.entries[0].id, 30, "median is entry 30");
    assert_eq!(w.as_bytes().len() as u32, end + 5 * 1024);
    let right = read_node(w.as_bytes(), 1024, end + 3 * 1024);
    assert_eq!(right.entries.len(), 31, "31..61 plus the new entry");
    assert_eq!(read_node(w.as_bytes(), 1024, old_root).entries.len(), 30);
}

#[test]
fn replace_keeps_version_and_other_flag_bits() {
    let mut w = DatWriter::new(DatKind::Portal, 1024).unwrap();
    w.insert(9, b"first", EntryOptions::default()).unwrap();
    let mut bytes = w.finish();
    // entry 0 of the root leaf: flags 0x0010, version 5
    let at = DatHeader::from_bytes(bytes[..HEADER_SIZE].try_into().unwrap()).root_block as usize
        + 4
        + 252;
    bytes[at..at + 4].copy_from_slice(&[0x10, 0, 5, 0]);
    let mut w = DatWriter::from_bytes(bytes).unwrap();
    let long = vec![b'z'; 400];
    w.insert(
        9,
        &long,
        EntryOptions {
            compress: true,
            raw_date: 1,
            iteration: 2,
        },
    )
    .unwrap();
    let e = w.entry(9).unwrap().unwrap();
    assert_eq!(
        (e.flags, e.version, e.raw_date, e.iteration),
        (0x11, 5, 1, 2)
    );
    assert_eq!(w.reader().unwrap().read(9).unwrap().unwrap(), long);
}

#[test]
fn node_chains_use_1720_bytes() {
    // 256-byte blocks: ceil(1720 / 252) = 7 blocks per node; 1024: 2 blocks
    assert_eq!(blocks_for(NODE_WRITE_SIZE, 256), 7);
    assert_eq!(blocks_for(NODE_WRITE_SIZE, 1024), 2);
    let mut w = DatWriter::new(DatKind::Cell, 256).unwrap();
    w.insert(1, b"", EntryOptions::default()).unwrap();
    assert_eq!(
        w.as_bytes().len(),
        512 + 256 + 7 * 256,
        "empty payload owns one block"
    );
    assert_eq!(w.reader().unwrap().read(1).unwrap().unwrap(), b"");
}

#[test]
fn nodes_stored_as_1716_bytes_are_read_and_extended() {
    // with 862-byte blocks a 1716-byte node (retail size) fits two blocks, a 1720-byte one
    // (DatReaderWriter size) needs three
    let mut w = DatWriter::new(DatKind::Portal, 862).unwrap();
    for id in 0..5u32 {
        w.insert(id, &payload(id, 50), EntryOptions::default())
            .unwrap();
    }
    let mut bytes = w.finish();
    let root = DatHeader::from_bytes(bytes[..HEADER_SIZE].try_into().unwrap()).root_block;
    let second = le32(&bytes, root as usize);
    bytes[second as usize..second as usize + 4].fill(0); // chain ends after 1716 bytes
    let mut r = DatReader::new(std::io::Cursor::new(&bytes[..])).unwrap();
    assert_eq!(r.entries().unwrap().len(), 5);
    let mut w = DatWriter::from_bytes(bytes).unwrap();
    w.insert(77, b"grown", EntryOptions::default()).unwrap();
    let mut r = w.reader().unwrap();
    assert_eq!(r.entries().unwrap().len(), 6);
    assert_eq!(r.read(77).unwrap().unwrap(), b"grown");
    let blocks = chain_blocks(w.as_bytes(), 862, root, 3, 3).unwrap();
    assert_eq!(
        blocks.len(),
        3,
        "the root's chain was extended to 1720 bytes"
    );
}
