//! Which DBObj type a dat entry holds, from its dat kind and id (spec `dat-format.md` §1.8).

use resound_engine::datformat::container::{DatKind, ITERATION_ID};

/// The record types `resound` parses and round-trips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Parsed {
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

/// The record type name of entry `id` in a dat of `kind` (DatReaderWriter's class names), and
/// whether `resound` parses it.
pub fn classify(kind: DatKind, id: u32) -> (&'static str, Option<Parsed>) {
    if id == ITERATION_ID {
        return ("Iteration", Some(Parsed::Iteration));
    }
    match kind {
        DatKind::Cell => match id & 0xFFFF {
            0xFFFF => ("LandBlock", Some(Parsed::LandBlock)),
            0xFFFE => ("LandBlockInfo", Some(Parsed::LandBlockInfo)),
            _ => ("EnvCell", None),
        },
        DatKind::Local => (
            match id >> 24 {
                0x21 => "LayoutDesc",
                0x23 | 0x24 => "StringTable",
                0x41 => "LanguageInfo",
                _ => "Unknown",
            },
            None,
        ),
        _ => portal_type(id),
    }
}

fn portal_type(id: u32) -> (&'static str, Option<Parsed>) {
    let name = match id >> 24 {
        0x01 => "GfxObj",
        0x02 => "Setup",
        0x03 => "Animation",
        0x04 => "Palette",
        0x05 => "SurfaceTexture",
        0x06 | 0x07 => "RenderSurface",
        0x08 => "Surface",
        0x09 => "MotionTable",
        0x0A => return ("Wave", Some(Parsed::Wave)),
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
            _ => "Unknown",
        },
        0x0F => "PalSet",
        0x10 => "ClothingTable",
        0x11 => "GfxObjDegradeInfo",
        0x12 => "Scene",
        0x13 if id <= 0x1300_FFFF => return ("Region", Some(Parsed::Region)),
        0x14 => "MasterInputMap",
        0x15 => "RenderTexture",
        0x16 => "RenderMaterial",
        0x17 => "MaterialModifier",
        0x18 => "MaterialInstance",
        0x20 if id <= 0x2000_FFFF => return ("SoundTable", Some(Parsed::SoundTable)),
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
        _ => "Unknown",
    };
    (name, None)
}

/// `portal`, `cell`, `local`, or `Other(n)`.
pub fn kind_name(kind: DatKind) -> String {
    match kind {
        DatKind::Portal => "portal".to_owned(),
        DatKind::Cell => "cell".to_owned(),
        DatKind::Local => "local".to_owned(),
        other => format!("{other:?}"),
    }
}
