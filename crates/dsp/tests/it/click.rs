//! Click tests at dsp level (acoustics.md §4, issue 6): stepping gain, hf, a send or the
//! pan on a sine keeps the maximum adjacent-sample difference below step/50. Each test
//! also shows that an unsmoothed jump of the same size fails the same check.

use resound_dsp::analysis::{max_adjacent_difference, sine};
use resound_dsp::{OcclusionShelf, SmoothedGain, StereoPanner};

const FS: f32 = 48_000.0;
/// 60 Hz, amplitude 1: the sine's own adjacent difference is 2π·60/48000 = 0.0079,
/// below step/50 = 0.02 for a unit step.
const FREQ: f32 = 60.0;

fn input() -> Vec<f32> {
    sine(FREQ, 1.0, FS, (1.5 * FS) as usize)
}

/// The buffer before which the parameter changes (≈ 0.49 s).
const CHANGE_BUFFER: usize = 46;

/// Renders `x` in 512-frame buffers, calling `change` before buffer [`CHANGE_BUFFER`].
fn render_buffers(
    x: &[f32],
    mut change: impl FnMut(),
    mut process: impl FnMut(&[f32], &mut Vec<f32>),
) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for (b, block) in x.chunks(512).enumerate() {
        if b == CHANGE_BUFFER {
            change();
        }
        process(block, &mut out);
    }
    out
}

fn shelf_run(smoothed: bool, from: (f32, f32), to: (f32, f32)) -> f32 {
    let x = input();
    let mut shelf = OcclusionShelf::new();
    shelf.prepare(FS, 512);
    shelf.set_immediate(from.0, from.1);
    let shelf = std::cell::RefCell::new(shelf);
    let out = render_buffers(
        &x,
        || {
            if smoothed {
                shelf.borrow_mut().set_targets(to.0, to.1);
            } else {
                shelf.borrow_mut().set_immediate(to.0, to.1);
            }
        },
        |b, out| {
            let mut v = b.to_vec();
            shelf.borrow_mut().process(&mut v);
            out.extend(v);
        },
    );
    max_adjacent_difference(&out)
}

#[test]
fn shelf_gain_step_is_click_free() {
    let step = 1.0;
    let d = shelf_run(true, (1.0, 1.0), (0.0, 1.0));
    assert!(d < step / 50.0, "{d}");
    let d = shelf_run(true, (0.0, 0.5), (1.0, 0.5));
    assert!(d < step / 50.0, "{d}");
    let jump = shelf_run(false, (1.0, 1.0), (0.0, 1.0));
    assert!(jump > step / 50.0, "unsmoothed jump not detected: {jump}");
}

#[test]
fn shelf_hf_step_is_click_free() {
    let step = 1.0;
    let d = shelf_run(true, (1.0, 1.0), (1.0, 0.0));
    assert!(d < step / 50.0, "{d}");
    let d = shelf_run(true, (0.8, 0.0025), (0.8, 1.0));
    assert!(d < step / 50.0, "{d}");
    let jump = shelf_run(false, (1.0, 1.0), (1.0, 0.0));
    assert!(jump > step / 50.0, "unsmoothed jump not detected: {jump}");
}

fn send_run(smoothed: bool) -> f32 {
    let x = input();
    let send = std::cell::RefCell::new(SmoothedGain::send());
    send.borrow_mut().prepare(FS, 512);
    let out = render_buffers(
        &x,
        || {
            if smoothed {
                send.borrow_mut().set_target(1.0);
            } else {
                send.borrow_mut().set_immediate(1.0);
            }
        },
        |b, out| {
            let mut bus = vec![0.0f32; b.len()];
            send.borrow_mut().mix(b, &mut bus);
            out.extend(bus);
        },
    );
    max_adjacent_difference(&out)
}

#[test]
fn send_step_is_click_free() {
    let d = send_run(true);
    assert!(d < 1.0 / 50.0, "{d}");
    let jump = send_run(false);
    assert!(jump > 1.0 / 50.0, "unsmoothed jump not detected: {jump}");
}

fn pan_run(smoothed: bool) -> (f32, f32) {
    let x = input();
    let pan = std::cell::RefCell::new(StereoPanner::new());
    pan.borrow_mut().set_immediate(-1.0, 1.0);
    let mut right = Vec::new();
    let left = render_buffers(
        &x,
        || {
            if smoothed {
                pan.borrow_mut().set_target(1.0, 1.0);
            } else {
                pan.borrow_mut().set_immediate(1.0, 1.0);
            }
        },
        |b, out| {
            let (mut l, mut r) = (vec![0.0f32; b.len()], vec![0.0f32; b.len()]);
            pan.borrow_mut().mix(b, &mut l, &mut r);
            out.extend(l);
            right.extend(r);
        },
    );
    (
        max_adjacent_difference(&left),
        max_adjacent_difference(&right),
    )
}

#[test]
fn pan_step_is_click_free() {
    // Full left → full right: each channel's gain steps by 1.
    let (l, r) = pan_run(true);
    assert!(l < 1.0 / 50.0 && r < 1.0 / 50.0, "{l} {r}");
    let (l, r) = pan_run(false);
    assert!(
        l.max(r) > 1.0 / 50.0,
        "unsmoothed jump not detected: {l} {r}"
    );
}
