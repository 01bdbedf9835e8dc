//! DBObj records: Region, SoundTable, Wave, LandBlock, LandBlockInfo.
