/* The contact solver's lanes: every width gives the same bits, and the width is chosen at the
 * API with clear errors. */
#include "helpers.h"

#include "scenes.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

/* A mixed pile: boxes, balls and pentagons on the ground and against a wall, a kinematic
 * paddle pushing through it, friction and restitution; sleep on, so islands sleep and wake,
 * and a hub ball under many others so some constraints go to the overflow. Hash after `steps`. */
static carom_world_id make_mixed(void) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    for (int row = 0; row < 12; ++row) {
        for (int i = 0; i < 14; ++i) {
            carom_vec2 p = {-7.0 + 1.05 * i + 0.05 * (row % 2), 0.6 + 1.1 * row};
            if ((row + i) % 3 == 0) {
                test_make_ball(world, p, 0.5, carom_v2(0.2 * (i % 5) - 0.4, 0.0), 0.5, 0.4);
            } else {
                test_make_box(world, p, 0.5, 0.45, 0.05 * (i % 7), 0.7, 0.1);
            }
        }
    }
    /* a small hub ball with 30 tiny balls resting on and around it */
    test_make_ball(world, carom_v2(12.0, 1.0), 1.0, carom_v2(0.0, 0.0), 0.5, 0.0);
    for (int k = 0; k < 30; ++k) {
        carom_rot q = carom_make_rot(CAROM_PI * (0.05 + 0.9 * k / 29.0));
        carom_vec2 p = {12.0 + 1.08 * q.c, 1.0 + 1.08 * q.s};
        test_make_ball(world, p, 0.08, carom_v2(0.0, 0.0), 0.5, 0.0);
    }
    carom_body_def paddle_def = carom_default_body_def();
    paddle_def.type = CAROM_BODY_KINEMATIC;
    paddle_def.position = carom_v2(-9.0, 2.0);
    paddle_def.linear_velocity = carom_v2(1.5, 0.0);
    carom_body_id paddle = carom_create_body(world, &paddle_def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(paddle, &shape, 0.3, 2.0, carom_v2(0.0, 0.0), 0.0);
    return world;
}

static uint64_t run_mixed(int lanes, int steps) {
    cr_assert_eq(carom_set_solver_lanes(lanes), CAROM_OK, "%s", carom_last_error());
    carom_world_id world = make_mixed();
    test_step(world, 1.0 / 60.0, steps);
    uint64_t hash = carom_world_hash(world);
    carom_destroy_world(world);
    cr_assert_eq(carom_set_solver_lanes(0), CAROM_OK);
    return hash;
}

Test(contact_solver, every_lane_width_gives_the_same_bits) {
    uint64_t scalar = run_mixed(1, 240);
    const int widths[] = {2, 4, 8};
    int tried = 1;
    for (int k = 0; k < 3; ++k) {
        if (carom_set_solver_lanes(widths[k]) != CAROM_OK) {
            continue; /* a width this machine does not run */
        }
        tried += 1;
        uint64_t wide = run_mixed(widths[k], 240);
        cr_assert_eq(wide, scalar, "%d lanes: %016llx, 1 lane: %016llx", widths[k],
                     (unsigned long long)wide, (unsigned long long)scalar);
    }
    cr_log_info("compared %d widths", tried);
    cr_assert_geq(tried, 2, "at least the scalar and the 2-lane kernels");
    cr_assert_eq(carom_set_solver_lanes(0), CAROM_OK);
}

/* A step whose colouring inputs (each constraint's moving bodies and point count) are the last
 * step's keeps the last colours and slots (contact_solver.c's layout_unchanged). A width that
 * changes every step makes them afresh in every step, and the width reaches no bit: so both
 * runs must end with the same hash, or a layout was kept that a change of the inputs should
 * have redone. In the rain, steps with as many constraints as the last but other pairs are
 * common: kept on the count alone, or on the count and the point counts, the layouts gave
 * another hash there. (A kept layout with stale point counts gives the same bits, only less
 * even groups, so no hash can show that part of the test.) */
static uint64_t run_scene(carom_scene_kind kind, int n, int steps, bool alternate) {
    carom_world_def def = carom_scene_world_def(kind);
    carom_world_id world = carom_create_world(&def);
    cr_assert_geq(carom_scene_build(world, kind, n, NULL), 0, "%s", carom_last_error());
    for (int step = 0; step < steps; ++step) {
        cr_assert_eq(carom_set_solver_lanes(alternate ? 1 + step % 2 : 2), CAROM_OK);
        carom_world_step(world, 1.0 / 60.0);
    }
    uint64_t hash = carom_world_hash(world);
    carom_destroy_world(world);
    cr_assert_eq(carom_set_solver_lanes(0), CAROM_OK);
    return hash;
}

Test(contact_solver, a_kept_layout_gives_the_bits_of_a_fresh_one) {
    const struct {
        carom_scene_kind kind;
        int n;
        const char* name;
    } scenes[] = {{CAROM_SCENE_TUMBLER, 12, "tumbler"},
                  {CAROM_SCENE_SPINNER, 300, "spinner"},
                  {CAROM_SCENE_RAIN, 300, "rain"}};
    for (int k = 0; k < 3; ++k) {
        uint64_t kept = run_scene(scenes[k].kind, scenes[k].n, 300, false);
        uint64_t fresh = run_scene(scenes[k].kind, scenes[k].n, 300, true);
        cr_expect_eq(fresh, kept, "%s laid out afresh every step: %016llx, kept: %016llx",
                     scenes[k].name, (unsigned long long)fresh, (unsigned long long)kept);
    }
}

/* A resting pile whose contacts are recycled step after step refreshes its lanes instead of
 * filling them (contact_solver.c's lanes_refreshable): each keeps what the last step left in
 * it but its separations, its approach and its flags. A width that changes every step fills
 * every lane afresh, so both runs must give the same hashes, also when something a refreshed
 * lane would keep changes between steps: a body's mass, a shape's friction (the contact mixes
 * it again at its update), contacts the pre-solve callback disables and then enables again
 * (their impulses forgotten), a body's velocity (the approach), and a box's restitution: the
 * boxes' lanes cannot bounce, so a refresh keeps their separations alone and not their approach
 * (CAROM_REFRESH_SEPARATIONS, solver.h), which a restitution set later must not find stale. */
enum { PERTURBED_STEPS = 160 };

typedef struct refresh_pile {
    carom_world_id world;
    carom_body_id boxes[28];
    carom_body_id balls[6];
} refresh_pile;

/* Disables every contact of the pile's first box while on (the context). */
static int disable_first_box(carom_shape_id a, carom_shape_id b, const carom_manifold* manifold,
                             void* context) {
    (void)manifold;
    const refresh_pile* pile = context;
    carom_shape_id shape;
    cr_assert_eq(carom_body_get_shapes(pile->boxes[0], &shape, 1), 1);
    return !carom_shape_id_equals(a, shape) && !carom_shape_id_equals(b, shape);
}

static refresh_pile make_refresh_pile(void) {
    refresh_pile pile;
    carom_world_def def = carom_default_world_def();
    def.enable_sleep = 0; /* the pile stays awake, so its constraints are solved every step */
    pile.world = carom_create_world(&def);
    test_make_ground(pile.world, 0.0, 0.6, 0.0);
    int k = 0;
    for (int row = 0; row < 7; ++row) { /* a pyramid of 28 boxes: two-point contacts */
        for (int i = 0; i < 7 - row; ++i) {
            carom_vec2 p = {-3.0 + 0.5 * row + 1.0 * i, 0.5 + 1.0 * row};
            pile.boxes[k++] = test_make_box(pile.world, p, 0.5, 0.5, 0.0, 0.6, 0.0);
        }
    }
    for (int i = 0; i < 6; ++i) { /* balls on the ground beside it: one-point contacts */
        carom_vec2 p = {5.0 + 1.2 * i, 0.4};
        pile.balls[i] = test_make_ball(pile.world, p, 0.4, carom_v2(0.0, 0.0), 0.5, 0.3);
    }
    return pile;
}

static void perturb(refresh_pile* pile, int step) {
    if (step == 60) {
        carom_mass_data mass = carom_body_get_mass_data(pile->boxes[3]);
        mass.mass *= 2.0;
        mass.rotational_inertia *= 2.0;
        cr_assert_eq(carom_body_set_mass_data(pile->boxes[3], mass), CAROM_OK);
    } else if (step == 80) {
        carom_shape_id shape;
        cr_assert_eq(carom_body_get_shapes(pile->boxes[10], &shape, 1), 1);
        cr_assert_eq(carom_shape_set_friction(shape, 0.2), CAROM_OK);
    } else if (step == 100) {
        cr_assert_eq(carom_world_set_pre_solve(pile->world, disable_first_box, pile), CAROM_OK);
    } else if (step == 103) {
        cr_assert_eq(carom_world_set_pre_solve(pile->world, NULL, NULL), CAROM_OK);
    } else if (step == 120) {
        cr_assert_eq(carom_body_set_linear_velocity(pile->balls[2], carom_v2(0.0, -3.0)),
                     CAROM_OK);
    } else if (step == 130) { /* a box whose lanes nothing bounced: its approach was not kept */
        cr_assert_eq(carom_body_set_linear_velocity(pile->boxes[20], carom_v2(0.0, -2.0)),
                     CAROM_OK);
    } else if (step == 140) { /* and then it bounces */
        carom_shape_id shape;
        cr_assert_eq(carom_body_get_shapes(pile->boxes[20], &shape, 1), 1);
        cr_assert_eq(carom_shape_set_restitution(shape, 0.8), CAROM_OK);
        cr_assert_eq(carom_body_set_linear_velocity(pile->boxes[20], carom_v2(0.0, -3.0)),
                     CAROM_OK);
    }
}

static void run_perturbed(bool alternate, uint64_t* hashes) {
    refresh_pile pile = make_refresh_pile();
    for (int step = 0; step < PERTURBED_STEPS; ++step) {
        perturb(&pile, step);
        cr_assert_eq(carom_set_solver_lanes(alternate ? 1 + step % 2 : 2), CAROM_OK);
        cr_assert_eq(carom_world_step(pile.world, 1.0 / 60.0), CAROM_OK, "%s",
                     carom_last_error());
        hashes[step] = carom_world_hash(pile.world);
    }
    carom_destroy_world(pile.world);
    cr_assert_eq(carom_set_solver_lanes(0), CAROM_OK);
}

Test(contact_solver, a_refreshed_lane_gives_the_bits_of_a_filled_one) {
    static uint64_t refreshed[PERTURBED_STEPS], filled[PERTURBED_STEPS];
    run_perturbed(false, refreshed);
    run_perturbed(true, filled);
    for (int step = 0; step < PERTURBED_STEPS; ++step) {
        cr_assert_eq(refreshed[step], filled[step],
                     "step %d: refreshed lanes %016llx, filled afresh %016llx", step,
                     (unsigned long long)refreshed[step], (unsigned long long)filled[step]);
    }
}

/* By default the width follows the step (contact_solver.c); carom_get_solver_lanes() then
 * reports the widest this machine runs, and 0 restores the default after a width was asked for. */
Test(contact_solver, the_default_width_is_the_widest_this_machine_runs) {
    cr_assert_eq(carom_set_solver_lanes(0), CAROM_OK);
    int widest = carom_get_solver_lanes();
    cr_assert(widest == 2 || widest == 4 || widest == 8, "%d", widest);
    cr_assert_eq(carom_set_solver_lanes(2 * widest), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_get_solver_lanes(), widest, "a refused width changes nothing");
    cr_assert_eq(carom_set_solver_lanes(3), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "solver lanes 3") != NULL, "%s", carom_last_error());
    cr_assert_eq(carom_set_solver_lanes(1), CAROM_OK);
    cr_assert_eq(carom_get_solver_lanes(), 1);
    cr_assert_eq(carom_set_solver_lanes(0), CAROM_OK);
    cr_assert_eq(carom_get_solver_lanes(), widest);
}
