//! One verify run: render the jobs in parallel (rayon), apply a debug fault if asked, write the
//! WAVs, measure, compare, draw.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;

use super::check::{Check, Rule};
use super::click::click_step;
use super::echo::{EchoRule, envelope_db, find_echoes};
use super::fault::{self, Fault};
use super::hash::hash_samples;
use super::plan::{self, Folder, Job, Mode};
use super::plot;
use super::render::{Rendered, Renderer};
use super::reverb_checks::reverb_checks;
use super::spectrum::{BAND_NAMES, band_ratios_db, smoothed_spectrum};

/// What a run produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The check rows, grouped by section.
    pub sections: Vec<(String, Vec<Check>)>,
    /// Each picture written, with one sentence on what it shows.
    pub pictures: Vec<(PathBuf, String)>,
    /// Each WAV written.
    pub wavs: Vec<PathBuf>,
    /// Seconds spent rendering (wall clock, all jobs in parallel).
    pub render_s: f64,
}

impl Outcome {
    /// Every row.
    pub fn rows(&self) -> impl Iterator<Item = &Check> {
        self.sections.iter().flat_map(|(_, rows)| rows)
    }
    /// True when no gating row fails.
    pub fn passed(&self) -> bool {
        !self.rows().any(Check::fails)
    }
}

/// Renders `jobs` with `renderer` into `out` and checks them.
pub fn run(
    renderer: &dyn Renderer,
    jobs: &[Job],
    fault: Option<Fault>,
    out: &Path,
) -> anyhow::Result<Outcome> {
    let fs = renderer.sample_rate() as f32;
    let started = Instant::now();
    let rendered: Vec<(Job, anyhow::Result<Rendered>)> = jobs
        .par_iter()
        .map(|job| {
            let mut job = *job;
            if fault == Some(Fault::ShelfBypass) && job.folder == Folder::Direct {
                job.mode = Mode::Off;
            }
            (job, renderer.render(&job))
        })
        .collect();
    let mut outcome = Outcome {
        render_s: started.elapsed().as_secs_f64(),
        ..Outcome::default()
    };

    let mut ok: BTreeMap<(Folder, &'static str), Rendered> = BTreeMap::new();
    let mut failed = Vec::new();
    for (job, r) in rendered {
        match r {
            Ok(r) => {
                let dir = out.join(job.folder.name());
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
                let path = dir.join(format!("{}.wav", job.file));
                write_wav(&path, &r.stereo, renderer.sample_rate())?;
                outcome.wavs.push(path);
                ok.insert((job.folder, job.file), r);
            }
            Err(e) => failed.push(Check::failed(
                job.scene,
                &format!("{} {} render", job.mode.name(), job.signal.name()),
                &format!("{e:#}"),
            )),
        }
    }
    if !failed.is_empty() {
        outcome
            .sections
            .push(("Renders that failed".into(), failed));
    }

    let direct = direct_checks(&ok, fs, out, &mut outcome.pictures)?;
    let echo = echo_checks(&ok, fs, fault, out, &mut outcome.pictures)?;
    let reverb = reverb_checks(&ok, fs, renderer.model(), fault, out, &mut outcome.pictures)?;
    let mix = mix_checks(&ok);
    let clicks = click_checks(&ok, fs);
    for (name, rows) in [
        (
            "Stage 1 — direct sound (direct, shot; band energy ratio vs W0, dB)",
            direct,
        ),
        (
            "Stage 2 — echoes (reflect, click; delays after the direct peak)",
            echo,
        ),
        ("Stage 3 — late reverb (full, click)", reverb),
        ("Scene C — 100 loops + 8 clicks (full)", mix),
        ("Clicks at parameter changes (200 Hz sine, 0.5)", clicks),
    ] {
        if !rows.is_empty() {
            outcome.sections.push((name.to_string(), rows));
        }
    }
    Ok(outcome)
}

/// Writes interleaved stereo as a 32-bit float WAV.
pub fn write_wav(path: &Path, stereo: &[f32], sample_rate: u32) -> anyhow::Result<()> {
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut w = hound::WavWriter::create(path, spec)
        .with_context(|| format!("cannot write {}", path.display()))?;
    for &s in stereo {
        w.write_sample(s)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    w.finalize()
        .with_context(|| format!("cannot finish {}", path.display()))?;
    Ok(())
}

/// The expected band ratios of a scene behind a shelf with occlusion `occ`, derived from the W0
/// render run through the §4 shelf (`gain = exp(−3·occ)^0.1`, `hf = exp(−3·occ)`).
fn shelf_bands(w0: &[f32], occ: f64, fs: f32) -> anyhow::Result<[f64; 4]> {
    use resound_engine::advanced::dsp::shelf::OcclusionShelf;
    let cutoff = (-3.0 * occ).exp();
    let mut shelf = OcclusionShelf::new();
    shelf.prepare(fs, w0.len());
    shelf.set_immediate(cutoff.powf(0.1) as f32, cutoff as f32);
    let mut y = w0.to_vec();
    shelf.process(&mut y);
    band_ratios_db(&y, w0, fs)
}

fn direct_checks(
    ok: &BTreeMap<(Folder, &'static str), Rendered>,
    fs: f32,
    out: &Path,
    pictures: &mut Vec<(PathBuf, String)>,
) -> anyhow::Result<Vec<Check>> {
    let mut rows = Vec::new();
    let Some(w0) = ok.get(&(Folder::Direct, "W0")) else {
        return Ok(rows);
    };
    let w0 = w0.mono();
    let band_rows =
        |rows: &mut Vec<Check>, scene: &str, expected: [f64; 4], measured: [f64; 4], how: &str| {
            for b in 0..4 {
                rows.push(Check::number(
                    scene,
                    &format!("{} ratio dB{how}", BAND_NAMES[b]),
                    Rule::Abs {
                        expected: expected[b],
                        tol: plan::BAND_TOL_DB[b],
                    },
                    Some(measured[b]),
                    1,
                ));
            }
        };
    for (scene, expected) in plan::WALL_BANDS {
        if let Some(r) = ok.get(&(Folder::Direct, scene)) {
            let measured = band_ratios_db(&r.mono(), &w0, fs)?;
            band_rows(&mut rows, scene, expected, measured, "");
        }
    }
    for (scene, occ) in plan::SHELF_SCENES {
        if let Some(r) = ok.get(&(Folder::Direct, scene)) {
            let measured = band_ratios_db(&r.mono(), &w0, fs)?;
            let expected = shelf_bands(&w0, occ, fs)?;
            band_rows(
                &mut rows,
                scene,
                expected,
                measured,
                &format!(" (W0 × shelf, occ {occ})"),
            );
        }
    }

    let spectra: Vec<(String, Vec<_>)> = ["W0", "W1", "W2", "W3", "D", "P"]
        .iter()
        .filter_map(|s| ok.get(&(Folder::Direct, *s)).map(|r| (*s, r)))
        .map(|(s, r)| Ok((s.to_string(), smoothed_spectrum(&r.mono(), fs, 6)?)))
        .collect::<anyhow::Result<_>>()?;
    let label = |s: &str| match s {
        "W0" => "W0 open field (no wall)".to_string(),
        "D" => "D door gap".to_string(),
        "P" => "P partial wall".to_string(),
        w => format!("{w} stone wall, {} block(s)", &w[1..]),
    };
    let groups: [(&str, &[&str], &str, &str); 2] = [
        (
            "bands_walls.png",
            &["W0", "W1", "W2", "W3"],
            "Shot behind 1, 2, 3 stone blocks vs open field (direct)",
            "Spectra of the 1.5 s shot in the open field (W0) and behind walls of 1, 2 and 3 stone blocks (W1–W3): the highs fall far more than the lows, with the band edges of the check dashed.",
        ),
        (
            "bands_door_partial.png",
            &["W0", "D", "P"],
            "Shot through a door gap and a partial wall vs open field (direct)",
            "Spectra of the shot in the open field, through the door gap (D, expected unmuffled) and through the partial wall (P, occ 0.25: a mild high cut).",
        ),
    ];
    for (file, which, title, sentence) in groups {
        let series: Vec<plot::SpectrumSeries<'_>> = spectra
            .iter()
            .filter(|(s, _)| which.contains(&s.as_str()))
            .map(|(s, p)| plot::SpectrumSeries {
                label: label(s),
                points: p,
            })
            .collect();
        if series.len() >= 2 {
            let path = out.join(Folder::Direct.name()).join(file);
            plot::spectra(&path, title, &series, f64::from(fs) / 2.0)?;
            pictures.push((path, sentence.to_string()));
        }
    }
    Ok(rows)
}

fn echo_checks(
    ok: &BTreeMap<(Folder, &'static str), Rendered>,
    fs: f32,
    fault: Option<Fault>,
    out: &Path,
    pictures: &mut Vec<(PathBuf, String)>,
) -> anyhow::Result<Vec<Check>> {
    let mut rows = Vec::new();
    for (scene, expected) in plan::ECHOES_MS {
        let Some(job) = plan::JOBS
            .iter()
            .find(|j| j.scene == scene && j.folder == Folder::Echo)
        else {
            continue;
        };
        let Some(r) = ok.get(&(Folder::Echo, job.file)) else {
            continue;
        };
        let mut mono = r.mono();
        if fault == Some(Fault::EchoDelayX2) {
            mono = fault::stretch_echoes(&mono, fault::peak_index(&mono));
        }
        let Some(found) = find_echoes(&mono, fs, EchoRule::SPEC) else {
            rows.push(Check::failed(scene, "echoes", "silent render"));
            continue;
        };
        let list = |v: &mut dyn Iterator<Item = f64>| {
            let items: Vec<String> = v.map(|d| format!("{d:.1}")).collect();
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        };
        let measured_list = list(&mut found.peaks.iter().map(|p| p.delay_ms));
        let expected_list = list(&mut expected.iter().copied());
        // these echoes and no others: same count, each expected one matched within tolerance
        let all_match = found.peaks.len() == expected.len()
            && expected.iter().all(|want| {
                found
                    .peaks
                    .iter()
                    .any(|p| (p.delay_ms - want).abs() <= plan::ECHO_TOL_MS)
            });
        rows.push(Check {
            tolerance: format!("all ±{} ms, no others", plan::ECHO_TOL_MS),
            pass: all_match,
            ..Check::equal(
                scene,
                "echoes (ms after direct)",
                &expected_list,
                &measured_list,
            )
        });
        for (k, &want) in expected.iter().enumerate() {
            let nearest = found
                .peaks
                .iter()
                .map(|p| p.delay_ms)
                .min_by(|a, b| (a - want).abs().total_cmp(&(b - want).abs()));
            rows.push(Check::number(
                scene,
                &format!("echo {} delay ms", k + 1),
                Rule::Abs {
                    expected: want,
                    tol: plan::ECHO_TOL_MS,
                },
                nearest,
                1,
            ));
        }
        let env = envelope_db(&mono, fs, &found, 0.25);
        let path = out
            .join(Folder::Echo.name())
            .join(format!("echogram_{}.png", job.file));
        plot::echogram(
            &path,
            &format!("Echogram, {} ({scene}), reflect, click", job.file),
            &env,
            expected,
            &found.peaks,
            EchoRule::SPEC.threshold_db,
            EchoRule::SPEC.min_delay_ms,
        )?;
        let what = if expected.is_empty() {
            "no echo is expected, so nothing should stand above the −40 dB line after 20 ms"
                .to_string()
        } else {
            format!(
                "the expected arrivals ({expected_list} ms) are dashed and the echoes found are dots"
            )
        };
        pictures.push((
            path,
            format!("Envelope of the click in {} ({scene}) in `reflect`, dB re the direct peak: {what}.", job.file),
        ));
    }
    Ok(rows)
}

fn mix_checks(ok: &BTreeMap<(Folder, &'static str), Rendered>) -> Vec<Check> {
    let mut rows = Vec::new();
    let a = ok.get(&(Folder::Mix, "C"));
    let b = ok.get(&(Folder::Mix, "C-paced-997"));
    if let (Some(a), Some(b)) = (a, b) {
        rows.push(Check::equal(
            "C",
            &format!(
                "output hash, {} vs {} frames per call",
                plan::PACING,
                plan::PACING_ODD
            ),
            &format!("{:016x}", hash_samples(&a.stereo)),
            &format!("{:016x}", hash_samples(&b.stereo)),
        ));
    }
    if let Some(a) = a {
        if let Some(n) = a.reported.limiter_engagements {
            // §6: "scene C reports peak and limiter engagements (target 0)": reported, not gated
            rows.push(
                Check::number(
                    "C",
                    "limiter engagements",
                    Rule::Between { lo: 0.0, hi: 0.0 },
                    Some(n as f64),
                    0,
                )
                .target(),
            );
        }
        let peak = a.stereo.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        rows.push(Check::number(
            "C",
            "output peak (linear)",
            Rule::Between { lo: 0.0, hi: 1.0 },
            Some(f64::from(peak)),
            3,
        ));
    }
    rows
}

fn click_checks(ok: &BTreeMap<(Folder, &'static str), Rendered>, fs: f32) -> Vec<Check> {
    let ms = |v: u32| (f64::from(v) * f64::from(fs) / 1000.0).round() as usize;
    let mut rows = Vec::new();
    for job in plan::JOBS.iter().filter(|j| j.folder == Folder::Clicks) {
        let Some(r) = ok.get(&(Folder::Clicks, job.file)) else {
            continue;
        };
        let what = match job.change.map(|c| c.what) {
            Some(plan::ChangeKind::ClearBox { .. }) => "wall removed",
            Some(plan::ChangeKind::ModeOff) => "mode → off",
            None => continue,
        };
        let quantity = format!("{what}: step excess dB");
        let worst = r.change_frame.and_then(|frame| {
            (0..2)
                .map(|ch| {
                    let channel: Vec<f32> = r.stereo.iter().skip(ch).step_by(2).copied().collect();
                    click_step(
                        &channel,
                        frame,
                        ms(plan::CLICK_WINDOW_MS),
                        ms(plan::CLICK_SETTLE_MS),
                    )
                    .map(|c| c.excess_db())
                })
                .try_fold(f64::NEG_INFINITY, |m, e| e.map(|e| m.max(e)))
        });
        rows.push(Check::number(
            job.scene,
            &quantity,
            Rule::Between {
                lo: f64::NEG_INFINITY,
                hi: plan::CLICK_EXCESS_DB,
            },
            worst,
            1,
        ));
    }
    rows
}
