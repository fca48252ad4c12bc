/* The scene keys for what the engine has beyond bodies and joints (issue 16): vehicles with
 * scripted controls, sensors' surface grip, one-sided chains and hit events, loaded with the
 * command line's loader (tools/scene*.c) and run as `carom run` runs them. Each test states the
 * physics or the promise it holds the keys to: the racing model brakes in the distance friction
 * allows and slows on grass, and a run resumed from a state file or a snapshot at any step is the
 * uninterrupted run, bit for bit. */
#define _POSIX_C_SOURCE 200809L
#include "scene.h"
#include "state.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SCENES_DIR
#error "tests/meson.build defines SCENES_DIR, the folder of the example scenes"
#endif

/* The racing model's numbers (scenes/generate.py, racing_model). */
#define BRAKE_STEP 240
#define GRASS_GRIP 0.6
#define TYRE_GRAVITY 9.81 /* the vehicle def's default */
#define RUN_STEPS 600

/* A loaded scene, its world and its bodies. */
typedef struct scene_run {
    scene_def scene;
    carom_world_id world;
    carom_body_id* bodies;
} scene_run;

static void print_line(void* user, const char* line) {
    (void)user;
    cr_log_error("%s", line);
}

static void build(scene_run* run) {
    run->bodies = calloc((size_t)run->scene.body_count + 1, sizeof *run->bodies);
    cr_assert(run->bodies != NULL);
    int failed_body = -1;
    cr_assert_eq(scene_build_world(&run->scene, &run->world, run->bodies, &failed_body), CAROM_OK,
                 "the scene builds (body %d): %s", failed_body, carom_last_error());
}

static scene_run load_text(const char* text, size_t size) {
    scene_run run = {0};
    scene_report report = {.file_name = "scene", .emit = print_line};
    cr_assert(scene_load_buffer(text, size, &report, &run.scene), "the scene loads");
    cr_assert_eq(report.warning_count, 0, "the scene loads without warnings");
    build(&run);
    return run;
}

static scene_run load_racing_model(void) {
    const char* path = SCENES_DIR "/racing_model.json";
    scene_run run = {0};
    scene_report report = {.file_name = path, .emit = print_line};
    cr_assert(scene_load_file(path, &report, &run.scene), "%s loads", path);
    build(&run);
    return run;
}

static void release(scene_run* run) {
    carom_destroy_world(run->world);
    scene_free(&run->scene);
    free(run->bodies);
}

/* Steps `first` to `last` - 1 taken as `carom run` takes them: the controls, then the step. */
static void run_steps(scene_run* run, int64_t first, int64_t last) {
    for (int64_t step = first; step < last; ++step) {
        cr_assert_eq(scene_apply_controls(&run->scene, step), CAROM_OK);
        cr_assert_eq(carom_world_step(run->world, run->scene.dt), CAROM_OK, "step %lld: %s",
                     (long long)step + 1, carom_last_error());
    }
}

static int body_named(const scene_def* scene, const char* name) {
    for (int i = 0; i < scene->body_count; ++i) {
        if (scene->bodies[i].name != NULL && strcmp(scene->bodies[i].name, name) == 0) {
            return i;
        }
    }
    cr_assert_fail("no body %s", name);
    return -1;
}

/* ---- The racing model: physics --------------------------------------------------------------- */

Test(racing_model, brakes_in_the_friction_limited_distance_and_slows_on_grass) {
    scene_run run = load_racing_model();
    carom_body_id tarmac = run.bodies[body_named(&run.scene, "tarmac")];
    carom_body_id grass = run.bodies[body_named(&run.scene, "grass")];
    run_steps(&run, 0, BRAKE_STEP);
    /* Until the brakes, both cars are on tarmac with the same script: the same bits. */
    carom_vec2 start = carom_body_get_position(tarmac);
    double speed = carom_body_get_linear_velocity(tarmac).x;
    cr_assert_eq(start.x, carom_body_get_position(grass).x);
    cr_assert_eq(speed, carom_body_get_linear_velocity(grass).x);
    cr_assert(speed > 15.0 && speed < 17.0, "4 s of full throttle: %g m/s", speed);
    run_steps(&run, BRAKE_STEP, RUN_STEPS);
    /* Both at rest, exactly: the brakes never push a car backwards. */
    cr_assert_eq(carom_body_get_linear_velocity(tarmac).x, 0.0);
    cr_assert_eq(carom_body_get_linear_velocity(grass).x, 0.0);
    double on_tarmac = carom_body_get_position(tarmac).x - start.x;
    double on_grass = carom_body_get_position(grass).x - start.x;
    /* Friction-limited braking stops in v^2 / (2 grip g); air drag and rolling resistance help a
     * little, so slightly shorter. */
    double limit = speed * speed / (2.0 * TYRE_GRAVITY);
    cr_log_info("from %.3f m/s: tarmac %.3f m (v^2/2g %.3f m), grass %.3f m (ratio %.3f)", speed,
                on_tarmac, limit, on_grass, on_grass / on_tarmac);
    cr_assert(on_tarmac < limit && on_tarmac > 0.97 * limit, "tarmac: %g m, limit %g m",
              on_tarmac, limit);
    cr_assert(on_grass < limit / GRASS_GRIP && on_grass > 0.93 * limit / GRASS_GRIP,
              "grass: %g m, limit %g m", on_grass, limit / GRASS_GRIP);
    /* The cars drove straight: no steering in the script, nothing pushed them sideways. */
    cr_assert_eq(carom_body_get_position(tarmac).y, 0.0);
    cr_assert_eq(carom_body_get_angle(grass), 0.0);
    release(&run);
}

Test(racing_model, is_deterministic) {
    scene_run a = load_racing_model(), b = load_racing_model();
    run_steps(&a, 0, RUN_STEPS);
    run_steps(&b, 0, RUN_STEPS);
    cr_assert_eq(carom_world_hash(a.world), carom_world_hash(b.world));
    release(&a);
    release(&b);
}

/* ---- Resuming: state files and snapshots -------------------------------------------------- */

static char* state_text(const scene_run* run, int64_t step, size_t* size) {
    char* text = NULL;
    FILE* file = open_memstream(&text, size);
    cr_assert(file != NULL);
    state_write(file, &run->scene, run->world, run->bodies, run->scene.dt, step);
    cr_assert_eq(fclose(file), 0);
    return text;
}

static uint64_t uninterrupted_hash(int steps) {
    scene_run run = load_racing_model();
    run_steps(&run, 0, steps);
    uint64_t hash = carom_world_hash(run.world);
    release(&run);
    return hash;
}

/* Split at `split`: the state file then is a scene whose step 0 is that step; run on, it ends
 * where the whole run ends. The racing model has no contacts, the one thing a state file
 * cannot carry (docs/cli.md), so the promise is bit for bit. */
static void check_state_split(int split, uint64_t whole) {
    scene_run first = load_racing_model();
    run_steps(&first, 0, split);
    size_t size = 0;
    char* text = state_text(&first, split, &size);
    scene_run second = load_text(text, size);
    run_steps(&second, 0, RUN_STEPS - split);
    cr_assert_eq(carom_world_hash(second.world), whole,
                 "state file at step %d: %016llx, whole run %016llx", split,
                 (unsigned long long)carom_world_hash(second.world), (unsigned long long)whole);
    free(text);
    release(&first);
    release(&second);
}

Test(resume, from_a_state_file_at_any_step_is_the_whole_run) {
    uint64_t whole = uninterrupted_hash(RUN_STEPS);
    /* before anything, at a control entry, one step either side of it, mid-brake, at rest */
    const int splits[] = {0, 1, BRAKE_STEP - 1, BRAKE_STEP, BRAKE_STEP + 1, 300, 590};
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; ++i) {
        check_state_split(splits[i], whole);
    }
}

Test(resume, state_file_writes_the_input_in_force_and_the_rest_of_the_script) {
    scene_run run = load_racing_model();
    run_steps(&run, 0, 200);
    size_t size = 0;
    char* text = state_text(&run, 200, &size);
    cr_assert(strstr(text, "\"input\": {\"throttle\": 1, \"brake\": 0, \"steer\": 0, "
                           "\"handbrake\": false}") != NULL,
              "%s", text);
    cr_assert(strstr(text, "{\"step\": 40, \"throttle\": 0, \"brake\": 1, \"steer\": 0, "
                           "\"handbrake\": false}") != NULL,
              "%s", text);
    cr_assert(strstr(text, "\"step\": 0,") == NULL, "the spent entry is gone: %s", text);
    /* Read back and written again at its own step 0: the same bytes. */
    scene_run again = load_text(text, size);
    size_t again_size = 0;
    char* again_text = state_text(&again, 0, &again_size);
    cr_assert_eq(again_size, size);
    cr_assert_eq(memcmp(again_text, text, size), 0);
    free(text);
    free(again_text);
    release(&again);
    release(&run);
}

Test(resume, from_a_snapshot_is_the_whole_run) {
    uint64_t whole = uninterrupted_hash(RUN_STEPS);
    scene_run first = load_racing_model();
    run_steps(&first, 0, 250);
    size_t size = 0;
    cr_assert_eq(carom_world_save(first.world, CAROM_SNAPSHOT_FULL, NULL, 0, &size), CAROM_OK);
    unsigned char* bytes = malloc(size);
    cr_assert_eq(carom_world_save(first.world, CAROM_SNAPSHOT_FULL, bytes, size, &size), CAROM_OK);
    /* As `carom resume` does: the scene built again, the snapshot restored into it, the script
     * going on from the saved step. */
    scene_run second = load_racing_model();
    cr_assert_eq(carom_world_restore(second.world, bytes, size), CAROM_OK, "%s",
                 carom_last_error());
    run_steps(&second, 250, RUN_STEPS);
    cr_assert_eq(carom_world_hash(second.world), whole);
    free(bytes);
    release(&first);
    release(&second);
}

Test(controls, next_control_step_finds_the_next_entry_of_any_vehicle) {
    static const char text[] =
        "{\"world\": {\"gravity\": [0, 0]}, \"bodies\": ["
        "{\"name\": \"a\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [2, 1]}]},"
        "{\"name\": \"b\", \"position\": [0, 5], \"shapes\": [{\"type\": \"circle\", "
        "\"radius\": 1}]}],"
        "\"vehicles\": [{\"body\": \"a\", \"controls\": [{\"step\": 3, \"throttle\": 1}, "
        "{\"step\": 10, \"brake\": 1}]},"
        "{\"body\": \"b\", \"wheels\": [{\"position\": [0, 0], \"driven\": true}], "
        "\"input\": {\"throttle\": -0.5}, \"controls\": [{\"step\": 7, \"steer\": 1}]}]}";
    scene_run run = load_text(text, sizeof text - 1);
    cr_assert_eq(scene_next_control_step(&run.scene, 0), 3);
    cr_assert_eq(scene_next_control_step(&run.scene, 3), 3);
    cr_assert_eq(scene_next_control_step(&run.scene, 4), 7);
    cr_assert_eq(scene_next_control_step(&run.scene, 8), 10);
    cr_assert_eq(scene_next_control_step(&run.scene, 11), -1);
    /* The start input is in force at once; an entry takes over at its step and holds. */
    cr_assert_eq(carom_vehicle_get_input(run.scene.vehicle_ids[1]).throttle, -0.5);
    run_steps(&run, 0, 3);
    cr_assert_eq(carom_vehicle_get_input(run.scene.vehicle_ids[0]).throttle, 0.0);
    run_steps(&run, 3, 4);
    cr_assert_eq(carom_vehicle_get_input(run.scene.vehicle_ids[0]).throttle, 1.0);
    run_steps(&run, 4, 9);
    carom_vehicle_input held = carom_vehicle_get_input(run.scene.vehicle_ids[0]);
    cr_assert(held.throttle == 1.0 && held.brake == 0.0, "held until the next entry");
    carom_vehicle_input b = carom_vehicle_get_input(run.scene.vehicle_ids[1]);
    cr_assert(b.throttle == 0.0 && b.steer == 1.0, "an entry is the whole input, not a change");
    run_steps(&run, 9, 11);
    held = carom_vehicle_get_input(run.scene.vehicle_ids[0]);
    cr_assert(held.throttle == 0.0 && held.brake == 1.0);
    release(&run);
}

/* ---- Shape keys ------------------------------------------------------------------------------ */

Test(shape_keys, reach_the_engine) {
    static const char text[] =
        "{\"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"shapes\": ["
        "{\"type\": \"box\", \"half_extents\": [5, 5], \"sensor\": true, \"surface_grip\": 0.25},"
        "{\"type\": \"chain\", \"points\": [[0, 0], [1, 0], [2, 0]], \"one_sided\": true},"
        "{\"type\": \"chain\", \"points\": [[0, 1], [1, 1]]}]}]}";
    scene_run run = load_text(text, sizeof text - 1);
    carom_shape_id shapes[4];
    cr_assert_eq(carom_body_get_shapes(run.bodies[0], shapes, 4), 4);
    cr_assert_eq(carom_shape_get_surface_grip(shapes[0]), 0.25);
    carom_chain_segment segment;
    cr_assert_eq(carom_shape_get_chain_segment(shapes[1], &segment), CAROM_OK);
    cr_assert_eq(segment.one_sided, 1);
    cr_assert_eq(carom_shape_get_chain_segment(shapes[2], &segment), CAROM_OK);
    cr_assert_eq(segment.one_sided, 1);
    cr_assert_eq(carom_shape_get_chain_segment(shapes[3], &segment), CAROM_OK);
    cr_assert_eq(segment.one_sided, 0);
    release(&run);
}

/* A ball thrown at a chain from below and one from above: a one-sided chain from left to right
 * is solid on its right, the side below it, so the first bounces back and the second passes. */
Test(shape_keys, one_sided_chain_stops_from_one_side_only) {
    static const char text[] =
        "{\"world\": {\"gravity\": [0, 0]}, \"bodies\": ["
        "{\"name\": \"wall\", \"type\": \"static\", \"shapes\": [{\"type\": \"chain\", "
        "\"points\": [[-5, 0], [5, 0]], \"one_sided\": true}]},"
        "{\"name\": \"up\", \"position\": [-2, -2], \"linear_velocity\": [0, 5], "
        "\"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]},"
        "{\"name\": \"down\", \"position\": [2, 2], \"linear_velocity\": [0, -5], "
        "\"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]}]}";
    scene_run run = load_text(text, sizeof text - 1);
    run_steps(&run, 0, 120);
    cr_assert(carom_body_get_position(run.bodies[1]).y < -0.45, "from the solid side: stopped");
    cr_assert(carom_body_get_position(run.bodies[2]).y < -5.0, "from the open side: passed");
    release(&run);
}

/* A ball dropped on the ground from 3 m, each shape with the extra keys given. */
static scene_run load_drop(const char* ball_keys, const char* ground_keys) {
    char text[1024];
    snprintf(text, sizeof text,
             "{\"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"shapes\": [{\"type\": "
             "\"box\", \"half_extents\": [5, 0.5]%s}]},"
             "{\"name\": \"ball\", \"position\": [0, 3.5], \"shapes\": [{\"type\": \"circle\", "
             "\"radius\": 0.5%s}]}]}",
             ground_keys, ball_keys);
    return load_text(text, strlen(text));
}

/* The drop meets the ground at about 7.7 m/s: a hit with hit_events on either shape, above the
 * threshold; none without, or under a threshold higher than the speed. */
static int hits_of_drop(const char* ball_keys, const char* ground_keys) {
    scene_run run = load_drop(ball_keys, ground_keys);
    int hits = 0;
    for (int step = 0; step < 60; ++step) {
        run_steps(&run, step, step + 1);
        carom_contact_events events = carom_world_get_contact_events(run.world);
        for (int i = 0; i < events.hit_count; ++i) {
            cr_assert(events.hit_events[i].approach_speed > 7.0, "%g",
                      events.hit_events[i].approach_speed);
        }
        hits += events.hit_count;
    }
    release(&run);
    return hits;
}

/* The begin events of the same drop: its contact reports them unless both shapes say
 * "contact_events": false and neither has hit events. */
static int begins_of_drop(const char* ball_keys, const char* ground_keys) {
    scene_run run = load_drop(ball_keys, ground_keys);
    int begins = 0;
    for (int step = 0; step < 60; ++step) {
        run_steps(&run, step, step + 1);
        begins += carom_world_get_contact_events(run.world).begin_count;
    }
    release(&run);
    return begins;
}

Test(shape_keys, contact_events) {
    const char* off = ", \"contact_events\": false";
    cr_assert_eq(begins_of_drop("", ""), 1);
    cr_assert_eq(begins_of_drop(off, ""), 1, "the ground's shape asks");
    cr_assert_eq(begins_of_drop("", off), 1, "the ball's shape asks");
    cr_assert_eq(begins_of_drop(off, off), 0);
    /* every hit has its begin: a shape with hit events reports its contacts' touching too */
    cr_assert_eq(begins_of_drop(", \"contact_events\": false, \"hit_events\": true", off), 1);
}

Test(shape_keys, hit_events_and_their_threshold) {
    cr_assert_eq(hits_of_drop("", ""), 0);
    cr_assert_eq(hits_of_drop(", \"hit_events\": true, \"hit_speed_threshold\": 1", ""), 1);
    cr_assert_eq(hits_of_drop("", ", \"hit_events\": true, \"hit_speed_threshold\": 5"), 1);
    cr_assert_eq(hits_of_drop(", \"hit_events\": true, \"hit_speed_threshold\": 20", ""), 0);
}
