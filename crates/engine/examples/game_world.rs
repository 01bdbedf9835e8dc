//! A game that owns its world: chunks of blocks in `Arc`s, a snapshot handed to the engine,
//! and each edit reported with the chunks it touched. A door in a stone wall opens and the
//! voice behind it comes through.
//! `cargo run -p resound-engine --example game_world`
use std::collections::HashMap;
use std::sync::Arc;

use resound_engine::advanced::acoustics::{Cell, SectionClass, WorldProbe};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Engine, Material, Mode, Orientation, Source};

/// The game's world: 16³ chunks, copy-on-write, with the revision counters the acoustics
/// compare.
#[derive(Debug, Clone, Default)]
struct World {
    chunks: HashMap<IVec3, Arc<Vec<Option<Material>>>>,
    revision: u64,
    chunk_revision: HashMap<IVec3, u64>,
}

fn chunk_of(cell: IVec3) -> (IVec3, usize) {
    let chunk = IVec3::new(cell.x >> 4, cell.y >> 4, cell.z >> 4);
    let l = cell - chunk * 16;
    (chunk, (l.x + 16 * (l.y + 16 * l.z)) as usize)
}

impl World {
    /// Sets a block; returns the chunk it is in.
    fn set(&mut self, cell: IVec3, block: Option<Material>) -> IVec3 {
        let (chunk, i) = chunk_of(cell);
        let c = self
            .chunks
            .entry(chunk)
            .or_insert_with(|| Arc::new(vec![None; 4096]));
        Arc::make_mut(c)[i] = block;
        self.revision += 1;
        self.chunk_revision.insert(chunk, self.revision);
        chunk
    }
}

impl WorldProbe for World {
    fn section_class(&self, section: IVec3) -> SectionClass {
        if self.chunks.contains_key(&section) {
            SectionClass::Mixed
        } else {
            SectionClass::Empty
        }
    }
    fn cell(&self, cell: IVec3) -> Cell {
        let (chunk, i) = chunk_of(cell);
        self.chunks
            .get(&chunk)
            .and_then(|c| c[i])
            .map_or(Cell::Air, Cell::from)
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

fn rms(x: &[f32]) -> f32 {
    (x.iter().map(|v| v * v).sum::<f32>() / x.len() as f32).sqrt()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A stone wall at x = 5 with a closed wooden door.
    let mut world = World::default();
    for y in 0..4 {
        for z in -4..=4 {
            world.set(IVec3::new(5, y, z), Some(Material::STONE));
        }
    }
    let door = [IVec3::new(5, 0, 0), IVec3::new(5, 1, 0)];
    for c in door {
        world.set(c, Some(Material::WOOD));
    }
    let mut engine = Engine::builder()
        .mode(Mode::Direct)
        .world(Arc::new(world.clone()))
        .build()?;
    engine.set_listener(DVec3::new(10.5, 1.5, 0.5), Orientation::default())?;
    let noise: Arc<[f32]> = (0..48_000u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32 / 16_777_216.0 - 0.5) * 0.5)
        .collect();
    let sound = engine.load_mono(noise, 48_000)?;
    engine.play(
        sound,
        Source {
            position: DVec3::new(0.5, 1.5, 0.5),
            looping: true,
            ..Source::default()
        },
    )?;
    let closed = engine.render_frames(24_000)?;
    println!("door closed: rms {:.4}", rms(&closed));

    // The player opens the door: the game edits its world and says which chunks changed.
    let mut changed: Vec<IVec3> = door.iter().map(|c| world.set(*c, None)).collect();
    changed.dedup();
    engine.world_changed(Arc::new(world.clone()), &changed)?;
    engine.render_frames(9_600)?; // the next tick and the gains' glide
    let open = engine.render_frames(24_000)?;
    println!("door open:   rms {:.4}", rms(&open));
    Ok(())
}
