//! The Sound Physics Remastered model's configuration reaches the rendered output (only with
//! the `spr-gpl` feature).

/// The SPR configuration reaches the bus the engine renders with: halving `reverb_gain`
/// takes 6 dB off the room's tail (the dry click and the echo taps stay).
#[cfg(feature = "spr-gpl")]
#[test]
fn spr_reverb_gain_sets_the_rendered_tail() {
    use resound_engine::Model;
    use resound_engine::advanced::spr::{SprConfig, SprModel, spr_material_table};
    use resound_studio::scene_render::{self as scene, SceneOptions};
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
            render(resound_engine::Mode::Full),
            render(resound_engine::Mode::Reflect),
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
