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
#include "world.h"

#include <math.h>

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

static carom_convex_shape toi_shape(const carom_shape* shape) {
    carom_convex_shape out;
    out.is_circle = shape->type == CAROM_SHAPE_CIRCLE;
    out.circle = shape->circle;
    out.polygon = shape->polygon;
    return out;
}

/* The motion of a body that the solver did not move this step: standing still. */
static carom_sweep standstill(const carom_body* body) {
    carom_sweep sweep = {body->local_center, body->center, body->center, body->transform.q, 0.0};
    return sweep;
}

static bool may_hit(const carom_world* world, const carom_body* body, const carom_shape* mine,
                    const carom_shape* other) {
    const carom_body* other_body = &world->bodies[other->body];
    if (other_body->id == body->id || other->is_sensor || mine->is_sensor ||
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
    return other_body->type != CAROM_BODY_DYNAMIC || body->bullet;
}

typedef struct first_hit {
    double t;
    int other_body; /* -1: none */
} first_hit;

/* The earliest impact of the body's shapes against the candidates. */
static first_hit find_first_hit(carom_world* world, const carom_body* body, double target) {
    first_hit hit = {1.0, -1};
    carom_broad_phase_query(&world->broad_phase, swept_box(body), &world->continuous_candidates);
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        const carom_shape* mine = &world->shapes[s];
        carom_convex_shape my_geometry = toi_shape(mine);
        for (int i = 0; i < (int)arrlen(world->continuous_candidates); ++i) {
            const carom_shape* other = &world->shapes[world->continuous_candidates[i]];
            if (!may_hit(world, body, mine, other)) {
                continue;
            }
            const carom_body* other_body = &world->bodies[other->body];
            carom_sweep other_sweep = other_body->solver_index >= 0 ? other_body->sweep
                                                                    : standstill(other_body);
            carom_convex_shape other_geometry = toi_shape(other);
            carom_toi_output toi = carom_time_of_impact(&my_geometry, &body->sweep,
                                                        &other_geometry, &other_sweep, target);
            if (toi.state == CAROM_TOI_HIT && toi.t < hit.t) {
                hit.t = toi.t;
                hit.other_body = other_body->id;
            }
        }
    }
    return hit;
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

/* Back off from the touching time so the body stops about `target` short of the surface. */
static double stop_time(const carom_body* body, double t, double target) {
    double travel = carom_distance(body->sweep.c1, body->sweep.c2) +
                    fabs(body->sweep.delta_angle) * body->max_extent;
    return travel > 0.0 ? carom_max_d(0.0, t - target / travel) : t;
}

void carom_continuous_step(carom_world* world) {
    if (!world->def.enable_continuous) {
        return;
    }
    const double target = 0.25 * world->def.speculative_distance + 1e-4;
    carom_solver* solver = &world->solver;
    for (int i = 0; i < (int)arrlen(solver->state_bodies); ++i) {
        carom_body* body = &world->bodies[solver->state_bodies[i]];
        if (body->type != CAROM_BODY_DYNAMIC || !is_fast(body)) {
            continue;
        }
        first_hit hit = find_first_hit(world, body, target);
        if (hit.other_body < 0) {
            continue;
        }
        double t = body->sweep.delta_angle == 0.0 ? stop_time(body, hit.t, target) : hit.t;
        move_back(world, body, t);
        carom_body* other = &world->bodies[hit.other_body];
        if (other->type == CAROM_BODY_DYNAMIC && other->solver_index >= 0) {
            move_back(world, other, t);
        }
    }
}
