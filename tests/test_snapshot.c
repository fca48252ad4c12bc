/* Snapshots: a restored world is the saved world, bit for bit, and steps on exactly as the
 * original did; bad buffers are refused and change nothing.
 *
 * World equality is checked on the engine's own state (world_digest below: every field a step
 * reads, through the internal headers), not only on what the public getters show, so a restore
 * that forgot a contact impulse or a fat box fails here even before the bodies drift apart. */
#include "helpers.h"
#include "scenes.h"

#include "../engine/ds.h"
#include "../engine/world.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0 / 60.0)

/* ---- Digest of a world's state -------------------------------------------------------------- */

typedef struct digest {
    uint64_t hash;
} digest;

static void feed(digest* d, const void* data, size_t size) {
    const unsigned char* bytes = data;
    for (size_t i = 0; i < size; ++i) {
        d->hash = (d->hash ^ bytes[i]) * 1099511628211ull;
    }
}

static void feed_int(digest* d, long long value) { feed(d, &value, sizeof(value)); }
static void feed_double(digest* d, double value) { feed(d, &value, sizeof(value)); }
static void feed_vec2(digest* d, carom_vec2 v) {
    feed_double(d, v.x);
    feed_double(d, v.y);
}
static void feed_aabb(digest* d, carom_aabb box) {
    feed_vec2(d, box.lower);
    feed_vec2(d, box.upper);
}

static void feed_pool(digest* d, const carom_id_pool* pool) {
    feed_int(d, pool->next_id);
    for (int i = 0; i < (int)arrlen(pool->free_ids); ++i) {
        feed_int(d, pool->free_ids[i]);
    }
}

static void feed_body(digest* d, const carom_body* b) {
    feed_int(d, b->id);
    feed_int(d, b->generation);
    if (b->id < 0) {
        return;
    }
    feed_int(d, b->type);
    feed_vec2(d, b->transform.p);
    feed_double(d, b->transform.q.c);
    feed_double(d, b->transform.q.s);
    feed_vec2(d, b->center);
    feed_vec2(d, b->local_center);
    feed_vec2(d, b->linear_velocity);
    feed_double(d, b->angular_velocity);
    feed_vec2(d, b->force);
    feed_double(d, b->torque);
    double fields[] = {b->mass,          b->inv_mass,        b->inertia,    b->inv_inertia,
                       b->linear_damping, b->angular_damping, b->gravity_scale,
                       b->max_extent,    b->min_extent,      b->sleep_time};
    feed(d, fields, sizeof(fields));
    feed_int(d, b->bullet * 8 + b->massless * 4 + b->enable_sleep * 2 + b->asleep);
    feed_int(d, b->island);
    feed_int(d, b->first_shape);
    feed_int(d, b->shape_count);
    feed_int(d, b->contact_count);
}

static void feed_shape(digest* d, const carom_world* w, int i) {
    const carom_shape* s = &w->shapes[i];
    feed_int(d, s->id);
    feed_int(d, s->generation);
    if (s->id < 0) {
        return;
    }
    feed_int(d, s->body);
    feed_int(d, s->next_shape);
    feed_int(d, s->type);
    feed_vec2(d, s->circle.center);
    feed_double(d, s->circle.radius);
    feed_int(d, s->polygon.count);
    for (int k = 0; k < s->polygon.count; ++k) {
        feed_vec2(d, s->polygon.vertices[k]);
        feed_vec2(d, s->polygon.normals[k]);
    }
    feed_vec2(d, s->polygon.centroid);
    feed_vec2(d, s->segment.point1);
    feed_vec2(d, s->segment.point2);
    feed_vec2(d, s->chain.ghost1);
    feed_vec2(d, s->chain.ghost2);
    feed_int(d, s->chain.has_ghost1 * 4 + s->chain.has_ghost2 * 2 + s->chain.one_sided);
    double fields[] = {s->hit_speed_threshold, s->surface_grip, s->density, s->friction,
                       s->restitution, s->extent};
    feed(d, fields, sizeof(fields));
    feed_int(d, s->is_sensor * 2 + s->enable_hit_events);
    feed(d, &s->filter.category, sizeof(uint64_t));
    feed(d, &s->filter.mask, sizeof(uint64_t));
    feed_int(d, s->filter.group);
    feed_aabb(d, s->aabb);
    const carom_proxy* p = &w->broad_phase.proxies[i];
    feed_aabb(d, p->fat_aabb);
    feed_int(d, p->moved * 4 + p->alive * 2 + (p->body_type == CAROM_BODY_DYNAMIC));
    feed_int(d, p->body);
}

static void feed_contact(digest* d, const carom_world* w, const carom_contact* c) {
    feed_int(d, c->id);
    if (c->id < 0) {
        return;
    }
    feed_int(d, c->shape_a);
    feed_int(d, c->shape_b);
    feed_int(d, c->edges[0].body);
    feed_int(d, c->edges[1].body);
    feed_int(d, c->point_count * 4 + c->touching * 2 + c->is_sensor);
    feed_int(d, carom_hash_map_get(&w->pair_map, carom_contact_pair_key(c)));
    if (c->point_count == 0) {
        return;
    }
    feed_vec2(d, c->normal);
    feed_double(d, c->friction);
    feed_double(d, c->restitution);
    for (int i = 0; i < c->point_count; ++i) {
        const carom_contact_point* cp = &c->points[i];
        feed_vec2(d, cp->point);
        feed_vec2(d, cp->anchor_a);
        feed_vec2(d, cp->anchor_b);
        feed_double(d, cp->separation);
        feed_int(d, cp->id);
        feed_double(d, c->impulses[i].normal);
        feed_double(d, c->impulses[i].tangent);
    }
}

static void feed_vehicle(digest* d, const carom_vehicle* v) {
    feed_int(d, v->id);
    feed_int(d, v->generation);
    if (v->id < 0) {
        return;
    }
    feed_int(d, v->body);
    feed_double(d, v->input.throttle);
    feed_double(d, v->input.brake);
    feed_double(d, v->input.steer);
    feed_int(d, v->input.handbrake);
    feed_double(d, v->steer_lock);
    feed_double(d, v->steer_angle);
    for (int i = 0; i < v->def.wheel_count; ++i) {
        feed_vec2(d, v->wheel_directions[i]);
        feed_double(d, v->slip_angles[i]);
        feed_double(d, v->surface_grips[i]);
        feed_double(d, v->longitudinal_forces[i]);
        feed_double(d, v->lateral_forces[i]);
        feed_int(d, v->sliding[i]);
    }
}

/* Everything a step reads, and the ids the application holds. Not: the order of each body's
 * contact list, of grid cells and of the moved list (nothing depends on them), scratch. */
static uint64_t world_digest(carom_world_id id) {
    carom_world* w = carom_get_world_checked(id);
    cr_assert_not_null(w);
    digest d = {1469598103934665603ull};
    feed(&d, &w->def.gravity, sizeof(w->def.gravity));
    feed_int(&d, w->def.substeps);
    feed_int(&d, w->step_count);
    feed_int(&d, w->massless_dynamic_count);
    feed_double(&d, w->broad_phase.cell_size);
    feed_pool(&d, &w->body_pool);
    feed_pool(&d, &w->shape_pool);
    feed_pool(&d, &w->contact_pool);
    feed_pool(&d, &w->island_pool);
    feed_pool(&d, &w->vehicle_pool);
    for (int i = 0; i < (int)arrlen(w->bodies); ++i) {
        feed_body(&d, &w->bodies[i]);
    }
    for (int i = 0; i < (int)arrlen(w->shapes); ++i) {
        feed_shape(&d, w, i);
    }
    for (int i = 0; i < (int)arrlen(w->contacts); ++i) {
        feed_contact(&d, w, &w->contacts[i]);
    }
    feed_int(&d, w->pair_map.count); /* no pair the contacts do not have (a restore updates it) */
    feed_int(&d, (long long)arrlen(w->islands));
    for (int i = 0; i < (int)arrlen(w->islands); ++i) {
        feed_int(&d, w->islands[i].id);
        for (int j = 0; w->islands[i].id >= 0 && j < (int)arrlen(w->islands[i].bodies); ++j) {
            feed_int(&d, w->islands[i].bodies[j]);
        }
    }
    for (int i = 0; i < (int)arrlen(w->vehicles); ++i) {
        feed_vehicle(&d, &w->vehicles[i]);
    }
    return d.hash;
}

/* ---- Helpers ----------------------------------------------------------------------------- */

typedef struct buffer {
    unsigned char* data;
    size_t size;
} buffer;

static buffer save(carom_world_id world, carom_snapshot_parts parts) {
    buffer b = {NULL, 0};
    cr_assert_eq(carom_world_save(world, parts, NULL, 0, &b.size), CAROM_OK, "%s",
                 carom_last_error());
    b.data = malloc(b.size);
    size_t written = 0;
    cr_assert_eq(carom_world_save(world, parts, b.data, b.size, &written), CAROM_OK, "%s",
                 carom_last_error());
    cr_assert_eq(written, b.size);
    return b;
}

static void step(carom_world_id world, int n) { test_step(world, DT, n); }

static void restore_ok(carom_world_id world, buffer b) {
    carom_status status = carom_world_restore(world, b.data, b.size);
    cr_assert_eq(status, CAROM_OK, "restore failed: %s", carom_last_error());
}

/* A scene with something of everything: a ground, a chain, a slope segment, a kinematic
 * paddle, a sensor, a bullet, polygons, circles, a multi-shape body with an offset center of
 * mass, and a box pile that falls asleep. Same calls, same world. */
static carom_world_id make_mixed_world(void) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.1);
    carom_body_def def = carom_default_body_def();
    carom_body_id walls = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_vec2 chain[4] = {{-30.0, 10.0}, {-30.0, 0.5}, {-20.0, 0.5}, {-20.0, 10.0}};
    cr_assert_eq(carom_create_chain(walls, &shape, chain, 4, 0, NULL), CAROM_OK);
    carom_segment slope = {{10.0, 6.0}, {20.0, 1.0}};
    cr_assert(!CAROM_IS_NULL(carom_create_segment_shape(walls, &shape, &slope)));
    carom_shape_def sensor = carom_default_shape_def();
    sensor.is_sensor = 1;
    cr_assert(!CAROM_IS_NULL(
        carom_create_box_shape(walls, &sensor, 2.0, 2.0, carom_v2(-5.0, 2.0), 0.0)));

    for (int row = 0; row < 5; ++row) {
        for (int i = 0; i < 5 - row; ++i) {
            test_make_box(world, carom_v2(-4.0 + i * 1.05 + row * 0.525, 0.5 + row * 1.0), 0.5,
                          0.5, 0.0, 0.6, 0.0);
        }
    }
    for (int i = 0; i < 6; ++i) {
        test_make_ball(world, carom_v2(-27.0 + i * 1.1, 3.0 + i), 0.4, carom_v2(1.0, 0.0), 0.3,
                       0.5);
    }
    test_make_box(world, carom_v2(15.0, 8.0), 0.4, 0.3, 0.3, 0.5, 0.2);

    def.type = CAROM_BODY_KINEMATIC;
    def.position = carom_v2(6.0, 1.0);
    def.angular_velocity = 1.0;
    carom_body_id paddle = carom_create_body(world, &def);
    cr_assert(!CAROM_IS_NULL(carom_create_box_shape(paddle, &shape, 1.5, 0.1,
                                                    carom_v2(0.0, 0.0), 0.0)));

    def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(4.0, 6.0);
    def.angle = 0.7;
    carom_body_id hammer = carom_create_body(world, &def);
    carom_vec2 head[5] = {{0.5, 0.0}, {1.2, -0.3}, {1.4, 0.3}, {1.0, 0.6}, {0.6, 0.4}};
    carom_polygon polygon;
    cr_assert_eq(carom_make_polygon(head, 5, &polygon), CAROM_OK);
    cr_assert(!CAROM_IS_NULL(carom_create_polygon_shape(hammer, &shape, &polygon)));
    carom_circle knob = {{-0.8, 0.1}, 0.25};
    cr_assert(!CAROM_IS_NULL(carom_create_circle_shape(hammer, &shape, &knob)));

    def.position = carom_v2(-8.0, 1.0);
    def.angle = 0.0;
    def.linear_velocity = carom_v2(250.0, 0.0);
    def.bullet = 1;
    carom_body_id bullet = carom_create_body(world, &def);
    carom_circle pellet = {{0.0, 0.0}, 0.05};
    cr_assert(!CAROM_IS_NULL(carom_create_circle_shape(bullet, &shape, &pellet)));
    return world;
}

/* A script of calls made at given steps, the same in every run it is replayed in. */
static void script(carom_world_id world, int step_index) {
    carom_world* w = carom_get_world_checked(world);
    if (step_index % 37 == 5 && arrlen(w->bodies) > 20 && w->bodies[20].id >= 0) {
        carom_body_id ball = carom_make_body_id(w, &w->bodies[20]);
        carom_body_apply_linear_impulse(ball, carom_v2(0.3, 2.0), carom_body_get_position(ball));
    }
}

static void step_scripted(carom_world_id world, int from, int count) {
    for (int i = 0; i < count; ++i) {
        script(world, from + i);
        step(world, 1);
    }
}

/* ---- Round trips -------------------------------------------------------------------------- */

Test(snapshot, a_new_world_from_a_snapshot_is_the_saved_world_and_steps_identically) {
    carom_world_id original = make_mixed_world();
    step_scripted(original, 0, 150);
    buffer full = save(original, CAROM_SNAPSHOT_FULL);
    carom_world_id copy = carom_create_world_from_snapshot(full.data, full.size);
    cr_assert(carom_world_is_valid(copy), "%s", carom_last_error());
    cr_assert_eq(world_digest(copy), world_digest(original));
    /* saving the copy gives the same bytes: nothing was lost or rounded */
    buffer again = save(copy, CAROM_SNAPSHOT_FULL);
    cr_assert_eq(again.size, full.size);
    cr_assert(memcmp(again.data, full.data, full.size) == 0);
    int checkpoints[] = {1, 17, 300};
    int done = 0;
    for (int i = 0; i < 3; ++i) {
        step_scripted(original, 150 + done, checkpoints[i] - done);
        step_scripted(copy, 150 + done, checkpoints[i] - done);
        done = checkpoints[i];
        cr_assert_eq(world_digest(copy), world_digest(original), "differ after %d steps", done);
    }
    carom_world_counters counters = carom_world_get_counters(original);
    cr_assert_gt(counters.touching_count, 10, "the scene must have resting contacts");
    free(full.data);
    free(again.data);
    carom_destroy_world(original);
    carom_destroy_world(copy);
}

Test(snapshot, rollback_into_the_same_world_repeats_the_same_steps) {
    carom_world_id world = make_mixed_world();
    step_scripted(world, 0, 60);
    buffer state = save(world, CAROM_SNAPSHOT_STATE);
    uint64_t at_save = world_digest(world);
    step_scripted(world, 60, 40);
    uint64_t first_time = world_digest(world);
    restore_ok(world, state);
    cr_assert_eq(world_digest(world), at_save);
    step_scripted(world, 60, 40);
    cr_assert_eq(world_digest(world), first_time);
    free(state.data);
    carom_destroy_world(world);
}

Test(snapshot, sleeping_islands_are_restored_and_wake_the_same_way) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    for (int row = 0; row < 6; ++row) {
        for (int i = 0; i < 6 - row; ++i) {
            test_make_box(world, carom_v2(i * 1.05 + row * 0.525, 0.5 + row), 0.5, 0.5, 0.0, 0.6,
                          0.0);
        }
    }
    /* a second pile far away, so two islands sleep */
    for (int i = 0; i < 3; ++i) {
        test_make_box(world, carom_v2(40.0, 0.5 + i), 0.5, 0.5, 0.0, 0.6, 0.0);
    }
    step(world, 240);
    carom_world_counters counters = carom_world_get_counters(world);
    cr_assert_geq(counters.sleeping_island_count, 2, "both piles must be asleep");
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    carom_world_id copy = carom_create_world_from_snapshot(full.data, full.size);
    cr_assert(carom_world_is_valid(copy), "%s", carom_last_error());
    cr_assert_eq(world_digest(copy), world_digest(world));
    /* the same ball dropped on the first pile in both worlds wakes it the same way */
    carom_world_id worlds[2] = {world, copy};
    for (int k = 0; k < 2; ++k) {
        test_make_ball(worlds[k], carom_v2(2.0, 12.0), 0.5, carom_v2(0.0, -5.0), 0.6, 0.0);
    }
    step(world, 17);
    step(copy, 17);
    cr_assert_eq(world_digest(copy), world_digest(world));
    cr_assert_lt(carom_world_get_counters(world).sleeping_island_count,
                 counters.sleeping_island_count + 1);
    step(world, 300);
    step(copy, 300);
    cr_assert_eq(world_digest(copy), world_digest(world));
    free(full.data);
    carom_destroy_world(world);
    carom_destroy_world(copy);
}

Test(snapshot, bodies_destroyed_and_created_since_the_save_are_undone) {
    carom_world_id world = make_mixed_world();
    step_scripted(world, 0, 90);
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    uint64_t at_save = world_digest(world);
    carom_world* w = carom_get_world_checked(world);
    carom_body_id doomed = carom_make_body_id(w, &w->bodies[5]);
    carom_body_id doomed_ball = carom_make_body_id(w, &w->bodies[18]);
    cr_assert_eq(carom_destroy_body(doomed), CAROM_OK);
    cr_assert_eq(carom_destroy_body(doomed_ball), CAROM_OK);
    carom_body_id newcomer =
        test_make_ball(world, carom_v2(0.0, 9.0), 0.7, carom_v2(0.0, 0.0), 0.6, 0.0);
    step(world, 20);
    /* a state alone no longer fits the world's scene */
    buffer state_only = {full.data, full.size};
    carom_snapshot_info info;
    cr_assert_eq(carom_snapshot_get_info(full.data, full.size, &info), CAROM_OK);
    state_only.data = full.data + info.scene_size;
    state_only.size = info.state_size;
    uint64_t before = world_digest(world);
    cr_assert_eq(carom_world_restore(world, state_only.data, state_only.size),
                 CAROM_ERROR_SCENE_MISMATCH);
    cr_assert_eq(world_digest(world), before, "a refused restore must change nothing");
    /* with its scene it restores, and the old ids are valid again */
    restore_ok(world, full);
    cr_assert_eq(world_digest(world), at_save);
    cr_assert(carom_body_is_valid(doomed));
    cr_assert(carom_body_is_valid(doomed_ball));
    cr_assert(!carom_body_is_valid(newcomer));
    /* and it steps on as a world that never saw the detour */
    carom_world_id reference = make_mixed_world();
    step_scripted(reference, 0, 90);
    step_scripted(reference, 90, 300);
    step_scripted(world, 90, 300);
    cr_assert_eq(world_digest(world), world_digest(reference));
    free(full.data);
    carom_destroy_world(world);
    carom_destroy_world(reference);
}

Test(snapshot, a_state_saved_before_the_first_step_restores) {
    carom_world_id world = make_mixed_world();
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    carom_world_id copy = carom_create_world_from_snapshot(full.data, full.size);
    cr_assert(carom_world_is_valid(copy), "%s", carom_last_error());
    cr_assert_eq(world_digest(copy), world_digest(world));
    step(world, 50);
    step(copy, 50);
    cr_assert_eq(world_digest(copy), world_digest(world));
    free(full.data);
    carom_destroy_world(world);
    carom_destroy_world(copy);
}

Test(snapshot, a_vehicle_keeps_its_input_and_drives_on_identically) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    carom_body_id car = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = 200.0;
    cr_assert(!CAROM_IS_NULL(
        carom_create_box_shape(car, &shape, 2.2, 0.9, carom_v2(0.0, 0.0), 0.0)));
    carom_vehicle_def vdef = carom_default_vehicle_def();
    carom_vehicle_id vehicle = carom_create_vehicle(car, &vdef);
    cr_assert(!CAROM_IS_NULL(vehicle));
    cr_assert_eq(carom_vehicle_set_input(vehicle, 0.8, 0.0, 0.5, 0), CAROM_OK);
    step(world, 120);
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    carom_world_id copy = carom_create_world_from_snapshot(full.data, full.size);
    cr_assert(carom_world_is_valid(copy), "%s", carom_last_error());
    cr_assert_eq(world_digest(copy), world_digest(world));
    step(world, 120);
    step(copy, 120);
    cr_assert_eq(world_digest(copy), world_digest(world));
    cr_assert_gt(carom_length(carom_body_get_linear_velocity(car)), 5.0, "the car must drive");
    free(full.data);
    carom_destroy_world(world);
    carom_destroy_world(copy);
}

/* A rollback leaves what did not move since the save as it is (a sleeping body's pose, origin
 * and boxes are right already) and restores what did. A pile asleep throughout, the same pile
 * after the application woke one box and moved another, and a ball sliding on all along must
 * each come back exactly, and step on as they did after the save. */
Test(snapshot, a_rollback_keeps_unmoved_bodies_and_restores_moved_ones) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id pile[3];
    for (int i = 0; i < 3; ++i) {
        pile[i] = test_make_box(world, carom_v2(0.0, 0.5 + i), 0.5, 0.5, 0.0, 0.6, 0.0);
    }
    carom_body_id ball = test_make_ball(world, carom_v2(-40.0, 0.5), 0.5, carom_v2(0.0, 0.0),
                                        0.0, 0.0);
    step(world, 240);
    cr_assert(!carom_body_is_awake(pile[0]), "the pile must be asleep");
    cr_assert_eq(carom_body_set_linear_velocity(ball, carom_v2(-3.0, 0.0)), CAROM_OK);
    step(world, 1);
    buffer state = save(world, CAROM_SNAPSHOT_STATE);
    uint64_t at_save = world_digest(world);
    step(world, 30);
    uint64_t after = world_digest(world);
    cr_assert(!carom_body_is_awake(pile[0]) && carom_body_is_awake(ball));

    /* the pile kept its pose, the ball did not */
    restore_ok(world, state);
    cr_assert_eq(world_digest(world), at_save);
    step(world, 30);
    cr_assert_eq(world_digest(world), after);

    /* a box woken in place (same pose, new velocity), restored at once */
    cr_assert_eq(carom_body_set_linear_velocity(pile[2], carom_v2(0.5, 0.0)), CAROM_OK);
    restore_ok(world, state);
    cr_assert_eq(world_digest(world), at_save);

    /* a box moved elsewhere, the pile woken and stepped */
    cr_assert_eq(carom_body_set_transform(pile[2], carom_v2(5.0, 0.5), 0.3), CAROM_OK);
    step(world, 30);
    restore_ok(world, state);
    cr_assert_eq(world_digest(world), at_save);
    step(world, 30);
    cr_assert_eq(world_digest(world), after);
    free(state.data);
    carom_destroy_world(world);
}

/* The rollback: inputs every step (impulses on some bodies); from step 510 on, every
 * 10 steps the world goes back to its step-500 state and re-simulates up to where it was. The
 * end must be the straight run's, bit for bit. */
static void rollback_input(carom_world_id world, int step_index) {
    carom_world* w = carom_get_world_checked(world);
    for (int i = 0; i < (int)arrlen(w->bodies); ++i) {
        if (w->bodies[i].id < 0 || w->bodies[i].type != CAROM_BODY_DYNAMIC ||
            (i + step_index) % 7 != 0) {
            continue;
        }
        carom_body_id body = carom_make_body_id(w, &w->bodies[i]);
        double sign = (step_index / 7) % 2 == 0 ? 1.0 : -1.0;
        carom_body_apply_linear_impulse(body, carom_v2(0.02 * sign, 0.05),
                                        carom_body_get_world_center(body));
    }
}

Test(snapshot, rollback_to_step_500_every_10_steps_ends_as_the_straight_run) {
    carom_world_id straight = make_mixed_world();
    for (int i = 0; i < 600; ++i) {
        rollback_input(straight, i);
        step(straight, 1);
    }
    carom_world_id rolled = make_mixed_world();
    buffer at_500 = {NULL, 0};
    for (int i = 0; i < 600; ++i) {
        if (i == 500) {
            at_500 = save(rolled, CAROM_SNAPSHOT_STATE);
        }
        if (i > 500 && i % 10 == 0) {
            restore_ok(rolled, at_500);
            for (int k = 500; k < i; ++k) {
                rollback_input(rolled, k);
                step(rolled, 1);
            }
        }
        rollback_input(rolled, i);
        step(rolled, 1);
    }
    cr_assert_eq(carom_world_get_counters(rolled).step_count, 600);
    cr_assert_eq(world_digest(rolled), world_digest(straight));
    free(at_500.data);
    carom_destroy_world(straight);
    carom_destroy_world(rolled);
}

/* ---- Size --------------------------------------------------------------------------------- */

/* Bytes of a state part beyond its fixed header and world fields, per body, for bodies without
 * contacts: moving ones (velocity, no rest timer) and sleeping ones. */
Test(snapshot, a_body_costs_at_most_64_bytes_of_state) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    buffer empty = save(world, CAROM_SNAPSHOT_STATE);
    const int count = 200;
    for (int i = 0; i < count; ++i) {
        test_make_box(world, carom_v2(i * 5.0, (i % 10) * 5.0), 0.5, 1.0, 0.1 * i, 0.3, 0.5);
    }
    carom_world* w = carom_get_world_checked(world);
    for (int i = 0; i < count; ++i) {
        carom_body_id body = carom_make_body_id(w, &w->bodies[i]);
        carom_body_set_linear_velocity(body, carom_v2(3.0 + 0.01 * i, -2.0));
        carom_body_set_angular_velocity(body, 0.5);
    }
    step(world, 30);
    cr_assert_eq(carom_world_get_counters(world).contact_count, 0);
    buffer moving = save(world, CAROM_SNAPSHOT_STATE);
    double per_moving = (double)(moving.size - empty.size) / count;
    cr_log_info("moving body: %.2f bytes", per_moving);
    cr_assert_leq(per_moving, 64.0);
    /* stopped and left to rest: they fall asleep (each alone), and cost less */
    for (int i = 0; i < count; ++i) {
        carom_body_id body = carom_make_body_id(w, &w->bodies[i]);
        carom_body_set_linear_velocity(body, carom_v2(0.0, 0.0));
        carom_body_set_angular_velocity(body, 0.0);
    }
    step(world, 60);
    cr_assert_eq(carom_world_get_counters(world).awake_body_count, 0);
    buffer asleep = save(world, CAROM_SNAPSHOT_STATE);
    double per_sleeping = (double)(asleep.size - empty.size) / count;
    cr_log_info("sleeping body: %.2f bytes", per_sleeping);
    cr_assert_leq(per_sleeping, 40.0);
    free(empty.data);
    free(moving.data);
    free(asleep.data);
    carom_destroy_world(world);
}

/* ---- Refusals ----------------------------------------------------------------------------- */

static void put_le64(unsigned char* p, uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        p[i] = (unsigned char)(value >> (8 * i));
    }
}

/* Make a corrupted buffer's checksums right again, so the corruption reaches the decoder. */
static void fix_checksums(unsigned char* data, size_t size) {
    size_t at = 0;
    uint64_t scene = 0;
    while (at + 32 <= size) {
        uint64_t payload = 0;
        for (int i = 0; i < 8; ++i) {
            payload |= (uint64_t)data[at + 8 + i] << (8 * i);
        }
        if (payload > size - at - 32) {
            return;
        }
        uint64_t checksum = carom_snapshot_checksum(data + at + 32, payload);
        put_le64(data + at + 16, checksum);
        if (memcmp(data + at, "CRMS", 4) == 0) {
            put_le64(data + at + 24, checksum);
            scene = checksum;
        } else if (scene != 0) {
            put_le64(data + at + 24, scene);
        }
        at += 32 + payload;
    }
}

/* After any refused call the world must be exactly as before; after an accepted one it must be
 * free of NaN and keep stepping. */
static void check_untouched_or_sane(carom_world_id world, carom_status status, uint64_t before) {
    if (status != CAROM_OK) {
        cr_assert_eq(world_digest(world), before, "a refused restore changed the world");
        cr_assert_neq(carom_last_error()[0], '\0');
        return;
    }
    for (int i = 0; i < 2; ++i) {
        /* a hostile scene may hold a massless dynamic body: the world then refuses to step,
         * as it would have had it been built that way */
        carom_status stepped = carom_world_step(world, DT);
        cr_assert(stepped == CAROM_OK || stepped == CAROM_ERROR_NO_MASS, "%s",
                  carom_last_error());
    }
    carom_world* w = carom_get_world_checked(world);
    for (int i = 0; i < (int)arrlen(w->bodies); ++i) {
        const carom_body* b = &w->bodies[i];
        if (b->id >= 0) {
            cr_assert(isfinite(b->center.x) && isfinite(b->center.y),
                      "body %d: center %g %g mass %g inertia %g v %g %g w %g", i, b->center.x,
                      b->center.y, b->mass, b->inertia, b->linear_velocity.x,
                      b->linear_velocity.y, b->angular_velocity);
        }
    }
}

Test(snapshot, every_truncation_and_every_damaged_byte_is_refused) {
    carom_world_id world = make_mixed_world();
    step(world, 40);
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    carom_world_id target = make_mixed_world();
    uint64_t before = world_digest(target);
    for (size_t size = 0; size < full.size; ++size) {
        carom_status status = carom_world_restore(target, full.data, size);
        cr_assert_neq(status, CAROM_OK, "a %zu-byte prefix was accepted", size);
        cr_assert_eq(world_digest(target), before);
    }
    unsigned char* damaged = malloc(full.size);
    for (size_t i = 0; i < full.size; i += 3) {
        memcpy(damaged, full.data, full.size);
        damaged[i] ^= (unsigned char)(1u << (i % 8));
        carom_status status = carom_world_restore(target, damaged, full.size);
        cr_assert_neq(status, CAROM_OK, "a flipped bit at byte %zu was accepted", i);
        cr_assert_eq(world_digest(target), before);
    }
    free(damaged);
    free(full.data);
    carom_destroy_world(world);
    carom_destroy_world(target);
}

Test(snapshot, hostile_bytes_with_valid_checksums_never_crash_or_poison_the_world) {
    carom_world_id world = make_mixed_world();
    step(world, 40);
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    carom_world_id target = make_mixed_world();
    unsigned char* hostile = malloc(full.size);
    uint64_t random = 0x9e3779b97f4a7c15ull;
    int accepted = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        memcpy(hostile, full.data, full.size);
        for (int k = 0; k < 1 + trial % 4; ++k) {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            size_t at = 32 + (size_t)(random % (full.size - 32));
            unsigned char values[] = {0x00, 0xff, 0x7f, 0x80, 0x01, (unsigned char)(random >> 40)};
            hostile[at] = values[(random >> 20) % 6];
        }
        fix_checksums(hostile, full.size);
        uint64_t before = world_digest(target);
        carom_status status = carom_world_restore(target, hostile, full.size);
        accepted += status == CAROM_OK;
        check_untouched_or_sane(target, status, before);
        if (status == CAROM_OK) {
            restore_ok(target, full);
        }
    }
    cr_log_info("%d of 3000 hostile buffers were valid snapshots", accepted);
    free(hostile);
    free(full.data);
    carom_destroy_world(world);
    carom_destroy_world(target);
}

/* Restores between states whose contacts differ: bouncing balls make and break contacts, and
 * freed contact ids go to other pairs. Each restore must leave the pair map exactly the
 * restored contacts' (world_digest counts it), however far the contacts it replaces were from
 * them, and the world must step on as it did from that state. (The balls stay clear of the
 * axes: a fat box side of exactly zero comes back as 0.0 where the world may have had -0.0,
 * which nothing tells apart but a digest of the raw bits.) */
Test(snapshot, restores_between_states_with_other_contacts_keep_the_pair_map_exact) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 20.0, 0.3, 0.9);
    for (int i = 0; i < 24; ++i) {
        carom_vec2 velocity = carom_v2((i % 5) - 2.0, (i % 3) * 2.0);
        test_make_ball(world, carom_v2(40.0 + (i % 8) * 1.5, 21.0 + (i / 8) * 1.5), 0.5,
                       velocity, 0.3, 0.9);
    }
    enum { STATES = 4 };
    buffer states[STATES];
    uint64_t at_save[STATES], ten_later[STATES];
    for (int k = 0; k < STATES; ++k) {
        step(world, 40);
        states[k] = save(world, CAROM_SNAPSHOT_STATE);
        at_save[k] = world_digest(world);
    }
    for (int k = 0; k < STATES; ++k) {
        restore_ok(world, states[k]);
        step(world, 10);
        ten_later[k] = world_digest(world);
    }
    const int order[] = {3, 0, 2, 1, 3, 1, 0, 2, 0, 3};
    for (int i = 0; i < (int)(sizeof(order) / sizeof(order[0])); ++i) {
        int k = order[i];
        restore_ok(world, states[k]);
        cr_assert_eq(world_digest(world), at_save[k], "restore %d (state %d)", i, k);
        if (i % 2 == 1) {
            step(world, 10);
            cr_assert_eq(world_digest(world), ten_later[k], "after restore %d (state %d)", i, k);
        }
    }
    for (int k = 0; k < STATES; ++k) {
        free(states[k].data);
    }
    carom_destroy_world(world);
}

/* A state refused in its contacts has left the decoding scratch half written (contacts and their
 * pair map, which restores bring up to date rather than build again); the next restore must be
 * exact all the same, and the world must step on as it did after the save. */
Test(snapshot, a_restore_after_one_refused_in_its_contacts_is_exact) {
    carom_world_id world = make_mixed_world();
    step_scripted(world, 0, 60);
    buffer state = save(world, CAROM_SNAPSHOT_STATE);
    uint64_t at_save = world_digest(world);
    step_scripted(world, 60, 40);
    uint64_t later = world_digest(world);
    restore_ok(world, state);
    step_scripted(world, 60, 20); /* other contacts than at the save, in the scratch too */
    unsigned char* damaged = malloc(state.size);
    int refused_in_contacts = 0;
    for (size_t back = 8; back < state.size / 4 && refused_in_contacts < 3; back += 7) {
        memcpy(damaged, state.data, state.size);
        damaged[state.size - back] = 0xff; /* a late contact's byte, mostly */
        fix_checksums(damaged, state.size);
        uint64_t before = world_digest(world);
        carom_status status = carom_world_restore(world, damaged, state.size);
        if (status == CAROM_OK) {
            step_scripted(world, 60, 20);
            continue;
        }
        cr_assert_eq(world_digest(world), before, "a refused restore changed the world");
        if (strstr(carom_last_error(), "contact") == NULL) {
            continue;
        }
        refused_in_contacts += 1;
        restore_ok(world, state);
        cr_assert_eq(world_digest(world), at_save);
        step_scripted(world, 60, 40);
        cr_assert_eq(world_digest(world), later);
    }
    cr_assert_geq(refused_in_contacts, 1, "no damaged byte reached the contacts");
    free(damaged);
    free(state.data);
    carom_destroy_world(world);
}

Test(snapshot, wrong_version_small_buffers_and_bad_arguments_have_their_own_errors) {
    carom_world_id world = make_mixed_world();
    step(world, 10);
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    size_t size = 0;
    unsigned char small[16];
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, small, sizeof(small), &size),
                 CAROM_ERROR_BUFFER_TOO_SMALL);
    cr_assert_eq(size, full.size, "the error reports the size needed");
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, NULL),
                 CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(carom_world_save(world, (carom_snapshot_parts)7, NULL, 0, &size),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_world_restore(world, NULL, 10), CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(carom_world_save(carom_null_world_id, CAROM_SNAPSHOT_FULL, NULL, 0, &size),
                 CAROM_ERROR_INVALID_ID);

    unsigned char* copy = malloc(full.size + 1);
    memcpy(copy, full.data, full.size);
    copy[4] = 1; /* version 1: the format before contact recycling */
    cr_assert_eq(carom_world_restore(world, copy, full.size), CAROM_ERROR_SNAPSHOT_VERSION);
    cr_assert(strstr(carom_last_error(), "version 1") != NULL, "%s", carom_last_error());
    memcpy(copy, full.data, full.size);
    copy[full.size] = 0;
    cr_assert_eq(carom_world_restore(world, copy, full.size + 1), CAROM_ERROR_INVALID_SNAPSHOT);
    cr_assert(strstr(carom_last_error(), "follow") != NULL, "%s", carom_last_error());
    memcpy(copy, full.data, full.size);
    copy[0] = 'X';
    cr_assert_eq(carom_world_restore(world, copy, full.size), CAROM_ERROR_INVALID_SNAPSHOT);
    cr_assert(strstr(carom_last_error(), "magic") != NULL, "%s", carom_last_error());

    carom_snapshot_info info;
    cr_assert_eq(carom_snapshot_get_info(full.data, full.size, &info), CAROM_OK);
    cr_assert_eq(info.step_count, 10);
    cr_assert_eq(info.body_count, carom_world_get_counters(world).body_count);
    cr_assert_eq(info.contact_count, carom_world_get_counters(world).contact_count);
    cr_assert_eq(info.scene_size + info.state_size, full.size);
    /* a scene part alone is described, but cannot be restored */
    cr_assert_eq(carom_snapshot_get_info(full.data, info.scene_size, &info), CAROM_OK);
    cr_assert_eq(carom_world_restore(world, full.data, info.scene_size),
                 CAROM_ERROR_INVALID_SNAPSHOT);
    cr_assert(!carom_world_is_valid(carom_create_world_from_snapshot(full.data, info.scene_size)));
    free(copy);
    free(full.data);
    carom_destroy_world(world);
}

Test(snapshot, restoring_during_a_step_is_refused) {
    /* world locking is tested for every mutator in test_world.c; here only that restore and
     * save are among them, through the world's flag */
    carom_world_id world = make_mixed_world();
    buffer full = save(world, CAROM_SNAPSHOT_FULL);
    carom_world* w = carom_get_world_checked(world);
    w->locked = true;
    size_t size = 0;
    cr_assert_eq(carom_world_restore(world, full.data, full.size), CAROM_ERROR_WORLD_LOCKED);
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size),
                 CAROM_ERROR_WORLD_LOCKED);
    w->locked = false;
    free(full.data);
    carom_destroy_world(world);
}

/* Restoring state every tick must not allocate once warm (rollback runs it every frame). */
static int allocation_count;
static void* counting_realloc(void* user, void* ptr, size_t size) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    allocation_count += 1;
    return realloc(ptr, size);
}

Test(snapshot, warm_rollback_allocates_nothing) {
    carom_world_id world = make_mixed_world();
    step(world, 60);
    buffer state = save(world, CAROM_SNAPSHOT_STATE);
    unsigned char* out = malloc(state.size * 2);
    for (int i = 0; i < 3; ++i) {
        step(world, 5);
        restore_ok(world, state);
    }
    carom_set_allocator(counting_realloc, NULL);
    allocation_count = 0;
    for (int i = 0; i < 20; ++i) {
        size_t size = 0;
        cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_STATE, out, state.size * 2, &size),
                     CAROM_OK);
        restore_ok(world, state);
    }
    int counted = allocation_count;
    carom_set_allocator(NULL, NULL);
    cr_assert_eq(counted, 0, "%d allocations in 20 warm save/restore pairs", counted);
    free(out);
    free(state.data);
    carom_destroy_world(world);
}
