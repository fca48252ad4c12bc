// What the browser tests share: a static server for build-web/ (python3 -m http.server on a free
// port, as docs/web.md serves the pages), Debian's Chromium launched headless through
// playwright-core, pages that fail on any console error, and screenshots kept as artefacts.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// A port nobody listens on now.
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// python3 -m http.server serving `dir`; resolves once it answers.
export async function serve(dir) {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1',
    '--directory', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (data) => { log += data; });
  const url = `http://127.0.0.1:${port}/`;
  for (let attempt = 0; attempt < 100; ++attempt) {
    if (child.exitCode !== null) throw new Error(`http.server exited: ${log}`);
    try {
      const response = await fetch(url);
      if (response.ok) return { url, close: () => child.kill() };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`http.server on port ${port} did not answer: ${log}`);
}

// Chromium as root in a closed network: no sandbox, no GPU, no background connections (which
// this machine refuses, many at a time), a fresh profile.
export async function launch() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`no Chromium at ${chromiumPath}: apt-get install chromium (or set CHROMIUM)`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A page whose console errors, uncaught exceptions and failed requests are collected in
// page.problems (a test asserts it stays empty).
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    page.problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) page.problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(url);
  return page;
}

export function artifactDir(root) {
  const dir = path.join(root, 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}
