//! The live engine a page drives: the ambient over dats, the listener placed on the map or
//! walking a tour, `update(dt)` per animation frame and the mix pulled block by block (by an
//! AudioWorklet). The mix is made offline (render-clock pacing, the worker inline), so what a
//! page hears is exactly what [`crate::render_walk`] renders for the same steps.

use resound_engine::advanced::ambient::walk::Walk;
use resound_engine::terrain::axes::ac_to_voxel;
use resound_engine::terrain::parse_position;
use resound_engine::{Engine, heading_orientation};

use crate::dats::Dats;
use crate::error::WebError;
use crate::hearing::Hearing;

/// Metres between two fixture terrain vertices (an AC land cell's side).
const CELL_METRES: f64 = 24.0;

/// A live engine over dats.
pub struct Live {
    engine: Engine,
    dats: Dats,
    hearing: Hearing,
    place: String,
    /// The walk under way, the stereo frames rendered since it started and the teleport
    /// waypoints reached.
    walk: Option<(Walk, u64, usize)>,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("hearing", &self.hearing)
            .field("place", &self.place)
            .finish_non_exhaustive()
    }
}

impl Live {
    /// An engine over `dats` hearing the ambient as `hearing`, the listener at `at`
    /// (`0xXXYYCCCC:X,Y,Z`).
    ///
    /// # Errors
    /// [`WebError`].
    pub fn new(dats: Dats, hearing: Hearing, at: &str) -> Result<Self, WebError> {
        let mut live = Self {
            engine: hearing.engine()?,
            dats,
            hearing,
            place: String::new(),
            walk: None,
        };
        live.dats.attach(&mut live.engine, hearing)?;
        live.place(at)?;
        Ok(live)
    }

    /// Switches the hearing: a fresh engine at the same place (what plays restarts).
    ///
    /// # Errors
    /// [`WebError`].
    pub fn set_hearing(&mut self, hearing: Hearing) -> Result<(), WebError> {
        let mut engine = hearing.engine()?;
        self.dats.attach(&mut engine, hearing)?;
        self.engine = engine;
        self.hearing = hearing;
        let place = std::mem::take(&mut self.place);
        self.place(&place)
    }

    /// Teleports the listener to `at` (`0xXXYYCCCC:X,Y,Z`), facing north; a walk stops.
    ///
    /// # Errors
    /// [`WebError::Position`], or a pose the runtime refuses.
    pub fn place(&mut self, at: &str) -> Result<(), WebError> {
        let pos = parse_position(at)?;
        self.engine
            .teleport(ac_to_voxel(&pos), heading_orientation(0.0))?;
        self.place = at.to_owned();
        self.walk = None;
        Ok(())
    }

    /// The position `0xXXYYCCCC:X,Y,Z` of a point of the fixture map: `east`, `north` in metres
    /// from its south-west corner (landblock 0xA7B2), 2 m above the ground.
    #[must_use]
    pub fn fixture_position(east: f64, north: f64) -> String {
        use resound_fixture::terrain::{BLOCKS, FIRST_X, FIRST_Y, GRID, height_m};
        let side = f64::from(BLOCKS) * 8.0 * CELL_METRES;
        let (e, n) = (east.clamp(0.0, side - 0.01), north.clamp(0.0, side - 0.01));
        let (bx, by) = ((e / 192.0) as u8, (n / 192.0) as u8);
        let (lx, ly) = (e - f64::from(bx) * 192.0, n - f64::from(by) * 192.0);
        let (cx, cy) = ((lx / CELL_METRES) as u32, (ly / CELL_METRES) as u32);
        let cell =
            (u32::from(FIRST_X + bx) << 24) | (u32::from(FIRST_Y + by) << 16) | (cx * 8 + cy + 1);
        let gx = ((e / CELL_METRES).round() as usize).min(GRID - 1);
        let gy = ((n / CELL_METRES).round() as usize).min(GRID - 1);
        let z = height_m(gx, gy) + 2.0;
        format!("0x{cell:08X}:{lx:.2},{ly:.2},{z:.2}")
    }

    /// Starts walking `walk` from its first waypoint on a fresh engine (its poses then follow
    /// the frames [`Live::step`] renders): in steps of whole walk frames, the samples are
    /// those [`crate::render_walk`] renders.
    ///
    /// # Errors
    /// [`WebError`] when the fresh engine cannot be built.
    pub fn start_walk(&mut self, walk: Walk) -> Result<(), WebError> {
        let mut engine = self.hearing.engine()?;
        self.dats.attach(&mut engine, self.hearing)?;
        self.engine = engine;
        self.walk = Some((walk, 0, 0));
        Ok(())
    }

    /// Whether a walk is under way.
    #[must_use]
    pub fn walking(&self) -> bool {
        self.walk.is_some()
    }

    /// One step of `frames` stereo frames: the walk's pose (if walking) becomes the listener,
    /// [`Engine::update`] by the step's time, and its samples are rendered into `out`
    /// (interleaved stereo, `2 × frames` values, overwritten).
    ///
    /// # Errors
    /// [`WebError::Tick`].
    pub fn step(&mut self, out: &mut [f32]) -> Result<(), WebError> {
        let frames = (out.len() / 2) as u64;
        let rate = f64::from(self.engine.sample_rate());
        let dt = frames as f64 / rate;
        if let Some((walk, done, jumps)) = self.walk.as_mut() {
            let t = *done as f64 / rate;
            // A jump is a teleport waypoint reached in this step (a pose computed from the
            // start reports every jump already passed).
            let reached = teleports_by(walk, t);
            let jumped = reached > *jumps;
            *jumps = reached;
            *done += frames;
            if let Some(pose) = walk.pose(t) {
                let position = ac_to_voxel(&pose.camera.position);
                let orientation = heading_orientation(pose.camera.heading_deg);
                if jumped {
                    self.engine.teleport(position, orientation)?;
                } else {
                    self.engine.set_listener(position, orientation)?;
                }
            }
        }
        self.engine.update(dt)?;
        out.fill(0.0);
        self.engine.render(out)?;
        Ok(())
    }

    /// The engine, for its status and clock.
    #[must_use]
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// A one-line JSON readout: place, clock, voices, ambient plays, peak, ticks, rays.
    #[must_use]
    pub fn readout(&self) -> String {
        let s = self.engine.status();
        let listener = self.engine.listener().position;
        let place = match &self.walk {
            Some((_, done, _)) => format!(
                "walking, {:.1} s",
                *done as f64 / f64::from(self.engine.sample_rate())
            ),
            None => self.place.clone(),
        };
        serde_json::json!({
            "place": place,
            "hearing": match self.hearing {
                Hearing::Retail => "retail".to_owned(),
                Hearing::Modern(m) => format!("{m:?}").to_lowercase(),
            },
            "listener": [listener.x, listener.y, listener.z],
            "clock": self.engine.clock(),
            "voices": s.live_voices,
            "retail_voices": s.ambient.retail_voices,
            "ambient_started": s.ambient.started,
            "echo_voices": s.echo_voices,
            "peak": s.peak,
            "ticks": s.ticks,
            "rays": s.rays,
        })
        .to_string()
    }
}

/// Teleport waypoints (after the first) reached by `t`.
fn teleports_by(walk: &Walk, t: f64) -> usize {
    walk.waypoints
        .iter()
        .skip(1)
        .filter(|w| w.teleport && w.t <= t)
        .count()
}
