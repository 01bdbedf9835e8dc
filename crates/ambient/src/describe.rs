//! Text renderings for people (what `resound ambient` prints): [`std::fmt::Display`] for
//! [`AmbientEvent`], [`WalkEntry`] and [`SoundKind`], and [`RebuildReport`] for one rebuild with
//! its instances. Machines use the serde forms instead.

#[cfg(test)]
mod tests;

use std::fmt;

use crate::ambient::{AmbientSnapshot, Rebuild};
use crate::event::{AmbientEvent, DropReason, Outcome};
use crate::geometry::Position;
use crate::instance::SoundKind;
use crate::walk::WalkEntry;

impl fmt::Display for SoundKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            SoundKind::Intermit => "intermit",
            SoundKind::Constant => "constant",
        })
    }
}

/// One line: time, play or drop, the sound (`table/index kind stype`), then the wave, level, pan
/// and place, or why it was dropped.
impl fmt::Display for AmbientEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = format!(
            "{}/{} {:<8} stype {:#x}",
            self.stb_id, self.ambient_sound_id, self.kind, self.s_type
        );
        match self.outcome {
            Outcome::Play(v) => {
                write!(
                    f,
                    "{:>9.3}  play  {who}  wave {} row {}  {:>3} dB  pan {:+}  ",
                    self.time, v.wave_id, v.row, v.db, v.pan
                )?;
                match v.position {
                    Some(p) => write!(
                        f,
                        "at {:.1} m ({:.1}, {:.1}, {:.1} in {})",
                        v.distance, p.origin.x, p.origin.y, p.origin.z, p.objcell_id
                    ),
                    None => f.write_str("from centre"),
                }
            }
            Outcome::Drop(reason) => {
                write!(f, "{:>9.3}  drop  {who}  ", self.time)?;
                match reason {
                    DropReason::NoSoundTable => f.write_str("no sound table"),
                    DropReason::NoEntry => f.write_str("no table entry"),
                    DropReason::SilentWave { row } => write!(f, "row {row} has no wave"),
                    DropReason::Probability { row } => {
                        write!(f, "row {row} failed its probability")
                    }
                    DropReason::Inactive { row } => write!(f, "row {row}: window inactive"),
                    DropReason::Inaudible { row, distance } => {
                        write!(f, "row {row} inaudible at {distance:.1} m")
                    }
                }
            }
        }
    }
}

/// One line per rebuild (or teleport) or event.
impl fmt::Display for WalkEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkEntry::Rebuild {
                time,
                position: p,
                total_sound_count,
                instances,
                teleport,
                rebuild: r,
            } => write!(
                f,
                "{time:>9.3}  {}  cell {} ({:.1}, {:.1}, {:.1})  total {total_sound_count:.4}  instances {instances}  landblocks {} ({} missing)  AddSound {}",
                if *teleport { "teleport" } else { "rebuild" },
                p.objcell_id,
                p.origin.x,
                p.origin.y,
                p.origin.z,
                r.land_blocks.len(),
                r.missing_land_blocks.len(),
                r.add_sound_calls
            ),
            WalkEntry::Event(e) => e.fmt(f),
        }
    }
}

/// One rebuild for people: where, what the gather saw, every instance with its directions, and
/// the sounds that played at once. Lines end with `\n`. As JSON (serde) it is one object with
/// the same fields plus the sound-table loads and releases.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct RebuildReport<'a> {
    /// The position the rebuild gathered around.
    pub position: &'a Position,
    /// What the rebuild saw.
    pub rebuild: &'a Rebuild,
    /// The state after it.
    pub snapshot: &'a AmbientSnapshot,
    /// The events it emitted.
    pub events: &'a [AmbientEvent],
    /// SoundTables the rebuild loaded (JSON only).
    pub sound_table_loads: usize,
    /// SoundTables it released (JSON only).
    pub sound_table_releases: usize,
}

impl fmt::Display for RebuildReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, r, s) = (self.position, self.rebuild, self.snapshot);
        let indoors = if r.outdoorish {
            ""
        } else {
            " (indoors: no outdoor gather)"
        };
        writeln!(
            f,
            "cell {} at ({:.2}, {:.2}, {:.2}){indoors}",
            p.objcell_id, p.origin.x, p.origin.y, p.origin.z
        )?;
        write!(
            f,
            "landblocks: {} gathered, {} missing",
            r.land_blocks.len(),
            r.missing_land_blocks.len()
        )?;
        for (i, id) in r.missing_land_blocks.iter().enumerate() {
            f.write_str(if i == 0 { " (" } else { ", " })?;
            write!(f, "{id}")?;
        }
        if !r.missing_land_blocks.is_empty() {
            f.write_str(")")?;
        }
        writeln!(
            f,
            "; {} AddSound calls, {} contributing cells",
            r.add_sound_calls, r.contributing_cells
        )?;
        for x in &r.failures {
            writeln!(f, "failure: {:?} 0x{:08X}: {}", x.kind, x.id, x.message)?;
        }
        writeln!(
            f,
            "total weight {:.6}, {} instances",
            s.total_sound_count,
            s.sounds.len()
        )?;
        writeln!(
            f,
            "{:>3}  {:<10}  {:>3}  {:<8}  {:>5}  {:>10}  {:<16}  directions",
            "#", "stb", "idx", "kind", "stype", "count", "chance/volume"
        )?;
        for snd in &s.sounds {
            let value = match (snd.play_chance, snd.current_volume) {
                (Some(c), _) => format!("chance {c:.6}"),
                (_, Some(v)) => format!("volume {v:.6}"),
                _ => String::new(),
            };
            write!(
                f,
                "{:>3}  {}  {:>3}  {:<8}  {:#5x}  {:>10.6}  {:<16}  ",
                snd.index,
                snd.stb_id,
                snd.ambient_sound_id,
                snd.kind,
                snd.s_type,
                snd.sound_count,
                value
            )?;
            for (i, d) in snd.directions.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(f, "{sep}{:?} {:.1}–{:.1} m", d.dir, d.min_dist, d.max_dist)?;
            }
            writeln!(f)?;
        }
        if !self.events.is_empty() {
            writeln!(f, "played at once:")?;
            for e in self.events {
                writeln!(f, "  {e}")?;
            }
        }
        Ok(())
    }
}
