// carom.wasm against Rapier, planck.js and Matter.js in node, on the same scenes (docs/web.md):
//
//   web/build && (cd web/bench && npm ci) && node web/bench/bench.mjs
//
// The engines are in engines.mjs, the scenes in scenes.mjs and the interleaved measuring and the
// report in measure.mjs, which browser.mjs runs in Chromium too; this is the node runner. Options:
//   --scenes rain:1000,pyramid:20,arena:1000   which scenes, name:size (the default)
//   --steps N                                   steps per scene (default 600, bench-scenes.md's)
//   --sleep off                                 bodies never sleep, in every engine that sleeps
//                                               by default (Matter.js does not)
//   --engines carom,carom-scalar,rapier,planck,matter
//   --json FILE                                 also write every step time
// CAROM_WEB=dir loads carom.mjs from dir instead of build-web/.
import { readFileSync, writeFileSync } from 'node:fs';
import { createEngines } from './engines.mjs';
import { measure, parseOptions, report, sceneLine } from './measure.mjs';

const here = new URL('.', import.meta.url);

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const options = parseOptions(option);
const jsonPath = option('json', null);

const load = {
  carom: async () => {
    const web = new URL(process.env.CAROM_WEB ? `file://${process.env.CAROM_WEB}/` : '../../build-web/', here);
    return (await import(new URL('carom.mjs', web).href)).default;
  },
  rapier: async () => (await import('@dimforge/rapier2d-compat')).default,
  planck: () => import('planck'),
  matter: async () => (await import('matter-js')).default,
  version: (name) => JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, here), 'utf8')).version,
};

const engines = await createEngines(options.engines, load, options.sleep);
const cpuClock = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const results = await measure(engines, options, { cpuClock, onScene: (row) => console.error(sceneLine(row)) });
console.log(report(engines, options, results, `node ${process.versions.node}`));
if (jsonPath) {
  writeFileSync(jsonPath, JSON.stringify({ steps: options.steps, node: process.versions.node,
    engines: engines.map((e) => ({ label: e.label, version: e.version })), results }));
}
