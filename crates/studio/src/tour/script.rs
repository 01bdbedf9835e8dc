//! The tour's script: where the listener walks, what is built on the terrain, and which event
//! sounds fire where.
//!
//! Everything is in the fixture area's metres: `(east, north)` from the south-west corner of
//! landblock [`FIRST_BLOCK`] (0xA7B2), 5 × 5 landblocks of 192 m. Times are fractions of the
//! tour's length, so `--seconds` stretches the same walk.

use resound_engine::glam::DVec2;

/// The landblock at the fixture area's south-west corner (x, y).
pub const FIRST_BLOCK: (u8, u8) = (0xA7, 0xB2);
/// Side of the fixture area in metres (5 landblocks).
pub const AREA_METRES: f64 = 960.0;
/// The listener's ear above the ground or floor, metres.
pub const EAR: f64 = 1.75;

/// A point of the walk: reached at `at` (fraction of the tour).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Waypoint {
    /// Fraction of the tour (0..=1) when the listener is here.
    pub at: f64,
    /// Area metres (east, north).
    pub xy: DVec2,
}

/// A named stretch of the tour (drawn on the timeline).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stage {
    /// Fraction of the tour where it starts.
    pub from: f64,
    /// Its name.
    pub name: &'static str,
}

/// What a placed structure is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// Stone (occlusion 1.0, reflectivity 1.5).
    Stone,
    /// Air: carves the terrain and earlier boxes.
    Air,
}

/// A box over the terrain; heights are relative to the structures' common floor
/// ([`floor_point`]). Later boxes win over earlier ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Structure {
    /// Name (for the map legend), or empty for a carve.
    pub name: &'static str,
    /// South-west corner (east, north), metres.
    pub min: DVec2,
    /// North-east corner (east, north), metres (inclusive cells up to `max − 1`).
    pub max: DVec2,
    /// Bottom and top relative to the floor, metres.
    pub z: (f64, f64),
    /// Material.
    pub fill: Fill,
}

/// Which test signal an event plays.
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
    /// Height above the ground (or floor) in metres.
    pub above: f64,
    /// Why it is there (legend text).
    pub label: &'static str,
}

const fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

/// The point whose terrain height is the structures' common floor (the gorge mouth).
pub const fn floor_point() -> DVec2 {
    p(470.0, 330.0)
}

/// The walk: open field → behind the ridge shoulder → gorge → tunnel → hall → open again.
pub const PATH: [Waypoint; 10] = [
    Waypoint {
        at: 0.00,
        xy: p(480.0, 520.0),
    },
    Waypoint {
        at: 0.087,
        xy: p(430.0, 450.0),
    },
    Waypoint {
        at: 0.188,
        xy: p(330.0, 440.0),
    },
    Waypoint {
        at: 0.269,
        xy: p(250.0, 438.0),
    },
    Waypoint {
        at: 0.384,
        xy: p(300.0, 336.0),
    },
    Waypoint {
        at: 0.457,
        xy: p(372.0, 330.0),
    },
    Waypoint {
        at: 0.59,
        xy: p(468.0, 330.0),
    },
    Waypoint {
        at: 0.70,
        xy: p(536.0, 330.0),
    },
    Waypoint {
        at: 0.81,
        xy: p(552.0, 330.0),
    },
    Waypoint {
        at: 1.00,
        xy: p(650.0, 318.0),
    },
];

/// The stretches named on the timeline.
pub const STAGES: [Stage; 6] = [
    Stage {
        from: 0.00,
        name: "open field",
    },
    Stage {
        from: 0.15,
        name: "behind the ridge",
    },
    Stage {
        from: 0.457,
        name: "gorge",
    },
    Stage {
        from: 0.59,
        name: "tunnel",
    },
    Stage {
        from: 0.70,
        name: "stone hall",
    },
    Stage {
        from: 0.84,
        name: "open again",
    },
];

/// The gorge (two walls), the tunnel (a stone block with a bore) and the hall (a stone shell,
/// hollow, doors east and west), in placing order.
pub const STRUCTURES: [Structure; 10] = [
    // A level floor under the whole complex and air above it (the terrain carved away).
    Structure {
        name: "",
        min: p(360.0, 310.0),
        max: p(600.0, 350.0),
        z: (-8.0, 0.0),
        fill: Fill::Stone,
    },
    Structure {
        name: "",
        min: p(360.0, 310.0),
        max: p(600.0, 350.0),
        z: (0.0, 40.0),
        fill: Fill::Air,
    },
    Structure {
        name: "gorge walls",
        min: p(370.0, 318.0),
        max: p(470.0, 322.0),
        z: (-2.0, 28.0),
        fill: Fill::Stone,
    },
    Structure {
        name: "gorge walls",
        min: p(370.0, 338.0),
        max: p(470.0, 342.0),
        z: (-2.0, 28.0),
        fill: Fill::Stone,
    },
    Structure {
        name: "tunnel",
        min: p(470.0, 318.0),
        max: p(530.0, 342.0),
        z: (-2.0, 14.0),
        fill: Fill::Stone,
    },
    Structure {
        name: "",
        min: p(470.0, 328.0),
        max: p(530.0, 333.0),
        z: (0.0, 4.0),
        fill: Fill::Air,
    },
    Structure {
        name: "stone hall",
        min: p(530.0, 312.0),
        max: p(564.0, 348.0),
        z: (-2.0, 14.0),
        fill: Fill::Stone,
    },
    Structure {
        name: "",
        min: p(532.0, 314.0),
        max: p(562.0, 346.0),
        z: (0.0, 12.0),
        fill: Fill::Air,
    },
    // The hall's east door.
    Structure {
        name: "",
        min: p(562.0, 327.0),
        max: p(564.0, 334.0),
        z: (0.0, 5.0),
        fill: Fill::Air,
    },
    // The hall's west door, where the tunnel's bore comes in.
    Structure {
        name: "",
        min: p(530.0, 328.0),
        max: p(532.0, 333.0),
        z: (0.0, 4.0),
        fill: Fill::Air,
    },
];

const FAR: DVec2 = p(0.0, 0.0);

/// The scripted event sounds.
pub const EVENTS: [Event; 9] = [
    Event {
        at: 0.03,
        sound: EventSound::Clap,
        xy: p(470.0, 490.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "clap, open field",
    },
    Event {
        at: 0.07,
        sound: EventSound::Shot,
        xy: p(520.0, 430.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "shot, open field",
    },
    Event {
        at: 0.24,
        sound: EventSound::Shot,
        xy: p(414.0, 438.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "shot behind the ridge",
    },
    Event {
        at: 0.27,
        sound: EventSound::Clap,
        xy: p(410.0, 452.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "clap behind the ridge",
    },
    Event {
        at: 0.46,
        sound: EventSound::Engine,
        xy: p(470.0, 330.0),
        to: p(330.0, 330.0),
        until: 0.59,
        above: 1.0,
        label: "engine drives through the gorge",
    },
    Event {
        at: 0.52,
        sound: EventSound::Clap,
        xy: p(420.0, 326.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "clap in the gorge",
    },
    Event {
        at: 0.64,
        sound: EventSound::Clap,
        xy: p(506.0, 330.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "clap in the tunnel",
    },
    Event {
        at: 0.75,
        sound: EventSound::Clap,
        xy: p(540.0, 336.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "clap in the hall",
    },
    Event {
        at: 0.78,
        sound: EventSound::Shot,
        xy: p(556.0, 322.0),
        to: FAR,
        until: 0.0,
        above: 1.5,
        label: "shot in the hall",
    },
];

/// Where the listener is at fraction `t` of the tour (linear between waypoints).
#[must_use]
pub fn position_at(t: f64) -> DVec2 {
    let t = t.clamp(0.0, 1.0);
    for w in PATH.windows(2) {
        let (a, b) = (w[0], w[1]);
        if t <= b.at {
            let f = if b.at > a.at {
                (t - a.at) / (b.at - a.at)
            } else {
                1.0
            };
            return a.xy.lerp(b.xy, f);
        }
    }
    PATH[PATH.len() - 1].xy
}

/// The stage at fraction `t`.
#[must_use]
pub fn stage_at(t: f64) -> &'static str {
    STAGES
        .iter()
        .rev()
        .find(|s| t >= s.from)
        .map_or(STAGES[0].name, |s| s.name)
}

/// Whether an area point lies inside the structures' footprint (its height is then the floor).
#[must_use]
pub fn on_floor(xy: DVec2) -> bool {
    let s = STRUCTURES[1];
    xy.x >= s.min.x && xy.x < s.max.x && xy.y >= s.min.y && xy.y < s.max.y
}
