/* Tests for engine/broad_phase.c: the grid must find exactly the pairs a brute-force O(n^2) check
 * over the fattened boxes finds, in a deterministic order, wherever the shapes are and however
 * many cells they cover.
 *
 * How the checks are exact: contacts are created by carom_broad_phase_update_pairs at the start of
 * a step and destroyed by carom_narrow_phase_collide when their fat boxes part; the solver then
 * moves the bodies and refreshes the fat boxes. So right after a step, the live contacts are
 * exactly the may-collide pairs whose fat boxes overlapped at the START of that step. The tests
 * copy the proxies just before each step and compare the contacts after it with a brute force
 * over that copy. The brute force takes the may-pair rule from the shapes and bodies (not from
 * the proxies), written out here from its documentation. */
#include "helpers.h"

#include "ds.h"
#include "world.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Deterministic random numbers (xorshift64*) -------------------------------------------- */

typedef struct rng {
    uint64_t state;
} rng;

static rng rng_make(uint64_t seed) {
    rng r = {seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull};
    if (r.state == 0) {
        r.state = 1;
    }
    return r;
}

static uint64_t rng_next(rng* r) {
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return r->state * 0x2545F4914F6CDD1Dull;
}

static double rng_uniform(rng* r, double lo, double hi) {
    double unit = (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * unit;
}

static int rng_int(rng* r, int n) { return (int)(rng_next(r) % (uint64_t)n); }

/* x drawn before y. Two draws inside one argument list would be made in whatever order the
 * compiler picks (C leaves it open), and gcc and clang would build different scenes. */
static carom_vec2 rng_vec2(rng* r, double x_lo, double x_hi, double y_lo, double y_hi) {
    double x = rng_uniform(r, x_lo, x_hi);
    double y = rng_uniform(r, y_lo, y_hi);
    return carom_v2(x, y);
}

/* ---- Reference: brute force over a copy of the proxies --------------------------------------- */

typedef struct key_list {
    uint64_t* keys;
    int count, capacity;
} key_list;

static void key_list_push(key_list* list, uint64_t key) {
    if (list->count == list->capacity) {
        list->capacity = list->capacity > 0 ? 2 * list->capacity : 1024;
        list->keys = realloc(list->keys, (size_t)list->capacity * sizeof(uint64_t));
        cr_assert_not_null(list->keys);
    }
    list->keys[list->count++] = key;
}

static void key_list_free(key_list* list) {
    free(list->keys);
    memset(list, 0, sizeof(*list));
}

/* Why an overlapping pair may not collide; counted so the scenes can show they exercise each
 * rule. */
typedef enum pair_verdict { PAIR_OK, PAIR_SAME_BODY, PAIR_NO_DYNAMIC, PAIR_FILTERED } pair_verdict;

typedef struct rejections {
    long same_body, no_dynamic, filtered;
} rejections;

/* The may-pair rule as carom_filter and carom_proxies_may_pair document it, read from the shapes
 * and bodies: different bodies, at least one dynamic, and the filters agree. */
static pair_verdict reference_may_pair(const carom_world* w, int a, int b) {
    const carom_shape* sa = &w->shapes[a];
    const carom_shape* sb = &w->shapes[b];
    if (sa->body == sb->body) {
        return PAIR_SAME_BODY;
    }
    if (w->bodies[sa->body].type != CAROM_BODY_DYNAMIC &&
        w->bodies[sb->body].type != CAROM_BODY_DYNAMIC) {
        return PAIR_NO_DYNAMIC;
    }
    carom_filter fa = sa->filter;
    carom_filter fb = sb->filter;
    if (fa.group != 0 && fa.group == fb.group) {
        return fa.group > 0 ? PAIR_OK : PAIR_FILTERED;
    }
    return (fa.category & fb.mask) != 0 && (fb.category & fa.mask) != 0 ? PAIR_OK : PAIR_FILTERED;
}

typedef struct snapshot {
    carom_proxy* proxies;
    int count, capacity;
} snapshot;

/* Copy the fat boxes as they are now, i.e. before the step that is about to run. */
static void take_snapshot(snapshot* s, const carom_world* w) {
    int n = (int)arrlen(w->broad_phase.proxies);
    if (n > s->capacity) {
        s->capacity = 2 * n;
        s->proxies = realloc(s->proxies, (size_t)s->capacity * sizeof(carom_proxy));
        cr_assert_not_null(s->proxies);
    }
    if (n > 0) {
        memcpy(s->proxies, w->broad_phase.proxies, (size_t)n * sizeof(carom_proxy));
    }
    s->count = n;
}

static void snapshot_free(snapshot* s) {
    free(s->proxies);
    memset(s, 0, sizeof(*s));
}

typedef struct flat_box {
    double lx, ly, ux, uy;
    int shape;
} flat_box;

/* All may-pair shape pairs whose snapshot fat boxes overlap, as ascending pair keys. The plain
 * double loop over live shapes in id order yields the keys already sorted. */
static void brute_force_pairs(const carom_world* w, const snapshot* s, key_list* out,
                              rejections* rejected) {
    out->count = 0;
    flat_box* boxes = malloc((size_t)(s->count > 0 ? s->count : 1) * sizeof(flat_box));
    cr_assert_not_null(boxes);
    int n = 0;
    for (int i = 0; i < s->count; ++i) {
        if (!s->proxies[i].alive) {
            continue;
        }
        cr_assert_eq(w->shapes[i].id, i, "proxy %d is alive but its shape slot is free", i);
        const carom_aabb* box = &s->proxies[i].fat_aabb;
        flat_box f = {box->lower.x, box->lower.y, box->upper.x, box->upper.y, i};
        boxes[n++] = f;
    }
    for (int i = 0; i < n; ++i) {
        flat_box a = boxes[i];
        for (int j = i + 1; j < n; ++j) {
            const flat_box* b = &boxes[j];
            /* Closed boxes, as carom_aabb_overlaps: touching edges overlap. */
            if (b->lx > a.ux || b->ly > a.uy || a.lx > b->ux || a.ly > b->uy) {
                continue;
            }
            switch (reference_may_pair(w, a.shape, b->shape)) {
            case PAIR_OK:
                key_list_push(out, ((uint64_t)(uint32_t)a.shape << 32) | (uint32_t)b->shape);
                break;
            case PAIR_SAME_BODY:
                rejected->same_body += 1;
                break;
            case PAIR_NO_DYNAMIC:
                rejected->no_dynamic += 1;
                break;
            default:
                rejected->filtered += 1;
                break;
            }
        }
    }
    free(boxes);
}

static int compare_u64(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a;
    uint64_t y = *(const uint64_t*)b;
    return (x > y) - (x < y);
}

/* The pair keys of the live contacts, sorted; fails on a malformed slot or a duplicate pair. */
static void contact_pairs(const carom_world* w, key_list* out, const char* where) {
    out->count = 0;
    for (int i = 0; i < (int)arrlen(w->contacts); ++i) {
        const carom_contact* c = &w->contacts[i];
        if (c->id < 0) {
            continue;
        }
        cr_assert_eq(c->id, i, "%s: contact slot %d holds id %d", where, i, c->id);
        key_list_push(out, carom_contact_pair_key(c));
    }
    qsort(out->keys, (size_t)out->count, sizeof(uint64_t), compare_u64);
    for (int i = 1; i < out->count; ++i) {
        cr_assert_neq(out->keys[i], out->keys[i - 1], "%s: pair (%d, %d) has two contacts", where,
                      (int)(out->keys[i] >> 32), (int)(out->keys[i] & 0xffffffffu));
    }
}

static void describe_pair(const carom_world* w, const snapshot* s, uint64_t key, char* text,
                          size_t size) {
    int a = (int)(key >> 32);
    int b = (int)(key & 0xffffffffu);
    const carom_aabb* ba = &s->proxies[a].fat_aabb;
    const carom_aabb* bb = &s->proxies[b].fat_aabb;
    snprintf(text, size,
             "shapes %d (body %d, type %d, fat [%.17g %.17g .. %.17g %.17g]) and %d (body %d, "
             "type %d, fat [%.17g %.17g .. %.17g %.17g])",
             a, w->shapes[a].body, (int)w->bodies[w->shapes[a].body].type, ba->lower.x,
             ba->lower.y, ba->upper.x, ba->upper.y, b, w->shapes[b].body,
             (int)w->bodies[w->shapes[b].body].type, bb->lower.x, bb->lower.y, bb->upper.x,
             bb->upper.y);
}

/* Assert that the contacts equal the brute-force pairs over the snapshot. */
static void assert_pairs_equal(const carom_world* w, const snapshot* s, const key_list* got,
                               const key_list* expected, const char* where) {
    int i = 0;
    int j = 0;
    char text[512];
    while (i < got->count || j < expected->count) {
        if (i < got->count && j < expected->count && got->keys[i] == expected->keys[j]) {
            ++i;
            ++j;
            continue;
        }
        int missing = i >= got->count || (j < expected->count && expected->keys[j] < got->keys[i]);
        uint64_t key = missing ? expected->keys[j] : got->keys[i];
        describe_pair(w, s, key, text, sizeof(text));
        cr_assert_fail("%s: %s %s (engine has %d contacts, brute force %d pairs)", where,
                       missing ? "no contact for overlapping pair" : "contact for a pair that "
                                                                     "brute force rejects",
                       text, got->count, expected->count);
    }
}

/* Step once and check the contacts against the brute force over the boxes before the step. */
static void step_and_check(carom_world_id id, double dt, snapshot* s, key_list* got,
                           key_list* expected, rejections* rejected, const char* where) {
    carom_world* w = carom_get_world_checked(id);
    cr_assert_not_null(w);
    take_snapshot(s, w);
    cr_assert_eq(carom_world_step(id, dt), CAROM_OK, "%s: step failed: %s", where,
                 carom_last_error());
    brute_force_pairs(w, s, expected, rejected);
    contact_pairs(w, got, where);
    assert_pairs_equal(w, s, got, expected, where);
    cr_assert_eq(carom_world_get_counters(id).contact_count, got->count,
                 "%s: contact counter disagrees with the live contacts", where);
}

/* ---- Random scenes ---------------------------------------------------------------------------- */

/* A convex polygon: 3..8 points on an ellipse at jittered angles, so the hull keeps them all. */
static carom_polygon random_polygon(rng* r, carom_vec2 center, double size) {
    int count = 3 + rng_int(r, 6);
    double sx = size * rng_uniform(r, 0.6, 1.0);
    double sy = size * rng_uniform(r, 0.6, 1.0);
    double turn = rng_uniform(r, -CAROM_PI, CAROM_PI);
    carom_rot q = carom_make_rot(turn);
    carom_vec2 points[CAROM_MAX_POLYGON_VERTICES];
    for (int i = 0; i < count; ++i) {
        double angle = 2.0 * CAROM_PI * (i + rng_uniform(r, -0.25, 0.25)) / count;
        carom_rot a = carom_make_rot(angle);
        carom_vec2 p = carom_v2(sx * a.c, sy * a.s);
        points[i] = carom_add(center, carom_rotate(q, p));
    }
    carom_polygon polygon;
    if (carom_make_polygon(points, count, &polygon) != CAROM_OK) {
        cr_assert_eq(carom_make_box(0.5 * size, 0.5 * size, center, turn, &polygon), CAROM_OK);
    }
    return polygon;
}

static carom_shape_def random_shape_def(rng* r) {
    carom_shape_def def = carom_default_shape_def();
    def.friction = rng_uniform(r, 0.0, 1.0);
    def.restitution = rng_uniform(r, 0.0, 0.5);
    int kind = rng_int(r, 12);
    if (kind == 0 || kind == 1) {
        /* Categories and masks over three bits, some masks excluding everything. */
        def.filter.category = (uint64_t)1 << rng_int(r, 3);
        def.filter.mask = rng_next(r) & 7u;
    } else if (kind == 2) {
        def.filter.group = rng_int(r, 2) ? -1 - rng_int(r, 2) : 1 + rng_int(r, 2);
    } else if (kind == 3) {
        /* A group together with a category and mask: the group decides within it. */
        def.filter.group = rng_int(r, 2) ? -1 : 1;
        def.filter.category = (uint64_t)1 << rng_int(r, 3);
        def.filter.mask = rng_next(r) & 7u;
    }
    return def;
}

static void add_random_shape(rng* r, carom_body_id body, carom_vec2 offset) {
    carom_shape_def def = random_shape_def(r);
    carom_shape_id shape;
    int kind = rng_int(r, 3);
    double size = rng_uniform(r, 0.1, 0.7);
    if (kind == 0) {
        carom_circle circle = {offset, size};
        shape = carom_create_circle_shape(body, &def, &circle);
    } else if (kind == 1) {
        shape = carom_create_box_shape(body, &def, size, rng_uniform(r, 0.1, 0.7), offset,
                                       rng_uniform(r, -CAROM_PI, CAROM_PI));
    } else {
        carom_polygon polygon = random_polygon(r, offset, size);
        shape = carom_create_polygon_shape(body, &def, &polygon);
    }
    cr_assert(carom_shape_is_valid(shape), "shape creation failed: %s", carom_last_error());
}

static carom_body_id make_body(carom_world_id world, carom_body_type type, carom_vec2 p,
                               double angle, carom_vec2 v, double w) {
    carom_body_def def = carom_default_body_def();
    def.type = type;
    def.position = p;
    def.angle = angle;
    if (type != CAROM_BODY_STATIC) {
        def.linear_velocity = v;
        def.angular_velocity = w;
    }
    carom_body_id body = carom_create_body(world, &def);
    cr_assert(carom_body_is_valid(body), "body creation failed: %s", carom_last_error());
    return body;
}

typedef struct scene_info {
    int ground_shape;   /* the big static box, expected on the large list */
    int platform_shape; /* a long kinematic platform, large and moving */
} scene_info;

/* A random scene of exactly shape_count shapes in [-half_width, half_width] x [-20, 14]:
 * a large static ground box, a long kinematic platform, static segments, then bodies of one to
 * three shapes, about 6% static, 10% kinematic, the rest dynamic, with random velocities. */
static scene_info build_random_scene(carom_world_id world, rng* r, int shape_count,
                                     double half_width) {
    scene_info info;
    int shapes = 0;
    carom_shape_def plain = carom_default_shape_def();

    carom_body_id ground = make_body(world, CAROM_BODY_STATIC, carom_v2(0.0, -22.0), 0.0,
                                     carom_v2(0.0, 0.0), 0.0);
    carom_shape_id ground_shape =
        carom_create_box_shape(ground, &plain, 150.0, 1.0, carom_v2(0.0, 0.0), 0.0);
    info.ground_shape = ground_shape.index1 - 1;
    shapes += 1;

    double platform_angle = rng_uniform(r, -0.1, 0.1);
    double platform_vx = rng_uniform(r, -1.0, 1.0);
    double platform_spin = rng_uniform(r, -0.05, 0.05);
    carom_body_id platform = make_body(world, CAROM_BODY_KINEMATIC, carom_v2(0.0, 10.0),
                                       platform_angle, carom_v2(platform_vx, -1.0), platform_spin);
    /* 300 m long: more than CAROM_LARGE_PROXY_CELLS cells in one row for any cell size the
     * engine picks here, whatever its tilt (at 80 m it sat on the threshold) */
    carom_shape_id platform_shape =
        carom_create_box_shape(platform, &plain, 150.0, 0.25, carom_v2(0.0, 0.0), 0.0);
    info.platform_shape = platform_shape.index1 - 1;
    shapes += 1;

    for (int k = 0; k < 2; ++k) {
        carom_body_id walls = make_body(world, CAROM_BODY_STATIC, carom_v2(0.0, 0.0), 0.0,
                                        carom_v2(0.0, 0.0), 0.0);
        for (int m = 0; m < 2; ++m) {
            carom_vec2 a = carom_v2(rng_uniform(r, -half_width, half_width),
                                    rng_uniform(r, -20.0, 14.0));
            double length = rng_uniform(r, 3.0, 20.0);
            carom_rot dir = carom_make_rot(m == 0 ? 0.0 : rng_uniform(r, -CAROM_PI, CAROM_PI));
            carom_segment segment = {a, carom_add(a, carom_v2(length * dir.c, length * dir.s))};
            carom_shape_id id = carom_create_segment_shape(walls, &plain, &segment);
            cr_assert(carom_shape_is_valid(id), "segment failed: %s", carom_last_error());
            shapes += 1;
        }
    }

    while (shapes < shape_count) {
        double roll = rng_uniform(r, 0.0, 1.0);
        carom_body_type type = roll < 0.06   ? CAROM_BODY_STATIC
                               : roll < 0.16 ? CAROM_BODY_KINEMATIC
                                             : CAROM_BODY_DYNAMIC;
        double speed = type == CAROM_BODY_KINEMATIC ? 3.0 : 6.0;
        carom_vec2 position = rng_vec2(r, -half_width, half_width, -20.0, 14.0);
        double angle = rng_uniform(r, -CAROM_PI, CAROM_PI);
        carom_vec2 velocity = rng_vec2(r, -speed, speed, -speed, speed);
        double spin = rng_uniform(r, -3.0, 3.0);
        carom_body_id body = make_body(world, type, position, angle, velocity, spin);
        int count = rng_int(r, 10) < 7 ? 1 : 2 + rng_int(r, 2);
        if (count > shape_count - shapes) {
            count = shape_count - shapes;
        }
        for (int k = 0; k < count; ++k) {
            carom_vec2 offset = count == 1 ? carom_v2(0.0, 0.0)
                                           : carom_v2(rng_uniform(r, -0.8, 0.8),
                                                      rng_uniform(r, -0.8, 0.8));
            add_random_shape(r, body, offset);
        }
        shapes += count;
    }
    cr_assert_eq(carom_world_get_counters(world).shape_count, shape_count);
    return info;
}

static double now_seconds(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- The grid against brute force ------------------------------------------------------------- */

Test(broad_phase, pairs_match_brute_force_on_random_scenes, .timeout = 280.0) {
    const int scene_count = 20;
    const int shape_count = 1000;
    const int step_count = 100;
    double start = now_seconds();
    snapshot s = {NULL, 0, 0};
    key_list got = {NULL, 0, 0};
    key_list expected = {NULL, 0, 0};
    key_list previous = {NULL, 0, 0};
    char where[96];
    for (int scene = 0; scene < scene_count; ++scene) {
        rng r = rng_make(1000u + (uint64_t)scene);
        /* Half the scenes drift in zero gravity, half fall onto the ground. */
        carom_vec2 gravity = scene % 2 == 0 ? carom_v2(0.0, 0.0) : carom_v2(0.0, -10.0);
        carom_world_id id = test_make_world(gravity);
        carom_world* w = carom_get_world_checked(id);
        scene_info info = build_random_scene(id, &r, shape_count, 30.0);
        rejections rejected = {0, 0, 0};
        int max_contacts = 0;
        int pairs_begun = 0;
        int pairs_ended = 0;
        previous.count = 0;
        for (int step = 0; step < step_count; ++step) {
            snprintf(where, sizeof(where), "scene %d step %d", scene, step);
            step_and_check(id, 1.0 / 60.0, &s, &got, &expected, &rejected, where);
            if (step == 0) {
                /* The scene exercises both kinds of placement. */
                cr_assert_geq(w->broad_phase.proxies[info.ground_shape].large_slot, 0,
                              "the ground is not on the large list");
                cr_assert_geq(w->broad_phase.proxies[info.platform_shape].large_slot, 0,
                              "the platform is not on the large list");
            }
            /* Count pairs that began and ended, from the sorted lists of consecutive steps. */
            int i = 0;
            int j = 0;
            while (i < got.count || j < previous.count) {
                if (i < got.count && j < previous.count && got.keys[i] == previous.keys[j]) {
                    ++i;
                    ++j;
                } else if (j >= previous.count ||
                           (i < got.count && got.keys[i] < previous.keys[j])) {
                    ++pairs_begun;
                    ++i;
                } else {
                    ++pairs_ended;
                    ++j;
                }
            }
            if (got.count > max_contacts) {
                max_contacts = got.count;
            }
            key_list swap = previous;
            previous = got;
            got = swap;
        }
        /* The scene is busy enough to test something: many pairs, some coming and going. */
        cr_assert_gt(max_contacts, 500, "scene %d: only %d contacts", scene, max_contacts);
        cr_assert_gt(pairs_ended, 1000, "scene %d: only %d pairs ended", scene, pairs_ended);
        cr_assert_gt(pairs_begun, max_contacts, "scene %d: only %d pairs began", scene,
                     pairs_begun);
        /* And every may-pair rule turns some overlapping pairs away. */
        cr_assert(rejected.same_body > 0 && rejected.no_dynamic > 0 && rejected.filtered > 0,
                  "scene %d: rejected %ld same-body, %ld without a dynamic body, %ld filtered",
                  scene, rejected.same_body, rejected.no_dynamic, rejected.filtered);
        carom_destroy_world(id);
    }
    snapshot_free(&s);
    key_list_free(&got);
    key_list_free(&expected);
    key_list_free(&previous);
    cr_log_info("brute-force check of %d scenes x %d shapes x %d steps took %.2f s", scene_count,
                shape_count, step_count, now_seconds() - start);
}

Test(broad_phase, every_fat_box_contains_its_shapes_tight_box_after_each_step) {
    rng r = rng_make(77u);
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    carom_world* w = carom_get_world_checked(id);
    build_random_scene(id, &r, 300, 15.0);
    for (int step = 0; step < 60; ++step) {
        test_step(id, 1.0 / 60.0, 1);
        for (int i = 0; i < (int)arrlen(w->shapes); ++i) {
            if (w->shapes[i].id < 0) {
                continue;
            }
            cr_assert(carom_aabb_contains(w->broad_phase.proxies[i].fat_aabb, w->shapes[i].aabb),
                      "step %d: shape %d left its fat box", step, i);
        }
    }
    carom_destroy_world(id);
}

/* ---- No duplicates, deterministic order ------------------------------------------------------- */

Test(broad_phase, a_pair_found_in_many_shared_cells_gets_one_contact) {
    /* Tiny cells: every shape covers up to 64 cells, so each pair is found from many cells. */
    carom_world_def def = carom_default_world_def();
    def.cell_size = 0.2;
    def.gravity = carom_v2(0.0, 0.0);
    carom_world_id id = carom_create_world(&def);
    carom_world* w = carom_get_world_checked(id);
    cr_assert_not_null(w);
    rng r = rng_make(5u);
    build_random_scene(id, &r, 300, 6.0);
    snapshot s = {NULL, 0, 0};
    key_list got = {NULL, 0, 0};
    key_list expected = {NULL, 0, 0};
    rejections rejected = {0, 0, 0};
    char where[64];
    for (int step = 0; step < 30; ++step) {
        snprintf(where, sizeof(where), "step %d", step);
        /* contact_pairs fails on a duplicate; the comparison on a missing or extra pair. */
        step_and_check(id, 1.0 / 60.0, &s, &got, &expected, &rejected, where);
        for (int i = 0; i < got.count; ++i) {
            int contact = carom_hash_map_get(&w->pair_map, got.keys[i]);
            cr_assert_geq(contact, 0, "%s: pair map lost a contact", where);
            cr_assert_eq(carom_contact_pair_key(&w->contacts[contact]), got.keys[i]);
        }
        cr_assert_eq(w->pair_map.count, got.count, "%s: pair map has stale keys", where);
    }
    cr_assert_gt(got.count, 100);
    snapshot_free(&s);
    key_list_free(&got);
    key_list_free(&expected);
    carom_destroy_world(id);
}

Test(broad_phase, new_contacts_are_created_in_ascending_pair_key_order) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    carom_world* w = carom_get_world_checked(id);
    rng r = rng_make(9u);
    build_random_scene(id, &r, 400, 12.0);
    test_step(id, 1.0 / 60.0, 1);
    /* A fresh world's contact pool hands out ids 0, 1, 2, ... in creation order, and no contact
     * ends in the first step, so slot order is creation order. */
    int count = (int)arrlen(w->contacts);
    cr_assert_gt(count, 100);
    for (int i = 0; i < count; ++i) {
        cr_assert_eq(w->contacts[i].id, i);
        if (i > 0) {
            cr_assert_lt(carom_contact_pair_key(&w->contacts[i - 1]),
                         carom_contact_pair_key(&w->contacts[i]),
                         "contact %d was created before a lower pair key", i);
        }
    }
    carom_destroy_world(id);
}

Test(broad_phase, identical_worlds_have_identical_contact_arrays_after_each_step) {
    carom_world_id ids[2];
    carom_world* worlds[2];
    for (int k = 0; k < 2; ++k) {
        ids[k] = test_make_world(carom_v2(0.0, -10.0));
        worlds[k] = carom_get_world_checked(ids[k]);
        rng r = rng_make(31u);
        build_random_scene(ids[k], &r, 600, 20.0);
    }
    for (int step = 0; step < 60; ++step) {
        test_step(ids[0], 1.0 / 60.0, 1);
        test_step(ids[1], 1.0 / 60.0, 1);
        const carom_contact* a = worlds[0]->contacts;
        const carom_contact* b = worlds[1]->contacts;
        cr_assert_eq(arrlen(a), arrlen(b), "step %d: contact arrays differ in length", step);
        for (int i = 0; i < (int)arrlen(a); ++i) {
            cr_assert(a[i].id == b[i].id && a[i].shape_a == b[i].shape_a &&
                          a[i].shape_b == b[i].shape_b && a[i].point_count == b[i].point_count,
                      "step %d slot %d: (%d: %d, %d) vs (%d: %d, %d)", step, i, a[i].id,
                      a[i].shape_a, a[i].shape_b, b[i].id, b[i].shape_a, b[i].shape_b);
        }
    }
    cr_assert_gt(arrlen(worlds[0]->contacts), 100);
    carom_destroy_world(ids[0]);
    carom_destroy_world(ids[1]);
}

/* ---- Far away, and spanning many cells -------------------------------------------------------- */

/* A row of touching balls centered at (x0, y0), 0.9 m apart: each overlaps only its neighbours.
 * Checks the exact contact list after one step. */
static void check_row_of_balls_at(double x0, double y0) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    const int count = 12;
    int shapes[12];
    for (int i = 0; i < count; ++i) {
        test_make_ball(id, carom_v2(x0 + 0.9 * i, y0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
        shapes[i] = i;
    }
    /* A ball near the origin must not pair with the far ones. */
    test_make_ball(id, carom_v2(0.0, 0.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    snapshot s = {NULL, 0, 0};
    key_list got = {NULL, 0, 0};
    key_list expected = {NULL, 0, 0};
    rejections rejected = {0, 0, 0};
    step_and_check(id, 1.0 / 60.0, &s, &got, &expected, &rejected, "far row");
    cr_assert_eq(got.count, count - 1, "at (%g, %g): %d contacts, expected %d", x0, y0,
                 got.count, count - 1);
    for (int i = 0; i + 1 < count; ++i) {
        cr_assert_eq(got.keys[i], carom_pair_key(shapes[i], shapes[i + 1]),
                     "at (%g, %g): contact %d is not between neighbours", x0, y0, i);
    }
    cr_assert_gt(carom_world_get_counters(id).touching_count, 0);
    snapshot_free(&s);
    key_list_free(&got);
    key_list_free(&expected);
    carom_destroy_world(id);
}

Test(broad_phase, shapes_ten_million_metres_from_the_origin_get_correct_pairs) {
    check_row_of_balls_at(1e7, 1e7);
    check_row_of_balls_at(-1e7, 3e6);
    check_row_of_balls_at(2e6, -1e7);
}

Test(broad_phase, shapes_beyond_the_grid_coordinate_limit_get_correct_pairs) {
    /* Cell coordinates are clamped near 2^30 cells (about 2.6e9 m with these 2.4 m cells). */
    check_row_of_balls_at(1e10, -1e10);
}

Test(broad_phase, shapes_spanning_many_cells_get_correct_pairs) {
    carom_world_def def = carom_default_world_def();
    def.cell_size = 0.5;
    def.gravity = carom_v2(0.0, 0.0);
    carom_world_id id = carom_create_world(&def);
    carom_world* w = carom_get_world_checked(id);
    cr_assert_not_null(w);
    carom_shape_def plain = carom_default_shape_def();
    /* Fat box 3.7 m square: 8 x 8 = 64 cells, the most that still goes into cells. */
    carom_body_id in_cells = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(-6.0, 0.1), 0.0,
                                       carom_v2(0.5, 0.2), 0.8);
    carom_create_box_shape(in_cells, &plain, 1.75, 1.75, carom_v2(0.0, 0.0), 0.0);
    /* Fat box 12.2 m x 2.2 m: far over 64 cells, so it goes on the large list while moving. */
    carom_body_id large = make_body(id, CAROM_BODY_DYNAMIC, carom_v2(6.0, 0.0), 0.0,
                                    carom_v2(-0.3, 0.4), -0.5);
    carom_create_box_shape(large, &plain, 6.0, 1.0, carom_v2(0.0, 0.0), 0.0);
    rng r = rng_make(21u);
    for (int i = 0; i < 150; ++i) {
        carom_vec2 position = rng_vec2(&r, -14.0, 14.0, -7.0, 7.0);
        carom_vec2 velocity = rng_vec2(&r, -2.0, 2.0, -2.0, 2.0);
        carom_body_id body = make_body(id, CAROM_BODY_DYNAMIC, position, 0.0, velocity, 0.0);
        carom_circle circle = {{0.0, 0.0}, rng_uniform(&r, 0.1, 0.3)};
        carom_create_circle_shape(body, &plain, &circle);
    }
    snapshot s = {NULL, 0, 0};
    key_list got = {NULL, 0, 0};
    key_list expected = {NULL, 0, 0};
    rejections rejected = {0, 0, 0};
    char where[64];
    int pairs_with_big = 0;
    for (int step = 0; step < 90; ++step) {
        snprintf(where, sizeof(where), "step %d", step);
        step_and_check(id, 1.0 / 60.0, &s, &got, &expected, &rejected, where);
        if (step == 0) {
            const carom_proxy* p0 = &w->broad_phase.proxies[0];
            cr_assert_eq(p0->large_slot, -1);
            cr_assert_eq((p0->x1 - p0->x0 + 1) * (p0->y1 - p0->y0 + 1), 64,
                         "the in-cells box covers %d cells",
                         (p0->x1 - p0->x0 + 1) * (p0->y1 - p0->y0 + 1));
            cr_assert_geq(w->broad_phase.proxies[1].large_slot, 0);
        }
        for (int i = 0; i < got.count; ++i) {
            pairs_with_big += (got.keys[i] >> 32) <= 1u;
        }
    }
    cr_assert_gt(pairs_with_big, 100);
    snapshot_free(&s);
    key_list_free(&got);
    key_list_free(&expected);
    carom_destroy_world(id);
}

/* ---- Cell size ------------------------------------------------------------------------------------ */

Test(broad_phase, cell_size_is_zero_until_the_first_step_then_positive) {
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(id, 0.0, 0.6, 0.0);
    test_make_ball(id, carom_v2(0.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    cr_assert_eq(carom_world_get_cell_size(id), 0.0);
    test_step(id, 1.0 / 60.0, 1);
    double size = carom_world_get_cell_size(id);
    cr_assert_gt(size, 0.0);
    /* Chosen once: later steps and new shapes do not change it. */
    test_make_box(id, carom_v2(3.0, 2.0), 4.0, 4.0, 0.0, 0.6, 0.0);
    test_step(id, 1.0 / 60.0, 5);
    cr_assert_eq(carom_world_get_cell_size(id), size);
    carom_destroy_world(id);
}

Test(broad_phase, chosen_cell_size_is_twice_the_mean_fat_extent_of_moving_shapes) {
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    /* Static shapes do not count, however big. */
    test_make_ground(id, 0.0, 0.6, 0.0);
    /* Fat extents, the tight box plus 0.1 m a side rounded outward to 1/32 m: ball r 0.5 at
     * x = -5 spans [-5.625, -4.375] -> 1.25; ball r 1 -> [-1.125, 1.125] -> 2.25; box 2 x 0.5
     * at x = 5 -> [2.875, 7.125] -> 4.25. */
    test_make_ball(id, carom_v2(-5.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    test_make_ball(id, carom_v2(0.0, 2.0), 1.0, carom_v2(0.0, 0.0), 0.6, 0.0);
    test_make_box(id, carom_v2(5.0, 2.0), 2.0, 0.5, 0.0, 0.6, 0.0);
    test_step(id, 1.0 / 60.0, 1);
    double expected = 2.0 * (1.25 + 2.25 + 4.25) / 3.0;
    cr_assert_float_eq(carom_world_get_cell_size(id), expected, 1e-12, "cell size %.17g",
                       carom_world_get_cell_size(id));
    carom_destroy_world(id);
}

Test(broad_phase, a_world_with_only_static_shapes_chooses_one_metre_cells) {
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(id, 0.0, 0.6, 0.0);
    test_step(id, 1.0 / 60.0, 1);
    cr_assert_eq(carom_world_get_cell_size(id), 1.0);
    carom_destroy_world(id);
}

Test(broad_phase, a_user_cell_size_is_kept) {
    carom_world_def def = carom_default_world_def();
    def.cell_size = 3.0;
    carom_world_id id = carom_create_world(&def);
    cr_assert(carom_world_is_valid(id));
    test_make_ground(id, 0.0, 0.6, 0.0);
    test_make_ball(id, carom_v2(0.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    cr_assert_eq(carom_world_get_cell_size(id), 3.0);
    test_step(id, 1.0 / 60.0, 10);
    cr_assert_eq(carom_world_get_cell_size(id), 3.0);
    carom_destroy_world(id);
}

/* ---- Destruction ---------------------------------------------------------------------------------- */

/* The live body whose shapes take part in the most contacts, among bodies with several shapes. */
static int busiest_multi_shape_body(const carom_world* w) {
    int best = -1;
    int best_count = 0;
    for (int b = 0; b < (int)arrlen(w->bodies); ++b) {
        if (w->bodies[b].id < 0 || w->bodies[b].shape_count < 2) {
            continue;
        }
        if (w->bodies[b].contact_count > best_count) {
            best = b;
            best_count = w->bodies[b].contact_count;
        }
    }
    return best;
}

static int contacts_touching_body(const carom_world* w, int body) {
    int count = 0;
    for (int i = 0; i < (int)arrlen(w->contacts); ++i) {
        const carom_contact* c = &w->contacts[i];
        if (c->id >= 0 &&
            (w->shapes[c->shape_a].body == body || w->shapes[c->shape_b].body == body)) {
            count += 1;
        }
    }
    return count;
}

static carom_body_id body_id_of(const carom_world* w, int body) {
    carom_body_id id = {body + 1, w->bodies[body].generation, w->index, w->generation};
    return id;
}

Test(broad_phase, destroying_a_body_removes_its_contacts_and_lowers_the_counters) {
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    carom_world* w = carom_get_world_checked(id);
    rng r = rng_make(3u);
    build_random_scene(id, &r, 400, 10.0);
    test_step(id, 1.0 / 60.0, 3);
    int body = busiest_multi_shape_body(w);
    cr_assert_geq(body, 0);
    int shapes[3];
    int shape_count = 0;
    for (int s = w->bodies[body].first_shape; s >= 0; s = w->shapes[s].next_shape) {
        shapes[shape_count++] = s;
    }
    int dropped = contacts_touching_body(w, body);
    cr_assert_gt(dropped, 0);
    carom_world_counters before = carom_world_get_counters(id);

    cr_assert_eq(carom_destroy_body(body_id_of(w, body)), CAROM_OK);

    carom_world_counters after = carom_world_get_counters(id);
    cr_assert_eq(after.body_count, before.body_count - 1);
    cr_assert_eq(after.shape_count, before.shape_count - shape_count);
    cr_assert_eq(after.contact_count, before.contact_count - dropped);
    for (int i = 0; i < (int)arrlen(w->contacts); ++i) {
        const carom_contact* c = &w->contacts[i];
        if (c->id < 0) {
            continue;
        }
        for (int k = 0; k < shape_count; ++k) {
            cr_assert(c->shape_a != shapes[k] && c->shape_b != shapes[k],
                      "contact %d still refers to destroyed shape %d", i, shapes[k]);
        }
        cr_assert_eq(carom_hash_map_get(&w->pair_map, carom_contact_pair_key(c)), i);
    }
    cr_assert_eq(w->pair_map.count, after.contact_count);
    carom_destroy_world(id);
}

Test(broad_phase, destroying_a_body_removes_its_proxies_from_cells_and_the_large_list) {
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    carom_world* w = carom_get_world_checked(id);
    rng r = rng_make(4u);
    scene_info info = build_random_scene(id, &r, 400, 10.0);
    test_step(id, 1.0 / 60.0, 3);
    int body = busiest_multi_shape_body(w);
    cr_assert_geq(body, 0);
    int ground_body = w->shapes[info.ground_shape].body;
    int gone[4];
    int gone_count = 0;
    for (int s = w->bodies[body].first_shape; s >= 0; s = w->shapes[s].next_shape) {
        gone[gone_count++] = s;
    }
    gone[gone_count++] = info.ground_shape;
    int large_before = (int)arrlen(w->broad_phase.large_proxies);

    cr_assert_eq(carom_destroy_body(body_id_of(w, body)), CAROM_OK);
    cr_assert_eq(carom_destroy_body(body_id_of(w, ground_body)), CAROM_OK);

    const carom_broad_phase* bp = &w->broad_phase;
    cr_assert_eq((int)arrlen(bp->large_proxies), large_before - 1);
    for (int k = 0; k < gone_count; ++k) {
        cr_assert_not(bp->proxies[gone[k]].alive, "proxy %d is still alive", gone[k]);
        for (int i = 0; i < (int)arrlen(bp->large_proxies); ++i) {
            cr_assert_neq(bp->large_proxies[i], gone[k]);
        }
        for (int c = 0; c < (int)arrlen(bp->cells); ++c) {
            for (int i = 0; i < (int)arrlen(bp->cells[c].proxies); ++i) {
                cr_assert_neq(bp->cells[c].proxies[i], gone[k], "cell %d still lists shape %d",
                              c, gone[k]);
            }
        }
    }
    /* The large list's back-references stay right after the swap-remove. */
    for (int i = 0; i < (int)arrlen(bp->large_proxies); ++i) {
        cr_assert_eq(bp->proxies[bp->large_proxies[i]].large_slot, i);
    }
    /* And the grid still answers exactly afterwards. */
    snapshot s = {NULL, 0, 0};
    key_list got = {NULL, 0, 0};
    key_list expected = {NULL, 0, 0};
    rejections rejected = {0, 0, 0};
    char where[64];
    for (int step = 0; step < 20; ++step) {
        snprintf(where, sizeof(where), "after destruction, step %d", step);
        step_and_check(id, 1.0 / 60.0, &s, &got, &expected, &rejected, where);
    }
    snapshot_free(&s);
    key_list_free(&got);
    key_list_free(&expected);
    carom_destroy_world(id);
}

Test(broad_phase, shape_ids_reused_before_the_next_step_get_correct_pairs) {
    /* Destroyed shapes leave stale entries in the moved list; new shapes take their ids (LIFO)
     * before the next pair update. */
    carom_world_id id = test_make_world(carom_v2(0.0, -10.0));
    carom_world* w = carom_get_world_checked(id);
    rng r = rng_make(8u);
    build_random_scene(id, &r, 300, 8.0);
    snapshot s = {NULL, 0, 0};
    key_list got = {NULL, 0, 0};
    key_list expected = {NULL, 0, 0};
    rejections rejected = {0, 0, 0};
    char where[64];
    int reused = 0;
    for (int round = 0; round < 10; ++round) {
        /* Move some bodies (their proxies go on the moved list), then destroy a few of them and
         * some others, then create bodies in their place. */
        for (int k = 0; k < 20; ++k) {
            int b = rng_int(&r, (int)arrlen(w->bodies));
            if (w->bodies[b].id >= 0 && w->bodies[b].type != CAROM_BODY_STATIC) {
                carom_body_set_transform(body_id_of(w, b),
                                         carom_v2(rng_uniform(&r, -8.0, 8.0),
                                                  rng_uniform(&r, -20.0, 14.0)),
                                         0.3);
            }
        }
        int freed_before = (int)arrlen(w->shape_pool.free_ids);
        for (int k = 0; k < 8; ++k) {
            int b = 4 + rng_int(&r, (int)arrlen(w->bodies) - 4);
            if (w->bodies[b].id >= 0) {
                carom_destroy_body(body_id_of(w, b));
            }
        }
        int freed = (int)arrlen(w->shape_pool.free_ids) - freed_before;
        for (int k = 0; k < 8; ++k) {
            carom_vec2 position = rng_vec2(&r, -8.0, 8.0, -20.0, 14.0);
            carom_body_id body =
                make_body(id, CAROM_BODY_DYNAMIC, position, 0.0, carom_v2(0.0, 0.0), 0.0);
            add_random_shape(&r, body, carom_v2(0.0, 0.0));
        }
        reused += freed < 8 ? freed : 8;
        for (int step = 0; step < 3; ++step) {
            snprintf(where, sizeof(where), "round %d step %d", round, step);
            step_and_check(id, 1.0 / 60.0, &s, &got, &expected, &rejected, where);
        }
    }
    cr_assert_gt(reused, 20);
    snapshot_free(&s);
    key_list_free(&got);
    key_list_free(&expected);
    carom_destroy_world(id);
}

/* The bytes the engine holds, counted through the allocator hook: each block carries its size
 * in a header in front of it. */
typedef struct live_bytes {
    size_t now;
} live_bytes;

#define SIZE_HEADER 16 /* keeps the block's alignment that of malloc on every target */

static void* tracking_realloc(void* user, void* pointer, size_t size) {
    live_bytes* live = user;
    unsigned char* block = pointer != NULL ? (unsigned char*)pointer - SIZE_HEADER : NULL;
    size_t old_size = 0;
    if (block != NULL) {
        memcpy(&old_size, block, sizeof old_size);
    }
    if (size == 0) {
        live->now -= old_size;
        free(block);
        return NULL;
    }
    unsigned char* grown = realloc(block, size + SIZE_HEADER);
    cr_assert_not_null(grown);
    memcpy(grown, &size, sizeof size);
    live->now = live->now - old_size + size;
    return grown + SIZE_HEADER;
}

/* 50 balls flying apart at 100 m/s in an empty world for 100,000 steps (28 min at 60 Hz, 166 km
 * apart at the end): the grid holds the cells the balls cover now, not every cell they crossed,
 * so the engine's memory stays within twice what it was at step 1,000 (it grew to 633 MB when
 * the grid kept every cell). */
Test(broad_phase, memory_does_not_grow_with_distance_travelled) {
    live_bytes live = {0};
    carom_set_allocator(tracking_realloc, &live);
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    for (int i = 0; i < 50; ++i) {
        double angle = 2.0 * 3.14159265358979 * i / 50.0;
        carom_vec2 direction = {cos(angle), sin(angle)};
        test_make_ball(world, carom_scale(5.0, direction), 0.25, carom_scale(100.0, direction),
                       0.6, 0.5);
    }
    size_t at_1000 = 0, most = 0;
    for (int step = 1; step <= 100000; ++step) {
        cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);
        if (step == 1000) {
            at_1000 = live.now;
        }
        if (step >= 1000 && live.now > most) {
            most = live.now;
        }
    }
    carom_destroy_world(world);
    carom_set_allocator(NULL, NULL);
    cr_log_info("engine memory: %zu bytes at step 1,000, at most %zu bytes after", at_1000, most);
    cr_assert_leq(most, 2 * at_1000, "engine memory grew from %zu bytes at step 1,000 to %zu",
                  at_1000, most);
}

/* The shapes of static and kinematic bodies whose fat boxes overlap `box`, ascending, by brute
 * force over the proxies: what carom_broad_phase_query_fixed must answer. */
static int brute_force_fixed(const carom_broad_phase* bp, carom_aabb box, int* out, int room) {
    int count = 0;
    for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
        const carom_proxy* proxy = &bp->proxies[i];
        if (proxy->placed && proxy->body_type != CAROM_BODY_DYNAMIC &&
            carom_aabb_overlaps(proxy->fat_aabb, box) && count < room) {
            out[count++] = i;
        }
    }
    return count;
}

/* Cells count their static and kinematic shapes so that a query for those skips cells of
 * dynamic ones only; a body whose type changes while its shapes stay in the same cells must
 * be counted again, or a sweep would miss it (or find it after it turned dynamic). */
Test(broad_phase, queries_for_fixed_shapes_follow_body_type_changes) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id boxes[16];
    for (int i = 0; i < 16; ++i) {
        boxes[i] = test_make_box(id, carom_v2(1.5 * (i % 4), 1.5 * (i / 4)), 1.0, 1.0, 0.0,
                                 0.6, 0.0);
    }
    test_step(id, 1.0 / 60.0, 1);
    carom_world* w = carom_get_world_checked(id);
    carom_body_type order[4] = {CAROM_BODY_STATIC, CAROM_BODY_KINEMATIC, CAROM_BODY_DYNAMIC,
                                CAROM_BODY_STATIC};
    int* got = NULL;
    int expected[64];
    for (int round = 0; round < 4; ++round) {
        for (int i = round % 2; i < 16; i += 2) {
            cr_assert_eq(carom_body_set_type(boxes[i], order[(round + i) % 4]), CAROM_OK);
        }
        for (int qx = -1; qx < 6; ++qx) {
            for (int qy = -1; qy < 6; ++qy) {
                carom_aabb box = {{qx - 0.3, qy - 0.3}, {qx + 0.4, qy + 0.4}};
                carom_broad_phase_query_fixed(&w->broad_phase, box, &got);
                int count = brute_force_fixed(&w->broad_phase, box, expected, 64);
                cr_assert_eq((int)arrlen(got), count, "round %d, query at (%d, %d)", round, qx,
                             qy);
                for (int k = 0; k < count; ++k) {
                    cr_assert_eq(got[k], expected[k], "round %d, query at (%d, %d)", round, qx,
                                 qy);
                }
            }
        }
        test_step(id, 1.0 / 60.0, 1);
    }
    arrfree(got);
    carom_destroy_world(id);
}

/* A moved shape whose mask meets no category any shape has had is not queried
 * (broad_phase.c's may_pair_with_any): the pairs it may form must still appear as soon as a
 * shape of a category it accepts is created, or its own filter changes. */
static carom_shape_id filtered_box(carom_world_id world, carom_vec2 p, uint64_t category,
                                   uint64_t mask) {
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = p;
    carom_body_id body = carom_create_body(world, &body_def);
    carom_shape_def def = carom_default_shape_def();
    def.filter.category = category;
    def.filter.mask = mask;
    carom_shape_id shape = carom_create_box_shape(body, &def, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
    cr_assert(carom_shape_is_valid(shape), "%s", carom_last_error());
    return shape;
}

Test(broad_phase, shapes_that_collide_with_nothing_yet_pair_once_a_filter_allows_it) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    /* two overlapping boxes of category 2 that collide with category 1 only */
    carom_shape_id a = filtered_box(id, carom_v2(0.0, 0.0), 2, 1);
    filtered_box(id, carom_v2(0.6, 0.0), 2, 1);
    test_step(id, 1.0 / 60.0, 2);
    cr_assert_eq(carom_world_get_counters(id).contact_count, 0);
    /* a box of category 1 overlapping both: two pairs, found from its side and theirs */
    filtered_box(id, carom_v2(0.3, 0.6), 1, ~(uint64_t)0);
    test_step(id, 1.0 / 60.0, 1);
    cr_assert_eq(carom_world_get_counters(id).contact_count, 2);
    /* box a now accepts category 2 as well, and box b still does not: no new pair */
    carom_filter filter = carom_shape_get_filter(a);
    filter.mask = 3;
    cr_assert_eq(carom_shape_set_filter(a, filter), CAROM_OK);
    test_step(id, 1.0 / 60.0, 1);
    cr_assert_eq(carom_world_get_counters(id).contact_count, 2);
    carom_destroy_world(id);
}

Test(broad_phase, a_shape_whose_filter_changes_to_a_new_category_is_found_by_shapes_moving_in) {
    carom_world_id id = test_make_world(carom_v2(0.0, 0.0));
    /* both are category 2 and collide with category 4 only, which no shape has yet; b moves
     * towards a, which rests */
    carom_shape_id a = filtered_box(id, carom_v2(0.0, 0.0), 2, 4);
    carom_shape_id b = filtered_box(id, carom_v2(3.0, 0.0), 2, 4);
    carom_body_set_linear_velocity(carom_shape_get_body(b), carom_v2(-3.0, 0.0));
    test_step(id, 1.0 / 60.0, 2);
    /* a becomes category 4 and collides with category 2: b, moving in, must find it */
    carom_filter filter = carom_shape_get_filter(a);
    filter.category = 4;
    filter.mask = 2;
    cr_assert_eq(carom_shape_set_filter(a, filter), CAROM_OK);
    int most = 0;
    for (int i = 0; i < 60; ++i) {
        test_step(id, 1.0 / 60.0, 1);
        int count = carom_world_get_counters(id).contact_count;
        most = count > most ? count : most;
    }
    cr_assert_eq(most, 1, "the pair was never found");
    cr_assert_lt(carom_body_get_position(carom_shape_get_body(a)).x, -0.1, "b pushed a along");
    carom_destroy_world(id);
}

/* The pair map grown once for a batch (attach_contacts) ends at the capacity one-by-one
 * insertion reaches, does not grow while the batch goes in, and finds every key, also after
 * removals shift keys back within their runs. */
Test(broad_phase, a_pair_map_reserved_for_a_batch_grows_once_and_keeps_every_key) {
    enum { BATCH = 5000 };
    carom_hash_map reserved = {NULL, 0, 0}, grown = {NULL, 0, 0};
    carom_hash_map_set(&reserved, 7u, 7);
    carom_hash_map_set(&grown, 7u, 7);
    carom_hash_map_reserve(&reserved, reserved.count + BATCH);
    int capacity = reserved.capacity;
    for (int i = 0; i < BATCH; ++i) {
        uint64_t key = carom_pair_key(i, 3 * i + 11);
        carom_hash_map_set(&reserved, key, i);
        carom_hash_map_set(&grown, key, i);
        cr_assert_eq(reserved.capacity, capacity, "grew again at key %d", i);
    }
    cr_assert_eq(reserved.capacity, grown.capacity);
    cr_assert_eq(reserved.count, BATCH + 1);
    carom_hash_map_reserve(&reserved, BATCH); /* room enough already: nothing moves */
    cr_assert_eq(reserved.capacity, capacity);
    for (int i = 0; i < BATCH; i += 2) {
        carom_hash_map_remove(&reserved, carom_pair_key(i, 3 * i + 11));
    }
    for (int i = 0; i < BATCH; ++i) {
        int want = i % 2 == 0 ? -1 : i;
        cr_assert_eq(carom_hash_map_get(&reserved, carom_pair_key(i, 3 * i + 11)), want);
    }
    cr_assert_eq(carom_hash_map_get(&reserved, 7u), 7);
    carom_hash_map_destroy(&reserved);
    carom_hash_map_destroy(&grown);
}
