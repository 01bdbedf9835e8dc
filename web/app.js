// The demo page: the fixture world's map, the listener placed by a click or walking the demo
// tour (its claps, shots and engine fired), the mix pulled by an AudioWorklet from the engine
// (resound-wasm's Player) while each animation frame updates the game side, a live readout
// and the hearing switch. Plain script (no modules), so it runs from file:// too.
'use strict';

const pageStart = performance.now();
const RATE = 48000;
const STEP = 1600; // frames per block the worklet is sent (and per walk frame offline: 30 a second)
const SIDE = 960; // metres: 5 landblocks of 192 m
const GRID = 41;

// The AudioWorklet: a queue of interleaved blocks from the engine, copied out 128 frames at a
// time; when fewer than `low` frames are queued it asks the page for more (the pull). Loaded
// from a data: URL, which a page opened from file:// may load too (a blob: URL of a file://
// page has an opaque origin the worklet loader refuses).
const WORKLET_SOURCE = `
class ResoundPull extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const o = (options && options.processorOptions) || {};
    this.low = o.low || 9600;
    this.blocks = [];
    this.offset = 0;
    this.queued = 0;
    this.asked = false;
    this.port.onmessage = (e) => {
      const block = e.data;
      this.blocks.push(block);
      this.queued += block.length / 2;
      this.asked = false;
      this.port.postMessage({ queued: this.queued });
    };
  }
  process(inputs, outputs) {
    const out = outputs[0];
    const l = out[0], r = out[1] || out[0];
    let i = 0;
    while (i < l.length && this.blocks.length > 0) {
      const b = this.blocks[0];
      const n = Math.min(l.length - i, b.length / 2 - this.offset);
      for (let k = 0; k < n; k++) {
        l[i + k] = b[2 * (this.offset + k)];
        r[i + k] = b[2 * (this.offset + k) + 1];
      }
      i += n;
      this.offset += n;
      this.queued -= n;
      if (this.offset * 2 >= b.length) { this.blocks.shift(); this.offset = 0; }
    }
    for (; i < l.length; i++) { l[i] = 0; r[i] = 0; }
    if (!this.asked && this.queued < this.low) {
      this.asked = true;
      this.port.postMessage({ need: this.low - this.queued });
    }
    return true;
  }
}
registerProcessor('resound-pull', ResoundPull);
`;

function workletUrl() {
  return `data:text/javascript;base64,${btoa(WORKLET_SOURCE)}`;
}

function base64Bytes(text) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

const R = wasm_bindgen; // the no-modules glue's namespace
R.initSync({ module: base64Bytes(RESOUND_WASM_BASE64) });
const wasmReady = performance.now() - pageStart;

let dats = (() => {
  const w = new R.FixtureWorld();
  return { portal: w.portal, cell: w.cell, fixture: true };
})();
const walkJson = R.exampleWalk();
const tour = JSON.parse(R.tourScript());
let player = new R.Player(dats.portal, dats.cell, 'full', R.startPosition(dats.portal, dats.cell));
let audio = null; // { ctx, node }
let firstSound = null; // ms from the sound being asked for to the first non-silent block
let soundAsked = null;
let lastReadout = null;
let updates = 0; // animation frames that called player.update

// ---- the map -------------------------------------------------------------------------------

const map = R.fixtureMap();
const canvas = document.getElementById('map');
const g = canvas.getContext('2d');
const COLOURS = ['#3a6fb0', '#4f8fd6', '#c9b98a', '#4c7a3a', '#8fb55a', '#8a7f72', '#e0cf96', '#9cc46a'];
const SOUND_COLOURS = { clap: '#f2c200', shot: '#d9480f', engine: '#7048e8' };

function toCanvas(east, north) {
  return [(east / SIDE) * canvas.width, canvas.height - (north / SIDE) * canvas.height];
}

function drawTerrain() {
  const cw = canvas.width / GRID;
  for (let gy = 0; gy < GRID; gy++) {
    for (let gx = 0; gx < GRID; gx++) {
      const i = 2 * (gy * GRID + gx);
      const h = map[i];
      g.fillStyle = dats.fixture ? COLOURS[map[i + 1]] || '#999' : '#b9b2a4';
      g.fillRect(gx * cw, canvas.height - (gy + 1) * cw, cw + 0.5, cw + 0.5);
      if (dats.fixture) {
        g.fillStyle = `rgba(255,255,255,${Math.min(0.35, Math.max(0, (h - 20) / 200))})`;
        g.fillRect(gx * cw, canvas.height - (gy + 1) * cw, cw + 0.5, cw + 0.5);
      }
    }
  }
  g.strokeStyle = 'rgba(0,0,0,0.25)';
  for (let b = 0; b <= 5; b++) {
    const p = (b / 5) * canvas.width;
    g.beginPath(); g.moveTo(p, 0); g.lineTo(p, canvas.height); g.stroke();
    g.beginPath(); g.moveTo(0, p); g.lineTo(canvas.width, p); g.stroke();
  }
}

function drawTour(r) {
  g.fillStyle = '#5b5b5b';
  for (const [w, s, e, n] of tour.structures) {
    const [x0, y0] = toCanvas(w, n);
    const [x1, y1] = toCanvas(e, s);
    g.fillRect(x0, y0, Math.max(1.5, x1 - x0), Math.max(1.5, y1 - y0));
  }
  g.strokeStyle = '#b3261e';
  g.setLineDash([5, 4]);
  g.beginPath();
  tour.path.forEach(([, e, n], i) => {
    const [x, y] = toCanvas(e, n);
    if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
  });
  g.stroke();
  g.setLineDash([]);
  const now = r && r.tour ? r.tour.time : -1;
  for (const ev of tour.events) {
    const [x, y] = toCanvas(ev.east, ev.north);
    const fired = now >= ev.t;
    g.fillStyle = SOUND_COLOURS[ev.sound];
    g.globalAlpha = fired ? 1 : 0.55;
    g.beginPath(); g.arc(x, y, fired ? 5 : 3.5, 0, 2 * Math.PI); g.fill();
    g.globalAlpha = 1;
    if (ev.to) {
      const [x1, y1] = toCanvas(ev.to[0], ev.to[1]);
      g.strokeStyle = SOUND_COLOURS.engine;
      g.beginPath(); g.moveTo(x, y); g.lineTo(x1, y1); g.stroke();
    }
  }
}

function draw(r) {
  drawTerrain();
  drawTour(r);
  if (r) {
    const [x, y] = toCanvas(r.area[0], r.area[1]);
    g.fillStyle = '#111';
    g.beginPath(); g.arc(x, y, 6, 0, 2 * Math.PI); g.fill();
    g.fillStyle = '#fff';
    g.beginPath(); g.arc(x, y, 2.5, 0, 2 * Math.PI); g.fill();
  }
}

canvas.addEventListener('click', (e) => {
  const rect = canvas.getBoundingClientRect();
  const east = ((e.clientX - rect.left) / rect.width) * SIDE;
  const north = (1 - (e.clientY - rect.top) / rect.height) * SIDE;
  const what = document.getElementById('click').value;
  guard(() => {
    if (what === 'stand') player.placeArea(east, north);
    else player.playSound(what, east, north, 1.5, 0.05);
  });
});

// ---- the audio: the worklet pulls the mix, the animation frames update the game side -------

function feed(node, frames) {
  for (let done = 0; done < frames; done += STEP) {
    const block = player.render(STEP);
    if (firstSound === null && soundAsked !== null && block.some((v) => v !== 0)) {
      firstSound = performance.now() - soundAsked;
    }
    node.port.postMessage(block, [block.buffer]);
  }
}

async function soundOn() {
  if (audio) return;
  soundAsked = performance.now();
  audio = { ctx: null, node: null };
  const ctx = new AudioContext({ sampleRate: RATE });
  await ctx.audioWorklet.addModule(workletUrl());
  const node = new AudioWorkletNode(ctx, 'resound-pull', { outputChannelCount: [2] });
  node.port.onmessage = (e) => { if (e.data.need) guard(() => feed(node, e.data.need)); };
  node.connect(ctx.destination);
  audio = { ctx, node };
}

function soundOff() {
  if (!audio) return;
  if (audio.ctx) audio.ctx.close();
  audio = null;
}

function guard(f) {
  try {
    return f();
  } catch (e) {
    document.getElementById('error').textContent = `error: ${e.message}`;
    return undefined;
  }
}

document.getElementById('play').onclick = () => soundOn();
document.getElementById('stop').onclick = () => soundOff();
document.getElementById('tour').onclick = () => {
  guard(() => player.startTour());
  soundOn();
};
document.getElementById('hearing').onchange = (e) => guard(() => player.setHearing(e.target.value));
document.getElementById('use-dats').onclick = async () => {
  const p = document.getElementById('portal').files[0];
  const c = document.getElementById('cell').files[0];
  if (!p || !c) return;
  const portal = new Uint8Array(await p.arrayBuffer());
  const cell = new Uint8Array(await c.arrayBuffer());
  const hearing = document.getElementById('hearing').value;
  guard(() => {
    // Stand on the dats' own ground: landblock 0xA9B4's middle, else the first with terrain.
    player = new R.Player(portal, cell, hearing, R.startPosition(portal, cell));
    dats = { portal, cell, fixture: false };
    document.getElementById('error').textContent = '';
  });
};

// ---- once per animation frame: the game side's update, the readout, the map ---------------

function fmt(v, digits, unit) {
  return v === null || v === undefined ? '–' : `${v.toFixed(digits)}${unit}`;
}

let lastFrame = null;
function frame(now) {
  const dt = lastFrame === null ? 0 : Math.min(0.1, (now - lastFrame) / 1000);
  lastFrame = now;
  // The game side runs while the sound does (the worklet pulls what it updates).
  if (audio && audio.node) {
    guard(() => player.update(dt));
    updates++;
  }
  const r = guard(() => JSON.parse(player.readout()));
  if (r) {
    lastReadout = r;
    const path = r.path || {};
    const s = r.sound;
    document.getElementById('readout').textContent = [
      `place        ${r.place}`,
      `hearing      ${r.hearing}`,
      `clock        ${r.clock.toFixed(2)} s` + (r.tour ? ` (tour ${r.tour.time.toFixed(1)} of ${r.tour.seconds} s)` : ''),
      `voices       ${r.voices} (retail ${r.retail_voices}, with echoes ${r.echo_voices})`,
      `high band    ${fmt(path.hf_db, 1, ' dB')} on the path from the newest event` + (path.taps ? `, ${path.taps} echo taps` : ''),
      `decay        ${fmt(path.decay, 2, ' s')} (listener's space, enclosure ${fmt(path.enclosure, 2, '')})`,
      `event sound  ${s && s.sound ? `${s.sound}${s.playing ? '' : ' (ended)'}: high band ${fmt(s.hf_db, 1, ' dB')}, decay ${fmt(s.decay, 2, ' s')}` : '–'}`,
      `last event   ${r.tour && r.tour.newest ? r.tour.newest : '–'}`,
      `peak         ${r.peak.toFixed(3)}; acoustics ${r.ticks} ticks, ${r.rays} rays`,
      `wasm ready   ${wasmReady.toFixed(0)} ms` +
        (firstSound === null ? '' : `; first sound ${firstSound.toFixed(0)} ms after the click`),
    ].join('\n');
  }
  draw(r);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

// ---- for the browser test: a walk through the worklet into an OfflineAudioContext -----------

// Renders `seconds` of the example walk (retail) through the worklet path; resolves to the
// rendered AudioBuffer's channels interleaved, as the engine writes them.
async function renderWalkOffline(seconds) {
  const frames = Math.round(seconds * RATE);
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: frames, sampleRate: RATE });
  await ctx.audioWorklet.addModule(workletUrl());
  const node = new AudioWorkletNode(ctx, 'resound-pull', {
    outputChannelCount: [2],
    processorOptions: { low: 0 },
  });
  node.connect(ctx.destination);
  const p = new R.Player(dats.portal, dats.cell, 'retail', R.fixturePosition(480, 480));
  p.startWalk(walkJson);
  const queued = new Promise((resolve) => {
    node.port.onmessage = (e) => { if (e.data.queued >= frames) resolve(); };
  });
  for (let done = 0; done < frames; done += STEP) {
    const block = p.step(Math.min(STEP, frames - done));
    node.port.postMessage(block, [block.buffer]);
  }
  await queued;
  const buffer = await ctx.startRendering();
  const l = buffer.getChannelData(0);
  const r = buffer.getChannelData(1);
  const out = new Float32Array(2 * frames);
  for (let i = 0; i < frames; i++) { out[2 * i] = l[i]; out[2 * i + 1] = r[i]; }
  return out;
}

window.resound = {
  renderWalkOffline,
  timings: () => ({ wasmReady, firstSound }),
  state: () => ({ readout: lastReadout, updates }),
  soundOn,
  startTour: () => document.getElementById('tour').click(),
};
