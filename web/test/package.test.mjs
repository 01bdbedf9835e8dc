// The resound-wasm package in Node's own test runner: its renders (the ambient at a fixed
// position, along the example walk, in full acoustics, and scene G in reflect) equal, byte for
// byte, the native renders `crates/wasm/examples/reference.rs` wrote. Run by
// `cargo xtask web-test` with RESOUND_WEB_PKG (target/web/pkg) and RESOUND_WEB_REFERENCE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = process.env.RESOUND_WEB_PKG;
const refDir = process.env.RESOUND_WEB_REFERENCE;
assert.ok(pkg && refDir, 'RESOUND_WEB_PKG and RESOUND_WEB_REFERENCE name the package and the reference');

const t0 = performance.now();
const resound = await import(pathToFileURL(join(pkg, 'resound.js')).href);
const wasmPath = join(pkg, 'resound_bg.wasm');
resound.initSync({ module: readFileSync(wasmPath) });
const instantiated = performance.now() - t0;
const cases = JSON.parse(readFileSync(join(refDir, 'cases.json'), 'utf8'));
const world = new resound.FixtureWorld();
const portal = world.portal;
const cell = world.cell;

function render(c) {
  switch (c.kind) {
    case 'at':
      return resound.renderAmbientAt(portal, cell, c.at, c.seconds, c.hearing);
    case 'walk':
      return resound.renderWalk(portal, cell, resound.exampleWalk(), c.seconds, c.hearing);
    case 'tour':
      return resound.renderTour(portal, cell, c.seconds, c.hearing);
    default:
      return resound.renderScene(c.scene, c.mode, c.seconds);
  }
}

function firstDifference(got, want) {
  const a = new Float32Array(got.buffer, got.byteOffset, got.length / 4);
  const b = new Float32Array(want.buffer, want.byteOffset, want.length / 4);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (Object.is(a[i], b[i]) === false) return `sample ${i}: wasm ${a[i]}, native ${b[i]}`;
  }
  return 'none';
}

for (const c of cases) {
  // A case with `todo` is a known platform difference: run and reported, not failed.
  test(`${c.name} renders the native bytes`, { todo: c.todo }, () => {
    const samples = render(c);
    assert.ok(samples instanceof Float32Array);
    const got = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    const want = readFileSync(join(refDir, `${c.name}.f32`));
    assert.equal(got.length, want.length, 'length');
    assert.ok(samples.some((v) => v !== 0), 'not silent');
    assert.ok(got.equals(want), `differs from native at ${firstDifference(got, want)}`);
  });
}

test('the example walk, first 10 s (crossroads down the valley), renders the native bytes', () => {
  const samples = resound.renderWalk(portal, cell, resound.exampleWalk(), 10, 'retail');
  const got = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const want = readFileSync(join(refDir, 'walk.f32')).subarray(0, got.length);
  assert.equal(got.length, 2 * 4 * 480000);
  assert.ok(got.equals(want), `differs from native at ${firstDifference(got, want)}`);
});

test('the tour until the shot behind the ridge (the open field\'s clap and shot) renders the native bytes', () => {
  // The whole tour in full hearing is a `todo` case above (a known platform difference from
  // 2.95 s on; in retail the whole tour is exact); its first 2.8 s, with the acoustics of the
  // two open-field events, are held exact here in both hearings.
  for (const hearing of ['retail', 'full']) {
    const samples = resound.renderTour(portal, cell, 12, hearing);
    const n = 2 * 4 * Math.round(2.8 * 48000);
    const got = Buffer.from(samples.buffer, samples.byteOffset, n);
    const want = readFileSync(join(refDir, `tour_${hearing}.f32`)).subarray(0, n);
    assert.ok(got.some((b) => b !== 0), 'not silent');
    assert.ok(got.equals(want), `${hearing}: differs from native at ${firstDifference(got, want)}`);
  }
});

test('the live player in walk frames renders the offline walk', () => {
  const want = resound.renderWalk(portal, cell, resound.exampleWalk(), 4, 'retail');
  const player = new resound.Player(portal, cell, 'retail', resound.fixturePosition(480, 480));
  player.startWalk(resound.exampleWalk());
  const got = new Float32Array(want.length);
  for (let i = 0; i < 120; i++) got.set(player.step(1600), i * 3200);
  assert.ok(Buffer.from(got.buffer).equals(Buffer.from(want.buffer)));
  assert.equal(JSON.parse(player.readout()).hearing, 'retail');
});

test('the live tour: update per animation frame, render per audio block, events and readout', () => {
  const at = resound.startPosition(portal, cell);
  assert.match(at, /^0xA9B40025:96\.00,96\.00,/);
  const player = new resound.Player(portal, cell, 'full', at);
  player.startTour();
  let peak = 0;
  // 60 frames a second for 2.8 s (the open field's clap is due at 2.7 s); 800 frames of
  // audio per animation frame, as a worklet pulls them.
  for (let i = 0; i < 168; i++) {
    player.update(1 / 60);
    const block = player.render(800);
    assert.equal(block.length, 1600);
    for (const v of block) peak = Math.max(peak, Math.abs(v));
  }
  const r = JSON.parse(player.readout());
  assert.equal(r.place, 'tour: open field');
  assert.equal(r.tour.newest, 'clap, open field');
  assert.equal(r.sound.sound, 'clap');
  assert.ok(r.path.hf_db <= 0 && r.path.decay > 0, JSON.stringify(r.path));
  assert.ok(Math.abs(r.clock - 2.8) < 1e-9, `the engine clock follows update: ${r.clock}`);
  assert.ok(peak > 0.01, 'the tour sounds');
  player.setHearing('retail');
  player.update(1 / 60);
  assert.equal(JSON.parse(player.readout()).hearing, 'retail');
});

test('a clap played in the hall reads out the hall\'s decay', () => {
  const player = new resound.Player(portal, cell, 'full', resound.startPosition(portal, cell));
  player.placeArea(547, 330);
  player.playSound('clap', 540, 336, 1.5, 0.05);
  for (let i = 0; i < 6; i++) {
    player.update(0.05);
    player.render(2400);
  }
  const r = JSON.parse(player.readout());
  assert.ok(r.path.decay > 0.3, JSON.stringify(r));
  assert.equal(r.sound.sound, 'clap');
  assert.throws(() => player.playSound('kazoo', 540, 336, 1.5, 0), /kazoo/);
});

test('bad input is an Error of one plain line', () => {
  const bad = [
    () => resound.renderAmbientAt(portal, cell, 'nowhere', 1, 'retail'),
    () => resound.renderAmbientAt(new Uint8Array([1, 2, 3]), cell, '0xA9B40025:96,96,70', 1, 'retail'),
    () => resound.renderWalk(portal, cell, '{"waypoints": 3}', 1, 'retail'),
    () => resound.renderScene('G', 'loud', 1),
    () => resound.renderScene('G', 'reflect', 1e9),
    () => new resound.Player(portal, cell, 'retail', '0xFFFFFFFF:1,1,1'),
    () => resound.startPosition(portal, new Uint8Array(64)),
    () => resound.renderTour(portal, cell, 0, 'full'),
  ];
  for (const f of bad) {
    assert.throws(f, (e) => e instanceof Error && e.message.length > 0 && !e.message.includes('\n'));
  }
});

test('figures: size, time to first sound, a 10-second walk', () => {
  const size = statSync(wasmPath).size;
  const start = performance.now();
  const player = new resound.Player(portal, cell, 'full', resound.startPosition(portal, cell));
  let blocks = 0;
  let sound = false;
  while (!sound && blocks < 100) {
    player.update(128 / 48000);
    sound = player.render(128).some((v) => v !== 0);
    blocks++;
  }
  const firstSound = performance.now() - start;
  assert.ok(sound, 'the ambient sounds within 100 blocks');
  const walkStart = performance.now();
  const walk = resound.renderWalk(portal, cell, resound.exampleWalk(), 10, 'retail');
  const walkMs = performance.now() - walkStart;
  const walkFullStart = performance.now();
  resound.renderWalk(portal, cell, resound.exampleWalk(), 10, 'full');
  const walkFullMs = performance.now() - walkFullStart;
  assert.equal(walk.length, 2 * 480000);
  console.log(
    `figures: wasm ${size} bytes; instantiate ${instantiated.toFixed(0)} ms; ` +
      `first sound ${firstSound.toFixed(0)} ms after new Player (${blocks} blocks of 128); ` +
      `10 s walk ${walkMs.toFixed(0)} ms (retail), ${walkFullMs.toFixed(0)} ms (full)`,
  );
});
