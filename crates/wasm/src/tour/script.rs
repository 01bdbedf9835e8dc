//! The demo tour's script (`resound demo`, `resound_studio::tour::script`), re-stated for the
//! browser: where the listener walks, what is built on the terrain and which event sounds
//! fire where. The native test holds every value equal to the tools' script, so a change
//! there fails here until it is carried over.
//!
//! Everything is in the fixture area's metres: `(east, north)` from the south-west corner of
//! landblock [`FIRST_BLOCK`] (0xA7B2), 5 × 5 landblocks of 192 m. Times are fractions of the
//! tour's length.

use resound_engine::glam::DVec2;

/// The landblock at the area's south-west corner (x, y).
pub const FIRST_BLOCK: (u8, u8) = (0xA7, 0xB2);
/// Side of the area in metres (5 landblocks).
pub const AREA_METRES: f64 = 960.0;
/// The listener's ear above the ground or floor, metres.
pub const EAR: f64 = 1.75;
/// The tour's length at which the demo plays it (`resound demo`'s default), seconds.
pub const TOUR_SECONDS: f64 = 90.0;

/// What an event plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventSound {
    /// A hand clap (the §9 click).
    Clap,
    /// A gunshot (the §9 shot).
    Shot,
    /// A looping engine (the §9 loop, louder) that drives along a line.
    Engine,
}

/// A scripted event sound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    /// Fraction of the tour when it starts.
    pub at: f64,
    /// What it plays.
    pub sound: EventSound,
    /// Where it sounds (area metres); for the engine, where it starts.
    pub xy: DVec2,
    /// For the engine: where it ends (reached at `until`).
    pub to: DVec2,
    /// For the engine: fraction of the tour when it stops.
    pub until: f64,
    /// Height above the ground (or floor), metres.
    pub above: f64,
    /// Why it is there.
    pub label: &'static str,
}

/// A box over the terrain: `(east, north)` corners, bottom and top relative to the
/// structures' floor, stone (`true`) or air carving (`false`). Later boxes win.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Structure {
    /// South-west corner, metres.
    pub min: DVec2,
    /// North-east corner, metres.
    pub max: DVec2,
    /// Bottom and top relative to the floor, metres.
    pub z: (f64, f64),
    /// Stone (`true`) or air (`false`).
    pub stone: bool,
}

const fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

/// The point whose terrain height is the structures' common floor (the gorge mouth).
pub const FLOOR_POINT: DVec2 = p(470.0, 330.0);

/// The walk, `(fraction, point)`: open field → behind the ridge shoulder → gorge → tunnel →
/// hall → open again.
pub const PATH: [(f64, DVec2); 10] = [
    (0.00, p(480.0, 520.0)),
    (0.087, p(430.0, 450.0)),
    (0.188, p(330.0, 440.0)),
    (0.269, p(250.0, 438.0)),
    (0.384, p(300.0, 336.0)),
    (0.457, p(372.0, 330.0)),
    (0.59, p(468.0, 330.0)),
    (0.70, p(536.0, 330.0)),
    (0.81, p(552.0, 330.0)),
    (1.00, p(650.0, 318.0)),
];

/// The named stretches, `(from fraction, name)`.
pub const STAGES: [(f64, &str); 6] = [
    (0.00, "open field"),
    (0.15, "behind the ridge"),
    (0.457, "gorge"),
    (0.59, "tunnel"),
    (0.70, "stone hall"),
    (0.84, "open again"),
];

const fn stone(min: DVec2, max: DVec2, z: (f64, f64)) -> Structure {
    Structure {
        min,
        max,
        z,
        stone: true,
    }
}

const fn air(min: DVec2, max: DVec2, z: (f64, f64)) -> Structure {
    Structure {
        min,
        max,
        z,
        stone: false,
    }
}

/// The level floor and the air above it, the gorge's two walls, the tunnel (a block and its
/// bore), the hall (a shell, hollow, doors east and west), in placing order.
pub const STRUCTURES: [Structure; 10] = [
    stone(p(360.0, 310.0), p(600.0, 350.0), (-8.0, 0.0)),
    air(p(360.0, 310.0), p(600.0, 350.0), (0.0, 40.0)),
    stone(p(370.0, 318.0), p(470.0, 322.0), (-2.0, 28.0)),
    stone(p(370.0, 338.0), p(470.0, 342.0), (-2.0, 28.0)),
    stone(p(470.0, 318.0), p(530.0, 342.0), (-2.0, 14.0)),
    air(p(470.0, 328.0), p(530.0, 333.0), (0.0, 4.0)),
    stone(p(530.0, 312.0), p(564.0, 348.0), (-2.0, 14.0)),
    air(p(532.0, 314.0), p(562.0, 346.0), (0.0, 12.0)),
    air(p(562.0, 327.0), p(564.0, 334.0), (0.0, 5.0)),
    air(p(530.0, 328.0), p(532.0, 333.0), (0.0, 4.0)),
];

const FAR: DVec2 = p(0.0, 0.0);

const fn once(at: f64, sound: EventSound, xy: DVec2, label: &'static str) -> Event {
    Event {
        at,
        sound,
        xy,
        to: FAR,
        until: 0.0,
        above: 1.5,
        label,
    }
}

/// The scripted event sounds, in tour order.
pub const EVENTS: [Event; 9] = [
    once(0.03, EventSound::Clap, p(470.0, 490.0), "clap, open field"),
    once(0.07, EventSound::Shot, p(520.0, 430.0), "shot, open field"),
    once(
        0.24,
        EventSound::Shot,
        p(414.0, 438.0),
        "shot behind the ridge",
    ),
    once(
        0.27,
        EventSound::Clap,
        p(410.0, 452.0),
        "clap behind the ridge",
    ),
    Event {
        at: 0.46,
        sound: EventSound::Engine,
        xy: p(470.0, 330.0),
        to: p(330.0, 330.0),
        until: 0.59,
        above: 1.0,
        label: "engine drives through the gorge",
    },
    once(0.52, EventSound::Clap, p(420.0, 326.0), "clap in the gorge"),
    once(
        0.64,
        EventSound::Clap,
        p(506.0, 330.0),
        "clap in the tunnel",
    ),
    once(0.75, EventSound::Clap, p(540.0, 336.0), "clap in the hall"),
    once(0.78, EventSound::Shot, p(556.0, 322.0), "shot in the hall"),
];

/// Where the listener is at fraction `t` of the tour (linear between waypoints).
#[must_use]
pub fn position_at(t: f64) -> DVec2 {
    let t = t.clamp(0.0, 1.0);
    for w in PATH.windows(2) {
        let ((a_at, a), (b_at, b)) = (w[0], w[1]);
        if t <= b_at {
            let f = if b_at > a_at {
                (t - a_at) / (b_at - a_at)
            } else {
                1.0
            };
            return a.lerp(b, f);
        }
    }
    PATH[PATH.len() - 1].1
}

/// The stage at fraction `t`.
#[must_use]
pub fn stage_at(t: f64) -> &'static str {
    STAGES
        .iter()
        .rev()
        .find(|s| t >= s.0)
        .map_or(STAGES[0].1, |s| s.1)
}

/// Whether an area point lies on the structures' floor (its height is then the floor's).
#[must_use]
pub fn on_floor(xy: DVec2) -> bool {
    let s = STRUCTURES[1];
    xy.x >= s.min.x && xy.x < s.max.x && xy.y >= s.min.y && xy.y < s.max.y
}
