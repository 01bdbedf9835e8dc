//! Which DBObj type a dat entry holds, from its dat kind and id (spec `dat-format.md` §1.8).

use std::fmt;
use std::str::FromStr;

use crate::container::{DatKind, ITERATION_ID};

/// The record types this crate parses and writes back byte-identically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RecordType {
    /// Region (portal 0x13…).
    Region,
    /// SoundTable (portal 0x20…).
    SoundTable,
    /// Wave (portal 0x0A…).
    Wave,
    /// LandBlock (cell 0xXXYYFFFF).
    LandBlock,
    /// LandBlockInfo (cell 0xXXYYFFFE).
    LandBlockInfo,
    /// Iteration (0xFFFF0001, every dat).
    Iteration,
}

impl RecordType {
    /// Every parsed type, in the order above.
    pub const ALL: [Self; 6] = [
        Self::Region,
        Self::SoundTable,
        Self::Wave,
        Self::LandBlock,
        Self::LandBlockInfo,
        Self::Iteration,
    ];

    /// DatReaderWriter's class name (`SoundTable`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Region => "Region",
            Self::SoundTable => "SoundTable",
            Self::Wave => "Wave",
            Self::LandBlock => "LandBlock",
            Self::LandBlockInfo => "LandBlockInfo",
            Self::Iteration => "Iteration",
        }
    }
}

impl fmt::Display for RecordType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the [`RecordType`]s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown record type {0:?}: expected region, sound-table, wave, land-block, land-block-info \
     or iteration"
)]
pub struct UnknownRecordType(pub String);

impl FromStr for RecordType {
    type Err = UnknownRecordType;

    /// Accepts the class name in any case, with or without `-`/`_` (`sound-table`,
    /// `SoundTable`, `land_block_info`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key: String = s
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Self::ALL
            .into_iter()
            .find(|t| t.name().to_ascii_lowercase() == key)
            .ok_or_else(|| UnknownRecordType(s.to_owned()))
    }
}

/// The type of one dat entry: DatReaderWriter's class name, and the [`RecordType`] when this
/// crate parses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryType {
    /// Class name (`Wave`, `Environment`, …), or `Unknown` for an id no type claims.
    pub name: &'static str,
    /// The parsed type, if this crate reads it.
    pub parsed: Option<RecordType>,
}

impl EntryType {
    /// Whether no record type claims the id.
    #[must_use]
    pub fn is_unknown(self) -> bool {
        self.name == UNKNOWN
    }
}

/// The name of an id no record type claims.
const UNKNOWN: &str = "Unknown";

/// An entry type this crate does not parse.
const fn named(name: &'static str) -> EntryType {
    EntryType { name, parsed: None }
}

/// An entry type this crate parses.
const fn parsed(t: RecordType) -> EntryType {
    EntryType {
        name: t.name(),
        parsed: Some(t),
    }
}

/// The type of entry `id` in a dat of `kind` (DatReaderWriter's class names).
#[must_use]
pub fn entry_type(kind: DatKind, id: u32) -> EntryType {
    if id == ITERATION_ID {
        return parsed(RecordType::Iteration);
    }
    match kind {
        DatKind::Cell => match id & 0xFFFF {
            0xFFFF => parsed(RecordType::LandBlock),
            0xFFFE => parsed(RecordType::LandBlockInfo),
            _ => named("EnvCell"),
        },
        DatKind::Local => named(match id >> 24 {
            0x21 => "LayoutDesc",
            0x23 | 0x24 => "StringTable",
            0x41 => "LanguageInfo",
            _ => UNKNOWN,
        }),
        _ => portal_type(id),
    }
}

/// Portal (and highres) dat ids.
fn portal_type(id: u32) -> EntryType {
    named(match id >> 24 {
        0x01 => "GfxObj",
        0x02 => "Setup",
        0x03 => "Animation",
        0x04 => "Palette",
        0x05 => "SurfaceTexture",
        0x06 | 0x07 => "RenderSurface",
        0x08 => "Surface",
        0x09 => "MotionTable",
        0x0A => return parsed(RecordType::Wave),
        0x0D => "Environment",
        0x0E => match id {
            0x0E00_0002 => "CharGen",
            0x0E00_0003 => "VitalTable",
            0x0E00_0004 => "SkillTable",
            0x0E00_0007 => "ChatPoseTable",
            0x0E00_000D => "ObjectHierarchy",
            0x0E00_000E => "SpellTable",
            0x0E00_000F => "SpellComponentTable",
            0x0E00_0018 => "ExperienceTable",
            0x0E00_001A => "BadDataTable",
            0x0E00_001D => "ContractTable",
            0x0E00_001E => "TabooTable",
            0x0E00_0020 => "NameFilterTable",
            _ if id >> 16 == 0x0E01 => "QualityFilter",
            _ => UNKNOWN,
        },
        0x0F => "PalSet",
        0x10 => "ClothingTable",
        0x11 => "GfxObjDegradeInfo",
        0x12 => "Scene",
        0x13 if id <= 0x1300_FFFF => return parsed(RecordType::Region),
        0x14 => "MasterInputMap",
        0x15 => "RenderTexture",
        0x16 => "RenderMaterial",
        0x17 => "MaterialModifier",
        0x18 => "MaterialInstance",
        0x20 if id <= 0x2000_FFFF => return parsed(RecordType::SoundTable),
        0x22 => "EnumMapper",
        0x25 => "EnumIDMap",
        0x26 => "ActionMap",
        0x27 => "DualEnumIDMap",
        0x30 => "CombatTable",
        0x31 => "LanguageString",
        0x32 => "ParticleEmitter",
        0x33 => "PhysicsScript",
        0x34 => "PhysicsScriptTable",
        0x39 => "MasterProperty",
        0x40 => "Font",
        0x78..=0x7F => "DBProperties",
        _ => UNKNOWN,
    })
}
