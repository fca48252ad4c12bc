/* Scene builders: see scenes.h and ../shared/bench-scenes.md for the specification. */
#include "scenes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* xorshift64*: fixed seeds, so every build of a scene is the same scene. */
typedef struct scene_random {
    uint64_t state;
} scene_random;

static double random_unit(scene_random* r) {
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return (double)((r->state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static double random_range(scene_random* r, double lo, double hi) {
    return lo + (hi - lo) * random_unit(r);
}

carom_world_def carom_scene_world_def(carom_scene_kind kind) {
    carom_world_def def = carom_default_world_def();
    def.gravity = kind == CAROM_SCENE_ARENA ? carom_v2(0.0, 0.0) : carom_v2(0.0, -10.0);
    return def;
}

int carom_scene_body_count(carom_scene_kind kind, int n) {
    return kind == CAROM_SCENE_PYRAMID ? n * (n + 1) / 2 : n;
}

static carom_body_id static_body(carom_world_id world) {
    carom_body_def def = carom_default_body_def();
    return carom_create_body(world, &def);
}

/* A static box given by its center and half extents. */
static int add_wall(carom_body_id body, carom_vec2 center, double hx, double hy,
                    double friction) {
    carom_shape_def def = carom_default_shape_def();
    def.friction = friction;
    carom_shape_id id = carom_create_box_shape(body, &def, hx, hy, center, 0.0);
    return CAROM_IS_NULL(id) ? -1 : 0;
}

static int build_rain(carom_world_id world, int n, carom_body_id* bodies) {
    const double spacing = 1.1;
    int columns = (int)ceil(sqrt((double)n));
    int rows = (n + columns - 1) / columns;
    double width = columns * spacing + 2.0;
    double height = rows * spacing + 4.0;
    carom_body_id ground = static_body(world);
    if (add_wall(ground, carom_v2(0.0, -0.5), 0.5 * width + 1.0, 0.5, 0.6) < 0 ||
        add_wall(ground, carom_v2(-0.5 * width - 0.5, 0.5 * height), 0.5, 0.5 * height,
                 0.6) < 0 ||
        add_wall(ground, carom_v2(0.5 * width + 0.5, 0.5 * height), 0.5, 0.5 * height,
                 0.6) < 0) {
        return -1;
    }
    scene_random r = {0x5eed0001u};
    for (int i = 0; i < n; ++i) {
        int row = i / columns;
        int column = i % columns;
        carom_body_def def = carom_default_body_def();
        def.type = CAROM_BODY_DYNAMIC;
        def.position = carom_v2(-0.5 * (columns - 1) * spacing + column * spacing +
                                    random_range(&r, -0.05, 0.05),
                                1.0 + row * spacing);
        carom_body_id body = carom_create_body(world, &def);
        carom_shape_def shape = carom_default_shape_def();
        shape.friction = 0.6;
        carom_circle circle = {{0.0, 0.0}, 0.5};
        if (CAROM_IS_NULL(carom_create_circle_shape(body, &shape, &circle))) {
            return -1;
        }
        if (bodies != NULL) {
            bodies[i] = body;
        }
    }
    return n;
}

static int build_pyramid(carom_world_id world, int base, carom_body_id* bodies) {
    carom_body_id ground = static_body(world);
    if (add_wall(ground, carom_v2(0.0, -1.0), base + 20.0, 1.0, 0.6) < 0) {
        return -1;
    }
    int count = 0;
    for (int row = 0; row < base; ++row) {
        int in_row = base - row;
        for (int i = 0; i < in_row; ++i) {
            carom_body_def def = carom_default_body_def();
            def.type = CAROM_BODY_DYNAMIC;
            def.position = carom_v2((i - 0.5 * (in_row - 1)) * 1.0, 0.5 + row * 1.0);
            carom_body_id body = carom_create_body(world, &def);
            carom_shape_def shape = carom_default_shape_def();
            shape.friction = 0.6;
            if (CAROM_IS_NULL(
                    carom_create_box_shape(body, &shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0))) {
                return -1;
            }
            if (bodies != NULL) {
                bodies[count] = body;
            }
            ++count;
        }
    }
    return count;
}

static int build_arena(carom_world_id world, int n, carom_body_id* bodies) {
    const double spacing = 3.0;
    int columns = (int)ceil(sqrt((double)n));
    double half = 0.5 * columns * spacing + 2.0;
    carom_body_id walls = static_body(world);
    if (add_wall(walls, carom_v2(0.0, -half - 0.5), half + 1.0, 0.5, 0.3) < 0 ||
        add_wall(walls, carom_v2(0.0, half + 0.5), half + 1.0, 0.5, 0.3) < 0 ||
        add_wall(walls, carom_v2(-half - 0.5, 0.0), 0.5, half + 1.0, 0.3) < 0 ||
        add_wall(walls, carom_v2(half + 0.5, 0.0), 0.5, half + 1.0, 0.3) < 0) {
        return -1;
    }
    scene_random r = {0x5eed0003u};
    for (int i = 0; i < n; ++i) {
        int row = i / columns;
        int column = i % columns;
        carom_body_def def = carom_default_body_def();
        def.type = CAROM_BODY_DYNAMIC;
        def.position = carom_v2(-0.5 * (columns - 1) * spacing + column * spacing +
                                    random_range(&r, -0.3, 0.3),
                                -0.5 * (columns - 1) * spacing + row * spacing +
                                    random_range(&r, -0.3, 0.3));
        def.angle = random_range(&r, -CAROM_PI, CAROM_PI);
        double speed = random_range(&r, 0.0, 20.0);
        double heading = random_range(&r, -CAROM_PI, CAROM_PI);
        carom_rot direction = carom_make_rot(heading);
        def.linear_velocity = carom_v2(speed * direction.c, speed * direction.s);
        def.linear_damping = 0.5;
        def.angular_damping = 0.5;
        carom_body_id body = carom_create_body(world, &def);
        carom_shape_def shape = carom_default_shape_def();
        shape.friction = 0.3;
        shape.restitution = 0.5;
        if (CAROM_IS_NULL(
                carom_create_box_shape(body, &shape, 0.5, 1.0, carom_v2(0.0, 0.0), 0.0))) {
            return -1;
        }
        if (bodies != NULL) {
            bodies[i] = body;
        }
    }
    return n;
}

static int build_stack(carom_world_id world, int n, carom_body_id* bodies) {
    carom_body_id ground = static_body(world);
    if (add_wall(ground, carom_v2(0.0, -1.0), 20.0, 1.0, 0.6) < 0) {
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        carom_body_def def = carom_default_body_def();
        def.type = CAROM_BODY_DYNAMIC;
        def.position = carom_v2(0.0, 0.5 + i);
        carom_body_id body = carom_create_body(world, &def);
        carom_shape_def shape = carom_default_shape_def();
        shape.friction = 0.6;
        if (CAROM_IS_NULL(
                carom_create_box_shape(body, &shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0))) {
            return -1;
        }
        if (bodies != NULL) {
            bodies[i] = body;
        }
    }
    return n;
}

int carom_scene_build(carom_world_id world, carom_scene_kind kind, int n, carom_body_id* bodies) {
    switch (kind) {
    case CAROM_SCENE_RAIN:
        return build_rain(world, n, bodies);
    case CAROM_SCENE_PYRAMID:
        return build_pyramid(world, n, bodies);
    case CAROM_SCENE_ARENA:
        return build_arena(world, n, bodies);
    case CAROM_SCENE_STACK:
        return build_stack(world, n, bodies);
    }
    return -1;
}
