//! `LandBlockInfo` — cell dat, ids `0xXXYYFFFE` (spec §4.5): the landblock's static objects,
//! buildings with their portals, and the optional restriction table.

use binrw::io::{Read, Seek, Write};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::Serialize;

use super::codec::{
    Fields, Fixed, FromFields, MinSize, count_u16, fixed_size_read, read_fixed, read_fixed_u16,
    read_items, read_list_u32, read_pad, write_items, write_list_u16, write_list_u32, write_pad,
};
use super::primitive::Frame;

/// A LandBlockInfo DBObj.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LandBlockInfo {
    /// File id (`0xXXYYFFFE`).
    pub id: u32,
    /// `NumCells`: EnvCells `0xXXYY0100…`.
    pub num_cells: u32,
    /// `Objects`: static objects.
    pub objects: Vec<Stab>,
    /// `PackMask` (bool16; DRW: non-zero ⇒ the restriction table follows).
    pub pack_mask: u16,
    /// `Buildings`.
    pub buildings: Vec<BuildingInfo>,
    /// `RestrictionTable`, present iff `pack_mask != 0`.
    pub restriction_table: Option<RestrictionTable>,
}

/// `Stab` (32 bytes): a placed GfxObj/Setup.
#[derive(BinWrite)]
#[bw(little)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Stab {
    /// `Id` (GfxObj 0x01… or Setup 0x02…).
    pub id: u32,
    /// `Frame`.
    pub frame: Frame,
}

fixed_size_read!(Stab, 32, { id, frame });

/// `BuildingInfo`.
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BuildingInfo {
    /// `ModelId`.
    pub model_id: u32,
    /// `Frame`.
    pub frame: Frame,
    /// `NumLeaves`.
    pub num_leaves: u32,
    /// `Portals`.
    #[br(parse_with = read_list_u32)]
    #[bw(write_with = write_list_u32)]
    pub portals: Vec<BuildingPortal>,
}

impl MinSize for BuildingInfo {
    const MIN_SIZE: u64 = 40;
}

/// `BuildingPortal`: u16 fields, a u16-counted stab list, then align4 (pad bytes kept).
#[binrw]
#[brw(little)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BuildingPortal {
    /// `Flags` (`PortalFlags`: 0x1 ExactMatch, 0x2 PortalSide).
    pub flags: u16,
    /// `OtherCellId`.
    pub other_cell_id: u16,
    /// `OtherPortalId`.
    pub other_portal_id: u16,
    /// `StabList`.
    #[br(parse_with = read_fixed_u16)]
    #[bw(write_with = write_list_u16)]
    pub stab_list: Vec<u16>,
    /// The align4 pad bytes (only the needed 0–3 are on disk).
    #[br(parse_with = read_pad_with)]
    #[bw(write_with = write_pad_with)]
    #[serde(skip)]
    pub pad: [u8; 3],
}

impl BuildingPortal {
    /// `PortalFlags::ExactMatch`.
    pub const EXACT_MATCH: u16 = 0x1;
    /// `PortalFlags::PortalSide`.
    pub const PORTAL_SIDE: u16 = 0x2;
}

impl MinSize for BuildingPortal {
    const MIN_SIZE: u64 = 8;
}

/// The restriction table (`PackableHashTable<u32, u32>`): u16 count, u16 bucket size, pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RestrictionTable {
    /// Bucket size (DRW writes 8).
    pub bucket_size: u16,
    /// Entries in file order.
    pub entries: Vec<(u32, u32)>,
}

impl FromFields for (u32, u32) {
    #[inline]
    fn from_fields(fields: &mut Fields<'_>) -> Self {
        (fields.scalar(), fields.scalar())
    }
}

impl Fixed for (u32, u32) {
    const SIZE: usize = 8;
}

/// `parse_with` adapter for [`read_pad`].
fn read_pad_with<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<[u8; 3]> {
    read_pad(reader)
}

/// `write_with` adapter for [`write_pad`].
fn write_pad_with<W: Write + Seek>(
    pad: &[u8; 3],
    writer: &mut W,
    _: Endian,
    (): (),
) -> BinResult<()> {
    write_pad(writer, pad)
}

impl BinRead for LandBlockInfo {
    type Args<'a> = ();

    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<Self> {
        let id = u32::read_options(reader, endian, ())?;
        let num_cells = u32::read_options(reader, endian, ())?;
        let objects = read_list_u32(reader, endian, ())?;
        let num_buildings = u16::read_options(reader, endian, ())?;
        let pack_mask = u16::read_options(reader, endian, ())?;
        let buildings = read_items(reader, endian, u64::from(num_buildings))?;
        let restriction_table = if pack_mask != 0 {
            let count = u16::read_options(reader, endian, ())?;
            let bucket_size = u16::read_options(reader, endian, ())?;
            let entries = read_fixed(reader, endian, u64::from(count))?;
            Some(RestrictionTable {
                bucket_size,
                entries,
            })
        } else {
            None
        };
        Ok(Self {
            id,
            num_cells,
            objects,
            pack_mask,
            buildings,
            restriction_table,
        })
    }
}

impl BinWrite for LandBlockInfo {
    type Args<'a> = ();

    fn write_options<W: Write + Seek>(
        &self,
        writer: &mut W,
        endian: Endian,
        (): Self::Args<'_>,
    ) -> BinResult<()> {
        if self.restriction_table.is_some() != (self.pack_mask != 0) {
            return Err(binrw::Error::AssertFail {
                pos: writer.stream_position()?,
                message: "restriction_table disagrees with pack_mask".into(),
            });
        }
        self.id.write_options(writer, endian, ())?;
        self.num_cells.write_options(writer, endian, ())?;
        write_list_u32(&self.objects, writer, endian, ())?;
        count_u16(writer, self.buildings.len())?.write_options(writer, endian, ())?;
        self.pack_mask.write_options(writer, endian, ())?;
        write_items(&self.buildings, writer, endian)?;
        if let Some(table) = &self.restriction_table {
            count_u16(writer, table.entries.len())?.write_options(writer, endian, ())?;
            table.bucket_size.write_options(writer, endian, ())?;
            write_items(&table.entries, writer, endian)?;
        }
        Ok(())
    }
}
