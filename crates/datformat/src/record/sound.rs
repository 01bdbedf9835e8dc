//! The `Sound` enum (DRW's `Sound`, u32 on disk; spec §4.6): the key of a SoundTable entry and
//! the `s_type` of an ambient sound description.

use serde::Serialize;

use super::codec::raw_enum_codec;

/// Declares the enum, its values and DRW names.
macro_rules! sounds {
    ($($variant:ident = $value:literal => $name:literal,)*) => {
        /// A sound slot (u32 on disk). Values 0x00..=0xCC are named after DRW; anything else is
        /// kept as [`Sound::Unknown`] so it round-trips.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Sound {
            $(
                #[doc = concat!("`", $name, "` (", stringify!($value), ").")]
                $variant,
            )*
            /// A value outside the known list (construct it with [`Sound::from_u32`]; an
            /// `Unknown` holding a known value reads back as the named variant).
            Unknown(u32),
        }

        impl Sound {
            /// Every known sound, in value order.
            pub const ALL: &'static [Sound] = &[$(Sound::$variant,)*];

            /// The sound for a raw value.
            #[must_use]
            pub fn from_u32(value: u32) -> Self {
                match value {
                    $($value => Sound::$variant,)*
                    other => Sound::Unknown(other),
                }
            }

            /// The raw value.
            #[must_use]
            pub fn to_u32(self) -> u32 {
                match self {
                    $(Sound::$variant => $value,)*
                    Sound::Unknown(other) => other,
                }
            }

            /// DRW's name (e.g. `"UI_EnterPortal"`), or `None` for an unknown value.
            #[must_use]
            pub fn name(self) -> Option<&'static str> {
                match self {
                    $(Sound::$variant => Some($name),)*
                    Sound::Unknown(_) => None,
                }
            }
        }
    };
}

sounds! {
    Invalid = 0x00 => "Invalid",
    Speak1 = 0x01 => "Speak1",
    Random = 0x02 => "Random",
    Attack1 = 0x03 => "Attack1",
    Attack2 = 0x04 => "Attack2",
    Attack3 = 0x05 => "Attack3",
    SpecialAttack1 = 0x06 => "SpecialAttack1",
    SpecialAttack2 = 0x07 => "SpecialAttack2",
    SpecialAttack3 = 0x08 => "SpecialAttack3",
    Damage1 = 0x09 => "Damage1",
    Damage2 = 0x0A => "Damage2",
    Damage3 = 0x0B => "Damage3",
    Wound1 = 0x0C => "Wound1",
    Wound2 = 0x0D => "Wound2",
    Wound3 = 0x0E => "Wound3",
    Death1 = 0x0F => "Death1",
    Death2 = 0x10 => "Death2",
    Death3 = 0x11 => "Death3",
    Grunt1 = 0x12 => "Grunt1",
    Grunt2 = 0x13 => "Grunt2",
    Grunt3 = 0x14 => "Grunt3",
    Oh1 = 0x15 => "Oh1",
    Oh2 = 0x16 => "Oh2",
    Oh3 = 0x17 => "Oh3",
    Heave1 = 0x18 => "Heave1",
    Heave2 = 0x19 => "Heave2",
    Heave3 = 0x1A => "Heave3",
    Knockdown1 = 0x1B => "Knockdown1",
    Knockdown2 = 0x1C => "Knockdown2",
    Knockdown3 = 0x1D => "Knockdown3",
    Swoosh1 = 0x1E => "Swoosh1",
    Swoosh2 = 0x1F => "Swoosh2",
    Swoosh3 = 0x20 => "Swoosh3",
    Thump1 = 0x21 => "Thump1",
    Smash1 = 0x22 => "Smash1",
    Scratch1 = 0x23 => "Scratch1",
    Spear = 0x24 => "Spear",
    Sling = 0x25 => "Sling",
    Dagger = 0x26 => "Dagger",
    ArrowWhiz1 = 0x27 => "ArrowWhiz1",
    ArrowWhiz2 = 0x28 => "ArrowWhiz2",
    CrossbowPull = 0x29 => "CrossbowPull",
    CrossbowRelease = 0x2A => "CrossbowRelease",
    BowPull = 0x2B => "BowPull",
    BowRelease = 0x2C => "BowRelease",
    ThrownWeaponRelease1 = 0x2D => "ThrownWeaponRelease1",
    ArrowLand = 0x2E => "ArrowLand",
    Collision = 0x2F => "Collision",
    HitFlesh1 = 0x30 => "HitFlesh1",
    HitLeather1 = 0x31 => "HitLeather1",
    HitChain1 = 0x32 => "HitChain1",
    HitPlate1 = 0x33 => "HitPlate1",
    HitMissile1 = 0x34 => "HitMissile1",
    HitMissile2 = 0x35 => "HitMissile2",
    HitMissile3 = 0x36 => "HitMissile3",
    Footstep1 = 0x37 => "Footstep1",
    Footstep2 = 0x38 => "Footstep2",
    Walk1 = 0x39 => "Walk1",
    Dance1 = 0x3A => "Dance1",
    Dance2 = 0x3B => "Dance2",
    Dance3 = 0x3C => "Dance3",
    Hidden1 = 0x3D => "Hidden1",
    Hidden2 = 0x3E => "Hidden2",
    Hidden3 = 0x3F => "Hidden3",
    Eat1 = 0x40 => "Eat1",
    Drink1 = 0x41 => "Drink1",
    Open = 0x42 => "Open",
    Close = 0x43 => "Close",
    OpenSlam = 0x44 => "OpenSlam",
    CloseSlam = 0x45 => "CloseSlam",
    Ambient1 = 0x46 => "Ambient1",
    Ambient2 = 0x47 => "Ambient2",
    Ambient3 = 0x48 => "Ambient3",
    Ambient4 = 0x49 => "Ambient4",
    Ambient5 = 0x4A => "Ambient5",
    Ambient6 = 0x4B => "Ambient6",
    Ambient7 = 0x4C => "Ambient7",
    Ambient8 = 0x4D => "Ambient8",
    Waterfall = 0x4E => "Waterfall",
    LogOut = 0x4F => "LogOut",
    LogIn = 0x50 => "LogIn",
    LifestoneOn = 0x51 => "LifestoneOn",
    AttribUp = 0x52 => "AttribUp",
    AttribDown = 0x53 => "AttribDown",
    SkillUp = 0x54 => "SkillUp",
    SkillDown = 0x55 => "SkillDown",
    HealthUp = 0x56 => "HealthUp",
    HealthDown = 0x57 => "HealthDown",
    ShieldUp = 0x58 => "ShieldUp",
    ShieldDown = 0x59 => "ShieldDown",
    EnchantUp = 0x5A => "EnchantUp",
    EnchantDown = 0x5B => "EnchantDown",
    VisionUp = 0x5C => "VisionUp",
    VisionDown = 0x5D => "VisionDown",
    Fizzle = 0x5E => "Fizzle",
    Launch = 0x5F => "Launch",
    Explode = 0x60 => "Explode",
    TransUp = 0x61 => "TransUp",
    TransDown = 0x62 => "TransDown",
    BreatheFlaem = 0x63 => "BreatheFlaem",
    BreatheAcid = 0x64 => "BreatheAcid",
    BreatheFrost = 0x65 => "BreatheFrost",
    BreatheLightning = 0x66 => "BreatheLightning",
    Create = 0x67 => "Create",
    Destroy = 0x68 => "Destroy",
    Lockpicking = 0x69 => "Lockpicking",
    UiEnterPortal = 0x6A => "UI_EnterPortal",
    UiExitPortal = 0x6B => "UI_ExitPortal",
    UiGeneralQuery = 0x6C => "UI_GeneralQuery",
    UiGeneralError = 0x6D => "UI_GeneralError",
    UiTransientMessage = 0x6E => "UI_TransientMessage",
    UiIconPickUp = 0x6F => "UI_IconPickUp",
    UiIconSuccessfulDrop = 0x70 => "UI_IconSuccessfulDrop",
    UiIconInvalidDrop = 0x71 => "UI_IconInvalid_Drop",
    UiButtonPress = 0x72 => "UI_ButtonPress",
    UiGrabSlider = 0x73 => "UI_GrabSlider",
    UiReleaseSlider = 0x74 => "UI_ReleaseSlider",
    UiNewTargetSelected = 0x75 => "UI_NewTargetSelected",
    UiRoar = 0x76 => "UI_Roar",
    UiBell = 0x77 => "UI_Bell",
    UiChant1 = 0x78 => "UI_Chant1",
    UiChant2 = 0x79 => "UI_Chant2",
    UiDarkWhispers1 = 0x7A => "UI_DarkWhispers1",
    UiDarkWhispers2 = 0x7B => "UI_DarkWhispers2",
    UiDarkLaugh = 0x7C => "UI_DarkLaugh",
    UiDarkWind = 0x7D => "UI_DarkWind",
    UiDarkSpeech = 0x7E => "UI_DarkSpeech",
    UiDrums = 0x7F => "UI_Drums",
    UiGhostSpeak = 0x80 => "UI_GhostSpeak",
    UiBreathing = 0x81 => "UI_Breathing",
    UiHowl = 0x82 => "UI_Howl",
    UiLostSouls = 0x83 => "UI_LostSouls",
    UiSqueal = 0x84 => "UI_Squeal",
    UiThunder1 = 0x85 => "UI_Thunder1",
    UiThunder2 = 0x86 => "UI_Thunder2",
    UiThunder3 = 0x87 => "UI_Thunder3",
    UiThunder4 = 0x88 => "UI_Thunder4",
    UiThunder5 = 0x89 => "UI_Thunder5",
    UiThunder6 = 0x8A => "UI_Thunder6",
    RaiseTrait = 0x8B => "RaiseTrait",
    WieldObject = 0x8C => "WieldObject",
    UnwieldObject = 0x8D => "UnwieldObject",
    ReceiveItem = 0x8E => "ReceiveItem",
    PickUpItem = 0x8F => "PickUpItem",
    DropItem = 0x90 => "DropItem",
    ResistSpell = 0x91 => "ResistSpell",
    PicklockFail = 0x92 => "PicklockFail",
    LockSuccess = 0x93 => "LockSuccess",
    OpenFailDueToLock = 0x94 => "OpenFailDueToLock",
    TriggerActivated = 0x95 => "TriggerActivated",
    SpellExpire = 0x96 => "SpellExpire",
    ItemManaDepleted = 0x97 => "ItemManaDepleted",
    TriggerActivated1 = 0x98 => "TriggerActivated1",
    TriggerActivated2 = 0x99 => "TriggerActivated2",
    TriggerActivated3 = 0x9A => "TriggerActivated3",
    TriggerActivated4 = 0x9B => "TriggerActivated4",
    TriggerActivated5 = 0x9C => "TriggerActivated5",
    TriggerActivated6 = 0x9D => "TriggerActivated6",
    TriggerActivated7 = 0x9E => "TriggerActivated7",
    TriggerActivated8 = 0x9F => "TriggerActivated8",
    TriggerActivated9 = 0xA0 => "TriggerActivated9",
    TriggerActivated10 = 0xA1 => "TriggerActivated10",
    TriggerActivated11 = 0xA2 => "TriggerActivated11",
    TriggerActivated12 = 0xA3 => "TriggerActivated12",
    TriggerActivated13 = 0xA4 => "TriggerActivated13",
    TriggerActivated14 = 0xA5 => "TriggerActivated14",
    TriggerActivated15 = 0xA6 => "TriggerActivated15",
    TriggerActivated16 = 0xA7 => "TriggerActivated16",
    TriggerActivated17 = 0xA8 => "TriggerActivated17",
    TriggerActivated18 = 0xA9 => "TriggerActivated18",
    TriggerActivated19 = 0xAA => "TriggerActivated19",
    TriggerActivated20 = 0xAB => "TriggerActivated20",
    TriggerActivated21 = 0xAC => "TriggerActivated21",
    TriggerActivated22 = 0xAD => "TriggerActivated22",
    TriggerActivated23 = 0xAE => "TriggerActivated23",
    TriggerActivated24 = 0xAF => "TriggerActivated24",
    TriggerActivated25 = 0xB0 => "TriggerActivated25",
    TriggerActivated26 = 0xB1 => "TriggerActivated26",
    TriggerActivated27 = 0xB2 => "TriggerActivated27",
    TriggerActivated28 = 0xB3 => "TriggerActivated28",
    TriggerActivated29 = 0xB4 => "TriggerActivated29",
    TriggerActivated30 = 0xB5 => "TriggerActivated30",
    TriggerActivated31 = 0xB6 => "TriggerActivated31",
    TriggerActivated32 = 0xB7 => "TriggerActivated32",
    TriggerActivated33 = 0xB8 => "TriggerActivated33",
    TriggerActivated34 = 0xB9 => "TriggerActivated34",
    TriggerActivated35 = 0xBA => "TriggerActivated35",
    TriggerActivated36 = 0xBB => "TriggerActivated36",
    TriggerActivated37 = 0xBC => "TriggerActivated37",
    TriggerActivated38 = 0xBD => "TriggerActivated38",
    TriggerActivated39 = 0xBE => "TriggerActivated39",
    TriggerActivated40 = 0xBF => "TriggerActivated40",
    TriggerActivated41 = 0xC0 => "TriggerActivated41",
    TriggerActivated42 = 0xC1 => "TriggerActivated42",
    TriggerActivated43 = 0xC2 => "TriggerActivated43",
    TriggerActivated44 = 0xC3 => "TriggerActivated44",
    TriggerActivated45 = 0xC4 => "TriggerActivated45",
    TriggerActivated46 = 0xC5 => "TriggerActivated46",
    TriggerActivated47 = 0xC6 => "TriggerActivated47",
    TriggerActivated48 = 0xC7 => "TriggerActivated48",
    TriggerActivated49 = 0xC8 => "TriggerActivated49",
    TriggerActivated50 = 0xC9 => "TriggerActivated50",
    HealthDownVoid = 0xCA => "HealthDownVoid",
    RegenDownVoid = 0xCB => "RegenDownVoid",
    SkillDownVoid = 0xCC => "SkillDownVoid",
}

impl Sound {
    /// Whether this is one of `Ambient1..=Ambient8` (0x46..=0x4D), the slots ambient sound
    /// descriptions normally use.
    #[must_use]
    pub fn is_ambient(self) -> bool {
        (0x46..=0x4D).contains(&self.to_u32())
    }
}

impl From<u32> for Sound {
    fn from(value: u32) -> Self {
        Self::from_u32(value)
    }
}

impl From<Sound> for u32 {
    fn from(value: Sound) -> Self {
        value.to_u32()
    }
}

/// Serialized as DRW's name for a known value, as the number otherwise.
impl Serialize for Sound {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.name() {
            Some(name) => serializer.serialize_str(name),
            None => serializer.serialize_u32(self.to_u32()),
        }
    }
}

raw_enum_codec!(Sound, u32, from_u32, to_u32);
