/* Continuous collision by swept separating axes (DESIGN stage 3).
 *
 * After the solver has moved the bodies, each awake dynamic body that moved far for its size
 * this step (its center plus its turn times its reach went further than half its thinnest
 * half-width) is swept from its pose at the start of the step to its pose at the end, against
 * every static and kinematic shape its swept box touches, and, if it is a bullet, against every
 * dynamic shape too. The first impact found (carom_time_of_impact, toi.c) moves it back to just
 * before that moment, with its velocity untouched: the next step's speculative contact then
 * stops it at the surface, restitution and friction act as in any contact, and the motion along
 * the surface continues. Slow bodies cost one comparison.
 *
 * A bullet that hits another dynamic body moves that body back to the same moment too, so two
 * bullets meeting head-on both stop where they touch and the solver exchanges their momentum
 * next step. A body moved back no longer travels during the step for later sweeps in the same
 * step (its sweep becomes a standstill at its new pose). Bodies are processed in id order. */
#include "core.h"

#include "continuous.h"
#include "ds.h"
#include "toi.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A body is fast when it moved further this step than this fraction of its thinnest half-width. */
#define FAST_FRACTION 0.5

static bool is_fast(const carom_body* body) {
    double travel = carom_distance(body->sweep.c1, body->sweep.c2) +
                    fabs(body->sweep.delta_angle) * body->max_extent;
    return travel > FAST_FRACTION * body->min_extent;
}

/* The box the body's shapes can reach during the sweep: the path of its center grown by its
 * reach, which bounds any turn. */
static carom_aabb swept_box(const carom_body* body) {
    carom_vec2 r = {body->max_extent, body->max_extent};
    carom_aabb box = {carom_sub(carom_min_v(body->sweep.c1, body->sweep.c2), r),
                      carom_add(carom_max_v(body->sweep.c1, body->sweep.c2), r)};
    return box;
}

/* The shape's geometry for the time-of-impact test, read where it lies (not copied: toi.h). */
static carom_toi_shape toi_shape(const carom_shape* shape) {
    carom_toi_shape out = {shape->type == CAROM_SHAPE_CIRCLE, &shape->circle, &shape->polygon};
    return out;
}

/* The motion of a body that the solver did not move this step: standing still. */
static carom_sweep standstill(const carom_body* body) {
    carom_sweep sweep = {body->local_center, body->center, body->center, body->transform.q, 0.0};
    return sweep;
}

/* What the user's callbacks decided about the pair (carom_world_set_pre_solve, _custom_filter):
 * a contact the pre-solve disabled this step is not swept against either, and with a custom
 * filter, a pair without a contact is asked as the broad phase would ask it. */
static bool callbacks_allow(const carom_world* world, const carom_shape* mine,
                            const carom_shape* other) {
    if (world->pre_solve == NULL && world->custom_filter == NULL) {
        return true;
    }
    int contact = carom_hash_map_get(&world->pair_map, carom_pair_key(mine->id, other->id));
    if (contact >= 0) {
        return !world->contacts[contact].disabled;
    }
    if (world->custom_filter == NULL) {
        return true;
    }
    bool mine_first = mine->id < other->id;
    const carom_shape* a = mine_first ? mine : other;
    const carom_shape* b = mine_first ? other : mine;
    carom_world* locked = (carom_world*)world; /* only the lock's message changes */
    locked->locked_by = "inside a custom filter callback; do it after carom_world_step returns";
    bool allowed = world->custom_filter(carom_make_shape_id(world, a),
                                        carom_make_shape_id(world, b),
                                        world->custom_filter_context) != 0;
    locked->locked_by = NULL;
    return allowed;
}

static bool may_hit(const carom_world* world, const carom_body* body, const carom_shape* mine,
                    const carom_shape* other, bool statics_only) {
    const carom_body* other_body = &world->bodies[other->body];
    if (other_body->id == body->id || other_body->disabled || other->is_sensor || mine->is_sensor ||
        !carom_filters_collide(mine->filter, other->filter)) {
        return false;
    }
    if (other->type == CAROM_SHAPE_CHAIN_SEGMENT && other->chain.one_sided) {
        /* a body starting behind a one-sided wall passes through it */
        carom_vec2 start = carom_inv_transform_point(other_body->transform, body->sweep.c1);
        carom_vec2 front = carom_right_perp(carom_sub(other->chain.point2, other->chain.point1));
        if (carom_dot(front, carom_sub(start, other->chain.point1)) < 0.0) {
            return false;
        }
    }
    if (!(other_body->type != CAROM_BODY_DYNAMIC || (body->bullet && !statics_only))) {
        return false;
    }
    return callbacks_allow(world, mine, other);
}

/* A pair already touching at the start of the step is the solver's, but the solver sees only
 * the points of this step's manifold: a spinning box that meets a wall corner first can pivot
 * about that corner and carry its center through a thin wall within the step. So each shape
 * has a core, a circle at its centroid a quarter of its thickness wide, that never goes through
 * a static or kinematic shape: when the shape already touches one, its core is swept instead;
 * when even the core touches one (a body pressed three quarters of its thickness into a wall),
 * the core is kept from going any deeper. The contact then pushes the rest of the shape out on
 * the side it came from. Segments (no area) have no core; a capsule's is a circle at its middle,
 * a quarter of its radius wide. */
#define CORE_FRACTION 0.25

/* The core circle of a shape, in the body frame; radius 0 for shapes without one. */
static carom_circle core_circle(const carom_shape* shape) {
    carom_circle core = {{0.0, 0.0}, 0.0};
    if (shape->type == CAROM_SHAPE_CIRCLE || shape->type == CAROM_SHAPE_POLYGON ||
        shape->type == CAROM_SHAPE_CAPSULE) {
        core.center = shape->type == CAROM_SHAPE_CIRCLE ? shape->circle.center
                                                        : shape->polygon.centroid;
        core.radius = CORE_FRACTION * carom_shape_compute_thickness(shape);
    }
    return core;
}

/* A core that touches a static shape at the start of the step: it may not go deeper along
 * `normal` (from the static shape towards the core). A core is a small circle, so it touches
 * at most two shapes at once (in a corner); a few more are allowed for. */
#define MAX_TOUCHING_CORES 8

typedef struct touching_core {
    carom_vec2 local_center; /* the core's center in the body frame */
    carom_vec2 normal;
} touching_core;

typedef struct first_hit {
    double t;
    int other_body; /* -1: none */
    int touching_count;
    touching_core touching[MAX_TOUCHING_CORES];
} first_hit;

/* The direction from a static shape to a core circle placed at xf, or zero if they are apart. */
static carom_vec2 core_normal(const carom_shape* other, carom_transform other_xf,
                              const carom_circle* core, carom_transform xf) {
    carom_manifold m = other->type == CAROM_SHAPE_CIRCLE
                           ? carom_collide_circles(&other->circle, other_xf, core, xf, INFINITY)
                           : carom_collide_polygon_and_circle(&other->polygon, other_xf, core, xf,
                                                              INFINITY);
    return m.point_count > 0 ? m.normal : carom_v2(0.0, 0.0);
}

/* The impact of the shape's core against `other`, for a shape that already touches it. */
static carom_toi_output core_time_of_impact(carom_world* world, const carom_body* body,
                                            const carom_shape* mine, const carom_shape* other,
                                            const carom_sweep* other_sweep, double target,
                                            first_hit* hit) {
    carom_toi_output none = {CAROM_TOI_SEPARATED, 1.0};
    carom_circle core_geometry = core_circle(mine);
    if (core_geometry.radius <= 0.0) {
        return none;
    }
    carom_toi_shape core = {true, &core_geometry, NULL};
    carom_toi_shape other_geometry = toi_shape(other);
    carom_toi_output toi = carom_time_of_impact_in_place(&core, &body->sweep, &other_geometry,
                                                         other_sweep, target);
    const carom_body* other_body = &world->bodies[other->body];
    if (toi.state == CAROM_TOI_OVERLAPPED && other_body->type == CAROM_BODY_STATIC &&
        hit->touching_count < MAX_TOUCHING_CORES) {
        carom_transform xf = carom_sweep_get_transform(&body->sweep, 0.0);
        carom_vec2 normal = core_normal(other, other_body->transform, &core_geometry, xf);
        if (normal.x != 0.0 || normal.y != 0.0) {
            touching_core* touching = &hit->touching[hit->touching_count++];
            touching->local_center = core_geometry.center;
            touching->normal = normal;
        }
    }
    return toi.state == CAROM_TOI_HIT ? toi : none;
}

/* Whether the body's whole sweep stays farther than target from the line of `other`, a segment
 * (a chain's or not) of a body that did not move this step: its center, at the start and at the
 * end of the sweep, lies beyond its reach plus target on the same side. Every point of the body
 * lies within its reach of its center, and the center's distance to the line changes linearly
 * along its straight path, so the time-of-impact test would find a gap above target on the
 * segment's normal at every moment: SEPARATED, which this finds without placing either shape.
 * Most segments a body near a drum's wall is tested against are so (their boxes are wide where
 * the wall slants). */
static bool beyond_segment_line(const carom_world* world, const carom_body* body,
                                const carom_shape* other, double target) {
    if (other->polygon.count != 2 || other->polygon.radius > 0.0) {
        return false;
    }
    carom_transform xf = world->bodies[other->body].transform;
    carom_vec2 normal = carom_rotate(xf.q, other->polygon.normals[0]);
    carom_vec2 point = carom_transform_point(xf, other->polygon.vertices[0]);
    double clear = body->max_extent + target;
    double d1 = carom_dot(normal, carom_sub(body->sweep.c1, point));
    double d2 = carom_dot(normal, carom_sub(body->sweep.c2, point));
    return (d1 > clear && d2 > clear) || (d1 < -clear && d2 < -clear);
}

/* ---- The fixed map ------------------------------------------------------------------------
 * Most fast bodies are far from every static and kinematic shape (the middle of a pile, the
 * inside of a drum), yet the broad phase's fixed query still looks up each grid cell their
 * swept box covers in its hash map, and near a wall it reads every proxy listed there, the
 * pile's too: in Box2D's spinner (6,000 bodies stirred in a drum of 360 segments) 79 % of the
 * queries met no cell holding a wall, and the queries were a third of continuous collision's
 * time. So the stage keeps a grid of its own over the static and kinematic shapes alone, a
 * plain array of coarse cells over their extent, each listing (ascending) the shapes whose fat
 * boxes cover it, and answers the query from it: two boxes that overlap share the cell of a
 * common point (the cell of a coordinate only grows with it), so the shapes listed in the swept
 * box's cells, kept when still alive, static or kinematic, and overlapping, are the broad
 * phase's answer, in the same ascending order. A swept box in empty cells costs a few reads.
 * The map is made again when the broad phase's fixed_revision says a static or kinematic box
 * moved or appeared (a shape that went away, or turned dynamic, is dropped when read). Making it
 * reads every proxy, so it is remade only in a step with at least a quarter as many moving
 * bodies as shapes; otherwise the queries go to the broad phase as before. */

/* Cells on the map's longer side at most (a wider world gets larger cells). */
#define FIXED_MAP_MAX_SIDE 512
/* Listings (a shape in each cell it covers) at most, per static or kinematic shape and over
 * all: more (a huge static box over a map of small ones), and the broad phase answers. */
#define FIXED_MAP_LISTINGS_PER_SHAPE 8
#define FIXED_MAP_EXTRA_LISTINGS 16384
/* A swept box over more cells than this (a body flung across the world) is the broad phase's
 * to answer: it has its own way for boxes wider than its grid. */
#define FIXED_MAP_MAX_QUERY_CELLS 64

/* The map's cell of a coordinate along one axis, of `count` cells from `origin`. Any mapping
 * that never decreases as x grows keeps the argument above, so the conversion truncates (no
 * call to floor); a box's lower end is clamped to 0 and its upper end to count - 1 before it,
 * which only widens a box (a NaN too), and an upper end below the origin gives -1: nothing of
 * the map lies there. */
static int lower_cell(double x, double origin, double inv_cell_size, int count) {
    double v = (x - origin) * inv_cell_size;
    return !(v > 0.0) ? 0 : v >= count ? count : (int)v;
}

static int upper_cell(double x, double origin, double inv_cell_size, int count) {
    double v = (x - origin) * inv_cell_size;
    return !(v < count - 1.0) ? count - 1 : v < 0.0 ? -1 : (int)v;
}

typedef struct cell_range {
    int x0, y0, x1, y1;
} cell_range;

static cell_range cells_of(const carom_fixed_map* map, carom_aabb box) {
    cell_range r = {lower_cell(box.lower.x, map->origin.x, map->inv_cell_size, map->width),
                    lower_cell(box.lower.y, map->origin.y, map->inv_cell_size, map->height),
                    upper_cell(box.upper.x, map->origin.x, map->inv_cell_size, map->width),
                    upper_cell(box.upper.y, map->origin.y, map->inv_cell_size, map->height)};
    return r;
}

static bool is_fixed_proxy(const carom_proxy* proxy) {
    return proxy->alive && proxy->body_type != CAROM_BODY_DYNAMIC;
}

/* Lay the grid over the boxes' bounds; false if they have no finite extent. */
static bool lay_out(carom_fixed_map* map, const carom_broad_phase* bp, carom_aabb bounds) {
    double extent = carom_max_d(bounds.upper.x - bounds.lower.x, bounds.upper.y - bounds.lower.y);
    double cell_size = carom_max_d(bp->cell_size, extent / FIXED_MAP_MAX_SIDE);
    if (!(isfinite(cell_size) && cell_size > 0.0)) {
        if (!(cell_size == 0.0 && isfinite(extent))) {
            return false;
        }
        cell_size = 1.0; /* boxes of no size: one cell */
    }
    map->origin = bounds.lower;
    map->inv_cell_size = 1.0 / cell_size;
    /* the cells of the bounds' upper corner are the last: every box lies within */
    map->width = (int)((bounds.upper.x - map->origin.x) * map->inv_cell_size) + 1;
    map->height = (int)((bounds.upper.y - map->origin.y) * map->inv_cell_size) + 1;
    return true;
}

/* Each cell's listings counted into cell_starts[cell + 1]; false past the limit. */
static bool count_listings(carom_fixed_map* map, const carom_broad_phase* bp, int fixed_count) {
    size_t cell_count = (size_t)map->width * (size_t)map->height;
    arrsetlen(map->cell_starts, cell_count + 1);
    memset(map->cell_starts, 0, (cell_count + 1) * sizeof(int));
    double limit = (double)FIXED_MAP_LISTINGS_PER_SHAPE * fixed_count + FIXED_MAP_EXTRA_LISTINGS;
    double listings = 0.0;
    for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
        if (!is_fixed_proxy(&bp->proxies[i])) {
            continue;
        }
        cell_range r = cells_of(map, bp->proxies[i].fat_aabb);
        listings += ((double)r.x1 - r.x0 + 1.0) * ((double)r.y1 - r.y0 + 1.0);
        if (listings > limit) {
            return false;
        }
        for (int y = r.y0; y <= r.y1; ++y) {
            for (int x = r.x0; x <= r.x1; ++x) {
                map->cell_starts[(size_t)y * (size_t)map->width + (size_t)x + 1] += 1;
            }
        }
    }
    for (size_t c = 0; c < cell_count; ++c) {
        map->cell_starts[c + 1] += map->cell_starts[c];
    }
    return true;
}

/* The shapes into their cells' lists, in ascending id order. */
static void list_shapes(carom_fixed_map* map, const carom_broad_phase* bp) {
    size_t cell_count = (size_t)map->width * (size_t)map->height;
    arrsetlen(map->cell_shapes, map->cell_starts[cell_count]);
    for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
        if (!is_fixed_proxy(&bp->proxies[i])) {
            continue;
        }
        cell_range r = cells_of(map, bp->proxies[i].fat_aabb);
        for (int y = r.y0; y <= r.y1; ++y) {
            for (int x = r.x0; x <= r.x1; ++x) {
                /* cell_starts[c] walks up to where the next cell's list begins */
                map->cell_shapes[map->cell_starts[(size_t)y * (size_t)map->width + (size_t)x]++] = i;
            }
        }
    }
    for (size_t c = cell_count; c > 0; --c) {
        map->cell_starts[c] = map->cell_starts[c - 1];
    }
    map->cell_starts[0] = 0;
}

static void build_fixed_map(carom_fixed_map* map, const carom_broad_phase* bp) {
    map->built = true;
    map->revision = bp->fixed_revision;
    map->width = 0;
    map->height = 0;
    carom_aabb bounds = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    int fixed_count = 0;
    for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
        if (is_fixed_proxy(&bp->proxies[i])) {
            bounds = carom_aabb_union(bounds, bp->proxies[i].fat_aabb);
            fixed_count += 1;
        }
    }
    if (fixed_count == 0) {
        map->usable = true; /* no static or kinematic shape: every answer is none */
        return;
    }
    map->usable = lay_out(map, bp, bounds) && count_listings(map, bp, fixed_count);
    if (map->usable) {
        list_shapes(map, bp);
    }
}

/* Before the stage's sweeps: bring the map up to date if that is worth it this step. */
static void refresh_fixed_map(carom_world* world, int moving_bodies) {
    carom_fixed_map* map = &world->continuous.fixed_map;
    const carom_broad_phase* bp = &world->broad_phase;
    if (map->built && map->revision == bp->fixed_revision) {
        return;
    }
    if ((double)arrlen(bp->proxies) <= 4.0 * moving_bodies) {
        build_fixed_map(map, bp);
    }
}

static int compare_ids(const void* a, const void* b) {
    int x = *(const int*)a;
    int y = *(const int*)b;
    return (x > y) - (x < y);
}

/* Sort the shapes found and drop repeats (a shape covering several of the box's cells): the few
 * of a swept box near a wall by insertion, many by qsort. */
static void sort_unique(int* ids, int* count) {
    if (*count > 16) {
        qsort(ids, (size_t)*count, sizeof(int), compare_ids);
    } else {
        for (int i = 1; i < *count; ++i) {
            int id = ids[i];
            int j = i - 1;
            for (; j >= 0 && ids[j] > id; --j) {
                ids[j + 1] = ids[j];
            }
            ids[j + 1] = id;
        }
    }
    int unique = 0;
    for (int i = 0; i < *count; ++i) {
        if (unique == 0 || ids[unique - 1] != ids[i]) {
            ids[unique++] = ids[i];
        }
    }
    *count = unique;
}

/* The static and kinematic shapes whose fat boxes overlap the box: the broad phase's answer
 * (carom_broad_phase_query_fixed), from the map while it is up to date. */
static void query_fixed(carom_world* world, carom_aabb box, int** candidates) {
    const carom_fixed_map* map = &world->continuous.fixed_map;
    carom_broad_phase* bp = &world->broad_phase;
    if (!map->built || !map->usable || map->revision != bp->fixed_revision) {
        carom_broad_phase_query_fixed(bp, box, candidates);
        return;
    }
    cell_range r = cells_of(map, box); /* none when outside every box (or there are none) */
    if (r.x0 <= r.x1 && r.y0 <= r.y1 &&
        ((double)r.x1 - r.x0 + 1.0) * ((double)r.y1 - r.y0 + 1.0) > FIXED_MAP_MAX_QUERY_CELLS) {
        carom_broad_phase_query_fixed(bp, box, candidates);
        return;
    }
    arrsetlen(*candidates, 0);
    for (int y = r.y0; y <= r.y1; ++y) {
        for (int x = r.x0; x <= r.x1; ++x) {
            size_t cell = (size_t)y * (size_t)map->width + (size_t)x;
            for (int k = map->cell_starts[cell]; k < map->cell_starts[cell + 1]; ++k) {
                const carom_proxy* proxy = &bp->proxies[map->cell_shapes[k]];
                if (is_fixed_proxy(proxy) && carom_aabb_overlaps(proxy->fat_aabb, box)) {
                    arrput(*candidates, map->cell_shapes[k]);
                }
            }
        }
    }
    int count = (int)arrlen(*candidates);
    sort_unique(*candidates, &count);
    arrsetlen(*candidates, count);
}

/* The earliest impact of the body's shapes against the candidates (static and kinematic
 * shapes, and dynamic ones for a bullet unless statics_only), and the static shapes its cores
 * already touch. */
static void find_first_hit(carom_world* world, int** candidates, const carom_body* body,
                           double target, bool statics_only, first_hit* hit) {
    hit->t = 1.0;
    hit->other_body = -1;
    hit->touching_count = 0;
    /* A sweep that can hit only static and kinematic shapes (may_hit) asks for those alone. */
    if (statics_only || !body->bullet) {
        query_fixed(world, swept_box(body), candidates);
    } else {
        carom_broad_phase_query(&world->broad_phase, swept_box(body), candidates);
    }
    int candidate_count = (int)arrlen(*candidates);
    for (int s = body->first_shape; candidate_count > 0 && s >= 0;
         s = world->shapes[s].next_shape) {
        const carom_shape* mine = &world->shapes[s];
        carom_toi_shape my_geometry = toi_shape(mine);
        for (int i = 0; i < candidate_count; ++i) {
            const carom_shape* other = &world->shapes[(*candidates)[i]];
            if (!may_hit(world, body, mine, other, statics_only)) {
                continue;
            }
            const carom_body* other_body = &world->bodies[other->body];
            bool other_moved = world->solver.body_states[other->body] >= 0; /* this step */
            if (!other_moved && beyond_segment_line(world, body, other, target)) {
                continue;
            }
            carom_sweep other_sweep = other_moved ? other_body->sweep : standstill(other_body);
            carom_toi_shape other_geometry = toi_shape(other);
            carom_toi_output toi = carom_time_of_impact_in_place(&my_geometry, &body->sweep,
                                                                 &other_geometry, &other_sweep,
                                                                 target);
            if (toi.state == CAROM_TOI_OVERLAPPED && other_body->type != CAROM_BODY_DYNAMIC) {
                toi = core_time_of_impact(world, body, mine, other, &other_sweep, target, hit);
            }
            if (toi.state == CAROM_TOI_HIT && toi.t < hit->t) {
                hit->t = toi.t;
                hit->other_body = other_body->id;
            }
        }
    }
}

/* The translation that takes back the part of the body's motion up to time t of its sweep
 * that would carry a touching core deeper into the static shape it touches, keeping the rest
 * (sliding along it, turning). */
static carom_vec2 core_correction(const carom_body* body, const first_hit* hit, double t) {
    carom_vec2 shift = {0.0, 0.0};
    if (hit->touching_count == 0) {
        return shift; /* most sweeps: no core touches, and the poses need no sine or cosine */
    }
    carom_transform start = carom_sweep_get_transform(&body->sweep, 0.0);
    carom_transform end = carom_sweep_get_transform(&body->sweep, t);
    for (int i = 0; i < hit->touching_count; ++i) {
        const touching_core* touching = &hit->touching[i];
        carom_vec2 moved = carom_sub(carom_transform_point(end, touching->local_center),
                                     carom_transform_point(start, touching->local_center));
        double inward = carom_dot(carom_add(moved, shift), touching->normal);
        if (inward < 0.0) {
            shift = carom_sub(shift, carom_scale(inward, touching->normal));
        }
    }
    return shift;
}

/* Put the body at its pose at time t of its sweep, which then ends there. */
static void move_back(carom_world* world, carom_body* body, double t) {
    const carom_sweep* sweep = &body->sweep;
    body->center = carom_add(sweep->c1, carom_scale(t, carom_sub(sweep->c2, sweep->c1)));
    body->transform.q = carom_sweep_get_transform(sweep, t).q;
    carom_body_derive_origin(body);
    body->sweep = standstill(body);
    carom_body_update_shape_bounds(world, body, carom_v2(0.0, 0.0));
}

/* Move the body's end pose (and so its sweep's end) by a translation. */
static void move_by(carom_world* world, carom_body* body, carom_vec2 shift) {
    if (shift.x == 0.0 && shift.y == 0.0) {
        return;
    }
    body->center = carom_add(body->center, shift);
    body->sweep.c2 = body->center;
    carom_body_derive_origin(body);
    carom_body_update_shape_bounds(world, body, carom_v2(0.0, 0.0));
}

/* Back off from the touching time so the body stops about `target` short of the surface. */
static double stop_time(const carom_body* body, double t, double target) {
    double travel = carom_distance(body->sweep.c1, body->sweep.c2) +
                    fabs(body->sweep.delta_angle) * body->max_extent;
    return travel > 0.0 ? carom_max_d(0.0, t - target / travel) : t;
}

/* A body pressed into a static or kinematic shape deeper than this fraction of its shape's
 * thickness is checked like a fast body, however slowly it moves: a heavy body pushing a light
 * one against a wall moves it a little each step, and its core must not go through either. */
#define PRESSED_FRACTION 0.2

int carom_continuous_pressed_body(const carom_world* world, const carom_contact* contact) {
    const carom_body* body_a = &world->bodies[contact->edges[0].body];
    const carom_body* body_b = &world->bodies[contact->edges[1].body];
    if ((body_a->type == CAROM_BODY_DYNAMIC) == (body_b->type == CAROM_BODY_DYNAMIC)) {
        return -1;
    }
    bool a_moves = body_a->type == CAROM_BODY_DYNAMIC;
    double deepest = contact->points[0].separation;
    if (contact->point_count > 1 && contact->points[1].separation < deepest) {
        deepest = contact->points[1].separation;
    }
    /* No shape of a body is thinner than its min_extent (body.c: the thinnest of its shapes,
     * or, when none has a thickness, a bound the exact test below never passes either), so a
     * contact shallower than the fraction of it presses nothing: decided without reading the
     * shape, for a body resting on the ground (a cache miss each in a field of piles). */
    if (!(deepest < -PRESSED_FRACTION * (a_moves ? body_a : body_b)->min_extent)) {
        return -1;
    }
    const carom_shape* shape = &world->shapes[a_moves ? contact->shape_a : contact->shape_b];
    if (deepest < -PRESSED_FRACTION * carom_shape_compute_thickness(shape)) {
        return a_moves ? body_a->id : body_b->id;
    }
    return -1;
}

/* The body a touching contact presses into a static or kinematic shape, or -1: each contact
 * on its own, on the workers (several may press one body, so the marks are set after). */
static void find_pressed_bodies(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_world* world = context;
    for (int i = begin; i < end; ++i) {
        const carom_contact* contact = &world->contacts[world->touching_contacts[i]];
        world->continuous.pressed_body[i] = carom_continuous_pressed_body(world, contact);
    }
}

/* The marks, when the narrow phase has not made them (see pressed_marked). */
static void mark_pressed_bodies(carom_world* world) {
    int count = (int)arrlen(world->touching_contacts);
    arrsetlen(world->continuous.pressed_body, count);
    carom_parallel_for(&world->tasks, find_pressed_bodies, count, 256, world);
    for (int i = 0; i < count; ++i) {
        if (world->continuous.pressed_body[i] >= 0) {
            world->bodies[world->continuous.pressed_body[i]].pressed = true;
        }
    }
}

typedef carom_continuous_stop stop;

/* Where the body's own motion may take it (carom_continuous_stop), with a worker's scratch. */
static stop find_stop_with(carom_world* world, int** candidates, const carom_body* body,
                           double target, bool statics_only, double t_limit) {
    first_hit hit;
    find_first_hit(world, candidates, body, target, statics_only, &hit);
    stop result = {t_limit, {0.0, 0.0}, -1};
    if (hit.other_body >= 0) {
        double t = body->sweep.delta_angle == 0.0 ? stop_time(body, hit.t, target) : hit.t;
        if (t < t_limit) {
            result.t = t;
            result.other_body = hit.other_body;
        }
    }
    result.shift = core_correction(body, &hit, result.t);
    return result;
}

/* On the stepping thread. */
static stop find_stop(carom_world* world, const carom_body* body, double target,
                      bool statics_only, double t_limit) {
    return find_stop_with(world, &world->continuous.candidates[0], body, target, statics_only,
                          t_limit);
}

/* A core correction changes the body's path: the corrected path may meet another wall (a
 * body in a corner, kept out of the floor, is carried into the side wall), so it is checked
 * again, up to this many times; a body still being corrected then stays where it began the
 * step, which was clear of every wall. */
#define MAX_CORE_PASSES 4

/* Make the body's sweep end at its pose at time t plus shift, and put it there. */
static void end_sweep_at(carom_world* world, carom_body* body, double t, carom_vec2 shift) {
    carom_sweep* sweep = &body->sweep;
    carom_vec2 end = carom_add(carom_add(sweep->c1, carom_scale(t, carom_sub(sweep->c2, sweep->c1))),
                               shift);
    sweep->c2 = end;
    sweep->delta_angle *= t;
    body->center = end;
    body->transform.q = carom_sweep_get_transform(sweep, 1.0).q;
    carom_body_derive_origin(body);
    carom_body_update_shape_bounds(world, body, carom_v2(0.0, 0.0));
}

/* Stop a body at time t of its sweep, shifted to keep its cores out. A body moved back stands
 * still where it ends, shift and all: a sweep from its pose at t to there would start where
 * the shift was needed (its core too deep in a wall), and sweeping it again from there, as a
 * bullet's target is, could stop it back there. */
static void stop_body(carom_world* world, carom_body* body, double t, carom_vec2 shift) {
    if (t < 1.0) {
        move_back(world, body, t);
        move_by(world, body, shift);
        body->sweep = standstill(body);
        return;
    }
    move_by(world, body, shift);
}

/* Whether the body is swept this step. */
static bool needs_sweep(const carom_body* body) {
    return body->type == CAROM_BODY_DYNAMIC && (body->pressed || is_fast(body));
}

/* A moved body's note: whether it is swept, a bullet, pressed. Its pressed mark is read here,
 * and cleared: the mark lives one step. */
enum { NOTE_SWEPT = 1, NOTE_BULLET = 2, NOTE_PRESSED = 4 };

static unsigned char take_note(carom_body* body) {
    unsigned char note = (unsigned char)((needs_sweep(body) ? NOTE_SWEPT : 0) |
                                         (body->bullet ? NOTE_BULLET : 0) |
                                         (body->pressed ? NOTE_PRESSED : 0));
    body->pressed = false;
    return note;
}

void carom_continuous_begin_notes(carom_world* world, int state_count) {
    carom_continuous_scratch* scratch = &world->continuous;
    scratch->notes_valid = world->def.enable_continuous && scratch->pressed_marked;
    if (scratch->notes_valid) {
        arrsetlen(scratch->notes, state_count);
    }
}

void carom_continuous_note_body(carom_world* world, int state, carom_body* body) {
    carom_continuous_scratch* scratch = &world->continuous;
    if (scratch->notes_valid) {
        scratch->notes[state] = take_note(body);
    }
}

/* The first stops of the swept bodies that are not bullets, found on the workers before any
 * body is stopped. Such a body's first stop reads only its own sweep and the static and
 * kinematic shapes, which the stopping in order never moves; so it is what the in-order pass
 * would find, unless a bullet moved the body back first (then it is found again there). */
typedef struct first_stops {
    carom_world* world;
    double target;
    /* The world has no static or kinematic shape (the fixed map says so): a body that is not a
     * bullet can hit nothing, and its sweep would end where it is, so it is not swept (a
     * bullet may still move it back: then it is looked at again, as disturbed). */
    bool nothing_fixed;
    bool noted; /* the finalization noted the bodies (carom_continuous_note_body) */
} first_stops;

static void find_first_stops(int begin, int end, int worker, void* context) {
    const first_stops* task = context;
    carom_world* world = task->world;
    carom_continuous_scratch* scratch = &world->continuous;
    const int* state_bodies = world->solver.state_bodies;
    for (int i = begin; i < end; ++i) {
        unsigned char note = task->noted ? scratch->notes[i]
                                         : take_note(&world->bodies[state_bodies[i]]);
        bool bullet = note & NOTE_BULLET;
        scratch->swept[i] = !(task->nothing_fixed && !bullet) && (note & NOTE_SWEPT);
        scratch->was_pressed[i] = (note & NOTE_PRESSED) != 0;
        scratch->stop_found[i] = scratch->swept[i] && !bullet;
        if (scratch->stop_found[i]) {
            scratch->stops[i] = find_stop_with(world, &scratch->candidates[worker],
                                               &world->bodies[state_bodies[i]], task->target,
                                               false, 1.0);
        }
    }
}

/* Note the pose a body began the step at, before the stage first moves it: its sweep's start
 * then, which moving it back replaces (a standstill at the new pose). */
static void note_repose(carom_continuous_scratch* scratch, int state, const carom_body* body) {
    if (scratch->repose_of_state[state] == 0) {
        carom_continuous_repose repose = {state, body->sweep.c1, body->sweep.q1};
        arrput(scratch->reposes, repose);
        scratch->repose_of_state[state] = (int)arrlen(scratch->reposes);
    }
}

/* Bodies per range handed to a worker: most are slow and cost one comparison. */
#define BODIES_PER_RANGE 256

void carom_continuous_step(carom_world* world) {
    bool noted = world->continuous.notes_valid;
    world->continuous.notes_valid = false; /* taken this step, or never */
    world->continuous.reposes_valid = false; /* until this step's are noted */
    if (!world->def.enable_continuous) {
        return;
    }
    const double target = 0.25 * world->def.speculative_distance + 1e-4;
    carom_solver* solver = &world->solver;
    carom_continuous_scratch* scratch = &world->continuous;
    if (!scratch->pressed_marked) {
        mark_pressed_bodies(world);
    }
    scratch->pressed_marked = false;
    int count = (int)arrlen(solver->state_bodies);
    if (count == 0) {
        return; /* no body moved this step (a world asleep): none to sweep */
    }
    refresh_fixed_map(world, count);
    while ((int)arrlen(scratch->candidates) < world->tasks.worker_count) {
        arrput(scratch->candidates, NULL);
    }
    arrsetlen(scratch->stops, count);
    arrsetlen(scratch->stop_found, count);
    arrsetlen(scratch->swept, count);
    arrsetlen(scratch->was_pressed, count);
    arrsetlen(scratch->disturbed, count);
    memset(scratch->disturbed, 0, (size_t)count);
    arrsetlen(scratch->repose_of_state, count);
    memset(scratch->repose_of_state, 0, sizeof(int) * (size_t)count);
    arrsetlen(scratch->reposes, 0);
    scratch->reposes_valid = true;
    const carom_fixed_map* map = &world->continuous.fixed_map;
    bool nothing_fixed = map->built && map->usable && map->width == 0 &&
                         map->revision == world->broad_phase.fixed_revision;
    first_stops task = {world, target, nothing_fixed, noted};
    carom_parallel_for(&world->tasks, find_first_stops, count, BODIES_PER_RANGE, &task);
    for (int i = 0; i < count; ++i) {
        /* whether it is swept, unless a bullet moved it back since (a pressed mark is kept
         * with the verdict: it was cleared) */
        if (!scratch->swept[i] && !scratch->disturbed[i]) {
            continue;
        }
        carom_body* body = &world->bodies[solver->state_bodies[i]];
        if (scratch->disturbed[i] && !(body->type == CAROM_BODY_DYNAMIC &&
                                       (scratch->was_pressed[i] || is_fast(body)))) {
            continue;
        }
        stop own = scratch->stop_found[i] && !scratch->disturbed[i]
                       ? scratch->stops[i]
                       : find_stop(world, body, target, false, 1.0);
        note_repose(scratch, i, body);
        int hit_body = own.other_body;
        double hit_t = own.t;
        for (int pass = 0; own.shift.x != 0.0 || own.shift.y != 0.0; ++pass) {
            if (pass == MAX_CORE_PASSES) {
                own = (stop){0.0, {0.0, 0.0}, -1};
                break;
            }
            end_sweep_at(world, body, own.t, own.shift);
            own = find_stop(world, body, target, true, 1.0);
        }
        stop_body(world, body, own.t, own.shift);
        if (hit_body < 0) {
            continue;
        }
        /* A bullet's dynamic target goes back to the same moment, unless its own motion met a
         * wall first: it must not be moved back to where its path had already crossed one. */
        carom_body* other = &world->bodies[hit_body];
        int other_state = solver->body_states[hit_body];
        if (other->type == CAROM_BODY_DYNAMIC && other_state >= 0) {
            stop its = find_stop(world, other, target, true, hit_t);
            note_repose(scratch, other_state, other);
            stop_body(world, other, its.t, its.shift);
            scratch->disturbed[other_state] = 1;
        }
    }
}

void carom_continuous_destroy(carom_continuous_scratch* scratch) {
    for (int i = 0; i < (int)arrlen(scratch->candidates); ++i) {
        arrfree(scratch->candidates[i]);
    }
    arrfree(scratch->candidates);
    arrfree(scratch->stops);
    arrfree(scratch->stop_found);
    arrfree(scratch->disturbed);
    arrfree(scratch->swept);
    arrfree(scratch->was_pressed);
    arrfree(scratch->pressed_body);
    arrfree(scratch->notes);
    arrfree(scratch->repose_of_state);
    arrfree(scratch->reposes);
    arrfree(scratch->fixed_map.cell_starts);
    arrfree(scratch->fixed_map.cell_shapes);
}
