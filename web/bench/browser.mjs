// The benchmark in Chromium (docs/web.md): serves the repository root with python3 -m http.server,
// opens web/bench/browser.html in Debian's Chromium, headless through playwright-core (as the
// browser tests do, web/tests/browser/harness.mjs), waits for the page's results and prints the
// same markdown table as bench.mjs:
//
//   web/build && (cd web/bench && npm ci) && (cd web/tests/browser && npm ci)
//   node web/bench/browser.mjs [--scenes ...] [--steps N] [--sleep off] [--engines ...] [--json FILE]
//
// The options are bench.mjs's, passed to the page as query parameters. The responses get the
// headers that make the page cross-origin isolated (COOP/COEP), so that Chromium's
// performance.now() steps by 5 µs rather than 100 µs with jitter: the smaller steps of carom and
// Rapier take tens of µs. CHROMIUM=path picks another Chromium.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launch, serve } from '../tests/browser/harness.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

function option(name) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : null;
}

const query = new URLSearchParams();
for (const name of ['scenes', 'steps', 'sleep', 'engines']) {
  if (option(name) !== null) query.set(name, option(name));
}
const jsonPath = option('json');

const server = await serve(root);
const browser = await launch();
try {
  const context = await browser.newContext();
  await context.route('**/*', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(),
      'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } });
  });
  const page = await context.newPage();
  page.on('console', (message) => console.error(message.text()));
  // A file that did not load or an uncaught error can keep the page from ever reporting (a
  // module that fails to import never runs): either ends the wait.
  const broken = new Promise((resolve, reject) => {
    page.on('pageerror', (error) => reject(new Error(`uncaught in the page: ${error.message}`)));
    page.on('response', (response) => {
      if (response.status() >= 400) reject(new Error(`HTTP ${response.status()}: ${response.url()}`));
    });
    page.on('requestfailed', (request) => reject(new Error(`request failed: ${request.url()}`)));
  });
  await page.goto(`${server.url}web/bench/browser.html?${query}`);
  await Promise.race([broken,
    page.waitForFunction(() => window.benchResult, null, { timeout: 0, polling: 1000 })]);
  const result = await page.evaluate(() => window.benchResult);
  if (result.error) {
    throw new Error(`the page failed: ${result.error}`);
  }
  console.log(result.report);
  if (jsonPath) {
    writeFileSync(jsonPath, JSON.stringify({ runtime: result.runtime, chromium: browser.version(), results: result.results }));
  }
} finally {
  await browser.close();
  server.close();
}
