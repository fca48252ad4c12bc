// The browser runner of the benchmark (browser.html; docs/web.md): the same engines, scenes and
// measuring as bench.mjs, with the libraries loaded from build-web/ and web/bench/node_modules by
// relative paths. When done it sets window.benchResult = { report, runtime, results } (or
// { error }) for browser.mjs to read.
import { createEngines } from './engines.mjs';
import { measure, parseOptions, report, sceneLine } from './measure.mjs';

const log = document.getElementById('log');
const lines = [];
function show(line) {
  lines.push(line);
  console.log(line); // browser.mjs passes these on as progress
  log.textContent = lines.join('\n');
}

// matter-js ships only a UMD build, which sets window.Matter when loaded as a classic script.
function classicScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

const load = {
  carom: async () => (await import('../../build-web/carom.mjs')).default,
  // The -compat build inlines its wasm as base64, so it needs no server-side wasm path.
  rapier: async () => (await import('./node_modules/@dimforge/rapier2d-compat/dist/rapier.mjs')).default,
  planck: () => import('./node_modules/planck/dist/planck.mjs'),
  matter: async () => {
    await classicScript('./node_modules/matter-js/build/matter.js');
    return window.Matter;
  },
  version: async (name) => (await (await fetch(`./node_modules/${name}/package.json`)).json()).version,
};

// The smallest step of performance.now(): browsers coarsen it (Chromium to 100 µs with jitter
// unless the page is cross-origin isolated, then 5 µs), which bounds what a median can resolve.
function timerStep() {
  let smallest = Infinity;
  for (let i = 0; i < 1000; ++i) {
    const start = performance.now();
    let now = start;
    while (now === start) now = performance.now();
    smallest = Math.min(smallest, now - start);
  }
  return smallest;
}

// The browser and its full version: the user agent string gives only the major version
// (156.0.0.0), the user agent client hints give all of it where the browser has them.
async function browserName() {
  const brands = navigator.userAgentData
    ? (await navigator.userAgentData.getHighEntropyValues(['fullVersionList'])).fullVersionList : [];
  const chromium = brands.find((b) => b.brand === 'Chromium');
  if (chromium) return `Chromium ${chromium.version}`;
  const chrome = navigator.userAgent.match(/Chrome\/([\d.]+)/);
  return chrome ? `Chromium ${chrome[1]}` : navigator.userAgent;
}

async function runtimeName() {
  const browser = await browserName();
  return `${browser}, performance.now() step ${(timerStep() * 1000).toFixed(1)} µs` +
    `${self.crossOriginIsolated ? ', cross-origin isolated' : ''}`;
}

try {
  const query = new URLSearchParams(location.search);
  const options = parseOptions((name, fallback) => query.get(name) ?? fallback);
  const runtime = await runtimeName();
  show(`${runtime}; ${options.steps} steps per scene`);
  const engines = await createEngines(options.engines, load, options.sleep);
  const results = await measure(engines, options, { onScene: (row) => show(sceneLine(row)) });
  const text = report(engines, options, results, runtime);
  show(`\n${text}`);
  window.benchResult = { report: text, runtime, results };
} catch (error) {
  show(`failed: ${error.stack || error}`);
  window.benchResult = { error: String(error.stack || error) };
}
