/* Tests for engine/narrow_phase.c: contact lifetimes, shape order and normals inside a contact,
 * warm-start bookkeeping by feature id, material mixing, and the bodies' contact lists.
 *
 * Several tests run the first two stages of a step by hand (carom_broad_phase_update_pairs, then
 * carom_narrow_phase_collide) on an unlocked world, so the manifold is computed from the poses
 * as built, with no solver motion in between. */
#include "helpers.h"

#include "ds.h"
#include "world.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

/* ---- Helpers ------------------------------------------------------------------------------------ */

static carom_world* world_of(carom_world_id id) {
    carom_world* w = carom_get_world_checked(id);
    cr_assert_not_null(w);
    return w;
}

/* The broad and narrow phases of a step, without the solver. */
static void collide_now(carom_world_id id) {
    carom_world* w = world_of(id);
    cr_assert_not(w->locked);
    int new_pairs = 0;
    cr_assert(carom_broad_phase_update_pairs(w, &new_pairs));
    carom_narrow_phase_collide(w, 1.0 / 60.0);
}

static int shape_index(carom_shape_id shape) { return shape.index1 - 1; }

/* The live contact between two shapes (either order), or NULL. */
static const carom_contact* find_contact(const carom_world* w, carom_shape_id a,
                                         carom_shape_id b) {
    uint64_t key = carom_pair_key(shape_index(a), shape_index(b));
    for (int i = 0; i < (int)arrlen(w->contacts); ++i) {
        if (w->contacts[i].id >= 0 && carom_contact_pair_key(&w->contacts[i]) == key) {
            return &w->contacts[i];
        }
    }
    return NULL;
}

static carom_body_id make_body(carom_world_id world, carom_body_type type, carom_vec2 p,
                               double angle, carom_vec2 v) {
    carom_body_def def = carom_default_body_def();
    def.type = type;
    def.position = p;
    def.angle = angle;
    if (type != CAROM_BODY_STATIC) {
        def.linear_velocity = v;
    }
    carom_body_id body = carom_create_body(world, &def);
    cr_assert(carom_body_is_valid(body), "body creation failed: %s", carom_last_error());
    return body;
}

static carom_shape_id add_box(carom_body_id body, double hx, double hy, double friction,
                              double restitution) {
    carom_shape_def def = carom_default_shape_def();
    def.friction = friction;
    def.restitution = restitution;
    carom_shape_id shape = carom_create_box_shape(body, &def, hx, hy, carom_v2(0.0, 0.0), 0.0);
    cr_assert(carom_shape_is_valid(shape), "box failed: %s", carom_last_error());
    return shape;
}

static carom_shape_id add_circle(carom_body_id body, double radius, double friction,
                                 double restitution) {
    carom_shape_def def = carom_default_shape_def();
    def.friction = friction;
    def.restitution = restitution;
    carom_circle circle = {{0.0, 0.0}, radius};
    carom_shape_id shape = carom_create_circle_shape(body, &def, &circle);
    cr_assert(carom_shape_is_valid(shape), "circle failed: %s", carom_last_error());
    return shape;
}

static carom_shape_id add_pentagon(carom_body_id body) {
    carom_vec2 points[5];
    for (int i = 0; i < 5; ++i) {
        carom_rot q = carom_make_rot(2.0 * CAROM_PI * i / 5.0 + 0.1);
        points[i] = carom_v2(0.6 * q.c, 0.45 * q.s);
    }
    carom_polygon polygon;
    cr_assert_eq(carom_make_polygon(points, 5, &polygon), CAROM_OK);
    carom_shape_def def = carom_default_shape_def();
    carom_shape_id shape = carom_create_polygon_shape(body, &def, &polygon);
    cr_assert(carom_shape_is_valid(shape), "polygon failed: %s", carom_last_error());
    return shape;
}

static carom_shape_id add_segment(carom_body_id body, carom_vec2 p1, carom_vec2 p2) {
    carom_shape_def def = carom_default_shape_def();
    carom_segment segment = {p1, p2};
    carom_shape_id shape = carom_create_segment_shape(body, &def, &segment);
    cr_assert(carom_shape_is_valid(shape), "segment failed: %s", carom_last_error());
    return shape;
}

/* ---- Warm starting ----------------------------------------------------------------------------- */

typedef struct resting_box {
    carom_world_id world;
    carom_shape_id ground, box;
} resting_box;

/* A 1 m box (1 kg) settled for two seconds on the ground under g = 10. Sleep is off: these
 * tests watch the narrow phase update a resting contact, which a sleeping box would skip. */
static resting_box make_resting_box(void) {
    resting_box scene;
    carom_world_def def = carom_default_world_def();
    def.enable_sleep = 0;
    scene.world = carom_create_world(&def);
    carom_body_id ground = make_body(scene.world, CAROM_BODY_STATIC, carom_v2(0.0, 0.0), 0.0,
                                     carom_v2(0.0, 0.0));
    scene.ground = add_box(ground, 20.0, 1.0, 0.6, 0.0);
    carom_body_id box = make_body(scene.world, CAROM_BODY_DYNAMIC, carom_v2(0.0, 1.5), 0.0,
                                  carom_v2(0.0, 0.0));
    scene.box = add_box(box, 0.5, 0.5, 0.6, 0.0);
    test_step(scene.world, 1.0 / 60.0, 120);
    return scene;
}

Test(narrow_phase, a_resting_box_keeps_its_feature_ids_and_impulses_from_step_to_step) {
    resting_box scene = make_resting_box();
    carom_world* w = world_of(scene.world);
    const carom_contact* c = find_contact(w, scene.ground, scene.box);
    cr_assert_not_null(c);
    cr_assert_eq(c->point_count, 2);
    uint32_t ids[2] = {c->points[0].id, c->points[1].id};
    double impulses[2] = {c->impulses[0].normal, c->impulses[1].normal};
    cr_assert_neq(ids[0], ids[1]);
    for (int step = 0; step < 30; ++step) {
        test_step(scene.world, 1.0 / 60.0, 1);
        c = find_contact(w, scene.ground, scene.box);
        cr_assert_not_null(c);
        cr_assert_eq(c->point_count, 2);
        double total = 0.0;
        for (int i = 0; i < 2; ++i) {
            cr_assert_eq(c->points[i].id, ids[i], "step %d: point %d id %#x became %#x", step, i,
                         ids[i], c->points[i].id);
            cr_assert_gt(c->impulses[i].normal, 0.0, "step %d point %d", step, i);
            /* At rest the impulse is steady from step to step. */
            cr_assert_float_eq(c->impulses[i].normal, impulses[i], 0.02 * impulses[i],
                               "step %d point %d: %g then %g", step, i, impulses[i],
                               c->impulses[i].normal);
            impulses[i] = c->impulses[i].normal;
            total += c->impulses[i].normal;
        }
        /* The two points together carry the weight over one substep: m g dt / substeps. */
        double weight_impulse = 1.0 * 10.0 * (1.0 / 60.0) / 4.0;
        cr_assert_float_eq(total, weight_impulse, 0.02 * weight_impulse,
                           "step %d: total normal impulse %g, weight impulse %g", step, total,
                           weight_impulse);
    }
    carom_destroy_world(scene.world);
}

Test(narrow_phase, collide_carries_the_impulses_of_points_whose_feature_ids_match) {
    resting_box scene = make_resting_box();
    carom_world* w = world_of(scene.world);
    const carom_contact* c = find_contact(w, scene.ground, scene.box);
    cr_assert_not_null(c);
    cr_assert_eq(c->point_count, 2);
    carom_contact_point before[2] = {c->points[0], c->points[1]};
    carom_contact_impulse before_impulses[2] = {c->impulses[0], c->impulses[1]};
    carom_narrow_phase_collide(w, 1.0 / 60.0);
    c = find_contact(w, scene.ground, scene.box);
    cr_assert_not_null(c);
    cr_assert_eq(c->point_count, 2);
    for (int i = 0; i < 2; ++i) {
        cr_assert_eq(c->points[i].id, before[i].id);
        cr_assert_neq(before_impulses[i].normal, 0.0);
        cr_assert_eq(c->impulses[i].normal, before_impulses[i].normal);
        cr_assert_eq(c->impulses[i].tangent, before_impulses[i].tangent);
    }
    carom_destroy_world(scene.world);
}

Test(narrow_phase, a_point_whose_feature_id_is_new_starts_with_zero_impulse) {
    resting_box scene = make_resting_box();
    carom_world* w = world_of(scene.world);
    carom_contact* c = (carom_contact*)find_contact(w, scene.ground, scene.box);
    cr_assert_not_null(c);
    cr_assert_eq(c->point_count, 2);
    uint32_t ids[2] = {c->points[0].id, c->points[1].id};
    /* Pretend last step's points were other features: nothing may be carried over. (The
     * manifold is made afresh, not recycled, for the test to see the matching.) */
    c->manifold_cached = false;
    c->points[0].id = 0x7f7f7f7fu;
    c->points[1].id = 0x7e7e7e7eu;
    cr_assert_gt(c->impulses[0].normal, 0.0);
    carom_narrow_phase_collide(w, 1.0 / 60.0);
    cr_assert_eq(c->point_count, 2);
    for (int i = 0; i < 2; ++i) {
        cr_assert_eq(c->points[i].id, ids[i]);
        cr_assert_eq(c->impulses[i].normal, 0.0);
        cr_assert_eq(c->impulses[i].tangent, 0.0);
    }
    carom_destroy_world(scene.world);
}

Test(narrow_phase, impulses_follow_feature_ids_not_point_order) {
    resting_box scene = make_resting_box();
    carom_world* w = world_of(scene.world);
    carom_contact* c = (carom_contact*)find_contact(w, scene.ground, scene.box);
    cr_assert_not_null(c);
    cr_assert_eq(c->point_count, 2);
    /* Swap the stored points: the new manifold lists them in the original order, so each point
     * must find its impulse by id, not by slot. */
    carom_contact_point original[2] = {c->points[0], c->points[1]};
    c->manifold_cached = false; /* made afresh, not recycled */
    c->points[0] = original[1];
    c->points[1] = original[0];
    c->impulses[0].normal = 1.0;
    c->impulses[1].normal = 2.0;
    carom_narrow_phase_collide(w, 1.0 / 60.0);
    cr_assert_eq(c->points[0].id, original[0].id);
    cr_assert_eq(c->impulses[0].normal, 2.0);
    cr_assert_eq(c->points[1].id, original[1].id);
    cr_assert_eq(c->impulses[1].normal, 1.0);
    carom_destroy_world(scene.world);
}

/* ---- Recycling: a manifold kept while the bodies barely move relative to each other ---------- */

/* Move the resting box by (dx, dy) and run the narrow phase alone. */
static const carom_contact* nudge_and_collide(resting_box* scene, double dx, double dy) {
    carom_world* w = world_of(scene->world);
    carom_body_id box = carom_shape_get_body(scene->box);
    carom_vec2 p = carom_body_get_position(box);
    cr_assert_eq(carom_body_set_transform(box, carom_v2(p.x + dx, p.y + dy), 0.0), CAROM_OK);
    carom_narrow_phase_collide(w, 1.0 / 60.0);
    return find_contact(w, scene->ground, scene->box);
}

Test(narrow_phase, a_resting_manifold_is_kept_and_its_separations_follow_the_bodies) {
    resting_box scene = make_resting_box();
    const carom_contact* c = find_contact(world_of(scene.world), scene.ground, scene.box);
    cr_assert(c->manifold_cached);
    carom_contact_point before[2] = {c->points[0], c->points[1]};
    /* 2 mm up: less than the 1 cm recycle distance */
    c = nudge_and_collide(&scene, 0.0, 0.002);
    cr_assert_eq(c->point_count, 2);
    double kept[2];
    for (int i = 0; i < 2; ++i) {
        /* the same points on the bodies: anchors untouched, bit for bit */
        cr_assert_eq(c->points[i].anchor_a.x, before[i].anchor_a.x);
        cr_assert_eq(c->points[i].anchor_b.y, before[i].anchor_b.y);
        cr_assert_eq(c->points[i].id, before[i].id);
        /* before[i].separation was measured at the start of the last step, and the resting box
         * may have moved by rounding since: 1e-9 m is far below the 2 mm moved */
        cr_assert_float_eq(c->points[i].separation, before[i].separation + 0.002, 1e-9,
                           "point %d: %.12g from %.12g", i, c->points[i].separation,
                           before[i].separation);
        kept[i] = c->points[i].separation;
    }
    /* exactly: the recycled separations are what a manifold made afresh at this pose gives */
    carom_contact* fresh = (carom_contact*)c;
    fresh->manifold_cached = false;
    carom_narrow_phase_collide(world_of(scene.world), 1.0 / 60.0);
    for (int i = 0; i < 2; ++i) {
        cr_assert_float_eq(fresh->points[i].separation, kept[i], 1e-12,
                           "point %d: recycled %.17g, afresh %.17g", i, kept[i],
                           fresh->points[i].separation);
    }
    carom_destroy_world(scene.world);
}

Test(narrow_phase, a_box_moved_beyond_the_recycle_distance_gets_a_new_manifold) {
    resting_box scene = make_resting_box();
    const carom_contact* c = find_contact(world_of(scene.world), scene.ground, scene.box);
    carom_vec2 anchor = c->points[0].anchor_a;
    c = nudge_and_collide(&scene, 0.05, 0.0); /* 5 cm sideways */
    cr_assert_eq(c->point_count, 2);
    cr_assert_float_eq(c->points[0].anchor_a.x, anchor.x + 0.05, 1e-9,
                       "the points were found again where the box is now");
    cr_assert_eq(c->points[0].separation, c->points[0].base_separation);
    carom_destroy_world(scene.world);
}

Test(narrow_phase, a_recycle_distance_of_zero_makes_every_manifold_afresh) {
    resting_box scene = make_resting_box();
    carom_world* w = world_of(scene.world);
    w->def.contact_recycle_distance = 0.0;
    const carom_contact* c = find_contact(w, scene.ground, scene.box);
    carom_vec2 anchor = c->points[0].anchor_a;
    c = nudge_and_collide(&scene, 0.002, 0.0);
    cr_assert_float_eq(c->points[0].anchor_a.x, anchor.x + 0.002, 1e-9);
    carom_destroy_world(scene.world);
}

/* ---- Shape order and normal direction --------------------------------------------------------- */

typedef enum pair_kind { BOX_BOX, PENTAGON_BOX, CIRCLE_CIRCLE, SEGMENT_BOX, KIND_COUNT } pair_kind;

/* Build shape "first" (P) and "second" (Q) of a pair, in the given creation order, and run the
 * first two stages. Returns the contact; *p and *q receive the shape ids. The turns are in the
 * shapes' geometry and the bodies have angle 0, so the bodies' rotations are exact identities. */
static const carom_contact* build_pair(carom_world_id world, pair_kind kind, int p_first,
                                       carom_shape_id* p, carom_shape_id* q) {
    carom_shape_def def = carom_default_shape_def();
    for (int k = 0; k < 2; ++k) {
        int make_p = (k == 0) == (p_first != 0);
        if (make_p) {
            carom_body_type type = kind == SEGMENT_BOX ? CAROM_BODY_STATIC : CAROM_BODY_DYNAMIC;
            carom_body_id body = make_body(world, type, carom_v2(0.0, 0.0), 0.0,
                                           carom_v2(0.0, 0.0));
            switch (kind) {
            case BOX_BOX:
                *p = carom_create_box_shape(body, &def, 0.6, 0.4, carom_v2(0.0, 0.0), 0.05);
                break;
            case PENTAGON_BOX:
                *p = add_pentagon(body);
                break;
            case CIRCLE_CIRCLE:
                *p = add_circle(body, 0.5, 0.6, 0.0);
                break;
            default:
                *p = add_segment(body, carom_v2(-2.0, 0.1), carom_v2(2.0, -0.1));
                break;
            }
        } else {
            carom_vec2 at = kind == CIRCLE_CIRCLE ? carom_v2(0.4, 0.55) : carom_v2(0.2, 0.62);
            if (kind == SEGMENT_BOX) {
                at = carom_v2(0.3, 0.3);
            }
            carom_body_id body = make_body(world, CAROM_BODY_DYNAMIC, at, 0.0,
                                           carom_v2(0.0, 0.0));
            *q = kind == CIRCLE_CIRCLE
                     ? add_circle(body, 0.25, 0.6, 0.0)
                     : carom_create_box_shape(body, &def, 0.3, 0.3, carom_v2(0.0, 0.0), 0.3);
        }
    }
    cr_assert(carom_shape_is_valid(*p) && carom_shape_is_valid(*q), "kind %d: %s", (int)kind,
              carom_last_error());
    collide_now(world);
    const carom_contact* c = find_contact(world_of(world), *p, *q);
    cr_assert_not_null(c, "kind %d: no contact", (int)kind);
    cr_assert_gt(c->point_count, 0, "kind %d: no manifold points", (int)kind);
    return c;
}

Test(narrow_phase, swapping_creation_order_gives_the_same_points_and_the_normal_negated) {
    for (int kind = 0; kind < KIND_COUNT; ++kind) {
        carom_world_id w1 = test_make_world(carom_v2(0.0, 0.0));
        carom_world_id w2 = test_make_world(carom_v2(0.0, 0.0));
        carom_shape_id p1, q1, p2, q2;
        const carom_contact* c1 = build_pair(w1, (pair_kind)kind, 1, &p1, &q1);
        const carom_contact* c2 = build_pair(w2, (pair_kind)kind, 0, &p2, &q2);
        /* The lower shape id is A, so creation order decides which shape is A. */
        cr_assert_eq(c1->shape_a, shape_index(p1), "kind %d", kind);
        cr_assert_eq(c2->shape_a, shape_index(q2), "kind %d", kind);
        cr_assert_float_eq(c2->normal.x, -c1->normal.x, 1e-12, "kind %d: normal x %g vs %g",
                           kind, c1->normal.x, c2->normal.x);
        cr_assert_float_eq(c2->normal.y, -c1->normal.y, 1e-12, "kind %d: normal y %g vs %g",
                           kind, c1->normal.y, c2->normal.y);
        cr_assert_eq(c1->point_count, c2->point_count, "kind %d", kind);
        for (int i = 0; i < c1->point_count; ++i) {
            /* Same points as a set: the order within the manifold may differ. */
            int found = 0;
            for (int j = 0; j < c2->point_count; ++j) {
                if (carom_distance(c1->points[i].point, c2->points[j].point) < 1e-9 &&
                    fabs(c1->points[i].separation - c2->points[j].separation) < 1e-9) {
                    found = 1;
                }
            }
            cr_assert(found, "kind %d: point (%g, %g) sep %g has no match after the swap", kind,
                      c1->points[i].point.x, c1->points[i].point.y, c1->points[i].separation);
        }
        carom_destroy_world(w1);
        carom_destroy_world(w2);
    }
}

Test(narrow_phase, a_circle_against_a_polygon_or_segment_is_always_shape_b) {
    for (int circle_first = 0; circle_first < 2; ++circle_first) {
        for (int segment = 0; segment < 2; ++segment) {
            carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
            carom_shape_id circle = carom_null_shape_id;
            carom_shape_id other;
            carom_body_id ball = carom_null_body_id;
            if (circle_first) {
                ball = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.1, 0.7), 0.0,
                                 carom_v2(0.0, 0.0));
                circle = add_circle(ball, 0.3, 0.6, 0.0);
            }
            carom_body_id body = make_body(id, segment ? CAROM_BODY_STATIC : CAROM_BODY_DYNAMIC,
                                           carom_v2(0.0, 0.0), 0.0, carom_v2(0.0, 0.0));
            other = segment ? add_segment(body, carom_v2(-1.0, 0.5), carom_v2(1.0, 0.5))
                            : add_box(body, 0.5, 0.5, 0.6, 0.0);
            if (!circle_first) {
                ball = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.1, 0.7), 0.0,
                                 carom_v2(0.0, 0.0));
                circle = add_circle(ball, 0.3, 0.6, 0.0);
            }
            collide_now(id);
            const carom_contact* c = find_contact(world_of(id), circle, other);
            cr_assert_not_null(c);
            cr_assert_eq(c->shape_a, shape_index(other),
                         "circle created %s, against a %s: shape A is %d, not the %s %d",
                         circle_first ? "first" : "second", segment ? "segment" : "box",
                         c->shape_a, segment ? "segment" : "box", shape_index(other));
            cr_assert_eq(c->shape_b, shape_index(circle));
            cr_assert_gt(c->point_count, 0);
            carom_destroy_world(id);
        }
    }
}

/* A box at the origin and a circle of radius 0.3 around it at angle `angle`, overlapping by
 * about 5 cm, circle created first. Returns the dot of the contact normal with the direction
 * from the box center to the circle center. */
static double circle_around_box_normal_dot(double angle, int* point_count, double* length) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    carom_rot dir = carom_make_rot(angle);
    /* Distance from the center of a 1 m square to its boundary along dir. */
    double reach = 0.5 / (fabs(dir.c) > fabs(dir.s) ? fabs(dir.c) : fabs(dir.s));
    carom_vec2 at = carom_scale(reach + 0.25, carom_v2(dir.c, dir.s));
    carom_body_id ball = make_body(id, CAROM_BODY_DYNAMIC, at, 0.0, carom_v2(0.0, 0.0));
    carom_shape_id circle = add_circle(ball, 0.3, 0.6, 0.0);
    carom_body_id body = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.0), 0.0,
                                   carom_v2(0.0, 0.0));
    carom_shape_id box = add_box(body, 0.5, 0.5, 0.6, 0.0);
    collide_now(id);
    const carom_contact* c = find_contact(world_of(id), circle, box);
    cr_assert_not_null(c);
    cr_assert_eq(c->shape_a, shape_index(box));
    *point_count = c->point_count;
    *length = carom_length(c->normal);
    double dot = carom_dot(c->normal, carom_normalize(at));
    carom_destroy_world(id);
    return dot;
}

Test(narrow_phase, a_polygon_circle_normal_points_from_the_polygon_to_the_circle) {
    for (int k = 0; k < 16; ++k) {
        double angle = 2.0 * CAROM_PI * k / 16.0 + 0.01;
        int points = 0;
        double length = 0.0;
        double dot = circle_around_box_normal_dot(angle, &points, &length);
        cr_assert_eq(points, 1, "angle %g: %d points", angle, points);
        cr_assert_float_eq(length, 1.0, 1e-12, "angle %g: normal length %g", angle, length);
        cr_assert_gt(dot, 0.5, "angle %g: normal . (circle - box) = %g", angle, dot);
    }
}

Test(narrow_phase, polygon_and_circle_pair_normals_point_from_shape_a_to_shape_b) {
    for (int kind = 0; kind < KIND_COUNT; ++kind) {
        for (int p_first = 0; p_first < 2; ++p_first) {
            carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
            carom_shape_id p, q;
            const carom_contact* c = build_pair(id, (pair_kind)kind, p_first, &p, &q);
            carom_world* w = world_of(id);
            carom_vec2 center_a = w->bodies[w->shapes[c->shape_a].body].center;
            carom_vec2 center_b = w->bodies[w->shapes[c->shape_b].body].center;
            double dot = carom_dot(c->normal, carom_sub(center_b, center_a));
            cr_assert_gt(dot, 0.0, "kind %d, %s first: normal (%g, %g) points from B to A",
                         kind, p_first ? "P" : "Q", c->normal.x, c->normal.y);
            carom_destroy_world(id);
        }
    }
}

Test(narrow_phase, contact_normals_are_unit_length_between_rotated_bodies) {
    /* Body angles go through carom_make_rot; the normal is documented as a unit vector. */
    const double angles[5] = {0.05, 0.3, 1.0, -0.7, 2.0};
    for (int k = 0; k < 5; ++k) {
        carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
        carom_body_id a = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.0), angles[k],
                                    carom_v2(0.0, 0.0));
        carom_shape_id sa = add_box(a, 0.6, 0.4, 0.6, 0.0);
        carom_body_id b = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.1, 0.7), -angles[k],
                                    carom_v2(0.0, 0.0));
        carom_shape_id sb = add_box(b, 0.3, 0.3, 0.6, 0.0);
        collide_now(id);
        const carom_contact* c = find_contact(world_of(id), sa, sb);
        cr_assert_not_null(c);
        cr_assert_gt(c->point_count, 0);
        double length = carom_length(c->normal);
        cr_expect_float_eq(length, 1.0, 1e-12,
                           "body angles %g and %g: normal (%.17g, %.17g) has length %.17g",
                           angles[k], -angles[k], c->normal.x, c->normal.y, length);
        carom_destroy_world(id);
    }
}

/* ---- Lifetimes -------------------------------------------------------------------------------- */

Test(narrow_phase, a_contact_ends_in_the_step_after_the_fat_boxes_part) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    carom_world* w = world_of(id);
    test_make_ball(id, carom_v2(-0.55, 0.0), 0.5, carom_v2(-2.0, 0.0), 0.6, 0.0);
    test_make_ball(id, carom_v2(0.55, 0.0), 0.5, carom_v2(2.0, 0.0), 0.6, 0.0);
    int had_contact = 0;
    int parted_at = -1;
    for (int step = 0; step < 60; ++step) {
        int overlapped = carom_aabb_overlaps(w->broad_phase.proxies[0].fat_aabb,
                                             w->broad_phase.proxies[1].fat_aabb);
        test_step(id, 1.0 / 60.0, 1);
        int contacts = carom_world_get_counters(id).contact_count;
        cr_assert_eq(contacts, overlapped, "step %d: %d contacts, fat boxes %s before the step",
                     step, contacts, overlapped ? "overlapped" : "apart");
        had_contact |= contacts;
        if (!contacts && parted_at < 0) {
            parted_at = step;
        }
    }
    cr_assert(had_contact);
    cr_assert_gt(parted_at, 0);
    cr_assert_eq(carom_world_get_counters(id).contact_count, 0);
    cr_assert_eq(w->bodies[0].contact_count, 0);
    cr_assert_eq(w->bodies[1].contact_count, 0);
    cr_assert_eq(w->pair_map.count, 0);
    carom_destroy_world(id);
}

Test(narrow_phase, a_contact_outlives_touching_while_the_fat_boxes_overlap) {
    /* A 15 cm gap: more than the 2 cm speculative distance, less than the two 10 cm margins. */
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    test_make_ball(id, carom_v2(-0.575, 0.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    test_make_ball(id, carom_v2(0.575, 0.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    test_step(id, 1.0 / 60.0, 5);
    carom_world_counters counters = carom_world_get_counters(id);
    cr_assert_eq(counters.contact_count, 1);
    cr_assert_eq(counters.touching_count, 0);
    carom_destroy_world(id);
}

/* Two overlapping boxes of the given types plus, as a control, a dynamic ball overlapping the
 * first: after some steps the only contact must be the control's. */
static void check_only_the_control_pair_collides(carom_body_type first, carom_body_type second) {
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id a = make_body(id, first, carom_v2(0.0, 0.0), 0.0, carom_v2(0.5, 0.0));
    carom_shape_id sa = add_box(a, 1.0, 1.0, 0.6, 0.0);
    carom_body_id b = make_body(id, second, carom_v2(0.8, 0.5), 0.2, carom_v2(-0.5, 0.0));
    carom_shape_id sb = add_box(b, 1.0, 1.0, 0.6, 0.0);
    carom_body_id ball = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(-1.2, 0.0), 0.0,
                                   carom_v2(0.0, 0.0));
    carom_shape_id control = add_circle(ball, 0.5, 0.6, 0.0);
    carom_world* w = world_of(id);
    for (int step = 0; step < 30; ++step) {
        test_step(id, 1.0 / 60.0, 1);
        cr_assert(carom_aabb_overlaps(w->broad_phase.proxies[shape_index(sa)].fat_aabb,
                                      w->broad_phase.proxies[shape_index(sb)].fat_aabb));
        cr_assert_null(find_contact(w, sa, sb), "types %d and %d got a contact at step %d",
                       (int)first, (int)second, step);
        if (step == 0) {
            cr_assert_not_null(find_contact(w, control, sa), "the control pair has no contact");
        }
    }
    carom_destroy_world(id);
}

Test(narrow_phase, two_static_bodies_never_get_a_contact) {
    check_only_the_control_pair_collides(CAROM_BODY_STATIC, CAROM_BODY_STATIC);
}

Test(narrow_phase, a_static_and_a_kinematic_body_never_get_a_contact) {
    check_only_the_control_pair_collides(CAROM_BODY_STATIC, CAROM_BODY_KINEMATIC);
    check_only_the_control_pair_collides(CAROM_BODY_KINEMATIC, CAROM_BODY_STATIC);
}

Test(narrow_phase, two_kinematic_bodies_never_get_a_contact) {
    check_only_the_control_pair_collides(CAROM_BODY_KINEMATIC, CAROM_BODY_KINEMATIC);
}

Test(narrow_phase, shapes_of_one_body_never_get_a_contact) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id body = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.0), 0.0,
                                   carom_v2(0.0, 0.0));
    add_box(body, 1.0, 1.0, 0.6, 0.0);
    add_circle(body, 0.8, 0.6, 0.0);
    test_step(id, 1.0 / 60.0, 3);
    cr_assert_eq(carom_world_get_counters(id).contact_count, 0);
    carom_destroy_world(id);
}

/* ---- Materials --------------------------------------------------------------------------------- */

Test(narrow_phase, a_contact_mixes_friction_by_geometric_mean_and_restitution_by_maximum) {
    /* Each case: friction and restitution of the lower (A) shape, then of the higher (B). */
    const double cases[4][4] = {
        {0.3, 0.2, 0.8, 0.7},
        {0.8, 0.9, 0.3, 0.1},
        {0.0, 0.0, 1.5, 0.0},
        {0.45, 1.0, 0.45, 1.0},
    };
    for (int k = 0; k < 4; ++k) {
        carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
        carom_body_id a = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.0), 0.0,
                                    carom_v2(0.0, 0.0));
        carom_shape_id sa = add_box(a, 0.5, 0.5, cases[k][0], cases[k][1]);
        carom_body_id b = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.2, 0.95), 0.0,
                                    carom_v2(0.0, 0.0));
        carom_shape_id sb = add_box(b, 0.5, 0.5, cases[k][2], cases[k][3]);
        collide_now(id);
        const carom_contact* c = find_contact(world_of(id), sa, sb);
        cr_assert_not_null(c);
        cr_assert_eq(c->shape_a, shape_index(sa));
        double friction = sqrt(cases[k][0] * cases[k][2]);
        double restitution = cases[k][1] > cases[k][3] ? cases[k][1] : cases[k][3];
        cr_assert_float_eq(c->friction, friction, 1e-15, "case %d: friction %g, expected %g", k,
                           c->friction, friction);
        cr_assert_eq(c->restitution, restitution, "case %d: restitution %g, expected %g", k,
                     c->restitution, restitution);
        carom_destroy_world(id);
    }
}

/* Two overlapping unit boxes at rest in a world without gravity, each of friction 0.5 and
 * restitution 0.1: the pair the material tests change. */
static carom_world_id make_touching_boxes(carom_shape_id* sa, carom_shape_id* sb) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id a = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.0), 0.0,
                                carom_v2(0.0, 0.0));
    *sa = add_box(a, 0.5, 0.5, 0.5, 0.1);
    carom_body_id b = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.2, 0.95), 0.0,
                                carom_v2(0.0, 0.0));
    *sb = add_box(b, 0.5, 0.5, 0.5, 0.1);
    return id;
}

Test(narrow_phase, changed_materials_reach_the_contact_at_the_next_collide) {
    carom_shape_id sa, sb;
    carom_world_id id = make_touching_boxes(&sa, &sb);
    collide_now(id);
    const carom_contact* c = find_contact(world_of(id), sa, sb);
    cr_assert_not_null(c);
    cr_assert_float_eq(c->friction, 0.5, 1e-15);
    cr_assert_eq(carom_shape_set_friction(sb, 0.125), CAROM_OK);
    cr_assert_eq(carom_shape_set_restitution(sa, 0.6), CAROM_OK);
    collide_now(id);
    c = find_contact(world_of(id), sa, sb);
    cr_assert_not_null(c);
    cr_assert_float_eq(c->friction, 0.25, 1e-15, "friction %g", c->friction);
    cr_assert_eq(c->restitution, 0.6);
    carom_destroy_world(id);
}

/* A contact mixes its material only when the world's material revision moved since it last did;
 * when that 32-bit count wraps, no contact may take the new value for its own. Here the contact
 * was mixed at revision 1 and, as if 2^32 - 2 changes had gone by without updating it, the next
 * change wraps the count back to 1. */
Test(narrow_phase, changed_materials_reach_the_contact_when_the_revision_wraps) {
    carom_shape_id sa, sb;
    carom_world_id id = make_touching_boxes(&sa, &sb);
    cr_assert_eq(world_of(id)->material_revision, 1u);
    collide_now(id);
    const carom_contact* c = find_contact(world_of(id), sa, sb);
    cr_assert_not_null(c);
    cr_assert_eq(c->material_revision, 1u);
    world_of(id)->material_revision = UINT32_MAX;
    cr_assert_eq(carom_shape_set_friction(sb, 0.125), CAROM_OK);
    cr_assert_eq(world_of(id)->material_revision, 1u);
    collide_now(id);
    c = find_contact(world_of(id), sa, sb);
    cr_assert_not_null(c);
    cr_assert_float_eq(c->friction, 0.25, 1e-15, "friction %g", c->friction);
    carom_destroy_world(id);
}

/* ---- Contact lists --------------------------------------------------------------------------- */

/* Each live body's contact list holds exactly the live contacts that name it, each once, with
 * consistent back links. */
static void check_contact_lists(const carom_world* w, const char* where) {
    for (int b = 0; b < (int)arrlen(w->bodies); ++b) {
        const carom_body* body = &w->bodies[b];
        if (body->id < 0) {
            continue;
        }
        int expected = 0;
        for (int i = 0; i < (int)arrlen(w->contacts); ++i) {
            const carom_contact* c = &w->contacts[i];
            if (c->id >= 0) {
                expected += (c->edges[0].body == b) + (c->edges[1].body == b);
            }
        }
        int listed = 0;
        int previous = -1;
        for (int key = body->contact_head; key >= 0;) {
            const carom_contact* c = &w->contacts[key >> 1];
            const carom_contact_edge* edge = &c->edges[key & 1];
            cr_assert_geq(c->id, 0, "%s: body %d lists a freed contact", where, b);
            cr_assert_eq(edge->body, b, "%s: body %d lists an edge of body %d", where, b,
                         edge->body);
            cr_assert_eq(edge->prev_key, previous, "%s: body %d has a broken back link", where,
                         b);
            cr_assert_eq(w->shapes[key & 1 ? c->shape_b : c->shape_a].body, b);
            listed += 1;
            cr_assert_leq(listed, expected, "%s: body %d's list is too long or cyclic", where,
                          b);
            previous = key;
            key = edge->next_key;
        }
        cr_assert_eq(listed, expected, "%s: body %d lists %d of its %d contacts", where, b,
                     listed, expected);
        cr_assert_eq(body->contact_count, expected, "%s: body %d", where, b);
    }
}

Test(narrow_phase, body_contact_lists_stay_exact_as_contacts_and_shapes_come_and_go) {
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    carom_world* w = world_of(id);
    test_make_ground(id, 0.0, 0.6, 0.0);
    carom_shape_id removable[40];
    int removable_count = 0;
    for (int i = 0; i < 80; ++i) {
        double x = -4.0 + 0.9 * (i % 10);
        double y = 0.6 + 0.9 * (i / 10);
        carom_body_id body = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(x, y), 0.1 * i,
                                       carom_v2(i % 3 - 1.0, 0.0));
        add_box(body, 0.3, 0.3, 0.6, 0.0);
        if (i % 2 == 0) {
            carom_shape_def def = carom_default_shape_def();
            carom_circle circle = {{0.35, 0.0}, 0.2};
            removable[removable_count++] = carom_create_circle_shape(body, &def, &circle);
        }
    }
    char where[64];
    for (int step = 0; step < 90; ++step) {
        test_step(id, 1.0 / 60.0, 1);
        if (step % 3 == 0 && removable_count > 0) {
            cr_assert_eq(carom_destroy_shape(removable[--removable_count]), CAROM_OK);
        }
        if (step % 10 == 5) {
            /* Destroy a body in the middle of the pile. */
            int b = 1 + (step * 7) % 80;
            if (w->bodies[b].id >= 0) {
                carom_body_id body = {b + 1, w->bodies[b].generation, w->index, w->generation};
                cr_assert_eq(carom_destroy_body(body), CAROM_OK);
            }
        }
        snprintf(where, sizeof(where), "step %d", step);
        check_contact_lists(w, where);
    }
    carom_destroy_world(id);
}

Test(narrow_phase, destroying_a_shape_destroys_only_its_own_contacts) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    carom_world* w = world_of(id);
    /* A body with a box and a circle, each overlapping its own neighbour ball. */
    carom_body_id body = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.0), 0.0,
                                   carom_v2(0.0, 0.0));
    carom_shape_id box = add_box(body, 0.5, 0.5, 0.6, 0.0);
    carom_shape_def def = carom_default_shape_def();
    carom_circle circle = {{2.0, 0.0}, 0.5};
    carom_shape_id round = carom_create_circle_shape(body, &def, &circle);
    carom_body_id left = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(-0.9, 0.0), 0.0,
                                   carom_v2(0.0, 0.0));
    carom_shape_id left_ball = add_circle(left, 0.5, 0.6, 0.0);
    carom_body_id right = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(2.9, 0.0), 0.0,
                                    carom_v2(0.0, 0.0));
    carom_shape_id right_ball = add_circle(right, 0.5, 0.6, 0.0);
    collide_now(id);
    cr_assert_eq(carom_world_get_counters(id).contact_count, 2);
    cr_assert_eq(carom_destroy_shape(round), CAROM_OK);
    cr_assert_eq(carom_world_get_counters(id).contact_count, 1);
    cr_assert_not_null(find_contact(w, box, left_ball));
    cr_assert_null(find_contact(w, round, right_ball));
    check_contact_lists(w, "after destroying the circle");
    carom_destroy_world(id);
}

/* ---- Boxes --------------------------------------------------------------------------------- */

/* Makes a 1 m by 2 m box on a body; first_corner is for box_by_corners. */
typedef carom_shape_id (*shape_maker)(carom_body_id body, int first_corner);

static carom_shape_id box_by_make_box(carom_body_id body, int first_corner) {
    (void)first_corner;
    return add_box(body, 0.5, 1.0, 0.6, 0.0);
}

/* The same box as a polygon whose corners start at corner `first_corner` of carom_make_box's
 * order: the polygon keeps that order, so its edges are numbered differently. */
static carom_shape_id box_by_corners(carom_body_id body, int first_corner) {
    carom_vec2 corners[4] = {{-0.5, -1.0}, {0.5, -1.0}, {0.5, 1.0}, {-0.5, 1.0}};
    carom_vec2 points[4];
    for (int i = 0; i < 4; ++i) {
        points[i] = corners[(first_corner + i) % 4];
    }
    carom_polygon polygon;
    cr_assert_eq(carom_make_polygon(points, 4, &polygon), CAROM_OK);
    carom_shape_def def = carom_default_shape_def();
    def.friction = 0.6;
    carom_shape_id shape = carom_create_polygon_shape(body, &def, &polygon);
    cr_assert(carom_shape_is_valid(shape), "polygon failed: %s", carom_last_error());
    return shape;
}

static carom_manifold box_pair_manifold(shape_maker make_shape, int first_corner) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    /* B on A's top face, 2 cm into it and turned 0.02 rad against it: two points */
    carom_body_id a = make_body(world, CAROM_BODY_DYNAMIC, carom_v2(0.0, 0.0), 0.3,
                                carom_v2(0.0, 0.0));
    carom_vec2 on_top = {0.2 * cos(0.3) - 1.98 * sin(0.3), 0.2 * sin(0.3) + 1.98 * cos(0.3)};
    carom_body_id b = make_body(world, CAROM_BODY_DYNAMIC, on_top, 0.32, carom_v2(0.0, 0.0));
    carom_shape_id sa = make_shape(a, first_corner);
    carom_shape_id sb = make_shape(b, first_corner);
    collide_now(world);
    const carom_contact* contact = find_contact(world_of(world), sa, sb);
    cr_assert_not_null(contact);
    carom_manifold m;
    m.normal = contact->normal;
    m.point_count = contact->point_count;
    for (int i = 0; i < contact->point_count; ++i) {
        m.points[i].point = contact->points[i].point;
        m.points[i].separation = contact->points[i].separation;
        m.points[i].id = contact->points[i].id;
    }
    carom_destroy_world(world);
    return m;
}

/* Boxes made by carom_make_box take the narrow phase's box test, which names faces by
 * carom_make_box's edge order. The same corners listed from another corner are a different
 * polygon to that test and must take the polygon test: either way, the same contact. */
Test(narrow_phase, a_box_listed_from_any_corner_gives_the_contact_of_the_same_box_made_as_a_box) {
    carom_manifold want = box_pair_manifold(box_by_make_box, 0);
    cr_assert_eq(want.point_count, 2);
    for (int first = 0; first < 4; ++first) {
        carom_manifold got = box_pair_manifold(box_by_corners, first);
        cr_assert_eq(got.point_count, want.point_count, "first corner %d", first);
        cr_assert(carom_distance(got.normal, want.normal) < 1e-12, "first corner %d", first);
        for (int i = 0; i < want.point_count; ++i) {
            /* points may come in the other order when the edges are numbered differently */
            double d0 = carom_distance(got.points[i].point, want.points[0].point);
            double d1 = carom_distance(got.points[i].point, want.points[1].point);
            cr_assert(d0 < 1e-12 || d1 < 1e-12, "first corner %d point %d", first, i);
        }
    }
}
