/* The determinism program: runs a fixed list of scenes and prints, after 1, 10, 100 and 1000
 * steps, a hash of the exact bits of every body's state, one line `scene steps hash` each.
 * CI builds it with every compiler, optimisation level, sanitizer and architecture that
 * docs/determinism.md lists and compares its output with tests/determinism/golden.txt: carom
 * promises the same bits everywhere, so any difference is a failure.
 *
 *   determinism [--write]            print every line (the golden file's contents)
 *   determinism --check golden.txt   exit 1, listing each difference, unless all lines match
 *   determinism --scene NAME ...     only that scene (repeatable), with either of the above
 *   determinism --list               the scene names
 *
 * The hash is FNV-1a 64 over, for each tracked body in creation order, the IEEE 754 bits of
 * position x, y, rotation cosine, sine, linear velocity x, y and angular velocity, each double
 * fed least significant byte first, byte by byte (the same as carom_determinism_selftest). The
 * scenes use the public API and the shared builders of bench/scenes.h only. Scripted calls
 * (launching a ball, destroying and adding bodies, waking) happen before the step they are
 * listed at, so they are part of "the same calls". */
#include <carom/carom.h>

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

static uint64_t hash_double(uint64_t hash, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; ++i) {
        hash ^= (bits >> (8 * i)) & 0xffu;
        hash *= UINT64_C(1099511628211);
    }
    return hash;
}

static uint64_t hash_run(const run* r) {
    uint64_t hash = UINT64_C(14695981039346656037);
    for (int i = 0; i < r->count; ++i) {
        carom_body_id body = r->bodies[i];
        if (CAROM_IS_NULL(body)) {
            continue;
        }
        carom_vec2 position = carom_body_get_position(body);
        carom_rot rotation = carom_body_get_rotation(body);
        carom_vec2 velocity = carom_body_get_linear_velocity(body);
        hash = hash_double(hash, position.x);
        hash = hash_double(hash, position.y);
        hash = hash_double(hash, rotation.c);
        hash = hash_double(hash, rotation.s);
        hash = hash_double(hash, velocity.x);
        hash = hash_double(hash, velocity.y);
        hash = hash_double(hash, carom_body_get_angular_velocity(body));
    }
    return hash;
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
};
#define SCENE_COUNT ((int)(sizeof scenes / sizeof scenes[0]))

/* One output line. */
typedef struct result {
    char name[48];
    int steps;
    uint64_t hash;
} result;

/* Run one scene; appends REPORT_COUNT results. Returns 0, or -1 if an API call failed. */
static int run_scene(const scene* s, result* out, int verbose, int every) {
    run r;
    memset(&r, 0, sizeof r);
    int status = s->build(&r);
    int reported = 0;
    for (int step = 0; step < MAX_STEPS && status == 0; ++step) {
        if (s->script != NULL) {
            status = s->script(&r, step);
        }
        if (status == 0 && carom_world_step(r.world, DT) != CAROM_OK) {
            status = -1;
        }
        if (status == 0 && step + 1 == report_steps[reported]) {
            snprintf(out[reported].name, sizeof out[reported].name, "%s", s->name);
            out[reported].steps = step + 1;
            out[reported].hash = hash_run(&r);
            ++reported;
        }
        if (every && status == 0) {
            printf("%s %d %016" PRIx64 "\n", s->name, step + 1, hash_run(&r));
        }
        if (verbose && status == 0 && (step + 1) % 50 == 0) {
            carom_world_counters c = carom_world_get_counters(r.world);
            fprintf(stderr,
                    "  %s step %4d: bodies %d awake %d sleeping islands %d contacts %d "
                    "touching %d\n",
                    s->name, step + 1, c.body_count, c.awake_body_count, c.sleeping_island_count,
                    c.contact_count, c.touching_count);
        }
    }
    if (status != 0) {
        fprintf(stderr, "determinism: scene %s: a carom call failed: %s\n", s->name,
                carom_last_error());
    }
    if (!CAROM_IS_NULL(r.world)) {
        carom_destroy_world(r.world);
    }
    free(r.bodies);
    return status;
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
        if (sscanf(text, "%47s %d %" SCNx64, line.name, &line.steps, &line.hash) != 3) {
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

static const result* find(const result* lines, int count, const char* name, int steps) {
    for (int i = 0; i < count; ++i) {
        if (lines[i].steps == steps && strcmp(lines[i].name, name) == 0) {
            return &lines[i];
        }
    }
    return NULL;
}

/* ---- Main --------------------------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr, "usage: determinism [--write | --check GOLDEN] [--scene NAME]... [--verbose]\n"
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
    char* only[SCENE_COUNT + 1];
    int only_count = 0;
    int verbose = 0;
    int every = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--write") == 0) {
            golden_path = NULL;
        } else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc) {
            golden_path = argv[++i];
        } else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc && only_count < SCENE_COUNT) {
            only[only_count++] = argv[++i];
        } else if (strcmp(argv[i], "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "--every-step") == 0) {
            every = 1;
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

    result results[(SCENE_COUNT + 1) * REPORT_COUNT];
    int result_count = 0;
    int failed = 0;
    for (int s = 0; s < SCENE_COUNT; ++s) {
        if (!selected(scenes[s].name, only, only_count)) {
            continue;
        }
        clock_t start = clock();
        if (run_scene(&scenes[s], &results[result_count], verbose, every) != 0) {
            failed = 1;
            continue;
        }
        result_count += REPORT_COUNT;
        fprintf(stderr, "determinism: %-12s %6.2f s\n", scenes[s].name,
                (double)(clock() - start) / CLOCKS_PER_SEC);
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
            snprintf(results[result_count].name, sizeof results[result_count].name, "selftest");
            results[result_count].steps = 240;
            results[result_count].hash = selftest_hash;
            ++result_count;
        }
    }

    if (golden_path == NULL) {
        for (int i = 0; i < result_count; ++i) {
            printf("%s %d %016" PRIx64 "\n", results[i].name, results[i].steps, results[i].hash);
        }
        return failed;
    }

    result* golden = NULL;
    int golden_count = 0;
    if (read_golden(golden_path, &golden, &golden_count) != 0) {
        return 1;
    }
    int mismatches = 0;
    for (int i = 0; i < result_count; ++i) {
        const result* expected = find(golden, golden_count, results[i].name, results[i].steps);
        if (expected == NULL) {
            printf("MISSING  %s %d: got %016" PRIx64 ", not in %s\n", results[i].name,
                   results[i].steps, results[i].hash, golden_path);
            ++mismatches;
        } else if (expected->hash != results[i].hash) {
            printf("MISMATCH %s %d: got %016" PRIx64 ", expected %016" PRIx64 "\n", results[i].name,
                   results[i].steps, results[i].hash, expected->hash);
            ++mismatches;
        }
    }
    /* Golden lines this run should have produced but did not (a scene renamed or dropped). */
    for (int i = 0; i < golden_count; ++i) {
        if (selected(golden[i].name, only, only_count) &&
            find(results, result_count, golden[i].name, golden[i].steps) == NULL) {
            printf("NOT RUN  %s %d: expected %016" PRIx64 "\n", golden[i].name, golden[i].steps,
                   golden[i].hash);
            ++mismatches;
        }
    }
    int stale = 0;
    const result* selftest_golden = find(golden, golden_count, "selftest", 240);
    if (selftest_status == CAROM_ERROR_DETERMINISM_MISMATCH && selftest_golden != NULL &&
        selftest_golden->hash == selftest_hash) {
        printf("STALE    selftest: the hash matches %s but not the constant compiled into "
               "engine/selftest.c: run tests/determinism/regenerate.sh\n",
               golden_path);
        stale = 1;
    }
    if (mismatches > 0 || stale) {
        printf("If the engine's arithmetic changed on purpose, run tests/determinism/regenerate.sh "
               "and commit the new goldens with the change; if not, this build breaks carom's "
               "determinism (docs/determinism.md).\n");
    }
    printf("determinism: %d of %d hashes match %s%s%s\n", result_count - mismatches, result_count,
           golden_path, stale ? " (but the self-test's constant is stale)" : "",
           failed ? " (and a scene failed to run)" : "");
    free(golden);
    return mismatches > 0 || stale || failed ? 1 : 0;
}
