// The benchmark's measuring and report, shared by the node runner (bench.mjs) and the browser
// page (page.mjs); docs/web.md. All engines of a scene are built, then stepped in turn, one step
// each, the order rotating every step, so that whatever else the machine is doing falls on all
// of them alike; the time of each step is taken with performance.now() (a global in node and in
// browsers) and the report gives the median per engine.
import { describe } from './scenes.mjs';
import { engineNames } from './engines.mjs';

// The options both runners take, from `get(name, fallback)` (command line or URL query).
export function parseOptions(get) {
  return {
    scenes: get('scenes', 'rain:1000,pyramid:20,arena:1000').split(',').map((s) => {
      const [name, size] = s.split(':');
      return { name, size: Number(size) };
    }),
    steps: Number(get('steps', '600')),
    engines: get('engines', engineNames.join(',')).split(','),
    sleep: get('sleep', 'on') !== 'off',
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : 0.5 * (sorted[middle - 1] + sorted[middle]);
}

// Bodies whose centre left the walls' inside: a sign that an engine's run went wrong (tunnelling,
// an explosion), which would make its time meaningless.
function escaped(positions, inside) {
  let count = 0;
  for (let i = 0; i < positions.length; i += 2) {
    const [x, y] = [positions[i], positions[i + 1]];
    count += !(x >= inside[0] && y >= inside[1] && x <= inside[2] && y <= inside[3]) ? 1 : 0;
  }
  return count;
}

// Runs every scene on every engine. `cpuClock`, where the runtime has one (node's
// process.cpuUsage), returns the process's CPU time in ms; without it no CPU time is reported.
// `onScene(row)` hears of each finished scene. Returns one row per scene.
export async function measure(engines, options, { cpuClock = null, onScene = () => {} } = {}) {
  const results = [];
  for (const { name, size } of options.scenes) {
    const desc = describe(name, size);
    const worlds = engines.map((engine) => engine.build(desc));
    const times = engines.map(() => []);
    const cpu = engines.map(() => 0);
    for (let step = 0; step < options.steps; ++step) {
      for (let k = 0; k < engines.length; ++k) {
        const e = (step + k) % engines.length; // the order rotates every step
        const cpuBefore = cpuClock ? cpuClock() : 0;
        const before = performance.now();
        worlds[e].step();
        times[e].push(performance.now() - before);
        cpu[e] += cpuClock ? cpuClock() - cpuBefore : 0;
      }
    }
    const row = { scene: `${name}:${size}`, bodies: desc.bodies.length, engines: {} };
    engines.forEach((engine, e) => {
      row.engines[engine.label] = {
        median: median(times[e]), total: times[e].reduce((a, b) => a + b, 0), cpu: cpuClock ? cpu[e] : null,
        escaped: escaped(worlds[e].positions(), desc.inside), times: times[e],
      };
      worlds[e].destroy();
    });
    results.push(row);
    onScene(row);
    await new Promise((resolve) => setTimeout(resolve, 0)); // let a page report its progress
  }
  return results;
}

// One line of progress for a finished scene.
export function sceneLine(row) {
  const medians = Object.entries(row.engines).map(([label, r]) => `${label} ${r.median.toFixed(3)}`);
  return `${row.scene}: median ms per step: ${medians.join(', ')}`;
}

// The markdown report of docs/web.md; `runtime` names what ran it ("node 20.20.2").
export function report(engines, options, results, runtime) {
  const labels = engines.map((engine) => engine.label);
  const caromLabel = labels.includes('carom.wasm') ? 'carom.wasm' : labels[0];
  const peers = labels.filter((l) => !l.startsWith('carom'));
  const lines = [];
  lines.push(`Median ms per step over ${options.steps} steps of 1/60 s, sleeping ` +
    `${options.sleep ? 'at each engine\'s default' : 'off'}, one interleaved run (${runtime}, ` +
    `${engines.map((e) => `${e.label} ${e.version}`).join(', ')}):\n`);
  lines.push(`| scene | bodies | ${labels.join(' | ')} | ${peers.map((p) => `${p} / carom`).join(' | ')} |`);
  lines.push(`|---|--:|${labels.map(() => '--:|').join('')}${peers.map(() => '--:|').join('')}`);
  for (const row of results) {
    const cells = labels.map((l) => {
      const r = row.engines[l];
      return `${r.median.toFixed(3)}${r.escaped ? ` (${r.escaped} escaped)` : ''}`;
    });
    const ratios = peers.map((p) => (row.engines[p].median / row.engines[caromLabel].median).toFixed(2));
    lines.push(`| ${row.scene} | ${row.bodies} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
  }
  if (results.length && results[0].engines[labels[0]].cpu !== null) {
    lines.push(`\nCPU time of the whole run (s): ${results.map((row) =>
      `${row.scene}: ${labels.map((l) => `${l} ${(row.engines[l].cpu / 1000).toFixed(2)}`).join(', ')}`).join('; ')}`);
  }
  return lines.join('\n');
}
