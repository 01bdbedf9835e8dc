//! Shared helpers: fixture sources, an independent re-computation of the gather, golden files.

use std::path::PathBuf;

use glam::Vec3;
use resound_ambient::{
    Ambient, MemoryLandBlocks, MemorySoundTables, Position, PositionChange, Rebuild, Seeds,
    SoundSettings,
};
use resound_datformat::record::{LandBlock, Region};
use resound_fixture as fixture;

pub const SEEDS: Seeds = Seeds {
    ran2: 2013,
    crt: 11_4186,
};

pub fn sources() -> (MemorySoundTables, MemoryLandBlocks) {
    (
        MemorySoundTables::new(fixture::sound_tables()),
        MemoryLandBlocks::new(fixture::land_blocks()),
    )
}

pub fn ambient() -> Ambient {
    Ambient::new(&fixture::region(), SEEDS, SoundSettings::default()).unwrap()
}

/// The player standing on the terrain of land cell `(cx, cy)` of block `(bx, by)`, at local
/// offset `(dx, dy)` from the cell's SW corner, z at the SW vertex height.
pub fn on_cell(bx: u32, by: u32, cx: u32, cy: u32, dx: f32, dy: f32) -> Position {
    let region = fixture::region();
    let block = fixture::land_block(bx as u8, by as u8).unwrap();
    let h = region.land_defs.land_height_table[usize::from(block.height[(cx * 9 + cy) as usize])];
    Position::new(
        (bx << 24) | (by << 16) | (cx * 8 + cy + 1),
        Vec3::new(cx as f32 * 24.0 + dx, cy as f32 * 24.0 + dy, h + 1.0),
    )
}

pub fn rebuilt(c: PositionChange) -> Rebuild {
    match c {
        PositionChange::Rebuilt(r) => r,
        other => panic!("expected a rebuild, got {other:?}"),
    }
}

/// The oracle's weight per `(desc, entry)`.
pub type PerSound = Vec<((usize, usize), f64)>;

/// An independent, direct re-computation of one gather from the raw records: for every land
/// cell of the 3×3 ring whose terrain word resolves (terrain type → scene type → STB index) to a
/// set with a table, the inverse-square weight of its SW vertex. Returns the total weight and,
/// per `(desc, entry)`, the accumulated weight.
pub fn oracle(
    region: &Region,
    tables: &[u32],
    blocks: &[LandBlock],
    player: &Position,
) -> (f64, PerSound) {
    let stbs = &region.sound_info.as_ref().unwrap().stb_desc;
    let scenes = &region.scene_info.as_ref().unwrap().scene_types;
    let (px, py) = (
        player.objcell_id.0 >> 24,
        (player.objcell_id.0 >> 16) & 0xFF,
    );
    let mut total = 0.0;
    let mut per: PerSound = Vec::new();
    for b in blocks {
        let (bx, by) = (b.id >> 24, (b.id >> 16) & 0xFF);
        if bx.abs_diff(px) > 1 || by.abs_diff(py) > 1 {
            continue;
        }
        for x in 0..8_u32 {
            for y in 0..8_u32 {
                let i = (x * 9 + y) as usize;
                let w = b.terrain[i];
                let t = usize::from((w >> 2) & 0x1F);
                let s = usize::from(w >> 11);
                let Some(tt) = region.terrain_info.terrain_types.get(t) else {
                    continue;
                };
                let Some(&sc) = tt.scene_types.get(s) else {
                    continue;
                };
                if sc == u32::MAX {
                    continue;
                }
                let stb = scenes[sc as usize].stb_index;
                if stb == u32::MAX || !tables.contains(&stbs[stb as usize].stb_id) {
                    continue;
                }
                let h = f64::from(region.land_defs.land_height_table[usize::from(b.height[i])]);
                let dx = (f64::from(bx) - f64::from(px)) * 192.0 + f64::from(x) * 24.0
                    - f64::from(player.origin.x);
                let dy = (f64::from(by) - f64::from(py)) * 192.0 + f64::from(y) * 24.0
                    - f64::from(player.origin.y);
                let dz = h - f64::from(player.origin.z);
                let d2 = dx * dx + dy * dy + dz * dz;
                if d2 > 14400.0 {
                    continue;
                }
                let wgt = if d2 < 400.0 { 1.0 } else { 400.0 / d2 };
                total += wgt;
                for e in 0..stbs[stb as usize].ambient_sounds.len() {
                    let key = (stb as usize, e);
                    match per.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, v)) => *v += wgt,
                        None => per.push((key, wgt)),
                    }
                }
            }
        }
    }
    (total, per)
}

/// Compares `actual` with `tests/it/golden/NAME.json`; with `RESOUND_BLESS=1` writes it instead.
pub fn golden(name: &str, actual: &serde_json::Value) {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "it",
        "golden",
        &format!("{name}.json"),
    ]
    .iter()
    .collect();
    let text = serde_json::to_string_pretty(actual).unwrap() + "\n";
    if std::env::var_os("RESOUND_BLESS").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with RESOUND_BLESS=1 to create it)",
            path.display()
        )
    });
    assert!(
        expected == text,
        "{name}: the output differs from {}:\n{text}",
        path.display()
    );
}
