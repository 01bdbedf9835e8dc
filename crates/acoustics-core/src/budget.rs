//! Cell budgets: every operation takes one and reports the cells it used (spec §3.3).

/// A count of DDA steps ("cells"; a skipped section counts 1) an operation may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    limit: u64,
    used: u64,
}

impl Budget {
    /// A budget of `limit` cells.
    #[must_use]
    pub fn new(limit: u64) -> Self {
        Self { limit, used: 0 }
    }

    /// An effectively unlimited budget (`u64::MAX`).
    #[must_use]
    pub fn unlimited() -> Self {
        Self::new(u64::MAX)
    }

    /// Takes `n` cells; false (nothing taken) if fewer remain.
    pub fn try_take(&mut self, n: u64) -> bool {
        if self.remaining() >= n {
            self.used += n;
            true
        } else {
            false
        }
    }

    /// Cells used so far.
    #[must_use]
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Cells left.
    #[must_use]
    pub fn remaining(&self) -> u64 {
        self.limit - self.used
    }

    /// The limit.
    #[must_use]
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// A child budget of at most `cap` cells out of what remains; give it back with
    /// [`Budget::absorb`].
    #[must_use]
    pub fn split(&self, cap: u64) -> Self {
        Self::new(self.remaining().min(cap))
    }

    /// Charges the cells a child budget used.
    pub fn absorb(&mut self, child: &Self) {
        self.used = (self.used + child.used).min(self.limit);
    }
}

/// The cell budgets of one context of spec §3.3's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Direct sound (occlusion paths).
    pub direct: u64,
    /// Echo search.
    pub echo: u64,
    /// Room measurement (listener and source spaces).
    pub room: u64,
}

impl Budgets {
    /// Offline rendering (spec §3.3): occlusion inline 600 000 cells, echoes synchronous
    /// 480 000; room measurement is synchronous and cell-counted (given the echo figure).
    #[must_use]
    pub const fn offline() -> Self {
        Self {
            direct: 600_000,
            echo: 480_000,
            room: 480_000,
        }
    }

    /// All three together (one joined evaluation).
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.direct + self.echo + self.room
    }
}

#[cfg(test)]
mod tests;
