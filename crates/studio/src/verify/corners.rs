//! Sound round corners (issue 32, acoustics §4a), own model, `direct`, a 200 Hz sine:
//! - **AL**, an L-shaped stone corridor: the direct sound goes `around`; its path within 3 % of
//!   the geometric shortest path (round the inner edge), its direction down the listener's
//!   leg within 10°; the level ≥ 20 dB above today's through-stone result (the same scene with
//!   air paths off) and ≥ 3 dB below an open source at the path's length, on the low and the
//!   high band; the high band loses more than the low band.
//! - **AD**, two rooms and a door: open → `around` through the door; closed (its cells filled
//!   mid-render) → `through` at the next tick; reopened → `around` again; no click at either
//!   change (the click measure of the click rows).
//! - **AW**, a thin wooden wall with a far door: the wood's transmission is louder than the
//!   detour, so `through` wins (the documented rule: per band the louder).
//!
//! Air paths are on in the engine's presets; the "through stone" reference of AL is the same
//! scene with them off (`Budgets::with_air_cells(0)`).

use std::sync::Arc;

use anyhow::Context;
use resound_engine::advanced::acoustics::airpath::DirectKind;
use resound_engine::advanced::acoustics::scene::Scene;
use resound_engine::advanced::acoustics::{Cell, MaterialTable};
use resound_engine::glam::{DVec3, IVec3};
use resound_engine::{Budgets, Engine, Orientation, Source, VoiceAcoustics, VoiceHandle};

use super::check::{Check, Rule};
use super::click::click_step;
use super::plan;
use crate::scene_render as scene;

const RATE: u32 = 48_000;

/// Offline budgets (air paths on, as in the preset).
fn air() -> Budgets {
    Budgets::offline()
}

fn db(x: f64) -> f64 {
    20.0 * x.log10()
}

/// A built-in scene's engine with its sine source playing, offline, `direct`.
fn start(name: &str, budgets: Budgets) -> anyhow::Result<(Engine, VoiceHandle, Scene)> {
    let options = scene::SceneOptions::default();
    let text = scene::builtin(name).with_context(|| format!("no built-in scene {name}"))?;
    let s = scene::parse(text, &options.model).with_context(|| format!("scene {name}"))?;
    let materials = MaterialTable::standard();
    let world = s
        .build_world(&materials, 0)
        .with_context(|| format!("scene {name}"))?;
    let mut e = Engine::builder()
        .sample_rate(RATE)
        .mode(resound_engine::Mode::Direct)
        .budgets(budgets)
        .build()
        .context("building the engine")?;
    e.world().replace(world);
    e.set_listener(DVec3::from_array(s.listener), Orientation::default())
        .context("listener")?;
    let samples = super::engine::signal_samples(plan::Signal::Sine, RATE);
    let h = e
        .load_mono(Arc::from(samples), RATE)
        .context("loading the sine")?;
    let v = e
        .play(
            h,
            Source {
                position: DVec3::from_array(s.source),
                range: s.range as f32,
                looping: true,
                ..Source::default()
            },
        )
        .context("playing the source")?;
    Ok((e, v, s))
}

fn kind_of(a: &VoiceAcoustics) -> &'static str {
    a.direct.map_or("none", |d| d.kind.as_str())
}

fn equal_kind(scene: &str, what: &str, want: DirectKind, a: &VoiceAcoustics) -> Check {
    Check::equal(scene, what, want.as_str(), kind_of(a))
}

/// Low and high band levels the mixer plays (relative to the open line at the straight
/// distance).
fn bands(a: &VoiceAcoustics) -> (f64, f64) {
    let low = f64::from(a.applied.gain);
    (low, low * f64::from(a.applied.hf))
}

fn l_corridor() -> anyhow::Result<Vec<Check>> {
    let (mut e, v, s) = start("AL", air())?;
    let tf = usize::try_from(e.tick_frames()).unwrap_or(2400);
    e.render_frames(4 * tf)?;
    let a = e.voice_acoustics(v).context("the source's acoustics")?;
    let off = Budgets::offline().with_air_cells(0);
    let (mut t, tv, _) = start("AL", off)?;
    t.render_frames(4 * tf)?;
    let through = t.voice_acoustics(tv).context("the source's acoustics")?;
    let (source, listener) = (DVec3::from_array(s.source), DVec3::from_array(s.listener));
    let edge = DVec3::new(18.0, 1.5, 3.0);
    let geometric = listener.distance(edge) + edge.distance(source);
    let d = a.direct;
    let angle = d.map(|d| {
        d.direction
            .dot(DVec3::X)
            .clamp(-1.0, 1.0)
            .acos()
            .to_degrees()
    });
    let (low, high) = bands(&a);
    let (t_low, t_high) = bands(&through);
    let range = s.range;
    let dg = |x: f64| (1.0 - x / range).clamp(0.0, 1.0);
    let open_at_path = d.map(|d| db(dg(d.path_m) / dg(source.distance(listener))));
    let below = |b: f64| open_at_path.map(|o| o - db(b));
    let inf = f64::INFINITY;
    Ok(vec![
        equal_kind("AL", "direct kind", DirectKind::Around, &a),
        Check::number(
            "AL",
            "path_m (geometric shortest round the edge)",
            Rule::Rel {
                expected: geometric,
                frac: 0.03,
            },
            d.map(|d| d.path_m),
            2,
        ),
        Check::number(
            "AL",
            "direction vs the listener's leg (+x), °",
            Rule::Between { lo: 0.0, hi: 10.0 },
            angle,
            1,
        ),
        Check::number(
            "AL",
            "low band above through-stone, dB",
            Rule::Between { lo: 20.0, hi: inf },
            Some(db(low) - db(t_low)),
            1,
        ),
        Check::number(
            "AL",
            "high band above through-stone, dB",
            Rule::Between { lo: 20.0, hi: inf },
            Some(db(high) - db(t_high)),
            1,
        ),
        Check::number(
            "AL",
            "low band below open at path length, dB",
            Rule::Between { lo: 3.0, hi: inf },
            below(low),
            1,
        ),
        Check::number(
            "AL",
            "high band below open at path length, dB",
            Rule::Between { lo: 3.0, hi: inf },
            below(high),
            1,
        ),
        Check::number(
            "AL",
            "high band loss − low band loss, dB",
            Rule::Between { lo: 0.0, hi: inf },
            Some(db(low) - db(high)),
            1,
        ),
    ])
}

fn door() -> anyhow::Result<Vec<Check>> {
    let (mut e, v, _) = start("AD", air())?;
    let tf = usize::try_from(e.tick_frames()).unwrap_or(2400);
    let stone = Cell::solid(
        MaterialTable::standard()
            .by_name("stone")
            .context("the stone material")?,
    );
    let mut stereo = e.render_frames(8 * tf + tf / 2)?;
    let open = e.voice_acoustics(v).context("the source's acoustics")?;
    let mut rows = vec![equal_kind(
        "AD",
        "door open: direct kind",
        DirectKind::Around,
        &open,
    )];
    let ms = |v: u32| (f64::from(v) * f64::from(RATE) / 1000.0).round() as usize;
    for (what, cell, want) in [
        ("door closed", stone, DirectKind::Through),
        ("door reopened", Cell::Air, DirectKind::Around),
    ] {
        e.world()
            .fill_box(IVec3::new(10, 0, 4), IVec3::new(11, 2, 5), cell)
            .context("editing the door")?;
        let before = e.tick();
        stereo.extend(e.render_frames(tf - tf / 2 + 1)?);
        let change = stereo.len() / 2 - 1;
        let a = e.voice_acoustics(v).context("the source's acoustics")?;
        rows.push(equal_kind(
            "AD",
            &format!("{what}: direct kind at the next tick"),
            want,
            &a,
        ));
        rows.push(Check::equal(
            "AD",
            &format!("{what}: applied at tick"),
            &before.to_string(),
            &a.applied_tick.map_or("none".into(), |t| t.to_string()),
        ));
        // On to the middle of a tick again (past the click measure's settled window).
        stereo.extend(e.render_frames(9 * tf + tf / 2 - 1)?);
        let worst = (0..2)
            .map(|ch| {
                let channel: Vec<f32> = stereo.iter().skip(ch).step_by(2).copied().collect();
                click_step(
                    &channel,
                    change,
                    ms(plan::CLICK_WINDOW_MS),
                    ms(plan::CLICK_SETTLE_MS),
                )
                .map(|c| c.excess_db())
            })
            .try_fold(f64::NEG_INFINITY, |m, x| x.map(|x| m.max(x)));
        rows.push(Check::number(
            "AD",
            &format!("{what}: step excess dB"),
            Rule::Between {
                lo: f64::NEG_INFINITY,
                hi: plan::CLICK_EXCESS_DB,
            },
            worst,
            1,
        ));
    }
    Ok(rows)
}

fn wooden_wall() -> anyhow::Result<Vec<Check>> {
    let (mut e, v, _) = start("AW", air())?;
    let tf = usize::try_from(e.tick_frames()).unwrap_or(2400);
    e.render_frames(4 * tf)?;
    let a = e.voice_acoustics(v).context("the source's acoustics")?;
    Ok(vec![
        equal_kind(
            "AW",
            "direct kind (the louder per band: the wood)",
            DirectKind::Through,
            &a,
        ),
        Check::equal(
            "AW",
            "bends",
            "0",
            &a.direct.map_or("none".into(), |d| d.bends.to_string()),
        ),
    ])
}

/// The rows of the three scenes (a scene that fails to render is one failed row).
pub fn corner_checks() -> Vec<Check> {
    let mut rows = Vec::new();
    for (name, run) in [
        ("AL", l_corridor as fn() -> anyhow::Result<Vec<Check>>),
        ("AD", door),
        ("AW", wooden_wall),
    ] {
        match run() {
            Ok(r) => rows.extend(r),
            Err(e) => rows.push(Check::failed(name, "render", &format!("{e:#}"))),
        }
    }
    rows
}
