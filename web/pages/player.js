// The scene player: a scene file (docs/cli.md) loaded into carom.mjs, drawn, stepped at its own
// dt (play, pause, single step, speed), bodies dragged with a mouse joint, the step time and the
// state hash shown. The hash after N steps is `carom run SCENE --steps N --hash`'s.
import loadCarom from './carom.mjs';
import { View, fitCanvas, canvasPoint, drawShape, drawJoints, drawGrid, bodyColors, dynamicColors } from './draw.js';

// The seed scenarios (scenes/seeds/, demos/seeds/) and the billiard break.
const EXAMPLES = [
  { id: 'sat_boxes', title: 'SAT on rotated boxes', steps: 240,
    note: 'two pairs apart, two overlapping pushed apart; boxes falling on a plank' },
  { id: 'mtd', title: 'MTD push-out', steps: 120,
    note: 'overlapping polygons pushed out along the least overlap' },
  { id: 'star', title: 'Star against heptagon', steps: 300,
    note: 'a concave star as five convex kites; a heptagon rests in its notch' },
  { id: 'billiards', title: 'Billiard break', steps: 600,
    note: 'sixteen balls, restitution, no gravity, dt 1/120' },
];

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const ctx = canvas.getContext('2d');
const view = new View([0, 0], 40);

const player = {
  carom: null,
  world: null,
  sceneText: null,     // kept for reset
  sceneName: '',
  playing: false,
  speed: 1,
  accumulator: 0,
  lastFrame: 0,
  stepTimes: [],       // ms of the last steps, for the median shown
  drag: null,          // {id} while a body is dragged, {pan: [x, y]} while the view is panned
  dragged: false,      // a drag changed this run
  fitted: false,       // the view was fitted to the scene
  bodyInfo: new Map(), // body id -> record of world.bodies()
};

// ---- Loading ----

function showError(message) {
  const box = $('error');
  box.hidden = !message;
  box.textContent = message || '';
}

function loadScene(text, name) {
  let world;
  try {
    world = player.carom.loadScene(text);
  } catch (error) {
    // CaromError: the loader's messages (docs/cli.md, "Bad input"); the current scene stays
    showError(`${name}: ${error.message}`);
    return false;
  }
  showError('');
  if (player.world) player.world.destroy();
  player.world = world;
  player.sceneText = text;
  player.sceneName = name;
  player.accumulator = 0;
  player.stepTimes = [];
  player.drag = null;
  player.dragged = false;
  player.fitted = false;
  $('scene-name').textContent = name;
  $('drag-note').hidden = true;
  refreshBodies();
  updateStats();
  return true;
}

async function loadExample(example) {
  const response = await fetch(`examples/${example.id}.json`);
  if (!response.ok) {
    showError(`examples/${example.id}.json: HTTP ${response.status}`);
    return;
  }
  if (loadScene(await response.text(), example.id + '.json')) {
    $('run-to').value = example.steps;
    for (const button of document.querySelectorAll('#examples button')) {
      button.classList.toggle('current', button.dataset.example === example.id);
    }
  }
}

async function loadFile(file) {
  if (!file) return;
  const text = await file.text();
  if (loadScene(text, file.name)) {
    for (const button of document.querySelectorAll('#examples button')) button.classList.remove('current');
  }
}

function refreshBodies() {
  player.bodyInfo = new Map(player.world.bodies().map((body) => [body.id, body]));
}

// ---- Stepping ----

// The step time is measured over batches: the browser's clock is too coarse (0.1 ms in some) for
// one step of a small scene. stepTimes holds [ms, steps] of the last batches.
function stepWorld(n) {
  if (n <= 0) return;
  const t0 = performance.now();
  player.world.step(n);
  player.stepTimes.push([performance.now() - t0, n]);
  if (player.stepTimes.length > 120) player.stepTimes.shift();
}

function setPlaying(playing) {
  player.playing = playing;
  player.accumulator = 0;
  $('play').textContent = playing ? '❚❚ pause' : '▶ play';
}

// Step until the world has taken `target` steps (from the start, resetting when past it).
function runTo(target) {
  if (!player.world || !(target >= 0)) return;
  if (player.world.stepCount > target) reset();
  setPlaying(false);
  stepWorld(target - player.world.stepCount);
  updateStats();
}

function reset() {
  if (player.sceneText !== null) loadScene(player.sceneText, player.sceneName);
}

// ---- Drawing ----

function sceneBox(shapes) {
  let box = [Infinity, Infinity, -Infinity, -Infinity];
  const grow = (x, y, r = 0) => {
    box = [Math.min(box[0], x - r), Math.min(box[1], y - r), Math.max(box[2], x + r), Math.max(box[3], y + r)];
  };
  for (const shape of shapes) {
    if (shape.kind === 'circle') grow(shape.x, shape.y, shape.radius);
    for (let i = 0; i + 1 < shape.points.length; i += 2) grow(shape.points[i], shape.points[i + 1], shape.radius || 0);
  }
  return Number.isFinite(box[0]) ? box : [-5, -5, 5, 5];
}

function draw() {
  fitCanvas(canvas, view);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#1b2026';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (!player.world) return;
  const shapes = player.world.shapes();
  if (!player.fitted) {
    view.fit(sceneBox(shapes), 0.06);
    player.fitted = true;
  }
  view.apply(ctx);
  drawGrid(ctx, view);
  const bodies = new Map(player.world.bodies().map((body) => [body.id, body]));
  player.bodyInfo = bodies;
  for (const shape of shapes) {
    const body = bodies.get(shape.body);
    let color = bodyColors[body ? body.type : 'static'];
    if (body && body.type === 'dynamic') color = dynamicColors[body.id % dynamicColors.length];
    if (player.drag && player.drag.id === shape.body) color = bodyColors.selected;
    // a sleeping body is drawn faint
    const asleep = body && body.type === 'dynamic' && !body.awake;
    drawShape(ctx, view, shape, color + (asleep ? '55' : 'cc'), color, 1.5 * (window.devicePixelRatio || 1));
  }
  drawJoints(ctx, view, player.world.joints());
  if (player.drag && player.drag.target) {
    const [x, y] = player.drag.target;
    ctx.fillStyle = bodyColors.selected;
    ctx.beginPath();
    ctx.arc(x, y, 4 / view.scale, 0, 2 * Math.PI);
    ctx.fill();
  }
}

// Mean ms per step over the recorded batches, or NaN before the first step.
function meanStepTime() {
  let ms = 0, steps = 0;
  for (const [time, count] of player.stepTimes) {
    ms += time;
    steps += count;
  }
  return steps ? ms / steps : NaN;
}

function formatStepTime(ms) {
  if (Number.isNaN(ms)) return '–';
  return ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(3)} ms`;
}

function updateStats() {
  const world = player.world;
  if (!world) return;
  $('step-count').textContent = world.stepCount;
  $('sim-time').textContent = `${world.time.toFixed(3)} s (dt ${(world.dt * 1000).toFixed(2)} ms)`;
  $('body-count').textContent = player.bodyInfo.size;
  $('step-time').textContent = formatStepTime(meanStepTime());
  $('hash').textContent = world.hash();
}

function frame(now) {
  const elapsed = player.lastFrame ? Math.min((now - player.lastFrame) / 1000, 0.1) : 0;
  player.lastFrame = now;
  if (player.world && player.playing) {
    // the scene's own fixed dt, at `speed` times real time; never more than 16 steps a frame,
    // so a slow scene slows down rather than falling ever further behind
    player.accumulator += elapsed * player.speed;
    const dt = player.world.dt;
    let steps = Math.floor(player.accumulator / dt);
    player.accumulator -= steps * dt;
    if (steps > 16) {
      steps = 16;
      player.accumulator = 0;
    }
    if (steps > 0) stepWorld(steps);
  }
  draw();
  updateStats();
  requestAnimationFrame(frame);
}

// ---- Mouse: drag a body with the mouse joint, or pan; wheel zooms ----

function worldPoint(event) {
  const [px, py] = canvasPoint(canvas, event);
  return view.toWorld(px, py);
}

canvas.addEventListener('pointerdown', (event) => {
  if (!player.world) return;
  const [x, y] = worldPoint(event);
  const id = player.world.bodyAt(x, y);
  const body = id === null || id === undefined || id < 0 ? null : player.bodyInfo.get(id);
  canvas.setPointerCapture(event.pointerId);
  if (body && body.type === 'dynamic') {
    player.world.dragStart(id, x, y);
    player.drag = { id, target: [x, y] };
    player.dragged = true;
    $('drag-note').hidden = false;
    canvas.classList.add('dragging');
  } else {
    player.drag = { pan: [event.clientX, event.clientY] };
  }
});

canvas.addEventListener('pointermove', (event) => {
  if (!player.drag) return;
  if (player.drag.pan) {
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const dx = (event.clientX - player.drag.pan[0]) * ratio, dy = (event.clientY - player.drag.pan[1]) * ratio;
    view.center = [view.center[0] - dx / view.scale, view.center[1] + dy / view.scale];
    player.drag.pan = [event.clientX, event.clientY];
    return;
  }
  const [x, y] = worldPoint(event);
  player.world.dragMove(x, y);
  player.drag.target = [x, y];
});

function endDrag() {
  if (player.drag && !player.drag.pan) player.world.dragEnd();
  player.drag = null;
  canvas.classList.remove('dragging');
}
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);

canvas.addEventListener('wheel', (event) => {
  event.preventDefault();
  const [px, py] = canvasPoint(canvas, event);
  const before = view.toWorld(px, py);
  view.scale *= Math.exp(-event.deltaY * 0.0015);
  const after = view.toWorld(px, py);
  view.center = [view.center[0] + before[0] - after[0], view.center[1] + before[1] - after[1]];
}, { passive: false });

// ---- Controls ----

function setupControls() {
  const list = $('examples');
  for (const example of EXAMPLES) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.example = example.id;
    button.textContent = example.title;
    button.title = example.note;
    button.addEventListener('click', () => loadExample(example));
    list.appendChild(button);
  }
  $('file').addEventListener('change', (event) => loadFile(event.target.files[0]));
  $('play').addEventListener('click', () => setPlaying(!player.playing));
  $('step').addEventListener('click', () => {
    setPlaying(false);
    if (player.world) stepWorld(1);
  });
  $('reset').addEventListener('click', () => {
    setPlaying(false);
    reset();
  });
  $('speed').addEventListener('change', (event) => { player.speed = Number(event.target.value); });
  $('run').addEventListener('click', () => runTo(Math.floor(Number($('run-to').value))));
  const stage = $('stage');
  stage.addEventListener('dragover', (event) => {
    event.preventDefault();
    stage.classList.add('drop');
  });
  stage.addEventListener('dragleave', () => stage.classList.remove('drop'));
  stage.addEventListener('drop', (event) => {
    event.preventDefault();
    stage.classList.remove('drop');
    loadFile(event.dataTransfer.files[0]);
  });
  window.addEventListener('keydown', (event) => {
    if (event.target.tagName === 'INPUT' || event.target.tagName === 'SELECT') return;
    if (event.code === 'Space') setPlaying(!player.playing);
    else if (event.code === 'KeyS') { setPlaying(false); if (player.world) stepWorld(1); }
    else if (event.code === 'KeyR') { setPlaying(false); reset(); }
    else return;
    event.preventDefault();
  });
}

async function main() {
  setupControls();
  try {
    // ?simd=0 or ?simd=1 picks carom's build; by default it is SIMD where the browser has it
    const simd = new URLSearchParams(location.search).get('simd');
    player.carom = await loadCarom(simd === null ? {} : { simd: simd !== '0' });
  } catch (error) {
    showError('could not load carom.mjs: ' + error.message);
    return;
  }
  $('version').textContent = `carom ${player.carom.version}, WebAssembly${player.carom.simd ? ' with SIMD' : ''}`;
  const wanted = new URLSearchParams(location.search).get('example');
  await loadExample(EXAMPLES.find((example) => example.id === wanted) || EXAMPLES[0]);
  requestAnimationFrame(frame);
}

// For the browser tests: the examples, the player's state, and where a body is on the screen.
window.caromPlayer = {
  examples: EXAMPLES,
  get ready() { return player.world !== null; },
  get stepCount() { return player.world ? player.world.stepCount : -1; },
  body: (name) => player.world.bodies().find((body) => body.name === name),
  // CSS pixels in the page of the world point (x, y).
  clientPoint: (x, y) => {
    const [px, py] = view.toScreen(x, y);
    const rect = canvas.getBoundingClientRect();
    return [rect.left + px * rect.width / canvas.width, rect.top + py * rect.height / canvas.height];
  },
};

main();
