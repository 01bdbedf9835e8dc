// SPDX-License-Identifier: GPL-3.0-only
//! Tests of the SPR occlusion / reflectivity tables.

use crate::*;

#[test]
fn table_has_101_sound_types_with_spr_override_counts() {
    assert_eq!(SoundType::ALL.len(), 101);
    let mut names: Vec<_> = SoundType::ALL.iter().map(|t| t.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 101);
    let occ = SoundType::ALL
        .iter()
        .filter(|t| t.occlusion() != DEFAULT_OCCLUSION)
        .count();
    let refl = SoundType::ALL
        .iter()
        .filter(|t| t.reflectivity() != DEFAULT_REFLECTIVITY)
        .count();
    // Spec §3 item 14 (errata): 28 occlusion overrides (+3 block ids) and 30 reflectivity
    // overrides, as the §2 list and SPR's `createDefaultMap` have them.
    assert_eq!((occ, refl), (28, 30));
    assert_eq!(
        SoundType::from_name("deepslate_tiles"),
        Some(SoundType::DEEPSLATE_TILES)
    );
    assert_eq!(SoundType::from_name("EMPTY"), None);
    assert_eq!(SoundType::ANVIL.reflectivity(), 0.5);
    assert_eq!(SoundType::NETHERITE_BLOCK.reflectivity(), 1.5);
    assert_eq!(SprBlock::of_id(BlockId::Water).occlusion, 0.25);
    assert!(!SprBlock::of_id(BlockId::Water).sturdy);
    assert_eq!(SprBlock::of_id(BlockId::Jukebox).occlusion, 0.0);
}

#[test]
fn every_override_of_the_default_tables() {
    use SoundType as T;
    // §2, occlusion overrides.
    let occ: &[(f32, &[T])] = &[
        (1.5, &[T::WOOL]),
        (0.75, &[T::MOSS]),
        (0.5, &[T::HONEY_BLOCK]),
        (
            0.1,
            &[
                T::GLASS,
                T::SNOW,
                T::POWDER_SNOW,
                T::BAMBOO,
                T::BAMBOO_SAPLING,
                T::WET_GRASS,
                T::MOSS_CARPET,
            ],
        ),
        (
            0.0,
            &[
                T::WEEPING_VINES,
                T::TWISTING_VINES,
                T::VINE,
                T::SWEET_BERRY_BUSH,
                T::SPORE_BLOSSOM,
                T::SMALL_DRIPLEAF,
                T::ROOTS,
                T::POINTED_DRIPSTONE,
                T::SCAFFOLDING,
                T::GLOW_LICHEN,
                T::CROP,
                T::FUNGUS,
                T::LILY_PAD,
                T::LARGE_AMETHYST_BUD,
                T::MEDIUM_AMETHYST_BUD,
                T::SMALL_AMETHYST_BUD,
                T::LADDER,
                T::CHAIN,
            ],
        ),
    ];
    // §2, reflectivity overrides.
    let refl: &[(f32, &[T])] = &[
        (
            1.5,
            &[
                T::STONE,
                T::NETHERITE_BLOCK,
                T::TUFF,
                T::AMETHYST,
                T::BASALT,
                T::CALCITE,
                T::BONE_BLOCK,
                T::DEEPSLATE,
                T::DEEPSLATE_BRICKS,
                T::DEEPSLATE_TILES,
                T::POLISHED_DEEPSLATE,
                T::NETHER_BRICKS,
            ],
        ),
        (1.25, &[T::COPPER, T::METAL]),
        (1.1, &[T::NETHERRACK, T::NETHER_GOLD_ORE, T::NETHER_ORE]),
        (0.75, &[T::GLASS]),
        (0.4, &[T::WOOD, T::STEM]),
        (0.3, &[T::GRAVEL, T::GRASS]),
        (0.2, &[T::SAND, T::SOUL_SAND, T::SOUL_SOIL, T::CORAL_BLOCK]),
        (0.15, &[T::SNOW]),
        (0.1, &[T::WOOL, T::HONEY_BLOCK, T::MOSS]),
    ];
    for t in T::ALL {
        let o = occ.iter().find(|(_, l)| l.contains(t)).map_or(1.0, |e| e.0);
        let r = refl
            .iter()
            .find(|(_, l)| l.contains(t))
            .map_or(0.5, |e| e.0);
        assert_eq!((t.occlusion(), t.reflectivity()), (o, r), "{}", t.name());
    }
    // By block id; water and lava have no sound type in the table (default reflectivity).
    assert_eq!(BlockId::Water.occlusion(), 0.25);
    assert_eq!(BlockId::Lava.occlusion(), 0.75);
    assert_eq!(SprBlock::of_id(BlockId::Jukebox).occlusion, 0.0);
    assert_eq!(SprBlock::of_id(BlockId::Jukebox).reflectivity, 0.4);
    assert_eq!(SprBlock::of_id(BlockId::Lava).reflectivity, 0.5);
}
