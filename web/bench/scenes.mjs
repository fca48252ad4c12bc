// The benchmark's scenes, described engine-neutrally as plain numbers (docs/web.md): a port to
// JavaScript of the rain, pyramid and arena of bench/scenes.c (bench/scene_desc.h,
// ../shared/bench-scenes.md), with the same formulas, seeds and generator, so every engine of the
// node benchmark builds the same bodies. One difference: the arena's headings go through
// Math.cos and Math.sin, not carom's own cosine and sine, so its velocities can differ from the C
// benchmark's in the last bit (all engines here get the same numbers).

// xorshift64* with a fixed seed, as bench/scenes.c: every build of a scene is the same scene.
function generator(seed) {
  const mask = (1n << 64n) - 1n;
  let state = BigInt(seed);
  return (lo, hi) => {
    state ^= state >> 12n;
    state ^= (state << 25n) & mask;
    state ^= state >> 27n;
    const unit = Number(((state * 2685821657736338717n) & mask) >> 11n) / 9007199254740992;
    return lo + (hi - lo) * unit;
  };
}

// A body with carom's default material (density 1, friction 0.6, restitution 0, no damping).
function body(shape, fields) {
  return {
    shape, radius: 0, hx: 0, hy: 0, x: 0, y: 0, angle: 0, vx: 0, vy: 0, linearDamping: 0,
    angularDamping: 0, density: 1, friction: 0.6, restitution: 0, ...fields,
  };
}

function wall(x, y, hx, hy, friction) {
  return { x, y, hx, hy, friction };
}

// N balls of radius 0.5 falling into an open box.
function rain(n) {
  const spacing = 1.1;
  const columns = Math.ceil(Math.sqrt(n));
  const rows = Math.floor((n + columns - 1) / columns);
  const width = columns * spacing + 2;
  const height = rows * spacing + 4;
  const random = generator(0x5eed0001);
  const bodies = [];
  for (let i = 0; i < n; ++i) {
    const row = Math.floor(i / columns);
    const column = i % columns;
    bodies.push(body('circle', {
      radius: 0.5,
      x: -0.5 * (columns - 1) * spacing + column * spacing + random(-0.05, 0.05),
      y: 1 + row * spacing,
    }));
  }
  return {
    gravity: [0, -10],
    walls: [wall(0, -0.5, 0.5 * width + 1, 0.5, 0.6), wall(-0.5 * width - 0.5, 0.5 * height, 0.5, 0.5 * height, 0.6),
      wall(0.5 * width + 0.5, 0.5 * height, 0.5, 0.5 * height, 0.6)],
    bodies,
    inside: [-0.5 * width, 0, 0.5 * width, 1e30],
  };
}

// A pyramid of unit boxes, `base` in the bottom row.
function pyramid(base) {
  const bodies = [];
  for (let row = 0; row < base; ++row) {
    const inRow = base - row;
    for (let i = 0; i < inRow; ++i) {
      bodies.push(body('box', { hx: 0.5, hy: 0.5, x: (i - 0.5 * (inRow - 1)) * 1, y: 0.5 + row * 1 }));
    }
  }
  return {
    gravity: [0, -10],
    walls: [wall(0, -1, base + 20, 1, 0.6)],
    bodies,
    inside: [-(base + 20), 0, base + 20, 1e30],
  };
}

// N top-down cars (1 m by 2 m boxes) in a walled square, no gravity, random headings and speeds.
function arena(n) {
  const spacing = 3;
  const columns = Math.ceil(Math.sqrt(n));
  const half = 0.5 * columns * spacing + 2;
  const random = generator(0x5eed0003);
  const bodies = [];
  for (let i = 0; i < n; ++i) {
    const row = Math.floor(i / columns);
    const column = i % columns;
    const jitterY = random(-0.3, 0.3); // y's jitter first, as bench/scenes.c draws them
    const jitterX = random(-0.3, 0.3);
    const angle = random(-Math.PI, Math.PI);
    const speed = random(0, 20);
    const heading = random(-Math.PI, Math.PI);
    bodies.push(body('box', {
      hx: 0.5, hy: 1,
      x: -0.5 * (columns - 1) * spacing + column * spacing + jitterX,
      y: -0.5 * (columns - 1) * spacing + row * spacing + jitterY,
      angle, vx: speed * Math.cos(heading), vy: speed * Math.sin(heading),
      linearDamping: 0.5, angularDamping: 0.5, friction: 0.3, restitution: 0.5,
    }));
  }
  return {
    gravity: [0, 0],
    walls: [wall(0, -half - 0.5, half + 1, 0.5, 0.3), wall(0, half + 0.5, half + 1, 0.5, 0.3),
      wall(-half - 0.5, 0, 0.5, half + 1, 0.3), wall(half + 0.5, 0, 0.5, half + 1, 0.3)],
    bodies,
    inside: [-half, -half, half, half],
  };
}

export const SCENES = { rain, pyramid, arena };

/** The description of `name` at size n: {gravity, walls, bodies, inside: [minX, minY, maxX, maxY]}. */
export function describe(name, n) {
  const make = SCENES[name];
  if (!make) {
    throw new Error(`unknown scene '${name}': ${Object.keys(SCENES).join(', ')}`);
  }
  return make(n);
}
