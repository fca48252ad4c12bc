// The racing page: demos/racing's race (build-web/racing.mjs, from web/racing_js.c) stepped at
// its fixed RACE_DT by an accumulator, drawn on a canvas at the display's refresh rate with the
// cars' poses interpolated between the last two steps, driven by the keyboard or touch buttons.
import loadRacing from './racing.mjs';
import { View, fitCanvas, cssColor, boxPath } from './draw.js';

// Layouts of the buffers web/racing_js.c fills (see its comments).
const BODY_FIELDS = 8;
const CAR_FIELDS = 8;
const TRACK_HEADER = 32;
const TRACK_SAMPLE_FIELDS = 9;
const CHECKPOINTS = 8;
const COUNTDOWN_SECONDS = 3;

const params = new URLSearchParams(location.search);
const watching = params.has('watch');  // every car driven by the AI, as `racing --headless`
const touchScreen = params.has('touch') || matchMedia('(pointer: coarse)').matches;

const $ = (id) => document.getElementById(id);
const canvas = $('track');
const ctx = canvas.getContext('2d');
const minimap = $('minimap');
const minimapCtx = minimap.getContext('2d');

// ---- The race in the wasm module ----

class Race {
  constructor(module, human) {
    this.m = module;
    this.human = human;
    this.ptr = module._racing_create(human);
    if (!this.ptr) {
      throw new Error('could not build the race: ' + module.UTF8ToString(module._racing_error()));
    }
    this.dt = module._racing_dt();
    this.carCount = module._racing_car_count();
    this.bodyCount = this.carCount + 2;
    this.names = [];
    for (let i = 0; i < this.carCount; ++i) {
      this.names.push(module.UTF8ToString(module._racing_car_name(this.ptr, i)));
    }
    this.track = this.readTrack();
    this.previous = this.readBodies();
    this.current = this.previous.slice();
  }

  destroy() {
    this.m._racing_destroy(this.ptr);
    this.ptr = 0;
  }

  step(n = 1) {
    if (this.m._racing_step(this.ptr, n) !== 0) {
      throw new Error('step failed: ' + this.m.UTF8ToString(this.m._racing_error()));
    }
  }

  get stepCount() { return this.m._racing_step_count(this.ptr); }
  hash() { return this.m.UTF8ToString(this.m._racing_hash(this.ptr)); }
  setInput(throttle, brake, steer, handbrake) {
    this.m._racing_set_input(this.ptr, throttle, brake, steer, handbrake ? 1 : 0);
  }

  // A copy: the module's buffer is rewritten by the next call, and memory may grow.
  readBodies() {
    const at = this.m._racing_bodies(this.ptr) / 8;
    return this.m.HEAPF64.slice(at, at + this.bodyCount * BODY_FIELDS);
  }

  readCars() {
    const at = this.m._racing_cars(this.ptr) / 4;
    const raw = this.m.HEAP32.subarray(at, at + this.carCount * CAR_FIELDS);
    const cars = [];
    for (let i = 0; i < this.carCount; ++i) {
      const f = raw.subarray(i * CAR_FIELDS, (i + 1) * CAR_FIELDS);
      cars.push({
        index: i, name: this.names[i], color: this.current[i * BODY_FIELDS + 6],
        laps: f[0], best: f[1], last: f[2], lapStart: f[3], hits: f[4], human: f[5] === 1,
        nextCheckpoint: f[6], forwardSpeed: f[7] / 1000,
      });
    }
    return cars;
  }

  readTrack() {
    const at = this.m._racing_track(this.ptr) / 8;
    const header = this.m.HEAPF64.slice(at, at + TRACK_HEADER);
    const count = header[0];
    const samples = this.m.HEAPF64.slice(at + TRACK_HEADER,
                                         at + TRACK_HEADER + count * TRACK_SAMPLE_FIELDS);
    const ice = [];
    for (let k = 0; k < 4; ++k) {
      ice.push([header[4 + CHECKPOINTS + 2 * k], header[5 + CHECKPOINTS + 2 * k]]);
    }
    return {
      count, roadHalfWidth: header[1], wallOffset: header[2], startSample: header[3],
      checkpoints: Array.from(header.subarray(4, 4 + CHECKPOINTS)), ice,
      length: header[12 + CHECKPOINTS], samples,
    };
  }

  // Each racer's three AI rays: [fromX, fromY, toX, toY, hit] * 3 per racer.
  rays() {
    const at = this.m._racing_rays(this.ptr) / 8;
    return this.m.HEAPF64.subarray(at, at + this.carCount * 3 * 5);
  }

  sparks() {
    const at = this.m._racing_sparks(this.ptr) / 8;
    return this.m.HEAPF64.subarray(at, at + this.m._racing_max_sparks() * 5);
  }

  skids() {
    const max = this.m._racing_max_skids();
    const at = this.m._racing_skids(this.ptr) / 8;
    const count = Math.min(this.m._racing_skid_count(this.ptr), max);
    return this.m.HEAPF64.subarray(at, at + count * 4);
  }
}

// ---- Track drawing, built once per race as Path2D in metres ----

function edgePoint(track, i, offset) {
  const s = track.samples, k = ((i % track.count) + track.count) % track.count;
  const o = k * TRACK_SAMPLE_FIELDS;
  return [s[o] + offset * s[o + 2], s[o + 1] + offset * s[o + 3]];
}

function ringPath(track, offsets) {
  const path = new Path2D();
  for (const offset of offsets) {
    for (let i = 0; i < track.count; ++i) {
      const [x, y] = edgePoint(track, i, offset);
      if (i === 0) path.moveTo(x, y); else path.lineTo(x, y);
    }
    path.closePath();
  }
  return path;
}

function quad(path, points) {
  path.moveTo(points[0][0], points[0][1]);
  for (let i = 1; i < points.length; ++i) path.lineTo(points[i][0], points[i][1]);
  path.closePath();
}

function buildTrackPaths(track) {
  const h = track.roadHalfWidth, w = track.wallOffset + 0.5;
  const paths = {
    verge: ringPath(track, [w, -w]),
    road: ringPath(track, [h, -h]),
    walls: ringPath(track, [track.wallOffset, -track.wallOffset]),
    kerbRed: new Path2D(), kerbWhite: new Path2D(), ice: new Path2D(), line: new Path2D(),
    checkpoints: new Path2D(), chequerBlack: new Path2D(), chequerWhite: new Path2D(),
  };
  for (let i = 0; i < track.count; ++i) {
    const kerb = i % 2 === 0 ? paths.kerbRed : paths.kerbWhite;
    for (const side of [-1, 1]) {
      quad(kerb, [edgePoint(track, i, side * h), edgePoint(track, i + 1, side * h),
                  edgePoint(track, i + 1, side * (h + 0.8)), edgePoint(track, i, side * (h + 0.8))]);
    }
  }
  quad(paths.ice, track.ice);
  for (let i = 0; i < track.count; i += 2) {
    const s = track.samples, a = i * TRACK_SAMPLE_FIELDS, b = ((i + 1) % track.count) * TRACK_SAMPLE_FIELDS;
    paths.line.moveTo(s[a + 6], s[a + 7]);
    paths.line.lineTo(s[b + 6], s[b + 7]);
  }
  for (let k = 1; k < CHECKPOINTS; ++k) {
    const i = track.checkpoints[k];
    const [ax, ay] = edgePoint(track, i, -h), [bx, by] = edgePoint(track, i, h);
    paths.checkpoints.moveTo(ax, ay);
    paths.checkpoints.lineTo(bx, by);
  }
  // the start line: two rows of chequered squares across the road
  const s = track.startSample, o = s * TRACK_SAMPLE_FIELDS;
  const tx = track.samples[o + 4], ty = track.samples[o + 5];
  for (let row = 0; row < 2; ++row) {
    for (let cell = 0; cell < 2 * h; ++cell) {
      const a = -h + cell, b = a + 1;
      const [ax, ay] = edgePoint(track, s, a), [bx, by] = edgePoint(track, s, b);
      const square = [[ax + row * tx, ay + row * ty], [bx + row * tx, by + row * ty],
                      [bx + (row + 1) * tx, by + (row + 1) * ty], [ax + (row + 1) * tx, ay + (row + 1) * ty]];
      quad((cell + row) % 2 ? paths.chequerBlack : paths.chequerWhite, square);
    }
  }
  return paths;
}

function trackBox(track) {
  let box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < track.count; ++i) {
    const x = track.samples[i * TRACK_SAMPLE_FIELDS], y = track.samples[i * TRACK_SAMPLE_FIELDS + 1];
    box = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
  }
  const m = track.wallOffset + 4;
  return [box[0] - m, box[1] - m, box[2] + m, box[3] + m];
}

function drawTrack(c, paths) {
  c.fillStyle = '#5a9a45';
  c.fill(paths.verge, 'evenodd');
  c.fillStyle = '#55585c';
  c.fill(paths.road, 'evenodd');
  c.fillStyle = '#c8322d';
  c.fill(paths.kerbRed);
  c.fillStyle = '#eeeeee';
  c.fill(paths.kerbWhite);
  c.fillStyle = 'rgba(191,230,255,0.85)';
  c.fill(paths.ice);
  c.strokeStyle = 'rgba(255,255,255,0.25)';
  c.lineWidth = 0.25;
  c.stroke(paths.line);
  c.strokeStyle = 'rgba(242,208,46,0.6)';
  c.lineWidth = 0.4;
  c.stroke(paths.checkpoints);
  c.fillStyle = '#ffffff';
  c.fill(paths.chequerWhite);
  c.fillStyle = '#111111';
  c.fill(paths.chequerBlack);
  c.strokeStyle = '#d8d8d8';
  c.lineWidth = 0.5;
  c.stroke(paths.walls);
}

// ---- The page's state ----

const view = new View([0, 0], 7);
const input = { up: false, down: false, left: false, right: false, handbrake: false };
const state = {
  module: null, race: null, paths: null, box: null,
  phase: 'loading',         // 'countdown', 'racing'
  paused: false,
  countdown: 0,             // seconds left before the start
  goShown: 0,               // seconds left to show "GO"
  accumulator: 0,
  steer: 0,                 // eased towards the keys' value, so a tap does not jerk the wheel
  follow: !watching,        // camera: follow your car, or the whole track
  rays: false,              // draw the AI's ray casts
  lastFrame: 0,
  frameTimes: [],           // ms between frames, for the status line
  stepTimes: [],            // ms of the last steps (the clock may be too coarse for one: averaged)
  tableText: '',
  error: null,
};

function startRace() {
  if (state.race) state.race.destroy();
  const race = new Race(state.module, watching ? -1 : state.module._racing_human_car());
  state.race = race;
  state.paths = buildTrackPaths(race.track);
  state.box = trackBox(race.track);
  state.phase = 'countdown';
  state.countdown = COUNTDOWN_SECONDS;
  state.goShown = 0;
  state.accumulator = 0;
  state.steer = 0;
  state.paused = false;
  state.tableText = '';
  const you = focusCar();
  view.center = [race.current[you * BODY_FIELDS], race.current[you * BODY_FIELDS + 1]];
}

// The car the camera and the speed display follow: yours, or the leader when watching.
function focusCar() {
  const race = state.race;
  if (!watching) return race.human;
  return rankCars(race.readCars())[0].index;
}

// As the native lap table (demos/racing/race.c): most laps first, then the earlier start of the
// current lap, then the grid.
function rankCars(cars) {
  const start = (car) => (car.lapStart < 0 ? Infinity : car.lapStart);
  return cars.slice().sort((a, b) => (b.laps - a.laps) || (start(a) - start(b)) || (a.index - b.index));
}

// The human car's controls, once per step, as the native window reads its keys.
function applyInput(race) {
  if (race.human < 0) return;
  const target = (input.left ? 1 : 0) - (input.right ? 1 : 0);
  const rate = 4 * race.dt;
  state.steer += Math.max(-rate, Math.min(rate, target - state.steer));
  let throttle = input.up ? 1 : 0, brake = 0;
  if (input.down) {
    const forward = race.readCars()[race.human].forwardSpeed;
    if (forward > 1) brake = 1; else throttle = -0.7;  // brake, then reverse once stopped
  }
  race.setInput(throttle, brake, state.steer, input.handbrake);
}

function stepRace(race) {
  applyInput(race);
  const t0 = performance.now();
  race.step(1);
  state.stepTimes.push(performance.now() - t0);
  if (state.stepTimes.length > 120) state.stepTimes.shift();
  race.previous = race.current;
  race.current = race.readBodies();
}

// ---- Drawing ----

function drawBodies(c, race, alpha) {
  const a = race.previous, b = race.current;
  for (let i = 0; i < race.bodyCount; ++i) {
    const o = i * BODY_FIELDS;
    // interpolated pose: position and rotation lerped, the rotation renormalised
    const x = a[o] + (b[o] - a[o]) * alpha, y = a[o + 1] + (b[o + 1] - a[o + 1]) * alpha;
    let cs = a[o + 2] + (b[o + 2] - a[o + 2]) * alpha, sn = a[o + 3] + (b[o + 3] - a[o + 3]) * alpha;
    const n = Math.hypot(cs, sn) || 1;
    cs /= n;
    sn /= n;
    const hl = b[o + 4], hw = b[o + 5];
    boxPath(c, x, y, cs, sn, hl, hw);
    c.fillStyle = cssColor(b[o + 6]);
    c.fill();
    c.lineWidth = i === race.human ? 0.35 : 0.12;
    c.strokeStyle = i === race.human ? '#ffe14d' : 'rgba(0,0,0,0.6)';
    c.stroke();
    if (i < race.carCount) {
      // the windscreen and the rear window, as demos/racing/render.c draws them
      c.fillStyle = 'rgba(28,36,48,0.9)';
      const front = hl - 1.9, rear = 0.7 - hl;
      for (const glass of [[[front, 0.7], [front + 0.8, 0.6], [front + 0.8, -0.6], [front, -0.7]],
                           [[rear, 0.65], [rear + 0.4, 0.7], [rear + 0.4, -0.7], [rear, -0.65]]]) {
        c.beginPath();
        for (const [u, v] of glass) c.lineTo(x + cs * u - sn * v, y + sn * u + cs * v);
        c.closePath();
        c.fill();
      }
    }
  }
}

function drawSkids(c, race, box) {
  const skids = race.skids();
  c.strokeStyle = 'rgba(26,26,26,0.45)';
  c.lineWidth = 0.3;
  c.beginPath();
  for (let i = 0; i < skids.length; i += 4) {
    const ax = skids[i], ay = skids[i + 1];
    if (ax < box[0] || ax > box[2] || ay < box[1] || ay > box[3]) continue;
    c.moveTo(ax, ay);
    c.lineTo(skids[i + 2], skids[i + 3]);
  }
  c.stroke();
}

// The AI drivers' ray casts, white, red where they hit (demos/racing/render.c's colors).
function drawRays(c, race) {
  const rays = race.rays();
  c.lineWidth = 0.12;
  for (const hit of [0, 1]) {
    c.strokeStyle = hit ? 'rgba(255,64,64,0.6)' : 'rgba(255,255,255,0.5)';
    c.beginPath();
    for (let i = 0; i < rays.length; i += 5) {
      if (rays[i + 4] !== hit || (rays[i] === 0 && rays[i + 2] === 0)) continue;
      c.moveTo(rays[i], rays[i + 1]);
      c.lineTo(rays[i + 2], rays[i + 3]);
    }
    c.stroke();
  }
}

function drawSparks(c, race) {
  const sparks = race.sparks();
  c.lineWidth = 0.3;
  for (const young of [true, false]) {
    c.strokeStyle = young ? '#fff2a0' : '#ffa020';
    c.beginPath();
    for (let i = 0; i < sparks.length; i += 5) {
      const life = sparks[i + 4];
      if (!(life > 0) || (life > 0.4) !== young) continue;
      c.moveTo(sparks[i] - 0.04 * sparks[i + 2], sparks[i + 1] - 0.04 * sparks[i + 3]);
      c.lineTo(sparks[i], sparks[i + 1]);
    }
    c.stroke();
  }
}

function updateCamera(race, alpha, elapsed) {
  if (!state.follow) {
    view.fit(state.box, 0.01);
    return;
  }
  const i = focusCar() * BODY_FIELDS, a = race.previous, b = race.current;
  const x = a[i] + (b[i] - a[i]) * alpha, y = a[i + 1] + (b[i + 1] - a[i + 1]) * alpha;
  // look ahead along the motion, a second's worth at most
  const vx = (b[i] - a[i]) / race.dt, vy = (b[i + 1] - a[i + 1]) / race.dt;
  const target = [x + 0.5 * vx, y + 0.5 * vy];
  const ease = 1 - Math.exp(-elapsed * 4);
  view.center = [view.center[0] + (target[0] - view.center[0]) * ease,
                 view.center[1] + (target[1] - view.center[1]) * ease];
  // about 170 m across the longer side of the screen
  view.scale = Math.max(view.width, view.height) / 170;
}

function render(alpha, elapsed) {
  const race = state.race;
  fitCanvas(canvas, view);
  updateCamera(race, alpha, elapsed);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#3f7d36';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  view.apply(ctx);
  drawTrack(ctx, state.paths);
  const box = view.visible();
  drawSkids(ctx, race, [box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5]);
  drawBodies(ctx, race, alpha);
  if (state.rays) drawRays(ctx, race);
  drawSparks(ctx, race);
  renderMinimap(race);
}

const minimapView = new View();

function renderMinimap(race) {
  fitCanvas(minimap, minimapView);
  minimapView.fit(state.box, 0.04);
  const c = minimapCtx;
  c.setTransform(1, 0, 0, 1, 0, 0);
  c.clearRect(0, 0, minimap.width, minimap.height);
  minimapView.apply(c);
  c.fillStyle = 'rgba(120,126,132,0.95)';
  c.fill(state.paths.road, 'evenodd');
  if (state.follow) {
    // where the big view is
    const [x0, y0, x1, y1] = view.visible();
    c.strokeStyle = 'rgba(255,255,255,0.7)';
    c.lineWidth = 1.5 / minimapView.scale;
    c.strokeRect(x0, y0, x1 - x0, y1 - y0);
  }
  for (let i = 0; i < race.carCount; ++i) {
    const o = i * BODY_FIELDS;
    c.beginPath();
    c.arc(race.current[o], race.current[o + 1], (i === race.human ? 4.5 : 3) / minimapView.scale, 0, 2 * Math.PI);
    c.fillStyle = cssColor(race.current[o + 6]);
    c.fill();
    if (i === race.human) {
      c.strokeStyle = '#000';
      c.lineWidth = 1.5 / minimapView.scale;
      c.stroke();
    }
  }
}

// ---- The text on the page ----

const seconds = (steps, dt) => (steps * dt).toFixed(2);

function updateTable(race, cars) {
  const rows = rankCars(cars).map((car, position) => {
    const best = car.best ? seconds(car.best, race.dt) : '–';
    const last = car.last ? seconds(car.last, race.dt) : '–';
    return `<tr class="${car.human ? 'you' : ''}" data-car="${car.name}"><td class="num">${position + 1}</td>` +
      `<td><span class="swatch" style="background:${cssColor(car.color)}"></span></td>` +
      `<td>${car.name}${car.human ? ' ★' : ''}</td><td class="num laps">${car.laps}</td>` +
      `<td class="num best">${best}</td><td class="num last">${last}</td></tr>`;
  }).join('');
  if (rows !== state.tableText) {
    state.tableText = rows;
    document.querySelector('#lap-table tbody').innerHTML = rows;
  }
  $('race-clock').textContent = `${seconds(race.stepCount, race.dt)} s · lap ${race.track.length.toFixed(0)} m`;
}

function updateHud() {
  const race = state.race;
  const cars = race.readCars();
  updateTable(race, cars);
  const focus = focusCar();
  const speed = race.current[focus * BODY_FIELDS + 7] * 3.6;
  $('speed-value').textContent = speed.toFixed(0);
  const car = cars[focus];
  const lapTime = car.lapStart >= 0 ? ` · ${seconds(race.stepCount - car.lapStart, race.dt)} s` : '';
  $('lap-now').textContent = (watching ? `${car.name}, ` : '') + `lap ${car.laps + 1}${lapTime}`;
  let banner = '';
  if (state.paused) banner = 'PAUSED';
  else if (state.phase === 'countdown') banner = String(Math.ceil(state.countdown));
  else if (state.goShown > 0) banner = 'GO!';
  $('countdown').textContent = banner;
  const median = (list) => (list.length ? list.slice().sort((a, b) => a - b)[list.length >> 1] : 0);
  const mean = (list) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : 0);
  const frameMs = median(state.frameTimes);
  $('status').textContent = watching ? 'watching the AI race' : 'you drive the white car';
  $('perf').textContent = `${frameMs ? (1000 / frameMs).toFixed(0) : '–'} fps · ` +
    `step ${mean(state.stepTimes).toFixed(2)} ms`;
}

// ---- The loop ----

function frame(now) {
  if (state.error) return;
  try {
    const elapsed = state.lastFrame ? Math.min((now - state.lastFrame) / 1000, 0.25) : 0;
    if (state.lastFrame) {
      state.frameTimes.push(now - state.lastFrame);
      if (state.frameTimes.length > 60) state.frameTimes.shift();
    }
    state.lastFrame = now;
    const race = state.race;
    if (!state.paused) {
      if (state.phase === 'countdown') {
        state.countdown -= elapsed;
        if (state.countdown <= 0) {
          state.phase = 'racing';
          state.goShown = 1;
        }
      } else if (state.phase === 'racing') {
        state.goShown -= elapsed;
        // whole fixed steps only; after a stall, drop time rather than run many steps
        state.accumulator = Math.min(state.accumulator + elapsed, 5 * race.dt);
        while (state.accumulator >= race.dt) {
          stepRace(race);
          state.accumulator -= race.dt;
        }
      }
    }
    const alpha = state.phase === 'racing' ? state.accumulator / race.dt : 1;
    render(alpha, elapsed);
    updateHud();
  } catch (error) {
    fail(error);
    return;
  }
  requestAnimationFrame(frame);
}

function fail(error) {
  state.error = error;
  $('status').textContent = 'error: ' + error.message;
  console.error(error);
}

// ---- Keys and touch ----

const keyActions = {
  ArrowUp: 'up', KeyW: 'up', ArrowDown: 'down', KeyS: 'down',
  ArrowLeft: 'left', KeyA: 'left', ArrowRight: 'right', KeyD: 'right', Space: 'handbrake',
};

function command(name) {
  if (!state.race) return;
  if (name === 'restart') startRace();
  else if (name === 'pause') state.paused = !state.paused;
  else if (name === 'camera') state.follow = !state.follow;
  else if (name === 'rays') state.rays = !state.rays;
  else if (name === 'help') toggleHelp();
}

function toggleHelp() {
  const help = $('help');
  if (document.body.classList.contains('touch')) help.classList.toggle('shown');
  else help.classList.toggle('hidden');
}

window.addEventListener('keydown', (event) => {
  const action = keyActions[event.code];
  if (action) {
    input[action] = true;
    event.preventDefault();
    return;
  }
  if (event.repeat) return;
  const commands = { KeyR: 'restart', KeyP: 'pause', KeyC: 'camera', KeyV: 'rays', KeyH: 'help' };
  if (commands[event.code]) {
    command(commands[event.code]);
    event.preventDefault();
  }
});
window.addEventListener('keyup', (event) => {
  const action = keyActions[event.code];
  if (action) input[action] = false;
});
// a key held while the window loses focus would stay down
window.addEventListener('blur', () => {
  for (const key of Object.keys(input)) input[key] = false;
});

function setupTouch() {
  if (touchScreen) document.body.classList.add('touch');
  const held = { left: 'left', right: 'right', throttle: 'up', brake: 'down', handbrake: 'handbrake' };
  for (const button of document.querySelectorAll('#touch button')) {
    const key = button.dataset.key;
    if (held[key]) {
      const press = (down) => (event) => {
        event.preventDefault();
        input[held[key]] = down;
        button.classList.toggle('held', down);
        if (down) button.setPointerCapture?.(event.pointerId);
      };
      button.addEventListener('pointerdown', press(true));
      button.addEventListener('pointerup', press(false));
      button.addEventListener('pointercancel', press(false));
      button.addEventListener('lostpointercapture', press(false));
    } else {
      button.addEventListener('click', () => command(key));
    }
  }
  $('help-toggle').addEventListener('click', toggleHelp);
}

// ---- Hooks for the browser tests (web/tests/browser) ----

window.caromRacing = {
  get phase() { return state.phase; },
  get paused() { return state.paused; },
  get error() { return state.error && state.error.message; },
  stepCount: () => state.race.stepCount,
  hash: () => state.race.hash(),
  // The focused car's pose and speed (m, m/s).
  focus: () => {
    const o = focusCar() * BODY_FIELDS, b = state.race.current;
    return { x: b[o], y: b[o + 1], speed: b[o + 7] };
  },
  // Run n steps at once, starting the race if it is still counting down; the page shows the
  // result at its next frame.
  fastForward: (n) => {
    state.phase = 'racing';
    state.countdown = 0;
    for (let i = 0; i < n; ++i) stepRace(state.race);
    return state.race.stepCount;
  },
};

async function main() {
  setupTouch();
  try {
    state.module = await loadRacing();
    startRace();
  } catch (error) {
    fail(error);
    return;
  }
  requestAnimationFrame(frame);
}

main();
