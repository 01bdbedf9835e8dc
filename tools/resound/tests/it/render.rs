//! `resound render` (issue 10): the WAV it writes carries what it reports — G in `reflect` has
//! audible echoes at the taps' delays, R in `full` a tail whose Schroeder T30 is within 25 % of
//! the reported decay, W2 in `direct` a high band at least 20 dB below the open-field render
//! of D; `--json` has stable keys; bad input is one plain error line.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

use std::path::Path;
use std::process::{Command, Output};

use resound_engine::advanced::dsp::analysis::schroeder_t30;

use crate::bad_input::fails_with_one_line;

fn resound(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resound"))
        .args(args)
        .output()
        .expect("the resound binary runs")
}

/// Renders `scene` and returns (the JSON report, mono samples, rate).
fn render(
    dir: &Path,
    scene: &str,
    mode: &str,
    signal: &str,
    seconds: &str,
) -> (serde_json::Value, Vec<f32>, u32) {
    let out = dir.join(format!("{scene}_{mode}_{signal}.wav"));
    let o = resound(&[
        "render",
        scene,
        "--mode",
        mode,
        "--signal",
        signal,
        "--seconds",
        seconds,
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // No progress bar when stdout is not a terminal (and nothing else on stderr).
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut r = hound::WavReader::open(&out).unwrap();
    let spec = r.spec();
    assert_eq!(spec.channels, 2);
    let stereo: Vec<f32> = r.samples::<f32>().map(Result::unwrap).collect();
    let mono = stereo.chunks_exact(2).map(|f| f[0] + f[1]).collect();
    (doc, mono, spec.sample_rate)
}

/// Envelope peaks more than 20 ms after the direct peak and above −40 dB re it, merged within
/// 5 ms (acoustics §5 offline check): their delays after the direct peak in ms.
fn echo_peaks(x: &[f32], rate: u32) -> Vec<f64> {
    let ms = |n: usize| n as f64 * 1000.0 / f64::from(rate);
    let env: Vec<f32> = x.iter().map(|v| v.abs()).collect();
    let (p0, peak) =
        env.iter().enumerate().fold(
            (0, 0.0f32),
            |(bi, bv), (i, v)| if *v > bv { (i, *v) } else { (bi, bv) },
        );
    let floor = peak * 0.01;
    let start = p0 + (rate as usize) / 50;
    let merge = (rate as usize) / 200;
    let mut peaks: Vec<(usize, f32)> = Vec::new();
    let mut last_above: Option<usize> = None;
    for (i, v) in env.iter().enumerate().skip(start) {
        if *v < floor {
            continue;
        }
        match (last_above, peaks.last_mut()) {
            (Some(l), Some(p)) if i - l <= merge => {
                if *v > p.1 {
                    *p = (i, *v);
                }
            }
            _ => peaks.push((i, *v)),
        }
        last_above = Some(i);
    }
    peaks.iter().map(|(i, _)| ms(i - p0)).collect()
}

#[test]
fn gorge_in_reflect_has_echoes_at_the_taps_delays() {
    let dir = tempfile::tempdir().unwrap();
    let (doc, mono, rate) = render(dir.path(), "G", "reflect", "click", "1");
    let taps: Vec<f64> = doc["taps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["delay_ms"].as_f64().unwrap())
        .collect();
    assert_eq!(taps.len(), 2, "{doc}");
    assert!(
        (taps[0] - 158.9).abs() < 0.1 && (taps[1] - 242.1).abs() < 0.1,
        "{taps:?}"
    );
    let peaks = echo_peaks(&mono, rate);
    assert_eq!(peaks.len(), taps.len(), "peaks {peaks:?} taps {taps:?}");
    for (p, t) in peaks.iter().zip(&taps) {
        assert!((p - t).abs() <= 1.0, "peak {p} ms vs tap {t} ms");
    }
    // The field has none.
    let (doc, mono, rate) = render(dir.path(), "F", "reflect", "click", "1");
    assert_eq!(doc["taps"].as_array().unwrap().len(), 0);
    assert!(echo_peaks(&mono, rate).is_empty());
}

#[test]
fn room_in_full_has_a_tail_matching_the_reported_decay() {
    let dir = tempfile::tempdir().unwrap();
    let (doc, mono, rate) = render(dir.path(), "R", "full", "click", "4");
    let predicted = doc["room"]["effective_decay_s"].as_f64().unwrap();
    assert!(predicted > 1.0, "{doc}");
    let p0 = mono
        .iter()
        .enumerate()
        .fold((0, 0.0f32), |(bi, bv), (i, v)| {
            if v.abs() > bv { (i, v.abs()) } else { (bi, bv) }
        })
        .0;
    let tail = &mono[p0 + (rate as usize) * 5 / 1000..];
    let t30 = f64::from(schroeder_t30(tail, rate as f32).unwrap());
    let err = (t30 - predicted).abs() / predicted;
    eprintln!("R full: T30 {t30:.3} s, reported effective decay {predicted:.3} s");
    assert!(
        err <= 0.25,
        "T30 {t30:.3} s vs reported {predicted:.3} s ({:.0} %)",
        err * 100.0
    );
}

/// Energy above ~5 kHz: three cascaded one-pole high-passes at 5 kHz (18 dB/octave below).
fn high_band_energy(x: &[f32], rate: u32) -> f64 {
    let a = (-std::f64::consts::TAU * 5000.0 / f64::from(rate)).exp();
    let mut y: Vec<f64> = x.iter().map(|v| f64::from(*v)).collect();
    for _ in 0..3 {
        let (mut px, mut py) = (0.0, 0.0);
        for v in &mut y {
            let hp = a * (py + *v - px);
            px = *v;
            py = hp;
            *v = hp;
        }
    }
    y.iter().map(|v| v * v).sum()
}

#[test]
fn wall_in_direct_takes_the_highs_20_db_below_the_open_door_scene() {
    let dir = tempfile::tempdir().unwrap();
    let (w2, wall, rate) = render(dir.path(), "W2", "direct", "noise", "1.5");
    let (d, open, _) = render(dir.path(), "D", "direct", "noise", "1.5");
    assert_eq!(w2["occ"].as_f64().unwrap(), 2.0);
    assert_eq!(d["occ"].as_f64().unwrap(), 0.0);
    let db = 10.0 * (high_band_energy(&wall, rate) / high_band_energy(&open, rate)).log10();
    eprintln!("W2 vs D high band: {db:.1} dB");
    assert!(db <= -20.0, "high band {db:.1} dB");
}

#[test]
fn json_keys_are_stable() {
    let dir = tempfile::tempdir().unwrap();
    let (doc, _, _) = render(dir.path(), "R", "full", "click", "0.5");
    for key in [
        "scene", "model", "mode", "gain", "hf", "sends", "taps", "room", "status",
    ] {
        assert!(doc.get(key).is_some(), "{key} missing: {doc}");
    }
    assert!(doc["taps"][0]["delay_ms"].is_number());
    assert!(doc["room"]["effective_decay_s"].is_number());
    for key in [
        "rays",
        "cells",
        "worker_ms",
        "queue_len",
        "cache_hits",
        "cache_misses",
        "discarded",
        "unknown_share",
        "live_voices",
        "limiter_engagements",
        "dropped_voices",
        "xruns",
    ] {
        assert!(doc["status"].get(key).is_some(), "status.{key} missing");
    }
    assert_eq!(doc["status"]["xruns"], 0);
}

#[test]
fn bad_render_input_is_one_plain_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.wav");
    let out = out.to_str().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"boxes\": 3}").unwrap();
    fails_with_one_line(
        &resound(&["render", bad.to_str().unwrap(), "--out", out]),
        "scene",
    );
    fails_with_one_line(
        &resound(&["render", "no-such-scene", "--out", out]),
        "cannot read scene file",
    );
    fails_with_one_line(
        &resound(&["render", "/dev/zero", "--out", out]),
        "/dev/zero is a character device, not a scene file",
    );
    fails_with_one_line(
        &resound(&["render", "G", "--seconds", "NaN", "--out", out]),
        "render length",
    );
    fails_with_one_line(
        &resound(&["render", "G", "--seconds=-1", "--out", out]),
        "render length",
    );
    fails_with_one_line(
        &resound(&["render", "G", "--rate", "10", "--out", out]),
        "sample rate",
    );
}

#[test]
fn s16_output_and_text_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.wav");
    let o = resound(&[
        "render",
        "G",
        "--mode",
        "reflect",
        "--seconds",
        "0.5",
        "--format",
        "s16",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("tap 0: delay 158.9 ms"), "{text}");
    assert!(text.contains("tap 1: delay 242.1 ms"), "{text}");
    assert!(text.contains("status:"), "{text}");
    let r = hound::WavReader::open(&out).unwrap();
    let spec = r.spec();
    assert_eq!(
        (spec.bits_per_sample, spec.sample_format),
        (16, hound::SampleFormat::Int)
    );
    assert_eq!(r.duration(), 24_000);
}

/// `--spatial binaural` (issue 33): G's source is to the listener's side, so the binaural
/// render differs from the pan render and puts its direct sound 128 frames later (the
/// renderer's latency); `--spatial pan` is the default's bits; `--sofa` needs `binaural`, and
/// a bad SOFA file is one plain line.
#[test]
fn spatial_binaural_and_sofa_flags() {
    let dir = tempfile::tempdir().unwrap();
    let wav = |name: &str, extra: &[&str]| -> Vec<f32> {
        let out = dir.path().join(name);
        let mut args = vec!["render", "G", "--mode", "off", "--seconds", "0.5", "--out"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let o = resound(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut r = hound::WavReader::open(&out).unwrap();
        r.samples::<f32>().map(Result::unwrap).collect()
    };
    let default = wav("d.wav", &[]);
    let pan = wav("p.wav", &["--spatial", "pan"]);
    let binaural = wav("b.wav", &["--spatial", "binaural"]);
    assert_eq!(default, pan);
    let first = |x: &[f32]| x.iter().position(|v| v.abs() > 1e-4).map(|i| i / 2);
    let (p, b) = (first(&pan).unwrap(), first(&binaural).unwrap());
    assert!(
        b >= p + 128 && b < p + 128 + 40,
        "pan onset {p}, binaural onset {b}"
    );
    let out = dir.path().join("x.wav");
    let out = out.to_str().unwrap();
    fails_with_one_line(
        &resound(&["render", "G", "--sofa", "h.sofa", "--out", out]),
        "--sofa needs --spatial binaural",
    );
    let bad = dir.path().join("bad.sofa");
    std::fs::write(&bad, b"not HDF5").unwrap();
    let bad = bad.to_str().unwrap();
    fails_with_one_line(
        &resound(&[
            "render",
            "G",
            "--spatial",
            "binaural",
            "--sofa",
            bad,
            "--out",
            out,
        ]),
        "HRIR set",
    );
}
