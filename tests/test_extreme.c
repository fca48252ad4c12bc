/* Extreme but accepted input: nothing non-finite ever enters a world.
 *
 * Random worlds in which every number is one carom accepts, but from the ends of its ranges:
 * sizes from 1.25 mm to 1e12 m, densities from 1e-6 to 1e12, gravity and gravity scales to
 * 1e12, velocities, forces and impulses to 1e12, dt from 1e-12 to 1e12 s, shapes placed up to
 * 1e12 m from their body. After every step every number a body, shape or contact holds must be
 * finite, and every call carom refuses must return a status and leave a message. Before the
 * speed limits (CAROM_MAX_SPEED, CAROM_MAX_ANGULAR_SPEED) these worlds went non-finite: a
 * velocity grown geometrically by contacts between bodies of mass ratio 1e16 overflowed the
 * contact solver's determinant, a 1e12 m box spinning through a step of 1e6 s made continuous
 * collision's sweep non-finite, and a spin of 1e154 rad per substep overflowed a rotation's
 * normalisation. A third family adds joints of every kind (anchors, motor speeds, forces and
 * spring frequencies to 1e12); before the joints' passes kept their bodies within the speed
 * limits (joint_solver.c), 148 of its 3,000 worlds went non-finite. Every number a joint holds
 * that the API reads (its reaction force and torque) is checked too. */
#include "helpers.h"

#include "core.h"
#include "ds.h"
#include "world.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* xorshift64: the same scenes on every machine */
static uint64_t rng_state;
static double uniform(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}
static double pick(const double* values, int count) {
    return values[(int)(uniform() * count)];
}

static const double magnitudes[] = {0.0, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9, 1e12, -1e12, -1.0};
enum { MAGNITUDES = 10 };
static const double sizes[] = {0.00125, 0.0025, 0.01, 1.0, 100.0, 1e6, 1e12};
enum { SIZES = 7 };
static const double all_dts[] = {1e-12, 1e-6, 1.0 / 60.0, 1.0, 1e6, 1e12};
static const double game_dts[] = {1e-12, 1e-6, 1.0 / 60.0, 1.0 / 60.0, 1.0, 1.0};

static int asserts_failed;
static char first_assert[256];
static int count_assert(const char* condition, const char* file, int line) {
    if (asserts_failed++ == 0) {
        snprintf(first_assert, sizeof first_assert, "%s at %s:%d", condition, file, line);
    }
    return 0; /* carry on: the test reports it */
}

/* A refused call returned `status`: it must have recorded that status and a message. */
static void expect_reported(carom_status status, const char* call) {
    cr_assert_neq(status, CAROM_OK);
    cr_assert_eq(carom_last_status(), status, "%s returned %s but recorded %s", call,
                 carom_status_str(status), carom_status_str(carom_last_status()));
    cr_assert(strlen(carom_last_error()) > 0, "%s was refused without a message", call);
}

static void expect_ok_or_reported(carom_status status, const char* call) {
    if (status != CAROM_OK) {
        expect_reported(status, call);
    }
}

static bool finite2(carom_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/* Every number a body, shape and contact holds, or the first that is not finite. */
static const char* first_non_finite(const carom_world* world, int* which) {
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        const carom_body* b = &world->bodies[i];
        *which = i;
        if (b->id < 0) {
            continue;
        }
        if (!finite2(b->transform.p) || !isfinite(b->transform.q.c) ||
            !isfinite(b->transform.q.s) || !finite2(b->center)) {
            return "body pose";
        }
        if (!finite2(b->linear_velocity) || !isfinite(b->angular_velocity)) {
            return "body velocity";
        }
        if (!finite2(b->force) || !isfinite(b->torque)) {
            return "body force";
        }
        if (!finite2(b->sweep.c1) || !finite2(b->sweep.c2) || !isfinite(b->sweep.q1.c) ||
            !isfinite(b->sweep.q1.s) || !isfinite(b->sweep.delta_angle)) {
            return "body sweep";
        }
        if (!isfinite(b->mass) || !isfinite(b->inv_mass) || !isfinite(b->inertia) ||
            !isfinite(b->inv_inertia) || !finite2(b->local_center)) {
            return "body mass";
        }
        if (!isfinite(b->sleep_time) || !isfinite(b->rest_energy)) {
            return "body rest timer";
        }
    }
    for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
        const carom_shape* s = &world->shapes[i];
        *which = i;
        if (s->id >= 0 && (!finite2(s->aabb.lower) || !finite2(s->aabb.upper))) {
            return "shape box";
        }
    }
    for (int i = 0; i < (int)arrlen(world->contacts); ++i) {
        const carom_contact* c = &world->contacts[i];
        *which = i;
        if (c->id < 0) {
            continue;
        }
        if (!finite2(c->normal) || !isfinite(c->friction) || !isfinite(c->restitution)) {
            return "contact normal or material";
        }
        for (int j = 0; j < c->point_count; ++j) {
            const carom_contact_point* p = &c->points[j];
            if (!finite2(p->point) || !finite2(p->anchor_a) || !finite2(p->anchor_b) ||
                !isfinite(p->separation) || !isfinite(p->base_separation) ||
                !isfinite(c->impulses[j].normal) || !isfinite(c->impulses[j].tangent)) {
                return "contact point";
            }
        }
    }
    for (int i = 0; i < (int)arrlen(world->joints); ++i) {
        const carom_joint* j = &world->joints[i];
        *which = i;
        if (j->id >= 0 && (!finite2(j->reaction_force) || !isfinite(j->reaction_torque))) {
            return "joint reaction";
        }
    }
    return NULL;
}

static carom_vec2 random_vec2(void) {
    carom_vec2 v;
    v.x = pick(magnitudes, MAGNITUDES);
    v.y = pick(magnitudes, MAGNITUDES);
    return v;
}

/* A magnitude times a fraction, shrunk by 1e-6 half the time: one draw per statement, as C
 * leaves the order of calls within one expression open and the scenes must not depend on the
 * compiler. */
static double scaled(double value, double factor) { return value * factor; }
static double offset(void) {
    double value = pick(magnitudes, MAGNITUDES);
    value = scaled(value, uniform());
    return scaled(value, uniform() < 0.5 ? 1e-6 : 1.0);
}
static double random_position(void) {
    double value = pick(magnitudes, MAGNITUDES);
    return scaled(value, uniform());
}

/* Shapes 1.25 mm to 1e12 m, half of them placed far (to 1e12 m) from the body's origin. */
static void add_random_shapes(carom_body_id body, const carom_shape_def* shape_def) {
    int count = 1 + (int)(uniform() * 3);
    for (int s = 0; s < count; ++s) {
        double kind = uniform();
        carom_vec2 center = carom_v2(offset(), 0.0);
        center.y = offset();
        carom_clear_last_error();
        carom_shape_id shape;
        if (kind < 0.4) {
            carom_circle circle = {center, pick(sizes, SIZES)};
            shape = carom_create_circle_shape(body, shape_def, &circle);
        } else if (kind < 0.8) {
            double hx = pick(sizes, SIZES);
            double hy = pick(sizes, SIZES);
            shape = carom_create_box_shape(body, shape_def, hx, hy, center, uniform() * 7.0);
        } else {
            double length = pick(sizes, SIZES);
            carom_segment segment = {center, carom_v2(center.x + length, center.y)};
            shape = carom_create_segment_shape(body, shape_def, &segment);
        }
        if (CAROM_IS_NULL(shape)) {
            expect_reported(carom_last_status(), "creating a shape");
        }
    }
}

static carom_world_id random_world(carom_body_id* bodies, int* body_count) {
    carom_world_def world_def = carom_default_world_def();
    world_def.gravity = random_vec2();
    world_def.substeps = 1 + (int)(uniform() * 8);
    carom_world_id world = carom_create_world(&world_def);
    cr_assert(carom_world_is_valid(world));
    *body_count = 0;
    for (int i = 0; i < 6; ++i) {
        carom_body_def def = carom_default_body_def();
        def.type = i == 0 ? CAROM_BODY_STATIC
                          : (uniform() < 0.2 ? CAROM_BODY_KINEMATIC : CAROM_BODY_DYNAMIC);
        def.position.x = random_position();
        def.position.y = random_position();
        if (def.type != CAROM_BODY_STATIC) {
            def.linear_velocity = random_vec2();
            def.angular_velocity = pick(magnitudes, MAGNITUDES);
        }
        def.gravity_scale = pick(magnitudes, MAGNITUDES);
        def.linear_damping = fabs(pick(magnitudes, MAGNITUDES));
        def.angular_damping = fabs(pick(magnitudes, MAGNITUDES));
        def.bullet = uniform() < 0.3;
        carom_clear_last_error();
        carom_body_id body = carom_create_body(world, &def);
        if (CAROM_IS_NULL(body)) {
            expect_reported(carom_last_status(), "creating a body");
            continue;
        }
        carom_shape_def shape_def = carom_default_shape_def();
        double density = fabs(pick(magnitudes, 8));
        shape_def.density = uniform() < 0.5 ? 1e-6 : (density > 0.0 ? carom_max_d(density, 1e-6)
                                                                      : 1.0);
        shape_def.friction = fabs(pick(magnitudes, MAGNITUDES));
        shape_def.restitution = uniform();
        add_random_shapes(body, &shape_def);
        bodies[(*body_count)++] = body;
    }
    return world;
}

/* A non-negative magnitude: a frequency, a force, a damping ratio. */
static double positive(void) { return fabs(pick(magnitudes, MAGNITUDES)); }

/* Two ordered limits from the magnitudes (lower <= upper). */
static void random_limits(double* lower, double* upper) {
    double a = pick(magnitudes, MAGNITUDES);
    double b = pick(magnitudes, MAGNITUDES);
    *lower = carom_min_d(a, b);
    *upper = carom_max_d(a, b);
}

static carom_vec2 random_axis(void) {
    carom_vec2 axis = random_vec2();
    return axis.x == 0.0 && axis.y == 0.0 ? carom_v2(0.0, 1.0) : axis;
}

static carom_joint_id random_joint(carom_body_id a, carom_body_id b) {
    int kind = (int)(uniform() * 7);
    carom_vec2 anchor = random_vec2();
    switch (kind) {
    case 0: {
        carom_revolute_joint_def def = carom_default_revolute_joint_def();
        def.anchor = anchor;
        def.enable_limit = uniform() < 0.5;
        def.lower_angle = -uniform() * 3.0;
        def.upper_angle = uniform() * 3.0;
        def.enable_motor = uniform() < 0.5;
        def.motor_speed = pick(magnitudes, MAGNITUDES);
        def.max_motor_torque = positive();
        def.enable_spring = uniform() < 0.5;
        def.hertz = positive();
        def.damping_ratio = positive();
        return carom_create_revolute_joint(a, b, &def);
    }
    case 1: {
        carom_prismatic_joint_def def = carom_default_prismatic_joint_def();
        def.anchor = anchor;
        def.axis = random_axis();
        def.enable_limit = uniform() < 0.5;
        random_limits(&def.lower_translation, &def.upper_translation);
        def.enable_motor = uniform() < 0.5;
        def.motor_speed = pick(magnitudes, MAGNITUDES);
        def.max_motor_force = positive();
        def.enable_spring = uniform() < 0.5;
        def.hertz = positive();
        def.damping_ratio = positive();
        return carom_create_prismatic_joint(a, b, &def);
    }
    case 2: {
        carom_distance_joint_def def = carom_default_distance_joint_def();
        def.anchor_a = anchor;
        def.anchor_b = random_vec2();
        def.length = uniform() < 0.5 ? 0.0 : positive();
        def.enable_spring = uniform() < 0.5;
        def.hertz = positive();
        def.damping_ratio = positive();
        def.enable_limit = uniform() < 0.5;
        random_limits(&def.min_length, &def.max_length);
        def.min_length = fabs(def.min_length);
        def.max_length = carom_max_d(def.min_length, def.max_length);
        return carom_create_distance_joint(a, b, &def);
    }
    case 3: {
        carom_weld_joint_def def = carom_default_weld_joint_def();
        def.anchor = anchor;
        def.linear_hertz = positive();
        def.linear_damping_ratio = positive();
        def.angular_hertz = positive();
        def.angular_damping_ratio = positive();
        return carom_create_weld_joint(a, b, &def);
    }
    case 4: {
        carom_wheel_joint_def def = carom_default_wheel_joint_def();
        def.anchor = anchor;
        def.axis = random_axis();
        def.enable_spring = uniform() < 0.5;
        def.hertz = positive();
        def.damping_ratio = positive();
        def.enable_limit = uniform() < 0.5;
        random_limits(&def.lower_translation, &def.upper_translation);
        def.enable_motor = uniform() < 0.5;
        def.motor_speed = pick(magnitudes, MAGNITUDES);
        def.max_motor_torque = positive();
        return carom_create_wheel_joint(a, b, &def);
    }
    case 5: {
        carom_motor_joint_def def = carom_default_motor_joint_def();
        def.linear_offset = anchor;
        def.angular_offset = pick(magnitudes, MAGNITUDES);
        def.max_force = positive();
        def.max_torque = positive();
        def.correction_factor = uniform();
        return carom_create_motor_joint(a, b, &def);
    }
    default: {
        carom_mouse_joint_def def = carom_default_mouse_joint_def();
        def.target = anchor;
        def.hertz = carom_max_d(positive(), 1e-6);
        def.damping_ratio = positive();
        def.max_force = carom_max_d(positive(), 1e-6);
        return carom_create_mouse_joint(b, &def);
    }
    }
}

/* Up to four joints of random kinds and extreme settings between random pairs of bodies. */
static void add_random_joints(const carom_body_id* bodies, int body_count) {
    int count = (int)(uniform() * 5);
    for (int j = 0; j < count && body_count >= 2; ++j) {
        int first = (int)(uniform() * body_count);
        int second = (int)(uniform() * (body_count - 1));
        second += second >= first;
        carom_clear_last_error();
        carom_joint_id joint = random_joint(bodies[first], bodies[second]);
        if (CAROM_IS_NULL(joint)) {
            expect_reported(carom_last_status(), "creating a joint");
        }
    }
}

/* Forces, torques and impulses of every accepted magnitude, each at an extreme point. */
static void push_randomly(const carom_body_id* bodies, int count) {
    for (int i = 0; i < count; ++i) {
        double r = uniform();
        carom_clear_last_error();
        if (r < 0.2) {
            carom_vec2 force = random_vec2();
            carom_vec2 point = random_vec2();
            expect_ok_or_reported(carom_body_apply_force(bodies[i], force, point),
                                  "carom_body_apply_force");
        } else if (r < 0.4) {
            carom_vec2 impulse = random_vec2();
            carom_vec2 point = random_vec2();
            expect_ok_or_reported(carom_body_apply_linear_impulse(bodies[i], impulse, point),
                                  "carom_body_apply_linear_impulse");
        } else if (r < 0.5) {
            expect_ok_or_reported(carom_body_apply_torque(bodies[i], pick(magnitudes, MAGNITUDES)),
                                  "carom_body_apply_torque");
        } else if (r < 0.6) {
            expect_ok_or_reported(
                carom_body_apply_angular_impulse(bodies[i], pick(magnitudes, MAGNITUDES)),
                "carom_body_apply_angular_impulse");
        }
    }
}

typedef struct family_result {
    int scenes, steps;
    int broken;       /* scenes in which a value went non-finite or an internal assert failed */
    char first[512];  /* what went wrong first */
} family_result;

/* Run `scenes` random worlds of 20 steps each at a dt drawn from dts, checking after every step
 * that every value is finite, no internal assert failed, and every refusal was reported. */
static family_result run_family(uint64_t seed, int scenes, const double* dts, int dt_count,
                                bool with_joints) {
    family_result result = {scenes, 0, 0, ""};
    rng_state = seed;
    carom_set_assert_handler(count_assert);
    for (int scene = 0; scene < scenes; ++scene) {
        carom_body_id bodies[6];
        int body_count = 0;
        carom_world_id world = random_world(bodies, &body_count);
        if (with_joints) {
            add_random_joints(bodies, body_count);
        }
        double dt = pick(dts, dt_count);
        carom_world* w = carom_get_world_checked(world);
        for (int step = 0; step < 20; ++step) {
            push_randomly(bodies, body_count);
            asserts_failed = 0;
            carom_clear_last_error();
            carom_status status = carom_world_step(world, dt);
            int which = -1;
            const char* bad = first_non_finite(w, &which);
            if (asserts_failed > 0 || bad != NULL) {
                if (result.broken++ == 0) {
                    snprintf(result.first, sizeof result.first,
                             "scene %d step %d, dt %g: %s %d not finite; %d asserts, first %s",
                             scene, step, dt, bad != NULL ? bad : "nothing", which,
                             asserts_failed, asserts_failed > 0 ? first_assert : "-");
                }
                break;
            }
            if (status != CAROM_OK) {
                /* a dynamic body with only segments has no mass: the step is refused */
                expect_reported(status, "carom_world_step");
                cr_assert_eq(status, CAROM_ERROR_NO_MASS, "unexpected refusal: %s",
                             carom_last_error());
                break;
            }
            result.steps += 1;
        }
        carom_destroy_world(world);
    }
    carom_set_assert_handler(NULL);
    return result;
}

static void expect_all_finite(family_result r) {
    cr_log_info("%d scenes, %d steps, %d broken", r.scenes, r.steps, r.broken);
    cr_assert_eq(r.broken, 0, "%d of %d scenes went non-finite; first: %s", r.broken, r.scenes,
                 r.first);
}

/* The first family: dt from 1e-12 s to 1e12 s. */
Test(extreme, long_and_short_steps_stay_finite, .timeout = 600) {
    family_result r = run_family(88172645463325252ull, 1500, all_dts, 6, false);
    expect_all_finite(r);
    cr_assert_gt(r.steps, 10000);
}

/* The second: the steps a game or a slow simulation takes, 1e-12 s to 1 s. */
Test(extreme, game_steps_stay_finite, .timeout = 600) {
    family_result r = run_family(88172645463325252ull, 3000, game_dts, 6, false);
    expect_all_finite(r);
    cr_assert_gt(r.steps, 20000);
}

/* The third: the same worlds with up to four joints of every kind between their bodies, at
 * settings from the ends of their ranges (anchors, motor speeds, forces, torques and spring
 * frequencies to 1e12), at the game steps. */
Test(extreme, worlds_with_joints_stay_finite, .timeout = 600) {
    family_result r = run_family(0x6a6f696e74735eedull, 3000, game_dts, 6, true);
    expect_all_finite(r);
    cr_assert_gt(r.steps, 20000);
}

/* The speed limits are a rule of the world: a gravity of 1e12 m/s² scaled by 1e12 would give
 * 1e24 m/s in one step of 1 s, and a torque of 1e12 N·m on a 2.5 mm speck 1e28 rad/s. The step
 * leaves both at the limits, with the direction kept; the next steps, without the push, keep
 * that speed: the rule slows, it does not brake. */
Test(extreme, a_step_leaves_no_body_faster_than_the_speed_limits) {
    carom_world_def world_def = carom_default_world_def();
    world_def.gravity = carom_v2(-1e12, -1e12);
    carom_world_id world = carom_create_world(&world_def);
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.gravity_scale = 1e12;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = CAROM_MIN_DENSITY;
    carom_circle speck = {{0.0, 0.0}, CAROM_MIN_RADIUS};
    carom_create_circle_shape(body, &shape, &speck);
    cr_assert_eq(carom_body_apply_torque(body, 1e12), CAROM_OK);
    cr_assert_eq(carom_world_step(world, 1.0), CAROM_OK);
    carom_vec2 v = carom_body_get_linear_velocity(body);
    cr_assert_float_eq(carom_length(v), CAROM_MAX_SPEED, 1e-12 * CAROM_MAX_SPEED);
    cr_assert_float_eq(v.x, v.y, 1e-12 * CAROM_MAX_SPEED, "the direction is kept");
    cr_assert_lt(v.x, 0.0);
    cr_assert_eq(carom_body_get_angular_velocity(body), CAROM_MAX_ANGULAR_SPEED);

    cr_assert_eq(carom_world_set_gravity(world, carom_v2(0.0, 0.0)), CAROM_OK);
    for (int step = 0; step < 3; ++step) {
        carom_vec2 before = carom_body_get_world_center(body);
        cr_assert_eq(carom_world_step(world, 1.0), CAROM_OK);
        double moved = carom_distance(before, carom_body_get_world_center(body));
        /* the first step's push took the speck 9e23 m away, where a double's steps are 1e8 m */
        double tolerance = 1e-12 * CAROM_MAX_SPEED + 1e-15 * carom_length(before);
        cr_assert_float_eq(moved, CAROM_MAX_SPEED, tolerance, "moved %g m", moved);
        cr_assert_float_eq(carom_length(carom_body_get_linear_velocity(body)), CAROM_MAX_SPEED,
                           1e-12 * CAROM_MAX_SPEED);
    }
    carom_destroy_world(world);
}
