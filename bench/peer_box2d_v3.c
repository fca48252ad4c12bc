/* bench_box2d_v3: one timed run of a benchmark scene on Box2D v3 (protocol: bench_common.h),
 * through its public C API at the settings of Box2D's own benchmark program: one thread
 * (workerCount 1, no task system), b2World_Step(dt, 4 substeps), continuous collision on (bodies
 * are not bullets), every other world setting at b2DefaultWorldDef()'s value (contact hertz 30,
 * damping ratio 10, push speed 3 m/s), floats. --sleep on (the default) keeps the world's
 * sleeping on, as b2DefaultWorldDef() has it, and creates the scene's sleepers asleep
 * (b2BodyDef.isAwake); --sleep off turns sleeping off in the world def. The variant "no-ccd"
 * turns continuous collision off (run_bench.py does not run it by default).
 *
 * Box2D v3 is not a Debian package: this program is built only when the meson option box2d_v3
 * names a Box2D v3 tree built beside the project (docs/benchmarks.md says how). Box2D mixes
 * friction by geometric mean and restitution by maximum and damps velocities by
 * 1 / (1 + h c) each substep, as carom does, so the description maps one to one; segment walls
 * are Box2D's (two-sided) segment shapes. */
#include "bench_common.h"

#include <box2d/box2d.h>

#include <stdlib.h>
#include <string.h>

/* The substeps of Box2D's benchmark program and of its samples. */
#define BOX2D_SUBSTEPS 4

typedef struct box2d_run {
    b2WorldId world;
    b2BodyId* bodies; /* the dynamic bodies, in description order */
} box2d_run;

static void destroy(void* world) {
    box2d_run* run = world;
    if (b2World_IsValid(run->world)) {
        b2DestroyWorld(run->world); /* frees every body and shape */
    }
    free(run->bodies);
    free(run);
}

static b2Vec2 vec(double x, double y) {
    return (b2Vec2){(float)x, (float)y};
}

/* The walls on one static body at the origin. */
static void add_walls(b2WorldId world, const carom_scene_desc* desc) {
    b2BodyDef def = b2DefaultBodyDef(); /* static */
    b2BodyId ground = b2CreateBody(world, &def);
    for (int i = 0; i < desc->wall_count; ++i) {
        const carom_scene_wall* w = &desc->walls[i];
        b2ShapeDef shape = b2DefaultShapeDef();
        shape.material.friction = (float)w->friction;
        shape.material.restitution = 0.0f;
        if (w->shape == CAROM_SCENE_SEGMENT) {
            b2Segment segment = {vec(w->x1, w->y1), vec(w->x2, w->y2)};
            b2CreateSegmentShape(ground, &shape, &segment);
        } else {
            b2Polygon box = b2MakeOffsetBox((float)w->half_width, (float)w->half_height,
                                            vec(w->x, w->y), b2Rot_identity);
            b2CreatePolygonShape(ground, &shape, &box);
        }
    }
}

static b2BodyId add_body(b2WorldId world, const carom_scene_body* b) {
    b2BodyDef def = b2DefaultBodyDef();
    def.type = b2_dynamicBody;
    def.position = (b2Pos){(float)b->x, (float)b->y};
    def.rotation = b2MakeRot((float)b->angle);
    def.linearVelocity = vec(b->vx, b->vy);
    def.linearDamping = (float)b->linear_damping;
    def.angularDamping = (float)b->angular_damping;
    def.isAwake = !b->asleep;
    b2BodyId body = b2CreateBody(world, &def);
    b2ShapeDef shape = b2DefaultShapeDef();
    shape.density = (float)b->density;
    shape.material.friction = (float)b->friction;
    shape.material.restitution = (float)b->restitution;
    if (b->shape == CAROM_SCENE_CIRCLE) {
        b2Circle circle = {{0.0f, 0.0f}, (float)b->radius};
        b2CreateCircleShape(body, &shape, &circle);
    } else {
        b2Polygon box = b2MakeBox((float)b->half_width, (float)b->half_height);
        b2CreatePolygonShape(body, &shape, &box);
    }
    return body;
}

static void* build(const carom_scene_desc* desc, const char* variant, int enable_sleep) {
    box2d_run* run = calloc(1, sizeof *run);
    if (run == NULL) {
        return NULL;
    }
    run->bodies = malloc(sizeof(b2BodyId) * (size_t)desc->body_count);
    if (run->bodies == NULL) {
        free(run);
        return NULL;
    }
    b2WorldDef def = b2DefaultWorldDef();
    def.gravity = vec(desc->gravity_x, desc->gravity_y);
    def.enableSleep = enable_sleep != 0;
    def.enableContinuous = strcmp(variant, "no-ccd") != 0;
    def.workerCount = 1;
    run->world = b2CreateWorld(&def);
    add_walls(run->world, desc);
    for (int i = 0; i < desc->body_count; ++i) {
        run->bodies[i] = add_body(run->world, &desc->bodies[i]);
    }
    return run;
}

static void step(void* world, double dt) {
    b2World_Step(((box2d_run*)world)->world, (float)dt, BOX2D_SUBSTEPS);
}

static void positions(void* world, const carom_scene_desc* desc, double* xy) {
    const box2d_run* run = world;
    for (int i = 0; i < desc->body_count; ++i) {
        b2Pos p = b2Body_GetPosition(run->bodies[i]);
        xy[2 * i] = p.x;
        xy[2 * i + 1] = p.y;
    }
}

int main(int argc, char** argv) {
    static const char* const variants[] = {"default", "no-ccd", NULL};
    const bench_engine engine = {"box2d_v3", variants, build, step, positions, destroy};
    return bench_main(argc, argv, &engine);
}
