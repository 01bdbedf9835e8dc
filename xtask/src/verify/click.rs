//! Clicks at parameter changes: the largest adjacent-sample step near a change
//! (`resound_dsp::analysis::max_adjacent_difference`), against the largest step of the same
//! length of signal just before it. A smoothed change adds nothing; a jump shows as a step
//! far above the signal's own.

use resound_engine::dsp::analysis::max_adjacent_difference;

/// The click figure at one change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClickStep {
    /// Largest |x[i] − x[i−1]| in the window starting at the change.
    pub at_change: f32,
    /// Largest |x[i] − x[i−1]| in the window of the same length just before it.
    pub before: f32,
}

impl ClickStep {
    /// `at_change` over `before`, dB (+∞ when the signal was still before the change).
    pub fn excess_db(&self) -> f64 {
        super::spectrum::ratio_db(
            f64::from(self.at_change).powi(2),
            f64::from(self.before).powi(2),
        )
    }
}

/// The click figure of `x` at frame `change`, over `window` frames each side. `None` when the
/// change is not inside the signal with a full window before it.
pub fn click_step(x: &[f32], change: usize, window: usize) -> Option<ClickStep> {
    if window == 0 || change < window || change >= x.len() {
        return None;
    }
    let after_end = (change + window).min(x.len());
    // The step into the change frame belongs to the change: start one sample early.
    Some(ClickStep {
        at_change: max_adjacent_difference(&x[change - 1..after_end]),
        before: max_adjacent_difference(&x[change - window..change]),
    })
}

#[cfg(test)]
mod tests;
