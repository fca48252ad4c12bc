// The README's pictures of the pages, docs/images/web-racing.png and web-player.png, taken in
// Debian's Chromium as the browser tests take theirs (harness.mjs), after web/build:
//
//   node web/tests/browser/screenshots.mjs [--web build-web] [--out docs/images]
//
// Unlike the rest of docs/images/, they are screenshots of a browser, whose text and
// antialiasing differ between Chromium versions, so they are not compared byte for byte
// (tests/check_images.py leaves web-*.png out).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, launch, openPage } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const options = { web: 'build-web', out: 'docs/images' };
for (let i = 2; i + 1 < process.argv.length; i += 2) options[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

const server = await serve(path.resolve(root, options.web));
const browser = await launch();
const size = { viewport: { width: 1280, height: 720 } };
try {
  // The start, 4 s in, the white car (yours) on full throttle among the AI cars.
  const racing = await openPage(browser, server.url + 'racing.html', size);
  await racing.waitForFunction(() => window.caromRacing && window.caromRacing.phase === 'countdown');
  await racing.keyboard.down('ArrowUp');
  await racing.evaluate(() => window.caromRacing.fastForward(240));
  await racing.keyboard.press('KeyP');  // pause there
  await racing.keyboard.up('ArrowUp');
  await racing.evaluate(() => { document.getElementById('countdown').style.visibility = 'hidden'; });
  await racing.waitForTimeout(1500);    // the camera eases onto the white car
  await racing.screenshot({ path: path.resolve(root, options.out, 'web-racing.png') });

  // The SAT example 60 steps in: the boxes falling onto the plank.
  const player = await openPage(browser, server.url + 'player.html?example=sat_boxes', size);
  await player.waitForFunction(() => window.caromPlayer && window.caromPlayer.ready);
  await player.fill('#run-to', '75');
  await player.click('#run');
  await player.waitForTimeout(300);
  await player.screenshot({ path: path.resolve(root, options.out, 'web-player.png') });
  for (const page of [racing, player]) {
    if (page.problems.length) throw new Error(page.problems.join('; '));
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`wrote ${options.out}/web-racing.png and web-player.png`);
