/* Containment: a body's own motion never carries it through a static wall, whatever its size,
 * speed and spin, in the step it hits and in the steps after (continuous collision's cores,
 * docs/continuous.md); bounces give back no more energy than the impact took; and the arena
 * soak (soak_arena.h) loses no body. */
#include "helpers.h"
#include "soak_arena.h"

#include <criterion/criterion.h>
#include <math.h>

static const double dt = 1.0 / 60.0;

enum { WALL_SEGMENT, WALL_CHAIN, WALL_THICK_BOX, WALL_KINDS };
static const char* const wall_names[WALL_KINDS] = {"segment", "chain", "4 m thick box"};

/* A wall whose face is the line x = 10, facing -x, in a world without gravity. */
static carom_world_id world_with_wall(int kind, int substeps) {
    carom_world_def def = carom_default_world_def();
    def.gravity = carom_v2(0.0, 0.0);
    def.substeps = substeps;
    carom_world_id world = carom_create_world(&def);
    carom_body_def body = carom_default_body_def();
    carom_body_id wall = carom_create_body(world, &body);
    carom_shape_def shape = carom_default_shape_def();
    shape.restitution = 0.0;
    if (kind == WALL_SEGMENT) {
        carom_segment segment = {{10.0, -50.0}, {10.0, 50.0}};
        carom_create_segment_shape(wall, &shape, &segment);
    } else if (kind == WALL_CHAIN) {
        const carom_vec2 points[4] = {{10.0, -50.0}, {10.0, 0.0}, {10.0, 50.0}, {10.0, 100.0}};
        cr_assert_eq(carom_create_chain(wall, &shape, points, 4, 0, NULL), CAROM_OK);
    } else {
        carom_create_box_shape(wall, &shape, 2.0, 50.0, carom_v2(12.0, 0.0), 0.0);
    }
    return world;
}

static carom_body_id dense_box(carom_world_id world, double hx, double hy, double speed,
                               double angle, double spin, double density) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.angle = angle;
    def.linear_velocity = carom_v2(speed, 0.0);
    def.angular_velocity = spin;
    carom_body_id box = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.restitution = 0.0;
    shape.density = density;
    carom_create_box_shape(box, &shape, hx, hy, carom_v2(0.0, 0.0), 0.0);
    return box;
}

static carom_body_id thrown_box(carom_world_id world, double hx, double hy, double speed,
                                double angle, double spin) {
    return dense_box(world, hx, hy, speed, angle, spin, 1.0);
}

/* The farthest x the box's center reaches in 4 s. */
static double farthest_reach(int wall, double hx, double hy, double speed, double angle,
                             double spin) {
    carom_world_id world = world_with_wall(wall, 4);
    carom_body_id box = thrown_box(world, hx, hy, speed, angle, spin);
    double farthest = -INFINITY;
    for (int step = 0; step < 240; ++step) {
        test_step(world, dt, 1);
        farthest = fmax(farthest, carom_body_get_world_center(box).x);
    }
    carom_destroy_world(world);
    return farthest;
}

/* The simplest case: 0.2 x 0.6 m debris at 30 m/s spinning at 30 rad/s. Continuous
 * collision stopped it at the wall; the next step's contact turned the hit into spin about the
 * leading corner, and the center went through (it ended at x = 23.45). */
Test(containment, spinning_debris_stays_in_front_of_a_segment_wall) {
    double farthest = farthest_reach(WALL_SEGMENT, 0.1, 0.3, 30.0, 0.0, 30.0);
    cr_assert_lt(farthest, 10.0, "the debris's center reached x = %.3f", farthest);
}

/* 3 boxes (a 4.4 x 1.8 m car, a 2 x 1 m crate, 0.2 x 0.6 m debris) x 3 speeds x 4 angles x 3
 * spins, against a segment, a chain and a thick box: no center ever reaches the wall's face. */
Test(containment, thrown_boxes_never_pass_a_wall) {
    const double sizes[3][2] = {{2.2, 0.9}, {1.0, 0.5}, {0.1, 0.3}};
    const double speeds[3] = {30.0, 60.0, 100.0};
    const double angles[4] = {0.0, 0.3, 0.7, 1.2};
    const double spins[3] = {0.0, 10.0, 30.0};
    for (int wall = 0; wall < WALL_KINDS; ++wall) {
        int through = 0;
        for (int s = 0; s < 3; ++s) {
            for (int v = 0; v < 3; ++v) {
                for (int a = 0; a < 4; ++a) {
                    for (int w = 0; w < 3; ++w) {
                        double farthest = farthest_reach(wall, sizes[s][0], sizes[s][1],
                                                         speeds[v], angles[a], spins[w]);
                        if (farthest >= 10.0) {
                            through += 1;
                            cr_log_error("%s: box %d at %g m/s, angle %g, spin %g reached x = "
                                         "%.3f", wall_names[wall], s, speeds[v], angles[a],
                                         spins[w], farthest);
                        }
                    }
                }
            }
        }
        cr_expect_eq(through, 0, "%s: %d of 108 thrown boxes went through", wall_names[wall],
                     through);
    }
}

/* A 0.4 x 0.053 m plank dropped at 216 m/s onto a 4 m thick floor in 180 orientations, at 1
 * and 4 substeps (not a bullet): none ends below the floor's top. */
Test(containment, thin_planks_at_216_m_per_s_stay_on_a_thick_floor) {
    for (int substeps = 1; substeps <= 4; substeps += 3) {
        int below = 0;
        for (int degrees = 0; degrees < 180; ++degrees) {
            carom_world_def def = carom_default_world_def();
            def.substeps = substeps;
            carom_world_id world = carom_create_world(&def);
            carom_body_def floor_def = carom_default_body_def();
            carom_body_id floor = carom_create_body(world, &floor_def);
            carom_shape_def shape = carom_default_shape_def();
            /* 4 m thick and 10 km wide: a plank sent sliding at 50 m/s stays on it */
            carom_create_box_shape(floor, &shape, 5000.0, 2.0, carom_v2(0.0, -2.0), 0.0);
            carom_body_id plank = test_make_box(world, carom_v2(0.0, 5.0), 0.2, 0.0265,
                                                degrees * 3.14159265358979 / 180.0, 0.6, 0.0);
            carom_body_set_linear_velocity(plank, carom_v2(0.0, -216.0));
            double lowest = INFINITY;
            for (int step = 0; step < 120; ++step) {
                test_step(world, dt, 1);
                lowest = fmin(lowest, carom_body_get_world_center(plank).y);
            }
            if (lowest < 0.0) {
                below += 1;
                cr_log_error("%d substeps, %d degrees: the plank's center reached y = %.3f",
                             substeps, degrees, lowest);
            }
            carom_destroy_world(world);
        }
        cr_expect_eq(below, 0, "%d substeps: %d of 180 planks went into the floor", substeps,
                     below);
    }
}

/* A 1,000 kg block driven by a 10 kN force crushes a 1 g box against a segment wall at one
 * substep: the small box is squeezed, but its center stays in front of the wall. */
Test(containment, a_light_box_crushed_against_a_wall_stays_in_front) {
    carom_world_id world = world_with_wall(WALL_SEGMENT, 1);
    carom_body_id light = dense_box(world, 0.05, 0.05, 0.0, 0.3, 0.0, 0.4);
    carom_body_set_transform(light, carom_v2(9.9, 0.0), 0.3);
    carom_body_id heavy = dense_box(world, 0.5, 0.5, 3.0, 0.0, 0.0, 1000.0);
    carom_body_set_transform(heavy, carom_v2(9.0, 0.0), 0.0);
    double farthest = -INFINITY;
    for (int step = 0; step < 600; ++step) {
        carom_body_apply_force_to_center(heavy, carom_v2(1e4, 0.0));
        test_step(world, dt, 1);
        farthest = fmax(farthest, carom_body_get_world_center(light).x);
    }
    cr_assert_lt(farthest, 10.0, "the light box's center reached x = %.4f", farthest);
}

/* A light polygon spinning at 284 rad/s and moving at 178 m/s meets a wall with both corners
 * of a face, restitution 0.998. Each corner's bounce is its own approach speed, measured before
 * friction turned part of it into spin; together they gave back 28% more energy than the body
 * had, at every wall of a closed box. Now no bounce leaves it with more than it had. */
Test(containment, a_spinning_bounce_gives_back_no_more_energy_than_the_impact_took) {
    carom_world_def def = carom_default_world_def();
    def.gravity = carom_v2(0.0, 0.0);
    def.substeps = 3;
    carom_world_id world = carom_create_world(&def);
    carom_body_def walls_def = carom_default_body_def();
    carom_body_id walls = carom_create_body(world, &walls_def);
    carom_shape_def wall_shape = carom_default_shape_def();
    carom_create_box_shape(walls, &wall_shape, 32.0, 1.0, carom_v2(0.0, 31.0), 0.0);
    carom_create_box_shape(walls, &wall_shape, 32.0, 1.0, carom_v2(0.0, -31.0), 0.0);
    carom_body_def def_body = carom_default_body_def();
    def_body.type = CAROM_BODY_DYNAMIC;
    def_body.linear_velocity = carom_v2(19.79, 176.97);
    def_body.angular_velocity = -283.9;
    carom_body_id body = carom_create_body(world, &def_body);
    const carom_vec2 points[5] = {{0.2, 0.0}, {0.05, 0.19}, {-0.17, 0.1}, {-0.15, -0.13},
                                  {0.08, -0.18}};
    carom_polygon polygon;
    cr_assert_eq(carom_make_polygon(points, 5, &polygon), CAROM_OK);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = 0.0231;
    shape.restitution = 0.998;
    shape.friction = 0.5;
    carom_create_polygon_shape(body, &shape, &polygon);
    double start = carom_body_get_kinetic_energy(body);
    double most = start;
    for (int step = 0; step < 600; ++step) {
        test_step(world, dt, 1);
        most = fmax(most, carom_body_get_kinetic_energy(body));
    }
    cr_assert_leq(most, start * (1.0 + 1e-6), "kinetic energy grew from %.4f J to %.4f J",
                  start, most);
}

/* Scenes first .. first + count - 1 of the arena soak for `steps` steps each: no body leaves
 * the box, nothing goes non-finite, and without kinematic spinners (which may pump energy in)
 * the total energy never grows by more than 0.1%. */
static void expect_soak_scenes_hold(int first, int count, int steps) {
    for (int seed = first; seed < first + count; ++seed) {
        soak_scene scene;
        soak_build((uint64_t)seed, &scene);
        soak_result r = soak_run(&scene, steps);
        cr_expect_eq(r.lost, 0, "seed %d: %d bodies left the box, the first (body %d) at step %d",
                     seed, r.lost, r.first_lost_body, r.first_lost_step);
        cr_expect_eq(r.non_finite, 0, "seed %d: a non-finite position or velocity", seed);
        if (!scene.has_kinematic) {
            cr_expect_leq(r.energy_ratio, 1.001, "seed %d: the energy grew %.4f times", seed,
                          r.energy_ratio);
        }
        carom_destroy_world(scene.world);
    }
}

/* The first 20 scenes of the arena soak for 3,000 steps each (50 s at 60 Hz). */
Test(containment, arena_soak_loses_no_body) { expect_soak_scenes_hold(0, 20, 3000); }

/* The next 200 scenes for 1,000 steps each: the soak's losses of 2026-11-26 (8 of its first
 * 6,000 scenes, docs/continuous.md) all came within the first 1,000 steps, in scenes beyond the
 * first 20, so many scenes for a shorter time find more than few for longer. Among them scene
 * 153 (one substep, a chain loop for walls): a spinning bullet drives into a 5.7 by 3.4 cm box
 * resting on the bottom wall. Continuous collision moved the box back to the moment the bullet
 * met it, and its core correction lifted it to where it began the step; sweeping the box again
 * from the pose before that lift then stopped it 9 mm below the wall's line, and it fell out of
 * the arena at step 547. A body moved back now stands still where it ends, and the box stays
 * in. */
Test(containment, arena_soak_wider_loses_no_body) { expect_soak_scenes_hold(20, 200, 1000); }
