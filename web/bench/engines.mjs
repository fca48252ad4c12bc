// The benchmark's engine adapters, shared by the node runner (bench.mjs) and the browser page
// (browser.html, page.mjs); docs/web.md. Each adapter gets its library from a loader, because
// node and the browser find them differently:
//   load.carom()      -> build-web/carom.mjs's default export (the loader of carom.wasm)
//   load.rapier()     -> @dimforge/rapier2d-compat's default export (its wasm inlined)
//   load.planck()     -> planck's module namespace
//   load.matter()     -> matter-js's Matter object
//   load.version(pkg) -> the installed version of an npm package (packages may not export their
//                        package.json, so the loader reads it from node_modules)
// Each engine is used at its documented defaults (solver iterations, sleeping, continuous
// collision), stepping 1/60 s; only the scene's own numbers (bodies, walls, materials, damping,
// gravity) are set.

export const DT = 1 / 60;

// ---- The engines: build(desc) -> {step(), positions() -> [x, y, ...] of the dynamic bodies} ----

async function caromEngine(load, simd, sleep) {
  const loadCarom = await load.carom();
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

async function rapierEngine(load, sleep) {
  const RAPIER = await load.rapier();
  await RAPIER.init();
  return {
    label: 'Rapier',
    version: await load.version('@dimforge/rapier2d-compat'),
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

async function planckEngine(load, sleep) {
  const planck = await load.planck();
  return {
    label: 'planck.js',
    version: await load.version('planck'),
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
async function matterEngine(load) {
  const Matter = await load.matter();
  const S = 50;
  return {
    label: 'Matter.js',
    version: await load.version('matter-js'),
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

export const engineNames = ['carom', 'carom-scalar', 'rapier', 'planck', 'matter'];

// The engines named in `wanted` (of engineNames), in that order; `sleep` false keeps every body
// awake in the engines that sleep by default.
export async function createEngines(wanted, load, sleep) {
  const makers = {
    carom: () => caromEngine(load, true, sleep), 'carom-scalar': () => caromEngine(load, false, sleep),
    rapier: () => rapierEngine(load, sleep), planck: () => planckEngine(load, sleep), matter: () => matterEngine(load),
  };
  const engines = [];
  for (const name of wanted) {
    if (!makers[name]) {
      throw new Error(`unknown engine '${name}': ${engineNames.join(', ')}`);
    }
    engines.push(await makers[name]());
  }
  return engines;
}
