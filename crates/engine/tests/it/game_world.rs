//! The game's own world: a chunked world the game owns, traced through `GameWorld` snapshots,
//! muffles a source exactly as the engine's built-in world does with the same blocks.

use std::collections::HashMap;
use std::sync::Arc;

use resound_engine::advanced::acoustics::{Cell, SectionClass, WorldProbe};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Material, Mode, Orientation, Source, WorldError};

/// A toy chunked world: 16³ chunks of optional materials behind `Arc`s (copy-on-write), and
/// the revision counters a `WorldProbe` reports.
#[derive(Debug, Clone, Default)]
struct Chunks {
    chunks: HashMap<IVec3, Arc<Vec<Option<Material>>>>,
    revision: u64,
    chunk_revision: HashMap<IVec3, u64>,
}

fn split(cell: IVec3) -> (IVec3, usize) {
    let chunk = IVec3::new(cell.x >> 4, cell.y >> 4, cell.z >> 4);
    let l = cell - chunk * 16;
    (chunk, (l.x + 16 * (l.y + 16 * l.z)) as usize)
}

impl Chunks {
    fn set(&mut self, cell: IVec3, m: Option<Material>) -> IVec3 {
        let (chunk, i) = split(cell);
        let c = self
            .chunks
            .entry(chunk)
            .or_insert_with(|| Arc::new(vec![None; 4096]));
        Arc::make_mut(c)[i] = m;
        self.revision += 1;
        self.chunk_revision.insert(chunk, self.revision);
        chunk
    }
}

impl WorldProbe for Chunks {
    fn section_class(&self, section: IVec3) -> SectionClass {
        match self.chunks.get(&section) {
            None => SectionClass::Empty,
            Some(_) => SectionClass::Mixed,
        }
    }
    fn cell(&self, cell: IVec3) -> Cell {
        let (chunk, i) = split(cell);
        match self.chunks.get(&chunk).and_then(|c| c[i]) {
            Some(m) => m.into(),
            None => Cell::Air,
        }
    }
    fn epoch(&self) -> u64 {
        0
    }
    fn revision(&self) -> u64 {
        self.revision
    }
    fn section_revision(&self, section: IVec3) -> u64 {
        self.chunk_revision.get(&section).copied().unwrap_or(0)
    }
}

/// The wall's cells: stone, x = 5, y 0..6, z −3..3.
fn wall() -> Vec<IVec3> {
    let mut v = Vec::new();
    for y in 0..6 {
        for z in -3..=3 {
            v.push(IVec3::new(5, y, z));
        }
    }
    v
}

fn scene(e: &mut Engine) {
    let noise: Arc<[f32]> = (0..48_000u32)
        .map(|i| (((i.wrapping_mul(2_654_435_761)) >> 8) as f32 / (1u32 << 24) as f32) - 0.5)
        .collect();
    let s = e.load_mono(noise, 48_000).unwrap();
    e.set_listener(DVec3::new(10.5, 1.5, 0.5), Orientation::default())
        .unwrap();
    e.play(
        s,
        Source {
            position: DVec3::new(0.5, 1.5, 0.5),
            looping: true,
            ..Source::default()
        },
    )
    .unwrap();
}

fn energy(x: &[f32]) -> f64 {
    x.iter().map(|v| f64::from(*v) * f64::from(*v)).sum()
}

#[test]
fn a_game_world_muffles_a_source_like_the_built_in_world() {
    // The built-in world with the wall.
    let mut built = Engine::builder().mode(Mode::Direct).build().unwrap();
    for c in wall() {
        built.world().set_block(c, Material::STONE).unwrap();
    }
    scene(&mut built);
    let a = built.render_frames(24_000).unwrap();

    // The game's own world with the same wall.
    let mut chunks = Chunks::default();
    for c in wall() {
        chunks.set(c, Some(Material::STONE));
    }
    let mut game = Engine::builder()
        .mode(Mode::Direct)
        .world(Arc::new(chunks.clone()))
        .build()
        .unwrap();
    scene(&mut game);
    let b = game.render_frames(24_000).unwrap();
    assert_eq!(a, b, "the same blocks give the same samples");
    assert!(matches!(
        game.world().set_block(IVec3::ZERO, Material::WOOD),
        Err(WorldError::GameOwned)
    ));

    // No wall at all: louder.
    let mut open = Engine::builder().mode(Mode::Direct).build().unwrap();
    scene(&mut open);
    let o = open.render_frames(24_000).unwrap();
    assert!(
        energy(&o[24_000..]) > 4.0 * energy(&b[24_000..]),
        "the wall muffles"
    );
}

#[test]
fn opening_the_wall_in_the_game_world_reaches_the_voice_within_a_tick() {
    let mut chunks = Chunks::default();
    for c in wall() {
        chunks.set(c, Some(Material::STONE));
    }
    let mut e = Engine::builder()
        .mode(Mode::Direct)
        .world(Arc::new(chunks.clone()))
        .build()
        .unwrap();
    scene(&mut e);
    let muffled = e.render_frames(9600).unwrap();
    // The game edits its world and reports the changed chunks.
    let mut changed = Vec::new();
    for c in wall() {
        changed.push(chunks.set(c, None));
    }
    changed.dedup();
    e.world_changed(Arc::new(chunks.clone()), &changed).unwrap();
    // Two ticks (0.1 s) and the 80 ms glide later, the voice is as loud as in the open.
    e.render_frames(14_400).unwrap();
    let opened = e.render_frames(9600).unwrap();
    assert!(energy(&opened) > 4.0 * energy(&muffled));

    let mut plain = Engine::builder().build().unwrap();
    assert!(matches!(
        plain.world_changed(Arc::new(chunks), &changed),
        Err(WorldError::NotGameOwned)
    ));
}
