//! Text renderings of the parsed records: a few lines per record, lists one item a line.

use std::fmt::Write as _;

use crate::container::Iteration;
use crate::record::{LandBlock, LandBlockInfo, Region, SceneType, Sound, SoundTable, Wave};

/// `Ambient1 (0x46)` or `0x1234 (unknown)`.
fn sound_name(s: Sound) -> String {
    match s.name() {
        Some(name) => format!("{name} ({:#04x})", s.to_u32()),
        None => format!("{:#x} (unknown)", s.to_u32()),
    }
}

fn index(i: u32) -> String {
    if i == SceneType::NO_STB {
        "none".to_owned()
    } else {
        i.to_string()
    }
}

/// Region as text.
pub(crate) fn region_text(r: &Region) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Region 0x{:08X} \"{}\" (region_number {}, version {})",
        r.id, r.region_name, r.region_number, r.version
    );
    let m = r.parts_mask;
    let parts: Vec<&str> = [
        (m.has_sky(), "sky"),
        (m.has_sound(), "sound"),
        (m.has_scene(), "scene"),
        (m.has_region_misc(), "region_misc"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, n)| *n)
    .collect();
    let _ = writeln!(s, "parts_mask 0x{:08X}: {}", m.bits(), parts.join(" "));
    let d = &r.land_defs;
    let _ = writeln!(
        s,
        "land_defs: {}x{} blocks, square_length {}, l_block_length {}, vertex_per_cell {}, \
         max_obj_height {}, sky_height {}, road_width {}",
        d.num_block_length,
        d.num_block_width,
        d.square_length,
        d.l_block_length,
        d.vertex_per_cell,
        d.max_obj_height,
        d.sky_height,
        d.road_width
    );
    let h = &d.land_height_table;
    let _ = writeln!(
        s,
        "  land_height_table: [0]={} [100]={} [200]={} [240]={} [250]={} [254]={} [255]={}",
        h[0], h[100], h[200], h[240], h[250], h[254], h[255]
    );
    let g = &r.game_time;
    let _ = writeln!(
        s,
        "game_time: zero_time_of_year {}, zero_year {}, day_length {}, days_per_year {}, \
         year_spec \"{}\"",
        g.zero_time_of_year, g.zero_year, g.day_length, g.days_per_year, g.year_spec
    );
    let names = |v: Vec<String>| v.join(", ");
    let _ = writeln!(
        s,
        "  times_of_day: {}",
        names(
            g.times_of_day
                .iter()
                .map(|t| format!(
                    "{} {}{}",
                    t.start,
                    t.name,
                    if t.is_night.get() { " (night)" } else { "" }
                ))
                .collect()
        )
    );
    let _ = writeln!(
        s,
        "  days_of_week: {}",
        names(g.days_of_week.iter().map(ToString::to_string).collect())
    );
    let _ = writeln!(
        s,
        "  seasons: {}",
        names(
            g.seasons
                .iter()
                .map(|x| format!("{} from day {}", x.name, x.start_date))
                .collect()
        )
    );
    if let Some(sky) = &r.sky_info {
        let _ = writeln!(
            s,
            "sky_info: tick_size {}, light_tick_size {}, {} day_groups",
            sky.tick_size,
            sky.light_tick_size,
            sky.day_groups.len()
        );
        for dg in &sky.day_groups {
            let _ = writeln!(
                s,
                "  \"{}\" chance_of_occur {}: {} sky_objects, {} sky_time",
                dg.day_name,
                dg.chance_of_occur,
                dg.sky_objects.len(),
                dg.sky_time.len()
            );
        }
    }
    if let Some(sound) = &r.sound_info {
        let _ = writeln!(s, "sound_info: {} stb_desc", sound.stb_desc.len());
        for (i, d) in sound.stb_desc.iter().enumerate() {
            let _ = writeln!(
                s,
                "  [{i}] stb_id 0x{:08X}: {} ambient_sounds",
                d.stb_id,
                d.ambient_sounds.len()
            );
            for a in &d.ambient_sounds {
                if a.is_continuous() {
                    let _ = writeln!(
                        s,
                        "      {:<20} continuous    volume {:.2}  min_rate {}",
                        sound_name(a.s_type),
                        a.volume,
                        a.min_rate
                    );
                } else {
                    let _ = writeln!(
                        s,
                        "      {:<20} intermittent  volume {:.2}  base_chance {}  rate {}..{}",
                        sound_name(a.s_type),
                        a.volume,
                        a.base_chance,
                        a.min_rate,
                        a.max_rate
                    );
                }
            }
        }
    }
    if let Some(scene) = &r.scene_info {
        let _ = writeln!(s, "scene_info: {} scene_types", scene.scene_types.len());
        for (i, t) in scene.scene_types.iter().enumerate() {
            let scenes: Vec<String> = t.scenes.iter().map(|id| format!("0x{id:08X}")).collect();
            let _ = writeln!(
                s,
                "  [{i}] stb_index {}, scenes [{}]",
                index(t.stb_index),
                scenes.join(", ")
            );
        }
    }
    let t = &r.terrain_info;
    let _ = writeln!(s, "terrain_info: {} terrain_types", t.terrain_types.len());
    for (i, tt) in t.terrain_types.iter().enumerate() {
        let scene_types: Vec<String> = tt.scene_types.iter().map(|&x| index(x)).collect();
        let _ = writeln!(
            s,
            "  [{i:#04x}] {:<22} color 0x{:08X}  scene_types [{}]",
            tt.terrain_name.to_string(),
            tt.terrain_color.to_u32(),
            scene_types.join(", ")
        );
    }
    let tm = &t.land_surfaces.tex_merge;
    let _ = writeln!(
        s,
        "  land_surfaces: type {}, tex_merge base_tex_size {}, {} corner, {} side, {} road maps, \
         {} terrain_desc",
        t.land_surfaces.kind,
        tm.base_tex_size,
        tm.corner_terrain_maps.len(),
        tm.side_terrain_maps.len(),
        tm.road_maps.len(),
        tm.terrain_desc.len()
    );
    if let Some(m) = &r.region_misc {
        let _ = writeln!(
            s,
            "region_misc: version {}, game_map_id 0x{:08X}, autotest_map_id 0x{:08X}, \
             autotest_map_size {}, clear_cell_id 0x{:08X}, clear_monster_id 0x{:08X}",
            m.version,
            m.game_map_id,
            m.autotest_map_id,
            m.autotest_map_size,
            m.clear_cell_id,
            m.clear_monster_id
        );
    }
    s
}

/// SoundTable as text.
pub(crate) fn sound_table_text(t: &SoundTable) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "SoundTable 0x{:08X}: hash_key {}, {} hashes, {} sounds",
        t.id,
        t.hash_key,
        t.hashes.len(),
        t.sounds.len()
    );
    for h in &t.hashes {
        let _ = writeln!(
            s,
            "  hash 0x{:08X}: priority {} probability {} volume {}",
            h.key, h.priority, h.probability, h.volume
        );
    }
    for (sound, data) in &t.sounds {
        let _ = writeln!(
            s,
            "  {}: {} entries",
            sound_name(*sound),
            data.entries.len()
        );
        for e in &data.entries {
            let _ = writeln!(
                s,
                "      0x{:08X} priority {} probability {} volume {}",
                e.id, e.priority, e.probability, e.volume
            );
        }
    }
    s
}

/// The Wave's length in seconds (0 when the header has no byte rate).
pub(crate) fn duration_s(w: &Wave) -> f64 {
    match w.avg_bytes_per_sec() {
        Some(rate) if rate > 0 => w.data.len() as f64 / f64::from(rate),
        _ => 0.0,
    }
}

/// Wave header as text.
pub(crate) fn wave_text(w: &Wave) -> String {
    let opt = |v: Option<u32>| v.map_or_else(|| "?".to_owned(), |v| v.to_string());
    let tag = w.format_tag().map_or_else(
        || "?".to_owned(),
        |t| match t {
            0x0001 => "0x0001 (PCM)".to_owned(),
            0x0055 => "0x0055 (MPEG Layer-3)".to_owned(),
            t => format!("{t:#06x}"),
        },
    );
    let duration = duration_s(w);
    format!(
        "Wave 0x{:08X}: format_tag {tag}, channels {}, sample_rate {}, avg_bytes_per_sec {}, \
         block_align {}, bits_per_sample {}\n  header_size {}, data_size {} ({duration:.3} s)\n",
        w.id,
        opt(w.channels().map(u32::from)),
        opt(w.sample_rate()),
        opt(w.avg_bytes_per_sec()),
        opt(w.block_align().map(u32::from)),
        opt(w.bits_per_sample().map(u32::from)),
        w.header.len(),
        w.data.len()
    )
}

/// LandBlock as text: terrain words and heights as 9×9 grids, north at the top.
pub(crate) fn land_block_text(b: &LandBlock) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "LandBlock 0x{:08X} (x {:#04x}, y {:#04x}), has_objects {}",
        b.id,
        b.id >> 24,
        (b.id >> 16) & 0xFF,
        b.has_objects
    );
    let _ = writeln!(
        s,
        "terrain (type.road.scenery per vertex; rows north to south, x east):"
    );
    for y in (0..9).rev() {
        let row: Vec<String> = (0..9)
            .map(|x| {
                let w = b.terrain_word(x, y);
                format!(
                    "{:02x}.{}.{:02}",
                    w.terrain_type().to_i32(),
                    w.road(),
                    w.scenery()
                )
            })
            .collect();
        let _ = writeln!(s, "  y{y} {}", row.join(" "));
    }
    let _ = writeln!(s, "height bytes:");
    for y in (0..9).rev() {
        let row: Vec<String> = (0..9)
            .map(|x| format!("{:3}", b.height[x * 9 + y]))
            .collect();
        let _ = writeln!(s, "  y{y} {}", row.join(" "));
    }
    s
}

/// LandBlockInfo as text.
pub(crate) fn land_block_info_text(i: &LandBlockInfo) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "LandBlockInfo 0x{:08X}: num_cells {}, {} objects, {} buildings, pack_mask {}",
        i.id,
        i.num_cells,
        i.objects.len(),
        i.buildings.len(),
        i.pack_mask
    );
    for o in &i.objects {
        let p = o.frame.origin;
        let _ = writeln!(
            s,
            "  object 0x{:08X} at ({:.1}, {:.1}, {:.1})",
            o.id, p.x, p.y, p.z
        );
    }
    for b in &i.buildings {
        let p = b.frame.origin;
        let _ = writeln!(
            s,
            "  building 0x{:08X} at ({:.1}, {:.1}, {:.1}), num_leaves {}, {} portals",
            b.model_id,
            p.x,
            p.y,
            p.z,
            b.num_leaves,
            b.portals.len()
        );
        for portal in &b.portals {
            let _ = writeln!(
                s,
                "      portal flags {:#x} other_cell_id {:#06x} other_portal_id {} stab_list {:?}",
                portal.flags, portal.other_cell_id, portal.other_portal_id, portal.stab_list
            );
        }
    }
    if let Some(t) = &i.restriction_table {
        let _ = writeln!(s, "  restriction_table (bucket_size {}):", t.bucket_size);
        for (k, v) in &t.entries {
            let _ = writeln!(s, "      0x{k:08X} -> 0x{v:08X}");
        }
    }
    s
}

/// Iteration as text.
pub(crate) fn iteration_text(it: &Iteration) -> String {
    let ranges: Vec<String> = it
        .ranges
        .iter()
        .map(|r| format!("({}, {})", r.consecutive, r.starting))
        .collect();
    format!(
        "Iteration: current {}, ranges [{}]\n",
        it.current,
        ranges.join(", ")
    )
}
