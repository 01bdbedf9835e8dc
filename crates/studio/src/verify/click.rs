//! Clicks at parameter changes: the largest adjacent-sample step in a window from the change
//! (`resound_dsp::analysis::max_adjacent_difference`), against the signal's own largest step
//! in windows of the same length just before the change and after the new values settled. A
//! smoothed change stays between the two; a jump stands far above both.

use resound_engine::advanced::dsp::analysis::max_adjacent_difference;

/// The click figure at one change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClickStep {
    /// Largest `|x[i] − x[i−1]|` in the window starting at the change.
    pub at_change: f32,
    /// Largest `|x[i] − x[i−1]|` in the window just before it.
    pub before: f32,
    /// Largest `|x[i] − x[i−1]|` in the window starting `settle` frames after the change.
    pub settled: f32,
}

impl ClickStep {
    /// `at_change` over the larger of `before` and `settled`, dB (+∞ when the signal was
    /// still in both).
    pub fn excess_db(&self) -> f64 {
        let reference = self.before.max(self.settled);
        super::spectrum::ratio_db(
            f64::from(self.at_change).powi(2),
            f64::from(reference).powi(2),
        )
    }
}

/// The click figure of `x` at frame `change`, with windows of `window` frames and the
/// settled window `settle` frames after the change. `None` unless all three windows lie
/// inside the signal.
pub fn click_step(x: &[f32], change: usize, window: usize, settle: usize) -> Option<ClickStep> {
    if window == 0 || change < window || settle < window || change + settle + window > x.len() {
        return None;
    }
    // The step into the change frame belongs to the change: start one sample early.
    Some(ClickStep {
        at_change: max_adjacent_difference(&x[change - 1..change + window]),
        before: max_adjacent_difference(&x[change - window..change]),
        settled: max_adjacent_difference(&x[change + settle..change + settle + window]),
    })
}

#[cfg(test)]
mod tests;
