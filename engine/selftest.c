/* carom_determinism_selftest: a built-in scene and the hash it must end with.
 *
 * Why: carom promises the same bits for the same calls on every compiler, optimisation level and
 * architecture its CI builds (docs/determinism.md). An application that vendors engine/ into its
 * own build, with its own flags, can call this once at start-up to learn whether its build keeps
 * that promise, instead of discovering a desynchronised replay or lockstep game later.
 *
 * The scene goes through the public API only, so it checks exactly what an application sees. It
 * is small (a dozen bodies, 240 steps: a few milliseconds) but touches every stage: a chain floor
 * and a segment wall, boxes, circles and a pentagon with different friction and restitution, a
 * stack that settles and falls asleep, a bullet fired through a thin wall's plane (continuous
 * collision) and, at step 150, a ball launched into the sleeping stack, waking it by contact.
 *
 * The hash is FNV-1a 64 over, for each dynamic body in creation order, the IEEE 754 bits of
 * position x, y, rotation cosine, sine, linear velocity x, y and angular velocity, each double
 * fed least significant byte first, byte by byte: no struct is hashed, so padding and the
 * machine's byte order never matter. That is carom_bodies_hash over the dynamic bodies, the
 * state hash every program of the project uses (docs/determinism.md).
 *
 * The golden value below changes whenever the engine's arithmetic changes on purpose;
 * tests/determinism/regenerate.sh rewrites it together with tests/determinism/golden.txt. */
#include "core.h"

#include "carom/carom.h"

#include <string.h>

/* The hash of the scene after CAROM_SELFTEST_STEPS steps, on every build carom's CI makes. */
#define CAROM_SELFTEST_GOLDEN UINT64_C(0xa75eb4cd00203da5)

#define CAROM_SELFTEST_STEPS 240
#define CAROM_SELFTEST_LAUNCH_STEP 150
#define CAROM_SELFTEST_MAX_BODIES 16

typedef struct selftest_scene {
    carom_world_id world;
    carom_body_id bodies[CAROM_SELFTEST_MAX_BODIES]; /* dynamic bodies, creation order */
    int body_count;
    carom_body_id launched; /* the ball that is thrown into the stack at the launch step */
} selftest_scene;

/* A dynamic body at position, turned by angle, with one shape; returns 0 or the failing status.
 * Exactly one of circle and polygon is not NULL. */
static carom_status add_body(selftest_scene* scene, carom_vec2 position, double angle,
                             carom_vec2 velocity, int bullet, double friction, double restitution,
                             const carom_circle* circle, const carom_polygon* polygon) {
    CAROM_ASSERT(scene->body_count < CAROM_SELFTEST_MAX_BODIES);
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = position;
    body_def.angle = angle;
    body_def.linear_velocity = velocity;
    body_def.bullet = bullet;
    carom_body_id body = carom_create_body(scene->world, &body_def);
    if (CAROM_IS_NULL(body)) {
        return carom_last_status();
    }
    carom_shape_def shape_def = carom_default_shape_def();
    shape_def.friction = friction;
    shape_def.restitution = restitution;
    carom_shape_id shape = circle != NULL ? carom_create_circle_shape(body, &shape_def, circle)
                                          : carom_create_polygon_shape(body, &shape_def, polygon);
    if (CAROM_IS_NULL(shape)) {
        return carom_last_status();
    }
    scene->bodies[scene->body_count++] = body;
    return CAROM_OK;
}

/* The static parts: a U-shaped chain (floor and two side walls) and a thin segment wall. */
static carom_status build_walls(selftest_scene* scene) {
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(scene->world, &ground_def);
    if (CAROM_IS_NULL(ground)) {
        return carom_last_status();
    }
    carom_shape_def def = carom_default_shape_def();
    def.friction = 0.7;
    const carom_vec2 ground_points[] = {
        {-12.0, 10.0}, {-12.0, 0.0}, {0.0, 0.0}, {12.0, 0.0}, {12.0, 10.0}};
    carom_status status = carom_create_chain(ground, &def, ground_points, 5, 0, NULL);
    if (status != CAROM_OK) {
        return status;
    }
    def.restitution = 0.5;
    carom_segment wall = {{8.0, 0.0}, {8.0, 6.0}};
    if (CAROM_IS_NULL(carom_create_segment_shape(ground, &def, &wall))) {
        return carom_last_status();
    }
    return CAROM_OK;
}

static carom_status build_scene(selftest_scene* scene) {
    carom_status status = build_walls(scene);
    carom_polygon box;
    if (status == CAROM_OK) {
        status = carom_make_box(0.5, 0.5, carom_v2(0.0, 0.0), 0.0, &box);
    }
    /* A stack of three boxes that settles and sleeps until the launched ball hits it. */
    for (int i = 0; i < 3 && status == CAROM_OK; ++i) {
        status = add_body(scene, carom_v2(-6.0, 0.5 + 1.0 * i), 0.0, carom_v2(0.0, 0.0), 0, 0.6,
                          0.0, NULL, &box);
    }
    /* A pentagon dropped turned, bouncing a little. */
    const carom_vec2 pentagon_points[] = {
        {0.6, 0.0}, {0.185, 0.57}, {-0.485, 0.353}, {-0.485, -0.353}, {0.185, -0.57}};
    carom_polygon pentagon;
    if (status == CAROM_OK) {
        status = carom_make_polygon(pentagon_points, 5, &pentagon);
    }
    if (status == CAROM_OK) {
        status = add_body(scene, carom_v2(-1.5, 3.0), 0.7, carom_v2(0.5, 0.0), 0, 0.4, 0.3, NULL,
                          &pentagon);
    }
    /* A lively ball and a dead one, with an off-center circle for a wobble. */
    carom_circle ball = {{0.0, 0.0}, 0.4};
    carom_circle offset_ball = {{0.1, 0.05}, 0.3};
    if (status == CAROM_OK) {
        status =
            add_body(scene, carom_v2(2.0, 5.0), 0.0, carom_v2(-1.0, 0.0), 0, 0.3, 0.8, &ball, NULL);
    }
    if (status == CAROM_OK) {
        status = add_body(scene, carom_v2(4.0, 2.0), 0.3, carom_v2(0.0, 0.0), 0, 0.9, 0.0,
                          &offset_ball, NULL);
    }
    /* A bullet fired at the thin segment wall, 2.5 m per step: only continuous collision stops
     * it, and it comes back to bounce around the others. */
    carom_circle pellet = {{0.0, 0.0}, 0.1};
    if (status == CAROM_OK) {
        status = add_body(scene, carom_v2(0.0, 1.2), 0.0, carom_v2(150.0, 0.0), 1, 0.2, 0.5,
                          &pellet, NULL);
    }
    /* The ball launched into the sleeping stack at CAROM_SELFTEST_LAUNCH_STEP. */
    if (status == CAROM_OK) {
        status = add_body(scene, carom_v2(-11.0, 0.4), 0.0, carom_v2(0.0, 0.0), 0, 0.6, 0.2, &ball,
                          NULL);
        scene->launched = scene->bodies[scene->body_count - 1];
    }
    return status;
}

static carom_status run_scene(selftest_scene* scene) {
    carom_status status = build_scene(scene);
    for (int step = 0; step < CAROM_SELFTEST_STEPS && status == CAROM_OK; ++step) {
        if (step == CAROM_SELFTEST_LAUNCH_STEP) {
            status = carom_body_set_linear_velocity(scene->launched, carom_v2(18.0, 4.0));
        }
        if (status == CAROM_OK) {
            status = carom_world_step(scene->world, 1.0 / 60.0);
        }
    }
    return status;
}

carom_status carom_determinism_selftest(uint64_t* hash_out) {
    if (hash_out != NULL) {
        *hash_out = 0;
    }
    selftest_scene scene;
    memset(&scene, 0, sizeof scene);
    carom_world_def world_def = carom_default_world_def();
    scene.world = carom_create_world(&world_def);
    if (CAROM_IS_NULL(scene.world)) {
        return carom_last_status();
    }
    carom_status status = run_scene(&scene);
    uint64_t hash = status == CAROM_OK ? carom_bodies_hash(scene.bodies, scene.body_count) : 0;
    carom_destroy_world(scene.world);
    if (status != CAROM_OK) {
        return status;
    }
    if (hash_out != NULL) {
        *hash_out = hash;
    }
    if (hash != CAROM_SELFTEST_GOLDEN) {
        return carom_fail(CAROM_ERROR_DETERMINISM_MISMATCH,
                          "the determinism self-test ended with hash %016llx where carom's "
                          "reference builds give %016llx: this build computes different bits. "
                          "Compile engine/ without -ffast-math or -ffp-contract=fast, with SSE2 "
                          "(not x87) arithmetic on 32-bit x86, from unmodified sources "
                          "(docs/determinism.md)",
                          (unsigned long long)hash, (unsigned long long)CAROM_SELFTEST_GOLDEN);
    }
    return CAROM_OK;
}
