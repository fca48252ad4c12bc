// carom.wasm against Rapier, planck.js and Matter.js in node, on the same scenes (docs/web.md):
//
//   web/build && (cd web/bench && npm ci) && node web/bench/bench.mjs
//
// Each engine is used at its documented defaults (solver iterations, sleeping, continuous
// collision), stepping 1/60 s; only the scene's own numbers (bodies, walls, materials, damping,
// gravity) are set. All engines of a scene are built, then stepped in turn, one step each, the
// order rotating every step, so that whatever else the machine is doing falls on all of them
// alike; the time of each step is taken with performance.now() and the table gives the median
// per engine. Options:
//   --scenes rain:1000,pyramid:20,arena:1000   which scenes, name:size (the default)
//   --steps N                                   steps per scene (default 600, bench-scenes.md's)
//   --sleep off                                 bodies never sleep, in every engine that sleeps
//                                               by default (Matter.js does not)
//   --engines carom,carom-scalar,rapier,planck,matter
//   --json FILE                                 also write every step time
import { performance } from 'node:perf_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe } from './scenes.mjs';

const here = new URL('.', import.meta.url);

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const scenes = option('scenes', 'rain:1000,pyramid:20,arena:1000').split(',').map((s) => {
  const [name, size] = s.split(':');
  return { name, size: Number(size) };
});
const steps = Number(option('steps', '600'));
const wanted = option('engines', 'carom,carom-scalar,rapier,planck,matter').split(',');
const jsonPath = option('json', null);
const sleep = option('sleep', 'on') !== 'off';
const DT = 1 / 60;

// The installed version (packages may not export their package.json).
function packageVersion(name) {
  return JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, here), 'utf8')).version;
}

// ---- The engines: build(desc) -> {step(), positions() -> [x, y, ...] of the dynamic bodies} ----

async function caromEngine(simd) {
  const web = new URL(process.env.CAROM_WEB ? `file://${process.env.CAROM_WEB}/` : '../../build-web/', here);
  const { default: loadCarom } = await import(new URL('carom.mjs', web).href);
  const carom = await loadCarom({ simd });
  return {
    label: simd ? 'carom.wasm' : 'carom.wasm (scalar)',
    version: carom.version,
    build(desc) {
      const world = new carom.World({ gravity: desc.gravity, dt: DT, sleep });
      const ground = world.createBody({ type: 'static' });
      for (const w of desc.walls) {
        ground.addBox({ halfExtents: [w.hx, w.hy], center: [w.x, w.y], friction: w.friction });
      }
      for (const b of desc.bodies) {
        const body = world.createBody({
          position: [b.x, b.y], angle: b.angle, linearVelocity: [b.vx, b.vy],
          linearDamping: b.linearDamping, angularDamping: b.angularDamping,
        });
        const material = { density: b.density, friction: b.friction, restitution: b.restitution };
        if (b.shape === 'circle') {
          body.addCircle({ radius: b.radius, ...material });
        } else {
          body.addBox({ halfExtents: [b.hx, b.hy], ...material });
        }
      }
      return {
        step: () => world.step(1),
        positions: () => world.bodies().filter((b) => b.type === 'dynamic').flatMap((b) => [b.x, b.y]),
        destroy: () => world.destroy(),
      };
    },
  };
}

async function rapierEngine() {
  const { default: RAPIER } = await import('@dimforge/rapier2d-compat');
  await RAPIER.init();
  return {
    label: 'Rapier',
    version: packageVersion('@dimforge/rapier2d-compat'),
    build(desc) {
      const world = new RAPIER.World({ x: desc.gravity[0], y: desc.gravity[1] });
      world.timestep = DT;
      const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
      for (const w of desc.walls) {
        world.createCollider(RAPIER.ColliderDesc.cuboid(w.hx, w.hy).setTranslation(w.x, w.y).setFriction(w.friction), ground);
      }
      const bodies = desc.bodies.map((b) => {
        const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(b.x, b.y)
          .setRotation(b.angle).setLinvel(b.vx, b.vy).setLinearDamping(b.linearDamping)
          .setAngularDamping(b.angularDamping).setCanSleep(sleep));
        const shape = b.shape === 'circle' ? RAPIER.ColliderDesc.ball(b.radius) : RAPIER.ColliderDesc.cuboid(b.hx, b.hy);
        world.createCollider(shape.setDensity(b.density).setFriction(b.friction).setRestitution(b.restitution), body);
        return body;
      });
      return {
        step: () => world.step(),
        positions: () => bodies.flatMap((b) => { const t = b.translation(); return [t.x, t.y]; }),
        destroy: () => world.free(),
      };
    },
  };
}

async function planckEngine() {
  const planck = await import('planck');
  return {
    label: 'planck.js',
    version: packageVersion('planck'),
    build(desc) {
      const world = new planck.World({ gravity: { x: desc.gravity[0], y: desc.gravity[1] }, allowSleep: sleep });
      const ground = world.createBody();
      for (const w of desc.walls) {
        ground.createFixture(new planck.Box(w.hx, w.hy, { x: w.x, y: w.y }, 0), { friction: w.friction });
      }
      const bodies = desc.bodies.map((b) => {
        const body = world.createBody({
          type: 'dynamic', position: { x: b.x, y: b.y }, angle: b.angle, linearVelocity: { x: b.vx, y: b.vy },
          linearDamping: b.linearDamping, angularDamping: b.angularDamping,
        });
        const shape = b.shape === 'circle' ? new planck.Circle(b.radius) : new planck.Box(b.hx, b.hy);
        body.createFixture(shape, { density: b.density, friction: b.friction, restitution: b.restitution });
        return body;
      });
      return {
        step: () => world.step(DT),
        positions: () => bodies.flatMap((b) => { const p = b.getPosition(); return [p.x, p.y]; }),
        destroy: () => {},
      };
    },
  };
}

// Matter.js works in pixels with y down, and its defaults are tuned for sizes of tens of pixels:
// the scenes go in at 50 px per metre, y flipped, with gravity scaled to 10 m/s². Its damping
// (frictionAir) is per step of 1000/60 ms.
async function matterEngine() {
  const { default: Matter } = await import('matter-js');
  const S = 50;
  return {
    label: 'Matter.js',
    version: packageVersion('matter-js'),
    build(desc) {
      const engine = Matter.Engine.create();
      // acceleration = gravity.y * gravity.scale px/ms²; 10 m/s² is 10 * S px/s².
      engine.gravity.x = (desc.gravity[0] * S * 1e-6) / engine.gravity.scale;
      engine.gravity.y = (-desc.gravity[1] * S * 1e-6) / engine.gravity.scale;
      const walls = desc.walls.map((w) => Matter.Bodies.rectangle(w.x * S, -w.y * S, 2 * w.hx * S, 2 * w.hy * S,
        { isStatic: true, friction: w.friction }));
      const bodies = desc.bodies.map((b) => {
        const options = { angle: -b.angle, friction: b.friction, restitution: b.restitution, frictionAir: b.linearDamping * DT };
        const body = b.shape === 'circle' ? Matter.Bodies.circle(b.x * S, -b.y * S, b.radius * S, options)
          : Matter.Bodies.rectangle(b.x * S, -b.y * S, 2 * b.hx * S, 2 * b.hy * S, options);
        Matter.Body.setVelocity(body, { x: b.vx * S * DT, y: -b.vy * S * DT });
        return body;
      });
      Matter.Composite.add(engine.world, [...walls, ...bodies]);
      return {
        step: () => Matter.Engine.update(engine, 1000 * DT),
        positions: () => bodies.flatMap((b) => [b.position.x / S, -b.position.y / S]),
        destroy: () => Matter.Engine.clear(engine),
      };
    },
  };
}

const makers = {
  carom: () => caromEngine(true), 'carom-scalar': () => caromEngine(false), rapier: rapierEngine,
  planck: planckEngine, matter: matterEngine,
};
const engines = [];
for (const name of wanted) {
  if (!makers[name]) {
    throw new Error(`unknown engine '${name}': ${Object.keys(makers).join(', ')}`);
  }
  engines.push(await makers[name]());
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

const results = [];
for (const { name, size } of scenes) {
  const desc = describe(name, size);
  const worlds = engines.map((engine) => engine.build(desc));
  const times = engines.map(() => []);
  const cpu = engines.map(() => 0);
  for (let step = 0; step < steps; ++step) {
    for (let k = 0; k < engines.length; ++k) {
      const e = (step + k) % engines.length; // the order rotates every step
      const cpuBefore = process.cpuUsage();
      const before = performance.now();
      worlds[e].step();
      times[e].push(performance.now() - before);
      const used = process.cpuUsage(cpuBefore);
      cpu[e] += (used.user + used.system) / 1000;
    }
  }
  const row = { scene: `${name}:${size}`, bodies: desc.bodies.length, engines: {} };
  engines.forEach((engine, e) => {
    row.engines[engine.label] = {
      median: median(times[e]), total: times[e].reduce((a, b) => a + b, 0), cpu: cpu[e],
      escaped: escaped(worlds[e].positions(), desc.inside), times: times[e],
    };
    worlds[e].destroy();
  });
  results.push(row);
  const line = engines.map((engine) => `${engine.label} ${row.engines[engine.label].median.toFixed(3)}`).join(', ');
  console.error(`${row.scene}: median ms per step: ${line}`);
}

// ---- The report ----
const labels = engines.map((engine) => engine.label);
const caromLabel = labels.includes('carom.wasm') ? 'carom.wasm' : labels[0];
const peers = labels.filter((l) => !l.startsWith('carom'));
console.log(`Median ms per step over ${steps} steps of 1/60 s, sleeping ${sleep ? 'at each engine\'s default' : 'off'}, ` +
  `one interleaved run (node ${process.versions.node}, ` +
  `${engines.map((e) => `${e.label} ${e.version}`).join(', ')}):\n`);
console.log(`| scene | bodies | ${labels.join(' | ')} | ${peers.map((p) => `${p} / carom`).join(' | ')} |`);
console.log(`|---|--:|${labels.map(() => '--:|').join('')}${peers.map(() => '--:|').join('')}`);
for (const row of results) {
  const cells = labels.map((l) => {
    const r = row.engines[l];
    return `${r.median.toFixed(3)}${r.escaped ? ` (${r.escaped} escaped)` : ''}`;
  });
  const ratios = peers.map((p) => (row.engines[p].median / row.engines[caromLabel].median).toFixed(2));
  console.log(`| ${row.scene} | ${row.bodies} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
}
console.log(`\nCPU time of the whole run (s): ${results.map((row) =>
  `${row.scene}: ${labels.map((l) => `${l} ${(row.engines[l].cpu / 1000).toFixed(2)}`).join(', ')}`).join('; ')}`);
if (jsonPath) {
  writeFileSync(jsonPath, JSON.stringify({ steps, node: process.versions.node, engines: engines.map((e) => ({ label: e.label, version: e.version })), results }));
}
