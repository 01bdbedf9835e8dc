//! The reverb rows of the verification: the late tail measured against what the engine
//! reported (T30, one slope, the bands' order, the shoeboxes against Eyring), the §6 tail/click
//! ranges, and the decay plots.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::check::{self, Check, Rule};
use super::decay::{self, Tail, measure_tail};
use super::fault::{self, Fault};
use super::plan::{self, Folder};
use super::plot;
use super::render::ModelChoice;
use super::render::{Rendered, magnitude};

/// The late reverb of a `full` render alone: the render minus the `reflect` render of the same
/// scene and length (the engine is deterministic and the bus adds to the dry voice and its taps
/// without touching them), so discrete echoes (G's taps at 159 and 242 ms) are measured in the
/// echo section and not as tail, as the §6 reference figures were (gorge RT60 0.10 s). Both
/// interleaved stereo.
fn late_reverb(full: &[f32], reflect: Option<&[f32]>) -> (Vec<f32>, bool) {
    match reflect {
        Some(dry) if dry.len() == full.len() => {
            (full.iter().zip(dry).map(|(a, b)| a - b).collect(), true)
        }
        _ => (full.to_vec(), false),
    }
}

/// One decay curve to draw: (scene, label, EDC points (s, dB), −5/−35 dB crossings).
type Curve = (&'static str, String, Vec<(f64, f64)>, Option<(f64, f64)>);

/// One band's curve to draw: label, EDC points (s, dB), −5/−35 dB crossings.
type BandCurve = (String, Vec<(f64, f64)>, Option<(f64, f64)>);

/// One scene's per-band tails and the decays the engine reported for them (low, mid, high).
type BandCurves = (&'static str, &'static str, Vec<Option<Tail>>, [f64; 3]);

/// Tolerance of a tail/click figure predicted from the sends, dB: §6's ±3 dB for T and R.
const TAIL_TOL_DB: f64 = 3.0;
/// §6 acceptance for a space without reverb: tail/click below −60 dB (the field).
const NO_TAIL_DB: f64 = -60.0;

pub(super) fn reverb_checks(
    ok: &BTreeMap<(Folder, &'static str), Rendered>,
    fs: f32,
    model: ModelChoice,
    fault: Option<Fault>,
    out: &Path,
    pictures: &mut Vec<(PathBuf, String)>,
) -> anyhow::Result<Vec<Check>> {
    let mut rows = Vec::new();
    let mut curves: Vec<Curve> = Vec::new();
    let mut band_curves: Vec<BandCurves> = Vec::new();
    for e in &plan::REVERB {
        let Some(job) = plan::JOBS
            .iter()
            .find(|j| j.scene == e.scene && j.folder == Folder::Reverb)
        else {
            continue;
        };
        let Some(r) = ok.get(&(Folder::Reverb, job.file)) else {
            continue;
        };
        // §6 tail/click and T30 read the energy of both channels (see `decay`): a figure of
        // the space, the same for R's source hard left as for T's centred one.
        let full = r.magnitude();
        let reflect = plan::JOBS
            .iter()
            .find(|j| j.scene == e.scene && j.folder == Folder::Echo)
            .and_then(|j| ok.get(&(Folder::Echo, j.file)))
            .map(|d| d.stereo.as_slice());
        let (late_stereo, separated) = late_reverb(&r.stereo, reflect);
        let mut late = magnitude(&late_stereo);
        if fault == Some(Fault::DecayHalf) {
            late = fault::halve_decay(&late, fault::peak_index(&full));
        }
        let what = if separated {
            "full − reflect"
        } else {
            "full"
        };
        let Some(tail) = measure_tail(&full, &late, fs) else {
            rows.push(Check::failed(e.scene, "tail", "silent render"));
            continue;
        };
        // Per band (250 Hz octave, 500 Hz–2 kHz, 4 kHz octave): both channels band-limited.
        let band_late: Vec<Vec<f32>> = decay::DECAY_BANDS_HZ
            .iter()
            .map(|&(lo, hi)| decay::band_magnitude(&late_stereo, fs, lo, hi))
            .collect();
        let bands: Vec<Option<Tail>> = band_late
            .iter()
            .map(|m| measure_tail(&full, m, fs))
            .collect();
        match model {
            ModelChoice::Own => {
                own_reverb_rows(&mut rows, e, r, &tail, what);
                truth_rows(&mut rows, e, r, &tail, &bands, what);
            }
            ModelChoice::Spr => spr_reverb_rows(&mut rows, e, r, &tail, what),
        }
        if let Some(reported) = r
            .reported
            .decay_bands_s
            .filter(|b| b.iter().all(|d| *d > 0.0))
        {
            band_curves.push((e.scene, job.file, bands.clone(), reported));
        }

        if tail.edc_db.first().is_some_and(|d| d.is_finite()) {
            let step = (fs as usize / 1000).max(1);
            let points: Vec<(f64, f64)> = tail
                .edc_db
                .iter()
                .enumerate()
                .step_by(step)
                .filter(|(_, d)| d.is_finite())
                .map(|(i, &d)| (i as f64 / f64::from(fs), d))
                .collect();
            let t30 = tail.crossing_s(-5.0, fs).zip(tail.crossing_s(-35.0, fs));
            curves.push((e.scene, format!("{} ({})", job.file, e.scene), points, t30));
        }
    }
    for (scene, label, points, t30) in &curves {
        let path = out
            .join(Folder::Reverb.name())
            .join(format!("decay_{scene}.png"));
        plot::decay(
            &path,
            &format!("Energy decay, {label}, full, click"),
            &[plot::DecayCurve {
                label: format!("EDC {label}"),
                points,
                t30: *t30,
            }],
        )?;
        pictures.push((
            path,
            format!("Schroeder energy-decay curve of the {label} tail (from 5 ms after the direct peak) with the T30 line through its −5 and −35 dB crossings."),
        ));
    }
    for (scene, file, bands, reported) in &band_curves {
        let names = ["250 Hz", "500 Hz–2 kHz", "4 kHz"];
        let pts: Vec<BandCurve> = bands
            .iter()
            .zip(names)
            .zip(reported)
            .filter_map(|((t, name), rep)| {
                let t = t.as_ref()?;
                let step = (fs as usize / 1000).max(1);
                let points: Vec<(f64, f64)> = t
                    .edc_db
                    .iter()
                    .enumerate()
                    .step_by(step)
                    .filter(|(_, d)| d.is_finite())
                    .map(|(i, &d)| (i as f64 / f64::from(fs), d))
                    .collect();
                let label = format!(
                    "{name}: T30 {} s, reported {rep:.2} s",
                    check::num(t.rt60_s, 2)
                );
                Some((
                    label,
                    points,
                    t.crossing_s(-5.0, fs).zip(t.crossing_s(-35.0, fs)),
                ))
            })
            .collect();
        let path = out
            .join(Folder::Reverb.name())
            .join(format!("decay_bands_{scene}.png"));
        let drawn: Vec<plot::DecayCurve<'_>> = pts
            .iter()
            .map(|(label, points, t30)| plot::DecayCurve {
                label: label.clone(),
                points,
                t30: *t30,
            })
            .collect();
        plot::decay(
            &path,
            &format!("Energy decay per band, {file} ({scene}), measured vs reported"),
            &drawn,
        )?;
        pictures.push((
            path,
            format!("The {file} tail per band (250 Hz octave, 500 Hz–2 kHz, 4 kHz octave): each band's energy-decay curve with its measured T30 beside the decay the engine reported for that band (low, mid, high)."),
        ));
    }
    if curves.len() > 1 {
        let path = out.join(Folder::Reverb.name()).join("decay_all.png");
        let all: Vec<plot::DecayCurve<'_>> = curves
            .iter()
            .map(|(_, label, points, t30)| plot::DecayCurve {
                label: label.clone(),
                points,
                t30: *t30,
            })
            .collect();
        plot::decay(&path, "Energy decay of every space, full, click", &all)?;
        pictures.push((
            path,
            "The decay curves of all spaces on one axis: the order gorge < tunnel < room is visible as ever slower slopes.".to_string(),
        ));
    }
    Ok(rows)
}

/// The measured RT60 against the engine's own prediction (§6: "measured RT60 within ±35 % of
/// 'by sends'"; the engine reports its prediction with each result).
fn rt60_row(
    rows: &mut Vec<Check>,
    e: &plan::ReverbExpect,
    r: &Rendered,
    tail: &Tail,
    what: &str,
    by_sends: f64,
) {
    let (predicted, source) = match r.reported.effective_decay_s {
        Some(p) => (p, "engine's prediction"),
        None => (by_sends, "§6 by sends"),
    };
    rows.push(Check::number(
        e.scene,
        &format!("RT60 (T30 of {what}) s vs {source}"),
        Rule::Rel {
            expected: predicted,
            frac: plan::RT60_TOL,
        },
        tail.rt60_s,
        2,
    ));
}

/// Resound's own model: tail/click against §6's acceptance ranges (the bus keeps §6's levels:
/// the slot gains are folded into the sends). §6's "this geometry" decays are the SPR
/// heuristic's (`DecayModel::Spr`); the default physical model is checked by [`truth_rows`].
///
/// §6's tail/click ranges were measured at §6's decays; the tail's level follows its decay
/// (`room::tail_level`), so a range gates only while the reported decay is within ±35 % of
/// §6's "by sends" decay, and is a target otherwise (the physical tunnel rings 3.3 s, not 1.07).
fn own_reverb_rows(
    rows: &mut Vec<Check>,
    e: &plan::ReverbExpect,
    r: &Rendered,
    tail: &Tail,
    what: &str,
) {
    let (lo, hi) = e.tail_to_click_db;
    if lo.is_finite() || hi.is_finite() {
        let row = Check::number(
            e.scene,
            &format!("tail ({what}) / click dB"),
            Rule::Between { lo, hi },
            Some(tail.tail_to_click_db),
            1,
        );
        let at_spec_decay = match (e.rt60_by_sends_s, r.reported.space_decay_s) {
            (Some(spec), Some(d)) => (d / spec - 1.0).abs() <= plan::RT60_TOL,
            _ => true,
        };
        rows.push(if at_spec_decay { row } else { row.target() });
    }
}

/// Issue 30, the truthful tail, read as a user reads it: the broadband Schroeder T30 of the
/// click's tail (both channels, no band filter) against the decay the engine reported
/// (`room.decay_s`, ±10 %), one slope (the broadband EDC's −25…−45 dB time over its −5…−25 dB
/// time within ±15 % of 1), for the shoeboxes the reported decay against Eyring from their true
/// dimensions (±20 %, each band), and the 250 Hz and 4 kHz octaves' T30 in the order of the
/// reported low and high bands (when those differ by more than 10 %).
fn truth_rows(
    rows: &mut Vec<Check>,
    e: &plan::ReverbExpect,
    r: &Rendered,
    tail: &Tail,
    bands: &[Option<Tail>],
    what: &str,
) {
    // The bands the engine tuned the bus to; without them (all 0: the SPR model, or the
    // `slot-tuning-off` fault) its mid-band decay stands for all three.
    let reported = r
        .reported
        .decay_bands_s
        .filter(|b| b.iter().all(|d| *d > 0.0))
        .or(r.reported.space_decay_s.map(|d| [d, d, d]));
    let rings = e.rt60_by_sends_s.is_some() || e.shoebox.is_some();
    if let (true, Some(rep)) = (rings, reported) {
        rows.push(Check::number(
            e.scene,
            &format!("RT60 (broadband T30 of {what}) s vs reported decay"),
            Rule::Rel {
                expected: rep[1],
                frac: plan::TRUTH_TOL,
            },
            tail.rt60_s,
            2,
        ));
        rows.push(Check::number(
            e.scene,
            "one slope: EDC time −25…−45 dB / −5…−25 dB (broadband)",
            Rule::Rel {
                expected: 1.0,
                frac: plan::SLOPE_TOL,
            },
            decay::slope_ratio(&tail.edc_db),
            2,
        ));
        let (t_lo, t_hi) = (
            bands
                .first()
                .and_then(Option::as_ref)
                .and_then(|t| t.rt60_s),
            bands.get(2).and_then(Option::as_ref).and_then(|t| t.rt60_s),
        );
        if (rep[0] / rep[2] - 1.0).abs() > 0.1 {
            let order = |a: f64, b: f64| {
                if a > b {
                    "250 Hz longer"
                } else {
                    "250 Hz shorter"
                }
            };
            rows.push(Check::equal(
                e.scene,
                &format!(
                    "band order: T30 250 Hz {} s / 4 kHz {} s vs reported low {:.2} / high {:.2} s",
                    check::num(t_lo, 2),
                    check::num(t_hi, 2),
                    rep[0],
                    rep[2]
                ),
                order(rep[0], rep[2]),
                t_lo.zip(t_hi).map_or("—", |(a, b)| order(a, b)),
            ));
        }
    }
    if let (Some((dims, row)), Some(rep)) = (e.shoebox, reported) {
        let want = plan::eyring_shoebox(dims, row);
        for (b, name) in ["low", "mid", "high"].iter().enumerate() {
            rows.push(Check::number(
                e.scene,
                &format!("reported {name} decay s vs Eyring ({row}, true size)"),
                Rule::Rel {
                    expected: want[b],
                    frac: plan::EYRING_TOL,
                },
                Some(rep[b]),
                2,
            ));
        }
    }
}

/// The SPR model against SPR's own slot model, not the own model's §6 figures: SPR measures no
/// space (§2.6, §6: the space measurement is Resound's), its sends come from its rays and slot
/// weights (§2.3, spr.md §1.4–§1.6) onto the adopted slot table (§2.4). So: the engine's decay
/// prediction against verify's own §6 EDC reading of the reported sends × slot gains (±5 %, as
/// §6 holds the own model's prediction); the measured RT60 against that prediction (±35 %,
/// §6); tail/click against what the sends and slot gains put on the bus (±3 dB, §6's T/R
/// tolerance), or below −60 dB (§6's "no tail") when every send is 0.
fn spr_reverb_rows(
    rows: &mut Vec<Check>,
    e: &plan::ReverbExpect,
    r: &Rendered,
    tail: &Tail,
    what: &str,
) {
    let (Some(sends), Some(slots), Some(dg)) =
        (r.reported.sends, r.reported.slots, r.reported.distance_gain)
    else {
        rows.push(Check::failed(e.scene, "SPR sends", "not reported"));
        return;
    };
    let amps: Vec<(f64, f64)> = (0..4)
        .map(|k| (sends[k] * slots[k].0, slots[k].1))
        .collect();
    if let Some(predicted) = decay::slot_mix_rt60(&amps) {
        rt60_row(rows, e, r, tail, what, predicted);
        if let Some(p) = r.reported.effective_decay_s {
            rows.push(Check::number(
                e.scene,
                "predicted RT60 (engine) s vs SPR slot EDC",
                Rule::Rel {
                    expected: predicted,
                    frac: plan::SPACE_DECAY_TOL,
                },
                Some(p),
                2,
            ));
        }
    }
    let gains = slots.map(|s| s.0);
    let want = decay::slot_mix_tail_to_click_db(&sends, &gains, dg);
    let rule = if want.is_finite() {
        Rule::Abs {
            expected: want,
            tol: TAIL_TOL_DB,
        }
    } else {
        Rule::Between {
            lo: f64::NEG_INFINITY,
            hi: NO_TAIL_DB,
        }
    };
    rows.push(Check::number(
        e.scene,
        &format!("tail ({what}) / click dB vs SPR sends"),
        rule,
        Some(tail.tail_to_click_db),
        1,
    ));
}
