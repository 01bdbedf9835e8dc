//! Unit tests of `sound_manager`, each named after the retail function it checks.
use glam::Vec3;
use resound_datformat::record::Sound;

use super::*;
use crate::testkit;

/// `SoundManager::GetAttenuation` @ 0x00550020: the spec's worked values (volume 1, slider 1).
#[test]
fn attenuation_gives_the_specs_worked_values() {
    let s = SoundSettings::default();
    let db = |d: f32| super::get_attenuation(d, 1.0, true, &s).map(|(_, db)| db);
    let expected = [0, 0, 0, 0, 0, -3, -5, -8, -10, -12];
    for (i, e) in expected.iter().enumerate() {
        assert_eq!(db((i + 1) as f32), Some(*e), "{} m", i + 1);
    }
    assert_eq!(db(20.0), Some(-24));
    assert_eq!(db(40.0), Some(-36));
    assert_eq!(db(80.0), Some(-48));
    assert_eq!(db(89.0), Some(-50));
    assert_eq!(db(94.18), Some(-50));
    assert_eq!(db(94.19), None); // dropped, never played at the floor
    // ceil rounds toward louder: −3.167 dB at 6 m plays as −3.
    let (g, _) = super::get_attenuation(6.0, 1.0, true, &s).unwrap();
    assert!((g.log2() * DB_PER_DOUBLING + 3.167).abs() < 1e-3);
    // g <= 0 and NaN drop, near or far; an infinite distance attenuates to 0 and drops.
    assert_eq!(super::get_attenuation(10.0, 0.0, true, &s), None);
    assert_eq!(super::get_attenuation(3.0, 0.0, true, &s), None);
    assert_eq!(super::get_attenuation(f32::INFINITY, 1.0, true, &s), None);
    assert_eq!(super::get_attenuation(10.0, f32::NAN, true, &s), None);
    // the effect slider is used for non-ambient sounds.
    let quiet = SoundSettings {
        effect_sound_volume: 0.5,
        ..s
    };
    assert_eq!(
        super::get_attenuation(1.0, 1.0, false, &quiet).map(|x| x.1),
        Some(-6)
    );
    assert_eq!(
        super::get_attenuation(1.0, 1.0, true, &quiet).map(|x| x.1),
        Some(0)
    );
}

/// `SoundManager::PlayAmbientSound` @ 0x00550820 → `GetAttenuation`: the ambient slider is applied
/// twice (`v = A·vol`, then `g·A`), so it acts as a square.
#[test]
fn ambient_volume_applied_twice() {
    let s = SoundSettings {
        ambient_sound_volume: 0.5,
        ..SoundSettings::default()
    };
    let v = s.ambient_sound_volume * 1.0; // PlayAmbientSound
    let (g, db) = super::get_attenuation(0.0, v, true, &s).unwrap();
    assert_eq!(g, 0.25);
    assert_eq!(db, -12);
    // inaudible beyond 94.18·A·√v m
    let v = s.ambient_sound_volume;
    assert!(super::get_attenuation(47.0, v, true, &s).is_some());
    assert!(super::get_attenuation(47.2, v, true, &s).is_none());
}

/// `SoundManager::PlaySoundInternal` @ 0x00550170 pan: a sound due east of a north-facing
/// listener pans +14 (never 15); north and south are centred; west is −14; mono and a truncated
/// distance under 5 m are centred.
#[test]
fn play_sound_internal_pan() {
    let s = SoundSettings::default();
    let listener = Listener {
        position: Position::new(0xA9B4_0001, Vec3::new(50.0, 50.0, 0.0)),
        heading_deg: 0.0,
    };
    let at = |x: f32, y: f32| Position::new(0xA9B4_0001, Vec3::new(x, y, 0.0));
    assert_eq!(pan(&at(80.0, 50.0), &listener, 30.0, &s), 14);
    assert_eq!(pan(&at(20.0, 50.0), &listener, 30.0, &s), -14);
    assert_eq!(pan(&at(50.0, 80.0), &listener, 30.0, &s), 0);
    assert_eq!(pan(&at(50.0, 20.0), &listener, 30.0, &s), 0);
    // f32 maths would give 15: the f32 constant widened to double falls short of π/2.
    let f32_pan = ((-90.0_f32 * DEG_TO_RAD_F32).sin() * -15.0).trunc();
    assert_eq!(f32_pan, 15.0);
    // trunc(dist) < 5: 5.9 m pans, 4.999 m does not.
    assert_eq!(pan(&at(55.9, 50.0), &listener, 5.9, &s), 14);
    assert_eq!(pan(&at(54.999, 50.0), &listener, 4.999, &s), 0);
    let mono = SoundSettings { mono: true, ..s };
    assert_eq!(pan(&at(80.0, 50.0), &listener, 30.0, &mono), 0);
    // facing east, a sound to the north is on the left.
    let east = Listener {
        heading_deg: 90.0,
        ..listener
    };
    assert_eq!(pan(&at(50.0, 80.0), &east, 30.0, &s), -14);
    // straight overhead: bearing 0, centred for a north-facing listener.
    let above = Position::new(0xA9B4_0001, Vec3::new(50.0, 50.0, 30.0));
    assert_eq!(pan(&above, &listener, 30.0, &s), 0);
}

/// `SoundManager::GetSound` @ 0x00550680: `trunc((N − 1)·u)` — the last row of a multi-row list is
/// unreachable; a single row is always chosen; an absent type or empty list draws nothing.
#[test]
fn get_sound_last_row_unreachable() {
    let t = testkit::table(
        0x2000_0001,
        &[
            (
                0x46,
                &[(0x0A00_0001, 1.0), (0x0A00_0002, 1.0), (0x0A00_0003, 1.0)],
            ),
            (0x47, &[(0x0A00_0004, 1.0)]),
            (0x48, &[]),
        ],
    );
    let mut rng = Ran2::new(99);
    let mut seen = [0_u32; 3];
    for _ in 0..20_000 {
        let c = super::get_sound(&t, Sound::from_u32(0x46), &mut rng).unwrap();
        seen[c.row] += 1;
    }
    assert!(seen[0] > 0 && seen[1] > 0);
    assert_eq!(seen[2], 0, "the last row is never picked");
    // even the largest deviate cannot reach the last row
    assert!((2.0 * f64::from(crate::rng::RNMX as f32)).trunc() < 2.0);
    let one = super::get_sound(&t, Sound::from_u32(0x47), &mut rng).unwrap();
    assert_eq!((one.row, one.entry.id), (0, 0x0A00_0004));
    let probe = rng.clone();
    assert!(super::get_sound(&t, Sound::from_u32(0x48), &mut rng).is_none());
    assert!(super::get_sound(&t, Sound::from_u32(0x49), &mut rng).is_none());
    assert_eq!(rng, probe, "no draw without rows");
}

/// The CRT probability gate of `PlayAmbientSound` @ 0x00550820: `rand()·(1/32767)f < p`; 1.0 always passes,
/// 0.0 never does, and one CRT draw is used each time.
#[test]
fn probability_gate() {
    assert!(f64::from(INV_RAND_MAX_F32) < 1.0 / 32767.0);
    assert!(32767.0 * f64::from(INV_RAND_MAX_F32) < 1.0);
    let mut crt = CrtRand::new(0);
    for _ in 0..70_000 {
        assert!(super::probability_gate(1.0, &mut crt));
    }
    let mut crt = CrtRand::new(0);
    assert!(!super::probability_gate(0.0, &mut crt));
    // srand(0): first rand() is 38 → 38/32767 ≈ 0.00116
    let mut crt = CrtRand::new(0);
    assert!(!super::probability_gate(0.001, &mut crt));
    let mut crt = CrtRand::new(0);
    assert!(super::probability_gate(0.0012, &mut crt));
    // strict `<`: srand(302) gives rand() = 1024, and 1024·(1/32767)f is exactly a float, so a
    // row probability equal to it fails the gate
    let mut crt = CrtRand::new(302);
    assert_eq!(crt.clone().rand(), 1024);
    let p = (1024.0 * f64::from(INV_RAND_MAX_F32)) as f32;
    assert_eq!(f64::from(p), 1024.0 * f64::from(INV_RAND_MAX_F32));
    assert!(!super::probability_gate(p, &mut crt));
    let mut crt = CrtRand::new(302);
    assert!(super::probability_gate(p.next_up(), &mut crt));
    let mut a = CrtRand::new(5);
    super::probability_gate(0.5, &mut a);
    let mut b = CrtRand::new(5);
    b.rand();
    assert_eq!(a, b);
}

/// `GetAttenuation` @ 0x00550020's `ceil`: the inline form equals `f64::ceil` bit for bit (the
/// sign of zero included) at the edges and over 200 000 random bit patterns and values.
#[test]
fn inline_ceil_is_f64_ceil() {
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let edges = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        -1.5,
        -50.0,
        -50.000_000_000_1,
        -49.999_999_999_9,
        4_503_599_627_370_495.5,
        -4_503_599_627_370_495.5,
        4_503_599_627_370_496.0,
        9_007_199_254_740_993.0,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let random = (0..100_000).flat_map(|_| {
        let bits = next();
        let small = (bits >> 11) as f64 / (1_u64 << 53) as f64 * 120.0 - 100.0;
        [f64::from_bits(bits), small]
    });
    for x in edges.into_iter().chain(random) {
        let (got, want) = (ceil(x), x.ceil());
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "ceil({x:e}) = {got:e}, want {want:e}"
        );
    }
}

/// `GetSound` @ 0x00550680's row index: the cast through `i64` equals `trunc(x) as usize` for
/// every product `(N − 1)·u` (and for negatives and NaN).
#[test]
fn row_index_is_trunc_as_usize() {
    let mut r = Ran2::new(99);
    for n in [1_usize, 2, 3, 7, 64, 1000, 1 << 40] {
        for _ in 0..20_000 {
            let u = r.roll_dice(0.0, 1.0);
            let x = (n - 1) as f64 * f64::from(u);
            assert_eq!(row_index(x), x.trunc() as usize);
        }
    }
    for x in [
        0.0,
        -0.0,
        -0.5,
        -7.0,
        0.999_999_9,
        1.0,
        2.5,
        f64::NAN,
        -1e300,
    ] {
        assert_eq!(row_index(x), x.trunc() as usize, "{x}");
    }
}

#[test]
fn sound_buf_play_clamps_level_and_pan() {
    use super::sound_buf_play;
    assert_eq!(sound_buf_play(-12, 20), (-12, 15));
    assert_eq!(sound_buf_play(-80, 0), (-50, 0));
    assert_eq!(sound_buf_play(3, -16), (0, -15));
    assert_eq!(sound_buf_play(-12, 6), (-12, 6));
}
