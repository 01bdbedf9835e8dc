//! The model's reverb bus and echo planes.

use resound_acoustics::Plane;
use resound_dsp::ReverbBusSettings;

use super::Model;

#[test]
fn own_model_uses_the_spec_bus() {
    assert_eq!(Model::default().reverb_bus(), ReverbBusSettings::default());
}

#[test]
fn extra_planes_reach_the_model() {
    let plane = Plane {
        axis: 2,
        coord: 20,
        normal_sign: 1,
    };
    let mut m = Model::default();
    m.set_extra_planes(vec![plane]);
    match &m {
        Model::Own(own) => assert_eq!(own.extra_planes, vec![plane]),
        #[allow(unreachable_patterns)]
        _ => unreachable!(),
    }
}

#[cfg(feature = "spr-gpl")]
#[test]
fn spr_bus_follows_its_configuration() {
    use resound_spr::{SprConfig, SprModel, spr_material_table};
    let default = Model::Spr(SprModel::default()).reverb_bus();
    // SPR's defaults are the spec's table (acoustics.md §2.4 adopts it).
    for (a, b) in default.slots.iter().zip(ReverbBusSettings::default().slots) {
        assert!(
            (a.gain - b.gain).abs() < 1e-6 && a.decay_s == b.decay_s,
            "{a:?} vs {b:?}"
        );
        assert_eq!((a.hf_ratio, a.pre_delay_s), (b.hf_ratio, b.pre_delay_s));
    }
    let mut config = SprConfig::default();
    config.reverb_gain = 0.5;
    config.reverb_brightness = 0.5;
    let quiet = Model::Spr(SprModel::new(config, spr_material_table())).reverb_bus();
    for (q, d) in quiet.slots.iter().zip(default.slots) {
        assert!((q.gain - 0.5 * d.gain).abs() < 1e-6, "{q:?}");
        assert!((q.hf_ratio - 0.5 * d.hf_ratio).abs() < 1e-6, "{q:?}");
    }
}

/// The SPR configuration reaches the bus the engine renders with: halving `reverb_gain`
/// takes 6 dB off the room's tail (the dry click and the echo taps stay).
#[cfg(feature = "spr-gpl")]
#[test]
fn spr_reverb_gain_sets_the_rendered_tail() {
    use crate::scene::{self, SceneOptions};
    use resound_spr::{SprConfig, SprModel, spr_material_table};
    let tail = |reverb_gain: f32| {
        let mut config = SprConfig::default();
        config.reverb_gain = reverb_gain;
        let model = Model::Spr(SprModel::new(config, spr_material_table()));
        let parsed = scene::parse(scene::builtin("R").unwrap(), &model).unwrap();
        let render = |mode| {
            let options = SceneOptions {
                mode,
                model: model.clone(),
                seconds: 1.0,
                ..SceneOptions::default()
            };
            scene::render(&parsed, &options, &mut |_, _| {})
                .unwrap()
                .samples
        };
        let (full, reflect) = (
            render(resound_acoustics::Mode::Full),
            render(resound_acoustics::Mode::Reflect),
        );
        full.iter()
            .zip(&reflect)
            .map(|(a, b)| f64::from(a - b).powi(2))
            .sum::<f64>()
    };
    let (one, half) = (tail(1.0), tail(0.5));
    assert!(one > 0.0);
    let db = 10.0 * (half / one).log10();
    assert!((db + 6.02).abs() < 0.1, "{db} dB");
}
