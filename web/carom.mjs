// carom in JavaScript: the ES module of the package build-web/ (docs/web.md).
//
//   import loadCarom from './carom.mjs';
//   const carom = await loadCarom();
//   const world = carom.loadScene(jsonText);     // a scene file of docs/cli.md
//   world.step(60);
//   world.hash();                                // what `carom run --steps 60 --hash` prints
//
// It runs in a page (a plain <script type="module">), a worker and node. loadCarom picks the
// WebAssembly build: carom.wasm (SIMD) where the engine supports WebAssembly SIMD, else
// carom-scalar.wasm; both give the same bits. The C side is web/carom_js.c: every value crosses
// as numbers, strings or arrays of doubles copied out at once, so nothing here holds a view of
// the module's memory across a call (memory may grow and move).

const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, //       type section: () -> v128
  0x03, 0x02, 0x01, 0x00, //                         function section: one function of type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, //                   code section: one body of 20 bytes, no locals
  0xfd, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // v128.const 0
  0x0b, //                                           end
]);

/** Whether this engine runs WebAssembly SIMD: it validates a function returning a v128. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** What carom refused and why: message names the JSON path (scenes) or the engine's reason. */
export class CaromError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CaromError';
    this.lines = message.split('\n');
  }
}

const isNode = typeof process === 'object' && typeof process.versions === 'object' &&
  typeof process.versions.node === 'string' && typeof window === 'undefined';

async function instantiate(url, imports) {
  if (isNode && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.instantiate(await readFile(url), imports);
  }
  const response = await fetch(url);
  if (!response.ok) {
    throw new CaromError(`cannot load ${url}: HTTP ${response.status}`);
  }
  if (typeof WebAssembly.instantiateStreaming === 'function' &&
      (response.headers.get('Content-Type') || '').startsWith('application/wasm')) {
    return WebAssembly.instantiateStreaming(response, imports);
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports); // a server without the MIME type
}

/**
 * Load carom. options.simd: true or false to choose the build (default: SIMD when supported);
 * options.baseUrl: where carom.wasm and the glue modules are (default: beside this module).
 */
export default async function loadCarom(options = {}) {
  const simd = options.simd ?? simdSupported();
  const base = options.baseUrl ? new URL(options.baseUrl, import.meta.url) : new URL('./', import.meta.url);
  const glue = new URL(simd ? 'carom-simd.mjs' : 'carom-scalar.mjs', base);
  const wasm = new URL(simd ? 'carom.wasm' : 'carom-scalar.wasm', base);
  const { default: createCaromCore } = await import(glue.href);
  let failure = null;
  const core = await createCaromCore({
    instantiateWasm(imports, done) {
      instantiate(wasm, imports).then((result) => done(result.instance), (error) => { failure = error; });
      return {};
    },
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  });
  if (failure) {
    throw failure;
  }
  return new Carom(core, simd);
}

const BODY_TYPES = ['static', 'kinematic', 'dynamic'];
const SHAPE_KINDS = ['circle', 'polygon', 'segment', 'capsule'];
const JOINT_KINDS = ['revolute', 'prismatic', 'distance', 'weld', 'wheel', 'motor', 'mouse'];
const EVENT_KINDS = ['begin', 'end', 'hit', 'sensor_begin', 'sensor_end'];
const HANDLE = Symbol('carom world handle');

// Memory helpers over the module `m` (emscripten's Module: _malloc, _free, HEAP views).
function heapF64(m) {
  return new Float64Array(m.HEAPU8.buffer);
}

function withString(m, text, fn) {
  const size = m.lengthBytesUTF8(text) + 1;
  const pointer = m._malloc(size);
  try {
    m.stringToUTF8(text, pointer, size);
    return fn(pointer, size - 1);
  } finally {
    m._free(pointer);
  }
}

function withDoubles(m, values, fn) {
  const pointer = m._malloc(Math.max(values.length, 1) * 8);
  try {
    heapF64(m).set(values, pointer / 8);
    return fn(pointer);
  } finally {
    m._free(pointer);
  }
}

function fail(m) {
  throw new CaromError(m.UTF8ToString(m._carom_js_message()) || 'carom: failed');
}

function vec(value, fallback, what) {
  const v = value ?? fallback;
  if (!Array.isArray(v) && !(v instanceof Float64Array) || v.length !== 2) {
    throw new CaromError(`${what}: must be an array [x, y]`);
  }
  return v;
}

function flag(value, fallback) {
  return (value ?? fallback) ? 1 : 0;
}

class Carom {
  constructor(core, simd) {
    this.core = core;
    this.simd = simd;
    this.version = core.UTF8ToString(core._carom_js_version());
    this.CaromError = CaromError;
    const carom = this;
    // new carom.World({...}) builds an empty world; loadScene and restore wrap theirs.
    this.World = class World extends WorldBase {
      constructor(settings = {}) {
        super(carom, settings[HANDLE] ?? createWorld(core, settings));
      }
    };
  }

  /** A world from scene text (docs/cli.md). Throws CaromError with every problem, one a line. */
  loadScene(jsonText, options = {}) {
    const m = this.core;
    const name = options.name ?? 'scene';
    const pointer = withString(m, name, (namePointer) =>
      withString(m, String(jsonText), (text, size) => m._carom_js_load_scene(text, size, namePointer)));
    if (!pointer) {
      fail(m);
    }
    const world = new this.World({ [HANDLE]: pointer });
    const warnings = m.UTF8ToString(m._carom_js_message());
    world.warnings = warnings ? warnings.split('\n') : [];
    return world;
  }

  /** A world from save()'s bytes. */
  restore(bytes) {
    const m = this.core;
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const buffer = m._malloc(Math.max(data.length, 1));
    try {
      m.HEAPU8.set(data, buffer);
      const pointer = m._carom_js_restore(buffer, data.length);
      if (!pointer) {
        fail(m);
      }
      return new this.World({ [HANDLE]: pointer });
    } finally {
      m._free(buffer);
    }
  }

  /** Run a scene for `steps` steps: {hash, state}, as `carom run --steps N --hash --out`. */
  runScene(jsonText, steps = 60) {
    const world = this.loadScene(jsonText);
    try {
      world.step(steps);
      return { hash: world.hash(), state: world.stateJson() };
    } finally {
      world.destroy();
    }
  }
}

function createWorld(m, settings) {
  const d = heapF64(m);
  const defaults = Array.from(d.subarray(m._carom_js_default_world_settings() / 8,
    m._carom_js_default_world_settings() / 8 + 12));
  const gravity = vec(settings.gravity, [defaults[0], defaults[1]], 'gravity');
  const values = [gravity[0], gravity[1], settings.dt ?? defaults[2], settings.substeps ?? defaults[3],
    settings.cellSize ?? defaults[4], flag(settings.sleep, defaults[5]),
    flag(settings.continuous, defaults[6]), settings.contactHertz ?? defaults[7],
    settings.contactDampingRatio ?? defaults[8], settings.contactPushMaxVelocity ?? defaults[9],
    settings.jointHertz ?? defaults[10], settings.jointDampingRatio ?? defaults[11]];
  const pointer = withDoubles(m, values, (p) => m._carom_js_create_world(p));
  if (!pointer) {
    fail(m);
  }
  return pointer;
}

function material(options) {
  return [options.density ?? 1, options.friction ?? 0.6, options.restitution ?? 0,
    flag(options.sensor, false), options.category ?? 1, options.mask ?? -1, options.group ?? 0,
    flag(options.hitEvents, false), options.hitSpeedThreshold ?? 1,
    flag(options.contactEvents, true)];
}

/** A body of a world; id is its index in world.bodies(). Shape adders return the body. */
class Body {
  constructor(world, id) {
    this.world = world;
    this.id = id;
  }

  #shape(name, options, geometry, count) {
    const m = this.world.core;
    withDoubles(m, material(options), (mat) => withDoubles(m, geometry, (geo) => {
      const status = count === undefined ? m[name](this.world.pointer, this.id, mat, geo)
        : m[name](this.world.pointer, this.id, mat, geo, count);
      if (status < 0) {
        fail(m);
      }
    }));
    return this;
  }

  addCircle(options = {}) {
    const c = vec(options.center, [0, 0], 'center');
    return this.#shape('_carom_js_add_circle', options, [c[0], c[1], options.radius ?? 0.5]);
  }

  addBox(options = {}) {
    const h = vec(options.halfExtents, [0.5, 0.5], 'halfExtents');
    const c = vec(options.center, [0, 0], 'center');
    return this.#shape('_carom_js_add_box', options,
      [h[0], h[1], c[0], c[1], options.angle ?? 0, options.radius ?? 0]);
  }

  addPolygon(options = {}) {
    const points = options.points ?? options.vertices ?? [];
    const flat = [options.radius ?? 0];
    for (const p of points) {
      flat.push(...vec(p, null, 'points[i]'));
    }
    return this.#shape('_carom_js_add_polygon', options, flat, points.length);
  }

  addCapsule(options = {}) {
    const a = vec(options.center1, null, 'center1');
    const b = vec(options.center2, null, 'center2');
    return this.#shape('_carom_js_add_capsule', options, [a[0], a[1], b[0], b[1], options.radius ?? 0]);
  }

  addSegment(options = {}) {
    const [a, b] = options.points ?? [];
    const p = vec(a, null, 'points[0]');
    const q = vec(b, null, 'points[1]');
    return this.#shape('_carom_js_add_segment', options, [p[0], p[1], q[0], q[1]]);
  }

  #apply(what, a = 0, b = 0, c = 0) {
    const m = this.world.core;
    if (m._carom_js_body_apply(this.world.pointer, this.id, what, a, b, c) < 0) {
      fail(m);
    }
    return this;
  }

  /** The body's state: {id, name, type, x, y, angle, vx, vy, w, awake}. */
  state() {
    return this.world.bodies().find((b) => b.id === this.id) ?? null;
  }

  setVelocity([vx, vy], w = 0) { return this.#apply(0, vx, vy, w); }
  applyForce([fx, fy]) { return this.#apply(1, fx, fy); }
  applyImpulse([ix, iy]) { return this.#apply(2, ix, iy); }
  setTransform([x, y], angle = 0) { return this.#apply(3, x, y, angle); }
  applyTorque(torque) { return this.#apply(4, torque); }
  applyAngularImpulse(impulse) { return this.#apply(5, impulse); }

  destroy() {
    if (this.world.core._carom_js_destroy_body(this.world.pointer, this.id) < 0) {
      fail(this.world.core);
    }
  }
}

class WorldBase {
  constructor(carom, pointer) {
    this.carom = carom;
    this.core = carom.core;
    this.pointer = pointer;
    /** The scene loader's warnings (unknown keys), one a line; [] for other worlds. */
    this.warnings = [];
  }

  #live() {
    if (!this.pointer) {
      throw new CaromError('the world was destroyed');
    }
    return this.core;
  }

  // The doubles the last reader of web/carom_js.c wrote, copied out.
  #out() {
    const m = this.core;
    const start = m._carom_js_out(this.pointer) / 8;
    return heapF64(m).slice(start, start + m._carom_js_out_length(this.pointer));
  }

  /** n fixed steps of the world's dt. */
  step(n = 1) {
    const m = this.#live();
    if (!Number.isInteger(n) || n < 0) {
      throw new CaromError(`step: n must be a whole number >= 0, got ${n}`);
    }
    if (m._carom_js_step(this.pointer, n) < 0) {
      fail(m);
    }
    return this;
  }

  get stepCount() { return this.#live()._carom_js_step_count(this.pointer); }
  get time() { return this.#live()._carom_js_time(this.pointer); }
  get dt() { return this.#live()._carom_js_dt(this.pointer); }
  set dt(value) {
    if (!(value > 0)) {
      throw new CaromError(`dt: must be > 0 (s), got ${value}`);
    }
    this.#live()._carom_js_set_dt(this.pointer, value);
  }

  /** 16 hex digits: `carom run --hash` after the same steps. */
  hash() {
    const m = this.#live();
    return m.UTF8ToString(m._carom_js_hash(this.pointer));
  }

  /** carom_bodies_hash over the bodies of `ids` in that order (default: every dynamic and
   *  kinematic body in id order): the hash of the determinism program (docs/determinism.md). */
  bodiesHash(ids = null) {
    const m = this.#live();
    if (ids === null) {
      return m.UTF8ToString(m._carom_js_bodies_hash(this.pointer, 0, -1));
    }
    const buffer = m._malloc(Math.max(ids.length, 1) * 4);
    try {
      new Int32Array(m.HEAPU8.buffer).set(ids, buffer / 4);
      return m.UTF8ToString(m._carom_js_bodies_hash(this.pointer, buffer, ids.length));
    } finally {
      m._free(buffer);
    }
  }

  /** The state file text of `carom run --out` (a scene world only). */
  stateJson() {
    const m = this.#live();
    const text = m._carom_js_state_json(this.pointer);
    if (!text) {
      fail(m);
    }
    return m.UTF8ToString(text);
  }

  bodies() {
    const m = this.#live();
    m._carom_js_bodies(this.pointer);
    const d = this.#out();
    const result = [];
    for (let i = 0, id = 0; i + 9 <= d.length; i += 9, ++id) {
      if (!d[i]) {
        continue; // destroyed
      }
      result.push({
        id, name: m.UTF8ToString(m._carom_js_body_name(this.pointer, id)), type: BODY_TYPES[d[i + 1]],
        x: d[i + 2], y: d[i + 3], angle: d[i + 4], vx: d[i + 5], vy: d[i + 6], w: d[i + 7], awake: !!d[i + 8],
      });
    }
    return result;
  }

  shapes() {
    this.#live()._carom_js_shapes(this.pointer);
    const d = this.#out();
    const result = [];
    for (let i = 0; i < d.length;) {
      const count = d[i + 7];
      result.push({
        body: d[i], kind: SHAPE_KINDS[d[i + 1]], x: d[i + 2], y: d[i + 3], angle: d[i + 4],
        radius: d[i + 5], sensor: !!d[i + 6], points: Array.from(d.subarray(i + 8, i + 8 + 2 * count)),
      });
      i += 8 + 2 * count;
    }
    return result;
  }

  joints() {
    this.#live()._carom_js_joints(this.pointer);
    const d = this.#out();
    const result = [];
    for (let i = 0; i + 5 <= d.length; i += 5) {
      result.push({ kind: JOINT_KINDS[d[i]], anchorA: [d[i + 1], d[i + 2]], anchorB: [d[i + 3], d[i + 4]] });
    }
    return result;
  }

  /** The id of a dynamic body containing the point, or null. */
  bodyAt(x, y) {
    const id = this.#live()._carom_js_body_at(this.pointer, x, y);
    return id >= 0 ? id : null;
  }

  dragStart(id, x, y) {
    const m = this.#live();
    if (m._carom_js_drag_start(this.pointer, id, x, y) < 0) {
      fail(m);
    }
  }

  dragMove(x, y) {
    const m = this.#live();
    if (m._carom_js_drag_move(this.pointer, x, y) < 0) {
      fail(m);
    }
  }

  dragEnd() {
    this.#live()._carom_js_drag_end(this.pointer);
  }

  /** The closest hit {body, point, normal, fraction} on the segment from `from` to `to`, or null. */
  rayCast(from, to) {
    const [x1, y1] = vec(from, null, 'rayCast from');
    const [x2, y2] = vec(to, null, 'rayCast to');
    this.#live()._carom_js_ray_cast(this.pointer, x1, y1, x2, y2);
    const d = this.#out();
    if (!d[0]) {
      return null;
    }
    return { body: d[1] >= 0 ? d[1] : null, point: [d[2], d[3]], normal: [d[4], d[5]], fraction: d[6] };
  }

  #overlap() {
    const d = this.#out();
    if (d.length === 1 && d[0] < 0) {
      fail(this.#live());
    }
    return Array.from(d);
  }

  /** The ids of the bodies with a shape containing the point (sensors included), in the order
   *  of their first such shape. */
  overlapPoint(point) {
    const [x, y] = vec(point, null, 'overlapPoint point');
    this.#live()._carom_js_overlap_point(this.pointer, x, y);
    return this.#overlap();
  }

  /** The ids of the bodies with a shape whose bounding box meets the box lower..upper. */
  overlapAABB(lower, upper) {
    const [x1, y1] = vec(lower, null, 'overlapAABB lower');
    const [x2, y2] = vec(upper, null, 'overlapAABB upper');
    this.#live()._carom_js_overlap_aabb(this.pointer, x1, y1, x2, y2);
    return this.#overlap();
  }

  /** The ids of the bodies with a shape overlapping a circle {center, radius} or a box
   *  {center, halfExtents, angle} (m, rad, world frame). */
  overlapShape(shape) {
    const [x, y] = vec(shape.center, [0, 0], 'overlapShape center');
    const m = this.#live();
    if (shape.halfExtents !== undefined) {
      const [hx, hy] = vec(shape.halfExtents, null, 'overlapShape halfExtents');
      m._carom_js_overlap_shape(this.pointer, x, y, -1, hx, hy, Number(shape.angle ?? 0));
    } else {
      if (typeof shape.radius !== 'number' || !(shape.radius >= 0)) {
        throw new CaromError('overlapShape: give a radius (m, >= 0) or halfExtents');
      }
      m._carom_js_overlap_shape(this.pointer, x, y, shape.radius, 0, 0, 0);
    }
    return this.#overlap();
  }

  /** The last step's events: {type, bodyA, bodyB, point, normal, speed}; begin, end, hit,
   *  sensor_begin, sensor_end (a sensor's body is bodyA). A destroyed body's id is null. */
  events() {
    this.#live()._carom_js_events(this.pointer);
    const d = this.#out();
    const result = [];
    for (let i = 0; i + 8 <= d.length; i += 8) {
      result.push({
        type: EVENT_KINDS[d[i]], bodyA: d[i + 1] >= 0 ? d[i + 1] : null, bodyB: d[i + 2] >= 0 ? d[i + 2] : null,
        point: [d[i + 3], d[i + 4]], normal: [d[i + 5], d[i + 6]], speed: d[i + 7],
      });
    }
    return result;
  }

  /** A snapshot: for a scene world the bytes of `carom run --save` (carom resume reads them). */
  save() {
    const m = this.#live();
    const size = m._carom_js_save(this.pointer);
    if (size < 0) {
      fail(m);
    }
    const start = m._carom_js_saved_bytes(this.pointer);
    return m.HEAPU8.slice(start, start + size);
  }

  /** A body: {type: 'static'|'kinematic'|'dynamic' (default dynamic), position, angle,
   *  linearVelocity, angularVelocity, linearDamping, angularDamping, gravityScale, bullet, sleep,
   *  awake, fixedRotation}. */
  createBody(def = {}) {
    const m = this.#live();
    const type = BODY_TYPES.indexOf(def.type ?? 'dynamic');
    if (type < 0) {
      throw new CaromError(`createBody: type: "static", "kinematic" or "dynamic", got ${JSON.stringify(def.type)}`);
    }
    const p = vec(def.position, [0, 0], 'position');
    const v = vec(def.linearVelocity, [0, 0], 'linearVelocity');
    const values = [type, p[0], p[1], def.angle ?? 0, v[0], v[1], def.angularVelocity ?? 0,
      def.linearDamping ?? 0, def.angularDamping ?? 0, def.gravityScale ?? 1, flag(def.bullet, false),
      flag(def.sleep, true), flag(def.awake, true), flag(def.fixedRotation, false)];
    const id = withDoubles(m, values, (d) => m._carom_js_create_body(this.pointer, d));
    if (id < 0) {
      fail(m);
    }
    return new Body(this, id);
  }

  /** The Body of an id of bodies(). */
  body(id) {
    return new Body(this, id);
  }

  /** A joint: {type: 'revolute'|'prismatic'|'distance'|'weld'|'wheel', bodyA, bodyB (Body or id),
   *  anchor, anchorB (distance: anchorA/anchorB), axis, limit: [lower, upper],
   *  motor: {speed, maxTorque | maxForce}, spring: {hertz, dampingRatio}, length,
   *  collideConnected, breakForce, breakTorque}, as in scene files. */
  createJoint(def) {
    const m = this.#live();
    const kind = JOINT_KINDS.indexOf(def.type);
    const a = typeof def.bodyA === 'object' ? def.bodyA.id : def.bodyA;
    const b = typeof def.bodyB === 'object' ? def.bodyB.id : def.bodyB;
    const anchor = vec(def.anchor ?? def.anchorA, [0, 0], 'anchor');
    const anchorB = vec(def.anchorB, [0, 0], 'anchorB');
    const axis = vec(def.axis, def.type === 'wheel' ? [0, 1] : [1, 0], 'axis');
    const limit = def.limit ?? (def.minLength !== undefined || def.maxLength !== undefined
      ? [def.minLength ?? 0, def.maxLength ?? 1e12] : null);
    const motor = def.motor ?? null;
    const spring = def.spring ?? null;
    const values = [kind, flag(def.collideConnected, false), def.breakForce ?? 0, def.breakTorque ?? 0,
      anchor[0], anchor[1], anchorB[0], anchorB[1], axis[0], axis[1],
      limit ? 1 : 0, limit ? limit[0] : 0, limit ? limit[1] : 0,
      motor ? 1 : 0, motor ? motor.speed ?? 0 : 0, motor ? motor.maxTorque ?? motor.maxForce ?? 0 : 0,
      spring ? 1 : 0, spring ? spring.hertz ?? 0 : 0, spring ? spring.dampingRatio ?? 0 : 0, def.length ?? 0];
    const index = withDoubles(m, values, (d) => m._carom_js_create_joint(this.pointer, a, b, d));
    if (index < 0) {
      fail(m);
    }
    return index;
  }

  /** Frees the world; the object is unusable afterwards. */
  destroy() {
    if (this.pointer) {
      this.core._carom_js_destroy(this.pointer);
      this.pointer = 0;
    }
  }
}
