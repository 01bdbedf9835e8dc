// The demo page: the fixture world's map, the listener placed by a click or walking the
// tour, the mix pulled by an AudioWorklet from the engine (resound-wasm's Player), a live
// readout and the hearing switch. Plain script (no modules), so it runs from file:// too.
'use strict';

const pageStart = performance.now();
const RATE = 48000;
const STEP = 1600; // frames per engine step: one walk frame at 30 frames a second
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
const walk = JSON.parse(walkJson);
let place = R.fixturePosition(480, 480);
let marker = { east: 480, north: 480 };
let player = new R.Player(dats.portal, dats.cell, 'full', place);
let audio = null; // { ctx, node }
let firstSound = null; // ms from the sound being asked for to the first non-silent block
let soundAsked = null;
let walkStartedAt = null;

// ---- the map -------------------------------------------------------------------------------

const map = R.fixtureMap();
const canvas = document.getElementById('map');
const g = canvas.getContext('2d');
const COLOURS = ['#3a6fb0', '#4f8fd6', '#c9b98a', '#4c7a3a', '#8fb55a', '#8a7f72', '#e0cf96', '#9cc46a'];

function toCanvas(east, north) {
  return [(east / SIDE) * canvas.width, canvas.height - (north / SIDE) * canvas.height];
}

function waypointMetres(w) {
  const cell = parseInt(w.cell, 16);
  const bx = (cell >>> 24) - 0xa7;
  const by = ((cell >>> 16) & 0xff) - 0xb2;
  return { east: bx * 192 + w.origin[0], north: by * 192 + w.origin[1] };
}

function tourPosition(t) {
  const ps = walk.waypoints;
  for (let i = 1; i < ps.length; i++) {
    if (t <= ps[i].t) {
      const a = waypointMetres(ps[i - 1]);
      const b = waypointMetres(ps[i]);
      const f = (t - ps[i - 1].t) / Math.max(1e-9, ps[i].t - ps[i - 1].t);
      return { east: a.east + (b.east - a.east) * f, north: a.north + (b.north - a.north) * f };
    }
  }
  return waypointMetres(ps[ps.length - 1]);
}

function draw() {
  const cw = canvas.width / GRID;
  for (let gy = 0; gy < GRID; gy++) {
    for (let gx = 0; gx < GRID; gx++) {
      const i = 2 * (gy * GRID + gx);
      const h = map[i];
      g.fillStyle = COLOURS[map[i + 1]] || '#999';
      g.fillRect(gx * cw, canvas.height - (gy + 1) * cw, cw + 0.5, cw + 0.5);
      g.fillStyle = `rgba(255,255,255,${Math.min(0.35, Math.max(0, (h - 20) / 200))})`;
      g.fillRect(gx * cw, canvas.height - (gy + 1) * cw, cw + 0.5, cw + 0.5);
    }
  }
  g.strokeStyle = 'rgba(0,0,0,0.25)';
  for (let b = 0; b <= 5; b++) {
    const p = (b / 5) * canvas.width;
    g.beginPath(); g.moveTo(p, 0); g.lineTo(p, canvas.height); g.stroke();
    g.beginPath(); g.moveTo(0, p); g.lineTo(canvas.width, p); g.stroke();
  }
  g.strokeStyle = '#b3261e';
  g.setLineDash([5, 4]);
  g.beginPath();
  walk.waypoints.forEach((w, i) => {
    const m = waypointMetres(w);
    const [x, y] = toCanvas(m.east, m.north);
    if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
  });
  g.stroke();
  g.setLineDash([]);
  const [x, y] = toCanvas(marker.east, marker.north);
  g.fillStyle = '#111';
  g.beginPath(); g.arc(x, y, 6, 0, 2 * Math.PI); g.fill();
  g.fillStyle = '#fff';
  g.beginPath(); g.arc(x, y, 2.5, 0, 2 * Math.PI); g.fill();
}

canvas.addEventListener('click', (e) => {
  const r = canvas.getBoundingClientRect();
  const east = ((e.clientX - r.left) / r.width) * SIDE;
  const north = (1 - (e.clientY - r.top) / r.height) * SIDE;
  if (!dats.fixture) return;
  place = R.fixturePosition(east, north);
  marker = { east, north };
  walkStartedAt = null;
  guard(() => player.place(place));
});

// ---- the audio: the worklet pulls, the engine steps ------------------------------------------

function feed(node, frames) {
  for (let done = 0; done < frames; done += STEP) {
    const block = player.step(STEP);
    if (firstSound === null && soundAsked !== null && block.some((v) => v !== 0)) {
      firstSound = performance.now() - soundAsked;
    }
    node.port.postMessage(block, [block.buffer]);
  }
}

async function soundOn() {
  if (audio) return;
  soundAsked = performance.now();
  const ctx = new AudioContext({ sampleRate: RATE });
  await ctx.audioWorklet.addModule(workletUrl());
  const node = new AudioWorkletNode(ctx, 'resound-pull', { outputChannelCount: [2] });
  node.port.onmessage = (e) => { if (e.data.need) guard(() => feed(node, e.data.need)); };
  node.connect(ctx.destination);
  audio = { ctx, node };
}

function soundOff() {
  if (!audio) return;
  audio.ctx.close();
  audio = null;
}

function guard(f) {
  try {
    return f();
  } catch (e) {
    document.getElementById('readout').textContent = `error: ${e.message}`;
    return undefined;
  }
}

document.getElementById('play').onclick = () => soundOn();
document.getElementById('stop').onclick = () => soundOff();
document.getElementById('tour').onclick = () => {
  guard(() => player.startWalk(walkJson));
  walkStartedAt = 0;
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
    player = new R.Player(portal, cell, hearing, '0xA9B40025:96,96,70');
    dats = { portal, cell, fixture: false };
  });
};

// ---- the readout, once per animation frame ---------------------------------------------------

function frame() {
  const r = guard(() => JSON.parse(player.readout()));
  if (r) {
    const m = /walking, ([0-9.]+) s/.exec(r.place);
    if (m) marker = tourPosition(parseFloat(m[1]));
    document.getElementById('readout').textContent = [
      `place        ${r.place}`,
      `hearing      ${r.hearing}`,
      `clock        ${r.clock.toFixed(2)} s`,
      `voices       ${r.voices} (retail ${r.retail_voices}, echoes ${r.echo_voices})`,
      `ambient      ${r.ambient_started} started`,
      `peak         ${r.peak.toFixed(3)}`,
      `acoustics    ${r.ticks} ticks, ${r.rays} rays`,
      `wasm ready   ${wasmReady.toFixed(0)} ms` +
        (firstSound === null ? '' : `; first sound ${firstSound.toFixed(0)} ms after the click`),
    ].join('\n');
  }
  draw();
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
  soundOn,
  startTour: () => document.getElementById('tour').click(),
};
