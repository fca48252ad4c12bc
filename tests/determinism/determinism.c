/* The determinism program: runs a fixed list of scenes and prints, after 1, 10, 100 and 1000
 * steps, a hash of the exact bits of every body's state, one line `scene steps hash` each.
 * CI builds it with every compiler, optimisation level, sanitizer and architecture that
 * docs/determinism.md lists and compares its output with tests/determinism/golden.txt: carom
 * promises the same bits everywhere, so any difference is a failure.
 *
 * Snapshots are checked across the same builds. After step 100 each scene's world is saved
 * (CAROM_SNAPSHOT_FULL) and the line `scene snapshot100 hash` hashes the bytes: every build must
 * write the same bytes. The snapshots the reference build wrote (tests/determinism/snapshots/,
 * compiled in by embed_snapshots.py) are then restored: the scene runs again to step 100, the
 * reference build's snapshot is restored over it, and the run continues to step 1000 with the
 * same scripted calls; `scene resumed1000 hash` must equal `scene 1000 hash`, this build's own
 * straight run, as well as the golden file. So a snapshot written by one build loads in every
 * other and continues the same run.
 *
 *   determinism [--write]               print every line (the golden file's contents)
 *   determinism --check golden.txt      exit 1, listing each difference, unless all lines match
 *                                       and every snapshot check passes
 *   determinism --scene NAME ...        only that scene (repeatable), with any mode
 *   determinism --write-snapshots DIR   write DIR/SCENE.snap, each scene's step-100 snapshot,
 *                                       and nothing else (regenerate.sh)
 *   determinism --every-step            a line after every step (resumed runs: `resumedN`)
 *   determinism --list                  the scene names
 *
 * The hash is carom_bodies_hash() over the tracked bodies in creation order: FNV-1a 64 over
 * the IEEE 754 bits of position x, y, rotation cosine, sine, linear velocity x, y and angular
 * velocity, each double fed least significant byte first, byte by byte (as
 * carom_determinism_selftest hashes its bodies). The
 * scenes use the public API and the shared builders of bench/scenes.h only. Scripted calls
 * (launching a ball, destroying and adding bodies, waking) happen before the step they are
 * listed at, so they are part of "the same calls". */
#include <carom/carom.h>
#include <carom/snapshot.h>

#include "embedded_snapshots.h"
#include "scenes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DT (1.0 / 60.0)
#define MAX_STEPS 1000
static const int report_steps[] = {1, 10, 100, 1000};
#define REPORT_COUNT ((int)(sizeof report_steps / sizeof report_steps[0]))

/* ---- A run: the world and the bodies whose state is hashed ---------------------------------- */

typedef struct run {
    carom_world_id world;
    carom_body_id* bodies; /* tracked (non-static) bodies, creation order; null once destroyed */
    int count;
    int capacity;
    uint64_t random; /* xorshift64 state for the scenes that draw numbers */
} run;

static int track(run* r, carom_body_id body) {
    if (CAROM_IS_NULL(body)) {
        return -1;
    }
    if (r->count == r->capacity) {
        int capacity = r->capacity == 0 ? 64 : 2 * r->capacity;
        carom_body_id* grown = realloc(r->bodies, (size_t)capacity * sizeof *grown);
        if (grown == NULL) {
            return -1;
        }
        r->bodies = grown;
        r->capacity = capacity;
    }
    r->bodies[r->count++] = body;
    return 0;
}

/* carom_bodies_hash over the tracked bodies; a destroyed body's null id is skipped. */
static uint64_t hash_run(const run* r) {
    return carom_bodies_hash(r->bodies, r->count);
}

/* A number in [lo, hi) from the run's fixed-seed generator (integer arithmetic, then one exact
 * scaling: the same bits everywhere). */
static double random_range(run* r, double lo, double hi) {
    r->random ^= r->random >> 12;
    r->random ^= r->random << 25;
    r->random ^= r->random >> 27;
    double unit = (double)((r->random * UINT64_C(2685821657736338717)) >> 11) / 9007199254740992.0;
    return lo + (hi - lo) * unit;
}

/* ---- Building blocks ---------------------------------------------------------------------- */

typedef struct material {
    double density, friction, restitution;
} material;

static carom_shape_def shape_def(material m) {
    carom_shape_def def = carom_default_shape_def();
    def.density = m.density;
    def.friction = m.friction;
    def.restitution = m.restitution;
    return def;
}

static carom_body_id static_body(run* r) {
    carom_body_def def = carom_default_body_def();
    return carom_create_body(r->world, &def);
}

/* A tracked body of the given type; its shape is the caller's to add. */
static carom_body_id moving_body(run* r, carom_body_type type, carom_vec2 position, double angle,
                                 carom_vec2 velocity, double damping, int bullet) {
    carom_body_def def = carom_default_body_def();
    def.type = type;
    def.position = position;
    def.angle = angle;
    def.linear_velocity = velocity;
    def.linear_damping = damping;
    def.angular_damping = damping;
    def.bullet = bullet;
    carom_body_id body = carom_create_body(r->world, &def);
    return track(r, body) < 0 ? (carom_body_id){0} : body;
}

static int add_circle(carom_body_id body, material m, carom_vec2 center, double radius) {
    carom_shape_def def = shape_def(m);
    carom_circle circle = {center, radius};
    return CAROM_IS_NULL(carom_create_circle_shape(body, &def, &circle)) ? -1 : 0;
}

static int add_box(carom_body_id body, material m, double hx, double hy, carom_vec2 center,
                   double angle) {
    carom_shape_def def = shape_def(m);
    return CAROM_IS_NULL(carom_create_box_shape(body, &def, hx, hy, center, angle)) ? -1 : 0;
}

/* A regular polygon of `sides` vertices at distance radius from center (carom's own cosine and
 * sine, so the vertices have the same bits everywhere). */
static int add_regular_polygon(carom_body_id body, material m, int sides, double radius,
                               carom_vec2 center) {
    carom_vec2 points[CAROM_MAX_POLYGON_VERTICES];
    for (int i = 0; i < sides; ++i) {
        carom_rot q = carom_make_rot(2.0 * CAROM_PI * i / sides);
        points[i] = carom_v2(center.x + radius * q.c, center.y + radius * q.s);
    }
    carom_polygon polygon;
    if (carom_make_polygon(points, sides, &polygon) != CAROM_OK) {
        return -1;
    }
    carom_shape_def def = shape_def(m);
    return CAROM_IS_NULL(carom_create_polygon_shape(body, &def, &polygon)) ? -1 : 0;
}

static int add_chain(carom_body_id body, material m, const carom_vec2* points, int count,
                     int loop) {
    carom_shape_def def = shape_def(m);
    return carom_create_chain(body, &def, points, count, loop, NULL) == CAROM_OK ? 0 : -1;
}

static int add_segment(carom_body_id body, material m, carom_vec2 a, carom_vec2 b) {
    carom_shape_def def = shape_def(m);
    carom_segment segment = {a, b};
    return CAROM_IS_NULL(carom_create_segment_shape(body, &def, &segment)) ? -1 : 0;
}

static carom_world_id make_world(carom_vec2 gravity, int substeps) {
    carom_world_def def = carom_default_world_def();
    def.gravity = gravity;
    def.substeps = substeps;
    return carom_create_world(&def);
}

/* ---- The scenes from bench/scenes.h, at the sizes the benchmark runs ----------------------- */

static int build_bench(run* r, carom_scene_kind kind, int n) {
    carom_world_def def = carom_scene_world_def(kind);
    r->world = carom_create_world(&def);
    int count = carom_scene_body_count(kind, n);
    carom_body_id* bodies = malloc((size_t)count * sizeof *bodies);
    if (CAROM_IS_NULL(r->world) || bodies == NULL ||
        carom_scene_build(r->world, kind, n, bodies) != count) {
        free(bodies);
        return -1;
    }
    int status = 0;
    for (int i = 0; i < count && status == 0; ++i) {
        status = track(r, bodies[i]);
    }
    free(bodies);
    return status;
}

static int build_rain(run* r) {
    return build_bench(r, CAROM_SCENE_RAIN, 1000);
}
static int build_pyramid(run* r) {
    return build_bench(r, CAROM_SCENE_PYRAMID, 20);
}
static int build_arena(run* r) {
    return build_bench(r, CAROM_SCENE_ARENA, 1000);
}
static int build_stack(run* r) {
    return build_bench(r, CAROM_SCENE_STACK, 10);
}

/* ---- Billiards: a top-down table, a rack of 15, a break shot -------------------------------- */

static const material ball_material = {1.0, 0.1, 0.95};

static int build_billiards(run* r) {
    r->world = make_world(carom_v2(0.0, 0.0), 8);
    if (CAROM_IS_NULL(r->world)) {
        return -1;
    }
    /* Cushions: a closed chain around a 40 m x 20 m table, corners cut where pockets would be. */
    const carom_vec2 cushion[] = {{-19.0, -10.0}, {19.0, -10.0}, {20.0, -9.0}, {20.0, 9.0},
                                  {19.0, 10.0},   {-19.0, 10.0}, {-20.0, 9.0}, {-20.0, -9.0}};
    material cushion_material = {1.0, 0.2, 0.8};
    if (add_chain(static_body(r), cushion_material, cushion, 8, 1) < 0) {
        return -1;
    }
    /* The rack: five rows of 1 m balls, apex toward the cue ball, a millimetre apart. */
    const double radius = 0.5;
    const double gap = 0.001;
    const double row_spacing = (2.0 * radius + gap) * 0.86602540378443864676; /* cos 30° */
    for (int row = 0; row < 5; ++row) {
        for (int i = 0; i <= row; ++i) {
            carom_vec2 position =
                carom_v2(8.0 + row * row_spacing, (i - 0.5 * row) * (2.0 * radius + gap));
            carom_body_id ball =
                moving_body(r, CAROM_BODY_DYNAMIC, position, 0.0, carom_v2(0.0, 0.0), 0.2, 0);
            if (CAROM_IS_NULL(ball) ||
                add_circle(ball, ball_material, carom_v2(0.0, 0.0), radius) < 0) {
                return -1;
            }
        }
    }
    /* The cue ball, a bullet at 60 m/s (one diameter per step), slightly off-center. */
    carom_body_id cue =
        moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(-10.0, 0.05), 0.0, carom_v2(60.0, 0.0), 0.2, 1);
    if (CAROM_IS_NULL(cue) || add_circle(cue, ball_material, carom_v2(0.0, 0.0), radius) < 0) {
        return -1;
    }
    return 0;
}

/* ---- Crash arena: bullet cars rammed together, again and again ------------------------------ */

#define CRASH_CARS 48

static const material car_material = {1.0, 0.5, 0.3};

static int build_crash(run* r) {
    r->world = make_world(carom_v2(0.0, 0.0), 4);
    r->random = UINT64_C(0x5eedc4a5);
    if (CAROM_IS_NULL(r->world)) {
        return -1;
    }
    carom_body_id ground = static_body(r);
    const carom_vec2 walls[] = {{-40.0, -40.0}, {40.0, -40.0}, {40.0, 40.0}, {-40.0, 40.0}};
    material wall = {1.0, 0.4, 0.2};
    if (add_chain(ground, wall, walls, 4, 1) < 0 ||
        add_segment(ground, wall, carom_v2(-30.0, 20.0), carom_v2(-20.0, 30.0)) < 0 ||
        add_circle(ground, wall, carom_v2(0.0, 0.0), 1.5) < 0) {
        return -1;
    }
    for (int i = 0; i < 4; ++i) {
        carom_vec2 at = carom_v2(i % 2 == 0 ? -15.0 : 15.0, i < 2 ? -15.0 : 15.0);
        if (add_box(ground, wall, 1.0, 1.0, at, 0.25 * i) < 0) {
            return -1;
        }
    }
    /* Cars on a ring of radius 30, each aimed near the center at 40 to 90 m/s: up to 1.5 m per
     * step, more than three of the car's half widths. */
    for (int i = 0; i < CRASH_CARS; ++i) {
        double around = 2.0 * CAROM_PI * i / CRASH_CARS + random_range(r, -0.02, 0.02);
        carom_rot place = carom_make_rot(around);
        double heading = around + CAROM_PI + random_range(r, -0.3, 0.3);
        carom_rot aim = carom_make_rot(heading);
        double speed = random_range(r, 40.0, 90.0);
        carom_body_id car =
            moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(30.0 * place.c, 30.0 * place.s), heading,
                        carom_v2(speed * aim.c, speed * aim.s), 0.3, 1);
        if (CAROM_IS_NULL(car) ||
            add_box(car, car_material, 0.9, 0.45, carom_v2(0.0, 0.0), 0.0) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Every 250 steps, every car is aimed at a point near the center again at full speed. */
static int script_crash(run* r, int step) {
    if (step == 0 || step % 250 != 0) {
        return 0;
    }
    for (int i = 0; i < r->count; ++i) {
        carom_vec2 position = carom_body_get_position(r->bodies[i]);
        /* x is drawn before y: never two draws in one argument list, whose evaluation order C
         * leaves to the compiler (gcc on x86-64 and on aarch64 choose differently). */
        double target_x = random_range(r, -5.0, 5.0);
        double target_y = random_range(r, -5.0, 5.0);
        carom_vec2 target = carom_v2(target_x, target_y);
        carom_vec2 toward = carom_v2(target.x - position.x, target.y - position.y);
        double length = carom_length(toward);
        double speed = random_range(r, 40.0, 90.0);
        if (length > 1e-9 && carom_body_set_linear_velocity(
                                 r->bodies[i], carom_v2(speed * toward.x / length,
                                                        speed * toward.y / length)) != CAROM_OK) {
            return -1;
        }
    }
    return 0;
}

/* ---- Sleep and wake: settled piles hit, pushed and woken ------------------------------------ */

#define SLEEP_LAUNCH_STEP 240
#define SLEEP_PUSH_STEP 600
#define SLEEP_WAKE_STEP 800

/* Tracked body indices of the scene's actors. */
enum { SLEEP_BALL = 0, SLEEP_STACK_BASE = 1, SLEEP_STACK_COUNT = 6 };

static int build_sleep(run* r) {
    r->world = make_world(carom_v2(0.0, -10.0), 4);
    if (CAROM_IS_NULL(r->world)) {
        return -1;
    }
    material ground_material = {1.0, 0.6, 0.0};
    carom_body_id ground = static_body(r);
    if (add_box(ground, ground_material, 40.0, 1.0, carom_v2(0.0, -1.0), 0.0) < 0 ||
        add_segment(ground, ground_material, carom_v2(30.0, 0.0), carom_v2(30.0, 10.0)) < 0) {
        return -1;
    }
    material heavy = {1.0, 0.6, 0.1};
    carom_body_id ball =
        moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(-20.0, 0.6), 0.0, carom_v2(0.0, 0.0), 0.0, 0);
    if (CAROM_IS_NULL(ball) || add_circle(ball, heavy, carom_v2(0.0, 0.0), 0.6) < 0) {
        return -1;
    }
    /* A stack of six boxes, a small pyramid of three rows, and a capsule-like pair of shapes. */
    material box_material = {1.0, 0.6, 0.0};
    for (int i = 0; i < SLEEP_STACK_COUNT; ++i) {
        carom_body_id box = moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.5 + i), 0.0,
                                        carom_v2(0.0, 0.0), 0.0, 0);
        if (CAROM_IS_NULL(box) ||
            add_box(box, box_material, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0) < 0) {
            return -1;
        }
    }
    for (int row = 0; row < 3; ++row) {
        for (int i = 0; i < 3 - row; ++i) {
            carom_vec2 at = carom_v2(10.0 + (i - 0.5 * (2 - row)) * 1.05, 0.5 + row);
            carom_body_id box =
                moving_body(r, CAROM_BODY_DYNAMIC, at, 0.0, carom_v2(0.0, 0.0), 0.0, 0);
            if (CAROM_IS_NULL(box) ||
                add_box(box, box_material, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0) < 0) {
                return -1;
            }
        }
    }
    carom_body_id capsule =
        moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(5.0, 0.4), 0.0, carom_v2(0.0, 0.0), 0.0, 0);
    if (CAROM_IS_NULL(capsule) ||
        add_box(capsule, box_material, 0.8, 0.4, carom_v2(0.0, 0.0), 0.0) < 0 ||
        add_circle(capsule, box_material, carom_v2(-0.8, 0.0), 0.4) < 0 ||
        add_circle(capsule, box_material, carom_v2(0.8, 0.0), 0.4) < 0) {
        return -1;
    }
    return 0;
}

static int script_sleep(run* r, int step) {
    carom_status status = CAROM_OK;
    if (step == SLEEP_LAUNCH_STEP) {
        /* Everything has slept for seconds: the ball crosses the capsule's gap into the stack. */
        status = carom_body_set_linear_velocity(r->bodies[SLEEP_BALL], carom_v2(24.0, 2.0));
    } else if (step == SLEEP_PUSH_STEP) {
        /* The pyramid's top box (the last box made) gets a shove while asleep. */
        carom_body_id top = r->bodies[SLEEP_STACK_BASE + SLEEP_STACK_COUNT + 5];
        carom_vec2 at = carom_body_get_world_center(top);
        status =
            carom_body_apply_linear_impulse(top, carom_v2(-6.0, 1.0), carom_v2(at.x, at.y + 0.3));
    } else if (step == SLEEP_WAKE_STEP) {
        /* Woken without a push: the island must rest its time again and fall back asleep. */
        for (int i = 0; i < r->count && status == CAROM_OK; ++i) {
            status = carom_body_wake(r->bodies[i]);
        }
    }
    return status == CAROM_OK ? 0 : -1;
}

/* ---- Mixed: every shape kind on a chain terrain, a kinematic paddle, bodies come and go ---- */

#define MIXED_BODIES 150
#define MIXED_DESTROY_STEP 300
#define MIXED_ADD_STEP 330
#define MIXED_PUSH_FIRST 400
#define MIXED_PUSH_LAST 450

static int add_mixed_body(run* r, int i, carom_vec2 position) {
    double angle = 0.37 * i;
    carom_body_id body =
        moving_body(r, CAROM_BODY_DYNAMIC, position, angle, carom_v2(0.0, 0.0), 0.05 * (i % 3), 0);
    if (CAROM_IS_NULL(body)) {
        return -1;
    }
    material m = {0.5 + 0.25 * (i % 5), 0.2 + 0.15 * (i % 4), 0.1 * (i % 6)};
    carom_vec2 origin = carom_v2(0.0, 0.0);
    switch (i % 7) {
    case 0:
        return add_circle(body, m, origin, 0.3 + 0.05 * (i % 4));
    case 1:
        return add_box(body, m, 0.5, 0.3, origin, 0.0);
    case 2:
        return add_regular_polygon(body, m, 3, 0.5, origin);
    case 3:
        return add_regular_polygon(body, m, 5, 0.45, origin);
    case 4:
        return add_regular_polygon(body, m, 8, 0.4, carom_v2(0.1, -0.05));
    case 5: /* two shapes: a box with a ball on its end */
        if (add_box(body, m, 0.6, 0.2, origin, 0.3) < 0) {
            return -1;
        }
        return add_circle(body, m, carom_v2(0.6, 0.0), 0.25);
    default:
        return add_regular_polygon(body, m, 6, 0.45, origin);
    }
}

static int build_mixed(run* r) {
    r->world = make_world(carom_v2(0.0, -10.0), 4);
    if (CAROM_IS_NULL(r->world)) {
        return -1;
    }
    /* Terrain: an open chain over hills and valleys, walls up both ends. */
    const double heights[] = {0.0, 1.5, 0.5,  -0.5, 2.0, 1.0, 0.0, -1.0, -0.5, 1.0, 3.0,
                              1.5, 0.0, -1.5, -0.5, 0.5, 2.5, 1.0, 0.0,  0.5,  1.0};
    const int hills = (int)(sizeof heights / sizeof heights[0]);
    carom_vec2 terrain[2 + sizeof heights / sizeof heights[0]];
    terrain[0] = carom_v2(-30.0, 30.0);
    for (int i = 0; i < hills; ++i) {
        terrain[i + 1] = carom_v2(-30.0 + 60.0 * i / (hills - 1), heights[i]);
    }
    terrain[hills + 1] = carom_v2(30.0, 30.0);
    material ground_material = {1.0, 0.6, 0.1};
    carom_body_id ground = static_body(r);
    if (add_chain(ground, ground_material, terrain, hills + 2, 0) < 0 ||
        add_segment(ground, ground_material, carom_v2(-20.0, 12.0), carom_v2(-8.0, 8.0)) < 0 ||
        add_box(ground, ground_material, 2.0, 0.25, carom_v2(18.0, 10.0), -0.3) < 0) {
        return -1;
    }
    /* A sensor in the middle: tracked as contacts, never pushes. */
    carom_shape_def sensor = carom_default_shape_def();
    sensor.is_sensor = 1;
    if (CAROM_IS_NULL(carom_create_box_shape(ground, &sensor, 3.0, 3.0, carom_v2(0.0, 6.0), 0.0))) {
        return -1;
    }
    /* A kinematic paddle turning at 1.5 rad/s. */
    carom_body_def paddle_def = carom_default_body_def();
    paddle_def.type = CAROM_BODY_KINEMATIC;
    paddle_def.position = carom_v2(8.0, 8.0);
    paddle_def.angular_velocity = 1.5;
    carom_body_id paddle = carom_create_body(r->world, &paddle_def);
    if (track(r, paddle) < 0 ||
        add_box(paddle, ground_material, 4.0, 0.2, carom_v2(0.0, 0.0), 0.0) < 0) {
        return -1;
    }
    for (int i = 0; i < MIXED_BODIES; ++i) {
        carom_vec2 at = carom_v2(-24.0 + 2.0 * (i % 25), 15.0 + 2.0 * (i / 25) + 0.1 * (i % 3));
        if (add_mixed_body(r, i, at) < 0) {
            return -1;
        }
    }
    return 0;
}

static int script_mixed(run* r, int step) {
    if (step == MIXED_DESTROY_STEP) {
        /* Every tenth body goes; the freed ids are reused by the bodies added next. */
        for (int i = 1; i < r->count; i += 10) {
            if (carom_destroy_body(r->bodies[i]) != CAROM_OK) {
                return -1;
            }
            r->bodies[i] = (carom_body_id){0};
        }
    } else if (step == MIXED_ADD_STEP) {
        for (int i = 0; i < 20; ++i) {
            if (add_mixed_body(r, MIXED_BODIES + i, carom_v2(-10.0 + 1.5 * i, 22.0)) < 0) {
                return -1;
            }
        }
    } else if (step >= MIXED_PUSH_FIRST && step <= MIXED_PUSH_LAST) {
        /* A steady push and a twist on one body for a while (index 0 is the paddle). */
        carom_body_id body = r->bodies[3];
        if (carom_body_apply_force_to_center(body, carom_v2(30.0, 40.0)) != CAROM_OK ||
            carom_body_apply_torque(body, 5.0) != CAROM_OK) {
            return -1;
        }
    }
    return 0;
}

/* ---- Joints: every kind, a chain, a cart on wheel joints, motors, a snapping link ---------- */

#define JOINTS_SPEED_STEP 200
#define JOINTS_TARGET_STEP 300
#define JOINTS_DESTROY_STEP 450

typedef struct joints_scene {
    carom_joint_id cart_motor, mouse, destroyed;
} joints_scene;
static joints_scene joints_actors;

static int joined(carom_joint_id joint) { return CAROM_IS_NULL(joint) ? -1 : 0; }

/* A chain of `links` boxes hinged from the static body `hook` at `top`, hanging to the right and
 * falling; the last link's hinge breaks above `break_force` (N, 0: never). */
static int add_hanging_chain(run* r, carom_body_id hook, carom_vec2 top, int links,
                             double break_force) {
    material link_material = {2.0, 0.4, 0.0};
    carom_body_id previous = hook;
    for (int i = 0; i < links; ++i) {
        carom_body_id link = moving_body(r, CAROM_BODY_DYNAMIC,
                                         carom_v2(top.x + 0.25 + 0.5 * i, top.y), 0.0,
                                         carom_v2(0.0, 0.0), 0.0, 0);
        if (CAROM_IS_NULL(link) ||
            add_box(link, link_material, 0.25, 0.06, carom_v2(0.0, 0.0), 0.0) < 0) {
            return -1;
        }
        carom_revolute_joint_def def = carom_default_revolute_joint_def();
        def.anchor = carom_v2(top.x + 0.5 * i, top.y);
        def.break_force = i == links - 1 ? break_force : 0.0;
        if (joined(carom_create_revolute_joint(previous, link, &def)) < 0) {
            return -1;
        }
        previous = link;
    }
    return 0;
}

static int add_cart(run* r, carom_vec2 at) {
    material body_material = {1.0, 0.6, 0.0};
    carom_body_id chassis =
        moving_body(r, CAROM_BODY_DYNAMIC, at, 0.0, carom_v2(0.0, 0.0), 0.0, 0);
    if (CAROM_IS_NULL(chassis) ||
        add_box(chassis, body_material, 1.2, 0.25, carom_v2(0.0, 0.0), 0.0) < 0) {
        return -1;
    }
    for (int side = -1; side <= 1; side += 2) {
        carom_vec2 axle = carom_v2(at.x + 0.8 * side, at.y - 0.5);
        carom_body_id wheel =
            moving_body(r, CAROM_BODY_DYNAMIC, axle, 0.0, carom_v2(0.0, 0.0), 0.0, 0);
        if (CAROM_IS_NULL(wheel) || add_circle(wheel, body_material, carom_v2(0.0, 0.0), 0.35) < 0) {
            return -1;
        }
        carom_wheel_joint_def def = carom_default_wheel_joint_def();
        def.anchor = axle;
        def.hertz = 4.0;
        def.enable_limit = 1;
        def.lower_translation = -0.2;
        def.upper_translation = 0.2;
        def.enable_motor = side < 0;
        def.motor_speed = -8.0;
        def.max_motor_torque = 40.0;
        carom_joint_id joint = carom_create_wheel_joint(chassis, wheel, &def);
        if (joined(joint) < 0) {
            return -1;
        }
        if (side < 0) {
            joints_actors.cart_motor = joint;
        }
    }
    return 0;
}

static int add_gadgets(run* r, carom_body_id ground) {
    material m = {1.0, 0.5, 0.1};
    /* a slider on a spring with limits, a plate welded on it softly */
    carom_body_id slider =
        moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(-8.0, 3.0), 0.0, carom_v2(0.0, 0.0), 0.0, 0);
    carom_body_id plate =
        moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(-8.0, 3.6), 0.0, carom_v2(0.0, 0.0), 0.0, 0);
    if (CAROM_IS_NULL(slider) || CAROM_IS_NULL(plate) ||
        add_box(slider, m, 0.3, 0.3, carom_v2(0.0, 0.0), 0.0) < 0 ||
        add_box(plate, m, 0.8, 0.05, carom_v2(0.0, 0.0), 0.0) < 0) {
        return -1;
    }
    carom_prismatic_joint_def prismatic = carom_default_prismatic_joint_def();
    prismatic.anchor = carom_v2(-8.0, 3.0);
    prismatic.axis = carom_v2(0.2, 1.0);
    prismatic.enable_spring = 1;
    prismatic.hertz = 1.5;
    prismatic.damping_ratio = 0.2;
    prismatic.enable_limit = 1;
    prismatic.lower_translation = -2.0;
    prismatic.upper_translation = 1.0;
    carom_weld_joint_def weld = carom_default_weld_joint_def();
    weld.anchor = carom_v2(-8.0, 3.3);
    weld.angular_hertz = 5.0;
    weld.angular_damping_ratio = 0.4;
    if (joined(carom_create_prismatic_joint(ground, slider, &prismatic)) < 0 ||
        joined(carom_create_weld_joint(slider, plate, &weld)) < 0) {
        return -1;
    }
    /* a ball on a spring, dragged by a mouse joint; a box driven to a pose by a motor joint */
    carom_body_id ball =
        moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(6.0, 4.0), 0.0, carom_v2(0.0, 0.0), 0.0, 0);
    carom_body_id box =
        moving_body(r, CAROM_BODY_DYNAMIC, carom_v2(9.0, 0.5), 0.0, carom_v2(0.0, 0.0), 0.0, 0);
    if (CAROM_IS_NULL(ball) || CAROM_IS_NULL(box) ||
        add_circle(ball, m, carom_v2(0.0, 0.0), 0.3) < 0 ||
        add_box(box, m, 0.4, 0.4, carom_v2(0.0, 0.0), 0.0) < 0) {
        return -1;
    }
    carom_distance_joint_def spring = carom_default_distance_joint_def();
    spring.anchor_a = carom_v2(6.0, 7.0);
    spring.anchor_b = carom_v2(6.0, 4.0);
    spring.enable_spring = 1;
    spring.hertz = 2.0;
    spring.damping_ratio = 0.1;
    spring.enable_limit = 1;
    spring.max_length = 4.0;
    carom_mouse_joint_def mouse = carom_default_mouse_joint_def();
    mouse.target = carom_v2(6.1, 4.1);
    mouse.max_force = 40.0;
    carom_motor_joint_def motor = carom_default_motor_joint_def();
    motor.linear_offset = carom_v2(9.0, 3.0);
    motor.angular_offset = 0.7;
    motor.max_force = 80.0;
    motor.max_torque = 10.0;
    joints_actors.mouse = carom_create_mouse_joint(ball, &mouse);
    joints_actors.destroyed = carom_create_motor_joint(ground, box, &motor);
    return joined(carom_create_distance_joint(ground, ball, &spring)) < 0 ||
                   joined(joints_actors.mouse) < 0 || joined(joints_actors.destroyed) < 0
               ? -1
               : 0;
}

static int build_joints(run* r) {
    r->world = make_world(carom_v2(0.0, -10.0), 4);
    if (CAROM_IS_NULL(r->world)) {
        return -1;
    }
    material ground_material = {1.0, 0.8, 0.0};
    carom_body_id ground = static_body(r);
    if (add_box(ground, ground_material, 30.0, 1.0, carom_v2(0.0, -1.0), 0.0) < 0) {
        return -1;
    }
    /* two chains from a beam: the second's last link breaks when the cart's boxes hit it */
    return add_hanging_chain(r, ground, carom_v2(-4.0, 9.0), 12, 0.0) < 0 ||
                   add_hanging_chain(r, ground, carom_v2(2.0, 9.0), 8, 60.0) < 0 ||
                   add_cart(r, carom_v2(-14.0, 1.0)) < 0 || add_gadgets(r, ground) < 0
               ? -1
               : 0;
}

static int script_joints(run* r, int step) {
    (void)r;
    carom_status status = CAROM_OK;
    if (step == JOINTS_SPEED_STEP) {
        status = carom_joint_set_motor_speed(joints_actors.cart_motor, 6.0);
    } else if (step == JOINTS_TARGET_STEP) {
        status = carom_mouse_joint_set_target(joints_actors.mouse, carom_v2(3.0, 6.0));
    } else if (step == JOINTS_DESTROY_STEP) {
        status = carom_destroy_joint(joints_actors.destroyed);
    }
    return status == CAROM_OK ? 0 : -1;
}

/* ---- The list ----------------------------------------------------------------------------- */

typedef struct scene {
    const char* name;
    int (*build)(run* r);
    int (*script)(run* r, int step); /* called before each step (0-based), may be NULL */
} scene;

static const scene scenes[] = {
    {"rain_1000", build_rain, NULL},           {"pyramid_20", build_pyramid, NULL},
    {"arena_1000", build_arena, NULL},         {"stack_10", build_stack, NULL},
    {"billiards", build_billiards, NULL},      {"crash", build_crash, script_crash},
    {"sleep_wake", build_sleep, script_sleep}, {"mixed", build_mixed, script_mixed},
    {"joints", build_joints, script_joints},
};
#define SCENE_COUNT ((int)(sizeof scenes / sizeof scenes[0]))

/* One output line: `name label hash`, label being a step count ("1", "10", "100", "1000", the
 * self-test's "240") or "snapshot100" and "resumed1000". */
typedef struct result {
    char name[48];
    char label[16];
    uint64_t hash;
} result;

/* Per scene: the straight run's REPORT_COUNT lines, snapshot100, and resumed1000. */
#define LINES_PER_SCENE (REPORT_COUNT + 2)

typedef struct options {
    int verbose;
    int every;
    /* Where the snapshot checks' failures go: stdout with --check, whose output is the list of
     * differences; stderr otherwise, whose stdout must stay the golden file's contents. */
    FILE* report;
} options;

static void add_result(result* out, int* count, const char* name, const char* label,
                       uint64_t hash) {
    snprintf(out[*count].name, sizeof out[*count].name, "%s", name);
    snprintf(out[*count].label, sizeof out[*count].label, "%s", label);
    out[*count].hash = hash;
    ++*count;
}

static const result* find(const result* lines, int count, const char* name, const char* label) {
    for (int i = 0; i < count; ++i) {
        if (strcmp(lines[i].label, label) == 0 && strcmp(lines[i].name, name) == 0) {
            return &lines[i];
        }
    }
    return NULL;
}

/* ---- Snapshots ---------------------------------------------------------------------------- */

/* The step after which the straight run saves and the resumed run restores. */
#define SNAPSHOT_STEP 100
/* Steps the resumed run takes past SNAPSHOT_STEP before it restores the step-100 snapshot: the
 * world it restores into then differs (poses, contacts, sleep timers, step count), so a restore
 * that silently kept the world as it was cannot pass for one that worked. */
#define DETOUR_STEPS 10

/* FNV-1a 64 over bytes, as the body hash (the snapshot's own checksums are the engine's business:
 * this one is the program's, so a wrong checksum cannot hide a wrong snapshot). */
static uint64_t hash_bytes(const unsigned char* bytes, size_t size) {
    uint64_t hash = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < size; ++i) {
        hash ^= bytes[i];
        hash *= UINT64_C(1099511628211);
    }
    return hash;
}

/* The offset of the first byte where two buffers differ (the shorter one's size if one is a
 * prefix of the other), to say where two builds' snapshots part. */
static size_t first_difference(const unsigned char* a, size_t a_size, const unsigned char* b,
                               size_t b_size) {
    size_t i = 0;
    while (i < a_size && i < b_size && a[i] == b[i]) {
        ++i;
    }
    return i;
}

/* "(both N bytes; first difference at byte K)" or "(N bytes, not M; ...)": where a snapshot
 * parts from the one it should equal. */
static const char* describe_difference(char* text, size_t capacity, const unsigned char* got,
                                       size_t got_size, const unsigned char* expected,
                                       size_t expected_size) {
    size_t at = first_difference(got, got_size, expected, expected_size);
    if (got_size == expected_size) {
        snprintf(text, capacity, "both %zu bytes; first difference at byte %zu", got_size, at);
    } else {
        snprintf(text, capacity, "%zu bytes, not %zu; first difference at byte %zu", got_size,
                 expected_size, at);
    }
    return text;
}

/* A FULL snapshot of the world in a buffer of its exact size (the caller frees it). */
static int save_world(carom_world_id world, unsigned char** bytes, size_t* size) {
    size_t needed = 0;
    if (carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &needed) != CAROM_OK) {
        return -1;
    }
    unsigned char* buffer = malloc(needed > 0 ? needed : 1);
    if (buffer == NULL) {
        return -1;
    }
    size_t written = 0;
    if (carom_world_save(world, CAROM_SNAPSHOT_FULL, buffer, needed, &written) != CAROM_OK ||
        written != needed) {
        free(buffer);
        return -1;
    }
    *bytes = buffer;
    *size = written;
    return 0;
}

static const carom_embedded_snapshot* embedded_snapshot(const char* scene_name) {
    for (const carom_embedded_snapshot* e = carom_embedded_snapshots; e->scene != NULL; ++e) {
        if (strcmp(e->scene, scene_name) == 0) {
            return e;
        }
    }
    return NULL;
}

/* ---- Running a scene ---------------------------------------------------------------------- */

/* One step of a scene: its scripted calls for this step, then the step. */
static int advance(const scene* s, run* r, int step) {
    if (s->script != NULL && s->script(r, step) != 0) {
        return -1;
    }
    return carom_world_step(r->world, DT) == CAROM_OK ? 0 : -1;
}

/* --every-step and --verbose output after `steps` steps; the resumed run's lines are labelled
 * `resumedN`, so diffing two builds' output still lines up run for run. */
static void progress(const options* o, const scene* s, const run* r, int steps, int resumed) {
    if (o->every) {
        printf("%s %s%d %016" PRIx64 "\n", s->name, resumed ? "resumed" : "", steps, hash_run(r));
    }
    if (o->verbose && steps % 50 == 0) {
        carom_world_counters c = carom_world_get_counters(r->world);
        fprintf(stderr,
                "  %s %sstep %4d: bodies %d awake %d sleeping islands %d contacts %d "
                "touching %d\n",
                s->name, resumed ? "resumed " : "", steps, c.body_count, c.awake_body_count,
                c.sleeping_island_count, c.contact_count, c.touching_count);
    }
}

static void finish_run(run* r) {
    if (!CAROM_IS_NULL(r->world)) {
        carom_destroy_world(r->world);
    }
    free(r->bodies);
}

/* The straight run: MAX_STEPS steps, a line after each of report_steps, and a FULL snapshot
 * after SNAPSHOT_STEP, returned in *snapshot (the caller frees it) and hashed as the line
 * `snapshot100`. Returns 0, or -1 if an API call failed. */
static int run_straight(const scene* s, const options* o, result* out, int* count,
                        unsigned char** snapshot, size_t* snapshot_size) {
    run r;
    memset(&r, 0, sizeof r);
    int status = s->build(&r);
    int reported = 0;
    for (int step = 0; step < MAX_STEPS && status == 0; ++step) {
        status = advance(s, &r, step);
        if (status != 0) {
            break;
        }
        if (step + 1 == report_steps[reported]) {
            char label[16];
            snprintf(label, sizeof label, "%d", step + 1);
            add_result(out, count, s->name, label, hash_run(&r));
            ++reported;
        }
        if (step + 1 == SNAPSHOT_STEP) {
            if (save_world(r.world, snapshot, snapshot_size) != 0) {
                fprintf(stderr,
                        "determinism: scene %s: saving the world after step %d failed: %s\n",
                        s->name, SNAPSHOT_STEP, carom_last_error());
                status = -2;
                break;
            }
            char label[16];
            snprintf(label, sizeof label, "snapshot%d", SNAPSHOT_STEP);
            add_result(out, count, s->name, label, hash_bytes(*snapshot, *snapshot_size));
        }
        progress(o, s, &r, step + 1, 0);
    }
    if (status == -1) {
        fprintf(stderr, "determinism: scene %s: a carom call failed: %s\n", s->name,
                carom_last_error());
    }
    finish_run(&r);
    return status == 0 ? 0 : -1;
}

/* The resumed run: the scene built afresh and stepped to SNAPSHOT_STEP with the same calls, a
 * detour of DETOUR_STEPS, then the golden snapshot (another build's bytes) restored over it and
 * the remaining steps taken with the same scripted calls at the same steps as the straight run;
 * its final hash is the line `resumed1000`. The bodies tracked are those the straight run tracks:
 * the snapshot's scene is the world's (same calls up to SNAPSHOT_STEP), so restoring keeps every
 * id valid. Also checks that saving right after the restore gives back the golden bytes exactly.
 * Returns 0, -1 if an API call failed, 1 if only that round trip failed (already reported). */
static int run_resumed(const scene* s, const options* o, const carom_embedded_snapshot* golden,
                       result* out, int* count) {
    run r;
    memset(&r, 0, sizeof r);
    int status = s->build(&r);
    int step = 0;
    for (; step < SNAPSHOT_STEP && status == 0; ++step) {
        status = advance(s, &r, step);
    }
    /* The detour steps call no script: they are not steps of the scene, and are undone. */
    for (int i = 0; i < DETOUR_STEPS && status == 0; ++i) {
        status = carom_world_step(r.world, DT) == CAROM_OK ? 0 : -1;
    }
    int round_trip_failed = 0;
    if (status == 0) {
        if (carom_world_restore(r.world, golden->bytes, golden->size) != CAROM_OK) {
            fprintf(o->report,
                    "RESTORE  %s: restoring the embedded golden snapshot (%zu bytes) failed: %s\n",
                    s->name, golden->size, carom_last_error());
            status = -2;
        } else {
            unsigned char* again = NULL;
            size_t again_size = 0;
            if (save_world(r.world, &again, &again_size) != 0) {
                status = -1;
            } else if (again_size != golden->size ||
                       memcmp(again, golden->bytes, golden->size) != 0) {
                char difference[96];
                fprintf(o->report,
                        "ROUNDTRIP %s: saving right after restoring the golden snapshot gives "
                        "other bytes (%s)\n",
                        s->name,
                        describe_difference(difference, sizeof difference, again, again_size,
                                            golden->bytes, golden->size));
                round_trip_failed = 1;
            }
            free(again);
        }
    }
    for (; step < MAX_STEPS && status == 0; ++step) {
        status = advance(s, &r, step);
        if (status == 0) {
            progress(o, s, &r, step + 1, 1);
        }
    }
    if (status == 0) {
        char label[16];
        snprintf(label, sizeof label, "resumed%d", MAX_STEPS);
        add_result(out, count, s->name, label, hash_run(&r));
    } else if (status == -1) {
        fprintf(stderr, "determinism: scene %s (resumed): a carom call failed: %s\n", s->name,
                carom_last_error());
    }
    finish_run(&r);
    return status != 0 ? -1 : round_trip_failed;
}

/* Writes DIR/NAME.snap. */
static int write_snapshot(const char* directory, const char* name, const unsigned char* bytes,
                          size_t size) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s.snap", directory, name) >= (int)sizeof path) {
        fprintf(stderr, "determinism: snapshot path too long: %s/%s.snap\n", directory, name);
        return -1;
    }
    FILE* file = fopen(path, "wb");
    if (file == NULL) {
        fprintf(stderr, "determinism: cannot create %s\n", path);
        return -1;
    }
    size_t written = fwrite(bytes, 1, size, file);
    if (fclose(file) != 0 || written != size) {
        fprintf(stderr, "determinism: cannot write %s\n", path);
        return -1;
    }
    fprintf(stderr, "determinism: wrote %s (%zu bytes)\n", path, size);
    return 0;
}

/* Everything one scene contributes: the straight run's lines and snapshot; unless only writing
 * snapshots, the resumed run from the embedded golden snapshot and its checks. Returns the number
 * of failed snapshot checks (each reported on o->report), or -1 if a run could not complete. */
static int run_scene(const scene* s, const options* o, const char* snapshot_directory, result* out,
                     int* count, int* resumed_ok) {
    unsigned char* snapshot = NULL;
    size_t snapshot_size = 0;
    int first = *count;
    if (run_straight(s, o, out, count, &snapshot, &snapshot_size) != 0) {
        free(snapshot);
        return -1;
    }
    if (snapshot_directory != NULL) {
        int status = write_snapshot(snapshot_directory, s->name, snapshot, snapshot_size);
        free(snapshot);
        return status;
    }
    int problems = 0;
    const carom_embedded_snapshot* golden = embedded_snapshot(s->name);
    if (golden == NULL) {
        fprintf(o->report,
                "NO SNAPSHOT %s: no golden snapshot tests/determinism/snapshots/%s.snap was "
                "compiled in, so the resumed run cannot run: run tests/determinism/regenerate.sh\n",
                s->name, s->name);
        free(snapshot);
        return 1;
    }
    /* The golden file's snapshot100 line says the same when it is current; saying where the
     * bytes part helps find which field of the encoding a build writes differently. */
    if (snapshot_size != golden->size || memcmp(snapshot, golden->bytes, golden->size) != 0) {
        char difference[96];
        fprintf(o->report,
                "SNAPSHOT %s: this build's step-%d snapshot differs from the embedded golden one "
                "(%s)\n",
                s->name, SNAPSHOT_STEP,
                describe_difference(difference, sizeof difference, snapshot, snapshot_size,
                                    golden->bytes, golden->size));
        ++problems;
    }
    free(snapshot);
    int resumed = run_resumed(s, o, golden, out, count);
    if (resumed < 0) {
        return -1;
    }
    problems += resumed;
    /* Resuming must continue the very same run: compared with this build's own straight hash,
     * not only with the golden file, so a golden regenerated from a broken restore fails too. */
    char label[16];
    snprintf(label, sizeof label, "%d", MAX_STEPS);
    const result* straight = find(out + first, *count - first, s->name, label);
    const result* again = &out[*count - 1];
    if (straight->hash != again->hash) {
        fprintf(o->report,
                "RESUMED  %s: after restoring the golden step-%d snapshot, step %d hashes "
                "%016" PRIx64 ", but the straight run's hashes %016" PRIx64 "\n",
                s->name, SNAPSHOT_STEP, MAX_STEPS, again->hash, straight->hash);
        ++problems;
    } else if (resumed == 0) {
        ++*resumed_ok;
    }
    return problems;
}

/* ---- Golden file ---------------------------------------------------------------------------- */

static int read_golden(const char* path, result** lines, int* count) {
    FILE* file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "determinism: cannot open golden file %s\n", path);
        return -1;
    }
    char text[256];
    int capacity = 0;
    *lines = NULL;
    *count = 0;
    while (fgets(text, sizeof text, file) != NULL) {
        if (text[0] == '#' || text[0] == '\n') {
            continue;
        }
        result line;
        if (sscanf(text, "%47s %15s %" SCNx64, line.name, line.label, &line.hash) != 3) {
            fprintf(stderr, "determinism: %s: cannot read line: %s", path, text);
            fclose(file);
            free(*lines);
            *lines = NULL;
            return -1;
        }
        if (*count == capacity) {
            capacity = capacity == 0 ? 64 : 2 * capacity;
            result* grown = realloc(*lines, (size_t)capacity * sizeof *grown);
            if (grown == NULL) {
                fclose(file);
                free(*lines);
                *lines = NULL;
                return -1;
            }
            *lines = grown;
        }
        (*lines)[(*count)++] = line;
    }
    fclose(file);
    return 0;
}

/* ---- Main --------------------------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr, "usage: determinism [--write | --check GOLDEN] [--scene NAME]... [--verbose]\n"
                    "                   [--every-step]\n"
                    "       determinism --write-snapshots DIR [--scene NAME]...\n"
                    "       determinism --list\n");
}

static int selected(const char* name, char** only, int only_count) {
    if (only_count == 0) {
        return 1;
    }
    for (int i = 0; i < only_count; ++i) {
        if (strcmp(only[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char** argv) {
    const char* golden_path = NULL;
    const char* snapshot_directory = NULL;
    char* only[SCENE_COUNT + 1];
    int only_count = 0;
    options o = {0, 0, stderr};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--write") == 0) {
            golden_path = NULL;
        } else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc) {
            golden_path = argv[++i];
        } else if (strcmp(argv[i], "--write-snapshots") == 0 && i + 1 < argc) {
            snapshot_directory = argv[++i];
        } else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc && only_count < SCENE_COUNT) {
            only[only_count++] = argv[++i];
        } else if (strcmp(argv[i], "--verbose") == 0) {
            o.verbose = 1;
        } else if (strcmp(argv[i], "--every-step") == 0) {
            o.every = 1;
        } else if (strcmp(argv[i], "--list") == 0) {
            for (int s = 0; s < SCENE_COUNT; ++s) {
                printf("%s\n", scenes[s].name);
            }
            printf("selftest\n");
            return 0;
        } else {
            usage();
            return 2;
        }
    }
    for (int i = 0; i < only_count; ++i) {
        int known = strcmp(only[i], "selftest") == 0;
        for (int s = 0; s < SCENE_COUNT; ++s) {
            known |= strcmp(scenes[s].name, only[i]) == 0;
        }
        if (!known) {
            fprintf(stderr, "determinism: no scene named %s (--list names them)\n", only[i]);
            return 2;
        }
    }
    if (golden_path != NULL) {
        o.report = stdout;
    }

    result results[SCENE_COUNT * LINES_PER_SCENE + 1];
    int result_count = 0;
    int failed = 0;
    int problems = 0;
    int resumed_ok = 0;
    int resumed_tried = 0;
    for (int s = 0; s < SCENE_COUNT; ++s) {
        if (!selected(scenes[s].name, only, only_count)) {
            continue;
        }
        clock_t start = clock();
        int scene_problems =
            run_scene(&scenes[s], &o, snapshot_directory, results, &result_count, &resumed_ok);
        resumed_tried += snapshot_directory == NULL;
        if (scene_problems < 0) {
            failed = 1;
            continue;
        }
        problems += scene_problems;
        fprintf(stderr, "determinism: %-12s %6.2f s\n", scenes[s].name,
                (double)(clock() - start) / CLOCKS_PER_SEC);
    }
    if (snapshot_directory != NULL) {
        return failed;
    }
    /* The built-in self-test: its hash is a golden line like the others, and its own verdict
     * (the constant compiled into the library) must agree. */
    carom_status selftest_status = CAROM_OK;
    uint64_t selftest_hash = 0;
    if (selected("selftest", only, only_count)) {
        selftest_status = carom_determinism_selftest(&selftest_hash);
        if (selftest_hash == 0) {
            fprintf(stderr, "determinism: the self-test could not run: %s\n", carom_last_error());
            failed = 1;
        } else {
            add_result(results, &result_count, "selftest", "240", selftest_hash);
        }
    }

    if (golden_path == NULL) {
        for (int i = 0; i < result_count; ++i) {
            printf("%s %s %016" PRIx64 "\n", results[i].name, results[i].label, results[i].hash);
        }
        if (problems > 0) {
            fprintf(stderr, "determinism: %d snapshot check(s) failed (listed above)\n", problems);
        }
        return failed || problems > 0;
    }

    result* golden = NULL;
    int golden_count = 0;
    if (read_golden(golden_path, &golden, &golden_count) != 0) {
        return 1;
    }
    int mismatches = 0;
    for (int i = 0; i < result_count; ++i) {
        const result* expected = find(golden, golden_count, results[i].name, results[i].label);
        if (expected == NULL) {
            printf("MISSING  %s %s: got %016" PRIx64 ", not in %s\n", results[i].name,
                   results[i].label, results[i].hash, golden_path);
            ++mismatches;
        } else if (expected->hash != results[i].hash) {
            printf("MISMATCH %s %s: got %016" PRIx64 ", expected %016" PRIx64 "\n", results[i].name,
                   results[i].label, results[i].hash, expected->hash);
            ++mismatches;
        }
    }
    /* Golden lines this run should have produced but did not (a scene renamed or dropped, or a
     * resumed run that could not run). */
    for (int i = 0; i < golden_count; ++i) {
        if (selected(golden[i].name, only, only_count) &&
            find(results, result_count, golden[i].name, golden[i].label) == NULL) {
            printf("NOT RUN  %s %s: expected %016" PRIx64 "\n", golden[i].name, golden[i].label,
                   golden[i].hash);
            ++mismatches;
        }
    }
    int stale = 0;
    const result* selftest_golden = find(golden, golden_count, "selftest", "240");
    if (selftest_status == CAROM_ERROR_DETERMINISM_MISMATCH && selftest_golden != NULL &&
        selftest_golden->hash == selftest_hash) {
        printf("STALE    selftest: the hash matches %s but not the constant compiled into "
               "engine/selftest.c: run tests/determinism/regenerate.sh\n",
               golden_path);
        stale = 1;
    }
    if (mismatches > 0 || stale || problems > 0) {
        printf("If the engine's arithmetic or the snapshot format changed on purpose, run "
               "tests/determinism/regenerate.sh and commit the new goldens (golden.txt and "
               "snapshots/) with the change; if not, this build breaks carom's determinism "
               "(docs/determinism.md).\n");
    }
    printf("determinism: %d of %d hashes match %s, %d of %d golden snapshots resumed exactly%s%s\n",
           result_count - mismatches, result_count, golden_path, resumed_ok, resumed_tried,
           stale ? " (but the self-test's constant is stale)" : "",
           failed ? " (and a scene failed to run)" : "");
    free(golden);
    return mismatches > 0 || stale || failed || problems > 0 ? 1 : 0;
}
