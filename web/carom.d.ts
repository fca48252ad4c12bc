// TypeScript declarations of carom.mjs, the JavaScript API of carom's WebAssembly package
// (docs/web.md). Units are SI (m, kg, s, rad), +y up, angles counter-clockwise.

export type Vec2 = [number, number];
export type BodyType = 'static' | 'kinematic' | 'dynamic';
export type ShapeKind = 'circle' | 'polygon' | 'segment' | 'capsule';
export type JointKind = 'revolute' | 'prismatic' | 'distance' | 'weld' | 'wheel' | 'motor' | 'mouse';

/** What carom refused and why; a scene's problems one a line, each naming its JSON path. */
export class CaromError extends Error {
  readonly name: 'CaromError';
  /** The message's lines. */
  readonly lines: string[];
}

/** Whether this JavaScript engine runs WebAssembly SIMD (then loadCarom takes carom.wasm). */
export function simdSupported(): boolean;

export interface LoadOptions {
  /** Choose the build: true carom.wasm (SIMD), false carom-scalar.wasm. Default: SIMD when supported. */
  simd?: boolean;
  /** Where the .wasm files and glue modules are. Default: beside carom.mjs. */
  baseUrl?: string | URL;
}

/** Load the WebAssembly module. */
export default function loadCarom(options?: LoadOptions): Promise<Carom>;

export interface BodyState {
  /** The body's id in its world: a scene's bodies are 0, 1, ... in file order. */
  id: number;
  /** The scene's name for it; '' when unnamed or made by the builder. */
  name: string;
  type: BodyType;
  /** Position of the body origin (m). */
  x: number;
  y: number;
  /** rad */
  angle: number;
  /** Velocity of the center of mass (m/s). */
  vx: number;
  vy: number;
  /** rad/s */
  w: number;
  awake: boolean;
}

/** Draw data of one shape, in world coordinates. */
export interface ShapeDraw {
  body: number;
  kind: ShapeKind;
  /** The body's pose. */
  x: number;
  y: number;
  angle: number;
  /** A circle's or capsule's radius, a rounded polygon's rounding (m); 0 otherwise. */
  radius: number;
  sensor: boolean;
  /** x0, y0, x1, y1, ...: a circle's centre, a polygon's vertices (counter-clockwise), a segment's
   *  two points, a capsule's two centres. */
  points: number[];
}

export interface JointDraw {
  kind: JointKind;
  /** World coordinates (m); a mouse joint's anchorA is its target. */
  anchorA: Vec2;
  anchorB: Vec2;
}

export interface RayHit {
  /** The body hit (null for a body destroyed since). */
  body: number | null;
  point: Vec2;
  /** Facing the ray's origin. */
  normal: Vec2;
  /** Of the way from `from` to `to`, 0 to 1. */
  fraction: number;
}

export interface CaromEvent {
  type: 'begin' | 'end' | 'hit' | 'sensor_begin' | 'sensor_end';
  /** For sensor events, the sensor's body. null: a body destroyed since. */
  bodyA: number | null;
  bodyB: number | null;
  /** begin: the first manifold point; hit: the hit point; [0, 0] otherwise. */
  point: Vec2;
  /** From A to B (begin and hit). */
  normal: Vec2;
  /** Approach speed (m/s) of begin and hit events. */
  speed: number;
}

export interface WorldSettings {
  /** m/s², default [0, -10]. */
  gravity?: Vec2;
  /** The fixed step of world.step (s), default 1/60. */
  dt?: number;
  /** Solver substeps per step, 1 to 64; default the engine's (4). */
  substeps?: number;
  /** Broad-phase cell edge (m); default 0: chosen at the first step. */
  cellSize?: number;
  sleep?: boolean;
  continuous?: boolean;
  contactHertz?: number;
  contactDampingRatio?: number;
  contactPushMaxVelocity?: number;
  jointHertz?: number;
  jointDampingRatio?: number;
}

export interface BodyDef {
  /** Default 'dynamic'. */
  type?: BodyType;
  position?: Vec2;
  angle?: number;
  linearVelocity?: Vec2;
  angularVelocity?: number;
  linearDamping?: number;
  angularDamping?: number;
  gravityScale?: number;
  bullet?: boolean;
  /** false: this body never sleeps. Default true. */
  sleep?: boolean;
  awake?: boolean;
  fixedRotation?: boolean;
}

/** A shape's material and filter, as in scene files (docs/cli.md). */
export interface ShapeOptions {
  /** kg/m², default 1 */
  density?: number;
  /** default 0.6 */
  friction?: number;
  /** 0 to 1, default 0 */
  restitution?: number;
  sensor?: boolean;
  category?: number;
  /** Default every bit. */
  mask?: number;
  group?: number;
  /** Report hit events for this shape's contacts. */
  hitEvents?: boolean;
  /** m/s, default 1 */
  hitSpeedThreshold?: number;
  /** Report begin and end events for this shape's contacts (default true; a contact reports
   * them if either of its shapes asks, or has hit events). */
  contactEvents?: boolean;
}

export interface Body {
  readonly world: World;
  readonly id: number;
  addCircle(options: ShapeOptions & { radius: number; center?: Vec2 }): Body;
  addBox(options: ShapeOptions & { halfExtents: Vec2; center?: Vec2; angle?: number; radius?: number }): Body;
  /** 3 to 8 points of a convex polygon, any winding. */
  addPolygon(options: ShapeOptions & { points: Vec2[]; radius?: number }): Body;
  addCapsule(options: ShapeOptions & { center1: Vec2; center2: Vec2; radius: number }): Body;
  addSegment(options: ShapeOptions & { points: [Vec2, Vec2] }): Body;
  state(): BodyState | null;
  setVelocity(velocity: Vec2, angularVelocity?: number): Body;
  applyForce(force: Vec2): Body;
  applyImpulse(impulse: Vec2): Body;
  setTransform(position: Vec2, angle?: number): Body;
  applyTorque(torque: number): Body;
  applyAngularImpulse(impulse: number): Body;
  destroy(): void;
}

export interface JointDef {
  type: 'revolute' | 'prismatic' | 'distance' | 'weld' | 'wheel';
  bodyA: Body | number;
  bodyB: Body | number;
  /** World coordinates at creation (m); a distance joint's anchor on A (also `anchorA`). */
  anchor?: Vec2;
  anchorA?: Vec2;
  /** A distance joint's anchor on B. */
  anchorB?: Vec2;
  /** Prismatic (default [1, 0]) and wheel (default [0, 1]). */
  axis?: Vec2;
  /** [lower, upper]: rad (revolute) or m. */
  limit?: Vec2;
  motor?: { speed: number; maxTorque?: number; maxForce?: number };
  spring?: { hertz: number; dampingRatio?: number };
  /** Distance joints: rest length (m; default the anchors' distance), limits. */
  length?: number;
  minLength?: number;
  maxLength?: number;
  collideConnected?: boolean;
  breakForce?: number;
  breakTorque?: number;
}

export declare class World {
  /** An empty world for the builder API. */
  constructor(settings?: WorldSettings);
  /** loadScene's warnings (unknown keys, ignored), as `carom run` prints them; [] otherwise. */
  readonly warnings: string[];
  /** n fixed steps of dt (default 1). */
  step(n?: number): World;
  readonly stepCount: number;
  /** stepCount × dt (s). */
  readonly time: number;
  dt: number;
  /** 16 hex digits, equal to `carom run --hash` after the same steps. */
  hash(): string;
  /** carom_bodies_hash over the bodies of ids, in that order (default: every dynamic and
   *  kinematic body in id order): the determinism program's hash (docs/determinism.md). */
  bodiesHash(ids?: number[]): string;
  /** The state file of `carom run --out` (docs/cli.md); scene worlds only. */
  stateJson(): string;
  bodies(): BodyState[];
  shapes(): ShapeDraw[];
  joints(): JointDraw[];
  /** The id of a dynamic body containing the point, or null. */
  bodyAt(x: number, y: number): number | null;
  /** Drag a dynamic body by a mouse joint from the world point (x, y). */
  dragStart(id: number, x: number, y: number): void;
  dragMove(x: number, y: number): void;
  dragEnd(): void;
  rayCast(from: Vec2, to: Vec2): RayHit | null;
  /** Ids of the bodies with a shape containing the point (sensors included), in the order of
   *  their first such shape (shape-id order). */
  overlapPoint(point: Vec2): number[];
  /** Ids of the bodies with a shape whose bounding box meets the box lower..upper (m). */
  overlapAABB(lower: Vec2, upper: Vec2): number[];
  /** Ids of the bodies with a shape overlapping a circle or a box placed in the world (m, rad). */
  overlapShape(shape: { center?: Vec2; radius: number } |
               { center?: Vec2; halfExtents: Vec2; angle?: number }): number[];
  /** The last step's contact and sensor events. */
  events(): CaromEvent[];
  /** A snapshot; a scene world's is the snapshot file of `carom run --save`. */
  save(): Uint8Array;
  createBody(def?: BodyDef): Body;
  body(id: number): Body;
  /** Returns the joint's index among the builder's joints. */
  createJoint(def: JointDef): number;
  destroy(): void;
}

export interface RunResult {
  /** 16 hex digits, as `carom run --steps N --hash`. */
  hash: string;
  /** The state file text, as `carom run --out`. */
  state: string;
}

export interface Carom {
  /** The library's version, e.g. "0.2.0". */
  readonly version: string;
  /** Whether the SIMD build was loaded. */
  readonly simd: boolean;
  readonly World: typeof World;
  readonly CaromError: typeof CaromError;
  /** A world from a scene file's text (docs/cli.md); throws CaromError. name starts each message line. */
  loadScene(jsonText: string, options?: { name?: string }): World;
  /** A world from World.save()'s bytes. */
  restore(bytes: Uint8Array | ArrayBuffer): World;
  runScene(jsonText: string, steps?: number): RunResult;
}
