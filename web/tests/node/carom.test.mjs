// The WebAssembly package against the native command line (docs/web.md): same hashes, same state
// files, same messages, snapshots that cross between the two. Both builds (SIMD and scalar) are
// checked. Run from the repository root after web/build and the native build:
//
//   node --test web/tests/node/
//
// CAROM_CLI names the native `carom` (default build/tools/carom), CAROM_WEB the package folder
// (default build-web).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(new URL('../../..', import.meta.url).pathname);
const cli = resolve(root, process.env.CAROM_CLI ?? 'build/tools/carom');
const web = resolve(root, process.env.CAROM_WEB ?? 'build-web');
const { default: loadCarom, CaromError } = await import(pathToFileURL(join(web, 'carom.mjs')).href);
const builds = { simd: await loadCarom({ simd: true }), scalar: await loadCarom({ simd: false }) };
const scratch = mkdtempSync(join(tmpdir(), 'carom-web-test-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

function native(...args) {
  return execFileSync(cli, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
}

function nativeHash(...args) {
  return native(...args, '--hash', '--quiet').trim().replace(/^hash: /, '');
}

// Every scene of scenes/ and scenes/box2d/ (docs/cli.md, scenes/box2d/README.md).
const sceneFiles = ['scenes', 'scenes/box2d'].flatMap((folder) =>
  readdirSync(join(root, folder)).filter((f) => f.endsWith('.json')).sort().map((f) => `${folder}/${f}`));
const STEPS = 100;

test('version and builds', () => {
  assert.equal(builds.simd.simd, true);
  assert.equal(builds.scalar.simd, false);
  assert.equal(builds.simd.version, native('--version').trim().replace(/^carom /, ''));
});

for (const file of sceneFiles) {
  test(`${file}: ${STEPS} steps give the native hash and state file`, () => {
    const out = join(scratch, 'state.json');
    const expected = nativeHash('run', file, '--steps', String(STEPS), '--out', out);
    const state = readFileSync(out, 'utf8');
    const text = readFileSync(join(root, file), 'utf8');
    for (const [name, carom] of Object.entries(builds)) {
      const result = carom.runScene(text, STEPS);
      assert.equal(result.hash, expected, `${name} build`);
      assert.equal(result.state, state, `${name} build: state file`);
    }
  });
}

test('hash and stepCount step by step equal the native runs', () => {
  const text = readFileSync(join(root, 'scenes/billiards.json'), 'utf8');
  const world = builds.simd.loadScene(text);
  for (const steps of [0, 1, 7, 60]) {
    world.step(steps - world.stepCount);
    assert.equal(world.stepCount, steps);
    assert.equal(world.time, steps * world.dt);
    assert.equal(world.hash(), nativeHash('run', 'scenes/billiards.json', '--steps', String(steps)));
  }
  world.destroy();
});

// The bad scene of docs/cli.md: every problem, in the native loader's words.
const badScene = `{
  "world": {"dt": 0},
  "bodies": [
    {"name": "ball", "shapes": [{"type": "circle", "radius": -0.5}]},
    {"name": "ball", "colour": "red",
     "shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0], [2, 0]]}]},
    {"name": "crate", "position": [0, 1e400], "shapes": [{"type": "box", "half_extents": [1]}]}
  ]
}
`;

function nativeErrors(text) {
  const path = join(scratch, 'bad.json');
  writeFileSync(path, text);
  const run = spawnSync(cli, ['run', path], { encoding: 'utf8' });
  assert.equal(run.status, 2);
  return run.stderr.trimEnd().split('\n').map((line) => line.replace(path, 'bad.json'));
}

test('a bad scene throws CaromError with the native messages and JSON paths', () => {
  for (const carom of Object.values(builds)) {
    assert.throws(() => carom.loadScene(badScene, { name: 'bad.json' }), (error) => {
      assert.ok(error instanceof CaromError);
      assert.deepEqual(error.lines, nativeErrors(badScene));
      assert.match(error.message, /bodies\[0\]\.shapes\[0\]\.radius: must be > 0, got -0\.5/);
      return true;
    });
  }
});

test('warnings are kept on the world, as the native loader words them', () => {
  const text = '{"bodies": [{"name": "a", "colour": "red", "shapes": [{"type": "circle", "radius": 1}]}]}';
  const path = join(scratch, 'warn.json');
  writeFileSync(path, text);
  const run = spawnSync(cli, ['run', path], { encoding: 'utf8' });
  assert.equal(run.status, 0);
  const world = builds.simd.loadScene(text, { name: 'warn.json' });
  assert.deepEqual(world.warnings, run.stderr.trimEnd().split('\n').map((l) => l.replace(path, 'warn.json')));
  assert.match(world.warnings[0], /bodies\[0\]\.colour: warning: unknown key/);
  world.destroy();
});

test('texts that are not scenes are refused as natively', () => {
  const texts = ['', '   ', '[1, 2]', '{"bodies": [}', '{"bodies": [],}', '{"bodies": [1,]}',
    '{"bodies": []} x', '{"bodies": [{"position": [NaN, 0]}]}', '{"bodies": "none"}', '{"bodies": [{"shapes": []}]',
    '{"bodies": [{"name": "\\u00e9t\\u00e9", "shapes": [{"type": "circle", "radius": -1}], "x": 1}]}',
    // cJSON's leniencies, which the package's reader keeps: these load natively, so a bad key
    // after them is what is reported.
    '{"bodies": [{"position": [01, 1.], "shapes": [{"type": "circle", "radius": 1.e0}], "bad": 1, "type": 7}]}',
    '\f{"bodies":\v[{"name": "tab\there", "type": 1, "shapes": []}]}', '\ufeff{"bodies": 5}',
    '{"bodies": [1-2]}', '{"bodies": [-]}', '{"bodies": [+1]}', '{"bodies": [.5]}', '{"bodies": [0x10]}',
    '{"bodies": [1e]}', '{"bodies": ["\\ud800"]}', '{"bodies": ["\\x"]}', '{"bodies": [tru]}',
    '{"bodies": ["open', '{"bodies": [{"name": "a\\u12"}]}'];
  for (const text of texts) {
    const expected = nativeErrors(text);
    assert.throws(() => builds.simd.loadScene(text, { name: 'bad.json' }), (error) => {
      assert.deepEqual(error.lines, expected, JSON.stringify(text));
      return true;
    });
  }
});

test('the builder refuses bad input with the engine\'s message', () => {
  const world = new builds.simd.World();
  const body = world.createBody();
  assert.throws(() => body.addCircle({ radius: -1 }), CaromError);
  assert.throws(() => body.addPolygon({ points: [[0, 0], [1, 0], [2, 0]] }), /collinear|polygon/i);
  assert.throws(() => world.createBody({ type: 'floating' }), /static/);
  assert.throws(() => new builds.simd.World({ dt: 0 }), /dt/);
  assert.throws(() => new builds.simd.World({ substeps: 2.5 }), /substeps: must be a whole number/);
  assert.throws(() => body.addCircle({ radius: 1, category: -1 }), /category: must be a whole number/);
  assert.throws(() => body.addBox({ halfExtents: [1, 1], group: 2 ** 31 }), /group/);
  world.destroy();
  assert.throws(() => world.step(), /destroyed/);
});

test('snapshots: save and restore continue the run bit for bit, in both directions', () => {
  const file = 'scenes/arena.json';
  const text = readFileSync(join(root, file), 'utf8');
  const straight = nativeHash('run', file, '--steps', '80');
  for (const carom of Object.values(builds)) {
    const world = carom.loadScene(text);
    world.step(30);
    const bytes = world.save();
    const restored = carom.restore(bytes);
    assert.equal(restored.stepCount, 30);
    assert.equal(restored.hash(), world.hash());
    restored.step(50);
    assert.equal(restored.hash(), straight);
    // The package's snapshot is a `carom run --save` file: `carom resume` continues it.
    const saved = join(scratch, 'web.snap');
    writeFileSync(saved, bytes);
    assert.equal(nativeHash('resume', saved, '--steps', '50'), straight);
    world.destroy();
    restored.destroy();
  }
  // And a native snapshot file resumes in the package.
  const nativeSnap = join(scratch, 'native.snap');
  native('run', file, '--steps', '30', '--save', nativeSnap, '--quiet');
  const resumed = builds.scalar.restore(readFileSync(nativeSnap));
  resumed.step(50);
  assert.equal(resumed.hash(), straight);
});

test('builder worlds: save and restore round-trip', () => {
  const carom = builds.simd;
  const world = new carom.World({ gravity: [0, -10] });
  world.createBody({ type: 'static' }).addBox({ halfExtents: [10, 0.5], center: [0, -0.5] });
  for (let i = 0; i < 10; ++i) {
    world.createBody({ position: [i * 0.3 - 1.5, 1 + i] }).addBox({ halfExtents: [0.25, 0.25] });
  }
  world.step(40);
  const copy = carom.restore(world.save());
  assert.deepEqual(copy.bodies().map((b) => [b.x, b.y, b.angle]), world.bodies().map((b) => [b.x, b.y, b.angle]));
  world.step(40);
  copy.step(40);
  assert.equal(copy.hash(), world.hash());
  assert.throws(() => carom.restore(new Uint8Array([1, 2, 3])), CaromError);
});

// The determinism program's unscripted scenes (tests/determinism/determinism.c): restored from
// the reference build's step-100 snapshot and run to step 1000, the hash is golden.txt's.
const golden = new Map(readFileSync(join(root, 'tests/determinism/golden.txt'), 'utf8').split('\n')
  .filter((line) => line && !line.startsWith('#')).map((line) => {
    const [scene, label, hash] = line.split(' ');
    return [`${scene} ${label}`, hash];
  }));

for (const scene of ['rain_1000', 'pyramid_20', 'arena_1000', 'stack_10', 'billiards', 'capsules']) {
  test(`determinism scene ${scene}: the snapshot restores and runs to golden.txt's hash`, () => {
    const bytes = readFileSync(join(root, `tests/determinism/snapshots/${scene}.snap`));
    for (const [name, carom] of Object.entries(builds)) {
      const world = carom.restore(bytes);
      assert.deepEqual(Buffer.from(world.save()), bytes, `${name}: saved again, the same bytes`);
      assert.equal(world.bodiesHash(), golden.get(`${scene} 100`), `${name}: step 100`);
      world.dt = 1 / 60;
      world.step(900);
      assert.equal(world.bodiesHash(), golden.get(`${scene} resumed1000`), `${name}: step 1000`);
      world.destroy();
    }
  });
}

test('draw data, queries, dragging and events', () => {
  const carom = builds.simd;
  const world = carom.loadScene(readFileSync(join(root, 'scenes/joints.json'), 'utf8'));
  const shapes = world.shapes();
  assert.ok(shapes.length >= world.bodies().length);
  for (const shape of shapes) {
    assert.ok(['circle', 'polygon', 'segment', 'capsule'].includes(shape.kind));
    assert.ok(shape.points.length >= 2 && shape.points.every(Number.isFinite));
  }
  assert.ok(world.joints().length > 0);
  // The middle of a dynamic body's solid shape is inside it. Queries find shapes from the first
  // step on (the engine places them in its broad phase then).
  world.step();
  const types = world.bodies().map((b) => b.type);
  const solid = shapes.find((s) => types[s.body] === 'dynamic' && !s.sensor && s.kind !== 'segment');
  const n = solid.points.length / 2;
  const middle = [0, 1].map((k) => solid.points.filter((_, i) => i % 2 === k).reduce((a, b) => a + b) / n);
  assert.notEqual(world.bodyAt(...middle), null);
  assert.equal(world.bodyAt(1e6, 1e6), null);
  world.destroy();

  // Capsules come as their two centres and radius, placed by the body's pose.
  const capsules = carom.loadScene(readFileSync(join(root, 'scenes/capsules.json'), 'utf8'));
  capsules.step(30);
  const bodies = capsules.bodies();
  const drawn = capsules.shapes().filter((shape) => shape.kind === 'capsule');
  assert.ok(drawn.length > 0);
  for (const shape of drawn) {
    const b = bodies[shape.body];
    assert.equal(shape.points.length, 4);
    assert.ok(shape.radius > 0 && shape.x === b.x && shape.y === b.y && shape.angle === b.angle);
  }
  capsules.destroy();

  // A ball dropped on a box: the ray finds the box, the landing makes begin and hit events, and
  // a drag lifts the ball.
  const w = new carom.World();
  const ground = w.createBody({ type: 'static' }).addBox({ halfExtents: [5, 0.5], center: [0, -0.5] });
  const ball = w.createBody({ position: [0, 2] }).addCircle({ radius: 0.5, hitEvents: true });
  w.step();
  const hit = w.rayCast([3, 5], [3, -5]);
  assert.equal(hit.body, ground.id);
  assert.ok(Math.abs(hit.point[1]) < 1e-12 && hit.normal[1] === 1);
  const seen = new Set();
  for (let i = 0; i < 59; ++i) {
    w.step();
    for (const event of w.events()) {
      seen.add(event.type);
      assert.deepEqual([event.bodyA, event.bodyB].sort(), [ground.id, ball.id]);
    }
  }
  assert.ok(seen.has('begin') && seen.has('hit'));
  // Contact events per shape: a ball that asks for none, on a ground that asks for none, lands
  // without a begin event; the ground's own default would have reported it.
  const quiet = new carom.World();
  quiet.createBody({ type: 'static' })
    .addBox({ halfExtents: [5, 0.5], center: [0, -0.5], contactEvents: false });
  const silent = quiet.createBody({ position: [0, 2] })
    .addCircle({ radius: 0.5, contactEvents: false });
  const heard = quiet.createBody({ position: [3, 2] }).addCircle({ radius: 0.5 });
  const begun = [];
  for (let i = 0; i < 60; ++i) {
    quiet.step();
    for (const event of quiet.events()) {
      begun.push(event.bodyA === heard.id || event.bodyB === heard.id ? 'heard' : 'silent');
    }
  }
  assert.ok(begun.includes('heard'));
  assert.ok(!begun.includes('silent'));
  assert.ok(Math.abs(quiet.bodies()[silent.id].y - 0.5) < 0.01);
  quiet.destroy();
  const resting = w.bodies()[ball.id];
  assert.ok(Math.abs(resting.y - 0.5) < 0.01);
  w.dragStart(ball.id, resting.x, resting.y);
  w.dragMove(0, 3);
  assert.equal(w.joints()[0].kind, 'mouse');
  w.step(60);
  assert.ok(Math.abs(w.bodies()[ball.id].y - 3) < 0.1);
  w.dragEnd();
  assert.equal(w.joints().length, 0);
  w.destroy();
});

test('overlap queries find the bodies the geometry says', () => {
  const carom = builds.simd;
  const w = new carom.World({ gravity: [0, 0] });
  const wall = w.createBody({ type: 'static' }).addBox({ halfExtents: [1, 1], center: [5, 0] });
  const twoPart = w.createBody({ type: 'static' });
  twoPart.addCircle({ radius: 0.5, center: [0, 3] }).addCircle({ radius: 0.5, center: [0.5, 3] });
  const sensor = w.createBody({ type: 'static' }).addCircle({ radius: 1, center: [-5, 0], sensor: true });
  // the box spans x 4..6, y -1..1; the two circles of one body overlap around (0.25, 3)
  assert.deepEqual(w.overlapPoint([5, 0.5]), [wall.id]);
  assert.deepEqual(w.overlapPoint([3.9, 0]), []);
  assert.deepEqual(w.overlapPoint([0.25, 3]), [twoPart.id]);         // once, though two shapes
  assert.deepEqual(w.overlapPoint([-5, 0.5]), [sensor.id]);           // sensors are reported
  assert.deepEqual(w.overlapAABB([-6, -1], [4.5, 4]), [wall.id, twoPart.id, sensor.id]);
  assert.deepEqual(w.overlapShape({ center: [3.499, 0], radius: 0.5 }), []); // 1 mm clear
  assert.deepEqual(w.overlapShape({ center: [3.501, 0], radius: 0.5 }), [wall.id]);
  assert.deepEqual(w.overlapShape({ center: [2.5, 0], halfExtents: [2, 0.1] }), [wall.id]);
  assert.deepEqual(w.overlapShape({ center: [2.5, 0], halfExtents: [2, 0.1], angle: Math.PI / 2 }), []);
  assert.throws(() => w.overlapPoint([NaN, 0]), carom.CaromError);
  assert.throws(() => w.overlapShape({ center: [0, 0] }), /radius/);
  assert.throws(() => w.overlapShape({ center: [0, 0], halfExtents: [-1, 1] }), carom.CaromError);
  w.destroy();
});
