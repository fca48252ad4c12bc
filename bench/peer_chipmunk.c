/* bench_chipmunk: one timed run of a benchmark scene on Chipmunk2D 7 (protocol:
 * bench_common.h), through its public API at its defaults: 10 solver iterations, its default
 * collision slop and bias, doubles (Debian's build: CP_USE_DOUBLES). Chipmunk does not sleep by
 * default: that is --sleep off. --sleep on gives the space the time to sleep of carom and
 * Box2D, 0.5 s, with Chipmunk's own idle speed (0: estimated from gravity as |g| dt), and puts
 * the scene's sleepers to sleep once created (cpBodySleep).
 * Variants: "hash", the spatial hash that Chipmunk recommends for many similar-sized objects,
 * and "bbtree", its default bounding-box tree.
 *
 * Same scene, translated where Chipmunk's model differs from carom's and Box2D's:
 * - A pair's friction is the product of the two shapes' (carom and Box2D: the geometric mean),
 *   so each shape gets sqrt(friction): the product of the roots is the geometric mean.
 * - A pair's restitution is the product too (carom and Box2D: the larger). Every dynamic body of
 *   a scene has the same restitution e and walls have 0, so every pair is meant to bounce with
 *   e: every shape, walls included, gets sqrt(e).
 * - Damping is one space-wide factor on linear and angular velocity alike, applied once per
 *   step as damping^dt (carom and Box2D: v *= 1 / (1 + dt * c) per body). The scenes damp all
 *   bodies alike, so the space gets the damping whose per-step factor is 1 / (1 + dt * c).
 * - Mass and moment are given at creation, from density times area. */
#include "bench_common.h"

#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct chipmunk_run {
    cpSpace* space;
    cpBody** bodies;  /* the dynamic bodies, in description order */
    cpShape** shapes; /* every shape, walls first */
    int body_count, shape_count;
} chipmunk_run;

/* The space owns neither its bodies nor its shapes (except its static body): free them after. */
static void destroy(void* world) {
    chipmunk_run* run = world;
    /* cpSpaceFree leaks what a sleeping group holds (its contacts): wake every body first. */
    for (int i = 0; i < run->body_count; ++i) {
        cpBodyActivate(run->bodies[i]);
    }
    cpSpaceFree(run->space);
    for (int i = 0; i < run->shape_count; ++i) {
        cpShapeFree(run->shapes[i]);
    }
    for (int i = 0; i < run->body_count; ++i) {
        cpBodyFree(run->bodies[i]);
    }
    free(run->shapes);
    free(run->bodies);
    free(run);
}

/* Check the assumptions of the translation above: one material and one damping per scene. */
static int uniform(const carom_scene_desc* desc) {
    const carom_scene_body* a = &desc->bodies[0];
    for (int i = 1; i < desc->body_count; ++i) {
        const carom_scene_body* b = &desc->bodies[i];
        if (a->restitution != b->restitution || a->linear_damping != b->linear_damping ||
            a->angular_damping != b->angular_damping) {
            return 0;
        }
    }
    return a->linear_damping == a->angular_damping;
}

/* The time a body must idle before its group sleeps (s), with --sleep on: carom's and Box2D's. */
#define TIME_TO_SLEEP 0.5

static cpShape* add_wall(cpSpace* space, const carom_scene_wall* w, double elasticity) {
    cpBody* ground = cpSpaceGetStaticBody(space);
    cpShape* shape;
    if (w->shape == CAROM_SCENE_SEGMENT) {
        shape = cpSegmentShapeNew(ground, cpv(w->x1, w->y1), cpv(w->x2, w->y2), 0.0);
    } else {
        cpBB box = cpBBNew(w->x - w->half_width, w->y - w->half_height, w->x + w->half_width,
                           w->y + w->half_height);
        shape = cpBoxShapeNew2(ground, box, 0.0);
    }
    cpSpaceAddShape(space, shape);
    cpShapeSetFriction(shape, sqrt(w->friction));
    cpShapeSetElasticity(shape, elasticity);
    return shape;
}

static cpShape* add_body(cpSpace* space, const carom_scene_body* b, double elasticity) {
    double mass, moment;
    if (b->shape == CAROM_SCENE_CIRCLE) {
        mass = b->density * CP_PI * b->radius * b->radius;
        moment = cpMomentForCircle(mass, 0.0, b->radius, cpvzero);
    } else {
        mass = b->density * 4.0 * b->half_width * b->half_height;
        moment = cpMomentForBox(mass, 2.0 * b->half_width, 2.0 * b->half_height);
    }
    cpBody* body = cpSpaceAddBody(space, cpBodyNew(mass, moment));
    cpBodySetPosition(body, cpv(b->x, b->y));
    cpBodySetAngle(body, b->angle);
    cpBodySetVelocity(body, cpv(b->vx, b->vy));
    cpShape* shape = b->shape == CAROM_SCENE_CIRCLE
                         ? cpCircleShapeNew(body, b->radius, cpvzero)
                         : cpBoxShapeNew(body, 2.0 * b->half_width, 2.0 * b->half_height, 0.0);
    cpSpaceAddShape(space, shape);
    cpShapeSetFriction(shape, sqrt(b->friction));
    cpShapeSetElasticity(shape, elasticity);
    return shape;
}

/* Chipmunk's advice for the spatial hash: cells about the size of the average shape, and about
 * ten times as many cells as objects. */
static void use_spatial_hash(cpSpace* space, const carom_scene_desc* desc) {
    double total = 0.0;
    for (int i = 0; i < desc->body_count; ++i) {
        const carom_scene_body* b = &desc->bodies[i];
        total += b->shape == CAROM_SCENE_CIRCLE ? 2.0 * b->radius : b->half_width + b->half_height;
    }
    cpSpaceUseSpatialHash(space, total / desc->body_count,
                          10 * (desc->body_count + desc->wall_count));
}

static void* build(const carom_scene_desc* desc, const char* variant, int enable_sleep) {
    if (desc->body_count < 1 || !uniform(desc)) {
        return NULL;
    }
    chipmunk_run* run = calloc(1, sizeof *run);
    if (run == NULL) {
        return NULL;
    }
    run->space = cpSpaceNew();
    run->bodies = malloc(sizeof(cpBody*) * (size_t)desc->body_count);
    run->shapes = malloc(sizeof(cpShape*) * (size_t)(desc->wall_count + desc->body_count));
    if (run->bodies == NULL || run->shapes == NULL) {
        destroy(run);
        return NULL;
    }
    cpSpace* space = run->space;
    cpSpaceSetIterations(space, 10); /* Chipmunk's default, stated */
    cpSpaceSetGravity(space, cpv(desc->gravity_x, desc->gravity_y));
    if (enable_sleep) {
        cpSpaceSetSleepTimeThreshold(space, TIME_TO_SLEEP);
    }
    double damping = desc->bodies[0].linear_damping;
    cpSpaceSetDamping(space, pow(1.0 / (1.0 + BENCH_DT * damping), 1.0 / BENCH_DT));
    if (strcmp(variant, "hash") == 0) {
        use_spatial_hash(space, desc);
    }
    double elasticity = sqrt(desc->bodies[0].restitution);
    for (int i = 0; i < desc->wall_count; ++i) {
        run->shapes[run->shape_count++] = add_wall(space, &desc->walls[i], elasticity);
    }
    for (int i = 0; i < desc->body_count; ++i) {
        cpShape* shape = add_body(space, &desc->bodies[i], elasticity);
        run->shapes[run->shape_count++] = shape;
        run->bodies[run->body_count++] = cpShapeGetBody(shape);
        if (desc->bodies[i].asleep) { /* set only with sleeping on (bench_main) */
            cpBodySleep(cpShapeGetBody(shape));
        }
    }
    return run;
}

static void step(void* world, double dt) {
    cpSpaceStep(((chipmunk_run*)world)->space, dt);
}

static void positions(void* world, const carom_scene_desc* desc, double* xy) {
    chipmunk_run* run = world;
    for (int i = 0; i < desc->body_count; ++i) {
        cpVect p = cpBodyGetPosition(run->bodies[i]);
        xy[2 * i] = p.x;
        xy[2 * i + 1] = p.y;
    }
}

int main(int argc, char** argv) {
    static const char* const variants[] = {"hash", "bbtree", NULL};
    const bench_engine engine = {"chipmunk", variants, build, step, positions, destroy, 0};
    return bench_main(argc, argv, &engine);
}
