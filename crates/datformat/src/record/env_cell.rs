//! `EnvCell` — cell dat, ids `0xXXYY0100..=0xXXYYFFFD`: an indoor cell (a dungeon room or a
//! building interior), in DatReaderWriter's field order (`DBObjs/EnvCell.generated.cs`; ACE's
//! `DatLoader/FileTypes/EnvCell.cs` reads the same):
//!
//! `Id u32, Flags u32, Id u32 (again), numSurfaces u8, numPortals u8, numVisibleCells u16,
//! Surfaces u16[numSurfaces], EnvironmentId u16, CellStructure u16, Position Frame,
//! CellPortals[numPortals] (4 × u16 each), VisibleCells u16[numVisibleCells],
//! [Flags & HasStaticObjs: n u32, Stab[n]], [Flags & HasRestrictionObj: RestrictionObj u32]`.
//!
//! No alignment is read between the fields (neither reference aligns). Retail keeps
//! `Flags & SeenOutside` as `CEnvCell::seen_outside`, which `CellManager::ChangePosition`
//! @ 0x004559B0 reads to decide whether an indoor cell gathers the outdoor ambient set.

use binrw::io::{Read, Seek, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::Serialize;

use super::codec::{count, fixed_size_read, read_fixed, write_items, write_list_u32};
use super::land_block_info::Stab;
use super::primitive::Frame;

/// An EnvCell DBObj.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EnvCell {
    /// File id (`0xXXYY0100..=0xXXYYFFFD`).
    pub id: u32,
    /// `Flags` (`EnvCellFlags`: [`EnvCell::SEEN_OUTSIDE`], [`EnvCell::HAS_STATIC_OBJS`],
    /// [`EnvCell::HAS_RESTRICTION_OBJ`]; other bits are kept as read).
    pub flags: u32,
    /// The cell id written a second time after the flags (equal to `id` in every known dat;
    /// kept as read).
    pub cell_id: u32,
    /// `Surfaces`: Surface ids without their `0x08000000` high byte.
    pub surfaces: Vec<u16>,
    /// `EnvironmentId`: the Environment without its `0x0D000000` high byte.
    pub environment_id: u16,
    /// `CellStructure`: the index of the cell's structure in the Environment.
    pub cell_structure: u16,
    /// `Position`: the cell's frame in its landblock.
    pub position: Frame,
    /// `CellPortals`.
    pub cell_portals: Vec<CellPortal>,
    /// `VisibleCells`: low words of the cells seen from this one.
    pub visible_cells: Vec<u16>,
    /// `StaticObjects`, on disk iff `flags & HAS_STATIC_OBJS` (a u32 count, then the stabs).
    pub static_objects: Vec<Stab>,
    /// `RestrictionObj`, on disk iff `flags & HAS_RESTRICTION_OBJ`.
    pub restriction_obj: Option<u32>,
}

impl EnvCell {
    /// `EnvCellFlags::SeenOutside`: the cell sees outside (retail `CEnvCell::seen_outside`).
    pub const SEEN_OUTSIDE: u32 = 0x1;
    /// `EnvCellFlags::HasStaticObjs`: the static-object list is on disk.
    pub const HAS_STATIC_OBJS: u32 = 0x2;
    /// `EnvCellFlags::HasRestrictionObj`: the restriction object is on disk.
    pub const HAS_RESTRICTION_OBJ: u32 = 0x8;

    /// Whether the cell sees outside (`Flags & SeenOutside`).
    #[must_use]
    pub fn seen_outside(&self) -> bool {
        self.flags & Self::SEEN_OUTSIDE != 0
    }

    /// Reads only the id and the flags of an EnvCell entry (the first eight bytes), without
    /// parsing the rest; `None` when the entry is shorter.
    #[must_use]
    pub fn peek_flags(bytes: &[u8]) -> Option<(u32, u32)> {
        Some((
            super::codec::le_u32_at(bytes, 0)?,
            super::codec::le_u32_at(bytes, 4)?,
        ))
    }
}

/// `CellPortal` (8 bytes): a portal polygon of the cell and the cell it leads to.
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CellPortal {
    /// `Flags` (`PortalFlags`: 0x1 ExactMatch, 0x2 PortalSide).
    pub flags: u16,
    /// `PolygonId`: the portal polygon in the cell structure.
    pub polygon_id: u16,
    /// `OtherCellId`: low word of the cell on the other side (`0xFFFF`: outside).
    pub other_cell_id: u16,
    /// `OtherPortalId`.
    pub other_portal_id: u16,
}

fixed_size_read!(CellPortal, 8, {
    flags,
    polygon_id,
    other_cell_id,
    other_portal_id,
});

impl BinRead for EnvCell {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<Self> {
        let id = u32::read_options(reader, endian, ())?;
        let flags = u32::read_options(reader, endian, ())?;
        let cell_id = u32::read_options(reader, endian, ())?;
        let num_surfaces = u8::read_options(reader, endian, ())?;
        let num_portals = u8::read_options(reader, endian, ())?;
        let num_visible = u16::read_options(reader, endian, ())?;
        let surfaces = read_fixed(reader, endian, u64::from(num_surfaces))?;
        let environment_id = u16::read_options(reader, endian, ())?;
        let cell_structure = u16::read_options(reader, endian, ())?;
        let position = Frame::read_options(reader, endian, ())?;
        let cell_portals = read_fixed(reader, endian, u64::from(num_portals))?;
        let visible_cells = read_fixed(reader, endian, u64::from(num_visible))?;
        let static_objects = if flags & Self::HAS_STATIC_OBJS != 0 {
            let n = u32::read_options(reader, endian, ())?;
            read_fixed(reader, endian, u64::from(n))?
        } else {
            Vec::new()
        };
        let restriction_obj = if flags & Self::HAS_RESTRICTION_OBJ != 0 {
            Some(u32::read_options(reader, endian, ())?)
        } else {
            None
        };
        Ok(Self {
            id,
            flags,
            cell_id,
            surfaces,
            environment_id,
            cell_structure,
            position,
            cell_portals,
            visible_cells,
            static_objects,
            restriction_obj,
        })
    }
}

impl BinWrite for EnvCell {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(
        &self,
        writer: &mut W,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<()> {
        let has_stabs = self.flags & Self::HAS_STATIC_OBJS != 0;
        let has_restriction = self.flags & Self::HAS_RESTRICTION_OBJ != 0;
        if !has_stabs && !self.static_objects.is_empty() {
            return Err(binrw::Error::AssertFail {
                pos: writer.stream_position()?,
                message: "static_objects without the HasStaticObjs flag".into(),
            });
        }
        if self.restriction_obj.is_some() != has_restriction {
            return Err(binrw::Error::AssertFail {
                pos: writer.stream_position()?,
                message: "restriction_obj disagrees with the HasRestrictionObj flag".into(),
            });
        }
        self.id.write_options(writer, endian, ())?;
        self.flags.write_options(writer, endian, ())?;
        self.cell_id.write_options(writer, endian, ())?;
        count::<W, u8>(writer, self.surfaces.len())?.write_options(writer, endian, ())?;
        count::<W, u8>(writer, self.cell_portals.len())?.write_options(writer, endian, ())?;
        count::<W, u16>(writer, self.visible_cells.len())?.write_options(writer, endian, ())?;
        write_items(&self.surfaces, writer, endian)?;
        self.environment_id.write_options(writer, endian, ())?;
        self.cell_structure.write_options(writer, endian, ())?;
        self.position.write_options(writer, endian, ())?;
        write_items(&self.cell_portals, writer, endian)?;
        write_items(&self.visible_cells, writer, endian)?;
        if has_stabs {
            write_list_u32(&self.static_objects, writer, endian, ())?;
        }
        if let Some(r) = self.restriction_obj {
            r.write_options(writer, endian, ())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Quaternion, Record, Vector3};

    fn cell(flags: u32) -> EnvCell {
        EnvCell {
            id: 0xA9B4_0101,
            flags,
            cell_id: 0xA9B4_0101,
            surfaces: vec![0x0123, 0x0456, 0x0789],
            environment_id: 0x0042,
            cell_structure: 3,
            position: Frame {
                origin: Vector3 {
                    x: 60.0,
                    y: 130.0,
                    z: -6.0,
                },
                orientation: Quaternion {
                    w: 1.0,
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                },
            },
            cell_portals: vec![CellPortal {
                flags: 0x2,
                polygon_id: 7,
                other_cell_id: 0x0100,
                other_portal_id: 1,
            }],
            visible_cells: vec![0x0100],
            static_objects: if flags & EnvCell::HAS_STATIC_OBJS != 0 {
                vec![Stab {
                    id: 0x0200_0A01,
                    frame: Frame::default(),
                }]
            } else {
                Vec::new()
            },
            restriction_obj: (flags & EnvCell::HAS_RESTRICTION_OBJ != 0).then_some(0x7ABB_400C),
        }
    }

    #[test]
    fn layout_matches_the_drw_field_order() {
        let c = cell(EnvCell::SEEN_OUTSIDE);
        let b = c.to_bytes().unwrap();
        // id, flags, id again, counts 3 surfaces / 1 portal / 1 visible cell
        assert_eq!(&b[0..4], &0xA9B4_0101u32.to_le_bytes());
        assert_eq!(&b[4..8], &1u32.to_le_bytes());
        assert_eq!(&b[8..12], &0xA9B4_0101u32.to_le_bytes());
        assert_eq!(&b[12..16], &[3, 1, 1, 0]);
        assert_eq!(&b[16..22], &[0x23, 0x01, 0x56, 0x04, 0x89, 0x07]);
        // environment, structure, then the frame's origin x
        assert_eq!(&b[22..26], &[0x42, 0, 3, 0]);
        assert_eq!(&b[26..30], &60.0f32.to_le_bytes());
        // portal (8) and the visible cell (2) after the 28-byte frame; no static objects
        assert_eq!(&b[54..62], &[2, 0, 7, 0, 0, 1, 1, 0]);
        assert_eq!(&b[62..64], &[0, 1]);
        assert_eq!(b.len(), 64);
        assert_eq!(EnvCell::peek_flags(&b), Some((0xA9B4_0101, 1)));
        assert!(EnvCell::from_bytes(&b).unwrap().seen_outside());
    }

    #[test]
    fn every_flag_combination_round_trips() {
        for flags in [0, 1, 2, 3, 8, 9, 10, 11, 0x8000_0001] {
            let c = cell(flags);
            let b = c.to_bytes().unwrap();
            let back = EnvCell::from_bytes(&b).unwrap();
            assert_eq!(back, c, "flags {flags:#x}");
            assert_eq!(back.to_bytes().unwrap(), b);
            assert_eq!(back.seen_outside(), flags & 1 != 0);
            // every truncation fails, never panics
            for n in 0..b.len() {
                assert!(
                    EnvCell::from_bytes(&b[..n]).is_err(),
                    "flags {flags:#x} cut {n}"
                );
            }
        }
    }

    #[test]
    fn flags_disagreeing_with_the_lists_are_refused_on_write() {
        let mut c = cell(EnvCell::HAS_STATIC_OBJS);
        c.flags = 0;
        assert!(c.to_bytes().is_err());
        let mut c = cell(0);
        c.restriction_obj = Some(1);
        assert!(c.to_bytes().is_err());
    }

    #[test]
    fn a_huge_static_object_count_fails_without_allocating() {
        let mut b = cell(EnvCell::HAS_STATIC_OBJS).to_bytes().unwrap();
        let at = b.len() - 36;
        b[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = EnvCell::from_bytes(&b).unwrap_err();
        assert!(e.to_string().contains("EnvCell"), "{e}");
    }
}
