// The page in headless Chromium (Debian's `chromium`, driven by `playwright-core`): it loads
// from file:// without a console error, a 10-second walk renders through its AudioWorklet into
// an OfflineAudioContext equal, byte for byte, to the native render, the demo tour plays live
// (player.update per animation frame, the worklet pulling the mix) until its first clap, the
// readout shows the acoustics, and a screenshot is saved. Run by `cargo xtask web-test` (environment: RESOUND_WEB_SITE,
// RESOUND_WEB_REFERENCE, RESOUND_WEB_SCREENSHOT, RESOUND_PLAYWRIGHT, RESOUND_CHROMIUM).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const env = (k) => {
  const v = process.env[k];
  assert.ok(v, `${k} is set`);
  return v;
};
const require = createRequire(resolve(env('RESOUND_PLAYWRIGHT'), 'node_modules', 'x.js'));
const { chromium } = require('playwright-core');

const SECONDS = 10;

test('the page renders the native walk through its worklet and plays the tour', async () => {
  const browser = await chromium.launch({
    executablePath: env('RESOUND_CHROMIUM'),
    headless: true,
    args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    const loadStart = Date.now();
    await page.goto(pathToFileURL(join(env('RESOUND_WEB_SITE'), 'index.html')).href);
    await page.waitForFunction(() => window.resound !== undefined, null, { timeout: 60000 });
    const loaded = Date.now() - loadStart;

    const rendered = await page.evaluate(async (seconds) => {
      const t = performance.now();
      const out = await window.resound.renderWalkOffline(seconds);
      const ms = performance.now() - t;
      const bytes = new Uint8Array(out.buffer);
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) {
        bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      }
      return { base64: btoa(bin), ms };
    }, SECONDS);
    const got = Buffer.from(rendered.base64, 'base64');
    const want = readFileSync(join(env('RESOUND_WEB_REFERENCE'), 'walk.f32')).subarray(0, 2 * 4 * 48000 * SECONDS);
    assert.equal(got.length, want.length, 'length');
    let first = -1;
    for (let i = 0; i < got.length; i += 4) {
      if (got.readUInt32LE(i) !== want.readUInt32LE(i)) { first = i / 4; break; }
    }
    assert.equal(first, -1, `the worklet render differs from native at sample ${first}`);
    assert.ok(want.some((b) => b !== 0), 'the reference is not silent');

    // Live: the demo tour through the AudioContext, the game side updated per animation
    // frame, until its first clap has fired; then the screenshot.
    await page.evaluate(() => window.resound.startTour());
    await page.waitForFunction(() => window.resound.timings().firstSound !== null, null, { timeout: 60000 });
    await page.waitForFunction(
      () => {
        const r = window.resound.state().readout;
        return r && r.tour && r.tour.newest !== null && r.sound !== null;
      },
      null,
      { timeout: 60000 },
    );
    const timings = await page.evaluate(() => window.resound.timings());
    const state = await page.evaluate(() => window.resound.state());
    assert.ok(state.updates > 10, `player.update ran on ${state.updates} animation frames`);
    assert.ok(state.readout.tour.time > 2.6, 'the tour time follows the animation frames');
    assert.ok(state.readout.path && state.readout.path.decay > 0, 'the readout has the decay');
    const readout = await page.textContent('#readout');
    assert.match(readout, /place +tour: open field/);
    assert.match(readout, /high band +-?[0-9.]+ dB/);
    assert.match(readout, /last event +clap, open field/);
    await page.screenshot({ path: env('RESOUND_WEB_SCREENSHOT') });
    assert.deepEqual(errors, [], 'no console errors');
    console.log(
      `figures: page ready ${loaded} ms (wasm instantiated ${timings.wasmReady.toFixed(0)} ms after the script started), ` +
        `first sound ${timings.firstSound.toFixed(0)} ms after the tour was asked for (AudioContext, worklet, engine); ${SECONDS} s walk through the worklet ` +
        `rendered in ${rendered.ms.toFixed(0)} ms; readout:\n${readout}`,
    );
  } finally {
    await browser.close();
  }
});
