// The browser tests of the web pages (docs/web.md): Debian's Chromium, headless, driven by
// playwright-core, against build-web/ served by python3 -m http.server.
//
//   node web/tests/browser/run.mjs [--web build-web] [--carom build/tools/carom]
//                                  [--racing build/demos/racing/racing]
//
// The expected hashes come from the native programs at test time: `carom run SCENE --steps N
// --hash` for the scene player's examples, `racing --headless` for an all-AI race. Screenshots
// and browser-tests.json (each test's name and whether it passed) go to WEB/test-artifacts/. Exit status 0: all passed; 1: a test failed; 77: skipped (no
// Chromium, or no build-web/ yet), with the reason on stderr.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, launch, openPage, artifactDir, chromiumPath } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const options = { web: 'build-web', carom: 'build/tools/carom', racing: 'build/demos/racing/racing' };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in options) || i + 1 >= process.argv.length) {
    console.error(`run.mjs: unknown or incomplete option '${process.argv[i]}'`);
    process.exit(2);
  }
  options[key] = process.argv[i + 1];
}
for (const key of Object.keys(options)) options[key] = path.resolve(root, options[key]);

function skip(reason) {
  console.error(`SKIP: ${reason}`);
  process.exit(77);
}
if (!existsSync(chromiumPath)) skip(`no Chromium at ${chromiumPath} (apt-get install chromium)`);
for (const file of ['carom.mjs', 'racing.mjs', 'player.html', 'racing.html']) {
  if (!existsSync(path.join(options.web, file))) skip(`no ${file} in ${options.web}: run web/build first`);
}
for (const program of [options.carom, options.racing]) {
  if (!existsSync(program)) skip(`no ${program}: build the native programs first (meson compile -C build)`);
}

const artifacts = artifactDir(options.web);
const results = [];

async function test(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${error.message}`);
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

function noProblems(page) {
  expect(page.problems.length === 0, `the page reported: ${page.problems.join('; ')}`);
}

function nativeHash(scene, steps) {
  const out = execFileSync(options.carom, ['run', scene, '--steps', String(steps), '--hash', '--quiet'],
    { encoding: 'utf8' });
  const match = out.match(/hash: ([0-9a-f]{16})/);
  expect(match, `carom run printed no hash: ${out}`);
  return match[1];
}

const server = await serve(options.web);
const browser = await launch();
const desktop = { viewport: { width: 1280, height: 720 } };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

try {
  await test('index links to both pages', async () => {
    const page = await openPage(browser, server.url + 'index.html', desktop);
    expect(await page.locator('a[href="racing.html"]').count() === 1, 'no link to racing.html');
    expect(await page.locator('a[href="player.html"]').count() === 1, 'no link to player.html');
    noProblems(page);
    await page.context().close();
  });

  await test('racing: loads without errors, counts down, the car moves while a key is held', async () => {
    const page = await openPage(browser, server.url + 'racing.html', desktop);
    await page.waitForFunction(() => window.caromRacing && window.caromRacing.phase === 'countdown');
    const banner = await page.locator('#countdown').textContent();
    expect(['1', '2', '3'].includes(banner), `the countdown shows '${banner}'`);
    expect(await page.locator('#help').isVisible(), 'the key help is not shown');
    expect(/throttle/.test(await page.locator('#help').textContent()), 'the key help names no throttle');
    await page.waitForFunction(() => window.caromRacing.phase === 'racing', null, { timeout: 10000 });
    const before = await page.evaluate(() => window.caromRacing.focus());
    await page.keyboard.down('ArrowUp');
    await page.waitForTimeout(1500);
    await page.keyboard.up('ArrowUp');
    const after = await page.evaluate(() => window.caromRacing.focus());
    const moved = Math.hypot(after.x - before.x, after.y - before.y);
    expect(moved > 3, `the white car moved ${moved.toFixed(2)} m in 1.5 s of throttle`);
    const shown = Number(await page.locator('#speed-value').textContent());
    expect(shown > 10, `the speed shown is ${shown} km/h`);
    // V draws the AI's rays (and nothing breaks)
    await page.keyboard.press('KeyV');
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(artifacts, 'racing-rays.png') });
    // P pauses: no steps while paused
    await page.keyboard.press('KeyP');
    const paused = await page.evaluate(() => window.caromRacing.stepCount());
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.caromRacing.stepCount()) === paused, 'steps went on while paused');
    expect((await page.locator('#countdown').textContent()) === 'PAUSED', 'no PAUSED banner');
    await page.keyboard.press('KeyP');
    // R restarts: back to step 0 and a countdown
    await page.keyboard.press('KeyR');
    expect(await page.evaluate(() => window.caromRacing.phase) === 'countdown', 'R did not restart');
    expect(await page.evaluate(() => window.caromRacing.stepCount()) === 0, 'R did not reset the steps');
    noProblems(page);
    await page.context().close();
  });

  await test('racing: the lap table fills in as the cars finish laps', async () => {
    const page = await openPage(browser, server.url + 'racing.html', desktop);
    await page.waitForFunction(() => window.caromRacing && window.caromRacing.phase === 'countdown');
    const laps = async () => (await page.locator('#lap-table td.laps').allTextContents()).map(Number);
    expect((await laps()).every((n) => n === 0), 'laps before the start');
    await page.evaluate(() => window.caromRacing.fastForward(3000));  // 50 s of racing
    await page.waitForFunction(() => [...document.querySelectorAll('#lap-table td.laps')]
      .some((cell) => Number(cell.textContent) > 0));
    const rows = await page.locator('#lap-table tbody tr').count();
    expect(rows === 9, `${rows} rows in the lap table`);
    const best = (await page.locator('#lap-table td.best').first().textContent()).trim();
    expect(/^\d+\.\d\d$/.test(best), `the leader's best lap reads '${best}'`);
    await page.screenshot({ path: path.join(artifacts, 'racing-laps.png') });
    noProblems(page);
    await page.context().close();
  });

  await test('racing: an all-AI race has the native hash of racing --headless', async () => {
    const seconds = 20;
    const out = execFileSync(options.racing, ['--headless', '--seconds', String(seconds)], { encoding: 'utf8' });
    const expected = out.match(/state hash: ([0-9a-f]{16})/)[1];
    const page = await openPage(browser, server.url + 'racing.html?watch', desktop);
    await page.waitForFunction(() => window.caromRacing && window.caromRacing.phase === 'countdown');
    const got = await page.evaluate((n) => {
      window.caromRacing.fastForward(n);
      return window.caromRacing.hash();
    }, seconds * 60);
    expect(got === expected, `browser ${got}, native ${expected}`);
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(artifacts, 'racing-watch.png') });
    noProblems(page);
    await page.context().close();
  });

  await test('racing: touch controls on a phone-sized screen drive the car', async () => {
    const page = await openPage(browser, server.url + 'racing.html', phone);
    await page.waitForFunction(() => window.caromRacing && window.caromRacing.phase === 'countdown');
    const throttle = page.locator('#touch button[data-key="throttle"]');
    expect(await throttle.isVisible(), 'no throttle button on a touch screen');
    await page.waitForFunction(() => window.caromRacing.phase === 'racing', null, { timeout: 10000 });
    const before = await page.evaluate(() => window.caromRacing.focus());
    const box = await throttle.boundingBox();
    // a finger held on the pedal: a touch through the DevTools protocol (Playwright's own
    // touchscreen only taps), which the page sees as pointer events of type 'touch'
    const cdp = await page.context().newCDPSession(page);
    const finger = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [finger] });
    await page.waitForTimeout(200);
    expect(await throttle.evaluate((button) => button.classList.contains('held')), 'the pedal is not shown held');
    await page.waitForTimeout(1300);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(100);
    expect(!(await throttle.evaluate((button) => button.classList.contains('held'))), 'the pedal stays held after the finger left');
    const after = await page.evaluate(() => window.caromRacing.focus());
    const moved = Math.hypot(after.x - before.x, after.y - before.y);
    expect(moved > 3, `the white car moved ${moved.toFixed(2)} m in 1.5 s on the throttle button`);
    await page.screenshot({ path: path.join(artifacts, 'racing-phone.png') });
    noProblems(page);
    await page.context().close();
  });

  const examples = await (async () => {
    const page = await openPage(browser, server.url + 'player.html', desktop);
    await page.waitForFunction(() => window.caromPlayer && window.caromPlayer.ready);
    const list = await page.evaluate(() => window.caromPlayer.examples.map(({ id, title, steps }) => ({ id, title, steps })));
    await page.context().close();
    return list;
  })();

  // each example on both of carom's builds: SIMD (carom.wasm) and scalar (carom-scalar.wasm)
  for (const [example, simd] of examples.flatMap((e) => [[e, 1], [e, 0]])) {
    const build = simd ? 'SIMD' : 'scalar';
    await test(`player: ${example.id} runs ${example.steps} steps to the native hash (${build})`, async () => {
      const expected = nativeHash(path.join(options.web, 'examples', `${example.id}.json`), example.steps);
      const page = await openPage(browser, server.url + `player.html?simd=${simd}`, desktop);
      await page.waitForFunction(() => window.caromPlayer && window.caromPlayer.ready);
      const version = await page.locator('#version').textContent();
      expect(version.includes('SIMD') === (simd === 1), `the footer says '${version}'`);
      await page.getByRole('button', { name: example.title }).click();
      await page.waitForFunction((name) => document.getElementById('scene-name').textContent === name,
        `${example.id}.json`);
      await page.fill('#run-to', String(example.steps));
      await page.click('#run');
      await page.waitForFunction((n) => document.getElementById('step-count').textContent === String(n), example.steps);
      const shown = (await page.locator('#hash').textContent()).trim();
      expect(shown === expected, `the page shows ${shown}, carom run --hash printed ${expected}`);
      const stepTime = await page.locator('#step-time').textContent();
      expect(/\d (ms|µs)$/.test(stepTime), `the step time reads '${stepTime}'`);
      await page.waitForTimeout(100);
      await page.screenshot({ path: path.join(artifacts, `player-${example.id}-${build}.png`) });
      noProblems(page);
      await page.context().close();
    });
  }

  await test('player: play, pause and single step', async () => {
    const page = await openPage(browser, server.url + 'player.html?example=sat_boxes', desktop);
    await page.waitForFunction(() => window.caromPlayer && window.caromPlayer.ready);
    await page.click('#play');
    await page.waitForFunction(() => window.caromPlayer.stepCount >= 30);
    await page.click('#play');
    const paused = await page.evaluate(() => window.caromPlayer.stepCount);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.caromPlayer.stepCount) === paused, 'steps went on after pause');
    await page.click('#step');
    expect(await page.evaluate(() => window.caromPlayer.stepCount) === paused + 1, 'step did not take one step');
    noProblems(page);
    await page.context().close();
  });

  await test('player: dragging a body with the mouse moves it', async () => {
    const page = await openPage(browser, server.url + 'player.html?example=mtd', desktop);
    await page.waitForFunction(() => window.caromPlayer && window.caromPlayer.ready);
    await page.click('#play');
    await page.waitForTimeout(300);
    const start = await page.evaluate(() => window.caromPlayer.body('hexagon_box_b'));
    const from = await page.evaluate(([x, y]) => window.caromPlayer.clientPoint(x, y), [start.x, start.y]);
    const to = await page.evaluate(([x, y]) => window.caromPlayer.clientPoint(x, y), [start.x, start.y - 2]);
    await page.mouse.move(from[0], from[1]);
    await page.mouse.down();
    for (let i = 1; i <= 10; ++i) {
      await page.mouse.move(from[0] + (to[0] - from[0]) * i / 10, from[1] + (to[1] - from[1]) * i / 10);
      await page.waitForTimeout(50);
    }
    await page.waitForTimeout(700);
    const held = await page.evaluate(() => window.caromPlayer.body('hexagon_box_b'));
    await page.mouse.up();
    expect(start.y - held.y > 1, `the box moved from y ${start.y.toFixed(2)} to ${held.y.toFixed(2)}, dragged 2 m down`);
    expect(await page.locator('#drag-note').isVisible(), 'no note that the run was changed by a drag');
    noProblems(page);
    await page.context().close();
  });

  await test('player: a bad scene file is refused with the loader\'s message', async () => {
    const page = await openPage(browser, server.url + 'player.html', desktop);
    await page.waitForFunction(() => window.caromPlayer && window.caromPlayer.ready);
    const bad = '{"version": 1, "bodies": [{"shapes": [{"type": "circle", "radius": -1}]}]}';
    await page.setInputFiles('#file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
    await page.waitForSelector('#error:not([hidden])');
    const message = await page.locator('#error').textContent();
    expect(/bad\.json/.test(message) && /bodies\[0\]\.shapes\[0\]\.radius/.test(message),
      `the error reads '${message}'`);
    // and a good one by the same way replaces the scene
    await page.setInputFiles('#file', path.join(options.web, 'examples', 'star.json'));
    await page.waitForFunction(() => document.getElementById('scene-name').textContent === 'star.json');
    expect(await page.locator('#error').isHidden(), 'the error stayed after a good file');
    // console errors are not expected even for a refused file: the page reports it itself
    noProblems(page);
    await page.context().close();
  });
} finally {
  await browser.close();
  server.close();
}

writeFileSync(path.join(artifacts, 'browser-tests.json'), JSON.stringify(results, null, 1) + '\n');
const failed = results.filter((result) => !result.ok);
console.log(`browser tests: ${results.length - failed.length} passed, ${failed.length} failed ` +
  `(screenshots in ${path.relative(root, artifacts)}/)`);
process.exit(failed.length ? 1 : 0);
