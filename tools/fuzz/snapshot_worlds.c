/* Small fixed worlds for the snapshot fuzz target and its seed corpus: see snapshot_worlds.h. */
#include "snapshot_worlds.h"

#include <carom/snapshot.h>

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* A builder remembers whether any call failed, so each world reads as a plain list of calls and
 * is checked once at the end. */
typedef struct builder {
    carom_world_id world;
    bool failed;
} builder;

static carom_body_id body(builder* b, carom_body_type type, double x, double y, double angle) {
    carom_body_def def = carom_default_body_def();
    def.type = type;
    def.position = carom_v2(x, y);
    def.angle = angle;
    carom_body_id id = carom_create_body(b->world, &def);
    b->failed |= CAROM_IS_NULL(id);
    return id;
}

static carom_body_id body_def(builder* b, const carom_body_def* def) {
    carom_body_id id = carom_create_body(b->world, def);
    b->failed |= CAROM_IS_NULL(id);
    return id;
}

static carom_shape_id box(builder* b, carom_body_id on, const carom_shape_def* def, double hx,
                          double hy, carom_vec2 center, double angle) {
    carom_shape_id id = carom_create_box_shape(on, def, hx, hy, center, angle);
    b->failed |= CAROM_IS_NULL(id);
    return id;
}

static carom_shape_id circle(builder* b, carom_body_id on, const carom_shape_def* def,
                             double radius) {
    carom_circle c = {{0.0, 0.0}, radius};
    carom_shape_id id = carom_create_circle_shape(on, def, &c);
    b->failed |= CAROM_IS_NULL(id);
    return id;
}

static void polygon(builder* b, carom_body_id on, const carom_shape_def* def,
                    const carom_vec2* points, int count) {
    carom_polygon p;
    if (carom_make_polygon(points, count, &p) != CAROM_OK) {
        b->failed = true;
        return;
    }
    b->failed |= CAROM_IS_NULL(carom_create_polygon_shape(on, def, &p));
}

static void chain(builder* b, carom_body_id on, const carom_shape_def* def,
                  const carom_vec2* points, int count, int loop) {
    b->failed |= carom_create_chain(on, def, points, count, loop, NULL) != CAROM_OK;
}

static carom_body_id ground(builder* b, double half_width) {
    carom_body_id g = body(b, CAROM_BODY_STATIC, 0.0, 0.0, 0.0);
    carom_shape_def def = carom_default_shape_def();
    box(b, g, &def, half_width, 0.5, carom_v2(0.0, -0.5), 0.0);
    return g;
}

static void build_circles(builder* b, snapshot_world* w) {
    ground(b, 5.0);
    carom_shape_def def = carom_default_shape_def();
    for (int i = 0; i < 3; ++i) {
        carom_body_id ball = body(b, CAROM_BODY_DYNAMIC, -1.0 + i, 2.0 + 0.5 * i, 0.0);
        def.restitution = 0.45 * i;
        def.enable_hit_events = i == 2;
        circle(b, ball, &def, 0.25);
        if (i == 1) {
            w->pushed = ball;
        }
    }
}

static void build_stack(builder* b, snapshot_world* w) {
    ground(b, 5.0);
    carom_shape_def def = carom_default_shape_def();
    for (int i = 0; i < 5; ++i) {
        carom_body_id crate = body(b, CAROM_BODY_DYNAMIC, 0.0, 0.5 + i, 0.0);
        box(b, crate, &def, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
    }
    (void)w;
}

static void build_shapes(builder* b, snapshot_world* w) {
    carom_shape_def def = carom_default_shape_def();
    /* Terrain: a plain segment, an open chain and a one-sided closed chain, on one static body. */
    carom_body_id terrain = body(b, CAROM_BODY_STATIC, 0.0, 0.0, 0.0);
    carom_segment floor = {{-8.0, 0.0}, {8.0, 0.0}};
    b->failed |= CAROM_IS_NULL(carom_create_segment_shape(terrain, &def, &floor));
    carom_vec2 hill[] = {{-8.0, 0.0}, {-8.0, 4.0}, {-6.0, 1.0}, {-4.0, 0.5}};
    chain(b, terrain, &def, hill, 4, 0);
    carom_shape_def one_sided = def;
    one_sided.one_sided = 1;
    carom_vec2 ring[] = {{4.0, 1.0}, {6.0, 1.0}, {6.0, 2.0}, {4.0, 2.0}};
    chain(b, terrain, &one_sided, ring, 4, 1);

    /* A kinematic paddle turning slowly. */
    carom_body_def paddle_def = carom_default_body_def();
    paddle_def.type = CAROM_BODY_KINEMATIC;
    paddle_def.position = carom_v2(0.0, 3.0);
    paddle_def.angular_velocity = 0.7;
    box(b, body_def(b, &paddle_def), &def, 1.5, 0.1, carom_v2(0.0, 0.0), 0.0);

    /* Convex polygons: a triangle and an octagon, falling onto the terrain. */
    carom_vec2 triangle[] = {{-0.5, -0.3}, {0.5, -0.3}, {0.0, 0.6}};
    carom_body_id tri = body(b, CAROM_BODY_DYNAMIC, -2.0, 2.0, 0.3);
    polygon(b, tri, &def, triangle, 3);
    carom_vec2 octagon[8];
    for (int i = 0; i < 8; ++i) {
        carom_rot r = carom_make_rot(i * CAROM_PI / 4.0);
        octagon[i] = carom_v2(0.4 * r.c, 0.4 * r.s);
    }
    carom_body_def oct_def = carom_default_body_def();
    oct_def.type = CAROM_BODY_DYNAMIC;
    oct_def.position = carom_v2(2.0, 4.0);
    oct_def.angular_velocity = -2.0;
    oct_def.linear_damping = 0.2;
    oct_def.angular_damping = 0.1;
    oct_def.gravity_scale = 0.5;
    polygon(b, body_def(b, &oct_def), &def, octagon, 8);

    /* Two shapes on one body, one of them offset and turned; a filter group. */
    carom_shape_def grouped = def;
    grouped.filter.group = -3;
    grouped.filter.category = 0x2;
    carom_body_id dumbbell = body(b, CAROM_BODY_DYNAMIC, 0.0, 6.0, 0.0);
    box(b, dumbbell, &grouped, 0.6, 0.1, carom_v2(0.0, 0.0), 0.0);
    box(b, dumbbell, &grouped, 0.2, 0.2, carom_v2(0.6, 0.0), 0.4);
    w->pushed = dumbbell;

    /* A bullet thrown sideways and a body that never sleeps. */
    carom_body_def bullet_def = carom_default_body_def();
    bullet_def.type = CAROM_BODY_DYNAMIC;
    bullet_def.position = carom_v2(-6.0, 1.5);
    bullet_def.linear_velocity = carom_v2(40.0, 0.0);
    bullet_def.bullet = 1;
    carom_shape_def heavy = def;
    heavy.density = 5.0;
    heavy.friction = 0.1;
    circle(b, body_def(b, &bullet_def), &heavy, 0.1);
    carom_body_def restless_def = carom_default_body_def();
    restless_def.type = CAROM_BODY_DYNAMIC;
    restless_def.position = carom_v2(3.0, 0.5);
    restless_def.enable_sleep = 0;
    box(b, body_def(b, &restless_def), &def, 0.3, 0.3, carom_v2(0.0, 0.0), 0.0);
}

static void build_vehicle(builder* b, snapshot_world* w) {
    carom_shape_def def = carom_default_shape_def();
    /* The track: an outer and an inner loop of chain walls. */
    carom_body_id track = body(b, CAROM_BODY_STATIC, 0.0, 0.0, 0.0);
    carom_vec2 outer[] = {{-30.0, -15.0}, {30.0, -15.0}, {30.0, 15.0}, {-30.0, 15.0}};
    carom_vec2 inner[] = {{-20.0, -5.0}, {20.0, -5.0}, {20.0, 5.0}, {-20.0, 5.0}};
    chain(b, track, &def, outer, 4, 1);
    chain(b, track, &def, inner, 4, 1);
    /* Grass and ice, read by the wheels. */
    carom_shape_def grass = def;
    grass.is_sensor = 1;
    grass.surface_grip = 0.6;
    box(b, track, &grass, 5.0, 5.0, carom_v2(5.0, -10.0), 0.0);
    carom_shape_def ice = grass;
    ice.surface_grip = 0.1;
    ice.enable_hit_events = 1;
    box(b, track, &ice, 3.0, 5.0, carom_v2(22.0, -10.0), 0.0);

    carom_body_def car_def = carom_default_body_def();
    car_def.type = CAROM_BODY_DYNAMIC;
    car_def.position = carom_v2(-10.0, -10.0);
    car_def.bullet = 1;
    carom_body_id car = body_def(b, &car_def);
    carom_shape_def chassis = def;
    chassis.density = 1200.0 / (4.4 * 1.8);
    box(b, car, &chassis, 2.2, 0.9, carom_v2(0.0, 0.0), 0.0);
    carom_vehicle_def vehicle_def = carom_default_vehicle_def();
    w->vehicle = carom_create_vehicle(car, &vehicle_def);
    b->failed |= CAROM_IS_NULL(w->vehicle);

    /* A loose crate to hit. */
    carom_body_def crate_def = carom_default_body_def();
    crate_def.type = CAROM_BODY_DYNAMIC;
    crate_def.position = carom_v2(12.0, -10.0);
    crate_def.linear_damping = 2.0;
    crate_def.angular_damping = 2.0;
    box(b, body_def(b, &crate_def), &def, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
}

static void build_reused(builder* b, snapshot_world* w) {
    carom_body_id g = ground(b, 6.0);
    carom_shape_def def = carom_default_shape_def();
    carom_body_id bodies[6];
    for (int i = 0; i < 6; ++i) {
        bodies[i] = body(b, CAROM_BODY_DYNAMIC, -3.0 + 1.2 * i, 0.5, 0.0);
        circle(b, bodies[i], &def, 0.4);
    }
    /* Destroy two bodies and one ground shape, then create again: the new ones take the freed
     * slots with bumped generations, and one slot stays free. */
    b->failed |= carom_destroy_body(bodies[1]) != CAROM_OK;
    b->failed |= carom_destroy_body(bodies[4]) != CAROM_OK;
    carom_shape_id spare = box(b, g, &def, 0.5, 0.5, carom_v2(5.0, 0.5), 0.0);
    b->failed |= carom_destroy_shape(spare) != CAROM_OK;
    carom_body_id again = body(b, CAROM_BODY_DYNAMIC, 0.0, 3.0, 0.5);
    box(b, again, &def, 0.4, 0.2, carom_v2(0.0, 0.0), 0.0);
    b->failed |= carom_shape_set_friction(carom_create_circle_shape(bodies[0], &def,
                                              &(carom_circle){{0.3, 0.0}, 0.2}), 0.1) != CAROM_OK;
    w->pushed = again;
}

static void build_small(builder* b, snapshot_world* w) {
    ground(b, 4.0);
    carom_shape_def def = carom_default_shape_def();
    for (int i = 0; i < 3; ++i) {
        carom_body_id crate = body(b, CAROM_BODY_DYNAMIC, -1.5 + 1.5 * i, 0.5, 0.0);
        box(b, crate, &def, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
        carom_body_id ball = body(b, CAROM_BODY_DYNAMIC, -1.5 + 1.5 * i, 1.3, 0.0);
        circle(b, ball, &def, 0.3);
    }
    (void)w;
}

static void joined(builder* b, carom_joint_id id) { b->failed |= CAROM_IS_NULL(id); }

/* Every kind of joint, with limits, motors and springs on; a joint destroyed so that its slot
 * is free with a bumped generation. */
static void build_joints(builder* b, snapshot_world* w) {
    carom_body_id g = ground(b, 8.0);
    carom_shape_def def = carom_default_shape_def();
    carom_body_id arm = body(b, CAROM_BODY_DYNAMIC, 1.0, 4.0, 0.0);
    box(b, arm, &def, 1.0, 0.1, carom_v2(0.0, 0.0), 0.0);
    carom_revolute_joint_def revolute = carom_default_revolute_joint_def();
    revolute.anchor = carom_v2(0.0, 4.0);
    revolute.enable_limit = 1;
    revolute.lower_angle = -1.2;
    revolute.upper_angle = 0.5;
    revolute.enable_motor = 1;
    revolute.motor_speed = 0.5;
    revolute.max_motor_torque = 4.0;
    joined(b, carom_create_revolute_joint(g, arm, &revolute));
    carom_body_id ball = body(b, CAROM_BODY_DYNAMIC, 2.5, 2.5, 0.0);
    circle(b, ball, &def, 0.25);
    carom_distance_joint_def rope = carom_default_distance_joint_def();
    rope.anchor_a = carom_v2(2.0, 4.0);
    rope.anchor_b = carom_v2(2.5, 2.5);
    rope.enable_spring = 1;
    rope.enable_limit = 1;
    rope.max_length = 2.0;
    joined(b, carom_create_distance_joint(arm, ball, &rope));
    carom_body_id slider = body(b, CAROM_BODY_DYNAMIC, -3.0, 1.0, 0.0);
    box(b, slider, &def, 0.3, 0.3, carom_v2(0.0, 0.0), 0.0);
    carom_prismatic_joint_def prismatic = carom_default_prismatic_joint_def();
    prismatic.anchor = carom_v2(-3.0, 1.0);
    prismatic.axis = carom_v2(0.0, 1.0);
    prismatic.enable_spring = 1;
    prismatic.hertz = 2.0;
    prismatic.damping_ratio = 0.3;
    prismatic.enable_limit = 1;
    prismatic.lower_translation = -0.4;
    prismatic.upper_translation = 1.0;
    prismatic.break_force = 5000.0;
    joined(b, carom_create_prismatic_joint(g, slider, &prismatic));
    carom_body_id plate = body(b, CAROM_BODY_DYNAMIC, -3.0, 1.6, 0.0);
    box(b, plate, &def, 0.4, 0.05, carom_v2(0.0, 0.0), 0.0);
    carom_weld_joint_def weld = carom_default_weld_joint_def();
    weld.anchor = carom_v2(-3.0, 1.3);
    weld.angular_hertz = 3.0;
    weld.angular_damping_ratio = 0.5;
    joined(b, carom_create_weld_joint(slider, plate, &weld));
    carom_body_id cart = body(b, CAROM_BODY_DYNAMIC, 5.0, 1.0, 0.0);
    box(b, cart, &def, 0.8, 0.2, carom_v2(0.0, 0.0), 0.0);
    carom_body_id wheel = body(b, CAROM_BODY_DYNAMIC, 5.5, 0.4, 0.0);
    circle(b, wheel, &def, 0.3);
    carom_wheel_joint_def wheel_def = carom_default_wheel_joint_def();
    wheel_def.anchor = carom_v2(5.5, 0.4);
    wheel_def.enable_motor = 1;
    wheel_def.motor_speed = -3.0;
    wheel_def.max_motor_torque = 10.0;
    joined(b, carom_create_wheel_joint(cart, wheel, &wheel_def));
    carom_motor_joint_def motor = carom_default_motor_joint_def();
    motor.linear_offset = carom_v2(-5.0, 2.0);
    motor.max_force = 50.0;
    carom_body_id driven = body(b, CAROM_BODY_DYNAMIC, -5.0, 0.5, 0.0);
    box(b, driven, &def, 0.25, 0.25, carom_v2(0.0, 0.0), 0.0);
    joined(b, carom_create_motor_joint(g, driven, &motor));
    carom_mouse_joint_def mouse = carom_default_mouse_joint_def();
    mouse.target = carom_v2(2.5, 2.5);
    carom_joint_id dragging = carom_create_mouse_joint(ball, &mouse);
    joined(b, dragging);
    b->failed |= carom_mouse_joint_set_target(dragging, carom_v2(3.0, 3.5)) != CAROM_OK;
    carom_revolute_joint_def spare = carom_default_revolute_joint_def();
    spare.anchor = carom_v2(-3.0, 1.6);
    spare.collide_connected = 1;
    carom_joint_id gone = carom_create_revolute_joint(plate, driven, &spare);
    joined(b, gone);
    b->failed |= carom_destroy_joint(gone) != CAROM_OK;
    w->pushed = cart;
}

/* Capsules and rounded shapes on a chain: a capsule and a rounded box on a static body, and
 * falling capsules, rounded boxes and a rounded triangle (format version 4). */
static void build_rounded(builder* b, snapshot_world* w) {
    carom_body_id g = ground(b, 6.0);
    carom_shape_def def = carom_default_shape_def();
    carom_vec2 hill[3] = {{-6.0, 2.0}, {0.0, 0.0}, {6.0, 2.0}};
    chain(b, g, &def, hill, 3, 0);
    carom_capsule bar = {{-2.0, 3.0}, {0.0, 2.5}, 0.2};
    b->failed |= CAROM_IS_NULL(carom_create_capsule_shape(g, &def, &bar));
    b->failed |= CAROM_IS_NULL(
        carom_create_rounded_box_shape(g, &def, 0.8, 0.1, carom_v2(3.0, 2.5), 0.3, 0.05));
    for (int i = 0; i < 4; ++i) {
        carom_body_id pill = body(b, CAROM_BODY_DYNAMIC, -3.0 + 2.0 * i, 4.0 + 0.5 * i, 0.4 * i);
        carom_capsule capsule = {{-0.3, 0.0}, {0.3, 0.1}, 0.15};
        b->failed |= CAROM_IS_NULL(carom_create_capsule_shape(pill, &def, &capsule));
        carom_body_id crate = body(b, CAROM_BODY_DYNAMIC, -2.0 + 2.0 * i, 5.5, -0.3 * i);
        b->failed |= CAROM_IS_NULL(carom_create_rounded_box_shape(
            crate, &def, 0.3, 0.2, carom_v2(0.0, 0.0), 0.0, 0.04 * (i + 1)));
    }
    carom_body_id gem = body(b, CAROM_BODY_DYNAMIC, 0.5, 7.0, 0.2);
    carom_vec2 triangle[3] = {{-0.3, -0.2}, {0.3, -0.2}, {0.0, 0.3}};
    carom_polygon rounded;
    b->failed |= carom_make_rounded_polygon(triangle, 3, 0.05, &rounded) != CAROM_OK ||
                 CAROM_IS_NULL(carom_create_polygon_shape(gem, &def, &rounded));
    w->pushed = gem;
}

const char* snapshot_world_name(snapshot_world_kind kind) {
    static const char* names[SNAPSHOT_WORLD_COUNT] = {"circles", "stack", "shapes", "vehicle",
                                                      "reused",  "small", "joints", "rounded"};
    return kind >= 0 && kind < SNAPSHOT_WORLD_COUNT ? names[kind] : "unknown";
}

int snapshot_world_build(snapshot_world_kind kind, snapshot_world* out) {
    *out = (snapshot_world){kind, carom_null_world_id, carom_null_body_id, carom_null_vehicle_id};
    carom_world_def def = carom_default_world_def();
    if (kind == SNAPSHOT_WORLD_VEHICLE) {
        def.gravity = carom_v2(0.0, 0.0);
    }
    if (kind == SNAPSHOT_WORLD_SHAPES) {
        /* Settings away from the defaults, so a scene part carries them. */
        def.substeps = 6;
        def.restitution_threshold = 0.5;
        def.time_to_sleep = 0.25;
    }
    if (kind == SNAPSHOT_WORLD_JOINTS) {
        def.joint_hertz = 50.0;
        def.joint_damping_ratio = 3.0;
    }
    builder b = {carom_create_world(&def), false};
    if (CAROM_IS_NULL(b.world)) {
        return -1;
    }
    out->world = b.world;
    switch (kind) {
    case SNAPSHOT_WORLD_CIRCLES:
        build_circles(&b, out);
        break;
    case SNAPSHOT_WORLD_STACK:
        build_stack(&b, out);
        break;
    case SNAPSHOT_WORLD_SHAPES:
        build_shapes(&b, out);
        break;
    case SNAPSHOT_WORLD_ROUNDED:
        build_rounded(&b, out);
        break;
    case SNAPSHOT_WORLD_VEHICLE:
        build_vehicle(&b, out);
        break;
    case SNAPSHOT_WORLD_REUSED:
        build_reused(&b, out);
        break;
    case SNAPSHOT_WORLD_SMALL:
        build_small(&b, out);
        break;
    case SNAPSHOT_WORLD_JOINTS:
        build_joints(&b, out);
        break;
    default:
        b.failed = true;
    }
    if (b.failed) {
        carom_destroy_world(b.world);
        out->world = carom_null_world_id;
        return -1;
    }
    return 0;
}

carom_status snapshot_world_step(const snapshot_world* w, int step) {
    if (CAROM_IS_NON_NULL(w->vehicle)) {
        /* Full throttle, a left turn from step 40, the handbrake on steps 90..99. */
        carom_vehicle_set_input(w->vehicle, 1.0, 0.0, step >= 40 ? 0.6 : 0.0,
                                step >= 90 && step < 100);
    }
    carom_status status = carom_world_step(w->world, 1.0 / 60.0);
    if (status == CAROM_OK && CAROM_IS_NON_NULL(w->pushed) && (step + 1) % 5 == 0) {
        /* Applied after the step, so a snapshot taken now holds a pending force and torque. */
        carom_body_apply_force(w->pushed, carom_v2(30.0, 5.0),
                               carom_body_get_world_center(w->pushed));
        carom_body_apply_torque(w->pushed, 2.0);
    }
    return status;
}

/* ---- The parts of a snapshot buffer ------------------------------------------------------- */

uint64_t snapshot_get_le64(const uint8_t* p) {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) {
        value |= (uint64_t)p[i] << (8 * i);
    }
    return value;
}

void snapshot_put_le64(uint8_t* p, uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        p[i] = (uint8_t)(value >> (8 * i));
    }
}

int snapshot_find_parts(const uint8_t* data, size_t size, snapshot_part parts[2]) {
    int count = 0;
    size_t at = 0;
    while (count < 2 && size - at >= SNAPSHOT_HEADER_SIZE) {
        int is_scene = memcmp(data + at, "CRMS", 4) == 0;
        if (!is_scene && memcmp(data + at, "CRMD", 4) != 0) {
            break;
        }
        uint64_t payload = snapshot_get_le64(data + at + SNAPSHOT_PAYLOAD_SIZE_AT);
        if (payload > size - at - SNAPSHOT_HEADER_SIZE) {
            break;
        }
        parts[count++] = (snapshot_part){at, (size_t)payload, is_scene};
        at += SNAPSHOT_HEADER_SIZE + (size_t)payload;
    }
    return count;
}

void snapshot_fix_checksums(uint8_t* data, size_t size) {
    snapshot_part parts[2];
    int count = snapshot_find_parts(data, size, parts);
    uint64_t scene = 0;
    int has_scene = 0;
    for (int i = 0; i < count; ++i) {
        uint8_t* header = data + parts[i].at;
        uint64_t sum = carom_snapshot_checksum(header + SNAPSHOT_HEADER_SIZE, parts[i].payload);
        snapshot_put_le64(header + SNAPSHOT_CHECKSUM_AT, sum);
        if (parts[i].is_scene) {
            snapshot_put_le64(header + SNAPSHOT_SCENE_CHECKSUM_AT, sum);
            scene = sum;
            has_scene = 1;
        } else if (has_scene) {
            snapshot_put_le64(header + SNAPSHOT_SCENE_CHECKSUM_AT, scene);
        }
    }
}
