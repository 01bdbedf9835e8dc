//! Helpers shared by the fuzz targets: every target must never panic on any input, and every
//! input a parser accepts must be written back byte for byte.

use std::io::Cursor;

pub mod ambient;
pub mod mp3;

use resound_datformat::container::{DatEntry, DatReader, DatWriter, EntryOptions, ReadEntryError};
use resound_datformat::record::Record;

/// Most entries `read_dat` follows per input, so one input stays fast.
pub const MAX_ENTRIES: usize = 256;

/// Parses `data` as `T`; when it parses, the record and its zero padding must write back to
/// exactly `data`.
pub fn round_trip<T: Record>(data: &[u8]) {
    let Ok(record) = T::from_bytes_padded(data) else {
        return;
    };
    let written = record
        .to_bytes()
        .unwrap_or_else(|e| panic!("{} parsed but cannot be written: {e}", T::NAME));
    assert!(
        written == data,
        "{} round trip differs ({} bytes in, {} out)",
        T::NAME,
        data.len(),
        written.len()
    );
}

/// Opens `data` as a dat, walks its B-tree and reads up to [`MAX_ENTRIES`] payloads; every
/// payload read is stored in a fresh dat with the same block size, which must give the same
/// bytes back. Also opens `data` for editing, which must not panic either.
pub fn read_dat(data: &[u8]) {
    let _ = DatWriter::from_bytes(data.to_vec());
    let Ok(mut reader) = DatReader::new(Cursor::new(data)) else {
        return;
    };
    let header = reader.header().clone();
    let Ok(entries) = reader.entries() else {
        return;
    };
    let mut payloads = Vec::new();
    for entry in entries.iter().take(MAX_ENTRIES) {
        if let Ok(payload) = reader.read_entry(entry) {
            trimmed_agrees(&mut reader, entry, &payload);
            payloads.push((entry.id, payload));
        }
    }
    let mut writer = DatWriter::new(header.dat_type, header.block_size)
        .unwrap_or_else(|e| panic!("an accepted block size was refused: {e}"));
    for (id, payload) in &payloads {
        writer
            .insert(*id, payload, EntryOptions::default())
            .unwrap_or_else(|e| panic!("insert {id:#010x}: {e}"));
    }
    let mut copy = DatReader::new(Cursor::new(writer.finish()))
        .unwrap_or_else(|e| panic!("a written dat does not open: {e}"));
    for (id, payload) in &payloads {
        let back = copy
            .read(*id)
            .unwrap_or_else(|e| panic!("read back {id:#010x}: {e}"));
        assert!(
            back.as_deref() == Some(payload.as_slice()),
            "{id:#010x} reads back differently"
        );
    }
}

// ----- structure-aware round trips -------------------------------------------------------------

/// Builds records from fuzzer bytes through `arbitrary` (every public field chosen, lists of
/// any length the bytes allow), writes them, reads them back, and checks the read record writes
/// the same bytes and equals the one built (compared through `Debug`, so a NaN equals itself).
pub mod structured {
    use arbitrary::{Result, Unstructured};
    use resound_datformat::record::{
        BuildingInfo, BuildingPortal, Frame, LAND_BLOCK_VERTICES, LandBlock, LandBlockInfo,
        Quaternion, Record, RestrictionTable, Sound, SoundData, SoundEntry, SoundHashEntry,
        SoundTable, Stab, Vector3, Wave,
    };

    /// [`write_read_equal`] for records without floats: compared with `==` (cheaper than
    /// formatting a 4 KiB Wave twice).
    pub fn write_read_eq<T: Record + PartialEq + std::fmt::Debug>(record: &T) {
        let Ok(bytes) = record.to_bytes() else {
            return;
        };
        let back = T::from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{} written but not read back: {e}", T::NAME));
        assert!(&back == record, "{} reads back differently", T::NAME);
    }

    /// Writes `record`; if it is encodable, it must read back equal and write the same bytes.
    pub fn write_read_equal<T: Record + std::fmt::Debug>(record: &T) {
        let Ok(bytes) = record.to_bytes() else {
            return;
        };
        let back = T::from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{} written but not read back: {e}", T::NAME));
        assert_eq!(
            format!("{back:?}"),
            format!("{record:?}"),
            "{} reads back differently",
            T::NAME
        );
        let again = back
            .to_bytes()
            .unwrap_or_else(|e| panic!("{} read back but not written: {e}", T::NAME));
        assert!(
            again == bytes,
            "{} writes differently the second time",
            T::NAME
        );
    }

    fn list<T>(
        u: &mut Unstructured<'_>,
        max: usize,
        f: impl Fn(&mut Unstructured<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let n = u.int_in_range(0..=max)?;
        (0..n).map(|_| f(u)).collect()
    }

    fn vector(u: &mut Unstructured<'_>) -> Result<Vector3> {
        Ok(Vector3 {
            x: u.arbitrary()?,
            y: u.arbitrary()?,
            z: u.arbitrary()?,
        })
    }

    fn frame(u: &mut Unstructured<'_>) -> Result<Frame> {
        Ok(Frame {
            origin: vector(u)?,
            orientation: Quaternion {
                w: u.arbitrary()?,
                x: u.arbitrary()?,
                y: u.arbitrary()?,
                z: u.arbitrary()?,
            },
        })
    }

    /// A Wave: any id, header and data.
    pub fn wave(u: &mut Unstructured<'_>) -> Result<Wave> {
        Ok(Wave {
            id: u.arbitrary()?,
            header: list(u, 64, |u| u.arbitrary())?,
            data: list(u, 4096, |u| u.arbitrary())?,
        })
    }

    /// A LandBlock: any id, flags, terrain words and heights.
    pub fn land_block(u: &mut Unstructured<'_>) -> Result<LandBlock> {
        let mut terrain = [0u16; LAND_BLOCK_VERTICES];
        let mut height = [0u8; LAND_BLOCK_VERTICES];
        for t in &mut terrain {
            *t = u.arbitrary()?;
        }
        for h in &mut height {
            *h = u.arbitrary()?;
        }
        Ok(LandBlock {
            id: u.arbitrary()?,
            has_objects: u.arbitrary()?,
            terrain,
            height,
            pad: u.arbitrary()?,
        })
    }

    /// A LandBlockInfo: objects, buildings with portals, an optional restriction table.
    pub fn land_block_info(u: &mut Unstructured<'_>) -> Result<LandBlockInfo> {
        Ok(LandBlockInfo {
            id: u.arbitrary()?,
            num_cells: u.arbitrary()?,
            objects: list(u, 16, |u| {
                Ok(Stab {
                    id: u.arbitrary()?,
                    frame: frame(u)?,
                })
            })?,
            pack_mask: u.arbitrary()?,
            buildings: list(u, 8, |u| {
                Ok(BuildingInfo {
                    model_id: u.arbitrary()?,
                    frame: frame(u)?,
                    num_leaves: u.arbitrary()?,
                    portals: list(u, 6, |u| {
                        Ok(BuildingPortal {
                            flags: u.arbitrary()?,
                            other_cell_id: u.arbitrary()?,
                            other_portal_id: u.arbitrary()?,
                            stab_list: list(u, 8, |u| u.arbitrary())?,
                            pad: [0; 3],
                        })
                    })?,
                })
            })?,
            restriction_table: if u.arbitrary()? {
                Some(RestrictionTable {
                    bucket_size: u.arbitrary()?,
                    entries: list(u, 16, |u| Ok((u.arbitrary()?, u.arbitrary()?)))?,
                })
            } else {
                None
            },
        })
    }

    /// A SoundTable: hash entries and sounds with their entries.
    pub fn sound_table(u: &mut Unstructured<'_>) -> Result<SoundTable> {
        Ok(SoundTable {
            id: u.arbitrary()?,
            hash_key: u.arbitrary()?,
            hashes: list(u, 16, |u| {
                Ok(SoundHashEntry {
                    key: u.arbitrary()?,
                    priority: u.arbitrary()?,
                    probability: u.arbitrary()?,
                    volume: u.arbitrary()?,
                })
            })?,
            sounds: list(u, 16, |u| {
                let sound = Sound::from_u32(u.arbitrary()?);
                let data = SoundData {
                    entries: list(u, 8, |u| {
                        Ok(SoundEntry {
                            id: u.arbitrary()?,
                            priority: u.arbitrary()?,
                            probability: u.arbitrary()?,
                            volume: u.arbitrary()?,
                        })
                    })?,
                    unknown: u.arbitrary()?,
                };
                Ok((sound, data))
            })?,
        })
    }
}

/// Scene JSON (acoustics-core): any text must parse to a scene or a typed error and build its
/// world without panicking; a scene built from fuzzer bytes must survive JSON →
/// `Scene::from_json` unchanged when it is valid.
pub mod scene {
    use arbitrary::{Result, Unstructured};
    use resound_acoustics::MaterialTable;
    use resound_acoustics::scene::{Scene, SceneBox, ScenePlane, SceneVoice};

    const MATERIALS: [&str; 6] = ["air", "unknown", "stone", "wood", "glass", "no-such"];

    /// Raw text: never a panic.
    pub fn text(data: &[u8]) {
        let table = MaterialTable::standard();
        if let Ok(text) = std::str::from_utf8(data)
            && let Ok(scene) = Scene::from_json(text, &table)
        {
            let _ = scene.build_world(&table, 0);
        }
    }

    fn coord(u: &mut Unstructured<'_>) -> Result<i32> {
        Ok(match u.int_in_range(0..=9)? {
            0 => u.arbitrary()?,
            _ => u.int_in_range(-40..=40)?,
        })
    }

    fn position(u: &mut Unstructured<'_>) -> Result<[f64; 3]> {
        let mut p = [0.0; 3];
        for c in &mut p {
            *c = match u.int_in_range(0..=9)? {
                0 => u.arbitrary()?,
                _ => f64::from(u.int_in_range(-400..=400)?) / 8.0,
            };
        }
        Ok(p)
    }

    /// A scene from fuzzer bytes.
    pub fn build(u: &mut Unstructured<'_>) -> Result<Scene> {
        let text = serde_json::to_string(&serde_json::json!({
            "boxes": [],
            "source": [0.0, 0.0, 0.0],
            "listener": [1.0, 0.0, 0.0],
        }))
        .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        let mut scene: Scene =
            serde_json::from_str(&text).map_err(|_| arbitrary::Error::IncorrectFormat)?;
        scene.name = u.arbitrary()?;
        scene.absent = MATERIALS[u.int_in_range(0..=5)?].to_owned();
        let n = u.int_in_range(0..=6)?;
        for _ in 0..n {
            scene.boxes.push(SceneBox {
                min: [coord(u)?, coord(u)?, coord(u)?],
                max: [coord(u)?, coord(u)?, coord(u)?],
                material: MATERIALS[u.int_in_range(0..=5)?].to_owned(),
                partial: u.arbitrary()?,
                until_tick: u.arbitrary()?,
            });
        }
        scene.source = position(u)?;
        scene.listener = position(u)?;
        for _ in 0..u.int_in_range(0..=2)? {
            scene.inject_planes.push(ScenePlane {
                axis: ["x", "y", "z", "w"][u.int_in_range(0..=3)?].to_owned(),
                coord: coord(u)?,
                normal: u.arbitrary()?,
            });
        }
        for _ in 0..u.int_in_range(0..=2)? {
            scene.voices.push(SceneVoice {
                position: position(u)?,
                volume: u.arbitrary()?,
                range: u.arbitrary()?,
                kind: ["loop", "click", "shot", "hum"][u.int_in_range(0..=3)?].to_owned(),
            });
        }
        Ok(scene)
    }

    /// A built scene through JSON: parsed back equal when valid.
    pub fn round_trip(scene: &Scene) {
        let table = MaterialTable::standard();
        let Ok(text) = serde_json::to_string(scene) else {
            return;
        };
        match Scene::from_json(&text, &table) {
            Ok(back) => {
                // JSON has no NaN or infinity (they become null and are refused), so the
                // scene that parses is the one written.
                // (The world is built by `scene_json_text`: a valid scene may hold up to 2^16
                // mixed sections, hundreds of MiB, which would slow this target a hundredfold.)
                assert_eq!(&back, scene, "scene JSON round trip differs");
            }
            Err(_) => assert!(
                scene.check(&table).is_err() || text.contains("null"),
                "a valid scene was refused: {text}"
            ),
        }
    }
}

/// A payload read whole is its trimmed read's head and zeros, and its declared size.
fn trimmed_agrees(reader: &mut DatReader<Cursor<&[u8]>>, entry: &DatEntry, payload: &[u8]) {
    let size = reader
        .payload_size(entry)
        .unwrap_or_else(|e| panic!("payload_size of a readable entry: {e}"));
    assert_eq!(size, payload.len() as u64, "declared size");
    let t = reader
        .read_entry_trimmed(entry, usize::MAX)
        .unwrap_or_else(|e| panic!("trimmed read of a readable entry: {e}"));
    assert_eq!(t.len(), payload.len() as u64, "trimmed length");
    assert_eq!(t.head[..], payload[..t.head.len()], "trimmed head");
    assert!(t.head.last().is_none_or(|&b| b != 0), "head ends in a zero");
    assert!(payload[t.head.len()..].iter().all(|&b| b == 0), "zeros");
    if let Some(last) = payload.iter().rposition(|&b| b != 0) {
        assert!(matches!(
            reader.read_entry_trimmed(entry, last),
            Err(ReadEntryError::OverCap { .. })
        ));
    }
}
