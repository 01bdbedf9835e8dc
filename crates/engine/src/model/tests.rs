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
