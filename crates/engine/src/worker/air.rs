//! Air paths on the worker (issue 32, acoustics §4a): for a voice whose straight line is
//! blocked, the shortest path through air round corners and through doorways, joined with the
//! through-wall result as [`combine`] documents (per band the louder wins).
//!
//! Runs after the evaluator's tick on the results it finished, in their order (loudness, then
//! id), within the tick's air budget and a per-search cap, both in cells: the work depends only
//! on the world and the requests, so offline renders stay deterministic. Paths are cached per
//! source ([`AirPathCache`]) and dropped by the world changes the host forwards and by epochs.
//! A search the budget cannot finish leaves the voice on today's occlusion (counted).
//!
//! The result's `gain`, `hf` and `apparent_direction` are rewritten, so the one conversion to
//! mixer parameters (`convert`) sets the level, the shelf and the pan from the air path without
//! knowing about it; the mixer's parameter smoothing makes a change of kind click-free. The
//! sections the search depends on are joined to the result's `touched` box, so a door opened or
//! closed anywhere along the path makes the voice re-traced at the next tick.

use glam::DVec3;
use resound_acoustics::airpath::{DirectKind, DirectSound, combine, search_region};
use resound_acoustics::world::probe::union_box;
use resound_acoustics::{
    AcousticResult, AirPath, AirPathCache, Budget, Change, DirectResult, PathError, PathLimits,
    SoundRequest, WorldProbe, find_air_path,
};
use resound_mixer::distance_gain;

/// Cells the air searches of one tick may spend, and one search at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AirBudget {
    /// Per tick (all voices).
    pub tick: u64,
    /// Per search.
    pub job: u64,
}

/// Air-path counters of one tick.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct AirCount {
    /// Cells spent by searches (cache hits cost none).
    pub cells: u64,
    /// Searches run or answered from the cache.
    pub searches: u64,
    /// Results whose direct sound goes round (kind `around`).
    pub around: u64,
    /// Searches the budget could not finish: the voice keeps the occlusion result.
    pub fallbacks: u64,
}

/// One tick of the air stage: the cells left and the counters.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AirTick {
    /// Cells left this tick.
    pub left: Budget,
    /// The tick's counters.
    pub count: AirCount,
}

/// What the air stage decided for one finished result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AirOutcome {
    /// The direct sound (kind, path, bends, direction); `None` when no search was asked.
    pub direct: Option<DirectSound>,
    /// The tick's budget (not the search's cap) ran out: search again soon.
    pub retry: bool,
}

/// The worker's air stage: the cache and the budgets.
#[derive(Debug)]
pub(crate) struct AirStage {
    cache: AirPathCache,
    budget: AirBudget,
}

/// The through-wall result as the direct stage gave it (`cutoff = hf / air`).
fn through_of(request: &SoundRequest, r: &AcousticResult) -> DirectResult {
    let air = resound_acoustics::model::own::air_absorption(request.distance(), request.range);
    let air = (air as f32).clamp(f32::MIN_POSITIVE, 1.0);
    DirectResult {
        occ: r.occ,
        gain: r.gain,
        cutoff: (r.hf / air).clamp(0.0, 1.0),
        air,
        hf: r.hf,
        apparent_direction: r.apparent_direction,
        telemetry: resound_acoustics::Telemetry::default(),
    }
}

/// Joins `path` (or none) into `result` for `request`: gain, high band and apparent direction
/// rewritten, the sections deciding the path added to `touched`. The direct sound is returned.
pub(crate) fn join(
    request: &SoundRequest,
    result: &mut AcousticResult,
    path: Option<&AirPath>,
    limits: &PathLimits,
) -> DirectSound {
    let through = through_of(request, result);
    let range = request.range as f32;
    let direct = combine(request, &through, path, |d| {
        f64::from(distance_gain(d as f32, range))
    });
    // With no band won by the air path the through result stays exactly as traced (the combined
    // bands are the same numbers but for rounding).
    let won = path.is_some_and(|p| {
        let t = line(request, result).bands;
        !p.is_line() && (direct.bands[0] > t[0] || direct.bands[2] > t[2])
    });
    if won {
        result.gain = direct.gain;
        result.hf = direct.hf.clamp(0.0, 1.0);
    }
    if direct.direction != DVec3::ZERO {
        result.apparent_direction = direct.direction;
    }
    let straight = request.distance();
    let reach = path.map_or_else(|| limits.max_length(straight), |p| p.length);
    let region = search_region(request.source, request.listener, reach);
    result.telemetry.touched = union_box(result.telemetry.touched, Some(region));
    direct
}

/// The direct sound of a result as traced, no air path joined: `line` when the straight line is
/// open, else `through` (air paths off, over budget, or none needed).
pub(crate) fn line(request: &SoundRequest, result: &AcousticResult) -> DirectSound {
    let hf = result.hf;
    DirectSound {
        kind: if result.occ > 0.0 {
            DirectKind::Through
        } else {
            DirectKind::Line
        },
        bands: [
            result.gain,
            (result.gain * result.gain * hf).sqrt(),
            result.gain * hf,
        ],
        gain: result.gain,
        hf,
        direction: result.apparent_direction,
        path_m: request.distance(),
        bends: 0,
        extra_delay_s: 0.0,
    }
}

/// The limits of a search for `request`: 3× the straight distance, within the voice's range.
pub(crate) fn limits_of(request: &SoundRequest) -> PathLimits {
    PathLimits::with_range(request.range)
}

/// One uncached search within `budget` joined into `result` (the host's inline trace): `None`
/// when the budget ran out (the occlusion result stays).
pub(crate) fn search_once(
    probe: &dyn WorldProbe,
    request: &SoundRequest,
    result: &mut AcousticResult,
    budget: &mut Budget,
) -> Option<DirectSound> {
    if result.occ <= 0.0 {
        return Some(line(request, result));
    }
    let limits = limits_of(request);
    match find_air_path(probe, request.source, request.listener, &limits, budget) {
        Ok(path) => Some(join(request, result, path.as_ref(), &limits)),
        Err(_) => None,
    }
}

impl AirStage {
    /// An empty cache with `budget`.
    pub(crate) fn new(budget: AirBudget) -> Self {
        Self {
            cache: AirPathCache::new(),
            budget,
        }
    }

    /// World edits the host forwarded: paths whose region changed are dropped.
    pub(crate) fn on_changes(&mut self, changes: &[Change]) {
        self.cache.on_changes(changes);
    }

    /// A voice's job was cancelled (ended, or out of hearing): its path is forgotten.
    pub(crate) fn forget(&mut self, id: u64) {
        self.cache.forget(id);
    }

    /// A fresh tick: its whole budget left, counters at zero.
    pub(crate) fn tick(&self) -> AirTick {
        AirTick {
            left: Budget::new(self.budget.tick),
            count: AirCount::default(),
        }
    }

    /// Runs the air stage for job `id` on its finished `result` (see the module docs).
    pub(crate) fn apply(
        &mut self,
        probe: &dyn WorldProbe,
        tick: u64,
        id: u64,
        request: &SoundRequest,
        result: &mut AcousticResult,
        now: &mut AirTick,
    ) -> AirOutcome {
        let (left, count) = (&mut now.left, &mut now.count);
        if result.occ <= 0.0 || self.budget.tick == 0 {
            return AirOutcome {
                direct: Some(line(request, result)),
                retry: false,
            };
        }
        let limits = limits_of(request);
        let mut budget = left.split(self.budget.job);
        let tick_bound = budget.limit() < self.budget.job;
        let found = self.cache.find(
            probe,
            id,
            request.source,
            request.listener,
            &limits,
            &mut budget,
            tick,
        );
        left.absorb(&budget);
        count.cells += budget.used();
        count.searches += 1;
        match found {
            Ok(path) => {
                let direct = join(request, result, path.as_ref(), &limits);
                if direct.kind == DirectKind::Around {
                    count.around += 1;
                }
                AirOutcome {
                    direct: Some(direct),
                    retry: false,
                }
            }
            Err(PathError::OverBudget { .. }) => {
                count.fallbacks += 1;
                AirOutcome {
                    direct: Some(line(request, result)),
                    retry: tick_bound,
                }
            }
            Err(_) => AirOutcome {
                direct: Some(line(request, result)),
                retry: false,
            },
        }
    }
}
