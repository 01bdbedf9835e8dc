//! Opaque handles that carry a generation: the engine registry (`with_session`) and the
//! per-engine tables of sounds and voices (`Table`).
//!
//! An engine handle is `generation << 32 | slot` in a process-wide registry; a sound or voice
//! handle is `engine tag << 48 | generation << 32 | slot` in its engine's table. Generations
//! start at 1, so 0 is never a handle; a slot's generation moves on when what it held goes, so
//! a stale handle is told apart from a live one, and the tag tells another engine's handles
//! apart (up to 65 535 engines made in one process; the tag then wraps).

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use resound_engine::{Engine, SoundHandle, Track, VoiceHandle, VoiceState};

use crate::result::{Failure, Outcome, ResoundResult};

/// An engine: returned by `resound_engine_create`, released by `resound_engine_destroy`.
/// 0 is never an engine.
pub type ResoundEngine = u64;
/// A loaded sound of one engine. 0 is never a sound.
pub type ResoundSound = u64;
/// A playing voice of one engine. 0 is never a voice.
pub type ResoundVoice = u64;

/// One engine and the C side's books on it.
#[derive(Debug)]
pub(crate) struct Session {
    /// The engine.
    pub(crate) engine: Engine,
    /// Loaded sounds.
    pub(crate) sounds: Table<SoundHandle>,
    /// Started voices not yet seen ended.
    pub(crate) voices: Table<VoiceHandle>,
    /// Tracks by their C number (0 is the main track).
    pub(crate) tracks: Vec<Track>,
    /// Debug hook: the next call on this engine panics inside the lock.
    pub(crate) panic_next: bool,
}

impl Session {
    /// A session over `engine`, its handles tagged with a fresh engine tag.
    pub(crate) fn new(engine: Engine) -> Self {
        static NEXT_TAG: AtomicU16 = AtomicU16::new(1);
        let mut tag = NEXT_TAG.fetch_add(1, Ordering::Relaxed);
        if tag == 0 {
            tag = NEXT_TAG.fetch_add(1, Ordering::Relaxed);
        }
        Self {
            engine,
            sounds: Table::new(tag, "sound", ResoundResult::StaleHandle),
            voices: Table::new(tag, "voice", ResoundResult::VoiceEnded),
            tracks: vec![Track::MAIN],
            panic_next: false,
        }
    }

    /// Forgets the voices the engine reports ended (after an update or a render), so their
    /// slots can be reused and their handles read as ended.
    pub(crate) fn sweep_voices(&mut self) {
        let engine = &self.engine;
        self.voices
            .retain(|h| engine.voice_state(*h) != VoiceState::Ended);
    }
}

/// One slot of a [`Table`].
#[derive(Debug)]
struct Slot<T> {
    generation: u16,
    value: Option<T>,
}

/// Values behind generation-checked handles.
#[derive(Debug)]
pub(crate) struct Table<T> {
    tag: u16,
    kind: &'static str,
    /// The code a handle whose slot has moved on gets.
    stale: ResoundResult,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

impl<T: Copy> Table<T> {
    fn new(tag: u16, kind: &'static str, stale: ResoundResult) -> Self {
        Self {
            tag,
            kind,
            stale,
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Stores `value`; its handle.
    pub(crate) fn insert(&mut self, value: T) -> u64 {
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Slot {
                    generation: 1,
                    value: None,
                });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.value = Some(value);
        (u64::from(self.tag) << 48) | (u64::from(slot.generation) << 32) | u64::from(index)
    }

    /// The slot index of a live handle.
    fn index(&self, handle: u64) -> Outcome<usize> {
        let kind = self.kind;
        if handle == 0 {
            return Err(Failure::new(
                ResoundResult::InvalidHandle,
                format!("{kind} handle is 0"),
            ));
        }
        let tag = (handle >> 48) as u16;
        let generation = (handle >> 32) as u16;
        let index = handle as u32 as usize;
        if tag != self.tag {
            return Err(Failure::new(
                ResoundResult::InvalidHandle,
                format!("{kind} handle {handle:#x} belongs to no sound or voice of this engine"),
            ));
        }
        match self.slots.get(index) {
            Some(slot) if slot.generation == generation && slot.value.is_some() => Ok(index),
            Some(_) if self.stale == ResoundResult::VoiceEnded => Err(Failure::new(
                self.stale,
                format!("voice {handle:#x} has ended"),
            )),
            Some(_) => Err(Failure::new(
                self.stale,
                format!("{kind} handle {handle:#x} is stale (its {kind} is gone)"),
            )),
            None => Err(Failure::new(
                ResoundResult::InvalidHandle,
                format!("{kind} handle {handle:#x} was never given out"),
            )),
        }
    }

    /// The value behind a live handle.
    pub(crate) fn get(&self, handle: u64) -> Outcome<T> {
        let i = self.index(handle)?;
        self.slots[i]
            .value
            .ok_or_else(|| unreachable_slot(self.kind))
    }

    /// Removes a live handle's value (its handle goes stale).
    pub(crate) fn remove(&mut self, handle: u64) -> Outcome<T> {
        let i = self.index(handle)?;
        let slot = &mut self.slots[i];
        let value = slot
            .value
            .take()
            .ok_or_else(|| unreachable_slot(self.kind))?;
        slot.generation = slot.generation.wrapping_add(1).max(1);
        self.free.push(i as u32);
        Ok(value)
    }

    /// Keeps the values `keep` says yes to; the others' handles go stale.
    fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if let Some(v) = &slot.value
                && !keep(v)
            {
                slot.value = None;
                slot.generation = slot.generation.wrapping_add(1).max(1);
                self.free.push(i as u32);
            }
        }
    }
}

fn unreachable_slot(kind: &str) -> Failure {
    Failure::new(
        ResoundResult::InvalidHandle,
        format!("{kind} slot is empty"),
    )
}

/// A registry slot: an engine (shared with calls in flight) and its generation.
struct EngineSlot {
    generation: u32,
    session: Option<Arc<Mutex<Session>>>,
}

/// Every live engine of the process.
static REGISTRY: Mutex<Vec<EngineSlot>> = Mutex::new(Vec::new());

/// Registers `session`; its engine handle.
pub(crate) fn register(session: Session) -> ResoundEngine {
    let mut reg = REGISTRY.lock().unwrap_or_else(PoisonError::into_inner);
    let cell = Some(Arc::new(Mutex::new(session)));
    let index = match reg.iter().position(|s| s.session.is_none()) {
        Some(i) => i,
        None => {
            reg.push(EngineSlot {
                generation: 1,
                session: None,
            });
            reg.len() - 1
        }
    };
    let slot = &mut reg[index];
    slot.session = cell;
    (u64::from(slot.generation) << 32) | index as u64
}

/// The registry slot index of a live engine handle.
fn engine_index(reg: &[EngineSlot], handle: ResoundEngine) -> Outcome<usize> {
    if handle == 0 {
        return Err(Failure::new(
            ResoundResult::InvalidHandle,
            "engine handle is 0 (NULL)",
        ));
    }
    let generation = (handle >> 32) as u32;
    let index = handle as u32 as usize;
    match reg.get(index) {
        Some(s) if s.generation == generation && s.session.is_some() => Ok(index),
        Some(s) if generation != 0 && generation < s.generation => Err(Failure::new(
            ResoundResult::StaleHandle,
            format!("engine {handle:#x} has been destroyed"),
        )),
        _ => Err(Failure::new(
            ResoundResult::InvalidHandle,
            format!("engine handle {handle:#x} was never given out"),
        )),
    }
}

/// Removes a live engine from the registry; the caller drops it (outside the registry lock).
pub(crate) fn unregister(handle: ResoundEngine) -> Outcome<Arc<Mutex<Session>>> {
    let mut reg = REGISTRY.lock().unwrap_or_else(PoisonError::into_inner);
    let index = engine_index(&reg, handle)?;
    let slot = &mut reg[index];
    slot.generation = slot.generation.wrapping_add(1).max(1);
    slot.session
        .take()
        .ok_or_else(|| Failure::new(ResoundResult::InvalidHandle, "engine slot is empty"))
}

/// Runs `body` on the engine behind `handle`, holding its lock (calls on one engine from many
/// threads are taken one at a time). An engine a panic went through is refused.
pub(crate) fn with_session<R>(
    handle: ResoundEngine,
    body: impl FnOnce(&mut Session) -> Outcome<R>,
) -> Outcome<R> {
    let cell = {
        let reg = REGISTRY.lock().unwrap_or_else(PoisonError::into_inner);
        let index = engine_index(&reg, handle)?;
        reg[index].session.clone()
    }
    .ok_or_else(|| Failure::new(ResoundResult::InvalidHandle, "engine slot is empty"))?;
    let mut session = cell.lock().map_err(|_| {
        Failure::new(
            ResoundResult::Panic,
            "the engine was left by an internal panic and refuses further calls: destroy it",
        )
    })?;
    if session.panic_next {
        session.panic_next = false;
        panic!("debug hook: panic injected behind the boundary");
    }
    body(&mut session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_handle_is_stale_and_its_slot_reused_with_a_new_generation() {
        let mut t: Table<u8> = Table::new(7, "sound", ResoundResult::StaleHandle);
        let a = t.insert(1);
        assert_eq!(t.get(a), Ok(1));
        assert_eq!(t.remove(a), Ok(1));
        assert_eq!(t.get(a).unwrap_err().code, ResoundResult::StaleHandle);
        let b = t.insert(2);
        assert_ne!(a, b);
        assert_eq!(a as u32, b as u32, "same slot");
        assert_eq!(t.get(b), Ok(2));
        assert_eq!(t.get(a).unwrap_err().code, ResoundResult::StaleHandle);
    }

    #[test]
    fn zero_and_foreign_handles_are_invalid() {
        let mut t: Table<u8> = Table::new(7, "voice", ResoundResult::VoiceEnded);
        let mut other: Table<u8> = Table::new(8, "voice", ResoundResult::VoiceEnded);
        let h = other.insert(1);
        t.insert(1);
        assert_eq!(t.get(0).unwrap_err().code, ResoundResult::InvalidHandle);
        assert_eq!(t.get(h).unwrap_err().code, ResoundResult::InvalidHandle);
    }

    #[test]
    fn a_retained_out_voice_reads_as_ended() {
        let mut t: Table<u8> = Table::new(7, "voice", ResoundResult::VoiceEnded);
        let a = t.insert(1);
        let b = t.insert(2);
        t.retain(|v| *v == 2);
        assert_eq!(t.get(a).unwrap_err().code, ResoundResult::VoiceEnded);
        assert_eq!(t.get(b), Ok(2));
    }
}
